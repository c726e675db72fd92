"""Forward dynamics (issue 2, item 8): qacc after mj_forward at 50 random states and
controls per model within 1e-8 (relative, compare.py), constraints disabled on both sides."""
import numpy as np

from harness.params import by_model
from harness import cases, compare, diagnose, oracle, torsion

QACC_TOL = 1e-8


@by_model
def test_qacc(model):
    m = oracle.load(model.path)
    states, ctrl, expected = cases.qacc_case(model)
    qacc = torsion.forward(model.path, states, cases.ctrl_or_none(m, ctrl),
                           disable=oracle.SMOOTH_ONLY)
    try:
        labels = [lab.replace("qvel", "qacc") for lab in compare.state_labels(m)["qvel"]]
        compare.check_rows(qacc, expected, QACC_TOL, "qacc", labels, row_name="state")
    except AssertionError as e:
        # diagnose at the worst state: the first model field or stage that differs
        if np.shape(qacc) == np.shape(expected):
            k = int(np.argmax(compare.row_errors(qacc, expected)))
        else:
            k = 0
        raise AssertionError("%s\n%s" % (e, diagnose.summary(model.path, m, states[k],
                                                             ctrl[k]))) from None
