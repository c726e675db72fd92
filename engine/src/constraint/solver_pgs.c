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
 * restarted, own iterations and stopping), in place on the global arrays; several islands'
 * solves run interleaved (a solve's state is a lane), which changes no result. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* x mod n for a 32-bit x without a division: magic = 2^64 / n rounded up (0 for n = 1),
 * the remainder the high word of (magic x mod 2^64) n, exact for every 32-bit x and n
 * (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019) */
static inline uint32_t fastmod(uint32_t x, uint64_t magic, uint32_t n) {
  uint64_t low = magic * x;
  return (uint32_t)(((__uint128_t)low * n) >> 64);
}

/* one Fisher-Yates step: swap order[i] with a uniform order[j], j <= i; magic[k]: fastmod's
 * constant for k (k <= n) */
static inline void shuffle_step(int* order, int i, uint64_t* rng, const uint64_t* magic) {
  uint32_t k = (uint32_t)(i + 1);
  int j = (int)fastmod(pcg32_next(rng), __atomic_load_n(magic + k, __ATOMIC_RELAXED), k);
  int t = order[i];
  order[i] = order[j];
  order[j] = t;
}

/* fastmod constants of 1..TN_PGS_MAGIC shared by the solves of every thread, filled on
 * first need up to magic_filled: an entry depends only on its index, so threads that fill
 * the same entries at once store the same values (atomic stores and loads keep that
 * defined). Larger systems make theirs on the stack for each call. */
#define TN_PGS_MAGIC 1024
static uint64_t magic_table[TN_PGS_MAGIC + 1];
static int magic_filled;

/* the shared constants, filled at least up to n (n <= TN_PGS_MAGIC) */
static const uint64_t* shared_magic(int n) {
  int filled = __atomic_load_n(&magic_filled, __ATOMIC_ACQUIRE);
  if (filled >= n) {
    return magic_table;
  }
  for (int k = 1; k <= n; k++) {
    __atomic_store_n(magic_table + k, UINT64_MAX / (uint64_t)k + 1, __ATOMIC_RELAXED);
  }
  while (filled < n && !__atomic_compare_exchange_n(&magic_filled, &filled, n, 0,
                                                    __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
    // another thread raised the count first: keep the larger
  }
  return magic_table;
}

/* reshuffle the sweep order in place, from the last position down */
static void shuffle(int* order, int n, uint64_t* rng, const uint64_t* magic) {
  for (int i = n - 1; i > 0; i--) {
    shuffle_step(order, i, rng, magic);
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

/* scalar row i's force y projected onto its set: equality free, friction loss its interval,
 * limits and contacts non-negative */
static inline mjtNum project_scalar(const mjData* d, int i, mjtNum y) {
  if (i >= d->ne + d->nf) {
    return y < 0 ? 0 : y;
  }
  if (i >= d->ne) {
    mjtNum fl = d->efc_frictionloss[i];
    return y < -fl ? -fl : (y > fl ? fl : y);
  }
  return y;
}

/* project the extrapolated forces of the listed rows (ascending) onto each row's set
 * (interval, half-line, cone) */
static void project_forces(const mjData* d, mjtNum* f, const int* rows, int nrow) {
  for (int k = 0; k < nrow; k++) {
    int i = rows[k];

    // elliptic contact: the cone (its rows follow in the list)
    if (i >= d->ne + d->nf && d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      const mjContact* con = d->contact + d->efc_id[i];
      tn__projectCone(f + i, con->friction, con->dim);
      k += con->dim - 1;
      continue;
    }
    f[i] = project_scalar(d, i, f[i]);
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
  const uint64_t* magic;  // fastmod constants of 1..nmagic (the shuffles' divisors)
  uint64_t* own_magic;    // this call's own constants (systems past TN_PGS_MAGIC), or NULL
  int nmagic;
  int sparse, maxiter;
  int elliptic;  // elliptic cones: contacts of condim > 1 are blocks (else every row scalar)
  int states_set;  // every row's initial state already set (lane_begin sets none)
  const int* queue;  // the islands in the order their solves start
} tnPGSShared;

/* one island's solve in progress (island < 0: all rows); its lists hold nefc ints each */
typedef struct {
  int island, nrow, nblock, iter, j, done;
  int* rows;      // the rows, ascending
  int* blockadr;  // first row of each constraint
  int* order;     // this sweep's order of the constraints
  int* next;      // the next sweep's order, shuffled during this sweep
  int pending;    // shuffle steps of next still to do (the next is ready at 0)
  int pos;        // the sweep's next constraint (its index in order)
  int active;     // 1 while the lane has a solve in progress
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
  // fastmod constants up to the island's constraint count (this call's own: made once each)
  for (; sh->own_magic && sh->nmagic < ln->nblock; sh->nmagic++) {
    sh->own_magic[sh->nmagic + 1] = UINT64_MAX / (uint64_t)(sh->nmagic + 1) + 1;
  }
  ln->rng = 1;
  ln->pending = -1;
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
  // their forces until their own solves, which restate only their rows), else the island's;
  // none when every row's was set before any solve began (from the same forces)
  if (sh->states_set) {
    return;
  }
  if (island <= 0) {
    tn__dualState(m, d, d->efc_state);
  } else {
    tn__dualStateRows(d, d->efc_state, ln->rows, ln->nrow);
  }
}

/* this sweep's order: the one shuffled during the last sweep (its remaining steps done
 * now), else the current one shuffled now; the next sweep's order starts as a copy of it,
 * to be shuffled one step per constraint of this sweep (lane_shuffle_step). The generator
 * draws in the same sequence either way, so the orders are the same. */
static void lane_order(const tnPGSShared* sh, tnPGSLane* ln) {
  if (ln->pending >= 0) {
    for (; ln->pending > 0; ln->pending--) {
      shuffle_step(ln->next, ln->pending, &ln->rng, sh->magic);
    }
    int* t = ln->order;
    ln->order = ln->next;
    ln->next = t;
  } else {
    shuffle(ln->order, ln->nblock, &ln->rng, sh->magic);
  }
  memcpy(ln->next, ln->order, sizeof(int) * (size_t)ln->nblock);
  ln->pending = ln->nblock - 1;
}

/* one step of the next sweep's shuffle, between two constraints of this sweep: it does not
 * depend on the forces, so it runs while the sweep's residual sums wait on each other */
static inline void lane_shuffle_step(const tnPGSShared* sh, tnPGSLane* ln) {
  if (ln->pending > 0) {
    shuffle_step(ln->next, ln->pending, &ln->rng, sh->magic);
    ln->pending--;
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

  // scalar rows only: extrapolate, project (project_forces' clamps) and start in one pass
  if (beta > 0 && !sh->elliptic) {
    for (int k = 0; k < nrow; k++) {
      int i = rows[k];
      mjtNum f = d->efc_force[i];
      mjtNum y = project_scalar(d, i, f + beta * (f - sh->prev[i]));
      sh->prev[i] = f;
      sh->start[i] = y;
      d->efc_force[i] = y;
    }
    lane_order(sh, ln);
    return;
  }
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
  lane_order(sh, ln);
}

/* scalar row i from its residual r: update, cost change (reverted if positive); returns
 * the kept change (0 when reverted) */
static inline mjtNum scalar_row(mjData* d, const tnPGSShared* sh, int i, mjtNum r) {
  mjtNum old = d->efc_force[i];
  mjtNum f = update_scalar(d, i, old, r, sh->ARinv[i]);
  mjtNum delta = f - old;
  mjtNum change = 0.5 * delta * delta * sh->ARdiag[i] + delta * r;
  int revert = change > 1e-10;
  d->efc_force[i] = revert ? old : f;
  return revert ? 0 : change;
}

/* the elliptic contact starting at row i: residual, block, update; returns the cost
 * change */
static mjtNum elliptic_block(const mjModel* m, mjData* d, int i) {
  mjtNum res[6], oldforce[6], Athis[36];
  int dim = d->contact[d->efc_id[i]].dim;
  tn__dualResidual(m, d, res, i, dim, 0);
  mju_copy(oldforce, d->efc_force + i, dim);
  tn__dualBlock(m, d, Athis, i, dim, 0);
  update_elliptic(d, i, dim, res, Athis, oldforce);
  return tn__dualCostChange(Athis, d->efc_force + i, oldforce, res, dim);
}

/* the constraint starting at row i (a scalar row or a whole elliptic contact); returns the
 * cost change the sweep's improvement subtracts. Inline in the sweeps (the scalar row is
 * the common case) */
static inline mjtNum lane_block(const mjModel* m, mjData* d, const tnPGSShared* sh, int i) {
  if (!sh->elliptic || d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC) {
    return scalar_row(d, sh, i, tn__dualRowResidual(d, i, sh->sparse));
  }
  return elliptic_block(m, d, i);
}

/* the constraints rows[t] of g lanes' sweeps (different islands: disjoint rows, so any
 * order gives the same result); scalar rows of sparse AR share one residual pass */
static void lane_blocks(const mjModel* m, mjData* d, const tnPGSShared* sh, tnPGSLane** ln,
                        const int* rows, int g) {
  int fused = g > 1 && sh->sparse;
  for (int t = 0; fused && sh->elliptic && t < g; t++) {
    fused = d->efc_type[rows[t]] != mjCNSTR_CONTACT_ELLIPTIC;
  }
  if (fused) {
    mjtNum r[4];
    tn__sparseResiduals(d, rows, g, r);
    for (int t = 0; t < g; t++) {
      ln[t]->improvement -= scalar_row(d, sh, rows[t], r[t]);
    }
    return;
  }
  for (int t = 0; t < g; t++) {
    ln[t]->improvement -= lane_block(m, d, sh, rows[t]);
  }
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
  // the shuffles' divisors go up to nefc at most: the shared table when it reaches that far
  sh->nmagic = 0;
  sh->own_magic = NULL;
  if (nefc <= TN_PGS_MAGIC) {
    sh->magic = shared_magic((int)nefc);
  } else {
    sh->own_magic = mj_stackAllocByte(d, sizeof(uint64_t) * (nefc + 1), sizeof(uint64_t));
    sh->magic = sh->own_magic;
  }
  sh->scale = tn__solverScale(m);
  sh->sparse = is_sparse(m);
  sh->maxiter = maxiter;
  sh->elliptic = m->opt.cone != mjCONE_PYRAMIDAL;
  sh->states_set = 0;
  for (int l = 0; l < nlane; l++) {
    lanes[l].rows = mj_stackAllocInt(d, nefc);
    lanes[l].blockadr = mj_stackAllocInt(d, nefc);
    lanes[l].order = mj_stackAllocInt(d, nefc);
    lanes[l].next = mj_stackAllocInt(d, nefc);
  }
}

/* the rest of a lane's solve with no other lane beside it: its current sweep from ln->pos
 * (ln->improvement holding what it has summed so far), then its remaining sweeps */
static void lane_alone(const mjModel* m, mjData* d, tnPGSShared* sh, tnPGSLane* ln) {
  for (;;) {
    mjtNum improvement = ln->improvement;
    for (int k = ln->pos; k < ln->nblock; k++) {
      improvement -= lane_block(m, d, sh, ln->blockadr[ln->order[k]]);
      lane_shuffle_step(sh, ln);
    }
    ln->improvement = improvement;
    lane_post(m, d, sh, ln);
    if (ln->done) {
      return;
    }
    lane_pre(d, sh, ln);
    ln->pos = 0;
  }
}

/* PGS from d->efc_force, on the rows of one island (< 0: all) */
TN_CLONE_AVX2
void tn__solPGS(const mjModel* m, mjData* d, int island, int maxiter) {
  tnPGSShared sh;
  tnPGSLane ln;
  mj_markStack(d);
  pgs_alloc(m, d, &sh, &ln, 1, maxiter);
  lane_begin(m, d, &sh, &ln, island);
  if (ln.done) {
    lane_end(d, &ln);
  } else {
    lane_pre(d, &sh, &ln);
    ln.pos = 0;
    lane_alone(m, d, &sh, &ln);
    lane_end(d, &ln);
  }
  mj_freeStack(d);
}

/* a lane whose sweep has ended: its next sweep, or when its solve has finished the next
 * island's first sweep (solves that finish at once are ended in passing); with no island
 * left the lane goes idle. next: the next island to take */
static void lane_continue(const mjModel* m, mjData* d, tnPGSShared* sh, tnPGSLane* ln,
                          int* next) {
  while (ln->done) {
    lane_end(d, ln);
    if (*next >= d->nisland) {
      ln->active = 0;
      return;
    }
    lane_begin(m, d, sh, ln, sh->queue[(*next)++]);
  }
  lane_pre(d, sh, ln);
  ln->pos = 0;
}

/* ascending order of 64-bit keys (for qsort) */
static int compare_keys(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return (x > y) - (x < y);
}

/* the islands by row count, largest first (ties in island order): each key holds the
 * count's complement above the island's index */
static void island_queue(mjData* d, int* queue) {
  int nisland = d->nisland;
  mj_markStack(d);
  uint64_t* key = mj_stackAllocByte(d, sizeof(uint64_t) * (size_t)(nisland > 0 ? nisland : 1),
                                    sizeof(uint64_t));
  for (int k = 0; k < nisland; k++) {
    key[k] = ((uint64_t)(uint32_t)(INT32_MAX - d->island_nefc[k]) << 32) | (uint32_t)k;
  }
  qsort(key, (size_t)nisland, sizeof(uint64_t), compare_keys);
  for (int k = 0; k < nisland; k++) {
    queue[k] = (int)(key[k] & 0xFFFFFFFFu);
  }
  mj_freeStack(d);
}

/* PGS on every island, TN_PGS_LANES at a time: each island's solve is exactly
 * tn__solPGS's (its rows, order, momentum, iterations and statistics are its own), but the
 * solves of several islands run side by side, one constraint of each lane per step, so
 * that their latency-bound residual sums overlap. Each lane keeps its own pace: a lane
 * whose sweep ends starts its next one (or, its solve finished, the next island's) while
 * the others go on, so lanes with fewer constraints never wait for the others' sweeps.
 * When one lane is left, it finishes alone. */
#define TN_PGS_LANES 4
TN_CLONE_AVX2
void tn__solPGSIslands(const mjModel* m, mjData* d, int maxiter) {
  tnPGSShared sh;
  tnPGSLane lane[TN_PGS_LANES];
  mj_markStack(d);
  pgs_alloc(m, d, &sh, lane, TN_PGS_LANES, maxiter);

  // every row's initial state (from the forces before any solve), then the islands, the
  // largest first: the order changes no result, and a large island started last would
  // finish alone
  tn__dualState(m, d, d->efc_state);
  sh.states_set = 1;
  int nisland = d->nisland, next = 0;
  int* queue = mj_stackAllocInt(d, (size_t)(nisland > 0 ? nisland : 1));
  island_queue(d, queue);
  sh.queue = queue;
  for (int l = 0; l < TN_PGS_LANES; l++) {
    lane[l].done = 1;
    lane[l].active = 0;
    while (next < nisland && lane[l].done) {
      lane_begin(m, d, &sh, lane + l, queue[next++]);
      lane[l].active = !lane[l].done;
      if (lane[l].done) {
        lane_end(d, lane + l);
      }
    }
  }
  for (int l = 0; l < TN_PGS_LANES; l++) {
    if (lane[l].active) {
      lane_pre(d, &sh, lane + l);
      lane[l].pos = 0;
    }
  }

  for (;;) {
    // the next constraint of every busy lane
    tnPGSLane* ln[TN_PGS_LANES];
    int rows[TN_PGS_LANES], g = 0;
    for (int l = 0; l < TN_PGS_LANES; l++) {
      if (lane[l].active) {
        ln[g] = lane + l;
        rows[g++] = lane[l].blockadr[lane[l].order[lane[l].pos]];
      }
    }

    // one lane busy: its solve alone, then the next island if any (none left when there
    // are several lanes: a lane that finishes takes the next island at once)
    if (g <= 1) {
      if (!g) {
        break;
      }
      lane_alone(m, d, &sh, ln[0]);
      lane_continue(m, d, &sh, ln[0], &next);
      continue;
    }

    // one constraint of each, then the lanes whose sweeps ended go on
    lane_blocks(m, d, &sh, ln, rows, g);
    for (int t = 0; t < g; t++) {
      lane_shuffle_step(&sh, ln[t]);
      if (++ln[t]->pos == ln[t]->nblock) {
        lane_post(m, d, &sh, ln[t]);
        lane_continue(m, d, &sh, ln[t], &next);
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
