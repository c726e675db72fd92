"""The last of MuJoCo's C API functions (multi-ray and skin ray casting, the last loaded
XML, XML dependencies, more actuator shortcuts): each program under
tests/capi/programs/rest_*.c calls them with fixed inputs and prints the results; the
program is compiled against MuJoCo 3.14 and against Torsion and the outputs are compared
token by token."""
import os

import gymnasium
import pytest

from capi_build import MODELS, run_both

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
