"""torsion.batch.SimBatch against MuJoCo run env by env: resets with given qpos/qvel,
controlled steps of all envs and of subsets, and field reads give the numbers MuJoCo gives
for each environment; the results do not depend on the thread count; bad input raises."""
import os

import mujoco
import numpy as np
import pytest

import torsion
from torsion.batch import SimBatch
from pycore_models import GYM_ASSETS, random_ctrl

FIELDS = ["qpos", "qvel", "xpos", "xquat", "cinert", "cvel", "qfrc_actuator", "cfrc_ext",
          "sensordata", "act", "time"]


class _MujocoEnvs:
    """The reference: n MjData stepped one by one with the same contract."""

    def __init__(self, path, n):
        self.m = mujoco.MjModel.from_xml_path(path)
        self.d = [mujoco.MjData(self.m) for _ in range(n)]

    def reset(self, ids, qpos, qvel):
        for j, i in enumerate(ids):
            mujoco.mj_resetData(self.m, self.d[i])
            self.d[i].qpos[:] = qpos[j]
            self.d[i].qvel[:] = qvel[j]
            mujoco.mj_forward(self.m, self.d[i])

    def step(self, ctrl, nstep, ids):
        for j, i in enumerate(ids):
            self.d[i].ctrl[:] = ctrl[j]
            mujoco.mj_step(self.m, self.d[i], nstep)

    def get(self, names, ids):
        return {n: np.array([np.copy(getattr(self.d[i], n)) for i in ids]) for n in names}


@pytest.mark.parametrize("name", ["hopper.xml", "ant.xml", "humanoid.xml",
                                  "half_cheetah.xml"])
@pytest.mark.parametrize("nthread", [1, 2])
def test_batch_matches_mujoco(name, nthread):
    """Resets, steps (all envs, then a subset) and reads agree with MuJoCo per env."""
    path = os.path.join(GYM_ASSETS, name)
    n = 6
    ref = _MujocoEnvs(path, n)
    batch = SimBatch(torsion.MjModel.from_xml_path(path), n, nthread=nthread)
    m = ref.m
    rng = np.random.default_rng(1)
    every = list(range(n))
    qpos = m.qpos0 + 0.01 * rng.standard_normal((n, m.nq))
    qvel = 0.01 * rng.standard_normal((n, m.nv))
    ref.reset(every, qpos, qvel)
    batch.reset(every, qpos, qvel)
    for it in range(4):
        ids = every if it % 2 == 0 else [4, 1]
        ctrl = random_ctrl(m, len(ids), seed=it)
        ref.step(ctrl, 5, ids)
        batch.step(ctrl, 5, None if ids is every else ids)
        want, got = ref.get(FIELDS, every), batch.get(FIELDS)
        for f in FIELDS:
            assert got[f].shape == want[f].shape, f
            np.testing.assert_allclose(got[f], want[f], rtol=1e-6, atol=1e-6, err_msg=f)
    sub = batch.get(["qpos", "xmat"], env_ids=[3, 0])
    np.testing.assert_allclose(sub["qpos"], ref.get(["qpos"], [3, 0])["qpos"], atol=1e-6)
    assert sub["xmat"].shape == (2, m.nbody, 9)
    # a reset of a subset leaves the others alone
    before = batch.get(["qpos"])["qpos"]
    batch.reset([2], qpos[:1], qvel[:1])
    after = batch.get(["qpos"])["qpos"]
    np.testing.assert_array_equal(after[2], qpos[0])
    np.testing.assert_array_equal(np.delete(after, 2, 0), np.delete(before, 2, 0))


def test_thread_count_does_not_change_results():
    """Two batches with 1 and 2 threads produce identical bits."""
    path = os.path.join(GYM_ASSETS, "ant.xml")
    model = torsion.MjModel.from_xml_path(path)
    out = []
    for nthread in (1, 2):
        b = SimBatch(model, 5, nthread=nthread)
        b.reset(None, np.tile(model.qpos0, (5, 1)), np.zeros((5, model.nv)))
        for t in range(10):
            b.step(random_ctrl(model, 5, seed=t), 2)
        out.append(b.get(["qpos", "qvel"]))
    for f in ("qpos", "qvel"):
        np.testing.assert_array_equal(out[0][f], out[1][f])


def test_data_view_of_one_env():
    """batch.data(i) is a live MjData over env i."""
    model = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "hopper.xml"))
    b = SimBatch(model, 3)
    b.step(np.ones((3, model.nu)), 4)
    d = b.data(1)
    np.testing.assert_array_equal(d.qpos, b.get(["qpos"], [1])["qpos"][0])
    d.qvel[:] = 0.5
    np.testing.assert_array_equal(b.get(["qvel"], [1])["qvel"][0], 0.5)
    assert d.time == pytest.approx(4 * model.opt.timestep)


def test_readout_serves_the_same_fields():
    """With set_readout, get returns what direct reads return: after resets and steps of
    all envs and of subsets, for every env and for subsets, bit for bit."""
    model = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "humanoid.xml"))
    names = ["qpos", "qvel", "cinert", "cfrc_ext", "time"]
    plain, fast = SimBatch(model, 5, nthread=2), SimBatch(model, 5, nthread=2)
    fast.set_readout(names + ["xipos"])
    rng = np.random.default_rng(3)
    qpos = np.tile(model.qpos0, (5, 1)) + rng.uniform(-0.01, 0.01, (5, model.nq))
    seed = 0
    for b in (plain, fast):
        b.reset(None, qpos, np.zeros((5, model.nv)))
    calls = [(None, None), ([1, 3], None), (None, [4, 0]), ([2], [2])]
    for step_ids, reset_ids in calls:
        seed += 1
        ctrl = random_ctrl(model, 5 if step_ids is None else len(step_ids), seed)
        for b in (plain, fast):
            if reset_ids is not None:
                b.reset(reset_ids, qpos[:len(reset_ids)], np.zeros((len(reset_ids), model.nv)))
            b.step(ctrl, 3, step_ids, rne_post_constraint=True)
        for ids in (None, [4, 1], [2]):
            want, got = plain.get(names, ids), fast.get(names, ids)
            for name in names:
                np.testing.assert_array_equal(got[name], want[name], err_msg=name)
    # the rows handed out are copies
    first = fast.get(["qpos"])["qpos"]
    first[:] = 7.0
    assert not np.any(fast.get(["qpos"])["qpos"] == 7.0)
    # a field outside the readout is read directly; unknown names still raise
    np.testing.assert_array_equal(fast.get(["xpos"])["xpos"], plain.get(["xpos"])["xpos"])
    with pytest.raises(KeyError):
        fast.set_readout(["no_such_field"])
    # writes through a live view show in get from then on
    fast.data(2).qvel[:] = 0.25
    np.testing.assert_array_equal(fast.get(["qvel"], [2])["qvel"][0], 0.25)


def _small_arena_model(tmp_path):
    """The capsule heap with a 20K arena: a few hundred steps exhaust it (an engine error)."""
    from pycore_models import REPO_ROOT
    with open(os.path.join(REPO_ROOT, "tests", "models", "scenes", "capsule_heap.xml")) as f:
        text = f.read()
    start = text.index(">", text.index("<mujoco")) + 1
    path = tmp_path / "capsules_small.xml"
    path.write_text(text[:start] + '\n  <size memory="20K"/>' + text[start:])
    return torsion.MjModel.from_xml_path(str(path))


def test_readout_after_an_engine_error(tmp_path):
    """Envs a failing step reset (both envs here: they are the same) are read back in their
    reset state through the readout, as direct reads give them."""
    model = _small_arena_model(tmp_path)
    b = SimBatch(model, 2)
    b.set_readout(["time", "qpos"])
    with pytest.raises(torsion.FatalError, match="env 0"):
        b.step(None, 400)
    got = b.get(["time", "qpos"])
    np.testing.assert_array_equal(got["time"], [0.0, 0.0])
    np.testing.assert_array_equal(got["qpos"], np.tile(model.qpos0, (2, 1)))
    b.data(0)  # direct reads from here on: the same values
    np.testing.assert_array_equal(b.get(["qpos"])["qpos"], got["qpos"])


def test_bad_input_raises():
    """Unknown env ids and fields, wrong shapes and types raise; nothing crashes."""
    model = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "hopper.xml"))
    b = SimBatch(model, 3)
    with pytest.raises(KeyError):
        b.step(np.zeros((1, model.nu)), 1, env_ids=[3])
    with pytest.raises(KeyError):
        b.get(["no_such_field"])
    with pytest.raises(ValueError):
        b.step(np.zeros((2, model.nu)), 1)
    with pytest.raises(ValueError):
        b.reset([0], np.zeros((1, model.nq + 1)), None)
    with pytest.raises(TypeError):
        b.step(np.zeros((3, model.nu)), 1, env_ids=[0.5])
    with pytest.raises(ValueError):
        SimBatch(model, 0)
    with pytest.raises(TypeError):
        SimBatch("model", 2)


def test_engine_error_in_one_env(tmp_path):
    """An env whose step exhausts the arena raises FatalError naming it; it is reset."""
    model = _small_arena_model(tmp_path)
    b = SimBatch(model, 2)
    with pytest.raises(torsion.FatalError, match="env 0"):
        b.step(None, 400)
    assert b.get(["time"])["time"][0] == 0.0


def _stepped_qpos(path, n, nthread, calls, seed):
    """qpos after `calls` batch steps of n envs with seeded random controls."""
    m = torsion.MjModel.from_xml_path(path)
    batch = SimBatch(m, n, nthread=nthread)
    for c in range(calls):
        batch.step(random_ctrl(m, n, seed=seed + c), 2)
    return batch.get(["qpos"])["qpos"]


def test_concurrent_calls_from_threads():
    """Two Python threads stepping their own batches at once (one of them then runs its
    environments alone while the other holds the worker threads) get the results of the
    same runs made one after the other."""
    import threading

    path = os.path.join(GYM_ASSETS, "half_cheetah.xml")
    expected = [_stepped_qpos(path, 8, 2, 40, seed) for seed in (0, 100)]
    got = [None, None]

    def run(k):
        got[k] = _stepped_qpos(path, 8, 2, 40, 100 * k)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    for k in range(2):
        np.testing.assert_array_equal(got[k], expected[k])


def test_overlapping_calls_on_one_batch_are_refused():
    """A second thread's call on a batch that is being stepped raises RuntimeError instead of
    stepping the same environments at once; the batch works afterwards and its environments
    hold the results of the calls that ran."""
    import threading

    path = os.path.join(GYM_ASSETS, "humanoid.xml")
    m = torsion.MjModel.from_xml_path(path)
    batch = SimBatch(m, 4, nthread=2)
    batch.reset(None)
    errors = {"long": [], "short": []}
    started = threading.Event()

    def long_call():
        started.set()
        try:
            batch.step(None, 4000)
        except RuntimeError as e:
            errors["long"].append(str(e))

    thread = threading.Thread(target=long_call)
    thread.start()
    started.wait()
    short_calls = 0
    while thread.is_alive():
        try:
            batch.step(None, 1)
            short_calls += 1
        except RuntimeError as e:
            errors["short"].append(str(e))
    thread.join()
    refused = errors["long"] + errors["short"]
    assert refused, "no call overlapped the 4000-step call"
    assert all("calls on one batch must not overlap" in e for e in refused)
    # the steps taken: the short calls that ran plus the long call unless it was refused
    steps = short_calls + (0 if errors["long"] else 4000)
    times = batch.get(["time"])["time"]
    np.testing.assert_allclose(times, steps * m.opt.timestep, rtol=1e-9)
    batch.step(None, 1)
    assert np.all(batch.get(["time"])["time"] > times)


def _child_steps(path, conn):
    """In a fork()ed child: a two-thread batch's qpos, sent back."""
    conn.send(_stepped_qpos(path, 8, 2, 20, 7))
    conn.close()


def test_batch_in_forked_child():
    """A child fork()ed after the parent's batch used its worker threads steps its own
    two-thread batch (the parent's threads are not in the child) to the parent's numbers."""
    import multiprocessing

    path = os.path.join(GYM_ASSETS, "half_cheetah.xml")
    expected = _stepped_qpos(path, 8, 2, 20, 7)
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_child_steps, args=(path, child))
    proc.start()
    assert parent.poll(120), "the forked child did not answer"
    got = parent.recv()
    proc.join(30)
    assert proc.exitcode == 0
    np.testing.assert_array_equal(got, expected)
