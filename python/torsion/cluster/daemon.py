"""torsion.cluster.daemon — find the torsiond binary and run one torsiond on a TCP port with a
generated token (no Ray needed: the node actors and the benchmarks use it).

    d = LocalDaemon(workers=4, host="10.0.0.5")      # binds 10.0.0.5:<free port>
    c = torsion.Client(address=d.address, token=d.token)
    d.stop()

The binary is looked up in this order: $TORSIOND, the package's own torsion/bin/torsiond
(the wheel ships it), then `torsiond` on PATH."""
from __future__ import annotations

import ctypes
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from typing import List, Optional, Sequence

_PR_SET_PDEATHSIG = 1


def find_torsiond() -> str:
    """Path of the torsiond executable: $TORSIOND, else the one inside the installed package
    (torsion/bin/torsiond), else `torsiond` on PATH; FileNotFoundError when none exists."""
    env = os.environ.get("TORSIOND")
    if env:
        if not os.access(env, os.X_OK):
            raise FileNotFoundError("$TORSIOND=%s is not an executable file" % env)
        return env
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    packaged = os.path.join(here, "bin", "torsiond")
    if os.access(packaged, os.X_OK):
        return packaged
    found = shutil.which("torsiond")
    if found:
        return found
    raise FileNotFoundError("torsiond not found: not in $TORSIOND, not in the package (%s), "
                            "not on PATH; reinstall torsion with `pip install`" % packaged)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS's choice for an ephemeral bind)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def default_workers() -> int:
    """The CPUs this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _die_with_parent():
    """In the child before exec: SIGKILL when the parent dies (Linux), so a daemon never
    outlives the Ray actor that started it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class LocalDaemon:
    """One torsiond child process listening on TCP host:port with a fresh token.

    workers: worker threads (None: this process's CPUs); host: the address clients use;
    bind: the listen address (default host; "0.0.0.0" listens everywhere); port: 0 picks a
    free one; token: None generates one (written to a 0600 token file); config: a
    torsiond.conf whose other settings apply (flags given here win); extra_args: more
    flags; die_with_parent: the daemon gets SIGKILL when this process dies."""

    def __init__(self, workers: Optional[int] = None, host: str = "127.0.0.1",
                 bind: Optional[str] = None, port: int = 0, token: Optional[str] = None,
                 config: Optional[str] = None, extra_args: Sequence[str] = (),
                 binary: Optional[str] = None, die_with_parent: bool = True,
                 start_timeout: float = 60.0):
        self.binary = binary or find_torsiond()
        self.workers = int(workers) if workers else default_workers()
        self.host = host
        self.bind = bind or host
        self.token = token or secrets.token_urlsafe(24)
        self._dir = tempfile.mkdtemp(prefix="torsiond-")
        self.token_file = os.path.join(self._dir, "token")
        fd = os.open(self.token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(self.token + "\n")
        self.log_path = os.path.join(self._dir, "torsiond.log")
        self.proc: Optional[subprocess.Popen] = None
        # a picked port may be taken between the probe and the daemon's bind: try a few
        last = ""
        for _ in range(5 if port == 0 else 1):
            self.port = port or free_port(self.bind if self.bind != "0.0.0.0" else "127.0.0.1")
            cmd = [self.binary] + (["--config", config] if config else []) + [
                "--socket=", "--tcp-port", str(self.port), "--tcp-address", self.bind,
                "--token-file", self.token_file, "--workers", str(self.workers)]
            cmd += list(extra_args)
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    preexec_fn=_die_with_parent if die_with_parent else None)
            if self._wait_ready(start_timeout):
                return
            last = self.read_log()[-2000:]
            self.kill()
        raise RuntimeError("torsiond did not start (%s):\n%s" % (" ".join(cmd), last))

    @property
    def address(self) -> str:
        """"host:port" for torsion.Client(address=...)."""
        return "%s:%d" % (self.host, self.port)

    def endpoint(self) -> dict:
        """What a client needs: host, port, token, workers, pid."""
        return {"host": self.host, "port": self.port, "token": self.token,
                "workers": self.workers, "pid": self.proc.pid if self.proc else None}

    def _wait_ready(self, timeout: float) -> bool:
        """True once the log says ready and the port accepts; False if the daemon exited."""
        t_end = time.monotonic() + timeout
        while time.monotonic() < t_end:
            if self.proc.poll() is not None:
                return False
            if "event=ready" in self.read_log():
                try:
                    socket.create_connection((self.host, self.port), timeout=2).close()
                    return True
                except OSError:
                    pass
            time.sleep(0.02)
        return False

    def read_log(self) -> str:
        """The daemon's log so far."""
        try:
            with open(self.log_path, "r", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def alive(self) -> bool:
        """The process still runs."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send sig and reap the process."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.proc.send_signal(sig)
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM (the daemon drains), SIGKILL after timeout; the exit code; removes the
        token file."""
        rc = 0
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            rc = self.proc.returncode
        shutil.rmtree(self._dir, ignore_errors=True)
        return rc

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def argv_flags(settings: dict) -> List[str]:
    """torsiond flags from {name: value} (e.g. {"max_batch": 4096})."""
    return ["--%s=%s" % (k.replace("_", "-"), v) for k, v in settings.items()]
