"""Sessions through torsion.client: Session.step with readouts/env_ids/in-step resets,
SessionBatch (the SimBatch contract, one round trip per vector step) and AsyncSession
(EnvPool-style send/recv), all compared with the same calls run through MuJoCo."""
import mujoco
import numpy as np
import pytest

from client_daemon import PENDULUM, bitwise, client, daemon, gym_asset  # noqa: F401
from torsion.client import AsyncSession, ServerError, SessionBatch

READ = ["qpos", "qvel", "xpos", "cinert", "cvel", "qfrc_actuator", "cfrc_ext"]


class MujocoBatch:
    """The SimBatch contract run with MuJoCo in Python, for reference."""

    def __init__(self, path, n):
        self.model = mujoco.MjModel.from_xml_path(path)
        self.d = [mujoco.MjData(self.model) for _ in range(n)]
        for d in self.d:
            mujoco.mj_forward(self.model, d)

    def reset(self, env_ids, qpos, qvel):
        for i, e in enumerate(env_ids):
            d = self.d[e]
            mujoco.mj_resetData(self.model, d)
            d.qpos[:] = qpos[i]
            d.qvel[:] = qvel[i]
            mujoco.mj_forward(self.model, d)

    def step(self, ctrl, nstep, env_ids=None):
        ids = range(len(self.d)) if env_ids is None else env_ids
        for i, e in enumerate(ids):
            self.d[e].ctrl[:] = ctrl[i]
            for _ in range(nstep):
                mujoco.mj_step(self.model, self.d[e])

    def get(self, names, env_ids=None):
        ids = range(len(self.d)) if env_ids is None else env_ids
        return {n: np.stack([np.array(getattr(self.d[e], n)) for e in ids]) for n in names}


def close(a, b, tol):
    if tol == 0.0:
        return bitwise(a, b)
    return a.shape == b.shape and np.abs(a - b).max(initial=0) <= tol * max(1, np.abs(b).max(initial=0))


@pytest.mark.parametrize("name,tol", [("pendulum", 0.0), ("humanoid", 1e-9)])
def test_session_batch_equals_mujoco(client, name, tol):
    path = PENDULUM if name == "pendulum" else gym_asset("humanoid.xml")
    n = 8
    ref = MujocoBatch(path, n)
    m = ref.model
    sb = SessionBatch(client, path, n, readout=READ)
    assert sb.model.nu == m.nu and sb.model.opt.timestep == m.opt.timestep
    for k, v in sb.get(READ).items():
        assert close(v, ref.get([k])[k], tol), k
    rng = np.random.default_rng(31)
    trips = sb.round_trips
    for t in range(12):
        # Gymnasium-style: some environments reset (noise drawn here), the others step
        done = rng.random(n) < 0.25
        ids_reset = np.flatnonzero(done)
        ids_step = np.flatnonzero(~done)
        qpos = m.qpos0 + 0.01 * rng.standard_normal((ids_reset.size, m.nq))
        qvel = 0.01 * rng.standard_normal((ids_reset.size, m.nv))
        ctrl = 0.3 * rng.standard_normal((ids_step.size, m.nu))
        ref.reset(ids_reset, qpos, qvel)
        ref.step(ctrl, 2, env_ids=ids_step)
        if t % 2 == 0:
            sb.reset(ids_reset, qpos, qvel)
            sb.step(ctrl, 2, env_ids=ids_step)
        elif t == 5:
            # the resets handed to the step, to the model's defaults (qpos0, zero qvel)
            ref.reset(ids_reset, np.tile(m.qpos0, (ids_reset.size, 1)),
                      np.zeros((ids_reset.size, m.nv)))
            sb.step(ctrl, 2, env_ids=ids_step, reset_ids=ids_reset)
        else:
            sb.step(ctrl, 2, env_ids=ids_step, reset_ids=ids_reset, reset_qpos=qpos,
                    reset_qvel=qvel)
        got, want = sb.get(READ), ref.get(READ)
        for k in READ:
            assert close(got[k], want[k], tol), (t, k)
        sub = sb.get(["qpos"], env_ids=[3, 1])["qpos"]
        assert close(sub, want["qpos"][[3, 1]], tol)
    assert sb.round_trips - trips == 12  # one round trip per vector step, resets included
    # (SimBatch's keywords: resets handed to the step, here on odd steps)
    with pytest.raises(KeyError, match="readout"):
        sb.get(["subtree_com"])
    with pytest.raises(ValueError):
        sb.step(np.zeros((n, m.nu + 1)), 1)
    sb.close()


def test_session_step_readouts_and_errors(client):
    s = client.session(PENDULUM, 3)
    m = mujoco.MjModel.from_xml_path(PENDULUM)
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, s.initial_states[1], mujoco.mjtState.mjSTATE_FULLPHYSICS.value)
    u = np.array([[0.5, -0.2]])
    r = s.step(u, env_ids=[1], frame_skip=4, readout=["xpos", "qpos"])
    d.ctrl[:] = u[0]
    for _ in range(4):
        mujoco.mj_step(m, d)
    assert list(r.env_ids) == [1] and r.readouts["xpos"].shape == (1, m.nbody, 3)
    assert bitwise(r.readouts["xpos"][0], d.xpos) and bitwise(r.readouts["qpos"][0], d.qpos)
    with pytest.raises(ServerError) as e:
        s.step(None, readout=["bogus"])
    assert e.value.name == "ERROR_INVALID_ARGUMENT" and "bogus" in e.value.message
    with pytest.raises(ValueError):
        s.step(np.zeros((3, 2)), env_ids=[0, 1])        # ctrl rows != addressed envs
    with pytest.raises(ValueError):
        s.step(None, env_ids=[0, 3])                    # out of range, caught locally
    with pytest.raises(ValueError):
        s.step(None, env_ids=[0], reset_env_ids=[1])    # reset of an unaddressed env
    s.close()


def test_async_session_send_recv_equals_mujoco(client):
    n = 6
    ref = MujocoBatch(PENDULUM, n)
    m = ref.model
    pool = AsyncSession(client, PENDULUM, n, readout=["qpos", "qvel"])
    rng = np.random.default_rng(41)
    qpos = m.qpos0 + 0.1 * rng.standard_normal((n, m.nq))
    qvel = 0.1 * rng.standard_normal((n, m.nv))
    pool.async_reset(np.arange(n), qpos, qvel)
    ref.reset(range(n), qpos, qvel)
    r = pool.recv()
    assert list(r.env_ids) == list(range(n))
    assert bitwise(r.readouts["qpos"], ref.get(["qpos"])["qpos"])

    # two halves in flight at once, EnvPool style: recv returns them in send order
    halves = [np.array([0, 2, 4]), np.array([5, 3, 1])]
    for t in range(10):
        acts = [rng.standard_normal((3, m.nu)) for _ in halves]
        for h, a in zip(halves, acts):
            pool.send(a, h)
            ref.step(a, 1, env_ids=h)
        assert pool.pending() == 2
        for h in halves:
            r = pool.recv()
            assert list(r.env_ids) == list(h)
            want = ref.get(["qpos", "qvel"], env_ids=h)
            assert bitwise(r.readouts["qpos"], want["qpos"])
            assert bitwise(r.readouts["qvel"], want["qvel"])
    with pytest.raises(RuntimeError):
        pool.recv()

    # a reset inside a send: env 2 restarts, the others step
    a = rng.standard_normal((n, m.nu))
    pool.send(a, np.arange(n), reset_env_ids=[2], reset_qpos=qpos[2:3], reset_qvel=qvel[2:3])
    ref.reset([2], qpos[2:3], qvel[2:3])
    ref.step(a[[0, 1, 3, 4, 5]], 1, env_ids=[0, 1, 3, 4, 5])
    r = pool.recv()
    assert bitwise(r.readouts["qpos"], ref.get(["qpos"])["qpos"])
    pool.close()


def test_sensordata_readout_and_float32(client):
    import os
    path = os.path.join(os.path.dirname(PENDULUM), "itempath", "diverge_arm.xml")
    ref = MujocoBatch(path, 3)
    m = ref.model
    s = client.session(path, 3, keyframe=-1)
    s32 = client.session(path, 3, keyframe=-1, float32=True)
    rng = np.random.default_rng(51)
    for t in range(5):
        u = 0.2 * rng.standard_normal((3, m.nu))
        r = s.step(u, frame_skip=2, readout=["sensordata", "site_xpos"])
        r32 = s32.step(u, frame_skip=2, readout=["sensordata"])
        ref.step(u, 2)
        want = ref.get(["sensordata", "site_xpos"])
        assert bitwise(r.readouts["sensordata"], want["sensordata"])
        assert bitwise(r.readouts["site_xpos"], want["site_xpos"])
        assert r32.readouts["sensordata"].dtype == np.float32
        assert np.array_equal(r32.readouts["sensordata"], want["sensordata"].astype(np.float32))
    s.close()
    s32.close()
