"""SimBatch steps its environments in groups of four (tn_stepGroup: some stages computed for
the whole group in SIMD lanes). Every environment must end with the bits it gets stepped
alone with torsion.mj_step: for each integrator (Euler with and without damping, RK4, and
the implicit ones, which step one by one), for counts that leave a partial group, for
subsets of environments, and when one environment of a group fails with an engine error
(it is reset; the other three end as if stepped alone)."""
import os
import re

import numpy as np
import pytest

import torsion
from torsion.batch import SimBatch
from pycore_models import GYM_ASSETS, REPO_ROOT, random_ctrl, small_arena_capsule_heap

FIELDS = ["qpos", "qvel", "act", "qacc", "qacc_warmstart", "qLD", "qLDiagInv", "qH",
          "qfrc_constraint", "sensordata", "time"]


def _assert_bits(got, want, msg):
    """Equal bit for bit (a -0 where +0 is expected fails too)."""
    got, want = np.ascontiguousarray(got), np.ascontiguousarray(want)
    assert got.shape == want.shape, msg
    assert got.tobytes() == want.tobytes(), msg


def _with_option(path, tmp_path, option):
    """The model at path with its <option> integrator replaced by `option` (or a new
    <option> with it)."""
    text = re.sub(r'(<option[^>]*?)\s+integrator="[^"]*"', r"\1", open(path).read())
    if "<option" in text:
        at = text.index("<option") + len("<option")
        text = text[:at] + " " + option + text[at:]
    else:
        at = text.index(">", text.index("<mujoco")) + 1
        text = text[:at] + "\n  <option " + option + "/>" + text[at:]
    out = tmp_path / os.path.basename(path)
    out.write_text(text)
    return str(out)


def _alone(model, qpos, qvel, ctrls, nstep):
    """Each environment stepped alone: fields after the steps, one dict per environment."""
    out = []
    for e in range(qpos.shape[0]):
        d = torsion.MjData(model)
        d.qpos[:] = qpos[e]
        d.qvel[:] = qvel[e]
        torsion.mj_forward(model, d)
        for ctrl in ctrls:
            if e in ctrl:
                d.ctrl[:] = ctrl[e]
                for _ in range(nstep):
                    torsion.mj_step(model, d)
        out.append({f: np.copy(getattr(d, f)) for f in FIELDS})
    return out


MODELS = [("humanoid.xml", ""), ("half_cheetah.xml", ""), ("ant.xml", ""),
          ("hopper.xml", 'integrator="Euler"'), ("walker2d_v5.xml", 'integrator="implicitfast"'),
          ("humanoid.xml", 'integrator="Euler"')]


@pytest.mark.parametrize("name,option", MODELS)
@pytest.mark.parametrize("n,nthread", [(7, 2), (8, 1), (19, 2), (10, 1)])
def test_groups_match_stepping_alone(tmp_path, name, option, n, nthread):
    """All envs, then a subset of five (one group and one partial), bitwise as alone. With
    19 envs on two threads one thread starts with three groups (two stepped in turn, one
    taken over by whichever thread runs out of work first); with 10 on one thread, two
    groups take turns and the third follows."""
    path = os.path.join(GYM_ASSETS, name)
    if option:
        path = _with_option(path, tmp_path, option)
    model = torsion.MjModel.from_xml_path(path)
    rng = np.random.default_rng(n)
    qpos = model.qpos0 + 0.05 * rng.standard_normal((n, model.nq))
    qvel = 0.5 * rng.standard_normal((n, model.nv))
    batch = SimBatch(model, n, nthread=nthread)
    batch.reset(None, qpos, qvel)
    subset = [6, 0, 3, 5, 2]
    ctrls = []
    for it in range(6):
        ids = list(range(n)) if it % 2 == 0 else subset
        ctrl = random_ctrl(model, len(ids), seed=it)
        batch.step(ctrl, 5, None if it % 2 == 0 else ids)
        ctrls.append({e: ctrl[j] for j, e in enumerate(ids)})
    got = batch.get(FIELDS)
    want = _alone(model, qpos, qvel, ctrls, 5)
    for e in range(n):
        for f in FIELDS:
            _assert_bits(got[f][e], want[e][f], f"env {e} {f}")


@pytest.mark.parametrize("n,bad", [(5, 2), (11, 9)])
def test_failure_in_a_group_keeps_the_others(tmp_path, n, bad):
    """A capsule heap with a 40K arena: env `bad` starts from the settled heap (its contacts
    exhaust the arena at once), the others from the initial pose (no contacts yet). It
    raises FatalError and is reset; the others hold the bits of stepping alone (with 11
    envs on two threads the failing group is the third, first owned by the caller)."""
    model, d = small_arena_capsule_heap(tmp_path)

    qpos = np.tile(model.qpos0, (n, 1))
    qvel = np.zeros((n, model.nv))
    batch = SimBatch(model, n, nthread=2)
    batch.reset(None, qpos, qvel)
    failing = batch.data(bad)  # the settled state, set without a forward pass (which would fail)
    failing.qpos[:], failing.qvel[:] = d.qpos, d.qvel
    with pytest.raises(torsion.FatalError, match=f"env {bad}"):
        batch.step(None, 3)
    got = batch.get(FIELDS)
    assert got["time"][bad] == 0.0
    np.testing.assert_array_equal(got["qpos"][bad], model.qpos0)
    keep = [e for e in range(n) if e != bad]
    want = _alone(model, qpos[keep], qvel[keep],
                  [{e: np.zeros(0) for e in range(len(keep))}], 3)
    for j, e in enumerate(keep):
        assert got["time"][e] > 0
        for f in FIELDS:
            _assert_bits(got[f][e], want[j][f], f"env {e} {f}")


SPECIAL_VALUES_XML = """
<mujoco model="lanes_special_values">
  <option timestep="0.005" integrator="Euler"/>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body name="root" pos="0 0 1.5">
      <freejoint/>
      <geom type="box" size="0.1 0.08 0.06" pos="0.02 0 0" quat="0.9 0.1 0.3 0"/>
      <site name="s0" pos="0.1 0.05 0" quat="0.7 0 0.7 0"/>
      <body pos="0.2 0 0">
        <joint type="ball" pos="-0.05 0.02 0" damping="0.1"/>
        <geom type="capsule" size="0.03 0.1" pos="0.1 0 0" euler="0 90 0"/>
        <body pos="0.25 0 0">
          <joint name="h" type="hinge" axis="0 -1 0" pos="-0.02 0 0.01" damping="0.2"/>
          <joint type="slide" axis="1 0 0" damping="0.5"/>
          <geom type="sphere" size="0.04"/>
          <site name="s1" pos="0 0.02 0"/>
          <camera name="c" mode="trackcom" pos="0 -1 0.2" xyaxes="1 0 0 0 0.2 1"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="h" gear="1"/></actuator>
</mujoco>
"""


def test_special_values_within_one_group():
    """One group whose lanes take different value branches of the kinematics: the initial
    pose exactly (zero hinge angle, unit quaternions), a general state, zero quaternions
    (normalized to the identity) and a quaternion a hair off unit length (left unscaled);
    free, ball, hinge and slide joints, joints off the body origin, geoms and sites off their
    body frames, a tracking camera. Each env holds the bits of stepping alone."""
    model = torsion.MjModel.from_xml_string(SPECIAL_VALUES_XML)
    n = 4
    rng = np.random.default_rng(5)
    qpos = np.tile(model.qpos0, (n, 1))
    qvel = np.zeros((n, model.nv))
    qpos[1] += 0.2 * rng.standard_normal(model.nq)
    qvel[1] = rng.standard_normal(model.nv)
    qpos[2, 3:7] = 0.0       # free joint's quaternion: zero
    qpos[2, 7:11] = 0.0      # ball's quaternion: zero
    qvel[2] = 0.3 * rng.standard_normal(model.nv)
    qpos[3, 3:7] = [1.0 + 1e-16, 0.0, 0.0, 0.0]
    qpos[3, 11] = 1e-3       # a small hinge angle
    batch = SimBatch(model, n, nthread=1)
    batch.reset(None, qpos, qvel)
    ctrls = []
    for it in range(4):
        ctrl = random_ctrl(model, n, seed=10 + it)
        batch.step(ctrl, 3)
        ctrls.append({e: ctrl[e] for e in range(n)})
    got = batch.get(FIELDS + ["xquat", "geom_xmat", "site_xpos", "cam_xpos"])
    for e in range(n):
        d = torsion.MjData(model)
        d.qpos[:], d.qvel[:] = qpos[e], qvel[e]
        torsion.mj_forward(model, d)
        for ctrl in ctrls:
            d.ctrl[:] = ctrl[e]
            for _ in range(3):
                torsion.mj_step(model, d)
        for f in FIELDS + ["xquat", "geom_xmat", "site_xpos", "cam_xpos"]:
            _assert_bits(got[f][e], getattr(d, f), f"env {e} {f}")


@pytest.mark.parametrize("name", ["humanoid.xml", "half_cheetah.xml"])
def test_group_timers_count_as_alone(name):
    """With the stage clock installed (any MjData installs it, as MuJoCo's bindings do),
    grouped environments count the same calls per timer as one stepped alone, with time on
    the same timers."""
    model = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, name))
    alone = torsion.MjData(model)
    for _ in range(6):
        torsion.mj_step(model, alone)
    batch = SimBatch(model, 4, nthread=1)
    batch.step(None, 6)
    want = np.array([alone.timer[k].number for k in range(len(alone.timer))])
    for e in range(4):
        d = batch.data(e)
        number = np.array([d.timer[k].number for k in range(len(d.timer))])
        duration = np.array([d.timer[k].duration for k in range(len(d.timer))])
        np.testing.assert_array_equal(number, want, err_msg=f"env {e}")
        assert np.all(duration[number > 0] > 0), f"env {e}"


@pytest.mark.parametrize("rel", ["tendon_sparse/repeated_joint.xml", "chains/tree.xml",
                                 "islands/crowd.xml", "fluid_light.xml"])
def test_own_models_match_stepping_alone(rel):
    """Tendon armature (the inertia per environment inside a group), ball and free joints,
    islands of contacts, fluid forces: one group, bitwise as alone."""
    model = torsion.MjModel.from_xml_path(os.path.join(REPO_ROOT, "tests", "models", rel))
    n = 4
    rng = np.random.default_rng(7)
    qpos = np.tile(model.qpos0, (n, 1))
    qvel = 0.3 * rng.standard_normal((n, model.nv))
    batch = SimBatch(model, n, nthread=1)
    batch.reset(None, qpos, qvel)
    ctrl = random_ctrl(model, n, seed=3)
    batch.step(ctrl, 20)
    got = batch.get(FIELDS)
    want = _alone(model, qpos, qvel, [{e: ctrl[e] for e in range(n)}], 20)
    for e in range(n):
        for f in FIELDS:
            _assert_bits(got[f][e], want[e][f], f"env {e} {f}")


def test_env_listed_twice_raises():
    """A step or reset naming one env twice raises ValueError and steps nothing (two items
    on one mjData would race, or step it twice at once in a group); reads may repeat ids."""
    model = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "hopper.xml"))
    batch = SimBatch(model, 6)
    with pytest.raises(ValueError, match="env id 1 is listed twice"):
        batch.step(np.zeros((3, model.nu)), 1, env_ids=[1, 4, 1])
    with pytest.raises(ValueError, match="listed twice"):
        batch.reset([2, 2], np.tile(model.qpos0, (2, 1)), np.zeros((2, model.nv)))
    assert np.all(batch.get(["time"])["time"] == 0)
    assert batch.get(["qpos"], env_ids=[3, 3])["qpos"].shape == (2, model.nq)


def _step_and_reset_apart(model, n, qpos, qvel, ctrl, nstep, step_ids, reset_ids, rq, rv):
    """A batch that resets reset_ids, then steps step_ids: fields of every env."""
    batch = SimBatch(model, n, nthread=2)
    batch.reset(None, qpos, qvel)
    batch.reset(reset_ids, rq, rv)
    batch.step(ctrl, nstep, step_ids, rne_post_constraint=True)
    return batch.get(FIELDS + ["cfrc_ext"])


@pytest.mark.parametrize("step_ids,reset_ids,nstep", [
    ([0, 1, 2, 4, 5, 6, 7, 8, 10], [3, 9], 5),        # resets beside a partial last group
    ([6, 0, 3], [1, 2, 4, 5, 7, 8, 9, 10], 3),        # more resets than groups
    ([], [10, 0, 5], 2),                              # resets only
    ([1, 2], [0], 0),                                 # no steps to share the pass with
])
def test_step_with_resets_matches_reset_then_step(step_ids, reset_ids, nstep):
    """step(..., reset_ids=...) shares the resets out over the threads beside the group
    steps: every env ends with the bits of resetting and stepping in two calls, and the
    readout rows of the reset envs are their new states."""
    model = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "humanoid.xml"))
    n = 11
    rng = np.random.default_rng(len(step_ids))
    qpos = model.qpos0 + 0.05 * rng.standard_normal((n, model.nq))
    qvel = 0.5 * rng.standard_normal((n, model.nv))
    rq = model.qpos0 + 0.01 * rng.standard_normal((len(reset_ids), model.nq))
    rv = 0.01 * rng.standard_normal((len(reset_ids), model.nv))
    ctrl = random_ctrl(model, len(step_ids), seed=4)
    want = _step_and_reset_apart(model, n, qpos, qvel, ctrl, nstep, step_ids, reset_ids,
                                 rq, rv)
    batch = SimBatch(model, n, nthread=2)
    batch.reset(None, qpos, qvel)
    batch.set_readout(["qpos", "qvel", "time"])
    batch.step(ctrl, nstep, step_ids, rne_post_constraint=True, reset_ids=reset_ids,
               reset_qpos=rq, reset_qvel=rv)
    read = batch.get(["qpos", "qvel", "time"])
    batch.set_readout([])
    got = batch.get(FIELDS + ["cfrc_ext"])
    for f in FIELDS + ["cfrc_ext"]:
        _assert_bits(got[f], want[f], f)
    for f in ("qpos", "qvel", "time"):
        _assert_bits(read[f], want[f], f"readout {f}")
    np.testing.assert_array_equal(got["time"][reset_ids], 0.0)


def test_step_with_resets_refuses_bad_lists():
    """An env both stepped and reset, or reset rows of the wrong shape, raise and change
    nothing."""
    model = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "hopper.xml"))
    batch = SimBatch(model, 6)
    batch.step(None, 2)
    before = batch.get(["qpos", "time"])
    rows = (np.tile(model.qpos0, (2, 1)), np.zeros((2, model.nv)))
    with pytest.raises(ValueError, match="env id 4 is both stepped and reset"):
        batch.step(np.zeros((3, model.nu)), 1, [1, 4, 5], reset_ids=[0, 4],
                   reset_qpos=rows[0], reset_qvel=rows[1])
    with pytest.raises(ValueError, match="env id 1 is both stepped and reset"):
        batch.step(np.zeros((6, model.nu)), 1, None, reset_ids=[1, 3],
                   reset_qpos=rows[0], reset_qvel=rows[1])
    with pytest.raises(ValueError, match=rf"reset_qpos must have shape \(2, {model.nq}\)"):
        batch.step(np.zeros((1, model.nu)), 1, [5], reset_ids=[0, 2],
                   reset_qpos=rows[0][:, :3], reset_qvel=rows[1])
    with pytest.raises(ValueError, match="listed twice"):
        batch.step(np.zeros((1, model.nu)), 1, [5], reset_ids=[2, 2],
                   reset_qpos=rows[0], reset_qvel=rows[1])
    after = batch.get(["qpos", "time"])
    _assert_bits(after["qpos"], before["qpos"], "qpos")
    _assert_bits(after["time"], before["time"], "time")


@pytest.mark.parametrize("nstep", [3, 0])
def test_failing_reset_beside_steps(tmp_path, nstep):
    """A reset whose forward pass fails (the settled heap's contacts exhaust a 40K arena)
    inside a stepping call (of 3 steps in groups, or of none: then every env is one item):
    FatalError names that env, which is reset to the defaults; the stepped envs hold the
    bits of stepping alone."""
    model, d = small_arena_capsule_heap(tmp_path)
    n = 9
    qpos = np.tile(model.qpos0, (n, 1))
    qvel = np.zeros((n, model.nv))
    batch = SimBatch(model, n, nthread=2)
    batch.reset(None, qpos, qvel)
    steps = [0, 1, 2, 3, 4, 5, 6]
    with pytest.raises(torsion.FatalError, match="env 8"):
        batch.step(None, nstep, steps, reset_ids=[7, 8],
                   reset_qpos=np.stack([model.qpos0, d.qpos]),
                   reset_qvel=np.stack([np.zeros(model.nv), d.qvel]))
    got = batch.get(FIELDS)
    np.testing.assert_array_equal(got["qpos"][8], model.qpos0)
    assert got["time"][7] == 0.0 and got["time"][8] == 0.0
    want = _alone(model, qpos[steps], qvel[steps],
                  [{e: np.zeros(0) for e in range(len(steps))}], nstep)
    for j, e in enumerate(steps):
        for f in FIELDS:
            _assert_bits(got[f][e], want[j][f], f"env {e} {f}")


# every field a forward fills, for the Runge-Kutta tests below (its stages before the last
# may leave some of them out of the datas: the last must write them all)
FORWARD_FIELDS = FIELDS + [
    "xpos", "xquat", "xmat", "xipos", "ximat", "xanchor", "xaxis", "geom_xpos", "geom_xmat",
    "site_xpos", "site_xmat", "cam_xpos", "cam_xmat", "light_xpos", "light_xdir",
    "subtree_com", "cinert", "crb", "cdof", "cvel", "cdof_dot", "M", "qfrc_bias",
    "qfrc_passive", "qfrc_actuator", "actuator_length", "actuator_moment", "ten_length",
    "qfrc_gravcomp", "cacc", "cfrc_int", "cfrc_ext"]

RK4_XML = """
<mujoco model="rk4_transient">
  <option timestep="0.004" integrator="RK4" {option}/>
  <worldbody>
    <light pos="0 0 3" dir="0 0 -1" mode="trackcom"/>
    <geom type="plane" size="5 5 0.1"/>
    <body name="torso" pos="0 0 0.4" gravcomp="0.3">
      <freejoint/>
      <camera name="c" mode="targetbody" target="arm" pos="0 -1 0.3"/>
      <geom type="box" size="0.15 0.1 0.05"/>
      <site name="s0" pos="0.1 0.05 0.02"/>
      <body name="arm" pos="0.2 0 0">
        <joint name="j1" type="hinge" axis="0 1 0" range="-60 60" damping="0.1"/>
        <geom type="capsule" size="0.03 0.1" pos="0.1 0 0" euler="0 90 0"/>
        <site name="s1" pos="0.2 0 0"/>
        <body pos="0.2 0 0">
          <joint name="j2" type="hinge" axis="0 0 1" damping="0.1"/>
          <geom type="sphere" size="0.05" pos="0.05 0 0"/>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="j1" coef="1"/><joint joint="j2" coef="-0.5"/></fixed>
  </tendon>
  <actuator>
    <motor joint="j1" gear="2"/>
    <motor tendon="t" gear="1"/>
    {actuator}
  </actuator>
  {extra}
</mujoco>
"""

RK4_VARIANTS = {
    "lean": {},
    "sensors": {"extra": '<sensor><framepos objtype="site" objname="s1"/>'
                         '<velocimeter site="s0"/><framequat objtype="body" objname="arm"/>'
                         '</sensor>'},
    "site_transmission": {"actuator": '<general site="s1" refsite="s0" gear="0 0 1 0 0 0"/>'},
    "connect": {"extra": '<equality><connect body1="arm" body2="world" anchor="0.2 0 0"'
                         ' solref="0.05 1"/></equality>'},
    "fluid": {"option": 'density="1.2" viscosity="0.00002"'},
    "energy": {"extra": '<option><flag energy="enable"/></option>'},
}


@pytest.mark.parametrize("variant", sorted(RK4_VARIANTS))
def test_rk4_group_writes_every_forward_field(variant):
    """Runge-Kutta in groups: the stages before the last leave out of the datas what no
    later stage of a plain model reads; the datas still end with every field (poses,
    cameras and lights, composite inertias, velocities, sensors, energy) bitwise as stepped
    alone. Sensors, a site transmission, a connect constraint and fluid forces read the
    poses inside a stage and must get the whole forward (each fails when forced lean);
    energy, an applied force and gravity compensation read only the inertial frames and
    the inertia, which every stage writes."""
    parts = {"option": "", "actuator": "", "extra": ""}
    parts.update(RK4_VARIANTS[variant])
    model = torsion.MjModel.from_xml_string(RK4_XML.format(**parts))
    n = 5
    rng = np.random.default_rng(11)
    qpos = np.tile(model.qpos0, (n, 1))
    qpos[:, 7:] += 0.3 * rng.standard_normal((n, model.nq - 7))
    qvel = 0.5 * rng.standard_normal((n, model.nv))
    xfrc = np.zeros((n, model.nbody, 6))
    xfrc[2, 1] = [0.5, 0, 2.0, 0, 0.1, 0]
    batch = SimBatch(model, n, nthread=1)
    batch.reset(None, qpos, qvel)
    for e in range(n):
        batch.data(e).xfrc_applied[:] = xfrc[e]
    ctrls = [random_ctrl(model, n, seed=20 + it) for it in range(3)]
    for ctrl in ctrls:
        batch.step(ctrl, 4, rne_post_constraint=True)
    got = batch.get(FORWARD_FIELDS)
    for e in range(n):
        d = torsion.MjData(model)
        d.qpos[:], d.qvel[:] = qpos[e], qvel[e]
        d.xfrc_applied[:] = xfrc[e]
        torsion.mj_forward(model, d)
        for ctrl in ctrls:
            d.ctrl[:] = ctrl[e]
            for _ in range(4):
                torsion.mj_step(model, d)
            torsion.mj_rnePostConstraint(model, d)
        for f in FORWARD_FIELDS:
            _assert_bits(got[f][e], getattr(d, f), f"{variant}: env {e} {f}")
        grouped = batch.data(e)
        for f in ("energy", "efc_force", "sensordata"):
            _assert_bits(getattr(grouped, f), getattr(d, f), f"{variant}: env {e} {f}")
