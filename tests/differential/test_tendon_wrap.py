"""Spatial tendon wrapping where the side site decides the kind of wrap: side site inside
the sphere or cylinder (a single contact point, found by MuJoCo's Newton iteration, which
stops short of the exact point) and a side site inside the cylinder's cross-section but
farther than a radius from its center in 3D (an ordinary wrap: MuJoCo decides "inside" by
the 3D distance). Lengths, Jacobians and the wrap points must be MuJoCo's to round-off, far
tighter than the corpus tolerance, since any different rule shows at 1e-8 or more."""
import os

import numpy as np
import pytest

from harness import cases, compare, corpus, oracle, torsion

SCENES = ["sphere_wrap_inside", "cylinder_wrap_inside", "cylinder_wrap_side3d"]
TEN_TOL = 1e-13    # absolute, ten_length and ten_J
QACC_TOL = 1e-12   # relative (compare.py)


def _model(name):
    path = os.path.join(corpus.REPO_ROOT, "tests", "models", "tendons", name + ".xml")
    return corpus.Model("local/tendons/" + name, path)


def _wrap_points(m, states, ctrl):
    """MuJoCo's wrap points (the valid ones of each tendon path) per state."""
    import mujoco
    d = mujoco.MjData(m)
    out = []
    for k in range(len(states)):
        oracle._forward_at(m, d, states[k], ctrl[k] if m.nu else None)
        out.append(np.array(d.wrap_xpos).reshape(-1, 3)[:d.ten_wrapnum.sum()].copy())
    return out


@pytest.mark.parametrize("name", SCENES)
def test_wrap_lengths_and_jacobians(name):
    model = _model(name)
    m = oracle.load(model.path)
    states, ctrl, expected_qacc = cases.qacc_case(model)
    ours = torsion.dump(model.path, ["ten_length", "ten_J", "ten_wrapnum", "wrap_xpos",
                                     "qacc"], states, cases.ctrl_or_none(m, ctrl),
                        disable=oracle.SMOOTH_ONLY)
    theirs = oracle.data_fields(m, states, ctrl, ["ten_length", "ten_J", "ten_wrapnum"])

    # the tendon wraps (more than its three sites) at some of the states
    wrapnum = theirs["ten_wrapnum"].reshape(len(states), -1)
    assert (wrapnum > 3).any(), "the tendon never wraps in %s" % name
    np.testing.assert_array_equal(ours["ten_wrapnum"].reshape(wrapnum.shape), wrapnum)

    for field in ["ten_length", "ten_J"]:
        diff = np.abs(ours[field] - theirs[field]).max()
        assert diff <= TEN_TOL, "%s differs by %.3g" % (field, diff)

    # wrap points (sites and tangent points) of every state
    xpos = ours["wrap_xpos"].reshape(len(states), -1, 3)
    for k, pts in enumerate(_wrap_points(m, states, ctrl)):
        diff = np.abs(xpos[k, :len(pts)] - pts).max() if len(pts) else 0.0
        assert diff <= TEN_TOL, "wrap_xpos differs by %.3g at state %d" % (diff, k)

    qacc = ours["qacc"].reshape(expected_qacc.shape)
    compare.check_rows(qacc, expected_qacc, QACC_TOL, "qacc", row_name="state")
