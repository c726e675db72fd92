"""Spatial tendon wrapping where the side site decides the kind of wrap: side site inside
the sphere or cylinder (a single contact point, found by MuJoCo's Newton iteration, which
stops short of the exact point) and a side site inside the cylinder's cross-section but
farther than a radius from its center in 3D (an ordinary wrap: MuJoCo decides "inside" by
the 3D distance). Lengths, Jacobians and the wrap points must be MuJoCo's to round-off, far
tighter than the corpus tolerance, since any different rule shows at 1e-8 or more. A
generated scene adds many random obstacles, end points and side sites (inside in 3D,
inside the cross-section only, outside)."""
import os

import mujoco
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


def _random_wrap_scene(seed, n=24):
    """n spatial tendons, each from a site on one small body around a sphere or cylinder
    on a ball joint to a site on another, with a side site inside the obstacle (every 4th
    one), inside the cylinder's cross-section but beyond a radius, or outside."""
    r = np.random.default_rng(seed)
    bodies, tendons = [], []
    for k in range(n):
        rad = r.uniform(0.03, 0.08)
        if k % 2 == 0:
            geom = 'type="sphere" size="%.6f"' % rad
        else:
            geom = 'type="cylinder" size="%.6f %.6f"' % (rad, r.uniform(0.02, 0.1))
        u = r.normal(size=3)
        u /= np.linalg.norm(u)
        if k % 4 == 0:
            side = u * rad * r.uniform(0.1, 0.9)
        elif k % 4 == 1:
            side = np.array([0.3 * rad * u[0], 0.3 * rad * u[1], rad * r.uniform(1.2, 2)])
        else:
            side = u * rad * r.uniform(1.5, 3)
        a, b, zaxis = r.normal(size=3) * 0.15, r.normal(size=3) * 0.15, r.normal(size=3)
        vec = lambda v: " ".join("%.6f" % x for x in v)
        bodies.append(
            '<body pos="%d 0 0"><joint type="ball"/><geom name="g%d" %s zaxis="%s"/>'
            '<site name="side%d" pos="%s"/>'
            '<body pos="%s"><joint type="ball"/><geom size="0.01" mass="0.1"/>'
            '<site name="a%d" pos="0.02 0.01 0"/></body>'
            '<body pos="%s"><joint type="ball"/><geom size="0.01" mass="0.1"/>'
            '<site name="b%d" pos="-0.01 0.02 0"/></body></body>'
            % (k, k, geom, vec(zaxis), k, vec(side), vec(a), k, vec(b), k))
        tendons.append('<spatial stiffness="5"><site site="a%d"/>'
                       '<geom geom="g%d" sidesite="side%d"/><site site="b%d"/></spatial>'
                       % (k, k, k, k))
    return ('<mujoco model="wrap_random"><option gravity="0 0 0"/><worldbody>%s'
            '</worldbody><tendon>%s</tendon></mujoco>' % ("".join(bodies), "".join(tendons)))


@pytest.mark.parametrize("seed", [1, 2])
def test_random_wrap_scene(seed, tmp_path):
    path = str(tmp_path / "wrap_random.xml")
    with open(path, "w") as f:
        f.write(_random_wrap_scene(seed))
    m = oracle.load(path)
    states, ctrl = oracle.random_states(m, 30, oracle.rng("wrap_random_%d" % seed, "qacc"))
    ours = torsion.dump(path, ["ten_length", "ten_J", "ten_wrapnum"], states, None,
                        disable=oracle.SMOOTH_ONLY)
    theirs = oracle.data_fields(m, states, ctrl, ["ten_length", "ten_J", "ten_wrapnum"])

    # both wrapped and straight tendons occur, in the same places on both sides
    wrapnum = theirs["ten_wrapnum"].reshape(len(states), -1)
    assert (wrapnum == 4).any() and (wrapnum == 2).any()
    np.testing.assert_array_equal(ours["ten_wrapnum"].reshape(wrapnum.shape), wrapnum)
    for field in ["ten_length", "ten_J"]:
        diff = np.abs(ours[field] - theirs[field]).max()
        assert diff <= TEN_TOL, "%s differs by %.3g" % (field, diff)
