"""Scenes with a documented fidelity gap (docs/fidelity.md, corpus.KNOWN_GAPS): spatial
tendons whose side site lies inside the wrapping obstacle. The tendon length must still
agree to round-off; the Jacobian within the size of MuJoCo's iteration error; the
acceleration within what that Jacobian difference allows."""
import numpy as np
import pytest

from harness import cases, corpus, oracle, torsion

GAPS = corpus.gap_models()
LENGTH_TOL = 1e-12   # relative to 1 + |length|
JAC_TOL = 1e-6       # absolute: MuJoCo's tangent search stops ~2.5e-7 rad short
QACC_TOL = 1e-5      # relative to 1 + max|qacc| per state


@pytest.mark.parametrize("model", GAPS, ids=str)
def test_wrap_inside(model):
    assert corpus.KNOWN_GAPS[model.id]
    m = oracle.load(model.path)
    states, ctrl, expected_qacc = cases.qacc_case(model)
    ours = torsion.dump(model.path, ["ten_length", "ten_J", "qacc"], states,
                        cases.ctrl_or_none(m, ctrl), disable=oracle.SMOOTH_ONLY)
    theirs = oracle.data_fields(m, states, ctrl, ["ten_length", "ten_J"])

    # lengths: exact up to round-off
    dl = np.abs(ours["ten_length"] - theirs["ten_length"]) / (1 + np.abs(theirs["ten_length"]))
    assert dl.max() <= LENGTH_TOL, "ten_length differs by %.3g" % dl.max()

    # Jacobians and accelerations: within the documented gap
    dj = np.abs(ours["ten_J"] - theirs["ten_J"]).max()
    assert dj <= JAC_TOL, "ten_J differs by %.3g (gap allows %.1g)" % (dj, JAC_TOL)
    qacc = ours["qacc"].reshape(expected_qacc.shape)
    scale = 1 + np.abs(expected_qacc).max(axis=1, keepdims=True)
    dq = (np.abs(qacc - expected_qacc) / scale).max()
    assert dq <= QACC_TOL, "qacc differs by %.3g relative" % dq
