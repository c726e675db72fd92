"""Ellipsoid fluid model: the compiled added-mass coefficients geom_fluid[6..11] equal
MuJoCo's (its compiler integrates them with a fixed quadrature, not exactly) to 1e-15
relative, and light bodies in a dense fluid, whose accelerations are dominated by the added
mass, get qacc within 1e-8 (constraints disabled)."""
import os
import shutil

import numpy as np
import pytest

from harness import cases, compare, corpus, oracle, torsion

COEF_TOL = 1e-15   # relative, per coefficient
QACC_TOL = 1e-8

FLUID_LIGHT = os.path.join(corpus.REPO_ROOT, "tests", "models", "fluid_light.xml")


def _fish_with_ellipsoid_fluid(tmp_path):
    """dm_control's fish with every geom of the fish class on the ellipsoid fluid model
    (a copy in tmp_path, next to a copy of the suite's common assets)."""
    suite = None
    for m in corpus.package_models():
        if m.id == "dmc/fish":
            suite = os.path.dirname(m.path)
    assert suite, "dm_control's fish.xml not found"
    shutil.copytree(os.path.join(suite, "common"), tmp_path / "common")
    text = open(os.path.join(suite, "fish.xml")).read()
    marker = '<geom material="self"/>'
    assert marker in text
    text = text.replace(marker, '<geom material="self" fluidshape="ellipsoid"/>')
    path = tmp_path / "fish_ellipsoid_fluid.xml"
    path.write_text(text)
    return str(path)


def _ellipsoid_zoo(tmp_path):
    """Ellipsoids, capsules and cylinders of random proportions (axis ratios up to 100)."""
    r = np.random.default_rng(20261125)
    geoms = []
    for k in range(60):
        a = np.exp(r.uniform(np.log(1e-3), np.log(1e-1), 3))
        kind = ("ellipsoid", "capsule", "cylinder", "box", "sphere")[k % 5]
        geoms.append('<geom type="%s" size="%.17g %.17g %.17g" pos="%d 0 0" '
                     'fluidshape="ellipsoid"/>' % (kind, a[0], a[1], a[2], k))
    path = tmp_path / "ellipsoid_zoo.xml"
    path.write_text('<mujoco><option density="1.2"/><worldbody><body><freejoint/>%s'
                    '</body></worldbody></mujoco>' % "".join(geoms))
    return str(path)


def _check_coefficients(path):
    m = oracle.load(path)
    theirs = np.array(m.geom_fluid).reshape(m.ngeom, -1)
    ours = torsion.dump(path, ["geom_fluid"])["geom_fluid"].reshape(theirs.shape)
    assert np.count_nonzero(theirs[:, 6:12]), "no geom uses the ellipsoid fluid model"
    rel = np.abs(ours - theirs) / np.maximum(np.abs(theirs), 1e-300)
    g, i = np.unravel_index(int(np.argmax(rel)), rel.shape)
    assert rel.max() <= COEF_TOL, "geom_fluid[%d][%d]: torsion %.17g, mujoco %.17g" % (
        g, i, ours[g, i], theirs[g, i])


def _check_qacc(path, model_id):
    m = oracle.load(path)
    states, ctrl, expected = cases.qacc_case(corpus.Model(model_id, path))
    qacc = torsion.forward(path, states, cases.ctrl_or_none(m, ctrl),
                           disable=oracle.SMOOTH_ONLY)
    compare.check_rows(qacc, expected, QACC_TOL, "qacc", row_name="state")


@pytest.mark.parametrize("which", ["fluid_light", "fish", "zoo"])
def test_added_mass_coefficients(which, tmp_path):
    path = {"fluid_light": lambda: FLUID_LIGHT,
            "fish": lambda: _fish_with_ellipsoid_fluid(tmp_path),
            "zoo": lambda: _ellipsoid_zoo(tmp_path)}[which]()
    _check_coefficients(path)


def test_light_bodies_qacc():
    _check_qacc(FLUID_LIGHT, "local/fluid_light")


def test_fish_ellipsoid_fluid_qacc(tmp_path):
    _check_qacc(_fish_with_ellipsoid_fluid(tmp_path), "local/fish_ellipsoid_fluid")
