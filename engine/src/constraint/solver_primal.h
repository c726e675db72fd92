/* constraint/solver_primal.h — state shared by the primal solvers (CG and Newton) and
 * their exact line search.
 *
 * Both minimize the reduced primal cost over accelerations x:
 *   cost(x) = 0.5 (Mx - qfrc_smooth)'(x - qacc_smooth) + s(Jx - aref)
 * keeping Ma = M x and Jaref = J x - aref up to date along the search direction. */
#ifndef TORSION_SOLVER_PRIMAL_H
#define TORSION_SOLVER_PRIMAL_H

#include "constraint/constraint.h"
#include "util/util_inline.h"

typedef struct tnPrimal_ {
  /* problem */
  int nv, nefc, ne, nf;
  int island;               /* the island solved (-1: the whole system) */
  int whole;                /* the island holds every dof and every row (in the global
                             * order): the whole-system kernels give its results */
  int flg_Newton;           /* Newton (Hessian preconditioner) or CG (M preconditioner) */
  int elliptic;             /* elliptic cones present */
  mjtNum scale;             /* 1 / (meaninertia * max(1, nv)), or 1 / island's diag(M) sum */
  const int* idof;          /* the island's dofs, ascending (NULL: all nv) */
  int nidof;
  const int* iefc;          /* the island's rows, ascending (NULL: all nefc) */
  int niefc;

  /* joint space (nv) */
  mjtNum* Ma;               /* M qacc */
  mjtNum* grad;             /* gradient: Ma - qfrc_smooth - qfrc_constraint */
  mjtNum* Mgrad;            /* preconditioned gradient */
  mjtNum* search;           /* search direction */
  mjtNum* Mv;               /* M search */
  mjtNum* prev_grad;        /* CG: previous gradient */
  mjtNum* prev_Mgrad;       /* CG: previous preconditioned gradient */

  /* constraint space (nefc) */
  mjtNum* Jaref;            /* J qacc - aref */
  mjtNum* Jv;               /* J search */
  mjtNum* quad;             /* per-row quadratic of the line search (3 per row) */
  int* oldstate;            /* states before the last update */

  /* Newton, dense Jacobian: Hessian and its Cholesky factor (nv x nv) */
  mjtNum* H;
  int Hrank;                /* rank of the last factorization (< nv: clamped pivots) */
  int* Hloc;                /* dense: each dof's row in H (the solved dofs, ascending) */
  mjtNum* Hb;               /* dense: the gradient gathered to H's rows, and H \ it */

  /* Newton, sparse Jacobian: L'DL factor of the Hessian in CSR (diagonal last), its
   * column lists (off-diagonal entries by column, rows descending) and scratch */
  int Hnnz;
  int* Hrownnz;
  int* Hrowadr;
  int* Hcolind;
  mjtNum* Hval;
  mjtNum* Hdiaginv;
  int* Hcolptr;
  int* Hcolrow;
  int* Hcoladr;
  int* Hchain;              /* 1 at row x when row x+1 holds x's columns and x (then its
                             * diagonal): the two rows agree below column x */
  mjtNum* Hwork;
  mjtNum* HB;
  int* Hnewidx;             /* dof v is row Hnewidx[v] of the (reordered) factor */
  int* Hrowisland;          /* island of each factor row's dof (-1: none) */
  int* Holdidx;             /* dof of each factor row (inverse of Hnewidx) */
  int* Hgroup;              /* factor rows by island, ascending in each (whole-system
                             * pattern: all rows, one group) */
  int* Hgroupadr;           /* start of each island's rows in Hgroup (groups + 1) */
  int Hshared;              /* the pattern came from the caller (one for all islands) */
  int* HMmap;               /* address in Hval of each entry of M */
  int* Hrowmap;             /* addresses of the row blocks' lower triangles */
  int* Hrowmapadr;          /* start in Hrowmap of each run of rows sharing a pattern
                             * (-1 at the runs' other rows) */

  /* costs and statistics */
  mjtNum cost, gauss;
  mjtNum quadGauss[3];
  int nactive, nchange;
  int LSiter, LSresult;
  mjtNum LSslope;
  mjtNum LScost;            /* cost change of the last line search's step */
} tnPrimal;

/* 1 if row i is outside the island being solved: the solver leaves it alone (joint-space
 * vectors stay full-size, zero outside the island's dofs, so no other row sees a change) */
static inline int tn__rowOut(const tnPrimal* ctx, const mjData* d, int i) {
  return ctx->island >= 0 && d->efc_island[i] != ctx->island;
}

/* 1 if dof v is outside the island being solved */
static inline int tn__dofOut(const tnPrimal* ctx, const mjData* d, int v) {
  return ctx->island >= 0 && d->dof_island[v] != ctx->island;
}

/* k-th dof and k-th row of the solved part (k < nidof, k < niefc) */
static inline int tn__primalDof(const tnPrimal* ctx, int k) {
  return ctx->idof ? ctx->idof[k] : k;
}
static inline int tn__primalRow(const tnPrimal* ctx, int k) {
  return ctx->iefc ? ctx->iefc[k] : k;
}

/* mju_dot(a, b, nv) of joint-space vectors that are zero outside the solved part, summed
 * over its dofs only: each product goes to the partial sum mju_dot gives its index (blocks
 * of four, then the tail), in the same order, so only added zeros are skipped */
static inline mjtNum tn__primalDot(const tnPrimal* ctx, const mjtNum* a, const mjtNum* b) {
  if (!ctx->idof) {
    return mju_dot(a, b, ctx->nv);
  }
  int block = ctx->nv >= 4 ? ctx->nv - ctx->nv % 4 : 0;
  mjtNum s[4] = {0, 0, 0, 0}, tail = 0;
  for (int k = 0; k < ctx->nidof; k++) {
    int v = ctx->idof[k];
    if (v < block) {
      s[v & 3] += a[v] * b[v];
    } else {
      tail += a[v] * b[v];
    }
  }
  mjtNum res = block ? (s[0] + s[2]) + (s[1] + s[3]) : 0;
  return res + tail;
}

/* M vec, J vec and M \ vec of the solved part: the whole system, or for one island its
 * dofs' entries of M vec and M \ vec (vec zero outside them) and its rows of J vec; the
 * other entries of res are left alone */
void tn__primalMulM(const mjModel* m, const mjData* d, const tnPrimal* ctx, mjtNum* res,
                    const mjtNum* vec);
void tn__primalMulJac(const mjModel* m, const mjData* d, const tnPrimal* ctx, mjtNum* res,
                      const mjtNum* vec);
void tn__primalSolveM(const mjModel* m, mjData* d, const tnPrimal* ctx, mjtNum* res,
                      const mjtNum* vec);

/* one evaluation point of the line search */
typedef struct tnLinePoint_ {
  mjtNum alpha;
  mjtNum cost;
  mjtNum deriv[2];
} tnLinePoint;

/* exact line search along ctx->search from d->qacc; returns the step (0: no progress) */
mjtNum tn__lineSearch(const mjModel* m, mjData* d, tnPrimal* ctx);

/* Newton: build H = M + J' D_active J (+ cone Hessians) and factor it in place */
void tn__newtonHessian(const mjModel* m, mjData* d, tnPrimal* ctx);

/* Newton: rows that changed quadratic state since the last factorization, or -1 when the
 * factor must be rebuilt (rank-deficient, cone rows) */
int tn__newtonCountFlips(const mjModel* m, const mjData* d, const tnPrimal* ctx);

/* Newton, dense: bring the factor of H up to date after rows entered or left the quadratic
 * state (ctx->oldstate -> efc_state) by one rank-one update or downdate per row, in row
 * order, as MuJoCo 3.14; 0 when done, -1 when H must be rebuilt instead (cones,
 * rank-deficient factor, lost definiteness) */
int tn__newtonHessianUpdate(const mjModel* m, mjData* d, tnPrimal* ctx);

/* Newton: Mgrad = H \ grad with the factored Hessian */
void tn__newtonSolve(const tnPrimal* ctx);

/* sparse Jacobian: a fill-reducing ordering and the factor's pattern for the whole solve
 * (M and every row, with fill) and its storage, allocated on the stack in the caller's
 * frame (the solver's, or the island loop's: the pattern is block-diagonal by island and
 * serves every island, whose solves then factor and solve only their own rows); then, per
 * rebuild, the values and factor of H in that pattern; and the solve */
void tn__newtonHessianSparseInit(const mjModel* m, mjData* d, tnPrimal* ctx);
void tn__newtonHessianSparse(const mjModel* m, mjData* d, tnPrimal* ctx);
void tn__newtonSolveSparse(const tnPrimal* ctx);

/* CG or Newton from d->qacc on one island (< 0: the whole system), as tn__solPrimal; a
 * non-NULL pattern (sparse Newton) is the Hessian pattern made once for all islands by
 * tn__newtonHessianSparseInit */
void tn__solPrimalPattern(const mjModel* m, mjData* d, int island, int maxiter, int flg_Newton,
                          const mjtNum* jaref, const mjtNum* Ma, const tnPrimal* pattern);

/* Newton, sparse: rank-one changes of the sparse factor in its pattern (which holds every
 * row's fill) when few rows changed; 0 when done, -1 when H must be rebuilt */
int tn__newtonHessianSparseUpdate(const mjModel* m, mjData* d, tnPrimal* ctx);

#endif /* TORSION_SOLVER_PRIMAL_H */
