"""constraint_cases — the inputs of the contact and constraint checks (issue 3) and
MuJoCo's answers; those several tests share (the contact states and MuJoCo's contact sets)
are computed once per model and session (cached).

Constraints are ON. MuJoCo runs with CONTACT_ORACLE (its defaults: constraint islands and
the native convex collision on in both engines); otherwise both sides use the model's own
options, or the same overrides.
States are mjSTATE_INTEGRATION states (time, qpos, qvel, act, warmstart, controls, applied
forces, mocap, eq_active, ...) passed to torsion-sim with --spec integration, so that both
engines start every computation from exactly the same data, warmstart included.

States of the contact and forward checks (NSTATE per model), drawn so that contacts occur:
- NTRAJ_STATES states along a MuJoCo trajectory of SETTLE_TIME seconds from the initial
  state (keyframe 0, else qpos0; slightly perturbed) under smooth random controls: bodies
  fall onto the floor and onto each other, feet touch, piles form;
- NPERTURB of those states perturbed (positions by ~1 cm and ~1 degree, velocities by
  N(0, 0.5), a quarter of the equality constraints switched off): new penetration depths,
  contacts appearing and disappearing at the margin, eq_active toggling;
- NRANDOM random states as in issue 2 (uniform orientations, large joint angles), the free
  root bodies lowered until something touches: deep penetrations and self-collisions.
"""
import functools

import mujoco
import numpy as np

from . import contacts, efc, oracle
from .cases import MAX_VALUE, _frozen, _warned

SPEC = oracle.INTEGRATION
SPEC_NAME = "integration"   # torsion-sim --spec

NSTATE = 50
NTRAJ_STATES = 20
NPERTURB = 15
NRANDOM = NSTATE - NTRAJ_STATES - NPERTURB
SETTLE_TIME = 2.0          # seconds of the trajectory the contact states are drawn from
SETTLE_MAX_STEPS = 2000
NSTEP_TRAJ = 1000          # steps of each one-step-check trajectory


def load(model, integrator=None, options=()):
    """MuJoCo's model as the contact checks compile it (CONTACT_ORACLE flags set)."""
    return oracle.load(model.path, disable=oracle.CONTACT_ORACLE, integrator=integrator,
                       options=tuple(options))


def perturb_qpos(m, qpos, r, spread):
    """qpos plus noise: N(0, spread) on hinge/slide joints and free positions, quaternions
    turned by about `spread` radians."""
    qpos = np.array(qpos, dtype=float)
    for j in range(m.njnt):
        adr, kind = m.jnt_qposadr[j], m.jnt_type[j]
        if kind == mujoco.mjtJoint.mjJNT_FREE:
            qpos[adr:adr + 3] += r.normal(scale=spread, size=3)
            q = qpos[adr + 3:adr + 7] + r.normal(scale=spread / 2, size=4)
            qpos[adr + 3:adr + 7] = q / np.linalg.norm(q)
        elif kind == mujoco.mjtJoint.mjJNT_BALL:
            q = qpos[adr:adr + 4] + r.normal(scale=spread / 2, size=4)
            qpos[adr:adr + 4] = q / np.linalg.norm(q)
        else:
            qpos[adr] += r.normal(scale=spread)
    return qpos


def reset_initial(m, d, r, spread=0.05):
    """Reset d to the model's initial state (keyframe 0, else the defaults), positions and
    velocities slightly perturbed."""
    if m.nkey:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    else:
        mujoco.mj_resetData(m, d)
    d.qpos[:] = perturb_qpos(m, d.qpos, r, spread)
    d.qvel[:] += r.normal(scale=spread, size=m.nv)


def _vertical_root_coords(m):
    """(qpos address, sign) of the coordinates that move a root body up: the z of free
    joints and slide joints along z (planar walkers' rootz) of bodies on the world."""
    coords = []
    for j in range(m.njnt):
        if m.body_parentid[m.jnt_bodyid[j]] != 0:
            continue
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            coords.append((m.jnt_qposadr[j] + 2, 1.0))
        elif m.jnt_type[j] == mujoco.mjtJoint.mjJNT_SLIDE and \
                abs(abs(m.jnt_axis[j][2]) - 1) < 1e-9:
            coords.append((m.jnt_qposadr[j], float(np.sign(m.jnt_axis[j][2]))))
    return coords


def lower_until_contact(m, d, step=0.02, max_drop=3.0):
    """Move the root bodies down together in steps of `step` until some contact appears
    (at most max_drop): a random state in the air makes no contacts. Models without a free
    or vertical sliding root, or already in contact, are left as they are."""
    coords = _vertical_root_coords(m)
    for _ in range(int(max_drop / step) + 1):
        mujoco.mj_kinematics(m, d)
        mujoco.mj_collision(m, d)
        if d.ncon or not coords:
            return
        for adr, sign in coords:
            d.qpos[adr] -= sign * step


def get_state(m, d):
    """d's state in the SPEC layout."""
    s = np.zeros(oracle.nstate(m, SPEC))
    mujoco.mj_getState(m, d, s, SPEC)
    return s


def set_state(m, d, state):
    """Reset d and load a SPEC state (what torsion-sim does for each input state)."""
    mujoco.mj_resetData(m, d)
    mujoco.mj_setState(m, d, np.asarray(state, dtype=float), SPEC)


def integration_trajectory(m, r, nstep, max_steps=None):
    """(inputs [nstep, nstate], outputs [nstep, nstate]): SPEC states before and after
    consecutive MuJoCo steps under smooth random controls from reset_initial. As in issue
    2, a step on which MuJoCo warns (warn-and-reset) is dropped and the trajectory restarts,
    and so it does after a state value beyond MAX_VALUE."""
    d = mujoco.MjData(m)
    ctrl = oracle.smooth_controls(m, nstep, r)
    inputs = np.zeros((nstep, oracle.nstate(m, SPEC)))
    outputs = np.zeros_like(inputs)
    reset_initial(m, d, r)
    n = 0
    for _ in range(max_steps or 10 * nstep):
        if n == nstep:
            break
        if m.nu:
            d.ctrl[:] = ctrl[n]
        inputs[n] = get_state(m, d)
        mujoco.mj_step(m, d)
        if _warned(d):
            reset_initial(m, d, r)
            continue
        outputs[n] = get_state(m, d)
        n += 1
        if np.max(np.abs(d.qpos), initial=0) > MAX_VALUE or \
                np.max(np.abs(d.qvel), initial=0) > MAX_VALUE:
            reset_initial(m, d, r)
    assert n == nstep, "MuJoCo diverges too often to build a trajectory"
    return inputs, outputs


@functools.lru_cache(maxsize=None)
def contact_states(model):
    """[NSTATE, nstate] SPEC states of the contact and forward checks (module docstring)."""
    m = load(model)
    r = oracle.rng(model.id, "contact-states")
    d = mujoco.MjData(m)
    nsettle = int(min(SETTLE_MAX_STEPS, max(50, round(SETTLE_TIME / m.opt.timestep))))
    _, traj = integration_trajectory(m, r, nsettle)

    # states along the trajectory, from 10% of its length on
    picks = np.linspace(nsettle // 10, nsettle - 1, NTRAJ_STATES).astype(int)
    states = [traj[i] for i in picks]

    # perturbations of trajectory states (warmstart and controls kept); a quarter of the
    # equality constraints switched off (eq_active travels with the state)
    for k in range(NPERTURB):
        set_state(m, d, traj[picks[k % NTRAJ_STATES]])
        d.qpos[:] = perturb_qpos(m, d.qpos, r, 0.01)
        d.qvel[:] += r.normal(scale=0.5, size=m.nv)
        if m.neq:
            d.eq_active[:] = r.random(m.neq) >= 0.25
        states.append(get_state(m, d))

    # random states (issue 2's distribution) lowered onto the floor, zero warmstart
    full, ctrl = oracle.random_states(m, NRANDOM, r)
    for k in range(NRANDOM):
        mujoco.mj_resetData(m, d)
        mujoco.mj_setState(m, d, full[k], oracle.FULLPHYSICS)
        lower_until_contact(m, d)
        if m.nu:
            d.ctrl[:] = ctrl[k]
        states.append(get_state(m, d))
    return _frozen(np.array(states))


def forward_contacts(m, state):
    """MuJoCo's contact set after mj_forward at one SPEC state."""
    d = mujoco.MjData(m)
    set_state(m, d, state)
    mujoco.mj_forward(m, d)
    return contacts.mujoco_set(d)


@functools.lru_cache(maxsize=None)
def mujoco_contacts(model):
    """MuJoCo's contact set (contacts.mujoco_set) after mj_forward at each contact state."""
    m = load(model)
    d = mujoco.MjData(m)
    out = []
    for s in contact_states(model):
        set_state(m, d, s)
        mujoco.mj_forward(m, d)
        out.append(contacts.mujoco_set(d))
    return out


def forward_fields(m, states, names):
    """{name: [B, size]} mjData fields after mj_forward at each SPEC state."""
    d = mujoco.MjData(m)
    out = {n: [] for n in names}
    for s in states:
        set_state(m, d, s)
        mujoco.mj_forward(m, d)
        for n in names:
            out[n].append(np.array(getattr(d, n), dtype=float).reshape(-1))
    return {n: np.array(v).reshape(len(states), -1) for n, v in out.items()}


def forward_case(model, options):
    """(states, MuJoCo {qacc, qfrc_constraint} [NSTATE, nv]) with the option overrides
    ((key, value) pairs) at the contact states."""
    m = load(model, options=options)
    states = contact_states(model)
    res = forward_fields(m, states, ["qacc", "qfrc_constraint"])
    return states, {k: _frozen(v) for k, v in res.items()}


def step_case(model, integrator):
    """(inputs [1000, nstate], outputs [1000, nstate]): SPEC states before and after 1000
    consecutive MuJoCo steps with the given integrator (integration_trajectory). Not cached:
    each is used by one test, and the crowd's take ~75 MB each."""
    m = load(model, integrator=integrator)
    inputs, outputs = integration_trajectory(m, oracle.rng(model.id, "step-" + integrator),
                                             NSTEP_TRAJ)
    return _frozen(inputs, outputs)


def mujoco_efc(m, states):
    """MuJoCo's constraint rows (efc.mujoco_rows) after mj_forward at each SPEC state."""
    d = mujoco.MjData(m)
    out = []
    for s in states:
        set_state(m, d, s)
        mujoco.mj_forward(m, d)
        out.append(efc.mujoco_rows(m, d))
    return out


def efc_summary(m, state):
    """MuJoCo's constraint rows at one state, for failure messages: nefc, rows per type,
    solver iterations."""
    d = mujoco.MjData(m)
    set_state(m, d, state)
    mujoco.mj_forward(m, d)
    kinds = {}
    for t in d.efc_type[:d.nefc]:
        name = mujoco.mjtConstraint(int(t)).name[len("mjCNSTR_"):].lower()
        kinds[name] = kinds.get(name, 0) + 1
    return "mujoco: ncon %d, nefc %d (%s), solver iterations %d" % (
        d.ncon, d.nefc, ", ".join("%s %d" % kv for kv in kinds.items()) or "none",
        int(d.solver_niter[0]))


# MuJoCo's own round-off sensitivity (see mujoco_spread)
SPREAD_PERTURBATIONS = 6
SPREAD_REL = 1e-15
SPREAD_FACTOR = 4


def mujoco_spread(m, state, fields):
    """How far MuJoCo's own results move under round-off: {field: largest err (compare's
    measure) between mj_forward at `state` and at SPREAD_PERTURBATIONS copies of it whose
    qvel entries are scaled by 1 +- SPREAD_REL (a few ulps)}. At most states this is ~1e-14;
    where an unconverged CG or PGS iterate, or a nearly singular constraint set, amplifies
    round-off it reaches the tolerances, and MuJoCo's answer there is only defined to within
    this spread. Fields: mjData arrays (qacc, qfrc_constraint) or "efc_force" (compared only
    when the perturbed pass has the same rows)."""
    from . import compare
    d = mujoco.MjData(m)
    set_state(m, d, state)
    mujoco.mj_forward(m, d)
    base = {f: np.array(getattr(d, f)[:d.nefc] if f == "efc_force" else getattr(d, f),
                        dtype=float) for f in fields}
    nefc = d.nefc
    out = {f: 0.0 for f in fields}
    r = np.random.default_rng(12345)
    for _ in range(SPREAD_PERTURBATIONS):
        set_state(m, d, state)
        d.qvel[:] = d.qvel * (1 + SPREAD_REL * r.choice([-1.0, 1.0], size=m.nv))
        mujoco.mj_forward(m, d)
        for f in fields:
            if f == "efc_force":
                if d.nefc != nefc:
                    continue
                val = np.array(d.efc_force[:nefc], dtype=float)
            else:
                val = np.array(getattr(d, f), dtype=float)
            out[f] = max(out[f], float(compare.row_errors(val[None], base[f][None])[0]))
    return out


def mujoco_step_spread(m, state):
    """How far MuJoCo's own one-step result moves under round-off: the largest err (compare's
    measure, over the whole SPEC state) between one mj_step from `state` and from
    SPREAD_PERTURBATIONS copies whose qpos and qvel entries are scaled by 1 +- SPREAD_REL
    (a contact's onset in a later RK4 stage depends on positions). Where a
    state sits on a knife edge (a contact appearing in a later RK4 stage, an EPA normal that
    a few ulps turn, a body spinning at 1e12 rad/s) MuJoCo's step is only defined to within
    this spread."""
    from . import compare
    d = mujoco.MjData(m)
    set_state(m, d, state)
    mujoco.mj_step(m, d)
    base = get_state(m, d)
    r = np.random.default_rng(12345)
    worst = 0.0
    for _ in range(SPREAD_PERTURBATIONS):
        set_state(m, d, state)
        d.qpos[:] = d.qpos * (1 + SPREAD_REL * r.choice([-1.0, 1.0], size=m.nq))
        d.qvel[:] = d.qvel * (1 + SPREAD_REL * r.choice([-1.0, 1.0], size=m.nv))
        mujoco.mj_step(m, d)
        worst = max(worst, float(compare.row_errors(get_state(m, d)[None], base[None])[0]))
    return worst


def allowed_error(m, states, k, field, tol, cache):
    """The tolerance at state k: tol, or SPREAD_FACTOR times MuJoCo's own spread there when
    that is larger (mujoco_spread; `cache` maps state index -> spreads)."""
    if k not in cache:
        cache[k] = mujoco_spread(m, states[k], ["qacc", "qfrc_constraint", "efc_force"])
    return max(tol, SPREAD_FACTOR * cache[k][field])
