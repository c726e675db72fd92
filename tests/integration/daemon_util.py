"""Helpers of the daemon integration tests: starting the real torsiond on a temporary
Unix socket (or TCP port), the binaries under test, the models used, and torsion-sim runs
to compare against. (conftest.py holds only the fixtures; this module has a unique name
so that test files can import it next to other suites' conftest modules.)

Binaries come from $TORSION_BUILD (default: build/ under the repository root), or one by
one from $TORSIOND, $TORSION_CLI and $TORSION_SIM. Every daemon is stopped with SIGTERM at
the end and must exit with status 0 and print no sanitizer report — so a leak found by
AddressSanitizer's leak checker fails the test that owned the daemon.
"""
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(_HERE)), "clients", "python"))
import torsion_client as tdclient  # noqa: E402

TORSIOND = os.environ.get("TORSIOND", tdclient.build_path("server", "torsiond"))
TORSION_CLI = os.environ.get("TORSION_CLI", tdclient.build_path("clients", "torsion"))
TORSION_SIM = os.environ.get("TORSION_SIM", tdclient.build_path("engine", "tools", "torsion-sim"))
MODELS = os.path.join(tdclient.REPO_ROOT, "tests", "models")
PENDULUM = os.path.join(MODELS, "pendulum_chain.xml")


def gym_model(name):
    """Path of a gymnasium MuJoCo asset, or None when gymnasium is not installed."""
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        return None
    base = os.path.dirname(sys.modules["gymnasium"].__file__)
    path = os.path.join(base, "envs", "mujoco", "assets", name)
    return path if os.path.exists(path) else None


def engine_loads(path):
    """True when torsion-sim can load the model (the engine grows model by model)."""
    if not path:
        return False
    proc = subprocess.run([TORSION_SIM, "info", path], capture_output=True, timeout=60)
    return proc.returncode == 0


class Daemon:
    """A torsiond process on a temporary socket."""

    def __init__(self, *args, workers=2, tcp_port=0, config=None, env=None):
        if not os.access(TORSIOND, os.X_OK):
            pytest.fail("torsiond not found at %s (build it, or set TORSION_BUILD)" % TORSIOND)
        self.dir = tempfile.mkdtemp(prefix="td-")
        self.sock = os.path.join(self.dir, "s")
        self.log_path = os.path.join(self.dir, "log")
        self.tcp_port = tcp_port
        cmd = [TORSIOND]
        if config:
            cmd += ["--config", config]
        cmd += ["--socket", self.sock, "--workers", str(workers), "--log-level", "info"]
        if tcp_port:
            cmd += ["--tcp-port", str(tcp_port)]
        cmd += list(args)
        self.log = open(self.log_path, "w")
        # env: variables added to this process's environment for the daemon
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL,
                                     env=dict(os.environ, **env) if env else None)
        self._wait_ready()

    def _wait_ready(self):
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.proc.poll() is not None:
                pytest.fail("torsiond exited at startup:\n" + self.read_log())
            try:
                with tdclient.Client(self.sock, timeout=5) as c:
                    c.health()
                return
            except (OSError, ConnectionError):
                time.sleep(0.05)
        pytest.fail("torsiond did not start:\n" + self.read_log())

    def client(self, timeout=120):
        return tdclient.Client(self.sock, timeout=timeout)

    def read_log(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=60):
        """Stop and return the exit status; fails on a sanitizer report."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                pytest.fail("torsiond did not stop within %d s:\n%s" % (timeout, self.read_log()))
        log = self.read_log()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        assert "Sanitizer" not in log, log[-6000:]
        return self.proc.returncode, log


def free_port():
    """An unused loopback TCP port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_sim(args, tmpdir):
    """Run torsion-sim; returns stdout."""
    if not os.access(TORSION_SIM, os.X_OK):
        pytest.fail("torsion-sim not found at %s" % TORSION_SIM)
    proc = subprocess.run([TORSION_SIM] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=600, cwd=tmpdir)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def sim_rollout(model_path, state, ctrl, nstep, tmpdir, threads=1):
    """torsion-sim rollout on .npy files; returns [B, nstep, nstate]."""
    np.save(os.path.join(tmpdir, "s.npy"), state)
    args = ["rollout", model_path, "--state", "s.npy", "--nstep", nstep, "--out", "o.npy",
            "--threads", threads]
    if ctrl is not None:
        np.save(os.path.join(tmpdir, "c.npy"), ctrl)
        args += ["--ctrl", "c.npy"]
    run_sim(args, tmpdir)
    return np.load(os.path.join(tmpdir, "o.npy"))


def sim_forward(model_path, state, ctrl, tmpdir):
    """torsion-sim forward; returns qacc [B, nv]."""
    np.save(os.path.join(tmpdir, "s.npy"), state)
    args = ["forward", model_path, "--state", "s.npy", "--out", "q.npy"]
    if ctrl is not None:
        np.save(os.path.join(tmpdir, "c.npy"), ctrl)
        args += ["--ctrl", "c.npy"]
    run_sim(args, tmpdir)
    return np.load(os.path.join(tmpdir, "q.npy"))


def sim_info(model_path):
    import json
    return json.loads(run_sim(["info", model_path], tempfile.gettempdir()))


def bitwise_equal(a, b):
    """Same shape and the same bits (NaNs included)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))


def random_states(info, B, rng, scale=0.3):
    """FULLPHYSICS states [B, 1 + nq + nv + na]: time 0, qpos0 + noise, random qvel."""
    nq, nv, na = info["nq"], info["nv"], info["na"]
    s = np.zeros((B, info["nstate"]))
    s[:, 1:1 + nq] = np.array(info["qpos0"]) + scale * rng.standard_normal((B, nq))
    s[:, 1 + nq:1 + nq + nv] = scale * rng.standard_normal((B, nv))
    return s


def glob_models():
    return sorted(glob.glob(os.path.join(MODELS, "*.xml")))
