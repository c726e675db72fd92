"""diagnose — find the first compiled-model field and the first pipeline stage where Torsion
and MuJoCo part ways, with `torsion-sim dump` on one side and the bindings on the other.

Used in the failure messages of the differential tests and by scripts/compare_fields.py.
Fields are listed in pipeline order, so the first one that differs is where to look.
"""
import numpy as np

from . import oracle, torsion
from .compare import row_errors

# compiled-model fields that the smooth pipeline reads, roughly in compilation order
MODEL_FIELDS = [
    "opt.timestep", "opt.gravity", "opt.wind", "opt.density", "opt.viscosity",
    "opt.integrator", "opt.disableflags",
    "body_parentid", "body_rootid", "body_weldid", "body_jntnum", "body_jntadr",
    "body_dofnum", "body_dofadr", "body_pos", "body_quat", "body_ipos", "body_iquat",
    "body_mass", "body_subtreemass", "body_inertia", "body_gravcomp",
    "jnt_type", "jnt_qposadr", "jnt_dofadr", "jnt_bodyid", "jnt_pos", "jnt_axis",
    "jnt_stiffness", "jnt_range",
    "dof_bodyid", "dof_jntid", "dof_parentid", "dof_Madr", "dof_armature", "dof_damping",
    "dof_frictionloss", "dof_invweight0", "dof_M0",
    "geom_type", "geom_bodyid", "geom_size", "geom_pos", "geom_quat", "geom_fluid",
    "site_bodyid", "site_pos", "site_quat",
    "tendon_adr", "tendon_num", "tendon_stiffness", "tendon_damping", "tendon_lengthspring",
    "tendon_length0", "wrap_type", "wrap_objid", "wrap_prm",
    "actuator_trntype", "actuator_dyntype", "actuator_gaintype", "actuator_biastype",
    "actuator_trnid", "actuator_gear", "actuator_dynprm", "actuator_gainprm",
    "actuator_biasprm", "actuator_ctrlrange", "actuator_forcerange", "actuator_actrange",
    "actuator_acc0", "actuator_length0",
    "qpos0", "qpos_spring", "M_rownnz", "M_rowadr", "M_colind",
]

# mjData fields after mj_forward, in pipeline order (ten_J, actuator_moment: compared dense)
DATA_FIELDS = [
    "xpos", "xquat", "xipos", "ximat", "xanchor", "xaxis", "geom_xpos", "geom_xmat",
    "site_xpos", "site_xmat", "subtree_com", "cinert", "cdof",
    "ten_length", "ten_J", "actuator_length", "actuator_moment",
    "crb", "M", "qLD", "qLDiagInv", "cvel", "cdof_dot", "qfrc_bias",
    "qfrc_spring", "qfrc_damper", "qfrc_gravcomp", "qfrc_fluid", "qfrc_passive",
    "actuator_velocity", "actuator_force", "act_dot", "qfrc_actuator", "qacc_smooth", "qacc",
]

MODEL_TOL = 1e-10
DATA_TOL = 1e-9


def _torsion_dump(path, fields, states=None, ctrl=None, disable=()):
    """{field: array or error message}: all fields in one call, else one call per field."""
    try:
        return torsion.dump(path, fields, states, ctrl, disable)
    except AssertionError:
        pass
    out = {}
    for f in fields:
        try:
            out[f] = torsion.dump(path, [f], states, ctrl, disable)[f]
        except AssertionError as e:
            out[f] = "torsion-sim dump failed: " + str(e).splitlines()[-1].strip()
    return out


def _compare(name, ours, theirs, tol):
    """(name, status, error) for one field; status 'ok', 'differs', 'shape' or 'missing'."""
    if isinstance(ours, str):
        return name, "missing", ours
    ours = np.asarray(ours, dtype=float)
    if ours.size == 0 and theirs.size == 0:
        return name, "ok", 0.0
    if ours.shape != theirs.shape:
        return name, "shape", "torsion %s, mujoco %s" % (ours.shape, theirs.shape)
    err = float(row_errors(ours.reshape(1, -1), theirs.reshape(1, -1))[0])
    if err > tol:
        flat = np.abs(ours - theirs).reshape(-1)
        flat = np.where(np.isnan(flat), np.inf, flat)
        i = np.unravel_index(int(np.argmax(flat)), ours.shape)
        return name, "differs", "err %.3g at %s: torsion %.17g, mujoco %.17g" % (
            err, tuple(int(x) for x in i), ours[i], theirs[i])
    return name, "ok", err


def model_report(path, m, disable=oracle.SMOOTH_ONLY):
    """Comparisons of MODEL_FIELDS: list of (name, status, detail)."""
    fields = [f for f in MODEL_FIELDS if f.startswith(("opt.", "stat.")) or hasattr(m, f)]
    ours = _torsion_dump(path, fields, disable=disable)
    return [_compare(f, ours[f], oracle.model_field(m, f), MODEL_TOL) for f in fields]


def data_report(path, m, state, ctrl, disable=oracle.SMOOTH_ONLY):
    """Comparisons of DATA_FIELDS after mj_forward at one state: list of (name, status,
    detail)."""
    states = np.asarray(state, dtype=float).reshape(1, -1)
    ctrls = None if m.nu == 0 else np.asarray(ctrl, dtype=float).reshape(1, -1)
    theirs = oracle.data_fields(m, states, ctrls, DATA_FIELDS)
    ours = _torsion_dump(path, DATA_FIELDS, states, ctrls, disable)
    return [_compare(f, ours[f], theirs[f], DATA_TOL) for f in DATA_FIELDS]


def summary(path, m, state=None, ctrl=None, limit=8):
    """A few lines naming the first fields that differ (for an assertion message)."""
    try:
        rows = model_report(path, m)
        if state is not None:
            rows += data_report(path, m, state, ctrl)
    except Exception as e:  # diagnosis must never hide the original failure
        return "diagnosis failed: %s" % e
    bad = [r for r in rows if r[1] in ("differs", "shape")]
    missing = [r[0] for r in rows if r[1] == "missing"]
    lines = []
    if bad:
        lines.append("first fields that differ (pipeline order; scripts/compare_fields.py "
                     "shows all):")
        lines += ["  %-20s %-8s %s" % r for r in bad[:limit]]
        if len(bad) > limit:
            lines.append("  ... %d more" % (len(bad) - limit))
    else:
        lines.append("every field that torsion-sim dumped agrees")
    if missing:
        lines.append("not dumped by torsion-sim: " + ", ".join(missing))
    return "\n".join(lines)
