"""The last of MuJoCo's C API functions (multi-ray and skin ray casting, the last loaded
XML, XML dependencies, more actuator shortcuts): each program under
tests/capi/programs/rest_*.c calls them with fixed inputs and prints the results; the
program is compiled against MuJoCo 3.14 and against Torsion and the outputs are compared
token by token."""
import os

import gymnasium
import pytest

from capi_build import MODELS, REPO, compile_program, run_both, run_program
from harness import robots

GYM_ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")


def gym(name):
    return os.path.join(GYM_ASSETS, name)


# (program, arguments, relative tolerance, absolute tolerance)
CASES = [
    ("rest_ray.c", [os.path.join(MODELS, "ray_shapes.xml"), "120"], 1e-9, 1e-9),
    ("rest_ray.c", [gym("hopper.xml"), "80"], 1e-9, 1e-9),
    ("rest_ray.c", [gym("humanoid.xml"), "80"], 1e-9, 1e-9),
    ("rest_ray.c", [gym("ant.xml"), "80"], 1e-9, 1e-9),
]


@pytest.mark.parametrize("program,args,rtol,atol", CASES,
                         ids=["%s-%s" % (c[0][:-2], "-".join([os.path.basename(c[1][0])] + c[1][1:]))
                              for c in CASES])
def test_same_output(program, args, rtol, atol, tmp_path):
    """The program prints the same text and numbers on both libraries."""
    expected, actual, diffs = run_both(program, tmp_path, args, rtol=rtol, atol=atol)
    assert expected.strip(), "the MuJoCo build printed nothing"
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


# mj_saveLastXML: MuJoCo writes numbers with 6 significant digits, Torsion with 17, so the
# reloaded models agree to MuJoCo's rounding
LASTXML_MODELS = [gym("hopper.xml"), gym("ant.xml"), os.path.join(MODELS, "rest", "lastxml.xml")]


@pytest.mark.parametrize("model", LASTXML_MODELS, ids=[os.path.basename(p) for p in LASTXML_MODELS])
def test_save_last_xml(model, tmp_path):
    """Edits made in mjModel survive mj_saveLastXML and a reload in each library, and the
    file each library saved compiles in MuJoCo to the same model."""
    expected, actual, diffs = run_both("rest_lastxml.c", tmp_path, [model], rtol=2e-6, atol=2e-6)
    assert "saved: 1 ''" in expected
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
    import mujoco
    import numpy as np
    mine = mujoco.MjModel.from_xml_path(str(tmp_path / "saved_torsion.xml"))
    theirs = mujoco.MjModel.from_xml_path(str(tmp_path / "saved_mujoco.xml"))
    for field in ("body_pos", "body_quat", "body_mass", "body_inertia", "body_ipos",
                  "geom_size", "geom_pos", "geom_quat", "jnt_range", "qpos0", "dof_damping",
                  "actuator_gear", "actuator_gainprm", "actuator_biasprm", "key_qpos"):
        np.testing.assert_allclose(getattr(mine, field), getattr(theirs, field), rtol=2e-6,
                                   atol=2e-6, err_msg=field)
    assert mine.opt.timestep == pytest.approx(theirs.opt.timestep)


DM_SUITE = os.path.join(os.path.dirname(__import__("dm_control").__file__), "suite")
DEPS_MODELS = [os.path.join(DM_SUITE, name) for name in
               ("cartpole.xml", "humanoid.xml", "quadruped.xml", "dog.xml", "manipulator.xml")] + [
    os.path.join(robots.menagerie_dir(), "franka_emika_panda", "scene.xml"),
    os.path.join(robots.menagerie_dir(), "shadow_hand", "scene_right.xml"),
    os.path.join(MODELS, "rest", "deps", "sub", "main.xml"),
]


@pytest.mark.parametrize("model", DEPS_MODELS,
                         ids=["-".join(p.split(os.sep)[-2:]) for p in DEPS_MODELS])
def test_xml_dependencies(model, tmp_path):
    """Torsion lists the same files as MuJoCo's mju_getXMLDependencies, each once, the
    model first (MuJoCo's own order is a hash set's, so the lists are compared as sets)."""
    import mujoco
    exe = compile_program("rest_deps.c", "torsion", str(tmp_path))
    out = run_program(exe, [model], cwd=str(tmp_path))[1].splitlines()
    theirs = list(mujoco.mju_getXMLDependencies(model))
    assert out[0] == model
    assert len(out) == len(set(out))
    assert sorted(out) == sorted(theirs)


def test_actuator_shortcuts(tmp_path):
    """mjs_setToOrientation, mjs_setToPID and mjs_setToDCMotor leave the same fields and
    return the same messages as MuJoCo's, for valid, invalid and omitted arguments."""
    expected, actual, diffs = run_both("rest_actuators.c", tmp_path, [], rtol=1e-12, atol=0)
    assert expected.count("'DC motor:") == 6
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


def test_encode(tmp_path):
    """mj_encode writes the same kinds of files (sizes are each library's own formats) and
    fails with the same messages as MuJoCo's."""
    model = os.path.join(MODELS, "rest", "lastxml.xml")
    expected, actual, diffs = run_both("rest_encode.c", tmp_path, [model])
    assert expected.count(": ok size_matches 1") == 7
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
