"""The sparse-Jacobian paths of the constraint solvers on scenes of many kinematic trees,
against MuJoCo with jacobian="sparse" forced in both engines, at the contact states of
harness/constraint_cases.py:

- Newton (pyramidal and elliptic cones): qacc within 1e-6 and qfrc_constraint within 1e-5
  (relative, compare.py; a state passes within 4x MuJoCo's own spread where that spread
  exceeds the tolerance, as in test_constraint_forward.py). This covers the sparse Hessian,
  its rank-one updates when a few rows change state, and its rebuilds.
- PGS: efc_AR = J inv(M) J' + diag(R) in CSR, whose pattern comes from the rows' root dofs
  (rows of different trees share no entry), within 1e-9 relative to 1 + max |AR|.

The scenes hold free bodies and humanoids touching each other, so rows span one or two
trees and AR has both shared and empty blocks."""
import numpy as np
import pytest

from harness import compare, efc, torsion
from harness import constraint_cases as cc
from harness.params import CONTACT_MODELS

SCENES = ["local/scenes/box_tower", "local/scenes/capsule_heap",
          "local/scenes/humanoid_crowd"]
MODELS = [m for m in CONTACT_MODELS if m.id in SCENES]
QACC_TOL = 1e-6
FORCE_TOL = 1e-5
AR_TOL = 1e-9


def test_scenes_present():
    """Every scene of this file is in the contact corpus (none silently dropped)."""
    assert sorted(m.id for m in MODELS) == sorted(SCENES)


@pytest.mark.parametrize("model", MODELS, ids=str)
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_sparse_newton(model, cone):
    options = (("solver", "newton"), ("cone", cone), ("jacobian", "sparse"))
    m = cc.load(model, options=options)
    states, expected = cc.forward_case(model, options)
    ours = torsion.dump(model.path, ["qacc", "qfrc_constraint"], states, spec=cc.SPEC_NAME,
                        options=options)
    failures, spreads = [], {}
    for name, tol in [("qacc", QACC_TOL), ("qfrc_constraint", FORCE_TOL)]:
        a = np.reshape(ours[name], expected[name].shape)
        err = compare.row_errors(a, expected[name])
        bad = [k for k in np.flatnonzero(err > tol)
               if err[k] > cc.allowed_error(m, states, k, name, tol, spreads)]
        if bad:
            failures.append("%s: states %s, errors %s" % (
                name, bad[:8], ", ".join("%.3g" % err[k] for k in bad[:8])))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("model", MODELS, ids=str)
def test_sparse_AR(model):
    options = (("solver", "pgs"), ("jacobian", "sparse"))
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
            failures.append("state %d: efc_AR[%d, %d] torsion %.17g, MuJoCo %.17g" % (
                k, r, c, o["AR"][r, c], t["AR"][r, c]))
        compared += 1
    assert not failures, "\n".join(failures[:10])
    assert compared > 0
