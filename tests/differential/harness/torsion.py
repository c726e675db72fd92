"""torsion — the Torsion side of every comparison: runs the torsion-sim binary (the only way
the tests drive Torsion) and moves arrays in and out as .npy files.

The binary is $TORSION_SIM, or build/engine/tools/torsion-sim under the repository root.
Every call has a time limit so that a hang fails one test instead of stalling the suite.

Constraint islands are on for both engines (MuJoCo's default): the checks compare
Torsion's per-island solves with MuJoCo's. MuJoCo's legacy whole-system solve (islands
disabled) keeps its own check in tests/python/test_whole_system_solve.py.
"""
import json
import os
import subprocess
import tempfile

import numpy as np

from . import corpus, oracle

DEFAULT_SIM = os.path.join(corpus.REPO_ROOT, "build", "engine", "tools", "torsion-sim")
TIMEOUT = 300  # seconds for one torsion-sim call


class TorsionError(AssertionError):
    """torsion-sim failed: the command, its exit status and what it printed."""


def sim_path():
    """Path of the torsion-sim binary to test."""
    return os.environ.get("TORSION_SIM", DEFAULT_SIM)


# when the oracle runs MuJoCo's legacy convex collision (nativeccd in CONTACT_ORACLE:
# TORSION_DIFF_LEGACY_CCD=1), Torsion runs it too: run() adds nativeccd to the --disable
# list of every command; native=True (test_native_ccd.py) runs Torsion's default anyway
LEGACY_CCD = "nativeccd" in oracle.CONTACT_ORACLE


# the commands that run the pipeline on a model (COMMAND MODEL.xml [options])
_PIPELINE_COMMANDS = ("forward", "rollout", "speed", "dump", "contacts", "efc", "islands",
                      "inverse", "transitionfd", "inversefd")


def _legacy_ccd(args):
    """args with nativeccd added to the --disable list, or a --disable nativeccd right after
    the model path; other commands unchanged."""
    args = [str(a) for a in args]
    if len(args) < 2 or args[0] not in _PIPELINE_COMMANDS or args[1].startswith("-"):
        return args
    for i, a in enumerate(args[:-1]):
        if a == "--disable":
            flags = [f for f in args[i + 1].split(",") if f]
            if "nativeccd" not in flags:
                args[i + 1] = ",".join(flags + ["nativeccd"])
            return args
    return args[:2] + ["--disable", "nativeccd"] + args[2:]


def run(args, check=True, timeout=TIMEOUT, native=False):
    """Run torsion-sim with args; returns the CompletedProcess (raises TorsionError when
    check is set and it failed, or when the binary is missing)."""
    __tracebackhide__ = True
    if LEGACY_CCD and not native:
        args = _legacy_ccd(args)
    sim = sim_path()
    if not os.access(sim, os.X_OK):
        raise TorsionError("torsion-sim not found at %s (build it: ninja -C build, or set "
                           "TORSION_SIM)" % sim)
    cmd = [sim] + [str(a) for a in args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise TorsionError("timed out after %d s: %s" % (timeout, " ".join(cmd)))
    if check and proc.returncode != 0:
        raise TorsionError("%s\n  exit status %d%s\n  stderr: %s" % (
            " ".join(cmd), proc.returncode,
            " (killed by signal %d)" % -proc.returncode if proc.returncode < 0 else "",
            proc.stderr.strip()[-2000:] or "(empty)"))
    return proc


def _flag_args(disable=(), integrator=None, spec=None, options=()):
    """--disable / --integrator / --spec / --option arguments (options: (key, value)
    pairs, e.g. (("solver", "pgs"), ("cone", "elliptic")))."""
    args = []
    if disable:
        args += ["--disable", ",".join(disable)]
    if integrator:
        args += ["--integrator", integrator]
    if spec:
        args += ["--spec", spec]
    if options:
        args += ["--option", ",".join("%s=%s" % (k, v) for k, v in options)]
    return args


def _save(directory, name, array):
    """Save a float64 C-order array as directory/name.npy and return its path."""
    path = os.path.join(directory, name + ".npy")
    np.save(path, np.ascontiguousarray(array, dtype="<f8"))
    return path


def _load(path, shape=None):
    """Load a torsion-sim output, checking dtype and (optionally) shape."""
    if not os.path.exists(path):
        raise TorsionError("torsion-sim wrote no %s" % path)
    a = np.load(path)
    if a.dtype != np.dtype("<f8"):
        raise TorsionError("%s has dtype %s, expected little-endian float64" % (path, a.dtype))
    if shape is not None and tuple(a.shape) != tuple(shape):
        raise TorsionError("%s has shape %s, expected %s" % (path, a.shape, tuple(shape)))
    return a


def info(model_path):
    """`torsion-sim info`: the JSON object as a dict."""
    out = run(["info", model_path]).stdout
    try:
        return json.loads(out)
    except ValueError as e:
        raise TorsionError("info printed invalid JSON (%s): %r" % (e, out[:500]))


def forward(model_path, states, ctrl=None, disable=(), spec=None, options=()):
    """`torsion-sim forward`: qacc [B, nv] after mj_forward at each state."""
    with tempfile.TemporaryDirectory(prefix="tn-fwd-") as tmp:
        args = ["forward", model_path, "--state", _save(tmp, "state", states)]
        if ctrl is not None:
            args += ["--ctrl", _save(tmp, "ctrl", ctrl)]
        out = os.path.join(tmp, "qacc.npy")
        run(args + ["--out", out] + _flag_args(disable, spec=spec, options=options))
        return _load(out)


def rollout(model_path, states, ctrl, nstep, disable=(), threads=1, integrator=None,
            spec=None, options=()):
    """`torsion-sim rollout`: states after each step [B, nstep, nstate] (in the --spec
    layout of the input states)."""
    with tempfile.TemporaryDirectory(prefix="tn-roll-") as tmp:
        args = ["rollout", model_path, "--state", _save(tmp, "state", states),
                "--nstep", nstep, "--threads", threads]
        if ctrl is not None:
            args += ["--ctrl", _save(tmp, "ctrl", ctrl)]
        out = os.path.join(tmp, "out.npy")
        run(args + ["--out", out] + _flag_args(disable, integrator, spec, options))
        return _load(out, (len(states), nstep, np.shape(states)[1]))


def speed(model_path, nstep, threads=1, ctrlnoise=None, disable=(), profile=False):
    """`torsion-sim speed`: the JSON object as a dict (with --profile: the per-stage split,
    "profile_us_per_step")."""
    args = ["speed", model_path, "--nstep", nstep, "--threads", threads]
    if ctrlnoise is not None:
        args += ["--ctrlnoise", ctrlnoise]
    if profile:
        args += ["--profile"]
    out = run(args + _flag_args(disable), timeout=max(TIMEOUT, 3600)).stdout
    try:
        return json.loads(out)
    except ValueError as e:
        raise TorsionError("speed printed invalid JSON (%s): %r" % (e, out[:500]))


# the sparse rows of actuator_moment (MuJoCo's layout) and a model field with nv rows
MOMENT_PARTS = ("moment_rownnz", "moment_rowadr", "moment_colind", "dof_parentid")


def dense_moment(rownnz, rowadr, colind, values, nv):
    """Sparse actuator_moment rows ([B, nu], [B, nu], [B, nJmom], [B, nJmom]) as dense
    [B, nu, nv] matrices."""
    out = np.zeros((len(values), len(rownnz[0]), nv))
    for b in range(len(values)):
        for i in range(len(rownnz[b])):
            adr, nnz = int(rowadr[b][i]), int(rownnz[b][i])
            out[b, i, colind[b][adr:adr + nnz].astype(int)] = values[b][adr:adr + nnz]
    return out


# the static pattern of ten_J's rows (model fields) and a model field with nv rows
TEN_J_PARTS = ("ten_J_rownnz", "ten_J_rowadr", "ten_J_colind", "dof_parentid")


def dense_ten_j(rownnz, rowadr, colind, values, nv):
    """Sparse ten_J rows on the model's pattern ([ntendon], [ntendon], [nJten] and values
    [B, nJten]) as dense [B, ntendon, nv] matrices (a dof listed twice in a fixed tendon
    has the sum in its first entry and zero in the second: added)."""
    rownnz, rowadr, colind = (np.asarray(a).reshape(-1).astype(int)
                              for a in (rownnz, rowadr, colind))
    out = np.zeros((len(values), len(rownnz), nv))
    for b in range(len(values)):
        for t in range(len(rownnz)):
            adr, nnz = rowadr[t], rownnz[t]
            np.add.at(out[b, t], colind[adr:adr + nnz], values[b][adr:adr + nnz])
    return out


def dump(model_path, fields, states=None, ctrl=None, disable=(), spec=None, options=(),
         integrator=None, sparse_moment=False, sparse_ten_j=False):
    """`torsion-sim dump`: {field: array}; model fields [rows, cols], data fields (with
    states) [B, rows, cols]. actuator_moment (MuJoCo's sparse nJmom entries) comes dense,
    [B, nu, nv], unless sparse_moment; ten_J (nJten entries on the model's pattern) dense,
    [B, ntendon, nv], unless sparse_ten_j."""
    densify = "actuator_moment" in fields and states is not None and not sparse_moment
    densify_j = "ten_J" in fields and states is not None and not sparse_ten_j
    wanted = list(fields) + [f for f in MOMENT_PARTS if densify and f not in fields]
    wanted += [f for f in TEN_J_PARTS if densify_j and f not in wanted]
    with tempfile.TemporaryDirectory(prefix="tn-dump-") as tmp:
        prefix = os.path.join(tmp, "dump")
        args = ["dump", model_path, "--fields", ",".join(wanted), "--out", prefix]
        if states is not None:
            args += ["--state", _save(tmp, "state", states)]
        if ctrl is not None:
            args += ["--ctrl", _save(tmp, "ctrl", ctrl)]
        run(args + _flag_args(disable, integrator, spec, options))
        out = {f: _load("%s_%s.npy" % (prefix, f)) for f in wanted}
    if densify:
        parts = [out[f].reshape(len(out[f]), -1) for f in MOMENT_PARTS[:3]]
        values = out["actuator_moment"].reshape(len(out["actuator_moment"]), -1)
        out["actuator_moment"] = dense_moment(*parts, values, len(out["dof_parentid"]))
    if densify_j:
        values = out["ten_J"].reshape(len(out["ten_J"]), -1)
        out["ten_J"] = dense_ten_j(*[out[f] for f in TEN_J_PARTS[:3]], values,
                                   len(out["dof_parentid"]))
    return {f: out[f] for f in fields}


# columns of each array `torsion-sim contacts` writes
CONTACT_COLUMNS = {"geom": 2, "dist": 1, "pos": 3, "frame": 9, "dim": 1}


def contacts(model_path, states, disable=(), spec=None, options=(), native=False):
    """`torsion-sim contacts`: the active contacts after mj_forward at each state, as a list
    (one entry per state) of {"geom": [n, 2] int, "dist": [n], "pos": [n, 3],
    "frame": [n, 9], "dim": [n] int}. native: Torsion's default convex collision even while
    the oracle keeps the legacy one (see LEGACY_CCD)."""
    with tempfile.TemporaryDirectory(prefix="tn-con-") as tmp:
        prefix = os.path.join(tmp, "con")
        args = ["contacts", model_path, "--state", _save(tmp, "state", states),
                "--out", prefix]
        run(args + _flag_args(disable, spec=spec, options=options), native=native)
        try:
            with open(prefix + "_index.json") as f:
                index = json.load(f)
        except (OSError, ValueError) as e:
            raise TorsionError("torsion-sim contacts wrote no valid index: %s" % e)
        total = int(sum(index["count"]))
        cols = {}
        for name, width in CONTACT_COLUMNS.items():
            a = _load("%s_%s.npy" % (prefix, name))
            cols[name] = a.reshape(total, width) if width > 1 else a.reshape(total)
    if index.get("nstate") != len(states) or len(index["count"]) != len(states):
        raise TorsionError("contacts index covers %s states, expected %d" % (
            index.get("nstate"), len(states)))
    out = []
    for off, cnt in zip(index["offset"], index["count"]):
        rows = {k: v[off:off + cnt] for k, v in cols.items()}
        rows["geom"] = rows["geom"].astype(int)
        rows["dim"] = rows["dim"].astype(int)
        out.append(rows)
    return out
