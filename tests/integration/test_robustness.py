"""torsiond cannot be knocked over from a socket: malformed frames, absurd lengths,
unknown messages, path escapes, many concurrent clients, clients that die mid-request,
pipelining past the back-pressure limits. After each abuse, other clients are still served."""
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import torsion_client as tdclient
from daemon_util import PENDULUM, Daemon, bitwise_equal
from hostile_util import read_frame
from torsion_client import PB, ServerError, code


@pytest.fixture(scope="module")
def handle(daemon):
    # the loading connection stays open: a model lives while a connection holds it
    with daemon.client() as c:
        yield c.load(xml=open(PENDULUM).read()).model


class Bystander:
    """A client that keeps doing small rollouts in the background and checks each result."""

    def __init__(self, daemon, handle):
        self.c = daemon.client()
        self.h = handle
        self.state = np.zeros((2, 9))
        self.state[:, 1] = 0.5
        self.ref = self.c.rollout(handle, self.state, 20)[0]
        self.count = 0
        self.failure = None
        self.stop_flag = False
        self.t = threading.Thread(target=self.run)
        self.t.start()

    def run(self):
        try:
            while not self.stop_flag:
                got = self.c.rollout(self.h, self.state, 20)[0]
                assert bitwise_equal(got, self.ref)
                self.count += 1
        except Exception as e:  # reported by stop()
            self.failure = e

    def stop(self):
        time.sleep(0.05)
        self.stop_flag = True
        self.t.join(60)
        self.c.close()
        assert self.failure is None, self.failure
        assert self.count > 0


def raw(daemon):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(daemon.sock)
    return s


def closed_by_server(s):
    try:
        return s.recv(1) == b""
    except (ConnectionResetError, socket.timeout):
        return True


def test_random_bytes(daemon, handle):
    by = Bystander(daemon, handle)
    rng = random.Random(1)
    for i in range(30):
        s = raw(daemon)
        s.sendall(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 3000))))
        s.shutdown(socket.SHUT_WR)
        while True:  # answers (errors) until the server closes
            try:
                if read_frame(s) is None:
                    break
            except (ConnectionResetError, socket.timeout):
                break
        s.close()
    by.stop()
    assert daemon.alive()


def test_huge_length_prefix_gets_bad_frame_and_close(daemon, handle):
    by = Bystander(daemon, handle)
    for prefix in (b"\xff\xff\xff\xff", struct.pack(">I", 2**31), struct.pack(">I", 2**30)):
        s = raw(daemon)
        s.sendall(prefix + b"abc")
        r = read_frame(s)
        assert r is not None and r.error.code == code("ERROR_BAD_FRAME") and r.final
        assert closed_by_server(s)
        s.close()
    by.stop()


def test_truncated_frames(daemon, handle):
    by = Bystander(daemon, handle)
    req = tdclient.Request(id=5, hello=PB["HelloRequest"](protocol_version=1)).SerializeToString()
    for cut in (1, 3, 4, 6, len(req)):
        s = raw(daemon)
        s.sendall((struct.pack(">I", len(req)) + req)[:cut])
        s.close()  # mid-frame
    by.stop()
    assert daemon.alive()


def test_undecodable_and_unknown_messages_keep_the_connection(daemon):
    s = raw(daemon)
    # garbage inside an intact frame
    s.sendall(struct.pack(">I", 5) + b"\xff\xff\xff\xff\xff")
    assert read_frame(s).error.code == code("ERROR_BAD_MESSAGE")
    # a Request whose body is an unknown field (number 99, length-delimited)
    body = b"\x08\x07" + b"\x9a\x06\x02\x08\x01"
    s.sendall(struct.pack(">I", len(body)) + body)
    r = read_frame(s)
    assert r.id == 7 and r.error.code == code("ERROR_UNKNOWN_REQUEST")
    # an empty Request
    s.sendall(struct.pack(">I", 0))
    assert read_frame(s).error.code == code("ERROR_UNKNOWN_REQUEST")
    # the connection still works
    ok = tdclient.Request(id=8, health=PB["HealthRequest"]()).SerializeToString()
    s.sendall(struct.pack(">I", len(ok)) + ok)
    r = read_frame(s)
    assert r.id == 8 and r.health.serving
    s.close()


def test_mjcf_references_outside_are_refused(client):
    # client text reads only its own assets (the engine's VFS, vfs_only): anything else is a
    # model that does not load (tests/integration/test_pathguard.py has the attacks)
    base = '<mujoco><include file="%s"/><worldbody/></mujoco>'
    for target in ("/etc/passwd", "../../etc/passwd", "a/../../x.xml", "~/x.xml"):
        with pytest.raises(ServerError) as e:
            client.load(xml=base % target)
        assert e.value.code == code("ERROR_MODEL_LOAD_FAILED"), target
        assert "not in the VFS" in e.value.message
    for xml in ('<mujoco><compiler meshdir="/etc"/><asset><mesh file="passwd"/></asset></mujoco>',
                '<!DOCTYPE x [<!ENTITY e SYSTEM "/etc/passwd">]><mujoco>&e;</mujoco>',
                '<mujoco><include file="&#46;&#46;/x.xml"/></mujoco>'):
        with pytest.raises(ServerError) as e:
            client.load(xml=xml)
        assert e.value.code == code("ERROR_MODEL_LOAD_FAILED"), xml
        assert "root:" not in e.value.message
    for name in ("../x.xml", "/abs.xml", "a//b.xml", "./x.xml"):
        with pytest.raises(ServerError) as e:
            client.load(xml="<mujoco/>", assets={name: b"<mujoco/>"})
        assert e.value.code == code("ERROR_PATH_FORBIDDEN"), name
    # a server path without a model root
    with pytest.raises(ServerError) as e:
        client.load(path="x.xml")
    assert e.value.code == code("ERROR_PATH_FORBIDDEN")


def test_include_resolves_among_the_request_blobs(client):
    part = b'<mujoco><worldbody><body name="b"><joint type="hinge"/><geom size=".1"/></body></worldbody></mujoco>'
    main = '<mujoco><include file="parts/body.xml"/></mujoco>'
    r = client.load(xml=main, assets={"parts/body.xml": part})
    assert r.info.nbody == 2
    # the same include without its blob: the compiler finds nothing (no filesystem access)
    with pytest.raises(ServerError) as e:
        client.load(xml=main)
    assert e.value.code == code("ERROR_MODEL_LOAD_FAILED")


def test_64_concurrent_clients(daemon, handle):
    rng = np.random.default_rng(5)
    state = np.zeros((3, 9))
    state[:, 1:5] = 0.3 * rng.standard_normal((3, 4))
    ctrl = rng.standard_normal((3, 30, 2))
    with daemon.client() as c:
        ref = c.rollout(handle, state, 30, ctrl)[0]
    results, errors = [], []

    def worker():
        try:
            with daemon.client() as c:
                c.hello()
                for _ in range(3):
                    results.append(bitwise_equal(c.rollout(handle, state, 30, ctrl)[0], ref))
                sid, _ = c.session(handle, 2)
                c.step(sid, np.ones((2, 2)))
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors[:3]
    assert len(results) == 192 and all(results)
    with daemon.client() as c:
        _settled(c)


def _settled(c, timeout=10):
    """Wait until no work is queued or in flight (other than this connection's and the
    model holder's)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = c.stats()
        # this connection and the one holding the module's model
        if s.inflight_requests == 0 and s.queued_chunks == 0 and s.connections == 2:
            return s
        time.sleep(0.02)
    raise AssertionError("work did not settle: %s" % c.stats())


KILLER = r"""
import sys, numpy as np
sys.path.insert(0, %r)
import torsion_client as tdclient
c = tdclient.Client(%r)
rr = tdclient.PB["RolloutRequest"](model=%r, nstep=100000, final_only=True)
tdclient.to_array(np.zeros((64, 9)), rr.initial_state)
c.send(c.request(rollout=rr))
sid_req = c.request(create_session=tdclient.PB["CreateSessionRequest"](model=%r, nenv=4))
c.send(sid_req)
print("sent", flush=True)
sys.stdin.read()
"""


def test_client_killed_mid_rollout_leaves_nothing(daemon, handle):
    here = os.path.dirname(tdclient.__file__)
    for _ in range(3):
        p = subprocess.Popen([sys.executable, "-c", KILLER % (here, daemon.sock, handle, handle)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert p.stdout.readline().strip() == b"sent"
        time.sleep(0.1)
        p.kill()
        p.wait()
    with daemon.client() as c:
        s = _settled(c)
        assert s.sessions == 0 and s.unsent_bytes == 0
    assert daemon.alive()


def test_pipelining_past_the_limits():
    d = Daemon("--max-inflight-per-connection", "2", "--max-unsent-bytes-per-connection", "4k")
    try:
        with d.client() as c:
            h = c.load(xml=open(PENDULUM).read()).model
            state = np.zeros((4, 9))
            reqs = []
            for _ in range(200):
                rr = PB["RolloutRequest"](model=h, nstep=20)
                tdclient.to_array(state, rr.initial_state)
                reqs.append(c.request(rollout=rr))
            blob = b"".join(struct.pack(">I", r.ByteSize()) + r.SerializeToString() for r in reqs)
            sender = threading.Thread(target=c.send_bytes, args=(blob,))
            sender.start()
            finals = set()
            while len(finals) < 200:
                r = c.recv()
                assert r.WhichOneof("body") == "rollout", r
                if r.final:
                    finals.add(r.id)
            sender.join()
            assert finals == {r.id for r in reqs}
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_oversized_requests_hit_limits():
    d = Daemon("--max-frame-bytes", "4k", "--max-model-bytes", "2k", "--max-batch", "8")
    try:
        with d.client() as c:
            with pytest.raises(ServerError) as e:
                c.load(xml="<mujoco>" + " " * 3000 + "</mujoco>")
            assert e.value.code == code("ERROR_LIMIT_EXCEEDED")
            h = c.load(xml=open(PENDULUM).read()).model
            with pytest.raises(ServerError) as e:
                c.rollout(h, np.zeros((9, 9)), 2)
            assert e.value.code == code("ERROR_LIMIT_EXCEEDED")
            # a frame above max_frame_bytes breaks the framing: one error, then close
            with pytest.raises(ServerError) as e:
                c.load(xml="<mujoco>" + " " * 5000 + "</mujoco>")
            assert e.value.code == code("ERROR_BAD_FRAME")
            with pytest.raises((ConnectionError, OSError)):
                c.health()
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_engine_error_fails_only_that_request(daemon, handle):
    """A fatal engine error (reported through mju_user_error) fails its request with
    ERROR_ENGINE; the daemon and the worker that ran it keep serving."""
    # RK4, whose step keeps its stages on the arena stack, with an arena big enough to
    # compile (the compiler evaluates qpos0) but too small for a step: the step's stack
    # allocation fails through mju_user_error
    base = open(PENDULUM).read().replace('<option ', '<option integrator="RK4" ', 1)
    candidates = [base.replace("<worldbody>", '<size memory="%d"/><worldbody>' % n, 1)
                  for n in (560, 520, 600, 640)]
    by = Bystander(daemon, handle)
    provoked = False
    with daemon.client() as c:
        for xml in candidates:
            try:
                h = c.load(xml=xml).model
            except ServerError:
                continue
            try:
                c.rollout(h, np.zeros((4, 9)), 20)
            except ServerError as e:
                assert e.code == code("ERROR_ENGINE"), e
                provoked = True
        # the same connection and every worker still compute correct results
        state = np.zeros((8, 9))
        state[:, 1] = 0.2
        ref = c.rollout(handle, state, 10)[0]
        assert bitwise_equal(c.rollout(handle, state, 10, chunk_envs=1)[0], ref)
    by.stop()
    assert provoked, "no candidate model provoked an engine error (ERROR_ENGINE)"
