"""`torsion bench` against a real daemon: it names the server (version, host, workers) beside
its results, marks percentiles that rest on too few samples, and stops at once on an error
every later request would repeat (or after --max-errors failures in a row) instead of
firing failing requests for the whole --duration."""
import json
import socket
import subprocess
import time

import pytest

from daemon_util import PENDULUM, TORSION_CLI, Daemon


def bench(daemon, *args, timeout=120):
    """Run the CLI's bench on the daemon's socket; returns (proc, seconds)."""
    t0 = time.time()
    proc = subprocess.run([TORSION_CLI, "--socket", daemon.sock, "bench", "--no-progress"] +
                          [str(a) for a in args], capture_output=True, text=True, timeout=timeout)
    return proc, time.time() - t0


def test_report_names_server_and_is_ok(daemon):
    proc, _ = bench(daemon, "--model", PENDULUM, "--requests", 40, "--nstep", 10, "--batch", 4,
                    "--json")
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    with daemon.client() as c:
        hello = c.hello()
    srv = res["server"]
    assert srv["version"] == hello.server_version and srv["workers"] == 2
    assert srv["hostname"] == socket.gethostname() and srv["protocol_version"] == 1
    assert srv["address"] == "unix:" + daemon.sock
    assert res["stopped_early"] is None and res["errors"] == 0 and res["requests"] == 40

    table, _ = bench(daemon, "--model", PENDULUM, "--requests", 5, "--nstep", 10, "--batch", 4)
    assert table.returncode == 0, table.stderr
    assert ("server    torsiond %s on %s, 2 worker(s), protocol 1"
            % (hello.server_version, socket.gethostname())) in table.stdout


def test_percentiles_on_few_samples_are_marked(daemon):
    # 30 rollouts: p50 and p90 have enough samples, p99 needs 100
    proc, _ = bench(daemon, "--model", PENDULUM, "--requests", 30, "--nstep", 10, "--batch", 4,
                    "--json")
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    roll = res["latency_us"]["rollout"]
    assert roll["count"] == 30 and roll["few_samples"] == ["p99"]
    assert any("p99 of rollout rests on 30 samples" in w and "needs 100" in w
               for w in res["warnings"])

    # 5 requests: p90 too; the table marks the values and says why under it
    table, _ = bench(daemon, "--model", PENDULUM, "--requests", 5, "--nstep", 10, "--batch", 4)
    assert table.returncode == 0, table.stderr
    row = next(line for line in table.stdout.splitlines() if line.strip().startswith("rollout"))
    assert row.count("*") == 2, row
    assert "p90 and p99 of rollout rest on 5 samples (p90 needs 10, p99 needs 100)" in table.stdout

    # enough samples: no mark, no warning
    many, _ = bench(daemon, "--model", PENDULUM, "--requests", 120, "--mix", "forward=1",
                    "--batch", 2, "--json")
    assert many.returncode == 0, many.stderr
    res = json.loads(many.stdout)
    assert res["latency_us"]["forward"]["few_samples"] == [] and res["warnings"] == []


@pytest.mark.parametrize("args,code", [
    (["--batch", 100000], "ERROR_LIMIT_EXCEEDED"),      # over max_batch: refused every time
    (["--mix", "inversefd=1", "--fd-batch", 100000], "ERROR_LIMIT_EXCEEDED"),
])
def test_permanent_error_stops_at_once(daemon, args, code):
    proc, secs = bench(daemon, "--model", PENDULUM, "--duration", 30, "--connections", 3,
                       "--json", *args)
    assert proc.returncode == 1
    assert secs < 10, secs
    res = json.loads(proc.stdout)
    assert code in res["stopped_early"] and "every later request would get again" in \
        res["stopped_early"]
    assert res["errors"] <= 3 and res["requests"] == 0
    assert "bench stopped early: " in proc.stderr and code in proc.stderr


def test_unknown_model_handle_stops_at_once(daemon):
    proc, secs = bench(daemon, "--model", "0" * 64, "--duration", 30, "--connections", 2)
    assert proc.returncode == 1 and secs < 10
    assert "ERROR_MODEL_NOT_FOUND" in proc.stderr and "stopped early" in proc.stderr
    assert "server    torsiond" in proc.stdout


def test_repeating_transient_error_stops_after_max_errors():
    # every rollout (12.8M steps, seconds of work) outlives a 500 ms default deadline, which
    # loading the model and opening a session do not: DEADLINE_EXCEEDED is not permanent in
    # general, but five in a row with nothing succeeding stops the run
    d = Daemon("--default-deadline-ms", "500")
    try:
        proc, secs = bench(d, "--model", PENDULUM, "--duration", 60, "--nstep", 200000,
                           "--max-errors", 5, "--json")
        assert proc.returncode == 1 and proc.stdout, proc.stderr
        res = json.loads(proc.stdout)
        assert res["stopped_early"].startswith("5 requests failed in a row (--max-errors 5)")
        assert "ERROR_DEADLINE_EXCEEDED" in res["stopped_early"]
        assert res["errors"] == 5 and secs < 30
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_bad_max_errors_option():
    proc = subprocess.run([TORSION_CLI, "--socket", "/nonexistent", "bench", "--model", "m.xml",
                           "--max-errors", "x"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "--max-errors" in proc.stderr


def test_rate_paces_requests_on_a_fixed_clock(daemon):
    # 40 session steps at 100 Hz take about 0.4 s (request i is due at i / 100 s): never
    # faster than the clock, and the count is exact
    proc, _ = bench(daemon, "--model", PENDULUM, "--mix", "step=1", "--requests", 40,
                    "--rate", 100, "--warmup", 0, "--json")
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["requests"] == 40 and res["errors"] == 0
    assert res["seconds"] >= 39 / 100
    # a bad rate is refused before any request
    bad, _ = bench(daemon, "--model", PENDULUM, "--rate", "fast")
    assert bad.returncode != 0 and "--rate must be requests per second" in bad.stderr
