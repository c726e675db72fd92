"""torsion.rollout against mujoco.rollout (MuJoCo 3.14): the same calls — one model or a
list, one data or one per thread, controls of several control_spec, initial warmstarts,
singleton broadcasting, chunk sizes, caller-provided outputs, the Rollout context manager —
return the same states and sensordata; bad shapes raise ValueError like MuJoCo's."""
import os

import mujoco
import numpy as np
import pytest
from mujoco import rollout as mj_rollout

import torsion
from torsion import rollout as tn_rollout
from pycore_models import GYM_ASSETS, REPO_ROOT, random_ctrl, small_arena_capsule_heap

FULL = int(mujoco.mjtState.mjSTATE_FULLPHYSICS)
MODELS = ["hopper.xml", "ant.xml", "humanoid.xml", "half_cheetah.xml", "reacher.xml"]


def _load(name):
    path = os.path.join(GYM_ASSETS, name)
    return mujoco.MjModel.from_xml_path(path), torsion.MjModel.from_xml_path(path)


def _initial_states(m, nbatch, seed=0):
    """nbatch perturbed FULLPHYSICS states of MuJoCo model m."""
    d = mujoco.MjData(m)
    rng = np.random.default_rng(seed)
    out = np.empty((nbatch, mujoco.mj_stateSize(m, FULL)))
    for i in range(nbatch):
        mujoco.mj_resetData(m, d)
        d.qpos[:] = m.qpos0 + 0.02 * rng.standard_normal(m.nq)
        d.qvel[:] = 0.05 * rng.standard_normal(m.nv)
        mujoco.mj_getState(m, d, out[i], FULL)
    return out


def _check(got, want, tol=1e-6):
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def test_no_control_keeps_the_data_controls():
    """control=None: the rollouts run with the controls the data holds, as MuJoCo's do (its
    applied forces are not kept, in either)."""
    m, tm = _load("half_cheetah.xml")
    d, td = mujoco.MjData(m), torsion.MjData(tm)
    u = np.random.default_rng(3).uniform(-1, 1, m.nu)
    d.ctrl[:] = u
    td.ctrl[:] = u
    d.qfrc_applied[:] = 0.5
    td.qfrc_applied[:] = 0.5
    x0 = _initial_states(m, 4)
    want = mj_rollout.rollout(m, d, x0, nstep=40)
    got = tn_rollout.rollout(tm, td, x0, nstep=40)
    _check(got, want)
    held = mj_rollout.rollout(m, mujoco.MjData(m), x0, np.tile(u, (4, 40, 1)))
    _check(got, held)


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("nthread,chunk", [(1, None), (2, None), (2, 1), (3, 2)])
def test_rollout_matches_mujoco(name, nthread, chunk):
    """nbatch rollouts with per-step controls over nthread datas."""
    mm, tm = _load(name)
    nbatch, nstep = 7, 25
    x0 = _initial_states(mm, nbatch)
    ctrl = np.stack([random_ctrl(mm, nstep, seed=i) for i in range(nbatch)])
    want = mj_rollout.rollout(mm, [mujoco.MjData(mm) for _ in range(nthread)], x0, ctrl,
                              chunk_size=chunk)
    got = tn_rollout.rollout(tm, [torsion.MjData(tm) for _ in range(nthread)], x0, ctrl,
                             chunk_size=chunk)
    _check(got, want)


@pytest.mark.parametrize("name", ["hopper.xml", "ant.xml"])
def test_model_list_and_broadcasting(name):
    """A list of models (one with other masses), one initial state and one control row
    broadcast over nbatch and nstep, nstep given explicitly."""
    mm, tm = _load(name)
    mm2, tm2 = _load(name)
    mm2.body_mass[1] *= 1.5
    tm2.body_mass[1] *= 1.5
    x0 = _initial_states(mm, 1)[0]
    ctrl = random_ctrl(mm, 1)[0]
    want = mj_rollout.rollout([mm, mm2, mm], mujoco.MjData(mm), x0, ctrl, nstep=12)
    got = tn_rollout.rollout([tm, tm2, tm], torsion.MjData(tm), x0, ctrl, nstep=12)
    assert got[0].shape == (3, 12, x0.size)
    _check(got, want)


@pytest.mark.parametrize("spec", [
    mujoco.mjtState.mjSTATE_CTRL | mujoco.mjtState.mjSTATE_QFRC_APPLIED,
    mujoco.mjtState.mjSTATE_QFRC_APPLIED,
    mujoco.mjtState.mjSTATE_XFRC_APPLIED,
])
def test_control_spec(spec):
    """Controls made of other user inputs (applied forces) than ctrl."""
    mm, tm = _load("hopper.xml")
    spec = int(spec)
    nbatch, nstep = 4, 15
    ncontrol = mujoco.mj_stateSize(mm, spec)
    rng = np.random.default_rng(3)
    control = rng.standard_normal((nbatch, nstep, ncontrol))
    x0 = _initial_states(mm, nbatch)
    want = mj_rollout.rollout(mm, mujoco.MjData(mm), x0, control, control_spec=spec)
    got = tn_rollout.rollout(tm, torsion.MjData(tm), x0, control, control_spec=spec)
    _check(got, want)


def test_initial_warmstart_and_outputs():
    """An initial warmstart, and outputs written into the caller's arrays."""
    mm, tm = _load("ant.xml")
    nbatch, nstep = 3, 10
    x0 = _initial_states(mm, nbatch)
    warm = 0.1 * np.ones((nbatch, mm.nv))
    ctrl = np.stack([random_ctrl(mm, nstep, seed=i) for i in range(nbatch)])
    want = mj_rollout.rollout(mm, mujoco.MjData(mm), x0, ctrl, initial_warmstart=warm)
    state = np.zeros((nbatch, nstep, x0.shape[1]))
    sens = np.zeros((nbatch, nstep, mm.nsensordata))
    got = tn_rollout.rollout(tm, torsion.MjData(tm), x0, ctrl, initial_warmstart=warm,
                             state=state, sensordata=sens)
    assert got[0] is state and got[1] is sens
    _check(got, want)


def test_no_control_and_context_manager():
    """No controls (zero ctrl) through Rollout(nthread=2) used as a context manager."""
    mm, tm = _load("humanoid.xml")
    x0 = _initial_states(mm, 4)
    with mj_rollout.Rollout(nthread=2) as r:
        want = r.rollout(mm, [mujoco.MjData(mm) for _ in range(2)], x0, nstep=20)
    with tn_rollout.Rollout(nthread=2) as r:
        got = r.rollout(tm, [torsion.MjData(tm) for _ in range(2)], x0, nstep=20)
    _check(got, want)
    with pytest.raises(RuntimeError):
        r.rollout(tm, torsion.MjData(tm), x0, nstep=2)


def test_sensors_and_persistent_pool():
    """A model with sensors: sensordata rows agree; persistent_pool keeps one runner."""
    path = os.path.join(REPO_ROOT, "tests", "models", "pendulum_chain.xml")
    mm, tm = mujoco.MjModel.from_xml_path(path), torsion.MjModel.from_xml_path(path)
    x0 = _initial_states(mm, 5)
    ctrl = np.stack([random_ctrl(mm, 30, seed=i) for i in range(5)])
    want = mj_rollout.rollout(mm, mujoco.MjData(mm), x0, ctrl)
    got = tn_rollout.rollout(tm, torsion.MjData(tm), x0, ctrl, persistent_pool=True)
    _check(got, want)
    got2 = tn_rollout.rollout(tm, torsion.MjData(tm), x0, ctrl, persistent_pool=True)
    _check(got2, want)
    tn_rollout.shutdown_persistent_pool()


def test_bad_shapes_raise():
    """The errors mujoco.rollout raises for bad input are ValueError here too."""
    mm, tm = _load("hopper.xml")
    d = torsion.MjData(tm)
    x0 = _initial_states(mm, 2)
    nstate = x0.shape[1]
    for args, kw in (((x0[:, :-1],), {}),
                     ((x0, np.zeros((3, 5, mm.nu))), {}),
                     ((x0, np.zeros((2, 5, mm.nu + 1))), {}),
                     ((x0,), {"control_spec": int(mujoco.mjtState.mjSTATE_QPOS)}),
                     ((x0,), {"nstep": 2.5}),
                     ((np.zeros((2, 2, 2, nstate)),), {}),
                     ((x0.tolist(),), {})):
        with pytest.raises(ValueError):
            mj_rollout.rollout(mm, mujoco.MjData(mm), *args, **kw)
        with pytest.raises(ValueError):
            tn_rollout.rollout(tm, d, *args, **kw)


def test_warning_stops_a_rollout_like_mujoco():
    """A rollout whose state diverges (|qvel| > mjMAXVAL: the engine warns and resets)
    stops and repeats its state, as mujoco.rollout does; the other rollouts run on."""
    mm, tm = _load("hopper.xml")
    x0 = _initial_states(mm, 3)
    qvel0 = 1 + mm.nq  # FULLPHYSICS: time, qpos, qvel, ...
    x0[1, qvel0] = 1e12
    ctrl = np.stack([random_ctrl(mm, 10, seed=i) for i in range(3)])
    want = mj_rollout.rollout(mm, mujoco.MjData(mm), x0, ctrl)
    got = tn_rollout.rollout(tm, torsion.MjData(tm), x0, ctrl)
    _check(got, want)
    np.testing.assert_array_equal(got[0][1, -1], got[0][1, 1])


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint64)


@pytest.mark.parametrize("name", ["humanoid.xml", "half_cheetah.xml", "hopper.xml"])
@pytest.mark.parametrize("nthread", [1, 2])
def test_grouped_rollouts_match_rollouts_alone(name, nthread):
    """Seven rollouts in one call (Euler or RK4: items go in groups of four, stepped
    together, and one of three) give the bits of each rollout run in a call of its own (one
    item: no group), one item starting from a bad state (its warning stops it mid-group)."""
    m, tm = _load(name)
    nbatch, nstep = 7, 25
    x0 = _initial_states(m, nbatch, seed=5)
    x0[2, 1] = np.nan  # qpos: a bad state, reset by the first step's check, then stopped
    ctrl = np.random.default_rng(9).uniform(-1, 1, (nbatch, nstep, m.nu))
    datas = [torsion.MjData(tm) for _ in range(nthread)]
    state, sens = tn_rollout.rollout(tm, datas, x0, ctrl)
    for r in range(nbatch):
        s1, d1 = tn_rollout.rollout(tm, torsion.MjData(tm), x0[r:r + 1], ctrl[r:r + 1])
        np.testing.assert_array_equal(_bits(state[r]), _bits(s1[0]), err_msg=f"item {r}")
        np.testing.assert_array_equal(_bits(sens[r]), _bits(d1[0]), err_msg=f"item {r}")
    assert np.isfinite(state[2, -1]).all()
    np.testing.assert_array_equal(state[2, -1], state[2, 1])  # stopped: rows repeat


def test_grouped_rollouts_with_model_list():
    """A list of models with the same sizes but different options: a group of items whose
    models differ runs item by item; every item equals its rollout alone."""
    m, tm = _load("half_cheetah.xml")
    tm2 = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "half_cheetah.xml"))
    tm2.opt.timestep = 0.004
    models = [tm, tm, tm2, tm, tm, tm, tm, tm]
    x0 = _initial_states(m, len(models), seed=6)
    ctrl = np.random.default_rng(2).uniform(-1, 1, (len(models), 20, m.nu))
    state, _ = tn_rollout.rollout(models, torsion.MjData(tm), x0, ctrl)
    for r, model in enumerate(models):
        s1, _ = tn_rollout.rollout(model, torsion.MjData(model), x0[r:r + 1], ctrl[r:r + 1])
        np.testing.assert_array_equal(_bits(state[r]), _bits(s1[0]), err_msg=f"item {r}")
    assert not np.array_equal(state[2], state[3])


def test_engine_error_in_a_group(tmp_path):
    """A capsule heap with a 40K arena: rollout 2 starts from the settled heap (its contacts
    exhaust the arena at its first step), the others from the initial pose. The group fails,
    its rollouts run again one by one, and the call raises FatalError with the engine's
    message; the same call without rollout 2 returns each rollout's bits alone."""
    model, d = small_arena_capsule_heap(tmp_path)
    assert model.opt.integrator in (0, 1)  # Euler or RK4: rollouts go in groups
    nstate = torsion.mj_stateSize(model, FULL)
    fresh, settled = np.empty(nstate), np.empty(nstate)
    torsion.mj_getState(model, torsion.MjData(model), fresh, FULL)
    torsion.mj_getState(model, d, settled, FULL)
    x0 = np.tile(fresh, (5, 1))
    x0[2] = settled
    with pytest.raises(torsion.FatalError, match="mj_stackAlloc"):
        tn_rollout.rollout(model, torsion.MjData(model), x0, nstep=3)
    keep = x0[[0, 1, 3, 4]]
    state, _ = tn_rollout.rollout(model, torsion.MjData(model), keep, nstep=3)
    for r in range(4):
        s1, _ = tn_rollout.rollout(model, torsion.MjData(model), keep[r:r + 1], nstep=3)
        np.testing.assert_array_equal(_bits(state[r]), _bits(s1[0]))
