"""Crowd scenes of Gymnasium humanoids (tests/models/scenes/gym_humanoid_crowd_N.xml, N = 1,
4, 16, 64, written by scripts/gen_scenes.py): Torsion equals MuJoCo on them.

States: MuJoCo's own trajectory from the scene's initial state (keyframe 0: qpos0) with zero
controls, taken at STEPS (standing and falling, first landings, humanoids lying on each
other), as mjSTATE_INTEGRATION states (warmstart included) so that both engines start from
the same data. MuJoCo runs with the oracle's contact settings (oracle.CONTACT_ORACLE); both
use the scene's own options (RK4, PGS, 50 iterations, as Gymnasium's humanoid).

Checks, with docs/testing.md's tolerances for constrained dynamics: qacc after mj_forward
(1e-5, or a few times MuJoCo's own round-off spread at that state, as the other contact
checks) and the state after one mj_step (1e-6).
"""
import os

import mujoco
import numpy as np
import pytest

from harness import compare, corpus, oracle, torsion
from harness import constraint_cases as cc

SCENES = os.path.join(corpus.REPO_ROOT, "tests", "models", "scenes")
SIZES = [1, 4, 16, 64]
STEPS = [150, 450, 900]
QACC_TOL = 1e-5
STEP_TOL = 1e-6


def scene(n):
    return os.path.join(SCENES, "gym_humanoid_crowd_%d.xml" % n)


def trajectory_states(m):
    """(INTEGRATION states at STEPS, contacts between different humanoids at each)."""
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    states, between, step = [], [], 0
    for target in STEPS:
        while step < target:
            mujoco.mj_step(m, d)
            step += 1
        states.append(cc.get_state(m, d))
        roots = [(m.body_rootid[m.geom_bodyid[c.geom1]], m.body_rootid[m.geom_bodyid[c.geom2]])
                 for c in d.contact[:d.ncon]]
        between.append(sum(1 for a, b in roots if a and b and a != b))
    return np.array(states), between


@pytest.fixture(scope="module", params=SIZES, ids=lambda n: "crowd_%d" % n)
def case(request):
    """(N, path, MuJoCo model, states, inter-humanoid contact counts)."""
    n = request.param
    m = oracle.load(scene(n), disable=oracle.CONTACT_ORACLE)
    states, between = trajectory_states(m)
    return n, scene(n), m, states, between


def test_scene_sizes(case):
    """N humanoids, each with Gymnasium's 23 dofs and 17 motors; the larger crowds touch."""
    n, path, m, _, between = case
    assert (m.nv, m.nu, m.nbody) == (23 * n, 17 * n, 1 + 13 * n)
    info = torsion.info(path)
    assert (info["nv"], info["nu"], info["ngeom"]) == (m.nv, m.nu, m.ngeom)
    if n >= 16:
        assert between[-1] > 0, "no contacts between humanoids at step %d" % STEPS[-1]


def test_forward(case):
    _, path, m, states, _ = case
    d = mujoco.MjData(m)
    expected = np.zeros((len(states), m.nv))
    for k, s in enumerate(states):
        cc.set_state(m, d, s)
        mujoco.mj_forward(m, d)
        assert d.ncon > 0
        expected[k] = d.qacc
    ours = np.reshape(torsion.forward(path, states, spec=cc.SPEC_NAME), expected.shape)
    err = compare.row_errors(ours, expected)
    spreads = {}
    bad = [k for k in range(len(states))
           if err[k] > cc.allowed_error(m, states, k, "qacc", QACC_TOL, spreads)]
    assert not bad, "qacc at steps %s: errors %s" % (
        [STEPS[k] for k in bad], ", ".join("%.3g" % err[k] for k in bad))


def test_one_step(case):
    _, path, m, states, _ = case
    d = mujoco.MjData(m)
    expected = np.zeros_like(states)
    for k, s in enumerate(states):
        cc.set_state(m, d, s)
        mujoco.mj_step(m, d)
        expected[k] = cc.get_state(m, d)
    ours = torsion.rollout(path, states, None, 1, spec=cc.SPEC_NAME)[:, 0, :]
    compare.check_states(m, ours, expected, STEP_TOL, "one step", spec=cc.SPEC)
