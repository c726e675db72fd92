"""Constraint islands (mj_island): every island field of both engines after mj_forward, with
islands ON on both sides (MuJoCo's default; the contact flags of oracle.CONTACT_ORACLE on
both sides, so both engines run the same convex collision path), at NSTATE states of a short
MuJoCo trajectory (smooth random controls, from a slightly perturbed initial state) of every
model of the contact corpus (gymnasium, dm_control suite, our own models and contact scenes:
box tower, drops, humanoid crowd ...) and of the island scenes under tests/models/islands (a
crowd of walkers, boxes, balls and pendulums: touching and separate trees,
weld/connect/site-connect/joint equalities joining trees, a fixed tendon with frictionloss
and a limit coupling two trees, joint limits and frictionloss rows; a tethered scene whose
trees are coupled only through a spatial tendon limit and a tendon equality, with elliptic
cones), with the sparse and the dense Jacobian; the crowd also under every solver and cone.

Torsion's fields come from `torsion-sim islands MODEL --state S.npy --out OUT.json`
(engine/tools/cmd_islands.c). Integer fields (island numbering, sizes, addresses, maps,
iefc_type/iefc_id) must be equal; the island-sorted reals (iefc_frictionloss, iefc_D,
iefc_R; ifrc_smooth and iacc_smooth, which MuJoCo gathers only for its primal solvers,
under CG and Newton) agree to the tolerances of the efc rows (1e-9) and of the
smooth dynamics (1e-8), relative as compare.row_errors. States whose constraint rows differ
in count or kind between the engines (a contact at the margin) cannot be compared island by
island and fail the test with that reason: rows are already checked by the efc tests."""
import json
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import compare, corpus, oracle, torsion
from harness import constraint_cases as cc

NSTEP = 300          # steps of the MuJoCo trajectory
NSTATE = 6           # states taken along it (evenly spaced, the first after 20 steps)
REAL_TOL = {"iefc_frictionloss": 1e-12, "iefc_D": 1e-9, "iefc_R": 1e-9,
            "ifrc_smooth": 1e-8, "iacc_smooth": 1e-8}
# gathered for the primal solvers only: with PGS MuJoCo leaves them unset (PGS sweeps the
# global arrays island by island), so they are compared under CG and Newton
SOLVER_FIELDS = ["ifrc_smooth", "iacc_smooth"]

TREE_FIELDS = ["tree_island", "island_ntree", "island_itreeadr", "map_itree2tree"]
DOF_FIELDS = ["dof_island", "island_nv", "island_idofadr", "island_dofadr", "map_dof2idof",
              "map_idof2dof"]
EFC_FIELDS = ["efc_island", "island_ne", "island_nf", "island_nefc", "island_iefcadr",
              "map_efc2iefc", "map_iefc2efc", "iefc_type", "iefc_id"]
INT_FIELDS = TREE_FIELDS + DOF_FIELDS + EFC_FIELDS

ISLAND_DIR = "tests/models/islands"
MODELS = corpus.contact_models() + corpus.local_models([ISLAND_DIR])
JACOBIANS = ["sparse", "dense"]
CROWD = corpus.Model("local/islands/crowd",
                     os.path.join(corpus.REPO_ROOT, ISLAND_DIR, "crowd.xml"))


def _mujoco_model(model, options):
    """MuJoCo's model with islands on, the contact oracle's flags (oracle.CONTACT_ORACLE)
    and the given option overrides."""
    return oracle.load(model.path, disable=oracle.CONTACT_ORACLE, options=tuple(options))


def _trajectory_states(m):
    """NSTATE integration states along a MuJoCo trajectory with islands on."""
    r = np.random.default_rng(7)
    d = mujoco.MjData(m)
    ctrl = oracle.smooth_controls(m, NSTEP, r)
    cc.reset_initial(m, d, r)
    take = set(np.linspace(20, NSTEP - 1, NSTATE).astype(int))
    states = []
    for n in range(NSTEP):
        if m.nu:
            d.ctrl[:] = ctrl[n]
        if n in take:
            states.append(cc.get_state(m, d))
        mujoco.mj_step(m, d)
        if np.max(np.abs(d.qvel), initial=0) > 1e6:
            cc.reset_initial(m, d, r)
    return np.array(states)


def _mujoco_islands(m, state):
    """MuJoCo's island fields after mj_forward at state (as cmd_islands writes them)."""
    d = mujoco.MjData(m)
    cc.set_state(m, d, state)
    mujoco.mj_forward(m, d)
    k, nidof = d.nisland, d.nidof
    out = {"nisland": k, "nidof": nidof, "nefc": d.nefc, "efc_type": d.efc_type.copy(),
           "efc_id": d.efc_id.copy()}
    if not k:
        return out
    for name in INT_FIELDS:
        out[name] = np.array(getattr(d, name), dtype=int)
    for name in REAL_TOL:
        out[name] = np.array(getattr(d, name), dtype=float)
    return out


def _torsion_islands(model, states, options):
    """`torsion-sim islands`: a list (one per state) of field dicts."""
    with tempfile.TemporaryDirectory(prefix="tn-islands-") as tmp:
        path = os.path.join(tmp, "state.npy")
        out = os.path.join(tmp, "islands.json")
        np.save(path, np.ascontiguousarray(states, dtype="<f8"))
        torsion.run(["islands", model.path, "--state", path, "--out", out] +
                    torsion._flag_args(spec=cc.SPEC_NAME, options=tuple(options)))
        with open(out) as f:
            return json.load(f)


def _compare_state(ours, theirs, pgs):
    """Differences between one state's island fields (list of messages)."""
    problems = []
    for name in ["nisland", "nidof", "nefc"]:
        if ours[name] != theirs[name]:
            problems.append("%s %d, MuJoCo %d" % (name, ours[name], theirs[name]))
    if problems or not theirs["nisland"]:
        return problems
    for name in INT_FIELDS:
        a, b = np.array(ours[name], dtype=int), theirs[name]
        if a.shape != b.shape or np.any(a != b):
            bad = np.flatnonzero(a != b) if a.shape == b.shape else []
            problems.append("%s differs%s: %s, MuJoCo %s" % (
                name, " at %s" % list(bad[:6]) if len(bad) else " in shape",
                list(a[:24]), list(b[:24])))
    for name, tol in REAL_TOL.items():
        if name in SOLVER_FIELDS and pgs:
            continue
        a, b = np.array(ours[name], dtype=float), theirs[name]
        if a.shape != b.shape:
            problems.append("%s shape %s, MuJoCo %s" % (name, a.shape, b.shape))
            continue
        err = compare.row_errors(a, b)
        if err > tol:
            problems.append("%s differs by %.3g (tolerance %g)" % (name, err, tol))
    return problems


def _check(model, options):
    """Compare every island field at the trajectory states of model under options."""
    m = _mujoco_model(model, options)
    states = _trajectory_states(m)
    ours = _torsion_islands(model, states, options)
    assert len(ours) == len(states)
    pgs = m.opt.solver == mujoco.mjtSolver.mjSOL_PGS
    failures = []
    for k, state in enumerate(states):
        theirs = _mujoco_islands(m, state)
        if theirs["nisland"] and ours[k]["nisland"] and theirs["nefc"] == ours[k]["nefc"] \
                and not np.array_equal(theirs["efc_type"], _row_types(ours[k])):
            failures.append("state %d: the constraint rows differ in kind" % k)
            continue
        for p in _compare_state(ours[k], theirs, pgs):
            failures.append("state %d: %s" % (k, p))
    assert not failures, "%s %s: islands differ from MuJoCo's:\n  %s" % (
        model.id, dict(options), "\n  ".join(failures[:12]))


@pytest.mark.parametrize("jacobian", JACOBIANS)
@pytest.mark.parametrize("model", MODELS, ids=str)
def test_islands(model, jacobian):
    _check(model, [("jacobian", jacobian)])


@pytest.mark.parametrize("solver", ["newton", "cg", "pgs"])
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_islands_solvers(solver, cone):
    """The crowd scene under every solver and cone (ifrc_smooth/iacc_smooth: primal only)."""
    _check(CROWD, [("solver", solver), ("cone", cone)])


def _row_types(ours):
    """efc_type of Torsion's rows in global order (iefc_type through map_efc2iefc)."""
    return np.array(ours["iefc_type"], dtype=int)[np.array(ours["map_efc2iefc"], dtype=int)]


def test_islands_scene_has_every_coupling():
    """The crowd scene exercises what it is meant to: several islands, trees outside any
    island, and islands joining several trees (MuJoCo's own answer, islands on)."""
    m = _mujoco_model(CROWD, ())
    counts = []
    for state in _trajectory_states(m):
        theirs = _mujoco_islands(m, state)
        counts.append((theirs["nisland"], int(np.sum(theirs["tree_island"] < 0)),
                       int(np.max(theirs["island_ntree"]))))
    assert all(n >= 5 for n, _, _ in counts), counts
    assert any(free > 0 for _, free, _ in counts), counts
    assert all(most >= 2 for _, _, most in counts), counts


def test_islands_disabled():
    """With the island flag disabled Torsion finds no islands, as MuJoCo."""
    model = CROWD
    m = oracle.load(model.path, disable=oracle.CONTACT_ORACLE + ("island",))
    states = _trajectory_states(m)
    with tempfile.TemporaryDirectory(prefix="tn-islands-") as tmp:
        path = os.path.join(tmp, "state.npy")
        out = os.path.join(tmp, "islands.json")
        np.save(path, np.ascontiguousarray(states, dtype="<f8"))
        torsion.run(["islands", model.path, "--state", path, "--out", out, "--disable",
                     "island", "--spec", cc.SPEC_NAME])
        with open(out) as f:
            ours = json.load(f)
    assert [s["nisland"] for s in ours] == [0] * len(states)
    assert all(s["nefc"] > 0 for s in ours)
