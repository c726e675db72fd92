"""Inverse dynamics (issue 5, items 1 and 7) against MuJoCo 3.14, through `torsion-sim
inverse`, with mjDSBL_ISLAND and mjDSBL_NATIVECCD set on both sides:
- qfrc_inverse at random states and accelerations within 1e-8 (relative, compare.py's
  measure) with constraints disabled and 1e-6 with them;
- forward then inverse (both Torsion) recovers qfrc_applied + qfrc_actuator (smooth), or
  matches MuJoCo's own forward-then-inverse (constrained: the solver stops early);
- the invdiscrete flag (discrete-time accelerations of Euler, implicit, implicitfast)."""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness.params import MODELS, by_model
from harness import compare, deriv, oracle, torsion

TOL = {False: 1e-8, True: 1e-6}
NSTATE = 4


def _inputs(m, model, purpose="inverse"):
    """NSTATE states near qpos0 (so that contacts are active but not absurdly deep) and
    random accelerations."""
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model.id, purpose), spread=0.3)
    qacc = oracle.rng(model.id, purpose + ":qacc").normal(scale=2.0, size=(NSTATE, m.nv))
    return states, ctrl, qacc


@pytest.mark.parametrize("constraints", [False, True], ids=["smooth", "constrained"])
@by_model
def test_qfrc_inverse(model, constraints):
    m = deriv.load(model.path, constraints)
    states, _, qacc = _inputs(m, model)
    expected = deriv.inverse(m, states, qacc)
    ours = deriv.t_inverse(model.path, states, qacc, constraints)
    compare.check_rows(ours, expected, TOL[constraints], "qfrc_inverse", row_name="state")


def _integration_states(m, states, ctrl, qfrc_applied):
    """INTEGRATION-spec states carrying controls and qfrc_applied."""
    spec = int(mujoco.mjtState.mjSTATE_INTEGRATION)
    d = mujoco.MjData(m)
    out = np.zeros((len(states), mujoco.mj_stateSize(m, spec)))
    for k, s in enumerate(states):
        mujoco.mj_resetData(m, d)
        mujoco.mj_setState(m, d, s, oracle.FULLPHYSICS)
        d.ctrl[:] = ctrl[k]
        d.qfrc_applied[:] = qfrc_applied[k]
        mujoco.mj_getState(m, d, out[k], spec)
    return out


@pytest.mark.parametrize("constraints", [False, True], ids=["smooth", "constrained"])
@by_model
def test_forward_then_inverse(model, constraints):
    """Torsion's forward qacc fed to Torsion's inverse gives back the applied forces:
    exactly (qfrc_applied + qfrc_actuator, 1e-8) without constraints; with them, the
    forward solver stops at its tolerance, so the result is compared with MuJoCo's own
    forward-then-inverse (1e-6)."""
    m = deriv.load(model.path, constraints)
    spec = int(mujoco.mjtState.mjSTATE_INTEGRATION)
    states, ctrl, _ = _inputs(m, model, "fwdinv")
    applied = oracle.rng(model.id, "fwdinv:applied").normal(size=(NSTATE, m.nv))
    full = _integration_states(m, states, ctrl, applied)

    # MuJoCo: applied + actuator forces, and its own forward-then-inverse
    d = mujoco.MjData(m)
    expected = np.zeros((NSTATE, m.nv))
    for k in range(NSTATE):
        mujoco.mj_setState(m, d, full[k], spec)
        mujoco.mj_forward(m, d)
        if constraints:
            mujoco.mj_inverse(m, d)
            expected[k] = d.qfrc_inverse
        else:
            expected[k] = d.qfrc_applied + d.qfrc_actuator

    # Torsion: forward, then inverse at the same states
    with tempfile.TemporaryDirectory(prefix="tn-fwdinv-") as tmp:
        spath = torsion._save(tmp, "state", full)
        flags = ["--disable", ",".join(deriv.disable_flags(constraints)),
                 "--spec", "integration"]
        qacc_path = os.path.join(tmp, "qacc.npy")
        torsion.run(["forward", model.path, "--state", spath, "--out", qacc_path] + flags)
        out = os.path.join(tmp, "qfrc.npy")
        torsion.run(["inverse", model.path, "--state", spath, "--qacc", qacc_path,
                     "--out", out] + flags)
        ours = torsion._load(out, (NSTATE, m.nv))
    compare.check_rows(ours, expected, TOL[constraints], "qfrc_inverse after forward",
                       row_name="state")


DISCRETE_MODELS = ["dmc/cheetah", "dmc/quadruped", "gym/humanoid", "dmc/fish"]


@pytest.mark.parametrize("integrator", ["euler", "implicit", "implicitfast"])
@pytest.mark.parametrize("model_id", DISCRETE_MODELS)
def test_invdiscrete(model_id, integrator):
    model = {mm.id: mm for mm in MODELS}[model_id]
    m = mujoco.MjModel.from_xml_path(model.path)
    m.opt.disableflags |= oracle.disable_bits(deriv.BASE_DISABLE)
    m.opt.integrator = oracle.INTEGRATORS[integrator]
    states, _, qacc = _inputs(m, model, "invdiscrete")
    continuous = deriv.inverse(m, states, qacc)
    m.opt.enableflags |= int(mujoco.mjtEnableBit.mjENBL_INVDISCRETE)
    expected = deriv.inverse(m, states, qacc)
    with tempfile.TemporaryDirectory(prefix="tn-invd-") as tmp:
        out = os.path.join(tmp, "qfrc.npy")
        torsion.run(["inverse", model.path, "--state", torsion._save(tmp, "s", states),
                     "--qacc", torsion._save(tmp, "a", qacc), "--out", out,
                     "--disable", ",".join(deriv.BASE_DISABLE), "--enable", "invdiscrete",
                     "--integrator", integrator])
        ours = torsion._load(out, np.shape(qacc))
    # the flag must matter on these damped models, and match MuJoCo
    assert np.max(np.abs(expected - continuous)) > 1e-9
    compare.check_rows(ours, expected, TOL[True], "qfrc_inverse (invdiscrete, %s)" % integrator,
                       row_name="state")
