"""Source compatibility: each program under tests/capi/programs/ is written against
MuJoCo's C API, compiled once against MuJoCo 3.14's library and once against Torsion's with
only the include and link lines changed, run with the same arguments, and the outputs
compared (numbers to 1e-9 relative unless a case says otherwise)."""
import os

import gymnasium
import pytest

from capi_build import run_both

GYM_ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")

# (program, arguments, relative tolerance)
CASES = [
    ("load_step.c", [os.path.join(GYM_ASSETS, "hopper.xml"), "200"], 1e-9),
    ("load_step.c", [os.path.join(GYM_ASSETS, "ant.xml"), "100"], 1e-9),
    ("load_step.c", [os.path.join(GYM_ASSETS, "humanoid.xml"), "50"], 1e-9),
    ("vfs_contains.c", [], 0),
]


@pytest.mark.parametrize("program,args,rtol", CASES,
                         ids=["%s-%s" % (c[0][:-2], os.path.basename(c[1][0]) if c[1] else "none")
                              for c in CASES])
def test_same_output(program, args, rtol, tmp_path):
    """The program prints the same text and numbers on both libraries."""
    expected, actual, diffs = run_both(program, tmp_path, args, rtol=rtol)
    assert expected.strip(), "the MuJoCo build printed nothing"
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
