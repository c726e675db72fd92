""".npy inputs of torsion-sim and the `torsion` CLI, which share one reader (common/npy.c).

Bad files — a shape whose element count overflows, a shape larger than the file, a
big-endian or integer dtype, a structured dtype hiding '<f8', Fortran order, a bad magic, a
truncated file — make both programs exit with status 1 and one line on stderr naming the
file and the reason, without writing an output (never a crash). Good files in the other
accepted layouts (format versions 2.0 and 3.0, float32) give bit for bit the results of the
same numbers as a version 1.0 float64 file."""
import os
import struct
import subprocess

import numpy as np
import pytest

from daemon_util import PENDULUM, TORSION_CLI, TORSION_SIM, bitwise_equal, sim_info

HEADER = "{'descr': %s, 'fortran_order': %s, 'shape': %s, }"


def raw_npy(path, descr="'<f8'", fortran="False", shape="(2, 4)", data=b"\0" * 64, magic=None):
    """Write a version 1.0 .npy file from its parts (descr as Python source; the header padded
    as NumPy pads it)."""
    head = (HEADER % (descr, fortran, shape)).encode()
    pad = (64 - (10 + len(head) + 1) % 64) % 64
    head += b" " * pad + b"\n"
    with open(path, "wb") as f:
        f.write(magic or b"\x93NUMPY\x01\x00")
        f.write(struct.pack("<H", len(head)))
        f.write(head)
        f.write(data)
    return path


@pytest.fixture(scope="module")
def states():
    """Four small states of the pendulum chain, [4, nstate] float64."""
    nstate = sim_info(PENDULUM)["nstate"]
    return np.random.default_rng(7).normal(scale=0.2, size=(4, nstate))


def bad_files(tmp_path, states):
    """{name: (path, reason the message must hold)}."""
    d = tmp_path
    good = states.tobytes()
    shape = "(%d, %d)" % states.shape
    files = {
        "overflow": (raw_npy(d / "overflow.npy", shape="(%d, %d, %d)" % ((2**31 - 1,) * 3),
                             data=good), "element count overflows"),
        "huge_dim": (raw_npy(d / "huge_dim.npy", shape="(%d, %d)" % (2**40, 2**40), data=good),
                     "is larger than"),
        "beyond_file": (raw_npy(d / "beyond_file.npy", shape="(1000000, %d)" % states.shape[1],
                                data=good), "truncated data"),
        "negative": (raw_npy(d / "negative.npy", shape="(-4, %d)" % states.shape[1], data=good),
                     "negative dimension"),
        "structured": (raw_npy(d / "structured.npy", descr="[('a', '<f8')]", shape=shape,
                               data=good), "structured dtypes"),
        "fortran": (raw_npy(d / "fortran.npy", fortran="True", shape=shape, data=good),
                    "Fortran-order"),
        "bad_magic": (raw_npy(d / "bad_magic.npy", shape=shape, data=good,
                              magic=b"\x93NUMPZ\x01\x00"), "bad magic"),
        "truncated": (raw_npy(d / "truncated.npy", shape=shape, data=good[:-3]),
                      "truncated data"),
    }
    # '>f8' and '|u1' as NumPy writes them
    np.save(d / "big_endian.npy", states.astype(">f8"))
    files["big_endian"] = (d / "big_endian.npy", "dtype '>f8'")
    np.save(d / "bytes.npy", np.zeros(states.shape, np.uint8))
    files["bytes"] = (d / "bytes.npy", "dtype '|u1'")
    return files


def check_refusal(proc, path, reason, out):
    """Exit status 1, one line naming the file and the reason, no output written."""
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert len(lines) == 1, proc.stderr
    assert str(path) in lines[0] and reason in lines[0], lines[0]
    assert not os.path.exists(out), "wrote %s" % out


def test_torsion_sim_refuses_bad_files(tmp_path, states):
    out = tmp_path / "out.npy"
    for name, (path, reason) in bad_files(tmp_path, states).items():
        for cmd in (["forward"], ["rollout", "--nstep", "2"]):
            proc = subprocess.run([TORSION_SIM, cmd[0], PENDULUM, "--state", str(path), "--out",
                                   str(out)] + cmd[1:], capture_output=True, text=True,
                                  timeout=60)
            check_refusal(proc, path, reason, out)
        # as the second input too: the accelerations of inverse
        np.save(tmp_path / "s.npy", states)
        proc = subprocess.run([TORSION_SIM, "inverse", PENDULUM, "--state",
                               str(tmp_path / "s.npy"), "--qacc", str(path), "--out", str(out)],
                              capture_output=True, text=True, timeout=60)
        check_refusal(proc, path, reason, out)


def test_cli_refuses_bad_files(daemon, tmp_path, states):
    out = tmp_path / "out.npy"
    np.save(tmp_path / "s.npy", states)
    for name, (path, reason) in bad_files(tmp_path, states).items():
        for args in (["forward", PENDULUM, "--state", path],
                     ["inverse", PENDULUM, "--state", tmp_path / "s.npy", "--qacc", path]):
            proc = subprocess.run([TORSION_CLI, "--socket", daemon.sock] + [str(a) for a in args]
                                  + ["--out", str(out)], capture_output=True, text=True,
                                  timeout=60)
            check_refusal(proc, path, reason, out)
    assert daemon.alive()


def other_layouts(tmp_path, states):
    """{name: (path, the float64 states it holds)}: versions 2.0 and 3.0, and float32."""
    files = {}
    for version in ((2, 0), (3, 0)):
        path = tmp_path / ("v%d.npy" % version[0])
        with open(path, "wb") as f:
            np.lib.format.write_array(f, states, version=version)
        files[path.name] = (path, states)
    path = tmp_path / "f32.npy"
    np.save(path, states.astype(np.float32))
    files[path.name] = (path, states.astype(np.float32).astype(np.float64))
    return files


def test_other_layouts_give_the_same_results(daemon, tmp_path, states):
    for name, (path, values) in other_layouts(tmp_path, states).items():
        ref = tmp_path / "ref_in.npy"
        np.save(ref, values)
        results = []
        for src in (ref, path):
            for prog in ("sim", "cli"):
                out = tmp_path / ("%s_%s.npy" % (prog, src.stem))
                cmd = ([TORSION_SIM] if prog == "sim"
                       else [TORSION_CLI, "--socket", daemon.sock])
                proc = subprocess.run(cmd + ["forward", PENDULUM, "--state", str(src), "--out",
                                             str(out)], capture_output=True, text=True,
                                      timeout=60)
                assert proc.returncode == 0, (name, prog, proc.stderr)
                results.append(np.load(out))
        assert all(bitwise_equal(r, results[0]) for r in results), name
