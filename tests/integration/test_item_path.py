"""One path per item: the same rollout and forward batches through torsion-sim (the engine's
OpenMP batch helper with 1 and 2 threads) and through torsiond (2 workers, one item per
chunk) give the same bits, states and sensordata, including items that diverge: NaN qvel in
the initial state (MuJoCo's bad-qvel warning and reset in the first step) and a huge control
from step 30 on (the bad-ctrl warning mid-rollout). Every host stops such an item
after the warning step and repeats the current state in its remaining rows, and
mujoco.rollout agrees on every row (numbers within the rollout tolerance, the stop at the
same step)."""
import os

import numpy as np
import pytest

from daemon_util import MODELS, Daemon, bitwise_equal, run_sim

import mujoco
from mujoco import rollout as mj_rollout

FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS
ARM = os.path.join(MODELS, "itempath", "diverge_arm.xml")
N = 60
# items: ordinary, NaN qvel, a huge control from step DIVERGE_STEP on, ordinary held control
DIVERGE_STEP = 30


def _batch(m):
    """States [4, nstate] and per-step controls [4, N, nu]."""
    rng = np.random.default_rng(7)
    nstate = mujoco.mj_stateSize(m, FULL)
    state = np.zeros((4, nstate))
    state[:, 1:1 + m.nq] = 0.4 * rng.standard_normal((4, m.nq))
    state[:, 1 + m.nq:1 + m.nq + m.nv] = 0.5 * rng.standard_normal((4, m.nv))
    state[1, 1 + m.nq + 1] = np.nan
    ctrl = 0.5 * rng.standard_normal((4, N, m.nu))
    ctrl[2, DIVERGE_STEP:, :] = 1e14
    ctrl[3, :, :] = ctrl[3, :1, :]
    return state, ctrl


def _sim(cmd, state, ctrl, tmpdir, threads, nstep=N):
    """torsion-sim rollout/forward with sensordata; returns (out, sensordata)."""
    np.save(os.path.join(tmpdir, "s.npy"), state)
    np.save(os.path.join(tmpdir, "c.npy"), ctrl)
    args = [cmd, ARM, "--state", "s.npy", "--ctrl", "c.npy", "--out", "o.npy", "--sensordata",
            "e.npy", "--threads", threads]
    if cmd == "rollout":
        args += ["--nstep", nstep]
    run_sim(args, tmpdir)
    return np.load(os.path.join(tmpdir, "o.npy")), np.load(os.path.join(tmpdir, "e.npy"))


@pytest.fixture(scope="module")
def served():
    """A daemon with the arm loaded."""
    daemon = Daemon(workers=2)
    holder = daemon.client()  # holds the model (a model lives while a connection holds it)
    handle = holder.load(xml=open(ARM).read()).model
    yield daemon, handle
    holder.close()
    assert daemon.alive(), "torsiond died:\n" + daemon.read_log()[-4000:]
    rc, log = daemon.stop()
    assert rc == 0, log[-4000:]


def _first_stop(states):
    """Per item: the first row from which every row is the same (the item stopped after a
    warning there), or -1 when only the last row is."""
    out = []
    for item in states:
        k = len(item) - 1
        while k > 0 and np.array_equal(item[k - 1], item[-1]):
            k -= 1
        out.append(k if k < len(item) - 1 else -1)
    return out


def test_rollout_same_bits_on_every_host(served, tmp_path):
    daemon, handle = served
    m = mujoco.MjModel.from_xml_path(ARM)
    state, ctrl = _batch(m)
    s1, e1 = _sim("rollout", state, ctrl, str(tmp_path), 1)
    s2, e2 = _sim("rollout", state, ctrl, str(tmp_path), 2)
    with daemon.client() as c:
        sd, ed, warn, frames = c.rollout(handle, state, N, ctrl=ctrl, sensordata=True,
                                         chunk_envs=1)
    assert len(frames) == 4
    assert bitwise_equal(s1, s2) and bitwise_equal(e1, e2)
    assert bitwise_equal(s1, sd) and bitwise_equal(e1, ed)

    # the diverging items stop: from the warning step on every row repeats the same state
    stops = _first_stop(s1)
    assert stops[0] == -1 and stops[3] == -1
    assert stops[1] == 0, stops
    assert stops[2] == DIVERGE_STEP, stops
    for b in (1, 2):
        k = stops[b]
        assert np.all(s1[b, k:] == s1[b, k]) and np.all(e1[b, k:] == e1[b, k])
    assert warn[0] == 0 and warn[3] == 0 and warn[1] != 0 and warn[2] != 0


def test_rollout_agrees_with_mujoco(tmp_path):
    m = mujoco.MjModel.from_xml_path(ARM)
    state, ctrl = _batch(m)
    s1, e1 = _sim("rollout", state, ctrl, str(tmp_path), 2)
    datas = [mujoco.MjData(m) for _ in range(2)]
    ms, me = mj_rollout.rollout(m, datas, state, ctrl, nstep=N)
    assert ms.shape == s1.shape and me.shape == e1.shape
    # the stop happens at the same row, and the rows agree (NaN-free everywhere)
    assert _first_stop(ms) == _first_stop(s1)
    assert np.isfinite(s1).all() and np.isfinite(ms).all()
    scale = np.maximum(1.0, np.abs(ms))
    assert np.max(np.abs(s1 - ms) / scale) < 1e-6
    escale = np.maximum(1.0, np.abs(me))
    assert np.max(np.abs(e1 - me) / escale) < 1e-6


def test_rollout_record_every_and_float32(served, tmp_path):
    daemon, handle = served
    m = mujoco.MjModel.from_xml_path(ARM)
    state, ctrl = _batch(m)
    s1, e1 = _sim("rollout", state, ctrl, str(tmp_path), 1)
    rows = [k - 1 for k in list(range(7, N + 1, 7)) + ([N] if N % 7 else [])]
    with daemon.client() as c:
        sd, ed, _, _ = c.rollout(handle, state, N, ctrl=ctrl, sensordata=True, record_every=7)
        sf, ef, _, _ = c.rollout(handle, state, N, ctrl=ctrl, sensordata=True, final_only=True,
                                 output_dtype=1)
    assert bitwise_equal(s1[:, rows], sd) and bitwise_equal(e1[:, rows], ed)
    assert sf.dtype == np.float32
    assert np.array_equal(sf, s1[:, -1:].astype(np.float32), equal_nan=True)
    assert np.array_equal(ef, e1[:, -1:].astype(np.float32), equal_nan=True)


def test_forward_same_bits_on_every_host(served, tmp_path):
    daemon, handle = served
    m = mujoco.MjModel.from_xml_path(ARM)
    state, ctrl = _batch(m)
    state = state[[0, 2, 3]]
    ctrl = ctrl[[0, 2, 3], 0]
    q1, e1 = _sim("forward", state, ctrl, str(tmp_path), 1)
    q2, e2 = _sim("forward", state, ctrl, str(tmp_path), 2)
    with daemon.client() as c:
        qd = c.forward(handle, state, ctrl=ctrl)
    assert bitwise_equal(q1, q2) and bitwise_equal(e1, e2) and bitwise_equal(q1, qd)
