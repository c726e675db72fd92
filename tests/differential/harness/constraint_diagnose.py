"""constraint_diagnose — where Torsion and MuJoCo part ways at one state with constraints
on, for the failure messages of the contact and constraint checks: the contact set first,
then the smooth part of the dynamics, then the constraint force and the acceleration.

The efc_* rows are compared field by field when torsion-sim has the `efc` command
(harness/efc.py); otherwise through qfrc_constraint = J' f, with MuJoCo's row counts beside.
"""
import numpy as np

from . import constraint_cases as cc
from . import contacts, efc, torsion
from .compare import row_errors

# fields compared after mj_forward, in pipeline order, with their tolerance
FIELDS = [("qfrc_smooth", 1e-9), ("qacc_smooth", 1e-9), ("qfrc_constraint", 1e-5),
          ("qacc", 1e-6)]


def _field_line(name, ours, theirs, tol):
    """One line comparing a dumped field with MuJoCo's (None when they agree)."""
    ours = np.asarray(ours, dtype=float).reshape(-1)
    theirs = np.asarray(theirs, dtype=float).reshape(-1)
    if ours.shape != theirs.shape:
        return "%s: torsion shape %s, mujoco %s" % (name, ours.shape, theirs.shape)
    err = float(row_errors(ours[None], theirs[None])[0]) if ours.size else 0.0
    if err <= tol:
        return None
    diff = np.where(np.isnan(ours - theirs), np.inf, np.abs(ours - theirs))
    i = int(np.argmax(diff))
    return "%s differs (err %.3g > %.0e) at dof %d: torsion %.17g, mujoco %.17g" % (
        name, err, tol, i, ours[i], theirs[i])


def explain(model, state, options=(), integrator=None):
    """Lines naming the first difference at one SPEC state: contacts, then the fields of
    FIELDS after mj_forward (with the given integrator set on both sides), with MuJoCo's
    constraint summary."""
    m = cc.load(model, integrator=integrator, options=options)
    state = np.asarray(state, dtype=float).reshape(1, -1)
    lines = []
    try:
        # 1. the contact set, and the order of the contacts (= the order of the efc rows)
        ours = torsion.contacts(model.path, state, spec=cc.SPEC_NAME)[0]
        theirs = cc.forward_contacts(m, state[0])
        problems = contacts.compare_sets(m, ours, theirs)
        if problems:
            lines.append("first difference: the contact set (%d vs %d contacts):" % (
                len(ours["dist"]), len(theirs["dist"])))
            lines += ["  " + p for p in problems[:4]]
        elif not contacts.same_order(ours, theirs):
            lines.append("the contact sets agree but are listed in a different order (efc "
                         "row order differs: PGS sweeps rows in order)")
        else:
            lines.append("contact sets agree (%d contacts, same order)" % len(ours["dist"]))

        # 2. smooth dynamics, constraint force, acceleration
        names = [f for f, _ in FIELDS]
        dumped = torsion.dump(model.path, names, state, spec=cc.SPEC_NAME, options=options,
                              integrator=integrator)
        ref = cc.forward_fields(m, state, names)
        diffs = [_field_line(f, dumped[f], ref[f], tol) for f, tol in FIELDS]
        diffs = [x for x in diffs if x]
        lines += diffs or ["qfrc_smooth, qacc_smooth, qfrc_constraint and qacc agree at "
                           "this state (after a step: the difference is in the integrator)"]
        # 3. the constraint rows, when torsion-sim can write them
        if efc.available():
            diff = efc.first_difference(
                efc.torsion_rows(model.path, state, spec=cc.SPEC_NAME, options=options)[0],
                cc.mujoco_efc(m, state)[0])
            lines.append("efc rows: " + (diff or "all fields agree"))
            lines.append(cc.efc_summary(m, state[0]))
        else:
            lines.append(cc.efc_summary(m, state[0]) + "; torsion-sim has no efc command "
                         "to compare the rows")
    except Exception as e:  # diagnosis must never hide the original failure
        lines.append("diagnosis failed: %s" % str(e).strip().splitlines()[-1][:300])
    return "\n".join(lines)
