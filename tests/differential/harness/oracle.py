"""oracle — the MuJoCo 3.14 side of every comparison, run in the test process: model loading
with the same option changes as the Torsion side, random states and controls, trajectories,
rollouts and mj_forward results.

Everything random is seeded from the model id and the purpose, so a failure reproduces.
"""
import functools
import os
import zlib

import mujoco
import numpy as np
from mujoco import rollout as mj_rollout

FULLPHYSICS = int(mujoco.mjtState.mjSTATE_FULLPHYSICS)
# the state with everything mj_step reads (warmstart, controls, applied forces, mocap ...)
INTEGRATION = int(mujoco.mjtState.mjSTATE_INTEGRATION)

# MuJoCo's asset cache keys a mesh by its file, not by refpos/refquat or the other settings
# that change the compiled mesh, so a file loaded earlier in the session with other settings
# would come back stale; the oracle compiles every file from scratch instead
mujoco.mj_setCacheCapacity(mujoco.mj_getCache(), 0)

# disable flags set on both sides for issue 2 (smooth dynamics only); see docs/fidelity.md
SMOOTH_ONLY = ("constraint",)

# disable flags set on MuJoCo's side for the contact and constraint checks: none, so both
# engines run their default pipeline (constraint islands, the native convex collision).
# TORSION_DIFF_LEGACY_CCD=1 runs the suite on MuJoCo's legacy convex collision instead
# (nativeccd disabled on both sides: harness/torsion.py adds it to Torsion's flags); that
# path also keeps its own check (test_native_ccd.py: test_legacy_libccd)
CONTACT_ORACLE = ("nativeccd",) if os.environ.get("TORSION_DIFF_LEGACY_CCD") == "1" else ()

# the benchmarks' MuJoCo: its default pipeline, as Torsion's (constraint islands and the
# native convex collision on in both engines)
BENCH_ORACLE = ()

# option values as torsion-sim --option takes them
SOLVERS = {"pgs": int(mujoco.mjtSolver.mjSOL_PGS), "cg": int(mujoco.mjtSolver.mjSOL_CG),
           "newton": int(mujoco.mjtSolver.mjSOL_NEWTON)}
CONES = {"pyramidal": int(mujoco.mjtCone.mjCONE_PYRAMIDAL),
         "elliptic": int(mujoco.mjtCone.mjCONE_ELLIPTIC)}
JACOBIANS = {"dense": int(mujoco.mjtJacobian.mjJAC_DENSE),
             "sparse": int(mujoco.mjtJacobian.mjJAC_SPARSE),
             "auto": int(mujoco.mjtJacobian.mjJAC_AUTO)}
_ENUM_OPTIONS = {"solver": SOLVERS, "cone": CONES, "jacobian": JACOBIANS}

# the parts of a state in layout order: (mjtState bit name, block name)
STATE_PARTS = [("TIME", "time"), ("QPOS", "qpos"), ("QVEL", "qvel"), ("ACT", "act"),
               ("HISTORY", "history"), ("WARMSTART", "qacc_warmstart"), ("CTRL", "ctrl"),
               ("QFRC_APPLIED", "qfrc_applied"), ("XFRC_APPLIED", "xfrc_applied"),
               ("EQ_ACTIVE", "eq_active"), ("MOCAP_POS", "mocap_pos"),
               ("MOCAP_QUAT", "mocap_quat"), ("USERDATA", "userdata"),
               ("PLUGIN", "plugin")]

# integrator names as torsion-sim takes them
INTEGRATORS = {
    "euler": int(mujoco.mjtIntegrator.mjINT_EULER),
    "rk4": int(mujoco.mjtIntegrator.mjINT_RK4),
    "implicit": int(mujoco.mjtIntegrator.mjINT_IMPLICIT),
    "implicitfast": int(mujoco.mjtIntegrator.mjINT_IMPLICITFAST),
}
INTEGRATOR_NAMES = {v: k for k, v in INTEGRATORS.items()}


# MuJoCo's warnings (divergence, bad controls) are collected here instead of being printed
# and appended to MUJOCO_LOG.TXT in the working directory
WARNINGS = []


def _collect_warning(msg):
    """mju_user_warning handler: keep the last few messages."""
    WARNINGS.append(msg)
    del WARNINGS[:-100]


mujoco.set_mju_user_warning(_collect_warning)


def disable_bits(names):
    """mjtDisableBit mask of flag names such as ("constraint", "gravity")."""
    bits = 0
    for name in names:
        bits |= int(getattr(mujoco.mjtDisableBit, "mjDSBL_" + name.upper()))
    return bits


def apply_options(m, options):
    """Set mjOption fields from (key, value) pairs as torsion-sim --option takes them:
    solver/cone/jacobian by name, the other keys (iterations, tolerance, impratio, ...) by
    number."""
    for key, value in options:
        if key in _ENUM_OPTIONS:
            setattr(m.opt, key, _ENUM_OPTIONS[key][value])
        else:
            field = getattr(m.opt, key)
            setattr(m.opt, key, type(field)(value))


@functools.lru_cache(maxsize=32)
def load(path, disable=SMOOTH_ONLY, integrator=None, options=()):
    """Compile path with the given disable flags, integrator (None: the model's own) and
    option overrides ((key, value) pairs, see apply_options). Cached (the 32 most recent:
    the real-robot meshes would otherwise keep gigabytes alive for the whole session):
    callers must not modify the returned model."""
    m = mujoco.MjModel.from_xml_path(path)
    m.opt.disableflags |= disable_bits(disable)
    if integrator is not None:
        m.opt.integrator = INTEGRATORS[integrator]
    apply_options(m, options)
    return m


def rng(model_id, purpose):
    """A generator seeded from the model id and the purpose of the numbers."""
    return np.random.default_rng(zlib.crc32(("%s:%s" % (model_id, purpose)).encode()))


def nstate(m, spec=FULLPHYSICS):
    """Size of a state (FULLPHYSICS unless another mjtState spec is given)."""
    return mujoco.mj_stateSize(m, spec)


def spec_blocks(m, spec):
    """(name, slice) of each non-empty part of a state of the given spec, in layout order
    (time, qpos, qvel, act, history, qacc_warmstart, ctrl, ...)."""
    blocks, start = [], 0
    for bit, name in STATE_PARTS:
        flag = int(getattr(mujoco.mjtState, "mjSTATE_" + bit))
        if spec & flag:
            size = mujoco.mj_stateSize(m, flag)
            if size:
                blocks.append((name, slice(start, start + size)))
            start += size
    assert start == nstate(m, spec), "state layout of spec %d not understood" % spec
    return blocks


def state_blocks(m):
    """(name, slice) of each part of a FULLPHYSICS state, in order."""
    q, v, a = m.nq, m.nv, m.na
    blocks = [("time", slice(0, 1)), ("qpos", slice(1, 1 + q)),
              ("qvel", slice(1 + q, 1 + q + v)), ("act", slice(1 + q + v, 1 + q + v + a))]
    rest = nstate(m) - (1 + q + v + a)
    if rest:
        blocks.append(("history+plugin", slice(1 + q + v + a, 1 + q + v + a + rest)))
    return blocks


def _unit_quat(r, n=None):
    """Uniformly random unit quaternion(s)."""
    q = r.normal(size=4 if n is None else (n, 4))
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def _near_quat(r, q0, spread):
    """Unit quaternion near q0 (spread 1 or more: uniformly random)."""
    if spread >= 1:
        return _unit_quat(r)
    q = np.asarray(q0) + r.normal(scale=spread, size=4)
    return q / np.linalg.norm(q)


def random_qpos(m, r, spread=1.0):
    """qpos0 plus noise: N(0, 0.5 spread) on hinge/slide joints and free positions; unit
    quaternions for ball/free joints (uniform when spread is 1, near qpos0 when smaller)."""
    qpos = np.array(m.qpos0, dtype=float)
    for j in range(m.njnt):
        adr, kind = m.jnt_qposadr[j], m.jnt_type[j]
        if kind == mujoco.mjtJoint.mjJNT_FREE:
            qpos[adr:adr + 3] += r.normal(scale=0.5 * spread, size=3)
            qpos[adr + 3:adr + 7] = _near_quat(r, qpos[adr + 3:adr + 7], spread)
        elif kind == mujoco.mjtJoint.mjJNT_BALL:
            qpos[adr:adr + 4] = _near_quat(r, qpos[adr:adr + 4], spread)
        else:
            qpos[adr] += r.normal(scale=0.5 * spread)
    return qpos


def ctrl_bounds(m):
    """(lo, hi) per actuator: ctrlrange when limited, else [-1, 1]."""
    lo, hi = -np.ones(m.nu), np.ones(m.nu)
    for i in range(m.nu):
        if m.actuator_ctrllimited[i]:
            lo[i], hi[i] = m.actuator_ctrlrange[i]
    return lo, hi


def random_act(m, r):
    """Activations: uniform in actrange when limited, else N(0, 1)."""
    act = np.zeros(m.na)
    for i in range(m.nu):
        adr, num = m.actuator_actadr[i], m.actuator_actnum[i]
        if num <= 0:
            continue
        if m.actuator_actlimited[i]:
            act[adr:adr + num] = r.uniform(*m.actuator_actrange[i], size=num)
        else:
            act[adr:adr + num] = r.normal(size=num)
    return act


def random_states(m, n, r, spread=1.0):
    """n random FULLPHYSICS states and controls ([n, nstate], [n, nu]): random time, qpos
    (random_qpos), velocities N(0, spread), act (random_act), controls uniform in
    ctrl_bounds."""
    states = np.zeros((n, nstate(m)))
    lo, hi = ctrl_bounds(m)
    ctrl = np.zeros((n, m.nu))
    for k in range(n):
        parts = [[r.uniform(0, 10)], random_qpos(m, r, spread),
                 r.normal(scale=spread, size=m.nv), random_act(m, r)]
        flat = np.concatenate(parts)
        states[k, :flat.size] = flat
        ctrl[k] = r.uniform(lo, hi)
    return states, ctrl


def smooth_controls(m, nstep, r, overshoot=0.1):
    """[nstep, nu] smooth random controls: per actuator a sum of three sinusoids (0.2 to 2
    Hz), spanning ctrl_bounds widened by `overshoot` on each side, so that clamping to
    ctrlrange is exercised too."""
    t = np.arange(nstep) * m.opt.timestep
    lo, hi = ctrl_bounds(m)
    mid, half = (lo + hi) / 2, (hi - lo) / 2 * (1 + overshoot)
    ctrl = np.zeros((nstep, m.nu))
    for i in range(m.nu):
        freq = r.uniform(0.2, 2.0, size=3)
        phase = r.uniform(0, 2 * np.pi, size=3)
        wave = np.sin(2 * np.pi * freq[None, :] * t[:, None] + phase[None, :]).sum(axis=1) / 3
        ctrl[:, i] = mid[i] + half[i] * wave
    return ctrl


def rollout(m, states, ctrl, nstep):
    """mujoco.rollout on one thread: states after each step, [B, nstep, nstate].
    ctrl is [B, nstep or 1, nu] (None when nu is 0)."""
    d = mujoco.MjData(m)
    if m.nu == 0:
        ctrl = None
    out, _ = mj_rollout.rollout(m, d, np.asarray(states, dtype=float), ctrl, nstep=nstep)
    return out


def trajectory(m, s0, ctrl):
    """Trajectory from s0 under ctrl [nstep, nu]: [nstep + 1, nstate], row 0 is s0."""
    nstep = len(ctrl)
    out = rollout(m, s0[None, :], ctrl[None, :, :], nstep)[0]
    return np.vstack([s0[None, :], out])


def _forward_at(m, d, state, ctrl):
    """mj_forward at one state and control."""
    mujoco.mj_setState(m, d, np.asarray(state, dtype=float), FULLPHYSICS)
    if m.nu:
        d.ctrl[:] = ctrl
    mujoco.mj_forward(m, d)


def forward_qacc(m, states, ctrl):
    """qacc [B, nv] after mj_forward at each state and control."""
    d = mujoco.MjData(m)
    out = np.zeros((len(states), m.nv))
    for k in range(len(states)):
        _forward_at(m, d, states[k], ctrl[k] if m.nu else None)
        out[k] = d.qacc
    return out


def as_rows(value):
    """An array as [rows, cols] (1-D: one column; a scalar: 1 x 1)."""
    value = np.asarray(value, dtype=float)
    if value.ndim == 0:
        return value.reshape(1, 1)
    return value.reshape(value.shape[0], int(np.prod(value.shape[1:], dtype=int)))


def model_field(m, name):
    """A model field as torsion-sim dump writes it: [rows, cols] float64 ("opt.x" and
    "stat.x" for options and statistics)."""
    if name.startswith(("opt.", "stat.")):
        group, attr = name.split(".", 1)
        value = np.atleast_1d(np.asarray(getattr(getattr(m, group), attr), dtype=float))
        return value.reshape(1, -1)
    return as_rows(getattr(m, name))


def _dense(m, d, name):
    """A data field in Torsion's layout (ten_J and actuator_moment dense)."""
    if name == "ten_J":
        out = np.zeros((m.ntendon, m.nv))
        for t in range(m.ntendon):
            adr, nnz = m.ten_J_rowadr[t], m.ten_J_rownnz[t]
            # a dof listed twice in a fixed tendon: the first entry holds the sum, the
            # second zero, so adding gives the dense value
            np.add.at(out[t], m.ten_J_colind[adr:adr + nnz], d.ten_J[adr:adr + nnz])
        return out
    if name == "actuator_moment":
        out = np.zeros((m.nu, m.nv))
        for i in range(m.nu):
            adr, nnz = d.moment_rowadr[i], d.moment_rownnz[i]
            out[i, d.moment_colind[adr:adr + nnz]] = d.actuator_moment[adr:adr + nnz]
        return out
    return as_rows(np.array(getattr(d, name), dtype=float))


def data_fields(m, states, ctrl, names):
    """{name: [B, rows, cols]} data fields after mj_forward at each state."""
    d = mujoco.MjData(m)
    out = {n: [] for n in names}
    for k in range(len(states)):
        _forward_at(m, d, states[k], ctrl[k] if m.nu else None)
        for n in names:
            out[n].append(_dense(m, d, n))
    return {n: np.array(v) for n, v in out.items()}
