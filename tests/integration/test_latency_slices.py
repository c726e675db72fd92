"""Rollouts cut into slices and the latency class: a rollout run one step per slice, each
slice going back to the queue and resuming (possibly on the other worker) from the kept
mjSTATE_INTEGRATION, gives the bits of an unsliced daemon and of torsion-sim — on gym's
humanoid (contacts, warmstart) and on the diverging arm (warnings mid-rollout, NaN initial
qvel, sensordata, record_every, final_only, float32); cancelling a sliced rollout between its
slices ends it with CANCELLED and leaves the daemon serving; and a session step sent while a
long rollout of another connection runs is answered before that rollout ends (ordering only,
no timing thresholds)."""
import os
import select
import time

import numpy as np
import pytest

from daemon_util import MODELS, Daemon, bitwise_equal, gym_model, run_sim
from torsion_client import PB, ServerError, code

import mujoco

FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS
ARM = os.path.join(MODELS, "itempath", "diverge_arm.xml")
HUMANOID = gym_model("humanoid.xml")

# every step is its own slice and every slice goes back to the queue
SLICED = ("--slice-us=1", "--slice-yield-always=true")
UNSLICED = ("--slice-us=0",)


def _states(m, B, seed, nan_item=None):
    """FULLPHYSICS states [B, nstate] near qpos0, with random velocities."""
    rng = np.random.default_rng(seed)
    s = np.zeros((B, mujoco.mj_stateSize(m, FULL)))
    s[:, 1:1 + m.nq] = m.qpos0 + 0.05 * rng.standard_normal((B, m.nq))
    s[:, 1 + m.nq:1 + m.nq + m.nv] = 0.3 * rng.standard_normal((B, m.nv))
    if nan_item is not None:
        s[nan_item, 1 + m.nq] = np.nan
    return s


def _sim_rollout(path, state, ctrl, nstep, tmpdir, sensordata):
    """torsion-sim rollout (the engine's unsliced item path)."""
    np.save(os.path.join(tmpdir, "s.npy"), state)
    np.save(os.path.join(tmpdir, "c.npy"), ctrl)
    args = ["rollout", path, "--state", "s.npy", "--ctrl", "c.npy", "--nstep", nstep, "--out",
            "o.npy", "--threads", 1]
    if sensordata:
        args += ["--sensordata", "e.npy"]
    run_sim(args, tmpdir)
    out = np.load(os.path.join(tmpdir, "o.npy"))
    return out, (np.load(os.path.join(tmpdir, "e.npy")) if sensordata else None)


def _serve(path, args):
    """A daemon with the model loaded by a holding connection."""
    daemon = Daemon(*args, workers=2)
    holder = daemon.client()
    handle = holder.load(xml=open(path).read()).model
    return daemon, holder, handle


def _stop(daemon, holder):
    holder.close()
    assert daemon.alive(), "torsiond died:\n" + daemon.read_log()[-4000:]
    rc, log = daemon.stop()
    assert rc == 0, log[-4000:]


@pytest.mark.parametrize("which", ["humanoid", "arm"])
def test_sliced_rollout_same_bits(which, tmp_path):
    if which == "humanoid":
        if not HUMANOID:
            pytest.fail("gymnasium's humanoid.xml is needed")
        path, B, nstep, seed = HUMANOID, 5, 120, 3
    else:
        path, B, nstep, seed = ARM, 4, 60, 7
    m = mujoco.MjModel.from_xml_path(path)
    state = _states(m, B, seed, nan_item=1 if which == "arm" else None)
    ctrl = 0.4 * np.random.default_rng(seed).standard_normal((B, nstep, m.nu))
    if which == "arm":
        ctrl[2, 30:, :] = 1e14  # bad-ctrl warning mid-rollout: the item stops there
    sens = m.nsensordata > 0
    ref, eref = _sim_rollout(path, state, ctrl, nstep, str(tmp_path), sens)

    results = {}
    for name, args in (("sliced", SLICED), ("unsliced", UNSLICED)):
        daemon, holder, h = _serve(path, args)
        with daemon.client() as c:
            full = c.rollout(h, state, nstep, ctrl=ctrl, sensordata=sens, chunk_envs=2)
            every = c.rollout(h, state, nstep, ctrl=ctrl, sensordata=sens, record_every=7)
            last = c.rollout(h, state, nstep, ctrl=ctrl, final_only=True, output_dtype=1)
        _stop(daemon, holder)
        results[name] = (full, every, last)

    rows = [k - 1 for k in list(range(7, nstep + 1, 7)) + ([nstep] if nstep % 7 else [])]
    for name, (full, every, last) in results.items():
        assert bitwise_equal(full[0], ref), name
        assert len(full[3]) == (B + 1) // 2 and full[3][-1].final, name
        assert bitwise_equal(every[0], ref[:, rows]), name
        if sens:
            assert bitwise_equal(full[1], eref) and bitwise_equal(every[1], eref[:, rows]), name
        assert np.array_equal(last[0], ref[:, -1:].astype(np.float32), equal_nan=True), name
    for a, b in zip(results["sliced"], results["unsliced"]):
        assert bitwise_equal(a[0], b[0]) and np.array_equal(a[2], b[2])
    if which == "arm":
        warn = results["sliced"][0][2]
        assert warn[0] == 0 and warn[1] != 0 and warn[2] != 0


def _rollout_req(client, h, state, nstep, final_only=True):
    rr = PB["RolloutRequest"](model=h, nstep=nstep, final_only=final_only)
    arr = rr.initial_state
    arr.shape.extend(state.shape)
    arr.data = np.ascontiguousarray(state, dtype=np.float64).tobytes()
    return client.request(rollout=rr)


def test_cancel_between_slices():
    if not HUMANOID:
        pytest.fail("gymnasium's humanoid.xml is needed")
    m = mujoco.MjModel.from_xml_path(HUMANOID)
    daemon, holder, h = _serve(HUMANOID, ("--slice-us=200", "--slice-yield-always=true"))
    with daemon.client() as c:
        big = _rollout_req(c, h, _states(m, 8, 1), 100000)
        c.send(big)
        # wait until its chunks run (they go back to the queue after every slice)
        for _ in range(400):
            if _running(holder):
                break
            time.sleep(0.005)
        time.sleep(0.05)
        cancel = c.request(cancel=PB["CancelRequest"](target_id=big.id))
        c.send(cancel)
        seen = {}
        while len(seen) < 2:
            r = c.recv()
            if r.final:
                seen[r.id] = r
        assert seen[big.id].error.code == code("ERROR_CANCELLED")
        assert seen[cancel.id].cancel.found
        assert c.stats().inflight_requests == 0
        # still serving, with the same bits as before
        s = _states(m, 2, 5)
        a = c.rollout(h, s, 30)[0]
        b = c.rollout(h, s, 30)[0]
        assert bitwise_equal(a, b)
    _stop(daemon, holder)


def _running(holder):
    """Chunks of the held model running (Stats of the connection holding it)."""
    return any(ms.running_chunks > 0 for ms in holder.stats().models)


def test_session_step_overtakes_long_rollout():
    if not HUMANOID:
        pytest.fail("gymnasium's humanoid.xml is needed")
    m = mujoco.MjModel.from_xml_path(HUMANOID)
    # default slicing; the express worker is there too, but the order must hold regardless
    daemon, holder, h = _serve(HUMANOID, ())
    with daemon.client() as bulk, daemon.client() as small:
        sid, _ = small.session(h, 1)
        small.step(sid)  # the model's step cost is measured from here on
        req = _rollout_req(bulk, h, _states(m, 10, 2), 2000)
        bulk.send(req)
        first = bulk.recv()  # a first frame: the rollout is under way (or fails loudly)
        assert first.id == req.id and first.WhichOneof("body") == "rollout", first
        frames = [first]
        for _ in range(20):
            st, _, _ = small.step(sid, ctrl=np.zeros((1, m.nu)))
            assert st.shape[0] == 1
        # the rollout has not finished: no final frame has arrived (frames already sent are
        # read without waiting)
        while select.select([bulk.sock], [], [], 0)[0]:
            frames.append(bulk.recv())
            assert not frames[-1].final, "the rollout finished before the session steps"
        while not frames[-1].final:
            frames.append(bulk.recv())
        assert len(frames) > 1 and all(f.id == req.id for f in frames)
        assert sum(f.rollout.env_count for f in frames) == 10
    _stop(daemon, holder)
