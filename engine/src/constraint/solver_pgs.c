/* constraint/solver_pgs.c — projected Gauss-Seidel on the dual problem.
 *
 * One sweep visits every constraint in order and sets it to its optimum given the others:
 * scalar rows by a Newton step on their residual, clamped to the friction-loss interval or
 * to non-negative force; an elliptic contact first along the ray from the cone's tip
 * through its current force, then its friction forces within the cone's slice at the new
 * normal force (a QCQP). A block update that would increase the cost is reverted. Sweeps
 * stop when the scaled improvement falls below `tolerance`.
 *
 * As in MuJoCo 3.14, the sweep order is a permutation of the constraints (an elliptic
 * contact is one unit), reshuffled before every sweep by Fisher-Yates from the last
 * position down, with a PCG32 generator (XSH-RR output, LCG multiplier
 * 6364136223846793005, increment 1) started from state 1 at each solve.
 * Sweeps are accelerated with Nesterov-style momentum: each sweep starts from
 * y = f + beta_j (f - f_prev), projected onto the constraint set (friction loss clamped,
 * normal force non-negative, cone friction scaled onto the cone), with
 * beta_j = max(0, (j-1)/(j+2)); while beta > 0 the counter j restarts
 * at 0 whenever the sweep's correction opposes the momentum, (f_new - y).(y - f) < 0.
 * With constraint islands, each island is one such solve over its own rows (generator
 * restarted, own iterations and stopping), in place on the global arrays. */
#include <math.h>
#include <stdint.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* scalar row: unconstrained minimum from the residual, then the row's bounds (friction
 * loss: its interval; limits and contacts: non-negative; equality: free); returns the
 * new force (selects rather than branches: the clamps are unpredictable) */
static inline mjtNum update_scalar(const mjData* d, int i, mjtNum force, mjtNum res, mjtNum ARinv) {
  mjtNum f = force - res * ARinv;
  if (i >= d->ne + d->nf) {
    f = f < 0 ? 0 : f;
  } else if (i >= d->ne) {
    mjtNum fl = d->efc_frictionloss[i];
    f = f < -fl ? -fl : f;
    f = f > fl ? fl : f;
  }
  return f;
}

/* elliptic contact: ray update, then friction QCQP at the new normal force */
static void update_elliptic(const mjData* d, int i, int dim, const mjtNum* res, const mjtNum* A,
                            const mjtNum* oldforce) {
  const mjContact* con = d->contact + d->efc_id[i];
  mjtNum* force = d->efc_force + i;
  mjtNum v[6], Av[6], Ac[25], bc[5], x[5];
  int nf = dim - 1;

  // a contact has at most 6 rows (tells the compiler, which inlines the dot products below)
  if (dim > 6) {
    __builtin_unreachable();
  }

  // ray from the tip through the current force (the normal when at the tip)
  mju_copy(v, force, dim);
  if (mju_norm(v, dim) < mjMINVAL) {
    mju_zero(v, dim);
    v[0] = 1;
  }
  mju_mulMatVec(Av, A, v, dim, dim);
  mjtNum denom = mju_dot(v, Av, dim);
  if (denom >= mjMINVAL) {
    mjtNum t = -mju_dot(v, res, dim) / denom;

    // keep the normal force non-negative
    if (force[0] + t * v[0] < 0) {
      t = -force[0] / v[0];
    }
    mju_addToScl(force, v, t, dim);
  }

  // friction given the normal: Ac = A[1:,1:], bc = gradient at zero friction
  for (int j = 0; j < nf; j++) {
    for (int k = 0; k < nf; k++) {
      Ac[j * nf + k] = A[(j + 1) * dim + k + 1];
    }
    bc[j] = res[j + 1] + A[(j + 1) * dim] * (force[0] - oldforce[0]);
    for (int k = 0; k < nf; k++) {
      bc[j] -= Ac[j * nf + k] * oldforce[k + 1];
    }
  }

  // no normal force: no friction
  if (force[0] < mjMINVAL) {
    mju_zero(force + 1, nf);
    return;
  }

  // friction within the cone slice; on the boundary, project exactly onto it
  int active = tn__QCQP(x, Ac, bc, con->friction, force[0], nf);
  if (active) {
    mjtNum s = 0;
    for (int j = 0; j < nf; j++) {
      s += x[j] * x[j] / (con->friction[j] * con->friction[j]);
    }
    s = sqrt(force[0] * force[0] / mju_max(mjMINVAL, s));
    mju_scl(x, x, s, nf);
  }
  mju_copy(force + 1, x, nf);
}

/* PCG32: next 32-bit output (XSH-RR of the old state) */
static uint32_t pcg32_next(uint64_t* state) {
  uint64_t old = *state;
  *state = old * 6364136223846793005ULL + 1ULL;
  uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
  uint32_t rot = (uint32_t)(old >> 59);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

/* reshuffle the sweep order in place */
static void shuffle(int* order, int n, uint64_t* rng) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(pcg32_next(rng) % (uint32_t)(i + 1));
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/* first row of every constraint among the island's rows (ascending; a contact's rows are
 * consecutive and in one island): scalar rows, elliptic contacts as one; returns count */
static int make_blocks(const mjData* d, int* blockadr, const int* rows, int nrow) {
  int n = 0;
  for (int k = 0; k < nrow; k++) {
    int i = rows[k];
    blockadr[n++] = i;
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      k += d->contact[d->efc_id[i]].dim - 1;
    }
  }
  return n;
}

/* project the extrapolated forces of the listed rows (ascending) onto each row's set
 * (interval, half-line, cone) */
static void project_forces(const mjData* d, mjtNum* f, const int* rows, int nrow) {
  int ne = d->ne, nf = d->nf;
  for (int k = 0; k < nrow; k++) {
    int i = rows[k];
    if (i < ne) {
      continue;
    }

    // friction loss: interval
    if (i < ne + nf) {
      mjtNum fl = d->efc_frictionloss[i];
      f[i] = f[i] < -fl ? -fl : (f[i] > fl ? fl : f[i]);
      continue;
    }

    // elliptic contact: the cone (its rows follow in the list)
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      const mjContact* con = d->contact + d->efc_id[i];
      tn__projectCone(f + i, con->friction, con->dim);
      k += con->dim - 1;
      continue;
    }

    // limits and other contacts: non-negative
    if (f[i] < 0) {
      f[i] = 0;
    }
  }
}

/* the rows of one island in ascending order (< 0: all rows); returns their count */
static int island_rows(const mjData* d, int island, int* rows) {
  if (island < 0) {
    for (int i = 0; i < d->nefc; i++) {
      rows[i] = i;
    }
    return d->nefc;
  }
  int n = d->island_nefc[island];
  const int* map = d->map_iefc2efc + d->island_iefcadr[island];
  for (int k = 0; k < n; k++) {
    rows[k] = map[k];
  }
  return n;
}

/* PGS from d->efc_force, on the rows of one island (< 0: all) */
void tn__solPGS(const mjModel* m, mjData* d, int island, int maxiter) {
  int nefc = d->nefc, iter = 0;
  mjtNum scale = tn__solverScale(m);
  mjtNum res[6], oldforce[6], Athis[36];
  mj_markStack(d);
  mjtNum* ARinv = mj_stackAllocNum(d, (size_t)nefc);
  mjtNum* ARdiag = mj_stackAllocNum(d, (size_t)nefc);
  int sparse = is_sparse(m);
  int* order = mj_stackAllocInt(d, (size_t)nefc);
  int* blockadr = mj_stackAllocInt(d, (size_t)nefc);
  mjtNum* prev = mj_stackAllocNum(d, (size_t)nefc);
  mjtNum* start = mj_stackAllocNum(d, (size_t)nefc);
  int* rows = mj_stackAllocInt(d, (size_t)nefc);
  int nrow = island_rows(d, island, rows);
  uint64_t rng = 1;
  int j = 0;
  int nblock = make_blocks(d, blockadr, rows, nrow);
  for (int k = 0; k < nblock; k++) {
    order[k] = k;
  }

  // diagonal and its inverse on the island's rows (the only ones read), initial states
  for (int k = 0; k < nrow; k++) {
    int i = rows[k];
    tn__dualBlock(m, d, ARdiag + i, i, 1, 0);
    ARinv[i] = 1 / mju_max(mjMINVAL, ARdiag[i]);
  }

  // initial states: every row on the first island's solve (the later islands' rows keep
  // their forces until their own solves, which restate only their rows), else the island's
  if (island <= 0) {
    tn__dualState(m, d, d->efc_state);
  } else {
    tn__dualStateRows(d, d->efc_state, rows, nrow);
  }

  while (iter < maxiter) {
    mjtNum improvement = 0;

    // momentum: start from y = f + beta (f - f_prev), projected; remember f
    mjtNum beta = j > 1 ? (mjtNum)(j - 1) / (j + 2) : 0;
    for (int k = 0; k < nrow; k++) {
      int i = rows[k];
      mjtNum f = d->efc_force[i];
      start[i] = beta > 0 ? f + beta * (f - prev[i]) : f;
      prev[i] = f;
    }
    if (beta > 0) {
      project_forces(d, start, rows, nrow);
      for (int k = 0; k < nrow; k++) {
        d->efc_force[rows[k]] = start[rows[k]];
      }
    }

    // one sweep over the constraints (rows, or whole elliptic contacts) in a fresh order
    shuffle(order, nblock, &rng);
    for (int k = 0; k < nblock; k++) {
      int i = blockadr[order[k]];
      // scalar row: update, cost change (reverted if positive)
      if (d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC) {
        mjtNum r = tn__dualRowResidual(d, i, sparse), old = d->efc_force[i];
        mjtNum f = update_scalar(d, i, old, r, ARinv[i]);
        mjtNum delta = f - old;
        mjtNum change = 0.5 * delta * delta * ARdiag[i] + delta * r;
        int revert = change > 1e-10;
        d->efc_force[i] = revert ? old : f;
        improvement -= revert ? 0 : change;
        continue;
      }

      // elliptic contact: residual, block, update, cost change
      int dim = d->contact[d->efc_id[i]].dim;
      tn__dualResidual(m, d, res, i, dim, 0);
      mju_copy(oldforce, d->efc_force + i, dim);
      tn__dualBlock(m, d, Athis, i, dim, 0);
      update_elliptic(d, i, dim, res, Athis, oldforce);
      improvement -= tn__dualCostChange(Athis, d->efc_force + i, oldforce, res, dim);
    }

    // restart the momentum when the sweep undid it: (f_new - y).(y - f) < 0
    mjtNum dir = 0;
    if (beta > 0) {
      for (int k = 0; k < nrow; k++) {
        int i = rows[k];
        dir += (d->efc_force[i] - start[i]) * (start[i] - prev[i]);
      }
    }
    j = dir < 0 ? 0 : j + 1;

    // states (counting the active and the changed ones), statistics, termination
    int nactive, nchange;
    tn__dualStateRowsCount(d, d->efc_state, rows, nrow, &nactive, &nchange);
    improvement *= scale;
    tn__saveStats(m, d, island, iter, improvement, 0, 0, nactive, nchange, 0, 0);
    iter++;
    if (improvement < m->opt.tolerance) {
      break;
    }
  }
  if (island < mjNISLAND) {
    d->solver_niter[island < 0 ? 0 : island] = iter;
  }
  mj_freeStack(d);
}

/* joint space after a dual solver: qfrc_constraint = J' f, qacc = qacc_smooth +
 * M \ qfrc_constraint */
void tn__dualFinish(const mjModel* m, mjData* d) {
  mj_mulJacTVec(m, d, d->qfrc_constraint, d->efc_force);
  mj_solveM(m, d, d->qacc, d->qfrc_constraint, 1);
  mju_addTo(d->qacc, d->qacc_smooth, m->nv);
}
