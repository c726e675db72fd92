"""Compile-time features the real-robot corpora use (tests/models/compiler/README.md):
joint springdamper, primitive geoms fitted to meshes (fitaabb, fitscale), fusestatic, the
<compiler> mass and inertia settings, discardvisual.

Each model is compiled by both engines: the body, geom, joint and dof fields and the sizes
must equal MuJoCo's within 1e-10, and qacc after mj_forward at random states within 1e-8
(constraints disabled on both sides, as in test_forward.py). Models are our own scenes under
tests/models/compiler/ and corpus robots that exercise a feature, loaded in place.
"""
import glob
import os
import shutil
import types

import mujoco
import numpy as np
import pytest

from harness import compare, corpus, oracle, robots, torsion

MODEL_TOL = 1e-10
QACC_TOL = 1e-8
NSTATE = 20

COMPILER_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "compiler")
MENAGERIE = robots.menagerie_dir()

# compiled fields compared with MuJoCo's
FIELDS = [
    "body_parentid", "body_rootid", "body_weldid", "body_mocapid", "body_jntnum",
    "body_jntadr", "body_dofnum", "body_dofadr", "body_treeid", "body_geomnum",
    "body_geomadr", "body_simple", "body_sameframe", "body_pos", "body_quat", "body_ipos",
    "body_iquat", "body_mass", "body_subtreemass", "body_inertia", "body_invweight0",
    "body_gravcomp", "body_contype", "body_conaffinity",
    "jnt_type", "jnt_qposadr", "jnt_dofadr", "jnt_bodyid", "jnt_group", "jnt_limited",
    "jnt_pos", "jnt_axis", "jnt_stiffness", "jnt_range", "jnt_margin",
    "dof_bodyid", "dof_jntid", "dof_parentid", "dof_treeid", "dof_Madr", "dof_simplenum",
    "dof_frictionloss", "dof_armature", "dof_damping", "dof_invweight0", "dof_M0",
    "geom_type", "geom_contype", "geom_conaffinity", "geom_condim", "geom_bodyid",
    "geom_dataid", "geom_group", "geom_priority", "geom_sameframe", "geom_size",
    "geom_aabb", "geom_rbound", "geom_pos", "geom_quat", "geom_friction", "geom_margin",
    "geom_gap",
    "site_bodyid", "site_pos", "site_quat", "site_size",
    "cam_bodyid", "cam_pos", "cam_quat", "light_bodyid", "light_pos", "light_dir",
    "mesh_vertnum", "mesh_facenum", "mesh_pos", "mesh_quat",
    "qpos0", "qpos_spring",
]
SIZES = ["nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "nmesh", "ncam",
         "nlight", "ntendon", "neq", "nsensor", "nkey", "nmocap", "ntree"]


def _local(name):
    return types.SimpleNamespace(id="compiler/" + os.path.splitext(name)[0],
                                 path=os.path.join(COMPILER_DIR, name))


def _menagerie(robot, entry):
    return types.SimpleNamespace(id="menagerie/%s/%s" % (robot, entry),
                                 path=os.path.join(MENAGERIE, robot, entry))


LOCAL = [_local(os.path.basename(p))
         for p in sorted(glob.glob(os.path.join(COMPILER_DIR, "*.xml")))
         if not os.path.basename(p).startswith("bad_")]
# corpus robots, each exercising a feature: fitted capsules (agilex_piper, arx_l5),
# fusestatic (pal_tiago; its scene_position.xml is blocked by a repeated default class)
CORPUS = [_menagerie("agilex_piper", "scene.xml"), _menagerie("arx_l5", "scene.xml"),
          _menagerie("pal_tiago", "scene_motor.xml"),
          _menagerie("pal_tiago", "scene_velocity.xml")]
MODELS = LOCAL + CORPUS


def _ids(models):
    return [mdl.id for mdl in models]


def _compare_fields(path, m):
    names = [f for f in FIELDS if getattr(m, f, None) is not None]
    ours = torsion.dump(path, names)
    bad = []
    for name in names:
        theirs = oracle.model_field(m, name)
        mine = ours[name]
        if mine.size != theirs.size:
            bad.append("%s: shape %s, MuJoCo %s" % (name, mine.shape, theirs.shape))
            continue
        mine = mine.reshape(theirs.shape)
        err = np.max(np.abs(mine - theirs)) / (1 + np.max(np.abs(theirs))) if theirs.size \
            else 0.0
        if not err <= MODEL_TOL:
            k = int(np.argmax(np.abs(mine - theirs).ravel()))
            bad.append("%s: err %.3g at flat index %d (torsion %r, MuJoCo %r)" % (
                name, err, k, mine.ravel()[k], theirs.ravel()[k]))
    return bad


def _compare_sizes(path, m):
    info = torsion.info(path)
    return ["%s: torsion %r, MuJoCo %r" % (k, info.get(k), getattr(m, k))
            for k in SIZES if k in info and info[k] != getattr(m, k)]


def _compare_qacc(path, m, seed_id):
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(seed_id, "qacc"))
    expected = oracle.forward_qacc(m, states, ctrl)
    qacc = torsion.forward(path, states, ctrl if m.nu else None, disable=oracle.SMOOTH_ONLY)
    compare.check_rows(qacc, expected, QACC_TOL, "qacc", row_name="state")


@pytest.mark.parametrize("model", MODELS, ids=_ids(MODELS))
def test_compiled_fields(model):
    m = oracle.load(model.path)
    bad = _compare_sizes(model.path, m) + _compare_fields(model.path, m)
    assert not bad, "%s differs from MuJoCo:\n  %s" % (model.id, "\n  ".join(bad))


@pytest.mark.parametrize("model", MODELS, ids=_ids(MODELS))
def test_qacc(model):
    m = oracle.load(model.path)
    _compare_qacc(model.path, m, model.id)


# models both engines refuse: (compiler attributes, asset, body content, world content,
# the attribute Torsion's message must name)
REJECTED = {
    "springdamper_negative": ("", "", '<joint axis="0 1 0" springdamper="-0.1 0.5"/>', "",
                              "springdamper"),
    "springdamper_one_zero": ("", "", '<joint axis="0 1 0" springdamper="0.1 0"/>', "",
                              "springdamper"),
    "fitted_plane": ("", '<mesh name="m" file="tetra.stl"/>', "",
                     '<geom type="plane" mesh="m" size="1 1 1"/>', "type"),
    "fitted_fromto": ("", '<mesh name="m" file="tetra.stl"/>',
                      '<geom type="capsule" mesh="m" fromto="0 0 0 0 0 1" size="0.1"/>', "",
                      "fromto"),
    "exactmeshinertia": ('exactmeshinertia="true"', "", "", "", "exactmeshinertia"),
    "coordinate_global": ('coordinate="global"', "", "", "", "coordinate"),
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_rejected(case, tmp_path):
    compiler, asset, body, world, attr = REJECTED[case]
    xml = ('<mujoco><compiler meshdir="%s" %s/><asset>%s</asset><worldbody>%s'
           '<body pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/>'
           '<body><geom type="sphere" size="0.05"/>%s</body></body></worldbody></mujoco>') % (
        os.path.join(corpus.REPO_ROOT, "tests", "models", "meshes"), compiler, asset, world, body)
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_string(xml)
    path = tmp_path / "model.xml"
    path.write_text(xml)
    proc = torsion.run(["info", str(path)], check=False)
    assert proc.returncode > 0, "Torsion accepted %s" % case
    assert "'%s'" % attr in proc.stderr and "model.xml:1" in proc.stderr, proc.stderr
