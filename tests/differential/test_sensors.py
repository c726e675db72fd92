"""Sensors: d->sensordata after mj_forward and along rollouts, against MuJoCo 3.14, through
`torsion-sim forward/rollout --sensordata`, contacts and constraints on (both engines with
the contact checks' flags, oracle.CONTACT_ORACLE: MuJoCo's defaults), the default solver:
- every corpus model with sensors and four local scenes written here (every sensor type
  Torsion evaluates, with reference frames and cutoffs; connect and weld forces in
  cfrc_ext; rangefinders against every geom type, a height field and a mesh; touch sites
  of every shape), at 50 random states: each sensor's values within 1e-8 (compare.py's
  relative measure per sensor and state). The acceleration-stage sensors (touch, force,
  accelerometer, ...) depend on the constraint solve, which test_constraint_forward.py
  checks: they are compared at the states where Torsion's qacc matches MuJoCo's within 1e-9,
  which must be at least 40 of the 50;
- the same models over 100-step rollouts from 4 states (mujoco.rollout's sensordata);
- sensordata zero with the sensor flag disabled, identical for 1 and 3 threads, and a
  clean refusal for sensor types Torsion does not evaluate.
"""
import atexit
import os
import shutil
import tempfile

import mujoco
import numpy as np
import pytest
from mujoco import rollout as mj_rollout

from harness import compare, corpus, oracle, torsion

TOL = 1e-8
QACC_AGREE = 1e-9   # states whose qacc agrees this well get their acc sensors compared
MIN_AGREE = 40      # ... and at least this many of the NSTATE must
NSTATE = 50
NROLL = 4
NSTEP = 100

# every sensor type Torsion evaluates, frames with references, cutoffs, a user sensor
ZOO_XML = """
<mujoco model="sensor_zoo">
  <option timestep="0.005" magnetic="0.1 -0.4 0.3"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <site name="wsite" pos="0.3 0.2 0.5" quat="0.9 0.1 0.3 0.2"/>
    <body name="b1" pos="0 0 1" quat="0.95 0.1 0.2 0.1">
      <freejoint name="free"/>
      <geom name="g1" type="box" size=".1 .15 .08" pos="0.01 0.02 0" quat="0.9 0.3 0.1 0"/>
      <site name="s1" type="box" pos="0.05 0 -0.05" size=".2 .2 .1" quat="0.8 0.1 0.5 0.3"/>
      <site name="s1b" type="sphere" pos="0 0 -0.08" size=".05"/>
      <camera name="cam1" pos="0.1 0.1 0.1" quat="0.7 0.7 0 0"/>
      <body name="b2" pos="0.2 0 0">
        <joint name="hinge" type="hinge" axis="0 1 0.3" range="-0.5 0.5" limited="true"/>
        <geom name="g2" type="capsule" size=".04 .1" fromto="0 0 0 .2 0 0"/>
        <site name="s2" type="capsule" size=".05 .12" pos=".1 0 0" zaxis="1 0 0"/>
        <body name="b3" pos="0.2 0 0">
          <joint name="ball" type="ball" range="0 0.3" limited="true"/>
          <geom name="g3" type="sphere" size=".05" pos=".05 0 0"/>
          <site name="s3" type="ellipsoid" size=".06 .07 .08" pos=".05 0 0"/>
          <body name="b4" pos=".1 0 0">
            <joint name="slide" type="slide" axis="1 0 0" range="-0.1 0.2" limited="true"/>
            <geom name="g4" type="cylinder" size=".03 .05"/>
            <site name="s4" type="cylinder" size=".05 .06"/>
          </body>
        </body>
      </body>
    </body>
    <body name="c1" pos="1 0 0.5">
      <joint name="ch" type="hinge" axis="1 0 0"/>
      <geom type="ellipsoid" size=".1 .2 .15"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="t1" limited="true" range="-0.2 0.2">
      <joint joint="hinge" coef="1"/>
      <joint joint="slide" coef="-0.5"/>
    </fixed>
  </tendon>
  <actuator>
    <motor name="a1" joint="hinge" gear="2"/>
    <position name="a2" joint="slide" kp="10"/>
    <motor name="a3" tendon="t1" gear="1.5"/>
  </actuator>
  <sensor>
    <touch site="s1"/>
    <touch site="s1b" cutoff="0.5"/>
    <accelerometer site="s2"/>
    <velocimeter site="s2"/>
    <gyro site="s3"/>
    <force site="s2"/>
    <torque site="s2"/>
    <magnetometer site="s1"/>
    <rangefinder site="s1b"/>
    <rangefinder site="wsite"/>
    <rangefinder site="s4" cutoff="0.4"/>
    <jointpos joint="hinge"/>
    <jointvel joint="hinge" cutoff="0.3"/>
    <tendonpos tendon="t1"/>
    <tendonvel tendon="t1"/>
    <actuatorpos actuator="a1"/>
    <actuatorvel actuator="a2"/>
    <actuatorfrc actuator="a2"/>
    <jointactuatorfrc joint="hinge"/>
    <jointactuatorfrc joint="slide"/>
    <tendonactuatorfrc tendon="t1"/>
    <ballquat joint="ball"/>
    <ballangvel joint="ball"/>
    <jointlimitpos joint="hinge"/>
    <jointlimitvel joint="hinge"/>
    <jointlimitfrc joint="hinge"/>
    <jointlimitpos joint="ball"/>
    <jointlimitfrc joint="slide"/>
    <tendonlimitpos tendon="t1"/>
    <tendonlimitvel tendon="t1"/>
    <tendonlimitfrc tendon="t1"/>
    <framepos objtype="site" objname="s3"/>
    <framepos objtype="body" objname="b3" reftype="geom" refname="g1"/>
    <framequat objtype="xbody" objname="b4" reftype="site" refname="s2"/>
    <framequat objtype="camera" objname="cam1"/>
    <framequat objtype="body" objname="b2" reftype="camera" refname="cam1"/>
    <framexaxis objtype="geom" objname="g2" reftype="body" refname="b1"/>
    <frameyaxis objtype="body" objname="b2"/>
    <framezaxis objtype="site" objname="s4" reftype="xbody" refname="b2"/>
    <framelinvel objtype="site" objname="s3"/>
    <framelinvel objtype="geom" objname="g4" reftype="site" refname="s1"/>
    <frameangvel objtype="body" objname="b4" reftype="camera" refname="cam1"/>
    <frameangvel objtype="xbody" objname="b3"/>
    <framelinacc objtype="site" objname="s4"/>
    <frameangacc objtype="geom" objname="g3"/>
    <subtreecom body="b2"/>
    <subtreelinvel body="b1"/>
    <subtreeangmom body="b2"/>
    <insidesite site="s1" objtype="geom" objname="g1"/>
    <insidesite site="s2" objtype="body" objname="b3"/>
    <insidesite site="s3" objtype="xbody" objname="b4"/>
    <insidesite site="s4" objtype="site" objname="s1b"/>
    <e_potential/>
    <e_kinetic/>
    <clock/>
    <framepos objtype="site" objname="s3" cutoff="0.2"/>
    <user dim="2" needstage="vel" datatype="real"/>
  </sensor>
</mujoco>
"""

# connect and weld equalities (bodies and sites) feed cfrc_ext, read by force and torque
# (no contacts: a box landing on the floor is issue 3's business, see test_contacts.py)
EQUALITY_XML = """
<mujoco model="sensor_equality">
  <option><flag contact="disable"/></option>
  <worldbody>
    <body name="a" pos="0 0 1" quat="0.9 0.2 0.1 0.3">
      <freejoint/>
      <geom type="box" size=".1 .2 .1"/>
      <site name="sa" pos="0.1 0.05 0" quat="0.8 0.2 0.5 0.1"/>
    </body>
    <body name="b" pos="0.4 0.1 1.2" quat="0.7 0.1 0.6 0.3">
      <freejoint/>
      <geom type="box" size=".1 .1 .15"/>
      <site name="sb" pos="0 0.1 0.05" quat="0.9 0.1 -0.3 0.2"/>
      <body name="b2" pos="0.2 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <geom type="capsule" size=".03" fromto="0 0 0 0.2 0 0"/>
        <site name="sb2" pos="0.2 0 0"/>
      </body>
    </body>
    <body name="c" pos="-0.4 0.1 1.2">
      <freejoint/>
      <geom type="sphere" size=".1"/>
      <site name="sc" pos="0.05 0 0.02" quat="0.6 0.3 0.1 0.2"/>
    </body>
    <body name="e" pos="-0.8 0.1 1.2">
      <joint type="ball"/>
      <geom type="sphere" size=".1" pos="0.1 0 0"/>
      <site name="se" pos="0.2 0 0"/>
    </body>
  </worldbody>
  <equality>
    <connect body1="a" body2="b" anchor="0.1 0.2 0.05"/>
    <weld body1="c" body2="a" relpose="0.3 0 0 1 0 0 0" torquescale="2" anchor="0.05 0.01 0"/>
    <weld site1="sc" site2="se" torquescale="0.5"/>
    <connect site1="sb2" site2="sa"/>
    <connect body1="e" body2="world" anchor="0 0 0"/>
  </equality>
  <sensor>
    <accelerometer site="sa"/>
    <force site="sb"/>
    <torque site="sb2"/>
    <force site="sc"/>
    <torque site="se"/>
    <framelinacc objtype="body" objname="b2"/>
  </sensor>
</mujoco>
"""


def _rays_xml():
    """A probe body with 40 rangefinders in random directions among every geom type, a
    finite and a tilted plane, a height field (elevations k/8, exact after MuJoCo's float
    normalization), a mesh, an invisible geom and one invisible through its material."""
    r = np.random.default_rng(3)
    sites, sensors = [], []
    for i in range(40):
        q = r.normal(size=4)
        q /= np.linalg.norm(q)
        p = r.normal(scale=0.05, size=3)
        sites.append('<site name="r%d" pos="%.4f %.4f %.4f" quat="%.4f %.4f %.4f %.4f"/>'
                     % ((i,) + tuple(p) + tuple(q)))
        sensors.append('<rangefinder site="r%d"/>' % i)
    elevation = " ".join("%g" % (k / 8) for k in r.integers(0, 9, size=33))
    return """
<mujoco model="sensor_rays">
  <asset>
    <hfield name="hf" nrow="5" ncol="7" size="1.5 1 0.6 0.3" elevation="0 1 %s"/>
    <mesh name="tet" vertex="0 0 0  0.4 0 0  0 0.5 0  0 0 0.6  0.3 0.3 0.3"/>
    <material name="clear" rgba="1 1 1 0"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="4 4 .1" pos="0 0 -1"/>
    <geom name="wall" type="plane" size="1 1 .1" pos="2 0 0" zaxis="-1 0 0.2"/>
    <geom name="hf" type="hfield" hfield="hf" pos="0 0 1.2" quat="0 1 0 0"/>
    <geom name="sph" type="sphere" size=".3" pos="-1 0.5 0"/>
    <geom name="cap" type="capsule" size=".2 .4" pos="0 -1.2 0" quat="0.9 0.3 0.2 0.1"/>
    <geom name="ell" type="ellipsoid" size=".3 .2 .5" pos="1 1 0.3" quat="0.8 0.1 0.4 0.2"/>
    <geom name="cyl" type="cylinder" size=".25 .3" pos="-1 -1 -0.2" quat="0.7 0.7 0.1 0"/>
    <geom name="box" type="box" size=".2 .3 .4" pos="1 -1 0" quat="0.9 0.1 0.1 0.3"/>
    <geom name="mesh" type="mesh" mesh="tet" pos="-1.2 0.3 -0.5" quat="0.95 0.2 0.1 0.1"/>
    <geom name="ghost" type="sphere" size=".4" pos="0.6 0 -0.5" rgba="1 1 1 0"/>
    <geom name="ghost2" type="box" size=".3 .3 .3" pos="-0.5 0.9 0.4" material="clear"/>
    <body name="probe" pos="0 0 0">
      <freejoint/>
      <geom type="sphere" size="0.05" contype="0" conaffinity="0"/>
      %s
    </body>
  </worldbody>
  <sensor>
    %s
  </sensor>
</mujoco>
""" % (elevation, "\n      ".join(sites), "\n    ".join(sensors))


# bodies of several shapes near the floor, touch sites of every shape on them
TOUCH_XML = """
<mujoco model="sensor_touch">
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="box" pos="0 0 0.1">
      <freejoint/>
      <geom type="box" size=".2 .15 .1"/>
      <site name="t_box" type="box" size=".21 .16 .05" pos="0 0 -0.08"/>
      <site name="t_above" type="box" size=".25 .2 .05" pos="0 0 0.3"/>
      <site name="t_below" type="box" size=".25 .2 .05" pos="0 0 -0.4"/>
    </body>
    <body name="cap" pos="0.7 0 0.1">
      <freejoint/>
      <geom type="capsule" size=".08 .2" quat="0.7 0 0.7 0"/>
      <site name="t_cap" type="capsule" size=".09 .21" quat="0.7 0 0.7 0"/>
      <site name="t_ell" type="ellipsoid" size=".3 .1 .1" pos="0 0 -0.05"/>
    </body>
    <body name="cyl" pos="-0.7 0 0.15">
      <freejoint/>
      <geom type="cylinder" size=".12 .1"/>
      <site name="t_cyl" type="cylinder" size=".13 .05" pos="0 0 -0.08"/>
    </body>
    <body name="ball" pos="0 0.7 0.1">
      <freejoint/>
      <geom type="sphere" size=".1" condim="6" friction="1 0.05 0.01"/>
      <site name="t_ball" type="sphere" size=".11"/>
    </body>
  </worldbody>
  <sensor>
    <touch site="t_box"/>
    <touch name="touch_above" site="t_above"/>
    <touch name="touch_below" site="t_below"/>
    <touch site="t_cap"/>
    <touch site="t_ell"/>
    <touch site="t_cyl"/>
    <touch site="t_ball"/>
    <force site="t_ball"/>
    <accelerometer site="t_cyl"/>
  </sensor>
</mujoco>
"""

LOCAL_XML = {"zoo": ZOO_XML, "equality": EQUALITY_XML, "rays": _rays_xml(),
             "touch": TOUCH_XML}
LOCAL_DIR = tempfile.mkdtemp(prefix="tn-sensor-models-")
atexit.register(shutil.rmtree, LOCAL_DIR, True)


def _local_model(name):
    """A local scene of this file as a corpus.Model (its XML written once per session)."""
    path = os.path.join(LOCAL_DIR, name + ".xml")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(LOCAL_XML[name])
    return corpus.Model("sensors/" + name, path)


def _has_sensors(model):
    """Does MuJoCo compile the model with at least one sensor?"""
    return mujoco.MjModel.from_xml_path(model.path).nsensor > 0


SENSOR_MODELS = [m for m in corpus.all_models() if _has_sensors(m)] + \
    [_local_model(name) for name in LOCAL_XML]
by_sensor_model = pytest.mark.parametrize("model", SENSOR_MODELS, ids=str)


# ---- both sides ----
def _load(model):
    """MuJoCo's model with the contact checks' oracle flags (oracle.CONTACT_ORACLE)."""
    return oracle.load(model.path, disable=oracle.CONTACT_ORACLE)


def _mujoco_forward(m, states, ctrl):
    """MuJoCo (qacc [B, nv], sensordata [B, ns]) after mj_forward on fresh data per state,
    as torsion-sim does."""
    d = mujoco.MjData(m)
    qacc, sens = np.zeros((len(states), m.nv)), np.zeros((len(states), m.nsensordata))
    for k, s in enumerate(states):
        mujoco.mj_resetData(m, d)
        mujoco.mj_setState(m, d, s, oracle.FULLPHYSICS)
        if m.nu:
            d.ctrl[:] = ctrl[k]
        mujoco.mj_forward(m, d)
        qacc[k], sens[k] = d.qacc, d.sensordata
    return qacc, sens


def _torsion_forward(path, states, ctrl, disable=()):
    """torsion-sim forward --sensordata: (qacc [B, nv], sensordata [B, ns])."""
    with tempfile.TemporaryDirectory(prefix="tn-sens-") as tmp:
        args = ["forward", path, "--state", torsion._save(tmp, "state", states),
                "--out", os.path.join(tmp, "qacc.npy"),
                "--sensordata", os.path.join(tmp, "sens.npy")]
        if ctrl is not None:
            args += ["--ctrl", torsion._save(tmp, "ctrl", ctrl)]
        if disable:
            args += ["--disable", ",".join(disable)]
        torsion.run(args)
        return (torsion._load(os.path.join(tmp, "qacc.npy")),
                torsion._load(os.path.join(tmp, "sens.npy")))


def _torsion_rollout(path, states, ctrl, nstep, threads=1):
    """torsion-sim rollout --sensordata: (states [B, N, nstate], sensordata [B, N, ns])."""
    with tempfile.TemporaryDirectory(prefix="tn-sens-roll-") as tmp:
        args = ["rollout", path, "--state", torsion._save(tmp, "state", states),
                "--nstep", nstep, "--threads", threads,
                "--out", os.path.join(tmp, "out.npy"),
                "--sensordata", os.path.join(tmp, "sens.npy")]
        if ctrl is not None:
            args += ["--ctrl", torsion._save(tmp, "ctrl", ctrl)]
        torsion.run(args)
        return (torsion._load(os.path.join(tmp, "out.npy")),
                torsion._load(os.path.join(tmp, "sens.npy")))


# ---- comparison per sensor ----
def _sensor_name(m, i):
    """'name (type)' of sensor i."""
    name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SENSOR, i) or "#%d" % i
    return "%s (%s)" % (name, mujoco.mjtSensor(int(m.sensor_type[i])).name[len("mjSENS_"):])


def _check_sensors(m, ours, theirs, rows_acc, what):
    """Each sensor's values within TOL at every row (acceleration-stage sensors only at
    the rows where rows_acc is set); all failures in one message."""
    __tracebackhide__ = True
    compare.check_shape(ours, theirs, what)
    failures = []
    for i in range(m.nsensor):
        adr, dim = m.sensor_adr[i], m.sensor_dim[i]
        rows = rows_acc if int(m.sensor_needstage[i]) == int(mujoco.mjtStage.mjSTAGE_ACC) else \
            np.ones(ours.shape[:-1], dtype=bool)
        a, b = ours[..., adr:adr + dim][rows], theirs[..., adr:adr + dim][rows]
        err = compare.row_errors(a, b)
        if err.size and err.max() > TOL:
            k = int(np.argmax(err))
            failures.append("sensor %d %s: err %.3g in %d of %d rows; worst: torsion %s, "
                            "mujoco %s" % (i, _sensor_name(m, i), err[k], int(np.sum(err > TOL)),
                                           err.size, a[k], b[k]))
    assert not failures, "%s exceeds %.0e:\n  %s" % (what, TOL, "\n  ".join(failures))


# ---- tests ----
@by_sensor_model
def test_sensordata_random_states(model):
    m = _load(model)
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model.id, "sensors"))
    qacc_ref, sens_ref = _mujoco_forward(m, states, ctrl)
    qacc, sens = _torsion_forward(model.path, states, ctrl if m.nu else None)
    agree = compare.row_errors(qacc, qacc_ref) <= QACC_AGREE
    assert agree.sum() >= MIN_AGREE, (
        "qacc agrees with MuJoCo's (%.0e) at only %d of %d states: the constraint solve "
        "differs (see test_constraint_forward.py), too few states to check the acceleration "
        "sensors" % (QACC_AGREE, agree.sum(), NSTATE))
    _check_sensors(m, sens, sens_ref, agree, "sensordata at random states")


@by_sensor_model
def test_sensordata_rollout(model):
    m = _load(model)
    r = oracle.rng(model.id, "sensor-rollout")
    s0, _ = oracle.random_states(m, NROLL, r, spread=0.3)
    ctrl = np.stack([oracle.smooth_controls(m, NSTEP, r) for _ in range(NROLL)])
    states_ref, sens_ref = mj_rollout.rollout(m, mujoco.MjData(m), s0,
                                              ctrl if m.nu else None, nstep=NSTEP)
    states, sens = _torsion_rollout(model.path, s0, ctrl if m.nu else None, NSTEP)
    compare.check_states(m, states, states_ref, TOL, "rollout states")
    _check_sensors(m, sens, sens_ref, np.ones(sens.shape[:-1], dtype=bool),
                   "sensordata along rollouts")


def test_touch_resting():
    # upright bodies settling on the floor: contact normals point up, so a touch site below
    # a body on the floor counts (the normal ray points away from the sensor's body) and one
    # above it does not; MuJoCo's trajectory states, Torsion's forward at each
    model = _local_model("touch")
    m = _load(model)
    d = mujoco.MjData(m)
    states = np.zeros((60, oracle.nstate(m)))
    for k in range(len(states)):
        mujoco.mj_step(m, d)
        mujoco.mj_getState(m, d, states[k], oracle.FULLPHYSICS)
    qacc_ref, sens_ref = _mujoco_forward(m, states, None)
    qacc, sens = _torsion_forward(model.path, states, None)
    below, above = (m.sensor_adr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SENSOR, n)]
                    for n in ("touch_below", "touch_above"))
    assert np.count_nonzero(sens_ref[:, below]) >= 10 and not np.any(sens_ref[:, above]), \
        "the scene no longer tests the touch ray direction"
    _check_sensors(m, sens, sens_ref, compare.row_errors(qacc, qacc_ref) <= QACC_AGREE,
                   "sensordata of resting bodies")


def test_rollout_threads():
    model = _local_model("zoo")
    m = _load(model)
    r = oracle.rng(model.id, "sensor-threads")
    s0, _ = oracle.random_states(m, 5, r, spread=0.3)
    ctrl = np.stack([oracle.smooth_controls(m, 20, r) for _ in range(5)])
    one = _torsion_rollout(model.path, s0, ctrl, 20, threads=1)
    three = _torsion_rollout(model.path, s0, ctrl, 20, threads=3)
    assert np.array_equal(one[0], three[0]) and np.array_equal(one[1], three[1]), \
        "rollout states or sensordata differ between 1 and 3 threads"


def test_sensor_flag_disabled():
    model = _local_model("zoo")
    m = oracle.load(model.path, disable=oracle.CONTACT_ORACLE + ("sensor",))
    states, ctrl = oracle.random_states(m, 5, oracle.rng(model.id, "sensor-off"))
    _, sens_ref = _mujoco_forward(m, states, ctrl)
    _, sens = _torsion_forward(model.path, states, ctrl, disable=("sensor",))
    assert not np.any(sens_ref), "MuJoCo computed sensors with the sensor flag disabled"
    assert not np.any(sens), "sensordata is not zero with the sensor flag disabled"


def test_unevaluated_sensor_type_refused(tmp_path):
    path = tmp_path / "distance.xml"
    path.write_text("""
<mujoco>
  <worldbody>
    <geom name="a" type="sphere" size=".1"/>
    <body pos="1 0 0"><freejoint/><geom name="b" type="sphere" size=".1"/></body>
  </worldbody>
  <sensor><distance geom1="a" geom2="b"/></sensor>
</mujoco>""")
    m = oracle.load(str(path), disable=oracle.CONTACT_ORACLE)
    states, _ = oracle.random_states(m, 2, oracle.rng("sensors", "refused"))
    with tempfile.TemporaryDirectory(prefix="tn-sens-ref-") as tmp:
        sens = os.path.join(tmp, "sens.npy")
        proc = torsion.run(["forward", path, "--state", torsion._save(tmp, "state", states),
                            "--out", os.path.join(tmp, "qacc.npy"), "--sensordata", sens],
                           check=False)
        assert proc.returncode > 0, "forward --sensordata accepted an unevaluated sensor type"
        assert "does not evaluate" in proc.stderr, "unclear refusal: %r" % proc.stderr
        assert not os.path.exists(sens), "sensordata written for an unevaluated sensor type"
