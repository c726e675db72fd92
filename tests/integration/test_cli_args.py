"""The `torsion` CLI's option parsing: global options and each subcommand's take
"--name value" and "--name=value" with the MODEL anywhere; a missing value, an unknown option
or a bad number is a one-line error (exit 1) before connecting; -h/--help prints the usage."""
import subprocess

import numpy as np
import pytest

from daemon_util import PENDULUM, TORSION_CLI, bitwise_equal, sim_info, sim_rollout


def run(*args, cwd=None):
    return subprocess.run([TORSION_CLI] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


@pytest.mark.parametrize("args,needle", [
    (["--socket"], "--socket needs a value"),
    (["--token-file"], "--token-file needs a value"),
    (["--frobnicate", "info", "x"], "unknown option '--frobnicate'"),
    (["--socket", "/nonexistent", "rollout", "m.xml", "--state"], "--state needs a value"),
    (["--socket", "/nonexistent", "rollout", "m.xml", "--state", "s", "--out", "o",
      "--nstep", "ten"], "--nstep must be a non-negative integer"),
    (["--socket", "/nonexistent", "transitionfd", "m.xml", "--state", "s", "--out", "o",
      "--eps", "-1"], "--eps must be a positive number"),
    (["--socket", "/nonexistent", "inversefd", "m.xml", "--bogus"], "unknown option '--bogus'"),
    (["--socket", "/nonexistent", "load", "m.xml", "--asset"], "--asset needs a value"),
    (["--socket", "/nonexistent", "load", "m.xml", "--asset", "noequals"], "NAME=FILE"),
    (["--socket", "/nonexistent", "info", "a.xml", "b.xml"], "unexpected argument b.xml"),
    (["--socket", "/nonexistent", "bench", "--model", "m.xml", "--connections", "0"],
     "bad --connections 0"),
    (["--socket", "/nonexistent", "bench", "--mix"], "--mix needs a value"),
    (["--socket", "/nonexistent", "stats", "-x"], "unknown option '-x'"),
])
def test_option_errors(args, needle):
    proc = run(*args)
    assert proc.returncode == 1 and proc.stdout == ""
    err = proc.stderr.strip()
    assert len(err.splitlines()) == 1 and needle in err, err


def test_help():
    for args in (["--help"], ["-h"], ["rollout", "--help"], ["load", "-h"], ["stats", "--help"]):
        proc = run(*args)
        assert proc.returncode == 0 and proc.stdout.startswith("usage: torsion "), args
    out = run("--help").stdout
    for opt in ("--socket", "--tcp", "--tls", "--tls-ca", "--token", "--token-file",
                "--asset", "--server-path", "--state", "--ctrl", "--nstep", "--out", "--spec",
                "--every", "--final-only", "--float32", "--sensordata", "--chunk-envs",
                "--deadline-ms", "--qacc", "--eps", "--centered", "--actuation"):
        assert opt in out, opt
    proc = run("bench", "--help")
    assert proc.returncode == 0 and proc.stdout.startswith("usage: torsion bench")


def test_option_forms_against_daemon(daemon, tmp_path):
    """--socket=PATH, --name=value and options before the MODEL give torsion-sim's rollout."""
    info = sim_info(PENDULUM)
    rng = np.random.default_rng(4)
    state = np.zeros((3, info["nstate"]))
    state[:, 1:1 + info["nq"]] = rng.standard_normal((3, info["nq"]))
    ctrl = rng.standard_normal((3, 6, info["nu"]))
    ref = sim_rollout(PENDULUM, state, ctrl, 6, str(tmp_path))
    np.save(tmp_path / "s.npy", state)
    np.save(tmp_path / "c.npy", ctrl)
    proc = run("--socket=" + daemon.sock, "rollout", "--nstep=6", "--state=s.npy", "--ctrl",
               "c.npy", "--out=o.npy", PENDULUM, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert bitwise_equal(np.load(tmp_path / "o.npy"), ref)
