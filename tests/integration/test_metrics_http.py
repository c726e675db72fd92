"""torsiond's Prometheus listener (metrics_listen): the scrape parses with prometheus_client's
own parser, its counters follow the requests served (and agree with Stats), anything but
GET /metrics gets a 4xx, a bearer token is enforced when configured, slow or silent
connections are closed at metrics_timeout_ms, the connection cap answers 503, and a bad
configuration stops the daemon at startup."""
import http.client
import math
import os
import signal
import socket
import subprocess
import time

import numpy as np
import pytest
from prometheus_client.parser import text_string_to_metric_families

from daemon_util import PENDULUM, TORSIOND, Daemon, free_port


def scrape_raw(port, path="/metrics", method="GET", headers=None):
    """(status, headers, body) of one HTTP request."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read().decode()
    finally:
        conn.close()


def scrape(port, headers=None):
    """The families of a successful scrape, by name."""
    status, hdrs, body = scrape_raw(port, headers=headers)
    assert status == 200, body
    assert hdrs["Content-Type"].startswith("text/plain; version=0.0.4"), hdrs
    return {f.name: f for f in text_string_to_metric_families(body)}


def value(fams, name, **labels):
    """The value of one sample (0 when the labelled series is absent)."""
    for fam in fams.values():
        for s in fam.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


def raw_exchange(port, data, timeout=5):
    """Send raw bytes, return everything the server sends until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            out += chunk
        return out


@pytest.fixture(scope="module")
def mdaemon():
    port = free_port()
    d = Daemon("--metrics-listen", "127.0.0.1:%d" % port, "--metrics-timeout-ms", "800",
               "--metrics-max-connections", "4")
    d.mport = port
    yield d
    assert d.alive(), d.read_log()[-4000:]
    rc, log = d.stop()
    assert rc == 0, log[-4000:]


def test_scrape_parses_with_prometheus_parser(mdaemon):
    fams = scrape(mdaemon.mport)
    for name in ("torsiond_build_info", "process_start_time_seconds", "torsiond_requests",
                 "torsiond_request_duration_seconds", "torsiond_env_steps", "torsiond_queued_chunks",
                 "torsiond_running_chunks", "torsiond_workers", "torsiond_connections",
                 "torsiond_models_loaded", "torsiond_received_bytes", "torsiond_sent_bytes"):
        assert name in fams, sorted(fams)
    assert fams["torsiond_requests"].type == "counter"
    assert fams["torsiond_request_duration_seconds"].type == "histogram"
    info = fams["torsiond_build_info"].samples[0]
    with mdaemon.client() as c:
        hello = c.hello()
    assert info.labels["version"] == hello.server_version and info.value == 1
    assert hello.hostname == socket.gethostname()
    assert value(fams, "torsiond_workers") == 2
    start = value(fams, "process_start_time_seconds")
    assert abs(start - time.time()) < 600


def test_counters_follow_requests_and_agree_with_stats(mdaemon):
    port = mdaemon.mport
    before = scrape(port)
    with open(PENDULUM) as f:
        xml = f.read()
    B, nstep, n = 3, 20, 5
    with mdaemon.client() as c:
        loaded = c.load(xml=xml)
        handle = loaded.model
        state = np.zeros((B, loaded.info.nstate_fullphysics))
        for _ in range(n):
            c.rollout(handle, state, nstep=nstep)
        with pytest.raises(Exception):
            c.info("0" * 64)
        mid = scrape(port)
        assert value(mid, "torsiond_models_loaded") >= 1
        assert value(mid, "torsiond_connections") >= 1
        stats = c.stats()
    after = scrape(port)

    def rise(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert rise("torsiond_requests_total", kind="rollout", code="ok") == n
    assert rise("torsiond_requests_total", kind="model_info", code="model_not_found") == 1
    assert rise("torsiond_env_steps_total") == n * B * nstep
    assert rise("torsiond_received_bytes_total") > 0 and rise("torsiond_sent_bytes_total") > 0

    # the histogram: cumulative buckets ending in +Inf == count, a positive sum
    count = value(after, "torsiond_request_duration_seconds_count", kind="rollout")
    assert count - value(before, "torsiond_request_duration_seconds_count", kind="rollout") == n
    buckets = [(float(s.labels["le"]), s.value) for s in
               after["torsiond_request_duration_seconds"].samples
               if s.name.endswith("_bucket") and s.labels["kind"] == "rollout"]
    les = [le for le, _ in buckets]
    assert les == sorted(les) and math.isinf(les[-1]) and les[0] == pytest.approx(1e-6)
    counts = [v for _, v in buckets]
    assert counts == sorted(counts) and counts[-1] == count
    assert value(after, "torsiond_request_duration_seconds_sum", kind="rollout") > 0

    # the same totals as Stats (which counts requests finished before it was answered)
    total = sum(s.value for s in mid["torsiond_requests"].samples
                if s.name == "torsiond_requests_total")
    assert stats.requests_total >= total
    assert stats.steps_total == value(after, "torsiond_env_steps_total")
    assert stats.server_version == after["torsiond_build_info"].samples[0].labels["version"]
    assert stats.hostname == socket.gethostname()
    assert stats.protocol_version >= 1


@pytest.mark.parametrize("request_bytes,status", [
    (b"GET /other HTTP/1.1\r\nHost: x\r\n\r\n", 404),
    (b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405),
    (b"DELETE /metrics HTTP/1.1\r\n\r\n", 405),
    (b"GET /metrics/../x HTTP/1.1\r\n\r\n", 404),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http", 400),
    (b"GET /metrics HTTP/1.1\r\nBad Header Line\r\n\r\n", 400),
    (b"GET /" + b"a" * 400 + b" HTTP/1.1\r\n\r\n", 414),
    (b"GET /metrics HTTP/1.1\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n", 431),
])
def test_bad_requests_get_4xx(mdaemon, request_bytes, status):
    out = raw_exchange(mdaemon.mport, request_bytes)
    assert out.startswith(b"HTTP/1.1 %d " % status), out[:200]
    assert b"Connection: close" in out
    if status == 405:
        assert b"Allow: GET" in out


def test_one_request_per_connection_and_query_string(mdaemon):
    # a pipelined second request is not answered: the connection closes after the first
    out = raw_exchange(mdaemon.mport, b"GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\n\r\n"
                       b"GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
    assert out.startswith(b"HTTP/1.1 200 OK") and out.count(b"HTTP/1.1 ") == 1


def test_slow_and_silent_connections_are_closed(mdaemon):
    port = mdaemon.mport
    t0 = time.time()
    silent = socket.create_connection(("127.0.0.1", port))
    slow = socket.create_connection(("127.0.0.1", port))
    slow.settimeout(5)
    silent.settimeout(5)
    closed_at = None
    try:
        # a slow-loris: one byte every 100 ms, never finishing its head
        for ch in b"GET /metrics HTTP/1.1\r\nX-Slow: " + b"z" * 60:
            try:
                slow.send(bytes([ch]))
            except (BrokenPipeError, ConnectionResetError):
                closed_at = time.time()
                break
            time.sleep(0.1)
        if closed_at is None:
            try:
                assert slow.recv(100) == b""
            except ConnectionResetError:
                pass
            closed_at = time.time()
        assert closed_at - t0 < 3.0, closed_at - t0
        # the silent one is gone as well
        try:
            assert silent.recv(100) == b""
        except ConnectionResetError:
            pass
    finally:
        slow.close()
        silent.close()
    # while they were held, other scrapes and the daemon's own protocol were answered
    assert scrape(port)
    with mdaemon.client() as c:
        assert c.health().serving


def test_connection_cap_answers_503(mdaemon):
    port = mdaemon.mport
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    try:
        time.sleep(0.1)
        out = raw_exchange(port, b"GET /metrics HTTP/1.1\r\n\r\n")
        assert out.startswith(b"HTTP/1.1 503 "), out[:100]
    finally:
        for s in held:
            s.close()
    time.sleep(0.1)
    assert scrape(port)


def test_bearer_token(tmp_path):
    port = free_port()
    token = "metrics-token-0123456789abcdef"
    (tmp_path / "tok").write_text(token + "\n")
    d = Daemon("--metrics-listen", "127.0.0.1:%d" % port, "--metrics-token-file",
               str(tmp_path / "tok"))
    try:
        assert scrape_raw(port)[0] == 401
        assert scrape_raw(port, headers={"Authorization": "Bearer wrong-token-0123456789"})[0] == 401
        assert scrape_raw(port, headers={"Authorization": "Basic " + token})[0] == 401
        assert scrape(port, headers={"Authorization": "Bearer " + token})
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


@pytest.mark.parametrize("args,needle", [
    (["--metrics-listen", "0.0.0.0:9464"], "requires metrics_token_file"),
    (["--metrics-listen", "127.0.0.1"], "metrics_listen must be"),
    (["--metrics-listen", "127.0.0.1:99999"], "metrics_listen must be"),
    (["--metrics-listen", "127.0.0.1:9464", "--metrics-max-connections", "0"], "must be >= 1"),
])
def test_bad_metrics_config_stops_at_startup(tmp_path, args, needle):
    proc = subprocess.run([TORSIOND, "--socket", str(tmp_path / "s")] + args,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert needle in proc.stderr


def test_port_in_use_fails_startup(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        proc = subprocess.run([TORSIOND, "--socket", str(tmp_path / "s"), "--metrics-listen",
                               "127.0.0.1:%d" % port], capture_output=True, text=True, timeout=30)
    assert proc.returncode != 0
    assert "listen_failed" in proc.stdout + proc.stderr and "metrics=" in proc.stdout + proc.stderr
    assert not os.path.exists(str(tmp_path / "s"))


def test_sighup_keeps_listener_and_reads_new_token(tmp_path):
    port = free_port()
    tok = tmp_path / "tok"
    first, second = "first-token-0123456789", "second-token-0123456789"
    tok.write_text(first + "\n")
    d = Daemon("--metrics-listen", "127.0.0.1:%d" % port, "--metrics-token-file", str(tok))
    try:
        assert scrape(port, headers={"Authorization": "Bearer " + first})
        tok.write_text(second + "\n")
        d.proc.send_signal(signal.SIGHUP)
        deadline = time.time() + 10
        while "event=reload" not in d.read_log() and time.time() < deadline:
            time.sleep(0.05)
        assert scrape_raw(port, headers={"Authorization": "Bearer " + first})[0] == 401
        assert scrape(port, headers={"Authorization": "Bearer " + second})
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]
