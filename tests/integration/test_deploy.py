"""Deployment safety of torsiond: socket permissions, TCP only with a token off loopback,
model-root confinement, the config file and flags, and graceful drain on SIGTERM."""
import os
import signal
import stat
import subprocess
import threading
import time

import numpy as np
import pytest

import torsion_client as tdclient
from daemon_util import PENDULUM, TORSIOND, Daemon, free_port
from torsion_client import PB, ServerError, code


def test_unix_socket_is_private():
    d = Daemon()
    try:
        mode = stat.S_IMODE(os.stat(d.sock).st_mode)
        assert mode == 0o600
    finally:
        rc, _ = d.stop()
    assert rc == 0 and not os.path.exists(d.sock)


def test_tcp_requires_the_token_when_configured(tmp_path):
    token = tmp_path / "token"
    token.write_text("s3cret-token-0123456789\n")
    port = free_port()
    d = Daemon("--token-file", str(token), tcp_port=port)
    try:
        # no Hello: refused and closed
        c = tdclient.Client(("127.0.0.1", port))
        with pytest.raises(ServerError) as e:
            c.health()
        assert e.value.code == code("ERROR_UNAUTHENTICATED")
        c.close()
        # wrong token
        c = tdclient.Client(("127.0.0.1", port))
        with pytest.raises(ServerError) as e:
            c.hello("s3cret-tokeN")
        assert e.value.code == code("ERROR_UNAUTHENTICATED")
        c.close()
        # right token
        with tdclient.Client(("127.0.0.1", port)) as c:
            c.hello("s3cret-token-0123456789")
            h = c.load(xml=open(PENDULUM).read()).model
            assert c.rollout(h, np.zeros((2, 9)), 5)[0].shape == (2, 5, 9)
        # the Unix socket needs no token
        with d.client() as c:
            assert c.health().serving
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_public_tcp_without_token_refuses_to_start():
    proc = subprocess.run([TORSIOND, "--socket", "", "--tcp-port", str(free_port()),
                           "--tcp-address", "0.0.0.0"], capture_output=True, text=True, timeout=30)
    assert proc.returncode != 0 and "token" in proc.stderr


def test_help_lists_every_option_with_defaults():
    out = subprocess.run([TORSIOND, "--help"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0
    for flag in ("--socket", "--tcp-port", "--token-file", "--workers", "--model-root",
                 "--max-frame-bytes", "--max-inflight-per-connection", "--drain-timeout-ms"):
        assert flag in out.stdout
    assert "(default: 64M)" in out.stdout
    bad = subprocess.run([TORSIOND, "--no-such-option", "1"], capture_output=True, text=True,
                         timeout=30)
    assert bad.returncode == 2


def test_shipped_config_file_is_valid(tmp_path):
    conf = os.path.join(tdclient.REPO_ROOT, "configs", "torsiond.conf")
    d = Daemon(config=conf)
    try:
        with d.client() as c:
            assert c.hello().limits.max_frame_bytes == 64 * 1024 * 1024
    finally:
        rc, log = d.stop()
    assert rc == 0, log
    broken = tmp_path / "bad.conf"
    broken.write_text("[limits]\nmax_batch = many\n")
    proc = subprocess.run([TORSIOND, "--config", str(broken)], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2 and "max_batch" in proc.stderr


def test_model_root_confines_paths(tmp_path):
    root = tmp_path / "models"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "p.xml").write_text(open(PENDULUM).read())
    outside = tmp_path / "secret.xml"
    outside.write_text(open(PENDULUM).read())
    os.symlink(str(outside), str(root / "link.xml"))
    (root / "inc.xml").write_text('<mujoco><include file="../secret.xml"/></mujoco>')
    d = Daemon("--model-root", str(root))
    try:
        with d.client() as c:
            r = c.load(path="sub/p.xml")
            assert r.info.nq == 4
            assert c.load(path="sub/p.xml").cached
            for bad in ("../secret.xml", "/etc/passwd", "link.xml", "nope.xml"):
                with pytest.raises(ServerError) as e:
                    c.load(path=bad)
                assert e.value.code == code("ERROR_PATH_FORBIDDEN"), bad
            # a file the model references outside the root: the engine refuses it
            with pytest.raises(ServerError) as e:
                c.load(path="inc.xml")
            assert e.value.code == code("ERROR_MODEL_LOAD_FAILED")
            assert "under the load's root directory" in e.value.message
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_sigterm_drains_in_flight_work():
    d = Daemon("--drain-timeout-ms", "120000")
    c = d.client()
    h = c.load(xml=open(PENDULUM).read()).model
    # long enough (3.2M pendulum steps) that the signal surely arrives while it runs
    rr = PB["RolloutRequest"](model=h, nstep=50000, final_only=True)
    tdclient.to_array(np.zeros((64, 9)), rr.initial_state)
    req = c.request(rollout=rr)
    c.send(req)
    time.sleep(0.1)
    d.proc.send_signal(signal.SIGTERM)
    # the in-flight rollout still completes and is delivered
    frames = []
    while True:
        r = c.recv()
        frames.append(r)
        if r.final:
            break
    assert all(f.WhichOneof("body") == "rollout" for f in frames)
    # new work is refused while draining (if the connection is still open)
    try:
        with pytest.raises(ServerError) as e:
            c.rollout(h, np.zeros((1, 9)), 1)
        assert e.value.code == code("ERROR_SHUTTING_DOWN")
    except (ConnectionError, OSError):
        pass
    c.close()
    d.proc.wait(timeout=30)  # it stops by itself once drained
    rc, log = d.stop()
    assert rc == 0 and "event=drain" in log and "event=stop" in log, log


def test_second_signal_stops_at_once():
    d = Daemon("--drain-timeout-ms", "600000")
    c = d.client()
    h = c.load(xml=open(PENDULUM).read()).model
    rr = PB["RolloutRequest"](model=h, nstep=10000000 // 64, final_only=True)
    tdclient.to_array(np.zeros((64, 9)), rr.initial_state)
    c.send(c.request(rollout=rr))
    time.sleep(0.1)
    d.proc.send_signal(signal.SIGINT)
    time.sleep(0.1)
    t0 = time.time()
    d.proc.send_signal(signal.SIGINT)
    d.proc.wait(timeout=30)
    assert time.time() - t0 < 10
    c.close()
    rc, log = d.stop()
    assert rc == 0, log
