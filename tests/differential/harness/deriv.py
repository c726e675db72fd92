"""deriv — helpers of the inverse-dynamics and finite-difference derivative tests (issue 5):
the MuJoCo side (mj_inverse, mjd_transitionFD, mjd_inverseFD at given states) and the
Torsion side through `torsion-sim inverse`, `transitionfd` and `inversefd`.

Models are loaded with the same flags on both sides: mjDSBL_NATIVECCD always (Torsion uses
libccd, MuJoCo's legacy convex collision; constraint islands are on in both), plus
"constraint" for the smooth-only variants.
"""
import functools
import os
import tempfile

import mujoco
import numpy as np

from . import oracle, torsion

# the derivative checks' base flags follow the contact oracle's
BASE_DISABLE = oracle.CONTACT_ORACLE


@functools.lru_cache(maxsize=None)
def load(path, constraints=True, integrator=None):
    """MuJoCo model with the flags the derivative tests use (cached; do not modify)."""
    disable = BASE_DISABLE + (() if constraints else ("constraint",))
    return oracle.load(path, disable=disable, integrator=integrator)


def disable_flags(constraints=True):
    """The --disable list that matches load()."""
    return BASE_DISABLE + (() if constraints else ("constraint",))


def _set(m, d, state, ctrl=None, qacc=None):
    """Reset d and load a FULLPHYSICS state, controls and accelerations."""
    mujoco.mj_resetData(m, d)
    mujoco.mj_setState(m, d, np.asarray(state, dtype=float), oracle.FULLPHYSICS)
    if ctrl is not None and m.nu:
        d.ctrl[:] = ctrl
    if qacc is not None:
        d.qacc[:] = qacc


def forward_qacc(m, states, ctrl=None, qfrc_applied=None):
    """MuJoCo qacc after mj_forward at each state (optionally with qfrc_applied)."""
    d = mujoco.MjData(m)
    out = np.zeros((len(states), m.nv))
    for k, s in enumerate(states):
        _set(m, d, s, None if ctrl is None else ctrl[k])
        if qfrc_applied is not None:
            d.qfrc_applied[:] = qfrc_applied[k]
        mujoco.mj_forward(m, d)
        out[k] = d.qacc
    return out


def inverse(m, states, qacc):
    """MuJoCo qfrc_inverse [B, nv]."""
    d = mujoco.MjData(m)
    out = np.zeros((len(states), m.nv))
    for k, s in enumerate(states):
        _set(m, d, s, qacc=qacc[k])
        mujoco.mj_inverse(m, d)
        out[k] = d.qfrc_inverse
    return out


def transition_fd(m, states, ctrl, eps, centered):
    """MuJoCo (A [B, ndx, ndx], B [B, ndx, nu])."""
    d = mujoco.MjData(m)
    ndx = 2 * m.nv + m.na
    A = np.zeros((len(states), ndx, ndx))
    B = np.zeros((len(states), ndx, m.nu))
    for k, s in enumerate(states):
        _set(m, d, s, None if ctrl is None else ctrl[k])
        mujoco.mjd_transitionFD(m, d, eps, centered, A[k], B[k] if m.nu else None, None, None)
    return A, B


def inverse_fd(m, states, qacc, eps, actuation=False):
    """MuJoCo {DfDq, DfDv, DfDa [B, nv, nv], DmDq [B, nv, nC]}."""
    d = mujoco.MjData(m)
    n = len(states)
    out = {k: np.zeros((n, m.nv, m.nv)) for k in ("DfDq", "DfDv", "DfDa")}
    out["DmDq"] = np.zeros((n, m.nv, m.nC))
    for k, s in enumerate(states):
        _set(m, d, s, qacc=qacc[k])
        mujoco.mjd_inverseFD(m, d, eps, actuation, out["DfDq"][k], out["DfDv"][k],
                             out["DfDa"][k], None, None, None, out["DmDq"][k])
    return out


# ---- Torsion side ----

def _common_args(constraints, threads, integrator):
    args = ["--disable", ",".join(disable_flags(constraints)), "--threads", threads]
    if integrator:
        args += ["--integrator", integrator]
    return args


def t_inverse(path, states, qacc, constraints=True, threads=1, integrator=None):
    """`torsion-sim inverse`: qfrc_inverse [B, nv]."""
    with tempfile.TemporaryDirectory(prefix="tn-inv-") as tmp:
        out = os.path.join(tmp, "qfrc.npy")
        torsion.run(["inverse", path, "--state", torsion._save(tmp, "state", states),
                     "--qacc", torsion._save(tmp, "qacc", qacc), "--out", out]
                    + _common_args(constraints, threads, integrator))
        return torsion._load(out, np.shape(qacc))


def t_transition_fd(path, states, ctrl, eps, centered, nv, na, nu, constraints=True,
                    threads=1, integrator=None):
    """`torsion-sim transitionfd`: (A, B)."""
    ndx = 2 * nv + na
    with tempfile.TemporaryDirectory(prefix="tn-tfd-") as tmp:
        prefix = os.path.join(tmp, "fd")
        args = ["transitionfd", path, "--state", torsion._save(tmp, "state", states),
                "--eps", repr(float(eps)), "--out", prefix]
        if ctrl is not None and nu:
            args += ["--ctrl", torsion._save(tmp, "ctrl", ctrl)]
        if centered:
            args.append("--centered")
        torsion.run(args + _common_args(constraints, threads, integrator))
        B = len(states)
        return (torsion._load(prefix + "_A.npy", (B, ndx, ndx)),
                torsion._load(prefix + "_B.npy", (B, ndx, nu)))


def t_inverse_fd(path, states, qacc, eps, nv, actuation=False, constraints=True,
                 threads=1, integrator=None):
    """`torsion-sim inversefd`: {DfDq, DfDv, DfDa, DmDq}."""
    with tempfile.TemporaryDirectory(prefix="tn-ifd-") as tmp:
        prefix = os.path.join(tmp, "fd")
        args = ["inversefd", path, "--state", torsion._save(tmp, "state", states),
                "--qacc", torsion._save(tmp, "qacc", qacc), "--eps", repr(float(eps)),
                "--out", prefix]
        if actuation:
            args.append("--actuation")
        torsion.run(args + _common_args(constraints, threads, integrator))
        B = len(states)
        shapes = {"DfDq": (B, nv, nv), "DfDv": (B, nv, nv), "DfDa": (B, nv, nv),
                  "DmDq": (B, nv, None)}
        out = {k: torsion._load("%s_%s.npy" % (prefix, k)) for k in shapes}
        for k, s in shapes.items():
            if s[2] is not None and out[k].shape != s or out[k].shape[:2] != s[:2]:
                raise torsion.TorsionError("%s has shape %s, expected %s" % (k, out[k].shape, s))
        return out


def matrix_error(ours, theirs):
    """max |ours - theirs| / (1 + max |theirs|) per item: [B]."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    n = len(theirs)
    if ours.size == 0:
        return np.zeros(n)
    diff = np.abs(ours - theirs).reshape(n, -1)
    diff = np.where(np.isnan(diff), np.inf, diff)
    scale = 1 + np.abs(theirs).reshape(n, -1).max(axis=1)
    return diff.max(axis=1) / scale


def check_matrices(ours, theirs, what, tol):
    """Assert matrix_error <= tol for every state ([B, rows, cols] stacks), naming the worst
    state and element on failure."""
    __tracebackhide__ = True
    assert np.shape(ours) == np.shape(theirs), "%s: shape %s, MuJoCo %s" % (
        what, np.shape(ours), np.shape(theirs))
    err = matrix_error(ours, theirs)
    k = int(np.argmax(err)) if err.size else 0
    if err.size and err[k] > tol:
        diff = np.abs(ours[k] - theirs[k])
        i, j = np.unravel_index(int(np.nanargmax(diff)), diff.shape)
        raise AssertionError("%s exceeds %.0e at state %d: err %.3g, worst element [%d, %d]: "
                             "torsion %.17g, mujoco %.17g" % (what, tol, k, err[k], i, j,
                                                              ours[k][i, j], theirs[k][i, j]))


def _dense_rows(values, rownnz, rowadr, colind, nv):
    """[B, n, nnz] values of a CSR lower-triangular pattern -> [B, n, nv*nv] dense."""
    values = np.asarray(values)
    out = np.zeros(values.shape[:-1] + (nv * nv,))
    for i in range(nv):
        for k in range(rowadr[i], rowadr[i] + rownnz[i]):
            out[..., i * nv + colind[k]] = values[..., k]
    return out


def dense_mujoco_DmDq(m, DmDq):
    """MuJoCo's DmDq [B, nv, nC] with M dense: [B, nv, nv*nv]."""
    return _dense_rows(DmDq, m.M_rownnz, m.M_rowadr, m.M_colind, m.nv)


def dense_torsion_DmDq(path, nv, DmDq):
    """Torsion's DmDq [B, nv, nC] (Torsion's own M pattern, which keeps the exact zeros
    MuJoCo's pattern drops) with M dense: [B, nv, nv*nv]."""
    f = torsion.dump(path, ["M_rownnz", "M_rowadr", "M_colind"])
    flat = {k: np.asarray(v, dtype=int).ravel() for k, v in f.items()}
    return _dense_rows(DmDq, flat["M_rownnz"], flat["M_rowadr"], flat["M_colind"], nv)
