"""Hostile clients against torsiond's connections and authentication: slowloris sockets,
idle connections, configuration reload on SIGHUP, a drain past its timeout, TCP without a
token, weak or NUL-padded tokens, unknown enum values and invalid UTF-8 echoed in errors."""
import os
import signal
import socket
import struct
import subprocess
import threading
import time

import numpy as np
import pytest

import torsion_client as tdclient
from daemon_util import PENDULUM, TORSIOND, Daemon, free_port
from hostile_util import (connect_raw, field_bytes, frame, raw_request, read_frame,
                          rollout_request, worst_small_rollout)
from torsion_client import PB, ServerError, code

TOKEN = "a-token-of-thirty-two-characters"


def _closed_with_error(s, timeout=5):
    """The server closed the socket, its last frame (if any, after answers to earlier
    requests) an error."""
    s.settimeout(timeout)
    last = None
    try:
        r = read_frame(s)
        while r is not None:
            last = r
            r = read_frame(s)
        assert last is None or last.WhichOneof("body") == "error", last
    except (ConnectionResetError, BrokenPipeError):
        pass
    return True


def test_slowloris_sockets_are_closed_and_others_get_in():
    d = Daemon("--max-connections", "20", "--header-timeout-ms", "500", "--read-timeout-ms",
               "800", workers=2)
    stop = threading.Event()
    try:
        with d.client() as c:
            hello = frame(c.request(hello=PB["HelloRequest"](protocol_version=1)))
        socks = []
        for i in range(20):
            s = connect_raw(d.sock)
            if i % 2:
                s.sendall(hello)  # a complete first frame, then a frame that never ends
            socks.append(s)
        time.sleep(0.1)

        def drip():
            # one byte of a 1000-byte frame every 50 ms on every socket
            payload = struct.pack(">I", 1000) + b"\x08" * 996
            for k in range(len(payload)):
                if stop.is_set():
                    return
                for s in socks:
                    try:
                        s.send(payload[k:k + 1])
                    except OSError:
                        pass
                time.sleep(0.05)

        t = threading.Thread(target=drip, daemon=True)
        t.start()
        # while they hold every slot a new client is refused; after the timeouts it is served
        time.sleep(1.5)
        with d.client(timeout=10) as c:
            h = c.load(xml=open(PENDULUM).read()).model
            assert worst_small_rollout(c, h) < 1.0
        for s in socks:
            assert _closed_with_error(s)
        stop.set()
        assert "header_timeout_ms" in d.read_log() and "read_timeout_ms" in d.read_log()
    finally:
        stop.set()
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_idle_connections_are_closed():
    d = Daemon("--idle-timeout-ms", "300", workers=2)
    try:
        c = d.client()
        c.hello()
        time.sleep(1.0)
        with pytest.raises((ServerError, ConnectionError, OSError)):
            c.health()
        c.close()
        with d.client() as c2:  # a busy one is not
            h = c2.load(xml=open(PENDULUM).read()).model
            for _ in range(8):
                c2.rollout(h, np.zeros((1, 9)), 2)
                time.sleep(0.1)
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_sighup_reloads_limits_without_dropping_work(tmp_path):
    conf = tmp_path / "t.conf"
    conf.write_text("[quotas]\nmax_models_per_connection = 1\n")
    d = Daemon(config=str(conf), workers=2)
    try:
        with d.client() as c:
            h = c.load(xml=open(PENDULUM).read()).model
            with pytest.raises(ServerError) as e:
                c.load(xml="<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
            assert e.value.code == code("ERROR_LIMIT_EXCEEDED")
            # a rollout in flight across the reload completes
            req = rollout_request(c, h, 4, 20000, final_only=True)
            c.send(req)
            conf.write_text("[quotas]\nmax_models_per_connection = 3\n")
            d.proc.send_signal(signal.SIGHUP)
            frames = []
            while not (frames and frames[-1].final):
                r = c.recv()
                if r.id == req.id:
                    frames.append(r)
            assert all(f.WhichOneof("body") == "rollout" for f in frames)
            time.sleep(0.1)
            c.load(xml="<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
            # a broken file is refused and the running configuration kept
            conf.write_text("[quotas]\nmax_models_per_connection = many\n")
            d.proc.send_signal(signal.SIGHUP)
            time.sleep(0.2)
            assert d.alive() and c.health().serving
        assert "event=reload " in d.read_log() and "reload_failed" in d.read_log()
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_drain_past_its_timeout_answers_before_closing():
    d = Daemon("--drain-timeout-ms", "300", workers=2)
    with d.client() as c:
        h = c.load(xml=open(PENDULUM).read()).model
        # seconds of work (8 x 1e6 steps on 2 workers), far beyond the 0.2 s + 0.3 s drain
        req = rollout_request(c, h, 8, 1000000, final_only=True)
        c.send(req)
        time.sleep(0.2)
        d.proc.send_signal(signal.SIGTERM)
        r = c.recv()
        while r.id != req.id:
            r = c.recv()
        assert r.WhichOneof("body") == "error" and r.final
        assert r.error.code == code("ERROR_SHUTTING_DOWN"), r
        assert "drain_timeout_ms" in r.error.message
    rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_repeated_sigterm_during_the_stop_is_ignored():
    """Signals keep arriving while the daemon stops (a supervisor repeating its SIGTERM):
    none of them kills it mid-cleanup, whatever moment it lands on; it exits 0."""
    for attempt in range(10):
        d = Daemon("--drain-timeout-ms", "50", workers=2)
        with d.client() as c:
            h = c.load(xml=open(PENDULUM).read()).model  # libuv's threadpool did the load
            # seconds of work: in flight through the drain, failed at its timeout
            c.send(rollout_request(c, h, 8, 1000000, final_only=True))
            time.sleep(0.05)
            sent = 0
            deadline = time.monotonic() + 30
            while d.proc.poll() is None and time.monotonic() < deadline:
                d.proc.send_signal(signal.SIGTERM)
                sent += 1
                time.sleep(0.00005 * attempt)
        rc, log = d.stop()
        assert sent > 1, "the daemon stopped before a second signal"
        assert rc == 0, (sent, log[-3000:])
        assert "event=exit code=0" in log, log[-3000:]


def _start_fails(*args):
    proc = subprocess.run([TORSIOND, "--socket", ""] + list(args), capture_output=True,
                          text=True, timeout=30)
    return proc.returncode != 0, proc.stderr


def test_tcp_needs_a_token_unless_insecure_loopback(tmp_path):
    port = free_port()
    failed, err = _start_fails("--tcp-port", str(port))
    assert failed and "insecure_loopback" in err
    for bad in (" \n", "short-token\n", "sixteen-chars-ok\0junk\n", "has a space in it!!\n"):
        p = tmp_path / "tok"
        p.write_bytes(bad.encode())
        failed, err = _start_fails("--tcp-port", str(port), "--token-file", str(p))
        assert failed and "token" in err, (bad, err)
    d = Daemon("--insecure-loopback", "true", tcp_port=port)
    try:
        with tdclient.Client(("127.0.0.1", port)) as c:
            assert c.health().serving
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_tokens_compare_over_their_full_length(tmp_path):
    p = tmp_path / "tok"
    p.write_text(TOKEN + "\n")
    port = free_port()
    d = Daemon("--token-file", str(p), tcp_port=port)
    try:
        hello_field = 10
        for given in (TOKEN.encode() + b"\0junk", TOKEN[:-1].encode(), TOKEN.encode() + b"x",
                      b" ", b""):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            body = varint_field(1, 1) + field_bytes(2, given)
            s.sendall(raw_request(7, hello_field, body))
            r = read_frame(s)
            assert r.error.code == code("ERROR_UNAUTHENTICATED"), (given, r)
            assert _closed_with_error(s)
            s.close()
        with tdclient.Client(("127.0.0.1", port)) as c:
            c.hello(TOKEN)
            assert c.health().serving
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def varint_field(num, v):
    from hostile_util import varint
    return varint(num << 3) + varint(v)


def test_unknown_output_dtype_is_refused(tmp_path):
    d = Daemon(workers=2)
    try:
        with d.client() as c:
            h = c.load(xml=open(PENDULUM).read()).model
            for dt in (2, 99):
                with pytest.raises(ServerError) as e:
                    c.call(rollout_request(c, h, 1, 2, output_dtype=dt))
                assert e.value.code == code("ERROR_INVALID_ARGUMENT")
                assert "output_dtype" in e.value.message
            with pytest.raises(ServerError) as e:
                c.session(h, 1, output_dtype=99)
            assert e.value.code == code("ERROR_INVALID_ARGUMENT")
            assert c.rollout(h, np.zeros((1, 9)), 2, output_dtype=1)[0].dtype == np.float32
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_error_messages_are_valid_utf8():
    d = Daemon(workers=2)
    try:
        with d.client() as c:
            # a rollout naming a model handle that is not UTF-8 (field 14: rollout, 1: model)
            c.send_bytes(raw_request(5, 14, field_bytes(1, b"\xff\xfe\xc3(abc\xe2\x82")))
            r = c.recv()  # parses: the message is valid UTF-8
            assert r.error.code == code("ERROR_MODEL_NOT_FOUND")
            assert "\ufffd" in r.error.message and "abc" in r.error.message
            assert c.health().serving
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_quotas_apply_per_token_across_connections(tmp_path):
    """Connections showing the same token share its quotas: opening more connections does
    not give a client more models or environments; another token has its own."""
    other = "another-token-for-client-two-000"
    p = tmp_path / "tok"
    p.write_text(TOKEN + "\n\n" + other + "\n")
    port = free_port()
    d = Daemon("--token-file", str(p), "--max-models-per-connection", "2",
               "--max-envs-per-connection", "100", tcp_port=port)
    try:
        addr = ("127.0.0.1", port)
        with tdclient.Client(addr) as a1, tdclient.Client(addr) as a2, \
                tdclient.Client(addr) as b:
            a1.hello(TOKEN)
            a2.hello(TOKEN)
            b.hello(other)
            xml = open(PENDULUM).read()
            h = a1.load(xml=xml).model
            a2.load(xml="<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
            with pytest.raises(ServerError) as e:
                a2.load(xml="<mujoco><worldbody><geom size='2'/></worldbody></mujoco>")
            assert e.value.code == code("ERROR_LIMIT_EXCEEDED") and "per token" in e.value.message
            a1.session(h, 60)
            with pytest.raises(ServerError) as e:
                a2.session(h, 60)
            assert e.value.code == code("ERROR_LIMIT_EXCEEDED") and "token" in e.value.message
            # the other token is unaffected
            b.load(xml=xml)
            b.load(xml="<mujoco><worldbody><geom size='2'/></worldbody></mujoco>")
            b.session(h, 100)
    finally:
        rc, log = d.stop()
    assert rc == 0, log
