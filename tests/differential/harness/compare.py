"""compare — the tolerance checks of the differential tests, with failure messages that say
where the worst difference is.

The measure (docs/testing.md explains the choice): for each row r (one state, one sample)
and each block of values (qacc; or time, qpos, qvel, act of a state),

    err(r) = max_i |torsion[r, i] - mujoco[r, i]| / (1 + max_i |mujoco[r, i]|)

i.e. the largest difference relative to the size of the vector it belongs to, with an
absolute floor of 1 for vectors smaller than 1. A check passes when err <= tol for every
row and block. NaN against a number counts as an infinite error; NaN against NaN as equal.
"""
import numpy as np


def row_errors(a, b):
    """err(r) over the last axis of a (Torsion) against b (MuJoCo): shape a.shape[:-1]."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1])
    both_nan = np.isnan(a) & np.isnan(b)
    diff = np.where(both_nan, 0.0, np.abs(a - b))
    diff = np.where(np.isnan(diff), np.inf, diff)
    scale = 1.0 + np.max(np.where(np.isnan(b), 0.0, np.abs(b)), axis=-1)
    return np.max(diff, axis=-1) / scale


def _describe_worst(a, b, err, tol, what, labels, row_name):
    """Message for the worst row: index, element, both values."""
    r = np.unravel_index(int(np.argmax(err)), err.shape)
    ra, rb = a[r], b[r]
    diff = np.where(np.isnan(ra) & np.isnan(rb), 0.0, np.abs(ra - rb))
    diff = np.where(np.isnan(diff), np.inf, diff)
    i = int(np.argmax(diff))
    label = labels[i] if labels is not None and i < len(labels) else str(i)
    nbad = int(np.sum(err > tol)) if err.size else 0
    return ("%s: worst %s %s, element %s: torsion %.17g, mujoco %.17g (err %.3g); "
            "%d of %d %ss exceed the tolerance"
            % (what, row_name, tuple(int(x) for x in r) if len(r) > 1 else int(r[0]),
               label, ra[i], rb[i], err[r], nbad, err.size, row_name))


def check_shape(a, b, what):
    """Assert that the Torsion array has MuJoCo's shape."""
    __tracebackhide__ = True
    assert np.shape(a) == np.shape(b), "%s: torsion shape %s, mujoco shape %s" % (
        what, np.shape(a), np.shape(b))


def check_rows(a, b, tol, what, labels=None, row_name="row"):
    """Assert err(r) <= tol for every row; returns the largest err."""
    __tracebackhide__ = True
    check_shape(a, b, what)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    err = row_errors(a, b)
    worst = float(np.max(err)) if err.size else 0.0
    assert worst <= tol, "%s exceeds %.0e. %s" % (
        what, tol, _describe_worst(a, b, err, tol, what, labels, row_name))
    return worst


def state_labels(m):
    """Names for the elements of each state block: joint, dof and actuator names."""
    import mujoco

    def name(obj, i):
        return mujoco.mj_id2name(m, obj, i) or "#%d" % i

    qpos = []
    for j in range(m.njnt):
        size = {0: 7, 1: 4}.get(int(m.jnt_type[j]), 1)
        qpos += ["qpos[%d] (joint %s)" % (len(qpos) + k, name(mujoco.mjtObj.mjOBJ_JOINT, j))
                 for k in range(size)]
    qvel = ["qvel[%d] (joint %s)" % (i, name(mujoco.mjtObj.mjOBJ_JOINT, m.dof_jntid[i]))
            for i in range(m.nv)]
    act = []
    for u in range(m.nu):
        act += ["act[%d] (actuator %s)" % (len(act) + k, name(mujoco.mjtObj.mjOBJ_ACTUATOR, u))
                for k in range(max(0, m.actuator_actnum[u]))]
    warm = [lab.replace("qvel", "qacc_warmstart") for lab in qvel]
    ctrl = ["ctrl[%d] (actuator %s)" % (i, name(mujoco.mjtObj.mjOBJ_ACTUATOR, i))
            for i in range(m.nu)]
    return {"time": ["time"], "qpos": qpos, "qvel": qvel, "act": act,
            "qacc_warmstart": warm, "ctrl": ctrl}


def check_states(m, a, b, tol, what, spec=None):
    """Assert that Torsion states a match MuJoCo states b (any leading shape, last axis the
    FULLPHYSICS state, or the state of another mjtState spec) block by block; returns the
    largest err."""
    __tracebackhide__ = True
    from . import oracle
    check_shape(a, b, what)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    labels = state_labels(m)
    blocks = oracle.state_blocks(m) if spec is None else oracle.spec_blocks(m, spec)
    worst, failures = 0.0, []
    for block, sl in blocks:
        try:
            worst = max(worst, check_rows(a[..., sl], b[..., sl], tol, "%s %s" % (what, block),
                                          labels.get(block), row_name="state"))
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n".join(failures)
    return worst
