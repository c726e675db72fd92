"""Finite-difference derivatives (issue 5, items 2, 3 and 7) against MuJoCo 3.14, through
`torsion-sim transitionfd` and `inversefd`, with mjDSBL_ISLAND and mjDSBL_NATIVECCD set on
both sides and the same eps:
- mjd_transitionFD's A and B within 1e-6 (compare.py's relative measure per matrix), forward
  differences with constraints and centered differences without; controls exactly at and
  beyond their ctrlrange bounds are included (one-sided differences);
- mjd_inverseFD's DfDq, DfDv, DfDa and DmDq within 1e-6 (DmDq compared densely: Torsion's M
  pattern keeps exact zeros that MuJoCo's drops);
- batch results identical for 1 and 3 threads; bad input fails cleanly.
MuJoCo's transitionFD and inverseFD do not support RK4: RK4 models are differenced with
Euler on both sides (and the RK4 refusal is checked)."""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness.params import MODELS, by_model
from harness import deriv, oracle, torsion

TOL = 1e-6
EPS = 1e-6
NSTATE = 2


def _integrator(path, constraints):
    """Euler instead of RK4 (which mjd_transitionFD refuses); else the model's own."""
    m = deriv.load(path, constraints)
    return "euler" if m.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4 else None


def _inputs(m, model):
    """NSTATE states near qpos0 and controls; the first state's controls sit on their
    ctrlrange bounds (alternating lower/upper) and the last control beyond its upper bound,
    to exercise the one-sided differences."""
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model.id, "fd"), spread=0.3)
    for i in range(m.nu):
        if m.actuator_ctrllimited[i]:
            lo, hi = m.actuator_ctrlrange[i]
            ctrl[0, i] = lo if i % 2 == 0 else hi
            if i == m.nu - 1:
                ctrl[0, i] = hi + 0.5
    qacc = oracle.rng(model.id, "fd:qacc").normal(size=(NSTATE, m.nv))
    return states, ctrl, qacc


def _check(ours, theirs, what):
    """deriv.check_matrices at this file's tolerance."""
    __tracebackhide__ = True
    deriv.check_matrices(ours, theirs, what, TOL)


@pytest.mark.parametrize("centered", [False, True], ids=["forward", "centered"])
@by_model
def test_transition_fd(model, centered):
    constraints = not centered
    integ = _integrator(model.path, constraints)
    m = deriv.load(model.path, constraints, integ)
    states, ctrl, _ = _inputs(m, model)
    A_ref, B_ref = deriv.transition_fd(m, states, ctrl, EPS, centered)
    A, B = deriv.t_transition_fd(model.path, states, ctrl, EPS, centered, m.nv, m.na, m.nu,
                                 constraints, integrator=integ)
    _check(A, A_ref, "A (%s)" % ("centered" if centered else "forward"))
    _check(B, B_ref, "B (%s)" % ("centered" if centered else "forward"))


@by_model
def test_inverse_fd(model):
    integ = _integrator(model.path, True)
    m = deriv.load(model.path, True, integ)
    states, _, qacc = _inputs(m, model)
    ref = deriv.inverse_fd(m, states, qacc, EPS)
    ours = deriv.t_inverse_fd(model.path, states, qacc, EPS, m.nv, constraints=True,
                              integrator=integ)
    ours["DmDq"] = deriv.dense_torsion_DmDq(model.path, m.nv, ours["DmDq"])
    ref["DmDq"] = deriv.dense_mujoco_DmDq(m, ref["DmDq"])
    for name in ("DfDq", "DfDv", "DfDa", "DmDq"):
        _check(ours[name], ref[name], name)


@pytest.mark.parametrize("model_id", ["gym/hopper", "dmc/cartpole"])
def test_inverse_fd_actuation(model_id):
    """flg_actuation subtracts qfrc_actuator (position-dependent for these actuators)."""
    model = {mm.id: mm for mm in MODELS}[model_id]
    integ = _integrator(model.path, True)
    m = deriv.load(model.path, True, integ)
    states, _, qacc = _inputs(m, model)
    ref = deriv.inverse_fd(m, states, qacc, EPS, actuation=True)
    ours = deriv.t_inverse_fd(model.path, states, qacc, EPS, m.nv, actuation=True,
                              integrator=integ)
    for name in ("DfDq", "DfDv", "DfDa"):
        _check(ours[name], ref[name], name + " (actuation)")


@pytest.mark.parametrize("model_id", ["gym/walker2d", "dmc/quadruped"])
def test_threads_identical(model_id):
    model = {mm.id: mm for mm in MODELS}[model_id]
    integ = _integrator(model.path, True)
    m = deriv.load(model.path, True, integ)
    states, ctrl = oracle.random_states(m, 5, oracle.rng(model.id, "fdthreads"), spread=0.3)
    qacc = oracle.rng(model.id, "fdthreads:qacc").normal(size=(5, m.nv))
    runs = [deriv.t_transition_fd(model.path, states, ctrl, EPS, False, m.nv, m.na, m.nu,
                                  integrator=integ, threads=t) for t in (1, 3)]
    for a, b in zip(runs[0], runs[1]):
        assert np.array_equal(a, b), "transitionfd differs between 1 and 3 threads"
    inv = [deriv.t_inverse_fd(model.path, states, qacc, EPS, m.nv, threads=t,
                              integrator=integ) for t in (1, 3)]
    for k in inv[0]:
        assert np.array_equal(inv[0][k], inv[1][k]), "inversefd %s differs with threads" % k
    q = [deriv.t_inverse(model.path, states, qacc, threads=t) for t in (1, 3)]
    assert np.array_equal(q[0], q[1]), "inverse differs between 1 and 3 threads"


def _fails(args, needle):
    """torsion-sim exits 1 (not a crash) and says `needle`."""
    proc = torsion.run(args, check=False)
    assert proc.returncode == 1, "exit %d, stderr %s" % (proc.returncode, proc.stderr)
    assert needle in proc.stderr, proc.stderr


def test_bad_input():
    model = {mm.id: mm for mm in MODELS}["gym/hopper"]
    m = deriv.load(model.path, True)
    with tempfile.TemporaryDirectory(prefix="tn-fdbad-") as tmp:
        good = torsion._save(tmp, "good", oracle.random_states(m, 1, oracle.rng("x", "y"))[0])
        bad = torsion._save(tmp, "bad", np.zeros((1, 3)))
        qacc = torsion._save(tmp, "qacc", np.zeros((1, m.nv)))
        badq = torsion._save(tmp, "badq", np.zeros((1, m.nv + 1)))
        out = os.path.join(tmp, "o")
        _fails(["transitionfd", model.path, "--state", bad, "--out", out], "states must be")
        _fails(["transitionfd", model.path, "--state", good, "--out", out, "--eps", "0"],
               "--eps must be")
        _fails(["transitionfd", model.path, "--state", good, "--out", out, "--eps", "nan"],
               "--eps must be")
        _fails(["transitionfd", model.path, "--state", good, "--out", out, "--integrator",
                "rk4"], "RK4")
        _fails(["inversefd", model.path, "--state", good, "--qacc", qacc, "--out", out,
                "--integrator", "rk4"], "RK4")
        _fails(["inverse", model.path, "--state", good, "--qacc", badq, "--out", out],
               "accelerations must be")
        _fails(["inverse", model.path, "--state", good, "--out", out], "missing --qacc")
        _fails(["inversefd", model.path, "--state", good, "--qacc", qacc, "--out", out,
                "--centered"], "forward differences")
