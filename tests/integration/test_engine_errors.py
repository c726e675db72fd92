"""An engine error fails one request, never the daemon: a model whose <size memory> is too
small for its step (Gymnasium's humanoid with memory="6K"; MuJoCo raises
"mj_stackAlloc: out of memory" on it) gets an ERROR_ENGINE frame for every rollout, forward,
finite-difference or session step request, while another client on the same daemon keeps
getting bitwise-correct results. The daemon stays alive, its connection stays usable, and
its resident memory does not grow over 50 failing requests."""
import os
import re

import numpy as np
import pytest

from daemon_util import MODELS, PENDULUM, Daemon, bitwise_equal, gym_model, sim_rollout
from torsion_client import ServerError, code

import mujoco

FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS
CAPSULES = os.path.join(MODELS, "scenes", "capsule_heap.xml")


def _small_humanoid():
    """Gymnasium's humanoid.xml text with <size memory="6K"/> added."""
    path = gym_model("humanoid.xml")
    assert path, "gymnasium is not installed"
    with open(path) as f:
        text = f.read()
    text, n = re.subn(r"(<mujoco[^>]*>)", r'\1\n  <size memory="6K"/>', text, count=1)
    assert n == 1
    return text, path


@pytest.fixture(scope="module")
def setup():
    """A daemon with the small-arena humanoid and the pendulum loaded, and humanoid states
    with floor contacts (from MuJoCo on the original model, after 50 steps)."""
    text, path = _small_humanoid()
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    for _ in range(50):
        mujoco.mj_step(m, d)
    state = np.zeros(mujoco.mj_stateSize(m, FULL))
    mujoco.mj_getState(m, d, state, FULL)
    # the RSS check below measures memory the daemon keeps; under AddressSanitizer freed
    # blocks sit in its quarantine (to catch use after free) and count as resident, so this
    # daemon runs without quarantine (leaks are still LeakSanitizer's at exit)
    asan = os.environ.get("ASAN_OPTIONS", "")
    daemon = Daemon(workers=2,
                    env={"ASAN_OPTIONS": (asan + ":" if asan else "") + "quarantine_size_mb=0"})
    holder = daemon.client()  # holds the models (a model lives while a connection holds it)
    small = holder.load(xml=text).model
    # finite differences refuse RK4, Gymnasium's integrator: a copy with Euler for them
    euler = holder.load(xml=text.replace('integrator="RK4"', 'integrator="Euler"')).model
    pend = holder.load(xml=open(PENDULUM).read()).model
    yield daemon, (small, euler), pend, np.stack([state, state, state]), m
    holder.close()
    assert daemon.alive(), "torsiond died:\n" + daemon.read_log()[-4000:]
    rc, log = daemon.stop()
    assert rc == 0, log[-4000:]


def _engine_error(fn):
    """Run a client call that must fail with ERROR_ENGINE; returns the message."""
    with pytest.raises(ServerError) as e:
        fn()
    assert e.value.code == code("ERROR_ENGINE"), e.value
    return e.value.message


def _rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_every_request_kind_fails_cleanly(setup):
    daemon, (small, euler), pend, states, m = setup
    with daemon.client() as c:
        msgs = [
            _engine_error(lambda: c.rollout(small, states, 5)),
            _engine_error(lambda: c.forward(small, states)),
            _engine_error(lambda: c.inverse(small, states, np.zeros((len(states), m.nv)))),
            _engine_error(lambda: c.transition_fd(euler, states)),
            _engine_error(lambda: c.inverse_fd(euler, states, np.zeros((len(states), m.nv)))),
        ]
        sid, _ = c.session(small, 2)
        msgs.append(_engine_error(lambda: c.step(sid, np.zeros((2, m.nu)))))
        for msg in msgs:
            assert "mj_stackAlloc: out of memory, stack overflow" in msg, msg
        # the same connection still serves a good request
        pstate = np.zeros((1, 9))
        pstate[0, 1] = 0.3
        got = c.rollout(pend, pstate, 10)[0]
        assert got.shape == (1, 10, 9) and np.isfinite(got).all()
    assert daemon.alive()


def test_other_clients_served_and_rss_flat(setup):
    daemon, (small, _), pend, states, m = setup
    pstate = np.zeros((4, 9))
    pstate[:, 1] = np.linspace(0.1, 0.4, 4)
    with daemon.client() as bystander, daemon.client() as failing:
        ref = bystander.rollout(pend, pstate, 50)[0]
        # warm up (first-use allocations), then measure over 50 failing requests, each
        # interleaved with a correct request from the other client
        for _ in range(10):
            _engine_error(lambda: failing.rollout(small, states, 20))
        rss0 = _rss_kb(daemon.proc.pid)
        for i in range(50):
            # the failing request is in flight while the bystander's rollout runs
            req = failing.request(rollout=_rollout_msg(small, states, 20))
            failing.send(req)
            assert bitwise_equal(bystander.rollout(pend, pstate, 50)[0], ref)
            frames = _frames_until_final(failing, req.id)
            assert frames[-1].WhichOneof("body") == "error"
            assert frames[-1].error.code == code("ERROR_ENGINE")
        rss1 = _rss_kb(daemon.proc.pid)
        assert daemon.alive()
        assert rss1 - rss0 < 4096, "RSS grew from %d kB to %d kB" % (rss0, rss1)


def _rollout_msg(model, states, nstep):
    from torsion_client import PB, to_array
    rr = PB["RolloutRequest"](model=model, nstep=nstep)
    to_array(states, rr.initial_state)
    return rr


def _frames_until_final(client, rid):
    """Frames of request rid until an error or the final frame."""
    frames = []
    while True:
        r = client.recv()
        if r.id != rid:
            continue
        frames.append(r)
        if r.WhichOneof("body") == "error" or r.final:
            return frames


def test_failed_item_leaves_the_data_reusable(setup, tmp_path):
    """The capsule heap with memory="20K": a rollout through floor contacts fails, the
    next rollout on the same daemon data (falling 10 m above the floor) equals torsion-sim's
    bitwise."""
    daemon = setup[0]
    with open(CAPSULES) as f:
        text, n = re.subn(r"(<mujoco[^>]*>)", r'\1\n  <size memory="20K"/>', f.read(), count=1)
    assert n == 1
    path = tmp_path / "capsules_20K.xml"
    path.write_text(text)
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    high = np.zeros(mujoco.mj_stateSize(m, FULL))
    mujoco.mj_getState(m, d, high, FULL)
    touching = high.copy()
    for j in range(m.njnt):
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            high[1 + m.jnt_qposadr[j] + 2] += 10.0
    with daemon.client() as c:
        h = c.load(xml=text).model
        for _ in range(3):
            msg = _engine_error(lambda: c.rollout(h, touching[None, :], 80))
            assert "mj_stackAlloc: out of memory" in msg
            got = c.rollout(h, high[None, :], 80)[0]
            ref = sim_rollout(str(path), high[None, :], None, 80, str(tmp_path))
            assert bitwise_equal(got, ref)
