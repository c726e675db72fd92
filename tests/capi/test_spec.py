"""The model-editing API (mjSpec, mjs_*): programs under tests/capi/programs/spec_*.c build,
edit or parse models with mjs_ calls, compile them with mj_compile and simulate; each is
compiled against MuJoCo 3.14's library and against Torsion's, run with the same arguments,
and the outputs compared token by token (numbers to a relative tolerance, 1e-12 absolute)."""
import os

import gymnasium
import pytest

from capi_build import run_both

GYM_ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")

# (program, arguments, relative tolerance)
CASES = [
    ("spec_defaults.c", [], 0),
    ("spec_actuators.c", [], 0),
    ("spec_build.c", ["pendulum", "400"], 1e-9),
    ("spec_build.c", ["falling", "600"], 1e-9),
    ("spec_build.c", ["tendon", "400"], 1e-9),
    # error cases: both libraries fail (and set a message) on the same edits; the message
    # texts differ (MuJoCo: "Error: unknown transmission target 'x' ...", Torsion: "mjSpec:
    # element 'general': attribute 'joint': unknown joint 'x'") and go to stderr, unchecked
    ("spec_errors.c", [], 0),
]


@pytest.mark.parametrize("program,args,rtol", CASES,
                         ids=["%s-%s" % (c[0][:-2], c[1][0] if c[1] else "") for c in CASES])
def test_same_output(program, args, rtol, tmp_path):
    """The program prints the same text and numbers on both libraries."""
    expected, actual, diffs = run_both(program, tmp_path, args, rtol=rtol)
    assert expected.strip(), "the MuJoCo build printed nothing"
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
