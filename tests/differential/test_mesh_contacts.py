"""Mesh contacts on real robots: plane-mesh, mesh-mesh and mesh-primitive contact sets equal
MuJoCo 3.14's, both engines with their default flags (the native convex collision, islands).

Scenes: the Menagerie entry points (the corpus manifest, $TORSION_MENAGERIE) whose
model has collidable mesh geoms (contype or conaffinity nonzero), the Gymnasium-Robotics
Fetch tasks, and tests/models/meshcollide/plane_mesh.xml (small meshes, polygons of more
than four corners, margins, a tilted floor; sampled more densely while things fall).
Menagerie is found by harness/robots.py ($TORSION_MENAGERIE, by default the shared corpus).

States: MuJoCo's trajectory from keyframe 0 (else the defaults) under a random walk of
controls (steps of 3% of the control range), NSTEP steps, every EVERY-th state (every
LOCAL_EVERY-th of LOCAL_NSTEP for the local scene) in
mjSTATE_INTEGRATION form; all go to one `torsion-sim contacts` call. At each state the
contacts of every pair with a mesh geom must agree as sets (harness/contacts.py: same count
per geom pair, dist within 1e-9, pos and frame within 1e-6). Pairs without a mesh are the
business of test_contacts.py.

test_hull_fields compares the compiled hull data the plane-mesh collider reads
(mesh_extrema, the mesh_poly* polygons in order and their normals) with MuJoCo's on a few
scenes.

test_scene_lists_cover_the_manifest checks that every Menagerie entry point with collidable
mesh geoms is in MESH_SCENES.
"""
import os

import mujoco
import numpy as np
import pytest

from harness import contacts, corpus, menagerie, oracle, robots, torsion
from harness import constraint_cases as cc

FETCH = corpus._package_dir("gymnasium_robotics", "envs", "assets", "fetch")

# Menagerie entry points with collidable mesh geoms that Torsion loads
MESH_SCENES = [
    "aloha/scene.xml", "bitcraze_crazyflie_2/scene.xml", "pal_talos/scene_position.xml",
    "trossen_vx300s/scene.xml", "pal_tiago/scene_motor.xml", "pal_tiago/scene_position.xml",
    "pal_tiago/scene_velocity.xml", "shadow_dexee/scene.xml",
    "boston_dynamics_spot/scene.xml", "boston_dynamics_spot/scene_arm.xml",
    "fourier_n1/scene.xml", "franka_emika_panda/scene.xml", "google_barkour_vb/scene.xml",
    "google_robot/scene.xml", "kinova_gen3/scene.xml", "leap_hand/scene_left.xml",
    "leap_hand/scene_right.xml", "low_cost_robot_arm/scene.xml", "pal_talos/scene_motor.xml",
    "robotiq_2f85/scene.xml", "robotiq_2f85_v4/scene.xml", "robotis_op3/scene.xml",
    "robotstudio_so101/scene.xml", "robotstudio_so101/scene_box.xml",
    "shadow_hand/scene_left.xml", "shadow_hand/scene_right.xml", "stanford_tidybot/scene.xml",
    "stanford_tidybot/scene_base.xml", "trs_so_arm100/scene.xml",
    "ufactory_xarm7/scene.xml", "umi_gripper/scene.xml", "unitree_g1/scene.xml",
    "unitree_g1/scene_with_hands.xml",
]
FETCH_TASKS = ["reach.xml", "push.xml", "slide.xml", "pick_and_place.xml"]

NSTEP = 1200
EVERY = 100
LOCAL = os.path.join(corpus.REPO_ROOT, "tests", "models", "meshcollide", "plane_mesh.xml")
LOCAL_NSTEP = 600
LOCAL_EVERY = 30
CTRL_STEP = 0.03


def _robot_path(rel):
    """Absolute path of a Menagerie entry point ("robot/file.xml")."""
    robot, scene = rel.split("/", 1)
    return menagerie.path(robot, scene)


def _scenes():
    """(id, Menagerie entry point or absolute path) of every scene checked."""
    out = [("menagerie/" + rel[:-4], rel) for rel in MESH_SCENES]
    out += [("fetch/" + f[:-4], os.path.join(FETCH, f)) for f in FETCH_TASKS]
    out.append(("local/meshcollide/plane_mesh", LOCAL))
    return out


def _path(spec):
    return spec if os.path.isabs(spec) else _robot_path(spec)


def _is_mesh(m, g):
    return m.geom_type[g] == mujoco.mjtGeom.mjGEOM_MESH


def _mesh_part(m, cset):
    """The contacts of a set whose geom pair involves a mesh."""
    keep = np.array([_is_mesh(m, g1) or _is_mesh(m, g2) for g1, g2 in cset["geom"]],
                    dtype=bool).reshape(-1)
    return {k: v[keep] for k, v in cset.items()}


def _states(m, model_id, nstep, every):
    """SPEC states along MuJoCo's trajectory under random-walk controls."""
    r = oracle.rng(model_id, "mesh-contacts")
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


@pytest.mark.parametrize("model_id,spec", _scenes(), ids=[s[0] for s in _scenes()])
def test_mesh_contact_set(model_id, spec):
    path = _path(spec)
    m = oracle.load(path, disable=oracle.CONTACT_ORACLE)
    assert any(_is_mesh(m, g) and (m.geom_contype[g] or m.geom_conaffinity[g])
               for g in range(m.ngeom)), "%s has no collidable mesh geom" % model_id
    local = spec == LOCAL
    states = _states(m, model_id, LOCAL_NSTEP if local else NSTEP,
                     LOCAL_EVERY if local else EVERY)
    theirs = [_mesh_part(m, cc.forward_contacts(m, s)) for s in states]
    ours = [_mesh_part(m, c) for c in torsion.contacts(path, states, spec=cc.SPEC_NAME)]
    contacts.check_sets(m, ours, theirs, "mesh contacts of %s" % model_id)


def test_scene_lists_cover_the_manifest():
    """Every Menagerie entry point with meshes is checked, or has no
    collidable mesh geom (MuJoCo's model says which)."""
    listed = set(MESH_SCENES)
    missing = []
    for model in robots.menagerie_models():
        rel = model.id[len("men/"):] + ".xml"
        if rel in listed:
            continue
        m = mujoco.MjModel.from_xml_path(model.path)
        if any(_is_mesh(m, g) and (m.geom_contype[g] or m.geom_conaffinity[g])
               for g in range(m.ngeom)):
            missing.append(rel)
    assert not missing, "scenes with collidable meshes in neither list: %s" % missing


# scenes whose compiled hull data is compared with MuJoCo's
HULL_SCENES = ["umi_gripper/scene.xml", "google_barkour_vb/scene.xml", "robotis_op3/scene.xml",
               "unitree_g1/scene_with_hands.xml"]
HULL_FIELDS = ["mesh_graphadr", "mesh_extrema", "mesh_polynum", "mesh_polyadr",
               "mesh_polynormal", "mesh_polyvertadr", "mesh_polyvertnum", "mesh_polyvert",
               "mesh_polymapnum"]


def _polygons(f, k):
    """[(vertex loop, normal)] of mesh k, in polygon order."""
    out = []
    adr = int(f["mesh_polyadr"][k])
    for i in range(adr, adr + int(f["mesh_polynum"][k])):
        start = int(f["mesh_polyvertadr"][i])
        loop = [int(x) for x in f["mesh_polyvert"][start:start + int(f["mesh_polyvertnum"][i])]]
        out.append((loop, np.asarray(f["mesh_polynormal"][i], dtype=float)))
    return out


@pytest.mark.parametrize("spec", HULL_SCENES + [LOCAL])
def test_hull_fields(spec):
    """mesh_extrema, the polygons (vertex loops in MuJoCo's order, each from the same start
    vertex, with their normals) and the number of polygons through each vertex equal
    MuJoCo's (test_mesh_polygons.py checks every mesh_poly* field on the whole corpus)."""
    path = _path(spec)
    m = mujoco.MjModel.from_xml_path(path)
    ours = torsion.dump(path, HULL_FIELDS)
    ours = {k: np.asarray(v).reshape(-1) if k != "mesh_polynormal" else
            np.asarray(v).reshape(-1, 3) for k, v in ours.items()}
    theirs = {k: np.asarray(getattr(m, k)) for k in HULL_FIELDS}
    theirs["mesh_extrema"] = theirs["mesh_extrema"].reshape(-1)
    bad = []
    for name in ["mesh_extrema", "mesh_polynum", "mesh_polymapnum"]:
        if not np.array_equal(ours[name].astype(int), theirs[name].astype(int)):
            bad.append(name)
    for k in range(m.nmesh):
        if m.mesh_graphadr[k] < 0:
            continue
        a, b = _polygons(ours, k), _polygons(theirs, k)
        loops = [p for p, (x, y) in enumerate(zip(a, b)) if x[0] != y[0]]
        if len(a) != len(b) or loops:
            bad.append("mesh %d: %d polygons differ" % (k, len(loops) + abs(len(a) - len(b))))
        elif any(np.max(np.abs(x[1] - y[1])) > 1e-12 for x, y in zip(a, b)):
            bad.append("mesh %d: polygon normals differ" % k)
    assert not bad, "hull data of %s differs from MuJoCo's: %s" % (spec, "; ".join(bad[:8]))
