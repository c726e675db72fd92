"""Build and run the C API compatibility programs under tests/capi/programs/ twice: once
against MuJoCo 3.14's C library from its PyPI wheel (the oracle), once against Torsion.

Each program includes its API header through the macro MJ_INCLUDE, so the two builds
differ only in the include and link lines:
    -DMJ_INCLUDE='<mujoco/mujoco.h>'  -I<wheel>/include   <wheel>/libmujoco.so.3.14.0
    -DMJ_INCLUDE='<torsion/torsion.h>' -I<repo>/engine/include  <build>/engine/libtorsion.so
The outputs are then compared token by token (numbers within a relative tolerance)."""
import os
import re
import subprocess

import mujoco

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = os.path.join(REPO, "tests", "capi", "programs")
MODELS = os.path.join(REPO, "tests", "capi", "models")
MUJOCO_DIR = os.path.dirname(os.path.abspath(mujoco.__file__))
MUJOCO_INCLUDE = os.path.join(MUJOCO_DIR, "include")
MUJOCO_LIB = os.path.join(MUJOCO_DIR, "libmujoco.so.%s" % mujoco.__version__)
CC = os.environ.get("CC", "gcc")
CFLAGS = ["-std=c11", "-O1", "-Wall", "-Werror", "-D_GNU_SOURCE"]


def build_dir():
    """The meson build directory holding Torsion's libraries (TORSION_BUILD or build/)."""
    return os.environ.get("TORSION_BUILD", os.path.join(REPO, "build"))


def torsion_link_args():
    """Compile and link arguments for a program using Torsion's engine from the build tree:
    its public headers and its shared library libtorsion.so (the installed one's twin: a
    soname, only the public API exported), with a run path to it."""
    libdir = os.path.join(build_dir(), "engine")
    if not os.path.exists(os.path.join(libdir, "libtorsion.so")):
        raise FileNotFoundError("no libtorsion.so in %s (build it: ninja -C %s "
                                "engine/libtorsion.so.<version>, or all of ninja -C %s)"
                                % (libdir, build_dir(), build_dir()))
    return (["-I", os.path.join(REPO, "engine", "include")],
            ["-L", libdir, "-ltorsion", "-Wl,-rpath," + libdir, "-lm"])


def mujoco_link_args():
    """Compile and link arguments for the same program against MuJoCo's wheel library."""
    return (["-I", MUJOCO_INCLUDE],
            [MUJOCO_LIB, "-Wl,-rpath," + MUJOCO_DIR, "-lm"])


def compile_program(source, engine, outdir):
    """Compile tests/capi/programs/<source> for engine "mujoco" or "torsion" into outdir;
    return the executable's path. A compiler error raises with the compiler's message."""
    src = os.path.join(PROGRAMS, source)
    exe = os.path.join(outdir, "%s_%s" % (os.path.splitext(source)[0], engine))
    if engine == "mujoco":
        cflags, ldflags = mujoco_link_args()
        include = "<mujoco/mujoco.h>"
    else:
        cflags, ldflags = torsion_link_args()
        include = "<torsion/torsion.h>"
    cmd = [CC] + CFLAGS + ["-DMJ_INCLUDE=" + include] + cflags + [src, "-o", exe] + ldflags
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError("compiling %s against %s failed:\n%s\n%s"
                             % (source, engine, " ".join(cmd), proc.stderr))
    return exe


def run_program(exe, args=(), cwd=None, expect_rc=0):
    """Run a compiled program; return (returncode, stdout, stderr)."""
    proc = subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=300,
                          cwd=cwd)
    if expect_rc is not None and proc.returncode != expect_rc:
        raise AssertionError("%s exited %d (expected %d)\nstdout:\n%s\nstderr:\n%s"
                             % (exe, proc.returncode, expect_rc, proc.stdout[-4000:],
                                proc.stderr[-4000:]))
    return proc.returncode, proc.stdout, proc.stderr


NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(nan|inf)$")


def compare_outputs(expected, actual, rtol=1e-9, atol=1e-12):
    """Compare two outputs token by token: words must be equal, numbers equal within
    rtol*max(|a|,|b|) + atol. Returns a list of difference descriptions (empty: equal)."""
    diffs = []
    exp_lines = expected.splitlines()
    act_lines = actual.splitlines()
    if len(exp_lines) != len(act_lines):
        diffs.append("line count %d (MuJoCo) vs %d (Torsion)" % (len(exp_lines), len(act_lines)))
    for n, (le, la) in enumerate(zip(exp_lines, act_lines), 1):
        te, ta = le.split(), la.split()
        if len(te) != len(ta):
            diffs.append("line %d: %r vs %r" % (n, le, la))
            continue
        for a, b in zip(te, ta):
            if a == b:
                continue
            if NUMBER.match(a) and NUMBER.match(b):
                x, y = float(a), float(b)
                if abs(x - y) <= rtol * max(abs(x), abs(y)) + atol:
                    continue
            diffs.append("line %d: %r vs %r" % (n, le, la))
            break
        if len(diffs) > 20:
            break
    return diffs


def run_both(source, tmp_path, args=(), rtol=1e-9, atol=1e-12, expect_rc=0):
    """Compile one program against both libraries, run both with the same arguments, and
    return (mujoco_stdout, torsion_stdout, differences)."""
    out = {}
    for engine in ("mujoco", "torsion"):
        exe = compile_program(source, engine, str(tmp_path))
        out[engine] = run_program(exe, args, cwd=str(tmp_path), expect_rc=expect_rc)[1]
    return out["mujoco"], out["torsion"], compare_outputs(out["mujoco"], out["torsion"],
                                                          rtol, atol)
