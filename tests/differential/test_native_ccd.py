"""MuJoCo 3.14's native convex collision (its default: nativeccd not disabled): the contact
sets of convex pairs (meshes, cylinders, ellipsoids, boxes and capsules against each other,
height-field prisms) equal MuJoCo's under MuJoCo's default flags on both sides.

Scenes: small models of tests/models/nativeccd (pairs.xml: convex bodies dropped on each
other and on a table; hfield.xml: convex geoms dropped on a height field; deep.xml: pairs
pushed from apart to deep penetration and tilted, one with a margin), the capsule heap and
the tray of mixed primitives of tests/models/scenes, Menagerie entry
points with mesh contacts (one on a height field; grippers and hands whose hulls have many
polygons facing within the clipping tolerance, where the first polygon by index is taken
and mirror-symmetric meshes tie in the support search), the Gymnasium-Robotics Fetch
tasks and dm_control models with ellipsoids, cylinders and boxes. States come from MuJoCo's
trajectory (random-walk controls, as test_mesh_contacts.py) or, for deep.xml, from a grid
of slide and hinge positions; all go to one `torsion-sim contacts` call per scene. Sets are
compared by harness/contacts.py (same count per geom pair, dist within 1e-9, pos and frame
within 1e-6).

test_native_robot_states checks the robot suite's contact states (test_robots.py: settling
trajectory, perturbed and random states) of grippers whose mirror-symmetric meshes tie in
the support search (the hill climb's start decides).

test_legacy_libccd keeps MuJoCo's legacy path (libccd's MPR, nativeccd disabled in both
engines) checked on a few mesh scenes.
"""
import os

import mujoco
import numpy as np
import pytest

from harness import contacts, corpus, menagerie, oracle, robots, torsion
from harness import constraint_cases as cc

import test_mesh_contacts as tmc

MODELS = os.path.join(corpus.REPO_ROOT, "tests", "models", "nativeccd")
SCENES = os.path.join(corpus.REPO_ROOT, "tests", "models", "scenes")
FETCH = corpus._package_dir("gymnasium_robotics", "envs", "assets", "fetch")
DMC = corpus._package_dir("dm_control", "suite")

# Menagerie entry points with mesh-mesh, mesh-box and mesh-primitive contacts
MENAGERIE = ["trs_so_arm100/scene.xml", "umi_gripper/scene.xml",
             "robotstudio_so101/scene_box.xml", "pal_tiago/scene_motor.xml",
             "boston_dynamics_spot/scene_arm.xml", "kinova_gen3/scene.xml",
             "google_barkour_vb/scene.xml", "google_barkour_vb/scene_hfield_mjx.xml",
             "leap_hand/scene_left.xml", "robotiq_2f85/scene.xml",
             "ufactory_xarm7/scene.xml", "stanford_tidybot/scene.xml",
             "unitree_g1/scene_with_hands.xml", "shadow_hand/scene_right.xml",
             "aloha/scene.xml"]
# dm_control models with ellipsoids, cylinders and boxes in contact
DM_CONTROL = ["dog.xml", "quadruped.xml", "humanoid_CMU.xml", "manipulator.xml", "stacker.xml"]
FETCH_TASKS = ["push.xml", "pick_and_place.xml"]

NSTEP = 600
EVERY = 60
LOCAL_NSTEP = 500
LOCAL_EVERY = 10
CTRL_STEP = 0.03

# Menagerie entry points with spheres touching large meshes (hill climbing) at the states of
# test_mesh_contacts.py, and how many perturbed copies of each such state are added
SMOOTH_MESH = ["unitree_g1/scene_with_hands.xml"]
SMOOTH_MESH_NPERTURB = 8

# robots whose test_robots.py contact states hit exact support ties (ids of robots.py)
ROBOT_STATES = ["men/robotiq_2f85/scene", "men/ufactory_xarm7/scene",
                "men/stanford_tidybot/scene", "gr/fetch/pick_and_place"]

# scenes run with nativeccd disabled in both engines (libccd's MPR)
LEGACY = ["umi_gripper/scene.xml", "robotstudio_so101/scene_box.xml"]


def _scenes():
    """(id, absolute path, number of steps, sampling period) of every trajectory scene."""
    out = [("local/" + f[:-4], os.path.join(MODELS, f), LOCAL_NSTEP, LOCAL_EVERY)
           for f in ("pairs.xml", "hfield.xml")]
    out += [("local/scenes/" + f[:-4], os.path.join(SCENES, f), 1500, 15)
            for f in ("capsule_heap.xml", "drop_tray.xml")]
    out += [("menagerie/" + rel[:-4], rel, NSTEP, EVERY) for rel in MENAGERIE]
    out += [("fetch/" + f[:-4], os.path.join(FETCH, f), NSTEP, EVERY) for f in FETCH_TASKS]
    out += [("dm_control/" + f[:-4], os.path.join(DMC, f), NSTEP, EVERY) for f in DM_CONTROL]
    return out


def _path(spec):
    if os.path.isabs(spec):
        return spec
    robot, scene = spec.split("/", 1)
    return menagerie.path(robot, scene)


def _trajectory(m, model_id, nstep, every, purpose="native-ccd"):
    """SPEC states along MuJoCo's trajectory under random-walk controls."""
    r = oracle.rng(model_id, purpose)
    d = mujoco.MjData(m)
    if m.nkey:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    lo, hi = oracle.ctrl_bounds(m)
    states = []
    for t in range(nstep):
        if m.nu:
            step = CTRL_STEP * (hi - lo) * r.standard_normal(m.nu)
            d.ctrl[:] = np.clip(d.ctrl + step, lo, hi)
        mujoco.mj_step(m, d)
        if (t + 1) % every == 0:
            states.append(cc.get_state(m, d))
    return np.array(states)


def _check(model_id, path, states, m, disable=()):
    theirs = [cc.forward_contacts(m, s) for s in states]
    ours = torsion.contacts(path, states, disable=disable, spec=cc.SPEC_NAME, native=True)
    n = contacts.check_sets(m, ours, theirs, "contacts of %s" % model_id)
    assert n > 0, "%s: no contacts in any state; the check would be empty" % model_id


@pytest.mark.parametrize("model_id,spec,nstep,every", _scenes(), ids=[s[0] for s in _scenes()])
def test_native_contact_set(model_id, spec, nstep, every):
    path = _path(spec)
    m = oracle.load(path, disable=())
    assert not m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_NATIVECCD
    _check(model_id, path, _trajectory(m, model_id, nstep, every), m)


def test_native_deep_penetration():
    """deep.xml: each pair on a slide joint (from 2 cm apart to deep overlap) and a hinge
    (tilts up to 0.6 rad), on a grid of positions."""
    path = os.path.join(MODELS, "deep.xml")
    m = oracle.load(path, disable=())
    d = mujoco.MjData(m)
    slides = [j for j in range(m.njnt) if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_SLIDE]
    hinges = [j for j in range(m.njnt) if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_HINGE]
    states = []
    for z in np.linspace(0.02, -0.05, 8):
        for a in (0.0, 0.013, 0.2, 0.6):
            mujoco.mj_resetData(m, d)
            for j in slides:
                d.qpos[m.jnt_qposadr[j]] = z
            for j in hinges:
                d.qpos[m.jnt_qposadr[j]] = a
            states.append(cc.get_state(m, d))
    _check("local/deep", path, np.array(states), m)


def _smooth_mesh_part(m, cset):
    """The contacts of a set between a mesh and a sphere, capsule or ellipsoid."""
    smooth = (int(mujoco.mjtGeom.mjGEOM_SPHERE), int(mujoco.mjtGeom.mjGEOM_CAPSULE),
              int(mujoco.mjtGeom.mjGEOM_ELLIPSOID))
    mesh = int(mujoco.mjtGeom.mjGEOM_MESH)
    types = [(int(m.geom_type[g1]), int(m.geom_type[g2])) for g1, g2 in cset["geom"]]
    keep = np.array([(t1 in smooth and t2 == mesh) or (t2 in smooth and t1 == mesh)
                     for t1, t2 in types], dtype=bool).reshape(-1)
    return {k: v[keep] for k, v in cset.items()}


@pytest.mark.parametrize("spec", SMOOTH_MESH)
def test_native_smooth_mesh(spec):
    """Spheres, capsules and ellipsoids against large meshes (the hull graph's hill climb,
    warm-started from the previous support vertex: on nearly flat hull patches round-off
    leaves local maxima, and the climb must stop where MuJoCo's does, or GJK takes another
    number of steps). States: test_mesh_contacts.py's trajectory states of the scene, and
    around each that has such contacts SMOOTH_MESH_NPERTURB copies with qpos perturbed.
    Only these pairs are compared: their contacts do not depend on the order of the mesh
    polygons."""
    path = _path(spec)
    m = oracle.load(path, disable=())
    base = tmc._states(m, "menagerie/" + spec[:-4], tmc.NSTEP, tmc.EVERY)
    r = oracle.rng("smooth-mesh/" + spec, "perturb")
    d = mujoco.MjData(m)
    states = list(base)
    for s in base:
        if not len(_smooth_mesh_part(m, cc.forward_contacts(m, s))["dist"]):
            continue
        for _ in range(SMOOTH_MESH_NPERTURB):
            cc.set_state(m, d, s)
            d.qpos[:] = cc.perturb_qpos(m, d.qpos, r, 1e-3)
            states.append(cc.get_state(m, d))
    states = np.array(states)
    theirs = [_smooth_mesh_part(m, cc.forward_contacts(m, s)) for s in states]
    ours = [_smooth_mesh_part(m, c) for c in
            torsion.contacts(path, states, spec=cc.SPEC_NAME, native=True)]
    n = contacts.check_sets(m, ours, theirs, "sphere/capsule-mesh contacts of %s" % spec)
    assert n > 0, "%s: no sphere/capsule-mesh contacts; the check would be empty" % spec


@pytest.mark.parametrize("model_id", ROBOT_STATES)
def test_native_robot_states(model_id):
    """The robot suite's contact states of robots whose meshes are mirror-symmetric: exact
    ties in the support search, decided by where the hill climb starts."""
    from test_robots import _contact_states
    model = [r for r in robots.all_models() if r.id == model_id][0]
    m = oracle.load(model.path, disable=())
    _check(model_id, model.path, _contact_states(model, m), m)


@pytest.mark.parametrize("spec", LEGACY)
def test_legacy_libccd(spec):
    """nativeccd disabled in both engines: libccd's MPR with MuJoCo's multi-contact tilts."""
    path = _path(spec)
    m = oracle.load(path, disable=("nativeccd",))
    model_id = "legacy/" + spec[:-4]
    _check(model_id, path, _trajectory(m, model_id, NSTEP, EVERY), m, disable=("nativeccd",))
