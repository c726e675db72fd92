"""More of MuJoCo's mj_ functions (kinematics, Jacobians, keyframes, model queries): each
program under tests/capi/programs/mj_*.c calls them with fixed inputs on real models and
prints the results; the program is compiled against MuJoCo 3.14 and against Torsion and the
outputs are compared token by token."""
import os

import gymnasium
import pytest

from capi_build import MODELS, run_both

GYM_ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
MJ_MODELS = os.path.join(MODELS, "mj_functions")


def gym(name):
    return os.path.join(GYM_ASSETS, name)


def own(name):
    return os.path.join(MJ_MODELS, name)


# (program, arguments, relative tolerance, absolute tolerance)
CASES = [
    ("mj_jacobians.c", [gym("hopper.xml"), "50"], 1e-9, 1e-12),
    ("mj_jacobians.c", [gym("ant.xml"), "40"], 1e-9, 1e-12),
    ("mj_jacobians.c", [gym("humanoid.xml"), "30"], 1e-9, 1e-12),
    ("mj_jacobians.c", [own("keyframes.xml"), "60"], 1e-9, 1e-12),
    ("mj_model_query.c", [gym("hopper.xml"), "50"], 1e-9, 1e-12),
    ("mj_model_query.c", [gym("ant.xml"), "40"], 1e-9, 1e-12),
    ("mj_model_query.c", [gym("humanoid.xml"), "30"], 1e-9, 1e-12),
    ("mj_model_query.c", [own("keyframes.xml"), "60"], 1e-9, 1e-12),
    # geom distances: with MuJoCo's native convex solver (spread apart, and closer with
    # overlapping analytic pairs), the nearest points on curved geoms agree to its
    # tolerance (ccd_tolerance 1e-6); with the colliders only (NATIVECCD 0), exactly
    ("mj_geom_query.c", [own("geoms.xml"), "1", "1"], 1e-6, 1e-6),
    ("mj_geom_query.c", [own("geoms.xml"), "1.6", "1"], 1e-6, 1e-6),
    ("mj_geom_query.c", [own("geoms.xml"), "0.7", "1"], 1e-6, 1e-6),
    ("mj_geom_query.c", [own("geoms.xml"), "1", "0"], 1e-9, 1e-12),
    ("mj_geom_query.c", [own("geoms.xml"), "0.45", "0"], 1e-9, 1e-12),
    # overlapping pairs with the native solver (EPA): depths agree to 1e-9; the deepest
    # points of a capsule lying along a mesh face are not unique (1e-5 apart)
    ("mj_geom_query.c", [own("overlap.xml"), "1", "1"], 1e-6, 1e-5),
    ("mj_geom_query.c", [own("overlap.xml"), "1.2", "1"], 1e-6, 1e-5),
    ("mj_geom_query.c", [own("overlap.xml"), "1", "0"], 1e-9, 1e-12),
]


@pytest.mark.parametrize("program,args,rtol,atol", CASES,
                         ids=["%s-%s" % (c[0][:-2], "-".join([os.path.basename(c[1][0])] + c[1][1:]))
                              for c in CASES])
def test_same_output(program, args, rtol, atol, tmp_path):
    """The program prints the same text and numbers on both libraries."""
    expected, actual, diffs = run_both(program, tmp_path, args, rtol=rtol, atol=atol)
    assert expected.strip(), "the MuJoCo build printed nothing"
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
