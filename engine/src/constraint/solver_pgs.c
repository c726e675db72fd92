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
 * restarted, own iterations and stopping), in place on the global arrays; two islands'
 * solves run interleaved (a solve's state is a lane), which changes no result. */
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
  mjtNum v[6] = {0}, Av[6], Ac[25], bc[5], x[5];  // v zeroed: GCC cannot see dim <= 6 fills it
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

/* what the solves of one call share: per-row arrays indexed by global row (islands own
 * disjoint rows), the options */
typedef struct {
  mjtNum* ARinv;   // 1 / AR(i,i)
  mjtNum* ARdiag;  // AR(i,i)
  mjtNum* prev;    // forces before the sweep
  mjtNum* start;   // the sweep's extrapolated start
  mjtNum scale;    // statistics scale
  int sparse, maxiter;
} tnPGSShared;

/* one island's solve in progress (island < 0: all rows); its lists hold nefc ints each */
typedef struct {
  int island, nrow, nblock, iter, j, done;
  int* rows;      // the rows, ascending
  int* blockadr;  // first row of each constraint
  int* order;     // this sweep's order of the constraints
  uint64_t rng;
  mjtNum improvement, beta;
} tnPGSLane;

/* start a lane on an island: its rows and constraints, diagonal, initial states */
static void lane_begin(const mjModel* m, mjData* d, tnPGSShared* sh, tnPGSLane* ln,
                       int island) {
  ln->island = island;
  ln->nrow = island_rows(d, island, ln->rows);
  ln->nblock = make_blocks(d, ln->blockadr, ln->rows, ln->nrow);
  for (int k = 0; k < ln->nblock; k++) {
    ln->order[k] = k;
  }
  ln->rng = 1;
  ln->j = 0;
  ln->iter = 0;
  ln->done = ln->iter >= sh->maxiter;

  // diagonal and its inverse on the island's rows (the only ones read)
  for (int k = 0; k < ln->nrow; k++) {
    int i = ln->rows[k];
    tn__dualBlock(m, d, sh->ARdiag + i, i, 1, 0);
    sh->ARinv[i] = 1 / mju_max(mjMINVAL, sh->ARdiag[i]);
  }

  // initial states: every row on the first island's solve (the later islands' rows keep
  // their forces until their own solves, which restate only their rows), else the island's
  if (island <= 0) {
    tn__dualState(m, d, d->efc_state);
  } else {
    tn__dualStateRows(d, d->efc_state, ln->rows, ln->nrow);
  }
}

/* before a sweep: momentum start y = f + beta (f - f_prev), projected; remember f; a fresh
 * order */
static void lane_pre(const mjData* d, tnPGSShared* sh, tnPGSLane* ln) {
  const int* rows = ln->rows;
  int nrow = ln->nrow, j = ln->j;
  ln->improvement = 0;
  ln->beta = j > 1 ? (mjtNum)(j - 1) / (j + 2) : 0;
  mjtNum beta = ln->beta;
  for (int k = 0; k < nrow; k++) {
    int i = rows[k];
    mjtNum f = d->efc_force[i];
    sh->start[i] = beta > 0 ? f + beta * (f - sh->prev[i]) : f;
    sh->prev[i] = f;
  }
  if (beta > 0) {
    project_forces(d, sh->start, rows, nrow);
    for (int k = 0; k < nrow; k++) {
      d->efc_force[rows[k]] = sh->start[rows[k]];
    }
  }
  shuffle(ln->order, ln->nblock, &ln->rng);
}

/* scalar row i from its residual r: update, cost change (reverted if positive) */
static inline void scalar_row(mjData* d, const tnPGSShared* sh, tnPGSLane* ln, int i, mjtNum r) {
  mjtNum old = d->efc_force[i];
  mjtNum f = update_scalar(d, i, old, r, sh->ARinv[i]);
  mjtNum delta = f - old;
  mjtNum change = 0.5 * delta * delta * sh->ARdiag[i] + delta * r;
  int revert = change > 1e-10;
  d->efc_force[i] = revert ? old : f;
  ln->improvement -= revert ? 0 : change;
}

/* the constraint starting at row i (a scalar row or a whole elliptic contact) */
static void lane_block(const mjModel* m, mjData* d, const tnPGSShared* sh, tnPGSLane* ln,
                       int i) {
  if (d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC) {
    scalar_row(d, sh, ln, i, tn__dualRowResidual(d, i, sh->sparse));
    return;
  }

  // elliptic contact: residual, block, update, cost change
  mjtNum res[6], oldforce[6], Athis[36];
  int dim = d->contact[d->efc_id[i]].dim;
  tn__dualResidual(m, d, res, i, dim, 0);
  mju_copy(oldforce, d->efc_force + i, dim);
  tn__dualBlock(m, d, Athis, i, dim, 0);
  update_elliptic(d, i, dim, res, Athis, oldforce);
  ln->improvement -= tn__dualCostChange(Athis, d->efc_force + i, oldforce, res, dim);
}

/* the residuals of rows a and b of sparse AR, each MuJoCo's sequential sum in column
 * order, computed side by side (two independent chains) */
static inline void sparse_residual2(const mjData* d, int a, int b, mjtNum* ra, mjtNum* rb) {
  const mjtNum* force = d->efc_force;
  int na = d->efc_AR_rownnz[a], nb = d->efc_AR_rownnz[b];
  const int* ca = d->efc_AR_colind + d->efc_AR_rowadr[a];
  const int* cb = d->efc_AR_colind + d->efc_AR_rowadr[b];
  const mjtNum* va = d->efc_AR + d->efc_AR_rowadr[a];
  const mjtNum* vb = d->efc_AR + d->efc_AR_rowadr[b];
  mjtNum sa = 0, sb = 0;
  int n = na < nb ? na : nb, k = 0;
  for (; k < n; k++) {
    sa += va[k] * force[ca[k]];
    sb += vb[k] * force[cb[k]];
  }
  for (int t = k; t < na; t++) {
    sa += va[t] * force[ca[t]];
  }
  for (int t = k; t < nb; t++) {
    sb += vb[t] * force[cb[t]];
  }
  *ra = sa + d->efc_b[a];
  *rb = sb + d->efc_b[b];
}

/* the k-th constraints of two lanes' sweeps (different islands: disjoint rows, so either
 * order gives the same result); two scalar rows of sparse AR share one residual pass */
static void lane_block2(const mjModel* m, mjData* d, const tnPGSShared* sh, tnPGSLane* la,
                        int ia, tnPGSLane* lb, int ib) {
  if (sh->sparse && d->efc_type[ia] != mjCNSTR_CONTACT_ELLIPTIC &&
      d->efc_type[ib] != mjCNSTR_CONTACT_ELLIPTIC) {
    mjtNum ra, rb;
    sparse_residual2(d, ia, ib, &ra, &rb);
    scalar_row(d, sh, la, ia, ra);
    scalar_row(d, sh, lb, ib, rb);
    return;
  }
  lane_block(m, d, sh, la, ia);
  lane_block(m, d, sh, lb, ib);
}

/* after a sweep: momentum restart, states, statistics, termination */
static void lane_post(const mjModel* m, mjData* d, const tnPGSShared* sh, tnPGSLane* ln) {
  // restart the momentum when the sweep undid it: (f_new - y).(y - f) < 0
  mjtNum dir = 0;
  if (ln->beta > 0) {
    for (int k = 0; k < ln->nrow; k++) {
      int i = ln->rows[k];
      dir += (d->efc_force[i] - sh->start[i]) * (sh->start[i] - sh->prev[i]);
    }
  }
  ln->j = dir < 0 ? 0 : ln->j + 1;

  // states (counting the active and the changed ones), statistics, termination
  int nactive, nchange;
  tn__dualStateRowsCount(d, d->efc_state, ln->rows, ln->nrow, &nactive, &nchange);
  mjtNum improvement = ln->improvement * sh->scale;
  tn__saveStats(m, d, ln->island, ln->iter, improvement, 0, 0, nactive, nchange, 0, 0);
  ln->iter++;
  ln->done = improvement < m->opt.tolerance || ln->iter >= sh->maxiter;
}

/* a finished lane's iteration count */
static void lane_end(mjData* d, const tnPGSLane* ln) {
  if (ln->island < mjNISLAND) {
    d->solver_niter[ln->island < 0 ? 0 : ln->island] = ln->iter;
  }
}

/* shared arrays and nlane lanes' lists from the stack (caller marks and frees) */
static void pgs_alloc(const mjModel* m, mjData* d, tnPGSShared* sh, tnPGSLane* lanes,
                      int nlane, int maxiter) {
  size_t nefc = (size_t)d->nefc;
  sh->ARinv = mj_stackAllocNum(d, nefc);
  sh->ARdiag = mj_stackAllocNum(d, nefc);
  sh->prev = mj_stackAllocNum(d, nefc);
  sh->start = mj_stackAllocNum(d, nefc);
  sh->scale = tn__solverScale(m);
  sh->sparse = is_sparse(m);
  sh->maxiter = maxiter;
  for (int l = 0; l < nlane; l++) {
    lanes[l].rows = mj_stackAllocInt(d, nefc);
    lanes[l].blockadr = mj_stackAllocInt(d, nefc);
    lanes[l].order = mj_stackAllocInt(d, nefc);
  }
}

/* PGS from d->efc_force, on the rows of one island (< 0: all) */
void tn__solPGS(const mjModel* m, mjData* d, int island, int maxiter) {
  tnPGSShared sh;
  tnPGSLane ln;
  mj_markStack(d);
  pgs_alloc(m, d, &sh, &ln, 1, maxiter);
  lane_begin(m, d, &sh, &ln, island);
  while (!ln.done) {
    lane_pre(d, &sh, &ln);
    for (int k = 0; k < ln.nblock; k++) {
      lane_block(m, d, &sh, &ln, ln.blockadr[ln.order[k]]);
    }
    lane_post(m, d, &sh, &ln);
  }
  lane_end(d, &ln);
  mj_freeStack(d);
}

/* PGS on every island, two at a time: each island's solve is exactly tn__solPGS's (its
 * rows, order, momentum, iterations and statistics are its own), but the sweeps of two
 * islands run side by side, their k-th constraints updated together, so that the two
 * latency-bound residual sums overlap. A lane whose island finishes takes the next one. */
void tn__solPGSIslands(const mjModel* m, mjData* d, int maxiter) {
  tnPGSShared sh;
  tnPGSLane lane[2];
  mj_markStack(d);
  pgs_alloc(m, d, &sh, lane, 2, maxiter);

  // islands in order; a lane with nothing left is idle (done)
  int next = 0, nisland = d->nisland;
  for (int l = 0; l < 2; l++) {
    lane[l].done = 1;
    while (next < nisland && lane[l].done) {
      lane_begin(m, d, &sh, lane + l, next++);
      if (lane[l].done) {
        lane_end(d, lane + l);
      }
    }
  }
  while (!lane[0].done || !lane[1].done) {
    // one sweep of each busy lane, the common prefix of their constraints paired
    for (int l = 0; l < 2; l++) {
      if (!lane[l].done) {
        lane_pre(d, &sh, lane + l);
      }
    }
    int n0 = lane[0].done ? 0 : lane[0].nblock, n1 = lane[1].done ? 0 : lane[1].nblock;
    int n = n0 < n1 ? n0 : n1, k = 0;
    for (; k < n; k++) {
      lane_block2(m, d, &sh, lane, lane[0].blockadr[lane[0].order[k]], lane + 1,
                  lane[1].blockadr[lane[1].order[k]]);
    }
    for (int t = k; t < n0; t++) {
      lane_block(m, d, &sh, lane, lane[0].blockadr[lane[0].order[t]]);
    }
    for (int t = k; t < n1; t++) {
      lane_block(m, d, &sh, lane + 1, lane[1].blockadr[lane[1].order[t]]);
    }

    // finish the sweeps; a finished island's lane takes the next island
    for (int l = 0; l < 2; l++) {
      if (lane[l].done) {
        continue;
      }
      lane_post(m, d, &sh, lane + l);
      while (lane[l].done) {
        lane_end(d, lane + l);
        if (next >= nisland) {
          break;
        }
        lane_begin(m, d, &sh, lane + l, next++);
      }
    }
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
