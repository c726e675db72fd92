"""The model-editing API (mjSpec, mjs_*): programs under tests/capi/programs/spec_*.c build,
edit or parse models with mjs_ calls, compile them with mj_compile and simulate; each is
compiled against MuJoCo 3.14's library and against Torsion's, run with the same arguments,
and the outputs compared token by token (numbers to a relative tolerance, 1e-12 absolute)."""
import os

import importlib.util

import gymnasium
import pytest

from capi_build import MODELS, run_both

GYM_ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")


def package_dir(name):
    """Directory of an installed package, without importing it."""
    return os.path.dirname(importlib.util.find_spec(name).origin)


SUITE = os.path.join(package_dir("dm_control"), "suite")
ROBOTICS = os.path.join(package_dir("gymnasium_robotics"), "envs", "assets")
MYO = os.path.join(package_dir("myo_sim"), "models")

# models whose parsed-and-compiled spec must equal the loaded model byte for byte
ROUNDTRIP = [os.path.join(SUITE, f) for f in ("humanoid_CMU.xml", "quadruped.xml",
                                              "manipulator.xml", "finger.xml", "swimmer.xml")] + [
    os.path.join(GYM_ASSETS, "pusher.xml"),
    os.path.join(ROBOTICS, "hand", "manipulate_block.xml"),
    os.path.join(ROBOTICS, "fetch", "pick_and_place.xml"),
    os.path.join(MYO, "legacy", "elbow", "myoelbow_2dof6muscles.xml"),
    os.path.join(MYO, "legacy", "finger", "myofinger_v0.xml"),
]

# (program, arguments, relative tolerance[, absolute tolerance])
CASES = [
    # struct sizes, field offsets and enum values of mjspec.h
    ("spec_layout.c", [], 0),
    ("spec_defaults.c", [], 0),
    ("spec_actuators.c", [], 0),
    # accessors, custom data, keyframes, assets, pairs and excludes
    ("spec_access.c", [], 1e-9),
    # recompiling into the same model and data, keeping the state
    ("spec_recompile.c", [], 1e-9),
    # attaching a subtree with its actuators, sensors, tendon and assets, renamed
    ("spec_attach.c", [], 1e-9),
    # default classes (added, inherited, parsed), mjs_setDefault, mj_copySpec
    ("spec_classes.c", [], 1e-12),
    ("spec_build.c", ["pendulum", "400"], 1e-9),
    ("spec_build.c", ["falling", "600"], 1e-9),
    ("spec_build.c", ["tendon", "400"], 1e-9),
    # parse, compile unchanged (same model as mj_loadXML: printed differences are 0), then
    # add a body, a motor and a sensor, compile and step
    ("spec_parse.c", [os.path.join(MODELS, "spec_sink.xml"), "300"], 1e-9),
    ("spec_parse.c", [os.path.join(GYM_ASSETS, "hopper.xml"), "300"], 1e-9),
    ("spec_parse.c", [os.path.join(GYM_ASSETS, "walker2d.xml"), "300"], 1e-9),
    ("spec_parse.c", [os.path.join(GYM_ASSETS, "half_cheetah.xml"), "300"], 1e-9),
    ("spec_parse.c", [os.path.join(GYM_ASSETS, "humanoid.xml"), "200"], 1e-9),
    ("spec_roundtrip.c", ROUNDTRIP, 0),
    # save as MJCF, parse the text back, compare the models, simulate
    ("spec_save.c", [os.path.join(MODELS, "spec_sink.xml"), "300"], 1e-9),
    ("spec_save.c", [os.path.join(GYM_ASSETS, "humanoid.xml"), "300"], 1e-9),
    ("spec_save.c", [os.path.join(GYM_ASSETS, "hopper.xml"), "300"], 1e-9),
    # the ant comes to rest: velocities of 1e-11 are solver residuals on both sides
    ("spec_parse.c", [os.path.join(GYM_ASSETS, "ant.xml"), "300"], 1e-9, 1e-9),
    # error cases: both libraries fail (and set a message) on the same edits; the message
    # texts differ (MuJoCo: "Error: unknown transmission target 'x' ...", Torsion: "mjSpec:
    # element 'general': attribute 'joint': unknown joint 'x'") and go to stderr, unchecked
    ("spec_errors.c", [], 0),
]


@pytest.mark.parametrize("case", CASES,
                         ids=["%s-%s" % (c[0][:-2], os.path.basename(c[1][0]) if c[1] else "")
                              for c in CASES])
def test_same_output(case, tmp_path):
    """The program prints the same text and numbers on both libraries."""
    program, args, rtol = case[:3]
    atol = case[3] if len(case) > 3 else 1e-12
    expected, actual, diffs = run_both(program, tmp_path, args, rtol=rtol, atol=atol)
    assert expected.strip(), "the MuJoCo build printed nothing"
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
