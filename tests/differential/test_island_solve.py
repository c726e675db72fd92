"""The per-island constraint solve: MuJoCo with its default flags (islands on; the contact
flags of oracle.CONTACT_ORACLE, as Torsion) against Torsion with islands on, after mj_forward
at the trajectory states of test_islands.py (the island scenes under tests/models/islands
and the whole contact corpus).

Compared: qacc (1e-5 with constraints, docs/testing.md), qfrc_constraint and efc_force
(1e-5, relative as compare.row_errors; or 4x MuJoCo's own round-off spread at that state
where that is larger, as the constraint tests), solver_niter of every island slot (equal),
solver_nnz except sparse Newton's (equal), and each recorded island's solver statistics:
nactive and nchange equal, improvement and gradient at the same iterations to 1e-6 (as compare.row_errors over
an island's iterations), or to 10x the state's qfrc_constraint error where that is larger:
an unconverged CG iterate amplifies round-off, and its last improvements and gradients are
differences of nearly equal numbers. Torsion's results come from `torsion-sim islands`
(cmd_islands.c).
States whose constraint rows differ in count or kind between the engines (a contact at
the margin) cannot be compared and fail with that reason (rows are checked elsewhere)."""
import os

import mujoco
import numpy as np
import pytest

from harness import compare, corpus
from harness import constraint_cases as cc

import test_islands as ti

TOL = {"qacc": 1e-5, "qfrc_constraint": 1e-5, "efc_force": 1e-5}
STAT_TOL = 1e-6
ISLAND_MODELS = corpus.local_models([ti.ISLAND_DIR])
TETHERED = corpus.Model("local/islands/tethered",
                        os.path.join(corpus.REPO_ROOT, ti.ISLAND_DIR, "tethered.xml"))


def _mujoco_solve(m, state):
    """MuJoCo's solver results after mj_forward at state."""
    d = mujoco.MjData(m)
    cc.set_state(m, d, state)
    mujoco.mj_forward(m, d)
    out = {"nisland": d.nisland, "nefc": d.nefc, "efc_type": d.efc_type.copy(),
           "qacc": d.qacc.copy(), "qfrc_constraint": d.qfrc_constraint.copy(),
           "efc_force": d.efc_force.copy(), "solver_niter": d.solver_niter.copy(),
           "solver_nnz": d.solver_nnz.copy()}
    nisl = min(max(d.nisland, 1), mujoco.mjNISLAND)
    stats = {}
    for f in ["improvement", "gradient", "nactive", "nchange"]:
        stats[f] = [[float(getattr(d.solver[k * mujoco.mjNSOLVER + i], f))
                     for i in range(min(d.solver_niter[k], mujoco.mjNSOLVER))]
                    for k in range(nisl)]
    out["stats"] = stats
    return out


def _compare(m, states, k, ours, theirs, cache):
    """Differences at one state (list of messages)."""
    if ours["nefc"] != theirs["nefc"] or (
            theirs["nefc"] and not np.array_equal(
                np.array(ours["iefc_type"], dtype=int)[
                    np.array(ours["map_efc2iefc"], dtype=int)] if ours["nisland"]
                else theirs["efc_type"], theirs["efc_type"])):
        return ["the constraint rows differ"]
    problems, errs = [], {}
    for name, tol in TOL.items():
        a, b = np.array(ours[name], dtype=float), np.array(theirs[name], dtype=float)
        err = errs[name] = float(compare.row_errors(a[None], b[None])[0])
        allowed = tol if err <= tol else cc.allowed_error(m, states, k, name, tol, cache)
        if err > allowed:
            problems.append("%s differs by %.3g (allowed %.3g)" % (name, err, allowed))
    if _nnz_comparable(m):
        nnz = np.array(ours["solver_nnz"], dtype=int)
        if np.any(nnz != theirs["solver_nnz"]):
            problems.append("solver_nnz %s, MuJoCo %s" % (
                list(nnz[:8]), list(theirs["solver_nnz"][:8])))
    spread = {}
    for isl in range(len(theirs["stats"]["gradient"])):
        problems += _compare_island(m, states[k], isl, ours, theirs, errs, spread)
    return problems


def _nnz_comparable(m):
    """solver_nnz is compared for CG (the island's Jacobian non-zeros, or its dense block),
    dense Newton (island_nv^2) and PGS (island_nefc^2); sparse Newton's counts its own
    factor's pattern."""
    sparse = m.opt.jacobian == mujoco.mjtJacobian.mjJAC_SPARSE or (
        m.opt.jacobian == mujoco.mjtJacobian.mjJAC_AUTO and m.nv >= 60)
    return m.opt.solver != mujoco.mjtSolver.mjSOL_NEWTON or not sparse


def _stat_errors(ours, theirs, isl):
    """Per statistic, the error of one island's recorded iterations (over the common
    ones), and whether the iteration counts and integer statistics agree."""
    errs = {}
    for f in ["improvement", "gradient"]:
        a, b = ours["solver_" + f][isl], theirs["stats"][f][isl]
        n = min(len(a), len(b))
        errs[f] = float(compare.row_errors(np.array(a[:n])[None], np.array(b[:n])[None])[0]) \
            if n else 0.0
    same = int(ours["solver_niter"][isl]) == int(theirs["solver_niter"][isl]) and all(
        [int(v) for v in ours["solver_" + f][isl]] == [int(v) for v in theirs["stats"][f][isl]]
        for f in ["nactive", "nchange"])
    return errs, same


def _mujoco_stat_spread(m, state, isl):
    """MuJoCo's own round-off sensitivity of one island's statistics: the largest
    statistic errors between mj_forward at state and at qvel perturbed by a few ulps (as
    constraint_cases.mujoco_spread), and whether its iteration count or integer
    statistics changed there."""
    base = _mujoco_solve(m, state)
    r = np.random.default_rng(12345)
    spread, varies = {"improvement": 0.0, "gradient": 0.0}, False
    for _ in range(cc.SPREAD_PERTURBATIONS):
        d = mujoco.MjData(m)
        cc.set_state(m, d, state)
        d.qvel[:] = d.qvel * (1 + cc.SPREAD_REL * r.choice([-1.0, 1.0], size=m.nv))
        pert = cc.get_state(m, d)
        other = _mujoco_solve(m, pert)
        if other["nefc"] != base["nefc"] or isl >= len(other["stats"]["gradient"]):
            continue
        as_ours = {"solver_niter": other["solver_niter"]}
        as_ours.update({"solver_" + f: other["stats"][f] for f in other["stats"]})
        errs, same = _stat_errors(as_ours, base, isl)
        varies |= not same
        for f in spread:
            spread[f] = max(spread[f], errs[f])
    return spread, varies


def _compare_island(m, state, isl, ours, theirs, errs, cache):
    """One island's iteration count and statistics (list of messages): equal counts and
    integer statistics, improvement and gradient to STAT_TOL, unless MuJoCo's own
    round-off moves them (its iteration count at a perturbed state, or 4x its spread)."""
    stat_errs, same = _stat_errors(ours, theirs, isl)
    base_tol = max(STAT_TOL, 10 * errs["qfrc_constraint"])
    if same and all(e <= base_tol for e in stat_errs.values()):
        return []
    if isl not in cache:
        cache[isl] = _mujoco_stat_spread(m, state, isl)
    spread, varies = cache[isl]
    problems = []
    if not same and not varies:
        problems.append("island %d: solver_niter %d, MuJoCo %d; nactive %s, MuJoCo %s" % (
            isl, ours["solver_niter"][isl], theirs["solver_niter"][isl],
            ours["solver_nactive"][isl][:12], theirs["stats"]["nactive"][isl][:12]))
    for f, e in stat_errs.items():
        if e > max(base_tol, cc.SPREAD_FACTOR * spread[f]) and not varies:
            problems.append("island %d: solver %s differs by %.3g (MuJoCo's spread %.3g)" % (
                isl, f, e, spread[f]))
    return problems


def _check(model, options):
    """Every state of model's trajectory under options, MuJoCo's islands on."""
    m = ti._mujoco_model(model, options)
    states = ti._trajectory_states(m)
    ours = ti._torsion_islands(model, states, options)
    failures, cache = [], {}
    for k, state in enumerate(states):
        for p in _compare(m, states, k, ours[k], _mujoco_solve(m, state), cache):
            failures.append("state %d: %s" % (k, p))
    assert not failures, "%s %s: the island solve differs from MuJoCo's:\n  %s" % (
        model.id, dict(options), "\n  ".join(failures[:12]))


@pytest.mark.parametrize("jacobian", ti.JACOBIANS)
@pytest.mark.parametrize("model", ti.MODELS, ids=str)
def test_island_solve_corpus(model, jacobian):
    """Every contact-corpus model with its own solver and cone."""
    _check(model, [("jacobian", jacobian)])


@pytest.mark.parametrize("jacobian", ti.JACOBIANS)
@pytest.mark.parametrize("solver", ["newton", "cg", "pgs"])
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("model", [ti.CROWD, TETHERED], ids=str)
def test_island_solve_solvers(model, cone, solver, jacobian):
    """The island scenes under each solver, cone and Jacobian."""
    _check(model, [("solver", solver), ("cone", cone), ("jacobian", jacobian)])


@pytest.mark.parametrize("solver", ["newton", "cg", "pgs"])
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("model", [ti.CROWD, TETHERED], ids=str)
def test_island_solve_noslip(model, cone, solver):
    """Noslip after each solver, island by island (its iterations follow the solver's)."""
    _check(model, [("solver", solver), ("cone", cone), ("noslip_iterations", 5)])
