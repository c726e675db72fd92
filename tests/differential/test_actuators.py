"""Actuators and transmissions against MuJoCo 3.14: muscles (gain, bias, activation
dynamics, compile-time length ranges), adhesion (body transmission), site transmissions with
and without refsite, slider-crank, every dyn/gain/bias combination, on our models
(tests/models/actuators) and real robots: MyoSuite's legacy elbow and finger models
(muscles on spatial tendons) and Menagerie's quadrotors (site transmissions).
- compiled actuator fields within 1e-10 (length ranges found by simulation included: the
  same simulation agrees to round-off);
- at 50 random states, constraints disabled: actuator_length and actuator_moment within
  1e-10, actuator_velocity, actuator_force, act_dot and qfrc_actuator within 1e-9, qacc
  within 1e-8;
- adhesion with contacts on (the contact checks' flags, MuJoCo's defaults), pyramidal and elliptic
  cones: moments from the contact rows within 1e-9; one constrained step (contacts,
  limits) along MuJoCo trajectories within 1e-6 on adhesion, muscle and quadrotor models;
- one step along a MuJoCo trajectory with each integrator within 1e-9 (the implicit ones
  use the muscle gain's velocity derivative, as MuJoCo does), and 50-step rollouts within
  1e-8;
- <compiler><lengthrange> options (mode, useexisting, uselimit, simulation parameters);
- user dynamics/gain/bias types without callbacks (tests/models/actuators/user_types.xml:
  gain 1, bias 0, act_dot 0, as MuJoCo; with callbacks: tests/capi/test_callbacks.py);
- clean errors: a length range that cannot be computed names the actuator."""
import copy
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import cases, compare, corpus, oracle, robots, torsion
from harness import constraint_cases as cc

MYO = corpus._package_dir("myo_sim", "models", "legacy")
MENAGERIE = robots.menagerie_dir()


def _real_models():
    """MyoSuite legacy muscle models and Menagerie quadrotors (site transmissions)."""
    out = []
    for sub in ("elbow", "finger"):
        for path in corpus._xml_files(os.path.join(MYO, sub)):
            out.append(corpus.Model("myo/%s/%s" % (sub, os.path.basename(path)[:-4]), path))
    for robot in ("skydio_x2", "bitcraze_crazyflie_2"):
        out.append(corpus.Model("menagerie/" + robot, os.path.join(MENAGERIE, robot, "scene.xml")))
    return out


LOCAL = corpus.local_models(["tests/models/actuators"])
MODELS = LOCAL + [m for m in _real_models() if m.id != "myo/finger/finger_v0"]
MODEL_IDS = [str(m) for m in MODELS]

COMPILED_TOL = 1e-10
KINEMATIC_TOL = 1e-10
FORCE_TOL = 1e-9
QACC_TOL = 1e-8
STEP_TOL = 1e-9
ROLLOUT_TOL = 1e-8
CONSTRAINED_STEP_TOL = 1e-6
NSTATE = 50
NROLL = 4
NROLL_STEP = 50

# every compiled actuator field of mjModel that Torsion fills
COMPILED_FIELDS = [
    "actuator_trntype", "actuator_dyntype", "actuator_gaintype", "actuator_biastype",
    "actuator_trnid", "actuator_actadr", "actuator_actnum", "actuator_group",
    "actuator_ctrllimited", "actuator_forcelimited", "actuator_actlimited",
    "actuator_dynprm", "actuator_gainprm", "actuator_biasprm", "actuator_actearly",
    "actuator_ctrlrange", "actuator_forcerange", "actuator_actrange", "actuator_gear",
    "actuator_cranklength", "actuator_acc0", "actuator_length0", "actuator_lengthrange",
]

DATA_TOLS = [("actuator_length", KINEMATIC_TOL), ("actuator_moment", KINEMATIC_TOL),
             ("actuator_velocity", FORCE_TOL), ("actuator_force", FORCE_TOL),
             ("act_dot", FORCE_TOL), ("qfrc_actuator", FORCE_TOL), ("qacc", QACC_TOL)]


def _check_fields(ours, theirs, tols, what):
    """Each data field per state within its tolerance (compare.py's relative measure)."""
    for name, tol in tols:
        b = theirs[name]
        a = ours[name].reshape(b.shape)
        compare.check_rows(a.reshape(len(a), -1), b.reshape(len(b), -1), tol,
                           "%s %s" % (what, name), row_name="state")


@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_compiled(model):
    m = oracle.load(model.path)
    assert m.nu > 0
    ours = torsion.dump(model.path, COMPILED_FIELDS)
    for name in COMPILED_FIELDS:
        compare.check_rows(ours[name].reshape(1, -1),
                           oracle.model_field(m, name).reshape(1, -1), COMPILED_TOL, name)


@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_forward(model):
    m = oracle.load(model.path)
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model.id, "actuators"))
    names = [n for n, _ in DATA_TOLS if n != "act_dot" or m.na]
    tols = [(n, t) for n, t in DATA_TOLS if n in names]
    ours = torsion.dump(model.path, names, states, ctrl, disable=oracle.SMOOTH_ONLY)
    theirs = oracle.data_fields(m, states, ctrl, names)
    _check_fields(ours, theirs, tols, "mj_forward")


ADHESION = os.path.join(corpus.REPO_ROOT, "tests", "models", "actuators", "adhesion.xml")


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_adhesion_contacts(cone):
    """Body transmissions average the normal Jacobians of the body's contacts: active ones
    through their efc rows, those in the margin's gap directly."""
    options = (("cone", cone),)
    m = oracle.load(ADHESION, disable=oracle.CONTACT_ORACLE, options=options)
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng("adhesion", cone), spread=0.1)
    names = ["actuator_moment", "actuator_velocity", "actuator_force", "qfrc_actuator"]
    ours = torsion.dump(ADHESION, names, states, ctrl, options=options)
    theirs = oracle.data_fields(m, states, ctrl, names)
    _check_fields(ours, theirs, [(n, FORCE_TOL) for n in names], "adhesion")

    # the three adhesion rows are not all zero: contacts (some in the gap) were found
    assert np.count_nonzero(theirs["actuator_moment"][:, :3]) > 0


@pytest.mark.parametrize("integrator", ["euler", "rk4", "implicit", "implicitfast"])
@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_one_step(model, integrator):
    m = oracle.load(model.path, integrator=integrator)
    inputs, ctrl, outputs = cases.trajectory_case(model, integrator)
    ours = torsion.rollout(model.path, inputs, ctrl[:, None, :], 1,
                           disable=oracle.SMOOTH_ONLY, threads=2, integrator=integrator)
    compare.check_states(m, ours[:, 0, :], outputs, STEP_TOL,
                         "state after one %s step" % integrator)


@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_rollout(model):
    """Short rollouts. With constraints disabled the muscle models flail at tens of rad/s
    and round-off grows ~10x every 10 steps (MyoSuite's finger), so NROLL_STEP steps are
    compared, not the 100 of test_step.py, and MuJoCo runs with Torsion's compiled length
    ranges: simulated ones agree to ~1e-15 (test_compiled), which this chaos would
    otherwise amplify past the tolerance by itself."""
    m = copy.deepcopy(oracle.load(model.path))
    m.actuator_lengthrange[:] = torsion.dump(model.path, ["actuator_lengthrange"])[
        "actuator_lengthrange"]
    r = oracle.rng(model.id, "actuator rollout")
    s0, _ = oracle.random_states(m, NROLL, r, spread=0.3)
    ctrl = np.stack([oracle.smooth_controls(m, NROLL_STEP, r) for _ in range(NROLL)])
    expected = oracle.rollout(m, s0, ctrl, NROLL_STEP)
    ours = torsion.rollout(model.path, s0, ctrl, NROLL_STEP, disable=oracle.SMOOTH_ONLY)
    compare.check_states(m, ours, expected, ROLLOUT_TOL, "%d-step rollout" % NROLL_STEP)


CONSTRAINED = [m for m in MODELS if m.id in (
    "local/actuators/adhesion", "local/actuators/shortcuts", "local/actuators/slider_crank",
    "myo/elbow/myoelbow_2dof6muscles", "myo/finger/myofinger_v0", "menagerie/skydio_x2")]


@pytest.mark.parametrize("integrator", ["euler", "implicitfast"])
@pytest.mark.parametrize("model", CONSTRAINED, ids=[str(m) for m in CONSTRAINED])
def test_constraint_one_step(model, integrator):
    """With contacts and limits (adhesion pulling bodies onto the floor, muscles against
    joint limits): one step along a MuJoCo trajectory within 1e-6, as
    test_constraint_step.py."""
    m = cc.load(model, integrator=integrator)
    inputs, outputs = cc.step_case(model, integrator)
    ours = torsion.rollout(model.path, inputs, None, 1, threads=2, integrator=integrator,
                           spec=cc.SPEC_NAME)
    compare.check_states(m, ours[:, 0, :], outputs, CONSTRAINED_STEP_TOL,
                         "state after one %s step" % integrator, spec=cc.SPEC)


# ---------------------------------------------------------------------------------------
# <compiler><lengthrange>
# ---------------------------------------------------------------------------------------

LR_BODY = """
  <option timestep="0.002"/>
  <worldbody>
    <body name="a">
      <joint name="j1" type="hinge" axis="0 1 0" range="-50 60" limited="true"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".04"/>
      <site name="s1" pos=".1 0 .05"/>
      <body name="b" pos=".3 0 0">
        <joint name="j2" type="hinge" axis="0 1 0" range="-80 10" limited="true"/>
        <geom type="capsule" fromto="0 0 0 .25 0 0" size=".03"/>
        <site name="s2" pos=".1 0 .04"/>
        <body name="c" pos=".25 0 0">
          <joint name="j3" type="slide" axis="1 0 0"/>
          <geom type="box" size=".03 .03 .03"/>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon>
    <spatial name="sp" limited="true" range="0.2 0.5"><site site="s1"/><site site="s2"/></spatial>
    <fixed name="fx"><joint joint="j1" coef="1"/><joint joint="j2" coef="-0.5"/></fixed>
  </tendon>
  <actuator>
    <muscle name="m1" joint="j1"/>
    <muscle name="m2" tendon="sp"/>
    <muscle name="m3" joint="j2" lengthrange="-1 0.1"/>
    <muscle name="m4" tendon="fx"/>
    <motor name="mo" joint="j2"/>
    <position name="po" tendon="sp" kp="10"/>
    <general name="ge" joint="j1" gaintype="affine" gainprm="1 1 0"/>
  </actuator>
"""

LR_OPTIONS = {
    "default": "",
    "uselimit": '<lengthrange uselimit="true"/>',
    "all": '<lengthrange mode="all"/>',
    "all_uselimit": '<lengthrange mode="all" uselimit="true" useexisting="false"/>',
    "none": '<lengthrange mode="none"/>',
    "muscleuser": '<lengthrange mode="muscleuser"/>',
    "no_existing": '<lengthrange useexisting="false"/>',
    "params": '<lengthrange accel="35" maxforce="20" timeconst="0.5" timestep="0.005" '
              'inttotal="6" interval="1.5" tolrange="0.1"/>',
}


def _write(tmp, name, xml):
    path = os.path.join(tmp, name + ".xml")
    with open(path, "w") as f:
        f.write(xml)
    return path


@pytest.mark.parametrize("case", sorted(LR_OPTIONS))
def test_lengthrange_options(case):
    xml = '<mujoco><compiler angle="degree">%s</compiler>%s</mujoco>' % (
        LR_OPTIONS[case], LR_BODY)
    with tempfile.TemporaryDirectory(prefix="tn-lr-") as tmp:
        path = _write(tmp, case, xml)
        m = mujoco.MjModel.from_xml_path(path)
        ours = torsion.dump(path, ["actuator_lengthrange"])["actuator_lengthrange"]
    compare.check_rows(ours.reshape(1, -1), m.actuator_lengthrange.reshape(1, -1),
                       COMPILED_TOL, "actuator_lengthrange (%s)" % case)


# ---------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------

BAD = {
    # a muscle on a site transmission has length 0: no range can be found
    "muscle_no_range": ("""<mujoco><worldbody><body><joint name="j"/><geom size=".1"/>
      <site name="s"/></body></worldbody>
      <actuator><motor joint="j"/><general name="flat" site="s" dyntype="muscle"
      gaintype="muscle" biastype="muscle" gainprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2"
      biasprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2"/></actuator></mujoco>""",
                        ["flat", "lengthrange"]),
    # an unlimited hinge keeps turning: the simulated range does not settle
    "muscle_no_converge": ("""<mujoco><worldbody><body><joint name="j" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".04"/></body></worldbody>
      <actuator><motor joint="j"/><muscle name="spin" joint="j"/></actuator></mujoco>""",
                           ["did not converge in actuator 1", "spin"]),
    "muscle_lmin": ("""<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body>
      </worldbody><actuator><muscle joint="j" lmin="1.2"/></actuator></mujoco>""",
                    ["lmin"]),
    "adhesion_negative": ("""<mujoco><worldbody><body name="b"><joint name="j"/>
      <geom size=".1"/></body></worldbody>
      <actuator><adhesion body="b" gain="-1"/></actuator></mujoco>""", ["gain"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_errors(case):
    xml, words = BAD[case]
    with tempfile.TemporaryDirectory(prefix="tn-bad-") as tmp:
        path = _write(tmp, case, xml)
        # MuJoCo refuses the same models
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_path(path)
        proc = torsion.run(["info", path], check=False)
    assert proc.returncode != 0, "torsion-sim accepted %s" % case
    message = proc.stderr.strip()
    assert path in message, message
    for word in words:
        assert word.lower() in message.lower(), "%r not in %r" % (word, message)
