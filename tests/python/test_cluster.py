"""torsion.cluster on a local Ray cluster with three torsiond on loopback (one worker each):
the dispatcher's answers are bitwise those of one direct client and of mujoco.rollout;
a daemon killed mid-batch (its Ray actor killed after the dispatcher received its first
result) loses nothing; bounded retries, bad input and a closed dispatcher raise clear
errors; splitting and stealing; the wheel ships torsiond; `import torsion` leaves ray out."""
import os
import socket
import subprocess
import sys
import threading
import time

import mujoco
import numpy as np
import pytest
from mujoco import rollout as mjrollout

import torsion
from client_daemon import FULL, PENDULUM, bitwise, gym_asset, random_states

import ray
import torsion.cluster as tcl
from torsion.client import Client, ServerError

HUMANOID = gym_asset("humanoid.xml")
CHEETAH = gym_asset("half_cheetah.xml")


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster (3 CPUs) with three node actors, each a torsiond with one worker
    on 127.0.0.1."""
    ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    nodes = tcl.start_nodes(3, workers=1, host="127.0.0.1")
    yield nodes
    tcl.stop_nodes(nodes)
    ray.shutdown()


@pytest.fixture(scope="module")
def dispatcher(cluster):
    """A dispatcher over the three daemons."""
    d = tcl.Dispatcher(nodes=cluster, revive_timeout=60)
    yield d
    d.close()


def direct(dispatcher, i=0):
    """A direct torsion.Client on daemon i."""
    ep = ray.get(dispatcher._nodes[i].endpoint.remote())
    return Client(address=(ep["host"], ep["port"]), token=ep["token"], timeout=120)


def wait_all_up(dispatcher, timeout=60):
    """Wait until the dispatcher sees every daemon up again (revived after a fault)."""
    t_end = time.monotonic() + timeout
    while not all(x["up"] for x in dispatcher.daemons):
        assert time.monotonic() < t_end, dispatcher.daemons
        time.sleep(0.2)


def kill_actor(actor, endpoint):
    """Kill a node actor (Ray restarts it) and wait until its daemon has died with it (its
    port refuses connections)."""
    ray.kill(actor, no_restart=False)
    t_end = time.monotonic() + 30
    while time.monotonic() < t_end:
        try:
            socket.create_connection((endpoint["host"], endpoint["port"]), timeout=1).close()
        except OSError:
            return
        time.sleep(0.02)
    raise AssertionError("the daemon outlived its actor")


def test_rollout_bitwise_direct_client_and_mujoco(dispatcher):
    mm = mujoco.MjModel.from_xml_path(PENDULUM)
    rng = np.random.default_rng(1)
    s0 = random_states(mm, 37, rng, 0.4)
    ctrl = rng.standard_normal((37, 30, mm.nu))
    state, sens = dispatcher.rollout(PENDULUM, s0, ctrl)
    assert len(dispatcher.last_batch["items_per_daemon"]) == 3
    assert sum(dispatcher.last_batch["items_per_daemon"].values()) == 37
    ref_state, ref_sens = mjrollout.rollout(mm, mujoco.MjData(mm), s0, ctrl)
    assert state.shape == ref_state.shape and bitwise(state, ref_state)
    assert sens.shape == ref_sens.shape
    with direct(dispatcher, 1) as c:
        d_state, d_sens = c.rollout(PENDULUM, s0, ctrl)
    assert bitwise(state, d_state) and bitwise(sens, d_sens)
    # one control row for every rollout, and output arrays given by the caller
    out = np.empty_like(ref_state[:, :12])
    got, _ = dispatcher.rollout(PENDULUM, s0, ctrl[:1, :12], state=out)
    assert got is out
    assert bitwise(out, mjrollout.rollout(mm, mujoco.MjData(mm), s0, ctrl[:1, :12])[0])


def test_rollout_inverse_and_derivatives_bitwise_direct(dispatcher):
    """Humanoid (RK4) rollout and inverse, half-cheetah (Euler, contacts) transition_fd and
    inverse_fd: the dispatcher's answers are bitwise one direct client's."""
    mm = mujoco.MjModel.from_xml_path(HUMANOID)
    rng = np.random.default_rng(2)
    s0 = random_states(mm, 20, rng, 0.05)
    ctrl = 0.2 * rng.standard_normal((20, 15, mm.nu))
    qacc = rng.standard_normal((20, mm.nv))
    state, sens = dispatcher.rollout(HUMANOID, s0, ctrl)
    qfrc = dispatcher.inverse(HUMANOID, s0, qacc)
    mc = mujoco.MjModel.from_xml_path(CHEETAH)
    sc = random_states(mc, 14, rng, 0.1)
    uc = rng.standard_normal((14, mc.nu))
    ac = rng.standard_normal((14, mc.nv))
    A, B, C, D = dispatcher.transition_fd(CHEETAH, sc, uc, centered=True)
    assert C is None and D is None and A.shape == (14, 2 * mc.nv, 2 * mc.nv)
    jac = dispatcher.inverse_fd(CHEETAH, sc, ac, outputs=["DfDq", "DfDv"])
    with direct(dispatcher, 2) as c:
        assert bitwise(state, c.rollout(HUMANOID, s0, ctrl)[0])
        assert bitwise(qfrc, c.inverse(HUMANOID, s0, qacc))
        A2, B2, _, _ = c.transition_fd(CHEETAH, sc, uc, centered=True)
        assert bitwise(A, A2) and bitwise(B, B2)
        jac2 = c.inverse_fd(CHEETAH, sc, ac, outputs=["DfDq", "DfDv"])
    assert sorted(jac) == sorted(jac2) == ["DfDq", "DfDv"]
    assert all(bitwise(jac[k], jac2[k]) for k in jac)
    # inverse against MuJoCo's mj_inverse (docs/testing.md's 1e-10, relative)
    md = mujoco.MjData(mm)
    for i in range(0, 20, 7):
        mujoco.mj_resetData(mm, md)
        mujoco.mj_setState(mm, md, s0[i], FULL)
        md.qacc[:] = qacc[i]
        mujoco.mj_inverse(mm, md)
        assert np.abs(qfrc[i] - md.qfrc_inverse).max() < 1e-10 * max(
            1, np.abs(md.qfrc_inverse).max())


def test_stream_in_batch_order(dispatcher):
    mm = mujoco.MjModel.from_xml_path(PENDULUM)
    rng = np.random.default_rng(3)
    s0 = random_states(mm, 25, rng, 0.4)
    ctrl = rng.standard_normal((25, 10, mm.nu))
    ref = mjrollout.rollout(mm, mujoco.MjData(mm), s0, ctrl)[0]
    seen = 0
    for lo, hi, (state, _) in dispatcher.stream("rollout", PENDULUM, s0, ctrl):
        assert lo == seen and hi > lo
        assert bitwise(state, ref[lo:hi])
        seen = hi
    assert seen == 25
    parts = list(dispatcher.stream("inverse", PENDULUM, s0, np.ones((25, mm.nv))))
    assert [p[0] for p in parts] == sorted(p[0] for p in parts)


def test_daemon_killed_mid_batch_loses_nothing(cluster, dispatcher):
    """Daemon 1's Ray actor (and with it its torsiond) is killed when the dispatcher has
    received daemon 1's first result; the other daemons wait at their first send until then
    (so that daemon 1 still has work): daemon 1's unfinished subsets go to the others, the
    answer is bitwise one daemon's, and Ray's restarted actor serves the next batch."""
    mm = mujoco.MjModel.from_xml_path(HUMANOID)
    rng = np.random.default_rng(4)
    B = 60
    s0 = random_states(mm, B, rng, 0.05)
    ctrl = 0.2 * rng.standard_normal((B, 40, mm.nu))
    wait_all_up(dispatcher)
    victim = 1
    old = ray.get(cluster[victim].endpoint.remote())
    killed, gate = [], threading.Event()

    def kill_after_first_result(event, d, subset):
        if d != victim:
            if event == "send":
                gate.wait(60)
            return
        if event == "result" and not killed:
            killed.append(subset)
            try:
                kill_actor(cluster[victim], old)
            finally:
                gate.set()

    dispatcher._hook = kill_after_first_result
    try:
        state, sens = dispatcher.rollout(HUMANOID, s0, ctrl)
    finally:
        dispatcher._hook = None
    stats = dispatcher.last_batch
    assert killed and stats["retries"] >= 1, stats
    with direct(dispatcher, 0) as c:
        ref_state, ref_sens = c.rollout(HUMANOID, s0, ctrl)
    assert bitwise(state, ref_state) and bitwise(sens, ref_sens)
    # Ray restarted the actor: a new daemon (new pid, port and token) joins the next batch
    wait_all_up(dispatcher)
    new = ray.get(cluster[victim].endpoint.remote())
    assert new["restarted"] and new["pid"] != old["pid"]
    state2, _ = dispatcher.rollout(HUMANOID, s0, ctrl)
    assert bitwise(state2, ref_state)
    assert dispatcher.last_batch["items_per_daemon"].get(victim, 0) > 0


def test_only_daemon_killed_mid_batch_waits_for_ray_restart(cluster):
    """A dispatcher on daemon 0 alone: its actor killed after the first result, the batch
    waits for Ray's restarted actor and its new daemon finishes it."""
    mm = mujoco.MjModel.from_xml_path(PENDULUM)
    rng = np.random.default_rng(7)
    s0 = random_states(mm, 30, rng, 0.4)
    ctrl = rng.standard_normal((30, 50, mm.nu))
    ref = mjrollout.rollout(mm, mujoco.MjData(mm), s0, ctrl)[0]
    with tcl.Dispatcher(nodes=cluster[:1], depth=1, revive_timeout=60) as d:
        old = ray.get(cluster[0].endpoint.remote())
        sent = []

        def kill_second(event, i, subset):
            if event == "send":
                sent.append(subset)
                if len(sent) == 2:
                    kill_actor(cluster[0], old)

        d._hook = kill_second
        state, _ = d.rollout(PENDULUM, s0, ctrl)
        d._hook = None
        assert bitwise(state, ref)
        assert d.last_batch["retries"] >= 1
        assert d.daemons[0]["pid"] != old["pid"]


def test_bounded_tries_raise_cluster_error(cluster):
    """A dispatcher on daemon 2 alone with max_tries=1: the daemon killed after its first
    result fails the call with ClusterError; the actor starts a new daemon for the next."""
    mm = mujoco.MjModel.from_xml_path(PENDULUM)
    rng = np.random.default_rng(5)
    s0 = random_states(mm, 30, rng, 0.4)
    ctrl = rng.standard_normal((30, 50, mm.nu))
    with tcl.Dispatcher(nodes=cluster[2:], max_tries=1, depth=1, revive_timeout=60) as d:
        sent = []

        def kill_daemon(event, i, subset):
            if event == "send":
                sent.append(subset)
                if len(sent) == 2:
                    ray.get(cluster[2].kill_daemon.remote())

        d._hook = kill_daemon
        with pytest.raises(tcl.ClusterError, match=r"items \[\d+, \d+\) failed on daemon 0"):
            d.rollout(PENDULUM, s0, ctrl)
        d._hook = None
        wait_all_up(d)   # the live actor started a new daemon
        assert bitwise(d.rollout(PENDULUM, s0, ctrl)[0],
                       mjrollout.rollout(mm, mujoco.MjData(mm), s0, ctrl)[0])


def test_bad_input_and_closed_dispatcher(cluster, dispatcher):
    mm = mujoco.MjModel.from_xml_path(PENDULUM)
    s0 = random_states(mm, 4, np.random.default_rng(6))
    with pytest.raises(ValueError, match="trailing dimension of initial_state"):
        dispatcher.rollout(PENDULUM, s0[:, 1:], nstep=3)
    with pytest.raises(ValueError, match="qacc must be"):
        dispatcher.inverse(PENDULUM, s0, np.zeros((3, mm.nv)))
    with pytest.raises(ValueError, match="unknown inverse_fd output"):
        dispatcher.inverse_fd(PENDULUM, s0, np.zeros((4, mm.nv)), outputs=["nope"])
    with pytest.raises(ValueError, match="unknown operation"):
        dispatcher.stream("step", PENDULUM, s0)
    with pytest.raises(TypeError):
        dispatcher.rollout(42, s0, nstep=3)
    with pytest.raises(ServerError):
        dispatcher.load(xml="<mujoco><worldbody><body/></wrong></mujoco>")
    d = tcl.Dispatcher(nodes=cluster)
    d.close()
    with pytest.raises(tcl.ClusterError, match="closed"):
        d.rollout(PENDULUM, s0, nstep=3)
    with pytest.raises(ValueError):
        tcl.Dispatcher(endpoints=[])


def test_idle_closed_connection_is_reopened():
    """A daemon that closed the dispatcher's idle connections (idle_timeout_ms) is not a dead
    daemon: the next batch reconnects without a retry; no Ray (endpoints=). Every holder of
    the model closed, so the daemon unloaded it: the new connections' attach by handle fails
    and the content is sent again (once)."""
    mm = mujoco.MjModel.from_xml_path(PENDULUM)
    s0 = random_states(mm, 8, np.random.default_rng(8), 0.4)
    with tcl.LocalDaemon(workers=1, extra_args=["--idle-timeout-ms=200"]) as ld:
        with tcl.Dispatcher(endpoints=[ld.endpoint()]) as d:
            first, _ = d.rollout(PENDULUM, s0, nstep=20)
            assert d._daemons[0].content_sent == 1
            t_end = time.monotonic() + 30
            while ld.read_log().count("which=idle_timeout_ms") < d.depth:
                assert time.monotonic() < t_end, ld.read_log()[-2000:]
                time.sleep(0.1)
            again, _ = d.rollout(PENDULUM, s0, nstep=20)
            assert bitwise(first, again) and d.last_batch["retries"] == 0
            assert d.daemons[0]["up"]
            assert d._daemons[0].content_sent == 2
            assert ld.read_log().count("event=model_loaded") == 2


def _model_stats(client, handle):
    """The daemon's ModelStats of `handle` as `client` sees it."""
    return next(m for m in client.stats().models if m.model == handle)


def test_content_sent_once_per_daemon_then_attached():
    """Two daemons, three connections each: each daemon receives the model's content once
    (ModelStats.content_loads), its other connections attach the handle; the answers stay
    bitwise one direct client's."""
    mm = mujoco.MjModel.from_xml_path(HUMANOID)
    rng = np.random.default_rng(9)
    s0 = random_states(mm, 24, rng, 0.05)
    ctrl = 0.2 * rng.standard_normal((24, 10, mm.nu))
    with tcl.LocalDaemon(workers=1) as l0, tcl.LocalDaemon(workers=1) as l1:
        with tcl.Dispatcher(endpoints=[l0.endpoint(), l1.endpoint()], depth=3,
                            split_factor=8) as d:
            # every connection takes a subset before any is sent (all of them set the
            # model up at once)
            barrier, seen = threading.Barrier(6, timeout=60), set()

            def all_connections_start(event, i, subset):
                me = threading.current_thread().name
                if event == "send" and me not in seen:
                    seen.add(me)
                    barrier.wait()

            d._hook = all_connections_start
            state, sens = d.rollout(HUMANOID, s0, ctrl)
            d._hook = None
            qfrc = d.inverse(HUMANOID, s0, np.ones((24, mm.nv)))
            assert all(sorted(k[0] for k in dm.models) == [0, 1, 2] for dm in d._daemons)
            for dm, ld in zip(d._daemons, (l0, l1)):
                assert dm.content_sent == 1
                handle = dm.handles[d.model(HUMANOID).key]
                with Client(address=ld.address, token=ld.token) as c:
                    m = c.attach(handle)
                    st = _model_stats(c, handle)
                    assert st.content_loads == 1
                    # the dispatcher's connections but the one that sent it, and c
                    assert st.attaches == len(dm.models) - 1 + 1
                    ref_state, ref_sens = c.rollout(m, s0, ctrl)
                    assert bitwise(state, ref_state) and bitwise(sens, ref_sens)
                    assert bitwise(qfrc, c.inverse(m, s0, np.ones((24, mm.nv))))
                    assert _model_stats(c, handle).content_loads == 1
                    assert c.attach(handle) is m
                    with pytest.raises(ServerError, match="ERROR_MODEL_NOT_FOUND"):
                        c.attach("0" * 64)
                    with pytest.raises(ValueError):
                        c.attach("not-a-handle")


def test_plan_proportional_and_stealing():
    runs = tcl.plan(100, [1, 2, 1], split_factor=3)
    items = [sum(len(s) for s in r) for r in runs]
    assert items == [25, 50, 25]
    assert all(len(r[0]) >= len(r[-1]) == 1 for r in runs)  # shrinking to single items
    flat = sorted((s for r in runs for s in r), key=lambda s: s.index)
    assert [s.lo for s in flat] == [0] + [s.hi for s in flat[:-1]] and flat[-1].hi == 100
    # daemon 0 alone takes everything: its own run, then the others' from their backs
    q = tcl.WorkQueues(runs)
    got = []
    while True:
        s = q.take(0)
        if s is None:
            break
        got.append(s)
        q.complete(s, None)
    assert len(got) == len(flat) and q.steals == len(flat) - len(runs[0])
    # a failed subset is handed to another daemon first; max_tries bounds it
    q = tcl.WorkQueues(tcl.plan(10, [1, 1], split_factor=1))
    s = q.take(0)
    q.give_back(s, 0, 2, RuntimeError("x"))
    q.daemon_down(0)
    assert q.take(1) is s
    q.give_back(s, 1, 2, RuntimeError("twice"))
    assert str(q.error) == "twice" and q.take(1) is None


def test_packaged_daemon_and_lazy_ray():
    path = tcl.find_torsiond()
    assert os.access(path, os.X_OK)
    pkg_bin = os.path.join(os.path.dirname(torsion.__file__), "bin", "torsiond")
    assert os.path.exists(pkg_bin), "the installed package does not ship torsiond"
    code = "import sys, torsion; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(os.environ, TORSIOND=""))
    assert out.stdout.strip() == "False"
    with tcl.LocalDaemon(workers=1) as d:
        with Client(address=d.address, token=d.token) as c:
            assert c.workers == 1
        with pytest.raises((ServerError, ConnectionError)):
            Client(address=d.address, token="wrong-token-0123456789")
