"""Time stepping with constraints (issue 3, item 7): one-step consistency along a
1000-step MuJoCo trajectory per model and integrator (MuJoCo's mjSTATE_INTEGRATION state at
t in, warmstart and controls included; Torsion's state at t+1 against MuJoCo's) within 1e-6
for Euler, RK4, implicit and implicitfast. All 1000 steps go to one `torsion-sim rollout
--nstep 1 --spec integration` call."""
import numpy as np
import pytest

from harness.params import contact_cases
from harness import compare, oracle, torsion
from harness import constraint_cases as cc
from harness import constraint_diagnose

STEP_TOL = 1e-6


INTEGRATORS = ["euler", "rk4", "implicit", "implicitfast"]


@pytest.mark.parametrize("model,integrator", contact_cases(INTEGRATORS))
def test_constraint_one_step(model, integrator):
    m = cc.load(model, integrator=integrator)
    inputs, outputs = cc.step_case(model, integrator)
    ours = torsion.rollout(model.path, inputs, None, 1, threads=2, integrator=integrator,
                           spec=cc.SPEC_NAME)
    # a state beyond the tolerance passes when MuJoCo's own step moves as much under a few
    # ulps of its input (SPREAD_FACTOR times its spread there: cc.mujoco_step_spread)
    errs = np.max([compare.row_errors(ours[:, 0, sl], outputs[:, sl])
                   for _, sl in oracle.spec_blocks(m, cc.SPEC)], axis=0)
    keep = np.ones(len(errs), dtype=bool)
    for k in np.flatnonzero(errs > STEP_TOL):
        keep[k] = errs[k] > cc.SPREAD_FACTOR * cc.mujoco_step_spread(m, inputs[k])
    idx = np.flatnonzero(keep)
    try:
        dropped = len(errs) - len(idx)
        compare.check_states(m, ours[idx, 0, :], outputs[idx], STEP_TOL,
                             "state after one %s step%s" % (integrator, (
                                 " (state numbers skip the %d states within MuJoCo's own "
                                 "spread)" % dropped) if dropped else ""), spec=cc.SPEC)
    except AssertionError as e:
        # diagnose mj_forward at the input state of the worst step
        k = int(idx[np.argmax(errs[idx])])
        raise AssertionError("%s\nat step %d (input state %d):\n%s" % (
            e, k, k, constraint_diagnose.explain(model, inputs[k],
                                                 integrator=integrator))) from None
