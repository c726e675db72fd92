"""Engine errors that unwind: a model whose <size memory> is too small for its step makes
MuJoCo raise "mj_stackAlloc: out of memory" from mj_step / mj_forward. Torsion raises the
same error through mju_error, which unwinds to the host's boundary: torsion-sim prints one
line and exits non-zero (never a crash), and the batch helpers name the failed item and keep
the other items' results.

Models: Gymnasium's humanoid with <size memory="6K"/> (every step overflows) and the
capsule heap of tests/models/scenes with <size memory="20K"/> (contacts from step 58 on
overflow, in MuJoCo and in Torsion). Both are copies written to a temporary directory."""
import os
import re

import mujoco
import numpy as np
import pytest

from harness import compare, corpus, oracle, torsion

CAPSULES = os.path.join(corpus.REPO_ROOT, "tests", "models", "scenes", "capsule_heap.xml")
FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS
COMMANDS = ["speed", "rollout", "forward", "transitionfd"]


def _gym_humanoid():
    import gymnasium
    return os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets",
                        "humanoid.xml")


def _with_memory(src, memory, dest):
    """Copy of the model at src with <size memory=...> as the first child of <mujoco>."""
    with open(src) as f:
        text = f.read()
    text, n = re.subn(r"(<mujoco[^>]*>)", r'\1\n  <size memory="%s"/>' % memory, text, count=1)
    assert n == 1
    with open(dest, "w") as f:
        f.write(text)
    return dest


def _state(m, d):
    s = np.zeros(mujoco.mj_stateSize(m, FULL))
    mujoco.mj_getState(m, d, s, FULL)
    return s


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """{name: (small-arena copy, one state of it that overflows in mj_forward)}; the states
    come from MuJoCo on the original models, with contacts (the humanoid after 50 steps, the
    capsules after 70, when they touch the floor)."""
    tmp = tmp_path_factory.mktemp("small_arena")
    human = _gym_humanoid()
    m = mujoco.MjModel.from_xml_path(human)
    d = mujoco.MjData(m)
    for _ in range(50):
        mujoco.mj_step(m, d)
    assert d.ncon > 0
    human_state = _state(m, d)
    m = mujoco.MjModel.from_xml_path(CAPSULES)
    d = mujoco.MjData(m)
    for _ in range(70):
        mujoco.mj_step(m, d)
    assert d.ncon > 0
    return {
        "humanoid_6K": (_with_memory(human, "6K", str(tmp / "humanoid_6K.xml")), human_state),
        "capsules_20K": (_with_memory(CAPSULES, "20K", str(tmp / "capsules_20K.xml")),
                         _state(m, d)),
    }


def _run(cmd, path, state, tmp):
    """torsion-sim cmd on the model at one state (not checked)."""
    np.save(os.path.join(tmp, "s.npy"), state[None, :])
    s = os.path.join(tmp, "s.npy")
    args = {
        "speed": ["speed", path, "--nstep", 200, "--threads", 2],
        "rollout": ["rollout", path, "--state", s, "--nstep", 5, "--out",
                    os.path.join(tmp, "o.npy")],
        "forward": ["forward", path, "--state", s, "--out", os.path.join(tmp, "q.npy")],
        # (Gymnasium's humanoid integrates with RK4, which finite differences refuse)
        "transitionfd": ["transitionfd", path, "--state", s, "--integrator", "euler", "--out",
                         os.path.join(tmp, "fd")],
    }[cmd]
    return torsion.run(args, check=False)


@pytest.mark.parametrize("cmd", COMMANDS)
@pytest.mark.parametrize("name", ["humanoid_6K", "capsules_20K"])
def test_command_fails_with_one_line(models, name, cmd, tmp_path):
    path, state = models[name]
    proc = _run(cmd, path, state, str(tmp_path))
    assert proc.returncode > 0, "exit status %d (a signal when negative)\n%s" % (
        proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "mj_stackAlloc: out of memory, stack overflow" in lines[0], lines[0]
    assert lines[0].startswith("torsion-sim: %s: " % cmd), lines[0]


def test_mujoco_fails_too(models):
    """The same models are errors in MuJoCo 3.14 (the reference for raising at all)."""
    with pytest.raises(Exception, match="mj_stackAlloc: out of memory"):
        mujoco.MjModel.from_xml_path(models["humanoid_6K"][0])
    m = mujoco.MjModel.from_xml_path(models["capsules_20K"][0])
    d = mujoco.MjData(m)
    with pytest.raises(mujoco.FatalError, match="mj_stackAlloc: out of memory"):
        for _ in range(100):
            mujoco.mj_step(m, d)
    assert 50 <= d.time / m.opt.timestep <= 70


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_names_failed_item(models, threads, tmp_path):
    """Rollout items 1 and 3 touch the floor (overflow), items 0 and 2 fall 10 m above it:
    the failure names item 1, the failed rows are NaN, the others equal MuJoCo's."""
    path, touching = models["capsules_20K"]
    m = oracle.load(path, disable=oracle.CONTACT_ORACLE)
    d = mujoco.MjData(m)
    high = _state(m, d)
    blocks = dict(oracle.state_blocks(m))
    qpos = high[blocks["qpos"]]
    for j in range(m.njnt):
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            qpos[m.jnt_qposadr[j] + 2] += 10.0
    states = np.stack([high, touching, high, touching])
    nstep = 40
    np.save(tmp_path / "s.npy", states)
    out = tmp_path / "o.npy"
    proc = torsion.run(["rollout", path, "--state", tmp_path / "s.npy", "--nstep", nstep,
                        "--threads", threads, "--out", out], check=False)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("torsion-sim: rollout: item 1 of 4 failed (2 failed in all): "
                                  "mj_stackAlloc: out of memory"), proc.stderr
    ours = np.load(out)
    assert np.isnan(ours[[1, 3]]).all()
    expected = oracle.rollout(m, states[[0, 2]], None, nstep)
    compare.check_states(m, ours[[0, 2]], expected, 1e-8, "rollout beside failed items")


def test_empty_batch_still_succeeds(models, tmp_path):
    """Zero items on the small-arena model: nothing fails, an empty output is written."""
    path, state = models["capsules_20K"]
    np.save(tmp_path / "e.npy", np.zeros((0, state.size)))
    proc = torsion.run(["rollout", path, "--state", tmp_path / "e.npy", "--nstep", 3, "--out",
                        tmp_path / "o.npy"], check=False)
    assert proc.returncode == 0, proc.stderr
    assert np.load(tmp_path / "o.npy").shape == (0, 3, state.size)
