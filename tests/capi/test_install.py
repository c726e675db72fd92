"""The installed Torsion: `meson install --destdir` of the existing build into a temporary
directory, then used the way an outside project would use it - compiled and linked with
only `pkg-config --cflags --libs torsion` (or torsion-client), run against the installed
libraries - plus checks of what was installed: sonames and versions, exported symbols (the
public API only, no internal tn__), every public header (each compiles alone), the
binaries, the default configuration and the systemd unit.

The build's prefix stays as configured (default /usr/local); PKG_CONFIG_SYSROOT_DIR points
pkg-config's -I and -L paths into the destdir, as a distribution's packaging test does."""
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time

import gymnasium
import pytest

from capi_build import (CC, CFLAGS, PROGRAMS, REPO, build_dir, compare_outputs,
                        compile_program, run_program)

HOPPER = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets",
                      "hopper.xml")
NSTEP = "200"
PUBLIC_HEADERS = os.path.join(REPO, "engine", "include", "torsion")


def meson_command():
    """The meson that configured the build (its regeneration rule names it): another
    version refuses the build directory. $MESON overrides."""
    if os.environ.get("MESON"):
        return os.environ["MESON"].split()
    with open(os.path.join(build_dir(), "build.ninja")) as f:
        text = f.read()
    m = re.search(r"rule REGENERATE_BUILD\n command = (.*?) --internal regenerate", text)
    assert m, "no regeneration rule in build.ninja"
    return m.group(1).split()


def build_option(name):
    """A configured option of the build (prefix, libdir, ...)."""
    path = os.path.join(build_dir(), "meson-info", "intro-buildoptions.json")
    with open(path) as f:
        for opt in json.load(f):
            if opt["name"] == name:
                return opt["value"]
    raise KeyError(name)


class Installed:
    """Paths of one DESTDIR installation."""

    def __init__(self, destdir):
        self.destdir = destdir
        self.prefix = build_option("prefix")

        def under(option):
            value = build_option(option)
            full = value if os.path.isabs(value) else os.path.join(self.prefix, value)
            return full, destdir + full
        self.libdir_final, self.libdir = under("libdir")
        self.includedir = under("includedir")[1]
        self.bindir_final, self.bindir = under("bindir")
        self.sysconfdir_final, self.sysconfdir = under("sysconfdir")
        unit_dir = build_option("systemd_unit_dir") or os.path.join(self.prefix, "lib",
                                                                     "systemd", "system")
        self.unit = destdir + os.path.join(unit_dir, "torsiond.service")

    def pkg_env(self, sysroot=None):
        """Environment for pkg-config finding the installed .pc files (and the system's)."""
        sysroot = sysroot or self.destdir
        env = dict(os.environ)
        env["PKG_CONFIG_PATH"] = os.path.join(sysroot + self.libdir_final, "pkgconfig")
        env["PKG_CONFIG_SYSROOT_DIR"] = sysroot
        return env

    def pkg_config(self, *args, sysroot=None):
        """pkg-config's output split into arguments."""
        proc = subprocess.run(["pkg-config"] + list(args), capture_output=True, text=True,
                              env=self.pkg_env(sysroot))
        assert proc.returncode == 0, "pkg-config %s: %s" % (" ".join(args), proc.stderr)
        return proc.stdout.split()

    def compile(self, source, exe, package, static=False, sysroot=None, extra=()):
        """Compile a C file with only pkg-config's flags for package; return exe."""
        flags = self.pkg_config(*(["--static"] if static else []), "--cflags", "--libs",
                                package, sysroot=sysroot)
        cmd = [CC] + CFLAGS + list(extra) + [source, "-o", exe] + flags
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, "%s\n%s" % (" ".join(cmd), proc.stderr)
        return exe

    def run_env(self):
        """Environment for running programs against the installed shared libraries."""
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = self.libdir
        return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The build installed into a fresh destdir (the build must be complete: ninja -C build)."""
    # the ninja that built the tree ($NINJA from scripts/common.sh, else the distribution's):
    # another version reads the build log differently and sees every target as dirty
    ninja = os.environ.get("NINJA") or shutil.which("ninja", path="/usr/bin") or shutil.which("ninja")
    if ninja:
        dry = subprocess.run([ninja, "-C", build_dir(), "-n"], capture_output=True, text=True)
        assert "no work to do" in dry.stdout, \
            "the build is not complete (run ninja -C %s first):\n%s" % (build_dir(),
                                                                       dry.stdout[-2000:])
    destdir = str(tmp_path_factory.mktemp("destdir"))
    proc = subprocess.run(meson_command() + ["install", "-C", build_dir(), "--no-rebuild",
                                             "--destdir", destdir],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, "meson install failed:\n%s\n%s" % (proc.stdout[-3000:],
                                                                     proc.stderr[-3000:])
    return Installed(destdir)


def readelf_dynamic(path):
    """readelf -d's (tag, value) pairs, e.g. ('SONAME', 'libtorsion.so.0')."""
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True,
                         check=True).stdout
    return re.findall(r"\((\w+)\)\s+[^\[]*\[([^\]]+)\]", out)


def exported_symbols(path):
    """Names of the defined symbols in a shared library's dynamic symbol table."""
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True,
                         text=True, check=True).stdout
    return [line.split()[-1] for line in out.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------
# the libraries

@pytest.mark.parametrize("name", ["libtorsion", "libtorsion_client"])
def test_versioned_shared_library(installed, name):
    """lib.so -> lib.so.0 -> lib.so.0.1.0, with the soname lib.so.0."""
    lib = os.path.join(installed.libdir, name + ".so")
    real = os.path.realpath(lib)
    with open(os.path.join(build_dir(), "meson-info", "intro-projectinfo.json")) as f:
        version = json.load(f)["version"]
    major = version.split(".")[0]
    assert os.path.basename(real) == "%s.so.%s" % (name, version)
    assert os.readlink(lib) == "%s.so.%s" % (name, major)
    assert ("SONAME", "%s.so.%s" % (name, major)) in readelf_dynamic(real)


def test_engine_exports_public_api_only(installed):
    """libtorsion.so exports MuJoCo's mj-prefixed names and Torsion's tn_ names only: no
    internal tn__ function, no other global."""
    names = exported_symbols(os.path.join(installed.libdir, "libtorsion.so"))
    internal = [n for n in names if n.startswith("tn__")]
    assert not internal, "internal symbols exported: %s" % internal[:10]
    other = [n for n in names if not (n.startswith("mj") or n.startswith("tn_"))]
    assert not other, "unexpected exports: %s" % other[:10]
    for needed in ("mj_loadXML", "mj_step", "mj_forward", "mju_error", "mju_user_error",
                   "mjd_transitionFD", "tn_run", "tn_rolloutBatch"):
        assert needed in names, needed
    # the internal functions exist (the static library has them), they are just not exported
    static = subprocess.run(["nm", "--defined-only", os.path.join(installed.libdir,
                                                                  "libtorsion.a")],
                            capture_output=True, text=True, check=True).stdout
    assert " T tn__" in static


def test_client_exports(installed):
    """libtorsion_client.so exports the client API and the protocol messages only (not
    its internal tnc__ helpers)."""
    names = exported_symbols(os.path.join(installed.libdir, "libtorsion_client.so"))
    internal = [n for n in names if n.startswith("tnc__")]
    assert not internal, "internal symbols exported: %s" % internal[:10]
    other = [n for n in names if not (n.startswith("tnc_") or n.startswith("torsion__v1__"))]
    assert not other, "unexpected exports: %s" % other[:10]
    assert "tnc_connect" in names and "torsion__v1__request__descriptor" in names


# ---------------------------------------------------------------------------------------
# headers

def test_every_public_header_installed(installed):
    """Each header in engine/include/torsion is installed unchanged (meson.build lists them
    one by one: a new header missing from that list fails here)."""
    headers = sorted(os.path.basename(p) for p in glob.glob(os.path.join(PUBLIC_HEADERS,
                                                                         "*.h")))
    assert "torsion.h" in headers
    missing = []
    for h in headers:
        dest = os.path.join(installed.includedir, "torsion", h)
        if not os.path.exists(dest):
            missing.append(h)
            continue
        with open(os.path.join(PUBLIC_HEADERS, h), "rb") as a, open(dest, "rb") as b:
            assert a.read() == b.read(), "installed %s differs from the source" % h
    assert not missing, "public headers not installed (add them to engine/meson.build): %s" \
        % missing


def test_headers_compile_alone(installed, tmp_path):
    """#include <torsion/X.h> alone compiles (-Wall -Werror) with pkg-config's cflags, for
    every engine header and the client's two."""
    cases = [(os.path.basename(p), "torsion")
             for p in sorted(glob.glob(os.path.join(PUBLIC_HEADERS, "*.h")))]
    cases += [("torsion_client.h", "torsion-client"), ("torsion.pb-c.h", "torsion-client")]
    for header, package in cases:
        src = tmp_path / ("inc_%s.c" % header.replace(".", "_").replace("-", "_"))
        src.write_text("#include <torsion/%s>\nint main(void) { return 0; }\n" % header)
        cflags = installed.pkg_config("--cflags", package)
        cmd = [CC] + CFLAGS + cflags + ["-c", str(src), "-o", str(src) + ".o"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, "<torsion/%s> alone:\n%s" % (header, proc.stderr)


# ---------------------------------------------------------------------------------------
# programs built against the installation

@pytest.fixture(scope="module")
def mujoco_output(tmp_path_factory):
    """load_step.c on hopper built against MuJoCo's wheel: the expected output."""
    out = tmp_path_factory.mktemp("mujoco")
    exe = compile_program("load_step.c", "mujoco", str(out))
    return run_program(exe, [HOPPER, NSTEP], cwd=str(out))[1]


def run_installed(installed, exe, args):
    """Run a program against the installed libraries; return its stdout."""
    proc = subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=120,
                          env=installed.run_env())
    assert proc.returncode == 0, "%s: %s\n%s" % (exe, proc.stdout[-2000:], proc.stderr[-2000:])
    return proc.stdout


def test_load_step_shared(installed, mujoco_output, tmp_path):
    """load_step.c built with `pkg-config --cflags --libs torsion` links the installed
    libtorsion.so.0 and prints what MuJoCo's build prints."""
    exe = installed.compile(os.path.join(PROGRAMS, "load_step.c"), str(tmp_path / "ls"),
                            "torsion", extra=["-DMJ_INCLUDE=<torsion/torsion.h>"])
    assert ("NEEDED", "libtorsion.so.0") in readelf_dynamic(exe)
    out = run_installed(installed, exe, [HOPPER, NSTEP])
    diffs = compare_outputs(mujoco_output, out)
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


def test_load_step_static(installed, mujoco_output, tmp_path):
    """With only libtorsion.a installed, `pkg-config --static` gives a working static link
    of the engine (its own dependencies stay shared system libraries)."""
    sysroot = str(tmp_path / "static")
    shutil.copytree(installed.destdir, sysroot, symlinks=True)
    for so in glob.glob(os.path.join(sysroot + installed.libdir_final, "libtorsion.so*")):
        os.remove(so)
    exe = installed.compile(os.path.join(PROGRAMS, "load_step.c"), str(tmp_path / "ls"),
                            "torsion", static=True, sysroot=sysroot,
                            extra=["-DMJ_INCLUDE=<torsion/torsion.h>"])
    assert not [v for t, v in readelf_dynamic(exe) if t == "NEEDED" and "torsion" in v]
    out = run_program(exe, [HOPPER, NSTEP])[1]
    diffs = compare_outputs(mujoco_output, out)
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


def test_program_sets_library_variable(installed, tmp_path):
    """A program assigning the library's global mju_user_warning (a copy relocation in a
    PIE executable) has its handler called by the library."""
    exe = installed.compile(os.path.join(PROGRAMS, "install_callbacks.c"),
                            str(tmp_path / "cb"), "torsion")
    out = run_installed(installed, exe, [])
    assert "installed handler 7" in out and "called 1" in out, out


def wait_for_socket(path, proc, timeout=20.0):
    """Wait until the daemon accepts connections on its Unix socket."""
    end = time.time() + timeout
    while time.time() < end:
        assert proc.poll() is None, "torsiond exited: %s" % proc.stderr.read()
        if os.path.exists(path):
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(path)
                return
            except OSError:
                pass
            finally:
                s.close()
        time.sleep(0.05)
    raise AssertionError("torsiond did not listen on %s" % path)


def test_client_and_daemon(installed, mujoco_output, tmp_path):
    """The installed torsiond, started with the installed configuration, serves a program
    built with `pkg-config --cflags --libs torsion-client`: its rollout of hopper under
    load_step.c's controls ends in the state the in-process run (and MuJoCo) reach. SIGHUP
    reloads the configuration; SIGTERM stops the daemon cleanly."""
    exe = installed.compile(os.path.join(PROGRAMS, "install_client.c"), str(tmp_path / "cl"),
                            "torsion-client")
    assert ("NEEDED", "libtorsion_client.so.0") in readelf_dynamic(exe)
    sock = str(tmp_path / "torsiond.sock")
    conf = os.path.join(installed.sysconfdir, "torsion", "torsiond.conf")
    daemon = subprocess.Popen([os.path.join(installed.bindir, "torsiond"), "--config", conf,
                               "--socket=" + sock, "--workers=1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_socket(sock, daemon)
        daemon.send_signal(signal.SIGHUP)
        out = run_installed(installed, exe, ["unix:" + sock, HOPPER, NSTEP])
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            _, err = daemon.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            raise
    assert daemon.returncode == 0, err
    assert "reload" in err, "no reload logged after SIGHUP:\n" + err
    assert out.startswith("protocol ")
    # the final time, qpos and qvel lines match the in-process run's
    expected = {line.split()[0]: line for line in mujoco_output.splitlines()
                if line.split() and line.split()[0] in ("time", "qpos", "qvel")}
    got = {line.split()[0]: line for line in out.splitlines()
           if line.split() and line.split()[0] in ("time", "qpos", "qvel")}
    assert set(got) == {"time", "qpos", "qvel"}
    for key in ("time", "qpos", "qvel"):
        diffs = compare_outputs(expected[key], got[key])
        assert not diffs, "%s differs:\n%s" % (key, "\n".join(diffs))


# ---------------------------------------------------------------------------------------
# binaries, configuration, systemd unit

def test_binaries(installed):
    """torsiond, torsion and torsion-sim are installed and run (torsion-sim without the
    build tree: it links the engine statically)."""
    for name in ("torsiond", "torsion", "torsion-sim"):
        assert os.access(os.path.join(installed.bindir, name), os.X_OK), name
    proc = subprocess.run([os.path.join(installed.bindir, "torsion-sim"), "info", HOPPER],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "nq" in proc.stdout, proc.stderr
    proc = subprocess.run([os.path.join(installed.bindir, "torsiond"), "--version"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr


def test_default_config(installed):
    """configs/torsiond.conf goes to SYSCONFDIR/torsion/ unchanged."""
    with open(os.path.join(REPO, "configs", "torsiond.conf")) as a, \
            open(os.path.join(installed.sysconfdir, "torsion", "torsiond.conf")) as b:
        assert a.read() == b.read()


def read_unit(path):
    """A systemd unit as {section: [(key, value), ...]} (keys may repeat)."""
    sections, current = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                current = sections.setdefault(line.strip("[]"), [])
            else:
                key, _, value = line.partition("=")
                current.append((key.strip(), value.strip()))
    return sections


def test_systemd_unit(installed, tmp_path):
    """The unit starts the installed torsiond with the installed configuration, reloads
    with SIGHUP, and carries the hardening settings; systemd-analyze verify accepts it
    (when available) without a warning."""
    unit = read_unit(installed.unit)
    with open(installed.unit) as f:
        assert not re.search(r"@\w+@", f.read()), "an unsubstituted @variable@"
    service = dict(unit["Service"])
    keys = [k for k, _ in unit["Service"]]
    exec_start = service["ExecStart"].split()
    assert exec_start[0] == os.path.join(installed.bindir_final, "torsiond")
    assert "--config=" + os.path.join(installed.sysconfdir_final, "torsion",
                                      "torsiond.conf") in exec_start
    assert "--socket=/run/%s/torsiond.sock" % service["RuntimeDirectory"] in exec_start
    assert "-HUP" in service["ExecReload"] and "$MAINPID" in service["ExecReload"]
    expect = {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
              "PrivateTmp": "yes", "CapabilityBoundingSet": "", "MemoryDenyWriteExecute": "yes",
              "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6"}
    for key, value in expect.items():
        assert service.get(key) == value, (key, service.get(key))
    assert service.get("DynamicUser") == "yes" or service.get("User")
    assert ("SystemCallFilter", "@system-service") in unit["Service"]
    assert "LimitNOFILE" in keys
    assert dict(unit["Install"])["WantedBy"] == "multi-user.target"

    analyze = shutil.which("systemd-analyze")
    if analyze:
        # verify a copy whose paths point into the destdir (it checks that ExecStart exists)
        text = open(installed.unit).read().replace(installed.prefix + "/",
                                                   installed.destdir + installed.prefix + "/")
        copy = tmp_path / "torsiond.service"
        copy.write_text(text)
        proc = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                              timeout=60)
        messages = [line for line in (proc.stdout + proc.stderr).splitlines()
                    if "torsiond.service" in line]
        assert proc.returncode == 0 and not messages, proc.stdout + proc.stderr
