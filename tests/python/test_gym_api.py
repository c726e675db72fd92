"""torsion.gym's Gymnasium API: Gymnasium's own checks, single-env make, bad input, batching.

Gymnasium 1.4 offers checks for single environments only (gymnasium.utils.env_checker.
check_env and gymnasium.utils.env_match.check_environments_match); they run on
torsion.gym.make(env_id). The vector env is checked against SyncVectorEnv in
test_gym_match.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.env_match import check_environments_match
from gymnasium.vector import AutoresetMode

from gym_compare import mujoco_backend, tgym


@pytest.mark.parametrize("env_id", tgym.ENV_IDS)
def test_gymnasium_env_checker(env_id):
    """check_env passes on the single-environment form of every task."""
    env = tgym.make(env_id, backend=mujoco_backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
        check_env(env, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("env_id", tgym.ENV_IDS)
def test_single_env_matches_gymnasium_make(env_id):
    """Gymnasium's check_environments_match: same obs, rewards, ends and info keys."""
    ours = tgym.make(env_id, backend=mujoco_backend, max_episode_steps=40)
    theirs = gym.make(env_id, max_episode_steps=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_environments_match(theirs, ours, num_steps=100, seed=3,
                                 info_comparison="keys-equivalence")
    theirs.close()
    ours.close()


def test_unknown_env_id():
    """An id that is not one of the v5 MuJoCo tasks raises a clear error."""
    with pytest.raises(ValueError, match="no environment 'Ant-v4'"):
        tgym.make_vec("Ant-v4", 2, backend=mujoco_backend)
    with pytest.raises(gym.error.UnregisteredEnv):
        tgym.make("CartPole-v1", backend=mujoco_backend)


def test_bad_arguments():
    """Unknown keyword arguments, backends, rendering and env counts are rejected."""
    with pytest.raises(TypeError, match="unexpected keyword argument 'healthy_zrange'"):
        tgym.make_vec("Hopper-v5", 2, backend=mujoco_backend, healthy_zrange=(0, 1))
    with pytest.raises(ValueError, match="unknown backend"):
        tgym.make_vec("Hopper-v5", 2, backend="gpu")
    with pytest.raises(ValueError, match="needs socket= or address="):
        tgym.make_vec("Hopper-v5", 2, backend="daemon")
    with pytest.raises(ValueError, match="rendering is not supported"):
        tgym.make_vec("Hopper-v5", 2, backend=mujoco_backend, render_mode="rgb_array")
    with pytest.raises(ValueError, match="num_envs"):
        tgym.make_vec("Hopper-v5", 0, backend=mujoco_backend)
    with pytest.raises(OSError, match="does not exist"):
        tgym.make_vec("Hopper-v5", 1, backend=mujoco_backend, xml_file="no_such_model.xml")


def test_wrong_action_shape():
    """Actions of the wrong shape raise ValueError in the vector and the single env."""
    env = tgym.make_vec("HalfCheetah-v5", 3, backend=mujoco_backend)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions must have shape \(3, 6\), got \(3, 5\)"):
        env.step(np.zeros((3, 5), dtype=np.float32))
    with pytest.raises(ValueError, match="actions must have shape"):
        env.step(np.zeros(6, dtype=np.float32))
    with pytest.raises(TypeError, match="numeric"):
        env.step(np.full((3, 6), "a"))
    single = tgym.make("HalfCheetah-v5", backend=mujoco_backend)
    single.reset(seed=0)
    with pytest.raises(ValueError, match="Action dimension mismatch"):
        single.step(np.zeros(5))


def test_disabled_mode_requires_masked_reset():
    """Stepping an ended environment with autoreset DISABLED raises until it is reset."""
    env = tgym.make_vec("InvertedPendulum-v5", 2, backend=mujoco_backend,
                        autoreset_mode=AutoresetMode.DISABLED, max_episode_steps=3)
    env.reset(seed=1)
    action = np.zeros((2, 1), dtype=np.float32)
    for _ in range(3):
        _, _, term, trunc, _ = env.step(action)
    assert np.all(term | trunc)
    with pytest.raises(RuntimeError, match="reset them first"):
        env.step(action)
    with pytest.raises(TypeError, match="reset_mask"):
        env.reset(options={"reset_mask": [True, True]})
    env.reset(options={"reset_mask": np.array([True, True])})
    env.step(action)


def test_one_batch_call_per_step():
    """A vector step is one batch step and one batch get, however many environments."""
    env = tgym.make_vec("Walker2d-v5", 8, backend=mujoco_backend, terminate_when_unhealthy=False)
    env.reset(seed=0)
    calls = dict(env.batch.calls)
    for _ in range(5):
        env.step(env.action_space.sample())
    assert env.batch.calls["step"] - calls["step"] == 5
    assert env.batch.calls["get"] - calls["get"] == 5
    assert env.batch.calls["reset"] == calls["reset"]


def test_package_does_not_import_mujoco():
    """Importing torsion.gym never loads the mujoco module (it is used by the tests only)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys, importlib.util; sys.path.insert(0, %r)\n"
         "if importlib.util.find_spec('torsion') is None: sys.path.insert(0, %r)\n"
         "import torsion.gym\n"
         "torsion.gym.make_vec  # the factories are loaded with the package\n"
         "print('mujoco' in sys.modules)"
         % (here, os.path.join(here, "..", "..", "python"))],
        check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "False"


def test_gymnasium_registry_ids():
    """"torsion/<id>" works with gymnasium.make_vec(vector_entry_point) and gymnasium.make."""
    ours = gym.make_vec("torsion/Reacher-v5", 2, vectorization_mode="vector_entry_point",
                        backend=mujoco_backend, reward_dist_weight=3.0)
    theirs = gym.make_vec("Reacher-v5", 2, vectorization_mode="sync", reward_dist_weight=3.0)
    assert ours.spec.id == "torsion/Reacher-v5"
    assert ours.runner.max_episode_steps == 50
    obs_a, _ = ours.reset(seed=4)
    obs_b, _ = theirs.reset(seed=4)
    assert np.array_equal(obs_a, obs_b)
    theirs.action_space.seed(4)
    for _ in range(60):
        action = theirs.action_space.sample()
        out_a, out_b = ours.step(action), theirs.step(action)
        for a, b in zip(out_a[:4], out_b[:4]):
            assert np.allclose(a, b, rtol=1e-12, atol=0)
    single = gym.make("torsion/Hopper-v5", backend=mujoco_backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(single, skip_render_check=True)
    assert single.spec.max_episode_steps == 1000


def test_gymnasium_vector_wrappers():
    """Gymnasium's vector wrappers run on top and see the same episodes as on SyncVectorEnv."""
    from gymnasium.wrappers.vector import ClipAction, NormalizeObservation, \
        RecordEpisodeStatistics

    def wrapped(env):
        return RecordEpisodeStatistics(NormalizeObservation(ClipAction(env)))

    ours = wrapped(tgym.make_vec("Hopper-v5", 3, backend=mujoco_backend))
    theirs = wrapped(gym.make_vec("Hopper-v5", 3, vectorization_mode="sync"))
    obs_a, _ = ours.reset(seed=8)
    obs_b, _ = theirs.reset(seed=8)
    assert np.array_equal(obs_a, obs_b)
    rng = np.random.default_rng(8)
    episodes = 0
    for _ in range(150):
        action = rng.uniform(-2, 2, size=(3, 3))
        out_a, out_b = ours.step(action), theirs.step(action)
        assert np.allclose(out_a[0], out_b[0], rtol=1e-9, atol=1e-12)
        assert np.array_equal(out_a[1], out_b[1])
        assert np.array_equal(out_a[2], out_b[2])
        if "episode" in out_b[4]:
            episodes += int(out_b[4]["_episode"].sum())
            assert np.array_equal(out_a[4]["_episode"], out_b[4]["_episode"])
            assert np.array_equal(out_a[4]["episode"]["r"], out_b[4]["episode"]["r"])
            assert np.array_equal(out_a[4]["episode"]["l"], out_b[4]["episode"]["l"])
    assert episodes > 0
    assert len(ours.unwrapped.np_random) == 3


@pytest.mark.parametrize("first_reset", [False, True])
def test_merged_infos_equal_pack_infos(first_reset):
    """merge_infos (whole arrays, reset rows marked) lays out infos as pack_infos does from
    the two groups' rows: same keys in the same order, values, dtypes and masks."""
    from torsion.gym.vector_env import merge_infos, pack_infos
    n = 6
    reset = np.array([first_reset, False, True, False, True, False])
    rng = np.random.default_rng(0)
    step_info = {"x": rng.random(n), "only_step": rng.random((n, 2)),
                 "count": np.arange(n, dtype=np.int64)}
    reset_info = {"x": rng.random(n), "count": np.arange(n, dtype=np.int64) + 10,
                  "only_reset": rng.random(n)}
    merged = merge_infos(reset, step_info, reset_info)
    steps, resets = np.flatnonzero(~reset), np.flatnonzero(reset)
    parts = [(steps, {k: v[steps] for k, v in step_info.items()}),
             (resets, {k: v[resets] for k, v in reset_info.items()})]
    packed = pack_infos(n, sorted(parts, key=lambda part: part[0][0]))
    assert list(merged) == list(packed)
    for key, value in packed.items():
        assert merged[key].dtype == value.dtype, key
        np.testing.assert_array_equal(merged[key], value, err_msg=key)
    # arrays of different dtypes under one key: left to pack_infos
    reset_info["count"] = reset_info["count"].astype(np.float64)
    assert merge_infos(reset, step_info, reset_info) is None
