"""efc — constraint rows (efc_*) of both engines and their comparison, row by row.

Torsion's rows come from `torsion-sim efc MODEL --state S.npy --out PREFIX` (engine/tools/
cmd_efc.c; older binaries without the command make the checks fall back on the constraint
force in joint space, qfrc_constraint). Its files, per state after mj_forward, stacked over
states like `torsion-sim contacts`:
  PREFIX_{type,id,state}.npy [R] (float64 holding integers), PREFIX_{pos,margin,
  frictionloss,D,R,aref,force}.npy [R], PREFIX_J.npy [R, nv] (dense whatever the jacobian
  option), PREFIX_niter.npy [B] (solver iterations), PREFIX_AR.npy (with a dual solver: each
  state's efc_AR, nefc x nefc row-major, one state after another; else empty),
  PREFIX_index.json {"nstate": B, "count": [nefc per state], "offset": [...]}.
"""
import functools
import json
import os
import tempfile

import mujoco
import numpy as np

from . import torsion

# row fields in the order the pipeline computes them, with the comparison tolerance
# (relative to 1 + max |mujoco| over the state's rows, as compare.row_errors)
FIELDS = [("J", 1e-9), ("pos", 1e-9), ("margin", 1e-12), ("frictionloss", 1e-12),
          ("D", 1e-9), ("R", 1e-9), ("aref", 1e-9), ("force", 1e-5)]
INT_FIELDS = ["type", "id"]


@functools.lru_cache(maxsize=None)
def available():
    """Whether the torsion-sim under test has the efc command."""
    try:
        text = torsion.run(["--help"], check=False).stdout + torsion.run(
            ["--help"], check=False).stderr
    except AssertionError:
        return False
    return any(line.strip().startswith("efc ") for line in text.splitlines())


def torsion_rows(model_path, states, spec=None, options=()):
    """`torsion-sim efc`: a list (one per state) of {field: array}."""
    names = INT_FIELDS + ["state"] + [f for f, _ in FIELDS]
    with tempfile.TemporaryDirectory(prefix="tn-efc-") as tmp:
        prefix = os.path.join(tmp, "efc")
        path = os.path.join(tmp, "state.npy")
        np.save(path, np.ascontiguousarray(states, dtype="<f8"))
        torsion.run(["efc", model_path, "--state", path, "--out", prefix] +
                    torsion._flag_args(spec=spec, options=options))
        with open(prefix + "_index.json") as f:
            index = json.load(f)
        cols = {n: torsion._load("%s_%s.npy" % (prefix, n)) for n in names}
        ar_path = prefix + "_AR.npy"
        ar = torsion._load(ar_path) if os.path.exists(ar_path) else np.zeros(0)
    out, ar_off = [], 0
    for off, cnt in zip(index["offset"], index["count"]):
        rows = {n: cols[n][off:off + cnt] for n in names}
        for n in INT_FIELDS + ["state"]:
            rows[n] = rows[n].astype(int)
        rows["AR"] = None
        if ar.size >= ar_off + cnt * cnt and ar.size:
            rows["AR"] = ar[ar_off:ar_off + cnt * cnt].reshape(cnt, cnt)
            ar_off += cnt * cnt
        out.append(rows)
    return out


def mujoco_AR(m, d):
    """MuJoCo's efc_AR as a dense nefc x nefc matrix (None when its solver is primal and
    noslip is off, so that it is not computed)."""
    n = d.nefc
    if m.opt.solver != mujoco.mjtSolver.mjSOL_PGS and m.opt.noslip_iterations == 0:
        return None
    if not mujoco.mj_isSparse(m):
        return np.array(d.efc_AR[:n * n]).reshape(n, n)
    AR = np.zeros((n, n))
    for r in range(n):
        adr, nnz = d.efc_AR_rowadr[r], d.efc_AR_rownnz[r]
        AR[r, d.efc_AR_colind[adr:adr + nnz]] = d.efc_AR[adr:adr + nnz]
    return AR


def mujoco_rows(m, d):
    """MuJoCo's rows after mj_forward, in the same form (J dense)."""
    n = d.nefc
    if mujoco.mj_isSparse(m):
        J = np.zeros((n, m.nv))
        for r in range(n):
            adr, nnz = d.efc_J_rowadr[r], d.efc_J_rownnz[r]
            J[r, d.efc_J_colind[adr:adr + nnz]] = d.efc_J[adr:adr + nnz]
    else:
        J = np.array(d.efc_J[:n * m.nv]).reshape(n, m.nv)
    rows = {"type": np.array(d.efc_type[:n], dtype=int), "id": np.array(d.efc_id[:n], dtype=int),
            "state": np.array(d.efc_state[:n], dtype=int), "J": J}
    for f, _ in FIELDS[1:]:
        rows[f] = np.array(getattr(d, "efc_" + f)[:n], dtype=float)
    rows["AR"] = mujoco_AR(m, d)
    return rows


def row_label(rows, r):
    """'contact_pyramidal #3' for row r."""
    kind = mujoco.mjtConstraint(int(rows["type"][r])).name[len("mjCNSTR_"):].lower()
    return "row %d (%s, id %d)" % (r, kind, rows["id"][r])


def first_difference(ours, theirs):
    """The first difference between the rows of one state, in pipeline order (None when
    they agree)."""
    no, nt = len(ours["type"]), len(theirs["type"])
    if no != nt:
        return "nefc: torsion %d, mujoco %d" % (no, nt)
    for f in INT_FIELDS:
        bad = np.flatnonzero(ours[f] != theirs[f])
        if bad.size:
            r = int(bad[0])
            return "efc_%s differs at %s: torsion %d" % (f, row_label(theirs, r), ours[f][r])
    for f, tol in FIELDS:
        if no == 0:
            break
        a = np.asarray(ours[f], dtype=float).reshape(no, -1)
        b = np.asarray(theirs[f], dtype=float).reshape(nt, -1)
        if not a.size:
            continue
        diff = np.where(np.isnan(a - b), np.inf, np.abs(a - b))
        err = np.max(diff) / (1 + np.max(np.abs(b)))
        if not err <= tol:
            r, c = np.unravel_index(int(np.argmax(diff)), diff.shape)
            return "efc_%s differs (err %.3g > %.0e) at %s%s: torsion %.17g, mujoco %.17g" % (
                f, err, tol, row_label(theirs, r), ", column %d" % c if f == "J" else "",
                a[r, c], b[r, c])
    return None
