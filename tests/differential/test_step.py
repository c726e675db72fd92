"""Time stepping (issue 2, item 8), constraints disabled on both sides:
- one-step consistency along a 1000-step MuJoCo trajectory (MuJoCo's state at t in,
  Torsion's state at t+1 against MuJoCo's) within 1e-9, for Euler and RK4; all 1000 steps
  go to torsion-sim as one rollout call with 1000 initial states and nstep 1;
- full 100-step rollouts from 4 random states under smooth random controls within 1e-8;
- rollouts are identical whatever the number of threads."""
import numpy as np
import pytest

from harness.params import MODELS, by_model
from harness import cases, compare, oracle, torsion

STEP_TOL = 1e-9
ROLLOUT_TOL = 1e-8


@pytest.mark.parametrize("integrator", ["euler", "rk4", "implicit", "implicitfast"])
@by_model
def test_one_step(model, integrator):
    m = oracle.load(model.path, integrator=integrator)
    inputs, ctrl, outputs = cases.trajectory_case(model, integrator)
    ours = torsion.rollout(model.path, inputs, cases.ctrl_or_none(m, ctrl[:, None, :]), 1,
                           disable=oracle.SMOOTH_ONLY, threads=2, integrator=integrator)
    compare.check_states(m, ours[:, 0, :], outputs, STEP_TOL,
                         "state after one %s step" % integrator)


@by_model
def test_rollout(model):
    m = oracle.load(model.path)
    s0, ctrl, expected = cases.rollout_case(model)
    ours = torsion.rollout(model.path, s0, cases.ctrl_or_none(m, ctrl), cases.NROLL_STEP,
                           disable=oracle.SMOOTH_ONLY)
    compare.check_states(m, ours, expected, ROLLOUT_TOL,
                         "%d-step rollout (%s)" % (cases.NROLL_STEP,
                                                   oracle.INTEGRATOR_NAMES[m.opt.integrator]))


@by_model
def test_rollout_threads(model):
    m = oracle.load(model.path)
    s0, ctrl, _ = cases.rollout_case(model)
    runs = {t: torsion.rollout(model.path, s0, cases.ctrl_or_none(m, ctrl[:, :20]), 20,
                               disable=oracle.SMOOTH_ONLY, threads=t) for t in (1, 3)}
    assert np.array_equal(runs[1], runs[3], equal_nan=True), \
        "rollout with 3 threads differs from 1 thread (max |diff| %.3g)" % np.nanmax(
            np.abs(runs[1] - runs[3]))


@pytest.mark.parametrize("model_id", ["local/pendulum_chain", "gym/humanoid"])
def test_rollout_ctrl_forms(model_id):
    """Controls [B, 1, nu] hold for every step; no --ctrl means zero controls."""
    model = {m.id: m for m in MODELS}[model_id]
    m = oracle.load(model.path)
    s0, ctrl, _ = cases.rollout_case(model)
    held = ctrl[:, :1, :]
    expected = oracle.rollout(m, s0, held, 30)
    ours = torsion.rollout(model.path, s0, held, 30, disable=oracle.SMOOTH_ONLY)
    compare.check_states(m, ours, expected, ROLLOUT_TOL, "rollout with controls [B, 1, nu]")
    expected = oracle.rollout(m, s0, np.zeros((len(s0), 1, m.nu)), 30)
    ours = torsion.rollout(model.path, s0, None, 30, disable=oracle.SMOOTH_ONLY)
    compare.check_states(m, ours, expected, ROLLOUT_TOL, "rollout without --ctrl")
