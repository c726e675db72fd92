"""MJCF structure elements: engine plugins (refused with a clear error), <replicate>,
<frame> and <model>/<attach>.

Attach: a child model's body subtree attached with a prefix (assets, default classes and the
child's referencing elements come along) must compile to MuJoCo's model; what is not
implemented yet (attached keyframes with activations) is refused by name. A child written
with other angle units or euler sequence keeps its angles' meaning. Attached keyframes are
placed joint by joint and actuator by actuator.

Plugins: Torsion has no engine plugins, so a model that uses one must fail to load with a
message naming the file, the line, the <plugin> element and the plugin (MuJoCo loads these
models; the check here is that Torsion refuses them cleanly). The structure scenes under
tests/models/structure/ must compile to MuJoCo 3.14's bodies, joints, geoms, sites and
names, and give the same qacc (constraints off) at random states.
"""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import compare, corpus, menagerie, oracle, torsion

STRUCT_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "structure")
SCENES = [
    "replicate_ring.xml", "frames.xml", "attach_parent.xml", "attach_keys.xml", "attach_units.xml"
]
QACC_TOL = 1e-8
COMPILED_TOL = 1e-10

# compiled fields compared with MuJoCo's (1e-10; integer fields must be equal)
FIELDS = [
    "body_parentid", "body_rootid", "body_jntnum", "body_jntadr", "body_geomnum",
    "body_geomadr", "body_pos", "body_quat", "body_ipos", "body_iquat", "body_mass",
    "body_inertia", "jnt_type", "jnt_bodyid", "jnt_qposadr", "jnt_pos", "jnt_axis",
    "jnt_range", "dof_damping", "geom_type", "geom_bodyid", "geom_size", "geom_pos",
    "geom_quat", "site_bodyid", "site_pos", "site_quat", "cam_bodyid", "cam_pos", "cam_quat",
    "tendon_adr", "tendon_num", "wrap_type", "wrap_objid", "eq_type", "eq_obj1id",
    "eq_obj2id", "exclude_signature", "actuator_trntype", "actuator_trnid", "actuator_gear",
    "sensor_type", "sensor_objtype", "sensor_objid", "sensor_adr", "qpos0", "dof_armature",
    "geom_rgba", "geom_dataid", "geom_matid", "mesh_vert", "mesh_face", "mat_rgba",
    "actuator_gainprm", "actuator_biasprm", "jnt_range", "qpos_spring", "key_time",
    "key_qpos", "key_qvel", "key_ctrl", "key_mpos", "key_mquat",
]
SIZES = ["nq", "nv", "nu", "nbody", "njnt", "ngeom", "nsite", "ntendon", "neq", "nsensor",
         "nsensordata", "nwrap"]


def compare_compiled(path):
    """Sizes, FIELDS and the packed names of a model equal MuJoCo's."""
    m = oracle.load(path)
    info = torsion.info(path)
    assert {k: info[k] for k in SIZES} == {k: int(getattr(m, k)) for k in SIZES}
    ours = torsion.dump(path, FIELDS + ["names"])
    bad = []
    for name in FIELDS:
        theirs = oracle.model_field(m, name)
        if ours[name].shape != theirs.shape:
            bad.append("%s: shape %s, MuJoCo %s" % (name, ours[name].shape, theirs.shape))
        elif theirs.size and np.max(np.abs(ours[name] - theirs)) > COMPILED_TOL:
            bad.append("%s: max |diff| %.3g" % (name, np.max(np.abs(ours[name] - theirs))))
    names = bytes(ours["names"].ravel().astype("u1"))
    if names != bytes(m.names):
        bad.append("names: %r, MuJoCo %r" % (names, bytes(m.names)))
    assert not bad, "differs from MuJoCo: %s" % "; ".join(bad)


def compare_qacc(path, label):
    """qacc at random states (constraints off) equals MuJoCo's within 1e-8."""
    m = oracle.load(path)
    states, ctrl = oracle.random_states(m, 20, oracle.rng(label, "qacc"))
    expected = oracle.forward_qacc(m, states, ctrl)
    qacc = torsion.forward(path, states, ctrl if m.nu else None, disable=oracle.SMOOTH_ONLY)
    compare.check_rows(qacc, expected, QACC_TOL, "qacc", row_name="state")


@pytest.mark.parametrize("scene", SCENES)
def test_structure_scene_compiles_as_mujoco(scene):
    compare_compiled(os.path.join(STRUCT_DIR, scene))


@pytest.mark.parametrize("scene", SCENES)
def test_structure_scene_qacc(scene):
    compare_qacc(os.path.join(STRUCT_DIR, scene), scene)


# small replicate cases: (compiler settings, worldbody, sections after it)
REPLICATE_CASES = {
    "offset_euler": ("", '<replicate count="3" offset="1 0 0" euler="0 0 30"><body name="b" '
                     'pos="0 1 0"><joint name="j"/><geom name="g" size="0.1"/></body>'
                     '<geom name="w" size="0.1" pos="0 0 1"/></replicate>', ""),
    "two_digits": ("", '<replicate count="12" offset="1 0 0"><geom name="g" size="0.1"/>'
                   '<geom size="0.2"/></replicate>', ""),
    "radian_zyx": ('<compiler angle="radian" eulerseq="zyx"/>',
                   '<replicate count="5" offset="1 0.2 0.1" euler="0.3 0.2 0.1"><body name="b" '
                   'pos="0.1 0.2 0.3" euler="0.1 0 0.2"><freejoint/><geom name="g" type="box" '
                   'size="0.1 0.2 0.3"/></body></replicate>', ""),
    "references": ("", '<body name="out"><joint name="jo"/><geom size="0.1"/></body>'
                   '<replicate count="2" offset="1 0 0"><body name="b"><joint name="j"/>'
                   '<geom size="0.1"/><body name="c"><joint name="k"/><geom size="0.1"/></body>'
                   '<site name="s"/></body></replicate>',
                   '<sensor><jointpos name="sa" joint="jo"/><jointpos name="sj" joint="j"/>'
                   '<framepos objtype="site" objname="s"/><jointvel joint="jo"/></sensor>'
                   '<equality><joint joint1="j" joint2="k"/><connect body1="b" body2="out" '
                   'anchor="0 0 0"/><joint joint1="jo" joint2="j1"/></equality>'
                   '<tendon><fixed name="t"><joint joint="j" coef="1"/><joint joint="jo" '
                   'coef="2"/></fixed></tendon><actuator><motor name="m1" joint="jo"/>'
                   '<motor name="m2" joint="j"/><motor name="m3" tendon="t"/></actuator>'
                   '<contact><exclude body1="b" body2="out"/></contact>'),
}


@pytest.mark.parametrize("case", sorted(REPLICATE_CASES))
def test_replicate_cases(case):
    compiler, world, after = REPLICATE_CASES[case]
    xml = "<mujoco>%s<worldbody>%s</worldbody>%s</mujoco>" % (compiler, world, after)
    with tempfile.TemporaryDirectory(prefix="tn-replicate-") as tmp:
        path = _write(tmp, xml, case + ".xml")
        compare_compiled(path)
        compare_qacc(path, case)

PLUGINS = {
    "extension": ('<extension><plugin plugin="mujoco.elasticity.cable"><instance name="p"/>'
                  '</plugin></extension>', "plugin 'mujoco.elasticity.cable'"),
    "body": ('<worldbody><body><plugin plugin="mujoco.elasticity.cable"/></body></worldbody>',
             "plugin 'mujoco.elasticity.cable'"),
    "instance": ('<worldbody><body><plugin instance="cable"/></body></worldbody>',
                 "plugin instance 'cable'"),
    "actuator": ('<extension><plugin plugin="acme.servo"/></extension>'
                 '<worldbody><body><joint name="j"/><geom size="1"/></body></worldbody>'
                 '<actuator><plugin plugin="acme.servo" joint="j"/></actuator>',
                 "plugin 'acme.servo'"),
    "sensor": ('<sensor><plugin plugin="mujoco.sensor.touch_grid"/></sensor>',
               "plugin 'mujoco.sensor.touch_grid'"),
}


def _write(directory, xml, name="model.xml"):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(xml)
    return path


@pytest.mark.parametrize("case", sorted(PLUGINS))
def test_plugin_refused_by_name(case):
    body, needle = PLUGINS[case]
    with tempfile.TemporaryDirectory(prefix="tn-plugin-") as tmp:
        path = _write(tmp, "<mujoco>\n%s\n</mujoco>\n" % body)
        proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0 and not proc.stdout, "accepted: %s" % body
    assert "model.xml:2: element 'plugin': " in err and needle in err, err
    assert "not supported" in err or "not implemented" in err, err


CHILD = """<mujoco>%s<worldbody><body name="a" childclass="c"><joint name="ja"/><geom size="0.1"/>
<body name="b" pos="0 0 1"><joint name="jb"/><geom size="0.1"/>
<replicate count="2" offset="0.3 0 0"><body name="r"><joint name="jr"/><geom size="0.05"/></body>
</replicate></body></body></worldbody>
<default><default class="c"><geom size="0.2" rgba="0 1 0 1"/></default></default>%s</mujoco>"""

# attach cases: (child compiler, child sections after worldbody, parent body content)
ATTACH_CASES = {
    "inherited_childclass": ("", "", '<attach model="k" body="b" prefix="x/"/>'),
    "world_frame": ("", '<actuator><motor joint="ja"/><motor joint="jb"/></actuator>'
                    '<sensor><jointpos joint="jr"/></sensor>',
                    '<frame pos="1 2 3" euler="10 20 30"><attach model="k" body="a" prefix="p"/>'
                    '</frame>'),
    "whole_model": ("", '<actuator><motor joint="ja"/></actuator>',
                    '<body name="t"><joint/><geom size="0.1"/><frame euler="0 0 45">'
                    '<attach model="k" prefix="w"/></frame></body><attach model="k" prefix="v"/>'),
}


def _attach_files(tmp, case):
    compiler, sections, body = case
    _write(tmp, CHILD % (compiler, sections), "child.xml")
    return _write(tmp, '<mujoco><asset><model name="k" file="child.xml"/></asset><worldbody>'
                  '%s</worldbody></mujoco>' % body, "parent.xml")


@pytest.mark.parametrize("case", sorted(ATTACH_CASES))
def test_attach_cases(case):
    with tempfile.TemporaryDirectory(prefix="tn-attach-") as tmp:
        path = _attach_files(tmp, ATTACH_CASES[case])
        compare_compiled(path)
        compare_qacc(path, case)


# attaches that MuJoCo refuses too: (case, needle in Torsion's message)
ATTACH_ERRORS = {
    "unknown_model": (("", "", '<attach model="nope" body="a" prefix="p"/>'), "nope"),
    "unknown_body": (("", "", '<attach model="k" body="nobody" prefix="p"/>'), "nobody"),
}

# attaches MuJoCo accepts that Torsion refuses as not implemented yet
ATTACH_NOTIMPL = {
    "child_keyframe_act": ("", '<actuator><general joint="ja" dyntype="integrator"/></actuator>'
                           '<keyframe><key qpos="0.1 0.2 0.3" act="1"/></keyframe>',
                           '<attach model="k" body="a" prefix="p"/>'),
}


def _refused(path):
    proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0 and not proc.stdout, "accepted"
    assert "parent.xml:1: element 'attach': attribute '" in err, err
    return err


@pytest.mark.parametrize("case", sorted(ATTACH_ERRORS))
def test_attach_errors(case):
    files, needle = ATTACH_ERRORS[case]
    with tempfile.TemporaryDirectory(prefix="tn-attach-") as tmp:
        path = _attach_files(tmp, files)
        with pytest.raises(Exception):
            mujoco.MjModel.from_xml_path(path)
        assert needle in _refused(path)


@pytest.mark.parametrize("case", sorted(ATTACH_NOTIMPL))
def test_attach_not_implemented_is_refused(case):
    with tempfile.TemporaryDirectory(prefix="tn-attach-") as tmp:
        path = _attach_files(tmp, ATTACH_NOTIMPL[case])
        mujoco.MjModel.from_xml_path(path)
        assert "not implemented yet" in _refused(path)


def test_replicate_with_keyframes_is_refused():
    xml = ('<mujoco><worldbody><replicate count="3" offset="1 0 0"><body name="b"><joint/>'
           '<geom size="0.1"/></body></replicate></worldbody>'
           '<keyframe><key name="k" qpos="0.1"/></keyframe></mujoco>')
    with tempfile.TemporaryDirectory(prefix="tn-replicate-") as tmp:
        path = _write(tmp, xml)
        assert mujoco.MjModel.from_xml_path(path).nkey == 4
        proc = torsion.run(["info", path], check=False)
    assert proc.returncode > 0 and not proc.stdout, "accepted"
    assert "model.xml:1: element 'replicate': " in proc.stderr, proc.stderr
    assert "not implemented yet" in proc.stderr, proc.stderr


@pytest.mark.parametrize("world", [
    '<replicate count="2147483647"><geom size="1"/></replicate>',
    '<replicate count="1000"><replicate count="1000"><replicate count="1000"><geom size="1"/>'
    '</replicate></replicate></replicate>',
])
def test_replicate_too_large_is_refused(world):
    with tempfile.TemporaryDirectory(prefix="tn-replicate-") as tmp:
        path = _write(tmp, "<mujoco><worldbody>%s</worldbody></mujoco>" % world)
        proc = torsion.run(["info", path], check=False, timeout=60)
    assert proc.returncode > 0 and not proc.stdout, "accepted"
    assert "model.xml:1: element 'replicate': " in proc.stderr, proc.stderr


# Menagerie robots attached into a scene, by their top body and whole
ATTACHED_ROBOTS = [("franka_emika_panda", "panda.xml", "link0"),
                   ("universal_robots_ur5e", "ur5e.xml", "base"),
                   ("unitree_go2", "go2.xml", "base"),
                   ("robotiq_2f85", "2f85.xml", "base_mount")]


@pytest.mark.parametrize("robot,entry,top", ATTACHED_ROBOTS)
@pytest.mark.parametrize("whole", [False, True])
def test_attach_menagerie_robot(robot, entry, top, whole):
    body = "" if whole else ' body="%s"' % top
    xml = ('<mujoco><asset><model name="r" file="%s"/></asset><worldbody>'
           '<geom type="plane" size="5 5 0.1"/><frame pos="0.5 0 0.2" euler="0 0 30">'
           '<attach model="r"%s prefix="R/"/></frame></worldbody></mujoco>'
           % (menagerie.path(robot, entry), body))
    with tempfile.TemporaryDirectory(prefix="tn-attach-") as tmp:
        path = _write(tmp, xml)
        compare_compiled(path)
        compare_qacc(path, robot)
