/* constraint/constraint.h — internal interface of the constraint model and solvers.
 *
 * The constraint stage turns contacts, limits, friction loss and equality constraints into
 * scalar rows (efc_*: Jacobian, position, impedance, reference acceleration) and solves
 * MuJoCo's convex problem for the constraint forces with PGS, CG or Newton. This header
 * declares what the files of src/constraint share: the enumerations MuJoCo's public header
 * has (until torsion/mjtnum.h carries them), the Jacobian kernels that hide the dense/sparse
 * choice, and the solver entry points (the efc arrays' arena region is model/efc_arena.h). */
#ifndef TORSION_CONSTRAINT_H
#define TORSION_CONSTRAINT_H

#include <torsion/torsion.h>

#include "model/efc_arena.h"
#include "util/util_inline.h"

/* mjtConstraint and mjtConstraintState come from the public mjtnum.h */

/* option flags, as MuJoCo's mjDISABLED / mjENABLED */
#define TN_CDISABLED(m, x) (((m)->opt.disableflags & (x)) != 0)
#define TN_CENABLED(m, x) (((m)->opt.enableflags & (x)) != 0)

/* ---------------------------------------------------------------------------------------
 * Public stages (declared here until torsion.h carries them)
 * ------------------------------------------------------------------------------------- */

/* Build the constraint rows: efc_type/id/J/pos/margin/frictionloss/diagA/KBIP/D/R, ne, nf,
 * nl, nefc, contact efc_address and mu. Allocates every efc array from the arena's top. */
void mj_makeConstraint(const mjModel* m, mjData* d);

/* efc_AR = J inv(M) J' + diag(R) when a dual solver (PGS) or noslip needs it. */
void mj_projectConstraint(const mjModel* m, mjData* d);

/* efc_vel = J qvel and efc_aref = -B efc_vel - K I (efc_pos - efc_margin). */
void mj_referenceConstraint(const mjModel* m, mjData* d);

/* Given jar = J qacc - aref: efc_force, efc_state, qfrc_constraint and (if cost is not NULL)
 * the constraint cost; flg_coneHessian also fills contact[].H for elliptic cones. */
void mj_constraintUpdate(const mjModel* m, mjData* d, const mjtNum* jar, mjtNum cost[1],
                         int flg_coneHessian);

/* mj_constraintUpdate restricted to the rows of one island (island < 0: all rows) */
void tn__constraintUpdateIsland(const mjModel* m, mjData* d, const mjtNum* jar, mjtNum cost[1],
                                int flg_coneHessian, int island);

/* res = J vec (nefc) and res = J' vec (nv), for dense or sparse efc_J. */
void mj_mulJacVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);
void mj_mulJacTVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);

/* The constraint stage of mj_fwdConstraint: from qacc_smooth, qfrc_smooth, the factored M
 * and the efc rows, compute efc_b, then qacc, qfrc_constraint, efc_force, efc_state and the
 * solver statistics with the selected solver (plus noslip). qacc_warmstart is read only. */
void tn_fwdConstraintSolve(const mjModel* m, mjData* d);

/* ---------------------------------------------------------------------------------------
 * Jacobian kernels (constraint_jacobian.c)
 * ------------------------------------------------------------------------------------- */

/* 1 if efc_J is stored sparse: option jacobian sparse, or auto with nv >= 60 */
static inline int is_sparse(const mjModel* m) {
  return m->opt.jacobian == mjJAC_SPARSE || (m->opt.jacobian == mjJAC_AUTO && m->nv >= 60);
}

/* body of equality eq's object k (0 or 1): the body, or a site's body */
static inline int tn__eqBody(const mjModel* m, int eq, int k) {
  int id = k ? m->eq_obj2id[eq] : m->eq_obj1id[eq];
  return m->eq_objtype[eq] == mjOBJ_SITE ? m->site_bodyid[id] : id;
}

/* 1 if the solver needs efc_AR: PGS or noslip iterations > 0 */
int tn__isDual(const mjModel* m);

/* Dofs that move body `body` (its chain to the root), ascending; returns the count. */
int tn__bodyChain(const mjModel* m, int body, int* chain);

/* Sorted union of the chains of two bodies; returns the count. */
int tn__mergeChain(const mjModel* m, int body1, int body2, int* chain);

/* The same without the dofs both bodies share (contact rows); returns the count. */
int tn__mergeChainDistinct(const mjModel* m, int body1, int body2, int* chain);

/* tn__mergeChainDistinct, with side[k] = 1 where chain dof k moves body2, else 0 */
int tn__mergeChainSides(const mjModel* m, int body1, int body2, int* chain, int* side);

/* Translational and rotational Jacobian (3 x n each, row-major) of global `point` on
 * `body`, evaluated only at the n dofs of `chain` (zeros where the dof does not move the
 * body). Either output may be NULL. Same arithmetic as mj_jac. */
void tn__jacChain(const mjModel* m, const mjData* d, int body, const mjtNum point[3],
                  const int* chain, int n, mjtNum* jacp, mjtNum* jacr);

/* res = J[i] . vec for row i */
mjtNum tn__rowDot(const mjModel* m, const mjData* d, int i, const mjtNum* vec);

/* vec += scl * J[i]' for row i */
void tn__rowAddTo(const mjModel* m, const mjData* d, int i, mjtNum* vec, mjtNum scl);

/* vec += efc_force[i] * J[i]' over the listed rows with non-zero force, in their order */
void tn__rowsAddForce(const mjModel* m, const mjData* d, const int* rows, int n, mjtNum* vec);

/* Dense copy of row i (length nv). */
void tn__rowDense(const mjModel* m, const mjData* d, int i, mjtNum* row);

/* Count, for sparse efc_J, how many following rows share each row's pattern. */
void tn__makeRowSuper(mjData* d);

/* ---------------------------------------------------------------------------------------
 * Row construction helpers (constraint_rows.c, constraint_equality.c)
 * ------------------------------------------------------------------------------------- */

/* Append `size` rows with Jacobian `jac` (size x n values, at the dofs `chain`, or dense
 * size x nv when chain is NULL), positions pos[size] (NULL: 0), one margin and frictionloss,
 * type and id. Increments d->nefc. */
void tn__addRows(const mjModel* m, mjData* d, const mjtNum* jac, const int* chain, int n,
                 const mjtNum* pos, mjtNum margin, mjtNum frictionloss, int size, int type, int id);

/* Equality rows (counting pass when d->efc_type is NULL, as tn__addRows). */
void tn__instantiateEquality(const mjModel* m, mjData* d);

/* efc_aref -= Jdot qvel for connect and weld rows (needs cvel, cdof_dot). */
void tn__equalityBias(const mjModel* m, mjData* d);

/* Allocate efc_AR: dense nefc x nefc, or the sparse pattern of rows sharing a dof
 * (constraint_project.c). Returns 0 (rows released) if the arena is full. */
int tn__allocAR(const mjModel* m, mjData* d);

/* The sparse AR and whitened-Jacobian (Y) patterns kept across steps for an unchanged
 * Jacobian pattern (ar_pattern_cache.c); nY < 0: Y not stored yet. */
typedef struct {
  int nA, nY;
  const int *AR_rownnz, *AR_rowadr, *AR_colind;
  const int *ynnz, *yadr, *ycol;
} tnARPattern;
int tn__arPatternCached(const mjModel* m, const mjData* d, tnARPattern* pat);
void tn__arPatternStoreAR(const mjModel* m, const mjData* d);
void tn__arPatternStoreY(const mjModel* m, const mjData* d, const int* ynnz, const int* yadr,
                         const int* ycol, int nY);

/* Impedance, diagA, R, D, KBIP for all rows; contact mu (constraint_impedance.c). */
void tn__makeImpedance(const mjModel* m, mjData* d);

/* ---------------------------------------------------------------------------------------
 * Solvers
 * ------------------------------------------------------------------------------------- */

/* Scale of solver statistics: 1 / (meaninertia * max(1, nv)). */
mjtNum tn__solverScale(const mjModel* m);

/* Scale of one island's statistics: 1 / (sum of its diagonal of M). */
mjtNum tn__solverScaleIsland(const mjModel* m, const mjData* d, int island);

/* Record the statistics of iteration `iter` of an island (< 0: the whole system, slot 0). */
void tn__saveStats(const mjModel* m, mjData* d, int island, int iter, mjtNum improvement,
                   mjtNum gradient, mjtNum lineslope, int nactive, int nchange, int neval,
                   int nupdate);

/* Primal solvers (reduced primal problem): CG and Newton, starting from d->qacc; jaref
 * (J qacc - aref) and Ma (M qacc) at d->qacc when already known, else NULL. With
 * island >= 0, only that island's dofs and rows are solved (the other rows must be in the
 * satisfied state); its statistics go to its slots. */
void tn__solPrimal(const mjModel* m, mjData* d, int island, int maxiter, int flg_Newton,
                   const mjtNum* jaref, const mjtNum* Ma);

/* Dual PGS from d->efc_force on the rows of one island (< 0: all rows), statistics in its
 * slots; the joint space is left to tn__dualFinish. */
void tn__solPGS(const mjModel* m, mjData* d, int island, int maxiter);

/* tn__solPGS on every island (same results, island by island), several islands' sweeps
 * run side by side. */
void tn__solPGSIslands(const mjModel* m, mjData* d, int maxiter);

/* After a dual solver: qfrc_constraint = J' efc_force, qacc = qacc_smooth + M^-1 of it. */
void tn__dualFinish(const mjModel* m, mjData* d);

/* Noslip PGS on friction rows of one island (< 0: all rows), after the main solver; the
 * joint space is left to tn__dualFinish. */
void tn__solNoSlip(const mjModel* m, mjData* d, int island, int maxiter);

/* Dual helpers shared by PGS and noslip (solver_dual.c) */
mjtNum tn__dualEntry(const mjModel* m, const mjData* d, int r, int c);
void tn__dualDiagInv(const mjModel* m, const mjData* d, mjtNum* res, int flg_subR);
void tn__dualState(const mjModel* m, mjData* d, int* state);
void tn__dualStateRows(mjData* d, int* state, const int* rows, int nrow);
void tn__dualStateRowsCount(mjData* d, int* state, const int* rows, int nrow, int* nactive,
                            int* nchange);

/* residual AR[i,:] force + b[i] of one row, dense or sparse AR (inline: PGS's inner loop);
 * sparse rows four terms per pass, added one by one in column order (a plain loop's
 * rounding) */
static inline mjtNum tn__dualRowResidual(const mjData* d, int i, int sparse) {
  if (!sparse) {
    // the forces read one by one: a sweep has just stored one of them
    return tn__dotFresh(d->efc_AR + (size_t)i * d->nefc, d->efc_force, d->nefc) + d->efc_b[i];
  }
  int adr = d->efc_AR_rowadr[i], nnz = d->efc_AR_rownnz[i];
  const int* col = d->efc_AR_colind + adr;
  const mjtNum* val = d->efc_AR + adr;
  const mjtNum* force = d->efc_force;
  mjtNum s = 0;
  int k = 0;
  for (; k + 4 <= nnz; k += 4) {
    s += val[k] * force[col[k]];
    s += val[k + 1] * force[col[k + 1]];
    s += val[k + 2] * force[col[k + 2]];
    s += val[k + 3] * force[col[k + 3]];
  }
  for (; k < nnz; k++) {
    s += val[k] * force[col[k]];
  }
  return s + d->efc_b[i];
}
/* the residuals r[t] of rows[t] of sparse AR (t < g, 2 <= g <= 4), each MuJoCo's
 * sequential sum in column order, computed side by side as independent chains over their
 * common length, then each finished alone (PGS's lanes, the dual cost) */
static inline void tn__sparseResiduals(const mjData* d, const int* rows, int g, mjtNum* r) {
  const mjtNum* force = d->efc_force;
  const int* c[4];
  const mjtNum* v[4];
  int nnz[4], n = 0;
  for (int t = 0; t < g; t++) {
    int adr = d->efc_AR_rowadr[rows[t]];
    c[t] = d->efc_AR_colind + adr;
    v[t] = d->efc_AR + adr;
    nnz[t] = d->efc_AR_rownnz[rows[t]];
    n = t == 0 || nnz[t] < n ? nnz[t] : n;
  }
  mjtNum s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int k = 0;
  if (g == 4) {
    for (; k < n; k++) {
      s0 += v[0][k] * force[c[0][k]];
      s1 += v[1][k] * force[c[1][k]];
      s2 += v[2][k] * force[c[2][k]];
      s3 += v[3][k] * force[c[3][k]];
    }
  } else if (g == 3) {
    for (; k < n; k++) {
      s0 += v[0][k] * force[c[0][k]];
      s1 += v[1][k] * force[c[1][k]];
      s2 += v[2][k] * force[c[2][k]];
    }
  } else {
    for (; k < n; k++) {
      s0 += v[0][k] * force[c[0][k]];
      s1 += v[1][k] * force[c[1][k]];
    }
  }
  r[0] = s0;
  r[1] = s1;
  r[2] = s2;
  r[3] = s3;
  for (int t = 0; t < g; t++) {
    mjtNum st = r[t];
    for (int q = k; q < nnz[t]; q++) {
      st += v[t][q] * force[c[t][q]];
    }
    r[t] = st + d->efc_b[rows[t]];
  }
}

void tn__projectCone(mjtNum* f, const mjtNum* friction, int dim);

/* res = AR[i:i+dim, :] force + b[i:i+dim] (minus the R part when flg_subR); inline, as
 * the block helpers below: the sweeps call them per row or contact */
static inline void tn__dualResidual(const mjModel* m, const mjData* d, mjtNum* res, int i, int dim,
                                    int flg_subR) {
  int sparse = is_sparse(m);
  for (int j = 0; j < dim; j++) {
    int r = i + j;
    res[j] = tn__dualRowResidual(d, r, sparse);
    if (flg_subR) {
      res[j] -= d->efc_R[r] * d->efc_force[r];
    }
  }
}

/* block = AR[i:i+dim, i:i+dim] (minus R on the diagonal when flg_subR); dense AR is read
 * in place, sparse AR searched entry by entry */
static inline void tn__dualBlock(const mjModel* m, const mjData* d, mjtNum* block, int i, int dim,
                                 int flg_subR) {
  if (!is_sparse(m)) {
    const mjtNum* row = d->efc_AR + (size_t)i * d->nefc + i;
    for (int j = 0; j < dim; j++, row += d->nefc) {
      for (int k = 0; k < dim; k++) {
        block[j * dim + k] = row[k];
      }
    }
  } else {
    for (int j = 0; j < dim; j++) {
      for (int k = 0; k < dim; k++) {
        block[j * dim + k] = tn__dualEntry(m, d, i + j, i + k);
      }
    }
  }
  for (int j = 0; j < dim && flg_subR; j++) {
    block[j * dim + j] -= d->efc_R[i + j];
  }
}

/* cost change 0.5 delta' A delta + delta' res of replacing oldforce by force in a block
 * (at most 6 rows); an increase is reverted (force restored, change 0) */
static inline mjtNum tn__dualCostChange(const mjtNum* A, mjtNum* force, const mjtNum* oldforce,
                                        const mjtNum* res, int dim) {
  mjtNum change;
  if (dim == 1) {
    mjtNum delta = force[0] - oldforce[0];
    change = 0.5 * delta * delta * A[0] + delta * res[0];
  } else {
    mjtNum delta[6] = {0, 0, 0, 0, 0, 0};
    if (dim > 6) {
      __builtin_unreachable();  // a block has at most 6 rows (the compiler inlines mju_dot)
    }
    for (int j = 0; j < dim; j++) {
      delta[j] = force[j] - oldforce[j];
    }

    // delta' A delta summed as mju_mulVecMatVec sums it
    mjtNum quad = 0;
    for (int j = 0; j < dim; j++) {
      quad += delta[j] * mju_dot(A + j * dim, delta, dim);
    }
    change = 0.5 * quad + mju_dot(delta, res, dim);
  }
  if (change > 1e-10) {
    for (int j = 0; j < dim; j++) {
      force[j] = oldforce[j];
    }
    change = 0;
  }
  return change;
}

/* min 0.5 x'Ax + x'b subject to sum (x_i/d_i)^2 <= r^2, n = 2..5 (solver_qcqp.c).
 * Returns 1 if the constraint is active. */
int tn__QCQP(mjtNum* res, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r, int n);

#endif /* TORSION_CONSTRAINT_H */
