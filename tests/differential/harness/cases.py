"""cases — the inputs of each differential check and MuJoCo's answers, computed once per
model and session (cached), so that a model is compiled and its trajectories integrated by
MuJoCo only once however many tests use them.

All checks run with constraints disabled on both sides (oracle.SMOOTH_ONLY).
"""
import functools

import mujoco
import numpy as np

from . import oracle

NQACC = 50        # random states per model for the qacc check
NTRAJ = 1000      # steps of the MuJoCo trajectory for the one-step check
NROLL_BATCH = 4   # initial states of the full-rollout check
NROLL_STEP = 100  # steps of each full rollout
MAX_VALUE = 1e3   # a trajectory restarts when a state value grows beyond this
MAX_TRIES = 20    # new draws of a rollout's initial state that diverges


def _frozen(*arrays):
    """Make cached arrays read-only so that no test changes them by accident."""
    for a in arrays:
        if a is not None:
            a.setflags(write=False)
    return arrays if len(arrays) > 1 else arrays[0]


@functools.lru_cache(maxsize=None)
def qacc_case(model):
    """(states [50, nstate], ctrl [50, nu], MuJoCo qacc [50, nv]) at random states."""
    m = oracle.load(model.path)
    states, ctrl = oracle.random_states(m, NQACC, oracle.rng(model.id, "qacc"))
    qacc = oracle.forward_qacc(m, states, ctrl)
    return _frozen(states, ctrl, qacc)


def _warned(d):
    """MuJoCo raised a warning during the step (e.g. warn-and-reset)."""
    return bool(np.any(d.warning.number))


@functools.lru_cache(maxsize=None)
def trajectory_case(model, integrator):
    """(inputs [1000, nstate], ctrl [1000, nu], outputs [1000, nstate]): consecutive
    MuJoCo steps with the given integrator under smooth random controls, from a state near
    qpos0. The trajectory restarts from a new state near qpos0 after a step that leaves a
    sane range (a value beyond MAX_VALUE: explicit integrators blow up on some stiff models
    at their own timestep); a step on which MuJoCo warns (warn-and-reset) is dropped, as
    divergence has its own test."""
    m = oracle.load(model.path, integrator=integrator)
    r = oracle.rng(model.id, "trajectory")
    ctrl = oracle.smooth_controls(m, NTRAJ, r)
    d = mujoco.MjData(m)
    inputs = np.zeros((NTRAJ, oracle.nstate(m)))
    outputs = np.zeros_like(inputs)
    n = 0

    def restart():
        s0, _ = oracle.random_states(m, 1, r, spread=0.2)
        s0[0, 0] = 0.0
        mujoco.mj_resetData(m, d)
        mujoco.mj_setState(m, d, s0[0], oracle.FULLPHYSICS)

    restart()
    for _ in range(10 * NTRAJ):
        if n == NTRAJ:
            break
        mujoco.mj_getState(m, d, inputs[n], oracle.FULLPHYSICS)
        if m.nu:
            d.ctrl[:] = ctrl[n]
        mujoco.mj_step(m, d)
        if _warned(d):
            restart()
            continue
        mujoco.mj_getState(m, d, outputs[n], oracle.FULLPHYSICS)
        n += 1
        if np.max(np.abs(outputs[n - 1, 1:]), initial=0) > MAX_VALUE:
            restart()
    assert n == NTRAJ, "MuJoCo diverges on %s too often to build a trajectory" % model.id
    return _frozen(inputs, ctrl, outputs)


@functools.lru_cache(maxsize=None)
def rollout_case(model):
    """(initial states [4, nstate], ctrl [4, 100, nu], MuJoCo states [4, 100, nstate]) with
    the model's own integrator. An initial state whose rollout diverges in MuJoCo is drawn
    again (up to MAX_TRIES times): near divergence round-off is amplified without bound."""
    m = oracle.load(model.path)
    r = oracle.rng(model.id, "rollout")
    s0 = np.zeros((NROLL_BATCH, oracle.nstate(m)))
    ctrl = np.zeros((NROLL_BATCH, NROLL_STEP, m.nu))
    out = np.zeros((NROLL_BATCH, NROLL_STEP, oracle.nstate(m)))
    for b in range(NROLL_BATCH):
        for _ in range(MAX_TRIES):
            s, _ = oracle.random_states(m, 1, r, spread=0.3)
            u = oracle.smooth_controls(m, NROLL_STEP, r)[None]
            o = oracle.rollout(m, s, u, NROLL_STEP)
            steady = np.all(np.diff(np.concatenate([s[:, :1], o[0, :, :1]]), axis=0) > 0)
            if steady and np.max(np.abs(o[0, :, 1:]), initial=0) <= MAX_VALUE:
                break
        s0[b], ctrl[b], out[b] = s[0], u[0], o[0]
    return _frozen(s0, ctrl, out)


def ctrl_or_none(m, ctrl):
    """Controls to pass to torsion-sim (None for models without actuators)."""
    return None if m.nu == 0 else ctrl
