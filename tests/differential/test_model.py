"""The compiled model (issue 2, item 8): sizes, timestep, body masses and inertias, qpos0
equal to MuJoCo's within 1e-10 (model compiled by both, constraints disabled)."""
import numpy as np

from harness.params import by_model
from harness import compare, diagnose, oracle, torsion

MODEL_TOL = 1e-10
SIZES = ["nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "nmesh", "ntendon",
         "neq", "nsensor", "nsensordata", "nkey"]


def _check_field(model, name, ours):
    """Compare one model field with MuJoCo's, naming other differing fields on failure."""
    m = oracle.load(model.path)
    theirs = oracle.model_field(m, name)
    ours = np.asarray(ours, dtype=float).reshape(theirs.shape) if np.size(ours) == \
        theirs.size else np.asarray(ours)
    try:
        compare.check_rows(ours.reshape(1, -1), theirs.reshape(1, -1), MODEL_TOL, name)
    except AssertionError as e:
        raise AssertionError("%s\n%s" % (e, diagnose.summary(model.path, m))) from None


@by_model
def test_sizes(model):
    info = torsion.info(model.path)
    m = oracle.load(model.path)
    wrong = ["%s: torsion %r, mujoco %r" % (k, info.get(k, "(missing)"), getattr(m, k))
             for k in SIZES if info.get(k) != getattr(m, k)]
    # further sizes torsion-sim reports (nmocap, nwrap, nstate, ...) must agree too
    for k, v in info.items():
        if k in SIZES or not isinstance(v, int):
            continue
        theirs = oracle.nstate(m) if k == "nstate" else getattr(m, k, None)
        if theirs is not None and v != theirs:
            wrong.append("%s: torsion %r, mujoco %r" % (k, v, theirs))
    if abs(info.get("timestep", np.nan) - m.opt.timestep) > MODEL_TOL * m.opt.timestep:
        wrong.append("timestep: torsion %r, mujoco %r" % (info.get("timestep"),
                                                           m.opt.timestep))
    assert not wrong, "sizes differ:\n  " + "\n  ".join(wrong)


@by_model
def test_body_mass(model):
    _check_field(model, "body_mass", torsion.info(model.path).get("body_mass"))


@by_model
def test_body_inertia(model):
    _check_field(model, "body_inertia", torsion.dump(model.path, ["body_inertia"])[
        "body_inertia"])


@by_model
def test_qpos0(model):
    _check_field(model, "qpos0", torsion.info(model.path).get("qpos0"))


def test_hfield_data_random_elevations(tmp_path):
    """Height-field elevations are normalized exactly as MuJoCo does (in float): every
    hfield_data entry of a field with random, unrounded elevations is bit-identical."""
    import mujoco
    rng = np.random.default_rng(7)
    elevation = rng.normal(size=(7, 9)) * 3.7 + 1.3
    xml = ('<mujoco><asset><hfield name="h" nrow="7" ncol="9" size="1 1 .5 .1" '
           'elevation="%s"/></asset><worldbody><geom type="hfield" hfield="h"/></worldbody>'
           '</mujoco>') % " ".join(repr(float(x)) for x in elevation.ravel())
    path = tmp_path / "hfield.xml"
    path.write_text(xml)
    theirs = mujoco.MjModel.from_xml_path(str(path)).hfield_data
    ours = torsion.dump(str(path), ["hfield_data"])["hfield_data"].ravel()
    assert ours.shape == theirs.shape
    assert np.array_equal(ours, theirs), "max diff %g" % np.max(np.abs(ours - theirs))
