"""Constrained forward dynamics (issue 3, item 7): at the 50 contact states per model
(harness/constraint_cases.py, warmstart included), qacc within 1e-6 and the constraint
force within 1e-5 (relative, compare.py) for the Newton, CG and PGS solvers under pyramidal
and elliptic cones, both engines with the same settings (the model's own iterations and
tolerances). The constraint force is compared in joint space, qfrc_constraint = J' efc_force,
and row by row (efc_force, with every other efc field named when it differs) when
torsion-sim has the `efc` command (harness/efc.py).

Where MuJoCo's own answer is not defined to the tolerance — an unconverged CG/PGS iterate
or a nearly singular constraint set amplifies round-off, so that scaling qvel by a few ulps
moves MuJoCo's qacc by more than the tolerance (constraint_cases.mujoco_spread) — a state
passes when Torsion's error is within SPREAD_FACTOR (4) times that spread. Everywhere else
(almost every state: the spread is ~1e-14) the tolerances above apply unchanged."""
import numpy as np
import pytest

from harness.params import contact_cases
from harness import compare, torsion
from harness import constraint_cases as cc
from harness import constraint_diagnose, efc

QACC_TOL = 1e-6
FORCE_TOL = 1e-5


SOLVERS = ["newton", "cg", "pgs"]
CONES = ["pyramidal", "elliptic"]


@pytest.mark.parametrize("model,solver,cone", contact_cases(SOLVERS, CONES))
def test_constraint_qacc(model, solver, cone):
    options = (("solver", solver), ("cone", cone))
    m = cc.load(model, options=options)
    states, expected = cc.forward_case(model, options)
    ours = torsion.dump(model.path, ["qacc", "qfrc_constraint"], states, spec=cc.SPEC_NAME,
                        options=options)
    dofs = [lab.split(" ", 1)[1] for lab in compare.state_labels(m)["qvel"]]
    failures, worst, spreads = [], np.zeros(len(states)), {}
    for name, tol in [("qacc", QACC_TOL), ("qfrc_constraint", FORCE_TOL)]:
        a = ours[name].reshape(expected[name].shape) if ours[name].size == \
            expected[name].size else ours[name]
        if np.shape(a) != np.shape(expected[name]):
            failures.append("%s: shape %s, MuJoCo %s" % (name, np.shape(a),
                                                         np.shape(expected[name])))
            continue
        err = compare.row_errors(a, expected[name])
        bad = [k for k in np.flatnonzero(err > tol)
               if err[k] > cc.allowed_error(m, states, k, name, tol, spreads)]
        if bad:
            try:
                compare.check_rows(a[bad], expected[name][bad], tol, name,
                                   ["%s[%d] %s" % (name, i, d) for i, d in enumerate(dofs)],
                                   row_name="state")
            except AssertionError as e:
                failures.append("%s (states %s; MuJoCo's own spread there: %s)" % (
                    e, bad[:8], ", ".join("%.2g" % spreads[k][name] for k in bad[:8])))
            worst[bad] = np.maximum(worst[bad], err[bad] / tol)
    if efc.available():
        k, problem = _efc_problem(model, m, states, options, spreads)
        if problem:
            failures.append("efc rows differ at state %d: %s" % (k, problem))
            worst[k] = np.inf
    if failures:
        k = int(np.argmax(worst))
        raise AssertionError("%s\nat state %d:\n%s" % (
            "\n".join(failures), k, constraint_diagnose.explain(model, states[k], options)))


AR_TOL = 1e-9


@pytest.mark.parametrize("model,cone", contact_cases(CONES))
def test_constraint_AR(model, cone):
    """PGS's matrix efc_AR = J inv(M) J' + diag(R) (mj_projectConstraint) equals MuJoCo's
    at every contact state: within AR_TOL relative to 1 + max |AR| of the state."""
    options = (("solver", "pgs"), ("cone", cone))
    m = cc.load(model, options=options)
    states, _ = cc.forward_case(model, options)
    ours = efc.torsion_rows(model.path, states, spec=cc.SPEC_NAME, options=options)
    theirs = cc.mujoco_efc(m, states)
    compared, failures = 0, []
    for k, (o, t) in enumerate(zip(ours, theirs)):
        n = len(t["type"])
        if len(o["type"]) != n:
            failures.append("state %d: nefc %d, MuJoCo %d" % (k, len(o["type"]), n))
            continue
        if n == 0:
            continue
        if o["AR"] is None:
            failures.append("state %d: torsion-sim efc wrote no efc_AR" % k)
            continue
        err = np.abs(o["AR"] - t["AR"]) / (1 + np.max(np.abs(t["AR"])))
        if not np.max(err) <= AR_TOL:
            r, c = np.unravel_index(int(np.argmax(err)), err.shape)
            failures.append("state %d: efc_AR[%d, %d] torsion %.17g, MuJoCo %.17g (err %.3g)" % (
                k, r, c, o["AR"][r, c], t["AR"][r, c], err[r, c]))
        compared += 1
    assert not failures, "\n".join(failures[:10])
    assert compared > 0 or all(len(t["type"]) == 0 for t in theirs)


def _efc_problem(model, m, states, options, spreads):
    """(state, first difference) of the efc rows at the first state whose efc_force (or
    row count) differs beyond the allowed error; (None, None) when every state agrees."""
    ours = efc.torsion_rows(model.path, states, spec=cc.SPEC_NAME, options=options)
    theirs = cc.mujoco_efc(m, states)
    for k, (o, t) in enumerate(zip(ours, theirs)):
        force_err = compare.row_errors(o["force"][None], t["force"][None])[0] \
            if len(o["force"]) == len(t["force"]) else np.inf
        if not force_err <= FORCE_TOL and (
                force_err == np.inf or
                force_err > cc.allowed_error(m, states, k, "efc_force", FORCE_TOL, spreads)):
            return k, efc.first_difference(o, t) or "efc_force err %.3g" % force_err
    return None, None
