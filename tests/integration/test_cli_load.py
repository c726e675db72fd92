"""`torsion load` sends a model's referenced files with its text: dm_control suite models
(which include ./common/*.xml) and a Menagerie robot with meshes load through the CLI, and a
rollout on the loaded handle equals torsion-sim's bit for bit. References that cannot be
sent (absolute, or leaving the model's directory) fail with a clear message before any
request; output JSON stays valid for names holding quotes and backslashes."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from daemon_util import TORSION_CLI, bitwise_equal, sim_info, sim_rollout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "differential"))
from harness import menagerie  # noqa: E402


def suite_model(name):
    """Path of a dm_control suite model."""
    import dm_control
    return os.path.join(os.path.dirname(dm_control.__file__), "suite", name)


def cli(daemon, *args, cwd=None):
    return subprocess.run([TORSION_CLI, "--socket", daemon.sock] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def load_and_roll(daemon, path, tmp_path, cwd=None):
    """Load through the CLI, check the sizes against torsion-sim, roll out 5 steps from qpos0
    and compare with torsion-sim's rollout."""
    out = cli(daemon, "load", path, cwd=cwd)
    assert out.returncode == 0, out.stderr
    loaded = json.loads(out.stdout)
    ref = sim_info(os.path.join(cwd, path) if cwd else path)
    for key in ("nq", "nv", "nu", "na", "nbody"):
        assert loaded[key] == ref[key], key
    out = cli(daemon, "info", path, cwd=cwd)
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["model"] == loaded["model"] and info["nq"] == ref["nq"]

    # one state at qpos0 (time, qpos, qvel, act, ...): the fullphysics layout of torsion-sim
    state = np.zeros((1, ref["nstate"]))
    state[0, 1:1 + ref["nq"]] = ref["qpos0"]
    ctrl = np.zeros((1, 5, ref["nu"]))
    want = sim_rollout(os.path.join(cwd, path) if cwd else path, state, ctrl, 5, str(tmp_path))
    np.save(tmp_path / "cs.npy", state)
    np.save(tmp_path / "cc.npy", ctrl)
    out = cli(daemon, "rollout", path, "--state", tmp_path / "cs.npy", "--ctrl",
              tmp_path / "cc.npy", "--nstep", 5, "--out", tmp_path / "cd.npy", cwd=cwd)
    assert out.returncode == 0, out.stderr
    assert bitwise_equal(np.load(tmp_path / "cd.npy"), want)
    return loaded


@pytest.mark.parametrize("name", ["cheetah.xml", "humanoid.xml", "acrobot.xml", "finger.xml"])
def test_load_dm_control_suite(daemon, tmp_path, name):
    """The suite's models include ./common/skybox.xml etc.: sent as common/skybox.xml
    (acrobot.xml and finger.xml open with a comment before <mujoco>)."""
    load_and_roll(daemon, suite_model(name), tmp_path)


def test_load_relative_to_cwd(daemon, tmp_path):
    """A model argument without a directory: its files are looked up next to it."""
    suite = os.path.dirname(suite_model("cheetah.xml"))
    load_and_roll(daemon, "cheetah.xml", tmp_path, cwd=suite)


@pytest.mark.parametrize("robot,scene,name", [
    ("unitree_go2", "scene.xml", "go2 scene"),
    ("leap_hand", "scene_left.xml", "left leap hand scene"),
])
def test_load_menagerie_meshes(daemon, tmp_path, robot, scene, name):
    """scene.xml includes go2.xml, whose compiler meshdir="assets" holds the meshes;
    leap_hand's left_hand.xml opens with a comment and sets meshdir="./assets/"."""
    loaded = load_and_roll(daemon, menagerie.path(robot, scene), tmp_path)
    assert loaded["name"] == name


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


BOX = '<mujoco><worldbody><body><freejoint/><geom size=".1"/></body></worldbody></mujoco>'


def test_load_nested_dirs_and_attached_model(daemon, tmp_path):
    """An include found in the including file's directory, meshdir set in an included file,
    a texture under texturedir, and an attached model with its own meshdir."""
    cube = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
    d = tmp_path / "m"
    write(d / "parts" / "robot.xml",
          '<mujoco><compiler meshdir="meshes/./" texturedir="tex"/><include file="inner.xml"/>'
          '</mujoco>')
    write(d / "parts" / "inner.xml",
          '<mujoco><asset><mesh file="../meshes/../meshes/tet.obj"/></asset></mujoco>')
    write(d / "meshes" / "tet.obj", cube)
    (d / "tex").mkdir()
    shutil.copy(os.path.join(os.path.dirname(suite_model("cheetah.xml")), "all_domains.png"),
                d / "tex" / "a.png")
    write(d / "child" / "arm.xml",
          '<mujoco><compiler meshdir="m2"/><asset><mesh name="t2" file="tet.obj"/></asset>'
          '<worldbody><body name="arm"><joint/><geom type="mesh" mesh="t2"/></body></worldbody>'
          '</mujoco>')
    write(d / "child" / "m2" / "tet.obj", cube)
    write(d / "top.xml",
          '<mujoco model="nested"><include file="./parts/robot.xml"/>'
          '<asset><texture name="t" type="2d" file="a.png"/><model name="arm" '
          'file="child/arm.xml"/></asset><worldbody><body><freejoint/><geom type="mesh" '
          'mesh="tet"/></body><body pos="1 0 0"><attach model="arm" prefix="a_"/></body>'
          '</worldbody></mujoco>')
    if subprocess.run([sys.executable, "-c", "import mujoco; mujoco.MjModel.from_xml_path(%r)"
                       % str(d / "top.xml")]).returncode != 0:
        pytest.fail("the test model does not load in MuJoCo")
    load_and_roll(daemon, str(d / "top.xml"), tmp_path)


@pytest.mark.parametrize("ref,why", [
    ('<include file="../outside.xml"/>', "leaves the model's directory"),
    ('<include file="/etc/hostname"/>', "absolute path"),
    ('<asset><mesh file="a/../../x.obj"/></asset>', "leaves the model's directory"),
    ('<include file="missing.xml"/>', "cannot read"),
])
def test_load_unsendable_reference(daemon, tmp_path, ref, why):
    """Each fails in the CLI with the element and the reason, before any request."""
    write(tmp_path / "outside.xml", "<mujoco/>")
    write(tmp_path / "d" / "m.xml", "<mujoco>%s</mujoco>" % ref)
    out = cli(daemon, "load", tmp_path / "d" / "m.xml")
    assert out.returncode == 1
    assert why in out.stderr and "m.xml" in out.stderr, out.stderr


def test_json_names_with_quotes_and_backslashes(daemon, tmp_path):
    """A model name with '"' and '\\' gives valid JSON from load and info."""
    name = 'a "quoted\\ name'
    path = tmp_path / "q.xml"
    write(path, '<mujoco model="a &quot;quoted\\ name">%s</mujoco>' % BOX[8:-9])
    for cmd in ("load", "info"):
        out = cli(daemon, cmd, path)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["name"] == name
