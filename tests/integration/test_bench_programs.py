"""The C benchmark programs' options and JSON: bench_fd and bench_daemon print one valid JSON
object (a model path with '"' and '\\' included) with the keys bench/*.py read, take
"--name=value", and stop with a one-line reason and the usage (exit 2) on a missing value,
an unknown option or a bad number."""
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

import torsion_client as tdclient
from daemon_util import PENDULUM, TORSIOND, sim_info

BENCH_FD = tdclient.build_path("bench", "bench_fd")
BENCH_DAEMON = tdclient.build_path("clients", "bench_daemon")


def run(cmd, *args):
    return subprocess.run([cmd] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture
def odd_pendulum(tmp_path):
    path = tmp_path / 'pen"du\\lum.xml'
    shutil.copy(PENDULUM, path)
    return str(path)


def test_bench_fd_json(tmp_path, odd_pendulum):
    info = sim_info(PENDULUM)
    np.save(tmp_path / "s.npy", np.zeros((3, info["nstate"])))
    proc = run(BENCH_FD, odd_pendulum, "--states=%s" % (tmp_path / "s.npy"), "--min-time", 0.01,
               "--reps", 1, "--threads", "1,2", "--torsiond", TORSIOND, "--daemon-threads", 1)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["model"] == odd_pendulum and res["states"] == 3 and res["eps"] == 1e-6
    assert [b["threads"] for b in res["batch"]] == [1, 2]
    assert res["single_us_per_state"] > 0 and res["daemon"]["bitwise_equal"] is True


def test_bench_daemon_json(odd_pendulum, tmp_path):
    proc = run(BENCH_DAEMON, "--model", odd_pendulum, "--latency-model", odd_pendulum,
               "--torsiond", TORSIOND, "--batch", 4, "--nstep=10", "--reps", 1,
               "--latency-steps", 100, "--threads", 1, "--json", tmp_path / "out.json")
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    with open(tmp_path / "out.json") as f:
        assert json.load(f) == res
    assert res["model"] == odd_pendulum and res["latency_model"] == odd_pendulum
    assert res["bitwise_equal"] is True and res["daemon_exit_status"] == 0
    assert set(res["session_step_tcp_us"]) == {"p50", "p99", "max"}


@pytest.mark.parametrize("prog,args,needle", [
    (BENCH_FD, ["m.xml", "--states"], "--states needs a value"),
    (BENCH_FD, ["m.xml", "--states", "s.npy", "--reps", "0"], "--reps must be"),
    (BENCH_FD, ["m.xml", "--states", "s.npy", "--threads", "1,x"], "--threads takes"),
    (BENCH_FD, ["m.xml", "--states", "s.npy", "--daemon"], "--daemon needs --torsiond"),
    (BENCH_FD, ["m.xml", "--bogus"], "unknown option '--bogus'"),
    (BENCH_DAEMON, ["--model", "m.xml", "--batch", "0"], "--batch must be"),
    (BENCH_DAEMON, ["--model"], "--model needs a value"),
    (BENCH_DAEMON, ["--nstep", "5"], "--model is required"),
])
def test_bench_option_errors(prog, args, needle):
    proc = run(prog, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[0].endswith(needle) or needle in proc.stderr.splitlines()[0]
    assert "usage:" in proc.stderr


@pytest.mark.parametrize("prog", [BENCH_FD, BENCH_DAEMON])
def test_bench_help(prog):
    proc = run(prog, "--help")
    assert proc.returncode == 0 and proc.stdout.startswith("usage: ")


def test_bench_fd_rk4_model_with_includes(tmp_path):
    """dm_control's cartpole (integrator RK4, ./common includes): the option is set to Euler
    through mxml, the model travels with the files it references, and the daemon's matrices
    equal the in-process ones bit for bit."""
    import dm_control
    path = os.path.join(os.path.dirname(dm_control.__file__), "suite", "cartpole.xml")
    rng = np.random.default_rng(0)
    info = sim_info(path)
    np.save(tmp_path / "s.npy", 0.1 * rng.standard_normal((4, info["nstate"])))
    proc = run(BENCH_FD, path, "--states", tmp_path / "s.npy", "--integrator", "euler",
               "--min-time", 0.01, "--reps", 1, "--threads", "1", "--torsiond", TORSIOND,
               "--daemon-threads", 1)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["integrator"] == 0 and res["daemon"]["bitwise_equal"] is True
