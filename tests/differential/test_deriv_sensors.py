"""Sensor derivatives against MuJoCo 3.14, through `torsion-sim transitionfd` (PREFIX_C,
PREFIX_D) and `inversefd` (PREFIX_DsDq, _DsDv, _DsDa), with the contact checks' flags on
both sides (deriv.BASE_DISABLE: MuJoCo's defaults), constraints on, and the same eps:
- mjd_transitionFD's C and D within 1e-6 (deriv.matrix_error per state), forward and
  centered differences, controls on and beyond their ctrlrange bounds included (one-sided
  differences). MuJoCo 3.14's centered D has the wrong sign in its two-sided columns
  ((minus - plus) / 2eps; its one-sided columns and centered C are right): Torsion computes
  (plus - minus) / 2eps, so the reference negates those columns (docs/fidelity.md), and
  test_centered_d_matches_forward_d checks our centered D against our forward D;
- mjd_inverseFD's DsDq, DsDv and DsDa within 1e-6, with and without flg_actuation;
on corpus models covering every corpus sensor type and on test_sensors.py's sensor zoo
(every type Torsion evaluates). RK4 models are differenced with Euler on both sides, as in
test_derivatives.py.
"""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import corpus, deriv, oracle, torsion
import test_sensors

TOL = 1e-6
EPS = 1e-6
NSTATE = 2

# subtree velocity (walker); touch, force, torque, accelerometer, gyro, velocimeter
# (humanoid); rangefinders and a height field (quadruped); elliptic touch and frame
# positions (finger); every type (the zoo)
CORPUS_IDS = ["dmc/walker", "dmc/humanoid", "dmc/quadruped", "dmc/finger"]
MODELS = [m for m in corpus.all_models() if m.id in CORPUS_IDS] + \
    [test_sensors._local_model("zoo")]
by_model = pytest.mark.parametrize("model", MODELS, ids=str)


def _integrator(path):
    """Euler instead of RK4 (which mjd_transitionFD refuses); else the model's own."""
    m = deriv.load(path, True)
    return "euler" if m.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4 else None


def _inputs(m, model):
    """NSTATE states near qpos0, controls (the first state's on their ctrlrange bounds,
    alternating, the last one beyond its upper bound) and accelerations."""
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model.id, "sensor-fd"),
                                        spread=0.3)
    for i in range(m.nu):
        if m.actuator_ctrllimited[i]:
            lo, hi = m.actuator_ctrlrange[i]
            ctrl[0, i] = lo if i % 2 == 0 else hi
            if i == m.nu - 1:
                ctrl[0, i] = hi + 0.5
    qacc = oracle.rng(model.id, "sensor-fd:qacc").normal(size=(NSTATE, m.nv))
    return states, ctrl, qacc


def _two_sided(m, u):
    """Whether the centered difference of control column i uses both neighbours (as
    mjd_transitionFD decides: inside ctrlrange by eps on both sides, or unlimited)."""
    lo, hi = m.actuator_ctrlrange.T
    return ~m.actuator_ctrllimited.astype(bool) | ((u - EPS >= lo) & (u + EPS <= hi))


def _mujoco_transition(m, states, ctrl, centered):
    """MuJoCo (C [B, ns, ndx], D [B, ns, nu]), its centered D's sign defect undone."""
    d = mujoco.MjData(m)
    ndx, ns = 2 * m.nv + m.na, m.nsensordata
    C, D = np.zeros((len(states), ns, ndx)), np.zeros((len(states), ns, m.nu))
    for k, s in enumerate(states):
        deriv._set(m, d, s, ctrl[k])
        mujoco.mjd_transitionFD(m, d, EPS, centered, None, None, C[k], D[k] if m.nu else None)
        if centered and m.nu:
            D[k][:, _two_sided(m, ctrl[k])] *= -1
    return C, D


def _mujoco_inverse(m, states, qacc, actuation):
    """MuJoCo {DsDq, DsDv, DsDa} [B, nv, ns]."""
    d = mujoco.MjData(m)
    out = {k: np.zeros((len(states), m.nv, m.nsensordata)) for k in ("DsDq", "DsDv", "DsDa")}
    for k, s in enumerate(states):
        deriv._set(m, d, s, qacc=qacc[k])
        mujoco.mjd_inverseFD(m, d, EPS, actuation, None, None, None, out["DsDq"][k],
                             out["DsDv"][k], out["DsDa"][k], None)
    return out


def _torsion(command, path, arrays, flags, names):
    """Run a torsion-sim derivative command; {name: PREFIX_name.npy}."""
    with tempfile.TemporaryDirectory(prefix="tn-sfd-") as tmp:
        prefix = os.path.join(tmp, "fd")
        args = [command, path, "--eps", repr(EPS), "--out", prefix]
        for opt, array in arrays.items():
            args += ["--" + opt, torsion._save(tmp, opt, array)]
        torsion.run(args + flags + ["--disable", ",".join(deriv.disable_flags(True))])
        return {n: torsion._load("%s_%s.npy" % (prefix, n)) for n in names}


def _check(ours, theirs, what):
    """deriv.check_matrices at this file's tolerance."""
    __tracebackhide__ = True
    deriv.check_matrices(ours, theirs, what, TOL)


@pytest.mark.parametrize("centered", [False, True], ids=["forward", "centered"])
@by_model
def test_transition_fd_sensors(model, centered):
    integ = _integrator(model.path)
    m = deriv.load(model.path, True, integ)
    states, ctrl, _ = _inputs(m, model)
    C_ref, D_ref = _mujoco_transition(m, states, ctrl, centered)
    flags = (["--centered"] if centered else []) + (["--integrator", integ] if integ else [])
    arrays = {"state": states}
    if m.nu:
        arrays["ctrl"] = ctrl
    ours = _torsion("transitionfd", model.path, arrays, flags, ["C", "D"])
    kind = "centered" if centered else "forward"
    _check(ours["C"], C_ref, "C (%s)" % kind)
    _check(ours["D"], D_ref, "D (%s)" % kind)


@pytest.mark.parametrize("model", [m for m in MODELS if m.id in ("dmc/humanoid",
                                                                   "sensors/zoo")], ids=str)
def test_centered_d_matches_forward_d(model):
    """Our centered D agrees with our forward D to first order (the sign MuJoCo 3.14 gets
    wrong): both are d sensordata / d ctrl, at controls well inside their ranges, on the
    models whose sensors depend on the controls within a step (acceleration and actuator
    force sensors)."""
    integ = _integrator(model.path)
    m = deriv.load(model.path, True, integ)
    if not m.nu:
        pytest.fail("the sensor derivative models all have actuators; %s has none" % model.id)
    states, ctrl, _ = _inputs(m, model)
    lo, hi = m.actuator_ctrlrange.T
    mid = np.where(m.actuator_ctrllimited.astype(bool), (lo + hi) / 2, ctrl[1])
    ctrl = np.tile(mid, (len(states), 1))
    flags = ["--integrator", integ] if integ else []
    arrays = {"state": states, "ctrl": ctrl}
    fwd = _torsion("transitionfd", model.path, arrays, flags, ["D"])["D"]
    cen = _torsion("transitionfd", model.path, arrays, flags + ["--centered"], ["D"])["D"]
    scale = 1 + np.max(np.abs(cen))
    assert np.max(np.abs(cen)) > 1e-3, "D is zero: nothing checked"
    assert np.max(np.abs(fwd - cen)) / scale < 1e-4, "centered and forward D disagree"


@pytest.mark.parametrize("actuation", [False, True], ids=["plain", "actuation"])
@by_model
def test_inverse_fd_sensors(model, actuation):
    integ = _integrator(model.path)
    m = deriv.load(model.path, True, integ)
    states, _, qacc = _inputs(m, model)
    ref = _mujoco_inverse(m, states, qacc, actuation)
    flags = (["--actuation"] if actuation else []) + (["--integrator", integ] if integ else [])
    ours = _torsion("inversefd", model.path, {"state": states, "qacc": qacc}, flags,
                    ["DsDq", "DsDv", "DsDa"])
    for name in ("DsDq", "DsDv", "DsDa"):
        _check(ours[name], ref[name], name)
