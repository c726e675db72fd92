"""Divergence (issue 2, item 6): NaN, Inf or huge values in the state trigger MuJoCo's
warn-and-reset, never a crash. mj_step checks qpos and qvel (and qacc after mj_forward),
resets to the model's defaults when one is bad, and completes the step from there; a
mujoco.rollout then keeps the state after that step for the remaining steps. Torsion's
rollout must give exactly MuJoCo's states."""
import numpy as np
import pytest

from harness import cases, compare, corpus, oracle, torsion

MODELS = {m.id: m for m in corpus.all_models()}
CASES_MODELS = ["local/pendulum_chain", "gym/ant", "dmc/quadruped"]
BAD_VALUES = {"qpos_nan": ("qpos", np.nan), "qpos_huge": ("qpos", 1e11),
              "qvel_inf": ("qvel", np.inf), "qvel_nan": ("qvel", np.nan),
              "act_nan": ("act", np.nan), "ctrl_nan": ("ctrl", np.nan)}
NSTEP = 3


@pytest.mark.parametrize("bad", list(BAD_VALUES))
@pytest.mark.parametrize("model_id", CASES_MODELS)
def test_warn_and_reset(model_id, bad):
    model = MODELS[model_id]
    m = oracle.load(model.path)
    states, ctrl = oracle.random_states(m, 3, oracle.rng(model.id, "divergence"), spread=0.2)
    ctrl = np.repeat(ctrl[:, None, :], NSTEP, axis=1)
    block, value = BAD_VALUES[bad]
    # row 0 stays sane; rows 1 and 2 get the bad value in their first and last element
    if block == "ctrl":
        ctrl[1, :, 0], ctrl[2, :, -1] = value, value
    else:
        sl = dict(oracle.state_blocks(m))[block]
        if sl.stop == sl.start:
            sl = dict(oracle.state_blocks(m))["qvel"]
        states[1, sl.start], states[2, sl.stop - 1] = value, value
    expected = oracle.rollout(m, states, ctrl, NSTEP)
    ours = torsion.rollout(model.path, states, cases.ctrl_or_none(m, ctrl), NSTEP,
                           disable=oracle.SMOOTH_ONLY)
    compare.check_states(m, ours, expected, 1e-9, "rollout from a state with %s" % bad)
