/* constraint/solver_primal.c — CG and Newton on the reduced primal problem.
 *
 * Starting from d->qacc (set by the warmstart), each iteration runs the exact line search
 * along the search direction, moves qacc, Ma and Jaref, re-evaluates the constraint states
 * and forces, and the gradient grad = M qacc - qfrc_smooth - J' force. Newton's direction
 * is -H^-1 grad; CG's is -M^-1 grad plus the Hager-Zhang multiple of the previous
 * direction. As MuJoCo 3.14: before each line search Newton stops when the start point's
 * scaled gradient norm (first iteration) or its predicted improvement 0.5 grad' H^-1 grad
 * (later ones) is below `tolerance`, CG only before its first search, when
 * 0.5 grad' M^-1 grad is; after each step both stop when the scaled improvement (the line
 * search's cost change) or gradient norm is below `tolerance`, or after `iterations`.
 * Newton's Hessian (dense Cholesky, or a sparse L'DL with a sparse Jacobian) is rebuilt
 * only when a constraint state changed or a cone is active: otherwise it is exactly the
 * same matrix. */
#include <math.h>
#include <string.h>

#include "constraint/solver_primal.h"
#include "util/util_inline.h"

/* scratch for the solver, from the stack frame of the caller */
static void alloc_context(const mjModel* m, mjData* d, tnPrimal* ctx, int island, int flg_Newton) {
  int nv = m->nv, nefc = d->nefc;
  memset(ctx, 0, sizeof(*ctx));
  ctx->nv = nv;
  ctx->nefc = nefc;
  ctx->ne = d->ne;
  ctx->nf = d->nf;
  ctx->island = island;
  ctx->flg_Newton = flg_Newton;
  ctx->elliptic = m->opt.cone == mjCONE_ELLIPTIC;
  ctx->scale = island < 0 ? tn__solverScale(m) : tn__solverScaleIsland(m, d, island);
  ctx->whole = island >= 0 && d->island_nv[island] == nv && d->island_nefc[island] == nefc;
  int local = island >= 0 && !ctx->whole;
  ctx->idof = local ? d->map_idof2dof + d->island_idofadr[island] : NULL;
  ctx->nidof = local ? d->island_nv[island] : nv;
  ctx->iefc = local ? d->map_iefc2efc + d->island_iefcadr[island] : NULL;
  ctx->niefc = local ? d->island_nefc[island] : nefc;

  // joint space
  ctx->Ma = mj_stackAllocNum(d, (size_t)nv);
  ctx->grad = mj_stackAllocNum(d, (size_t)nv);
  ctx->Mgrad = mj_stackAllocNum(d, (size_t)nv);
  ctx->search = mj_stackAllocNum(d, (size_t)nv);
  ctx->Mv = mj_stackAllocNum(d, (size_t)nv);
  ctx->prev_grad = mj_stackAllocNum(d, (size_t)nv);
  ctx->prev_Mgrad = mj_stackAllocNum(d, (size_t)nv);

  // constraint space (one island: the solver writes the joint-space vectors on its dofs
  // and Jv on its rows only; they are zero elsewhere)
  ctx->Jaref = mj_stackAllocNum(d, (size_t)nefc);
  ctx->Jv = mj_stackAllocNum(d, (size_t)nefc);
  if (local) {
    memset(ctx->Jv, 0, sizeof(mjtNum) * (size_t)nefc);
    memset(ctx->Mv, 0, sizeof(mjtNum) * (size_t)nv);
    memset(ctx->Mgrad, 0, sizeof(mjtNum) * (size_t)nv);
    memset(ctx->grad, 0, sizeof(mjtNum) * (size_t)nv);
    memset(ctx->search, 0, sizeof(mjtNum) * (size_t)nv);
  }
  ctx->quad = mj_stackAllocNum(d, (size_t)(3 * nefc));
  ctx->oldstate = mj_stackAllocInt(d, (size_t)nefc);

  // Newton's dense Hessian over the solved dofs only (an island's block, as MuJoCo's
  // island-local solve; the sparse one is built per iteration)
  ctx->H = flg_Newton && !is_sparse(m) ? mj_stackAllocNum(d, (size_t)nv * nv) : NULL;
  if (ctx->H) {
    ctx->Hloc = mj_stackAllocInt(d, (size_t)nv);
    ctx->Hb = mj_stackAllocNum(d, (size_t)(2 * nv));
    for (int k = 0; k < ctx->nidof; k++) {
      ctx->Hloc[tn__primalDof(ctx, k)] = k;
    }
  }
}

/* res = M vec: the whole product, or one island's dofs (M is block-diagonal by tree, so
 * they read only the island's entries of vec); per entry the sums of mj_mulM, in its order */
void tn__primalMulM(const mjModel* m, const mjData* d, const tnPrimal* ctx, mjtNum* res,
                    const mjtNum* vec) {
  if (ctx->island < 0 || ctx->whole) {
    mj_mulM(m, d, res, vec);
    return;
  }
  int adr = d->island_idofadr[ctx->island], n = d->island_nv[ctx->island];
  const int* dofs = d->map_idof2dof + adr;
  for (int k = 0; k < n; k++) {
    int i = dofs[k];
    res[i] = d->M[m->M_rowadr[i] + m->M_rownnz[i] - 1] * vec[i];
  }
  // row i's own sum in a register (its ancestors j differ from i: the same additions in
  // the same order)
  for (int k = 0; k < n; k++) {
    int i = dofs[k], start = m->M_rowadr[i];
    mjtNum ri = res[i], vi = vec[i];
    for (int q = start + m->M_rownnz[i] - 2; q >= start; q--) {
      int j = m->M_colind[q];
      ri += d->M[q] * vec[j];
      res[j] += d->M[q] * vi;
    }
    res[i] = ri;
  }
}

/* res = J vec: every row, or one island's rows */
void tn__primalMulJac(const mjModel* m, const mjData* d, const tnPrimal* ctx, mjtNum* res,
                      const mjtNum* vec) {
  if (ctx->island < 0 || ctx->whole) {
    mj_mulJacVec(m, d, res, vec);
    return;
  }
  int adr = d->island_iefcadr[ctx->island];
  for (int c = adr; c < adr + d->island_nefc[ctx->island]; c++) {
    int i = d->map_iefc2efc[c];
    res[i] = tn__rowDot(m, d, i, vec);
  }
}

/* res = M \ vec: the whole system, or one island's dofs (vec zero outside them), with the
 * factor L'DL of M as mj_solveM (the island's dofs descending, then ascending) */
void tn__primalSolveM(const mjModel* m, mjData* d, const tnPrimal* ctx, mjtNum* res,
                      const mjtNum* vec) {
  if (ctx->island < 0 || ctx->whole) {
    mj_solveM(m, d, res, vec, 1);
    return;
  }
  int adr = d->island_idofadr[ctx->island], n = d->island_nv[ctx->island];
  const int* dofs = d->map_idof2dof + adr;
  const mjtNum* qLD = d->qLD;
  for (int k = 0; k < n; k++) {
    res[dofs[k]] = vec[dofs[k]];
  }

  // res <- inv(L') res
  for (int k = n - 1; k >= 0; k--) {
    int i = dofs[k];
    mjtNum xi = res[i];
    if (xi == 0) {
      continue;
    }
    int start = m->M_rowadr[i], diag = start + m->M_rownnz[i] - 1;
    for (int q = start; q < diag; q++) {
      res[m->M_colind[q]] -= qLD[q] * xi;
    }
  }

  // res <- inv(D) res, then inv(L) res
  for (int k = 0; k < n; k++) {
    res[dofs[k]] *= d->qLDiagInv[dofs[k]];
  }
  for (int k = 0; k < n; k++) {
    int i = dofs[k], start = m->M_rowadr[i], nnz = m->M_rownnz[i] - 1;
    if (nnz > 0 && !m->dof_simplenum[i]) {
      res[i] -= mju_dotSparse(qLD + start, res, nnz, m->M_colind + start);
    }
  }
}

/* constraint forces and states at the current Jaref; cost including the Gauss term */
static void update_constraint(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nefc = ctx->nefc;
  memcpy(ctx->oldstate, d->efc_state, sizeof(int) * (size_t)nefc);

  // constraint cost, force, state (the island's rows)
  tn__constraintUpdateIsland(m, d, ctx->Jaref, &ctx->cost, ctx->flg_Newton && ctx->elliptic,
                             ctx->whole ? -1 : ctx->island);

  // active rows and state changes (rows outside the island stay satisfied)
  ctx->nactive = 0;
  ctx->nchange = 0;
  for (int k = 0; k < ctx->niefc; k++) {
    int i = tn__primalRow(ctx, k);
    ctx->nactive += d->efc_state[i] != mjCNSTRSTATE_SATISFIED;
    ctx->nchange += d->efc_state[i] != ctx->oldstate[i];
  }

  // Gauss cost: 0.5 (Ma - qfrc_smooth)'(qacc - qacc_smooth), the island's dofs in order
  mjtNum gauss = 0;
  for (int k = 0; k < ctx->nidof; k++) {
    int i = tn__primalDof(ctx, k);
    gauss += 0.5 * (ctx->Ma[i] - d->qfrc_smooth[i]) * (d->qacc[i] - d->qacc_smooth[i]);
  }
  ctx->gauss = gauss;
  ctx->cost += gauss;
}

/* convergence test before the line search of iteration `iter`, as MuJoCo 3.14 behaves:
 * Newton stops at once when the scaled gradient norm of the start point is below
 * `tolerance`, and on later iterations when the improvement its quadratic model predicts,
 * 0.5 grad' H^-1 grad (scaled), is; CG only tests the start point, with 0.5 grad' M^-1 grad */
static int start_converged(const mjModel* m, const tnPrimal* ctx, int iter) {
  mjtNum tol = m->opt.tolerance;
  if (ctx->flg_Newton && iter == 0) {
    return ctx->scale * sqrt(tn__primalDot(ctx, ctx->grad, ctx->grad)) < tol;
  }
  if (ctx->flg_Newton || iter == 0) {
    return 0.5 * ctx->scale * tn__primalDot(ctx, ctx->grad, ctx->Mgrad) < tol;
  }
  return 0;
}

/* the gradient alone */
static void raw_gradient(const mjData* d, tnPrimal* ctx) {
  // grad = M qacc - qfrc_smooth - qfrc_constraint; zero outside the island (cleared at the
  // start), so the preconditioned gradient is too (M and H are block-diagonal over islands)
  for (int k = 0; k < ctx->nidof; k++) {
    int i = tn__primalDof(ctx, k);
    ctx->grad[i] = ctx->Ma[i] - d->qfrc_smooth[i] - d->qfrc_constraint[i];
  }
}

/* the preconditioned gradient of the current gradient */
static void precondition_gradient(const mjModel* m, mjData* d, tnPrimal* ctx) {
  // Newton: H \ grad; CG: M \ grad
  if (ctx->flg_Newton && ctx->H) {
    tn__newtonSolve(ctx);
  } else if (ctx->flg_Newton) {
    tn__newtonSolveSparse(ctx);
  } else {
    tn__primalSolveM(m, d, ctx, ctx->Mgrad, ctx->grad);
  }
}

/* CG: Hager-Zhang direction (preconditioned by M; Py'g evaluated as y'Mgrad), with its bound
 *   beta = (Py - 2 d (y'Py)/(d'y))' g / (d'y),  beta >= -1 / (|d| min(0.01, |g_prev|))
 * where y = g - g_prev, Py = Mgrad - Mgrad_prev, d the previous direction */
static void update_direction_cg(tnPrimal* ctx) {
  int nv = ctx->nv;
  mjtNum* y = ctx->prev_grad;
  mjtNum* Py = ctx->prev_Mgrad;

  // lower bound from the previous gradient's norm, then y and Py in place
  mjtNum eta = -1 / (mju_norm(ctx->search, nv) * mju_min(0.01, mju_norm(ctx->prev_grad, nv)));
  mju_sub(y, ctx->grad, ctx->prev_grad, nv);
  mju_sub(Py, ctx->Mgrad, ctx->prev_Mgrad, nv);

  // Hager-Zhang coefficient
  mjtNum dy = mju_dot(ctx->search, y, nv);
  mjtNum beta = 0;
  if (dy != 0) {
    mjtNum yPy = mju_dot(y, Py, nv);
    mjtNum dg = mju_dot(ctx->search, ctx->grad, nv);
    beta = (mju_dot(y, ctx->Mgrad, nv) - 2 * yPy * dg / dy) / dy;
  }
  beta = mju_max(beta, eta);

  // new direction
  for (int i = 0; i < nv; i++) {
    ctx->search[i] = -ctx->Mgrad[i] + beta * ctx->search[i];
  }
}

/* 1 if Newton's Hessian must be rebuilt: first time, a state changed, or a cone is active
 * (its Hessian depends on the point); otherwise H is unchanged and is kept */
static int hessian_stale(const mjData* d, const tnPrimal* ctx, int first) {
  if (first || ctx->nchange) {
    return 1;
  }
  for (int k = 0; k < ctx->niefc; k++) {
    if (d->efc_state[tn__primalRow(ctx, k)] == mjCNSTRSTATE_CONE) {
      return 1;
    }
  }
  return 0;
}

/* Newton's Hessian (dense, or sparse in the pattern made on the first call) and the
 * preconditioned gradient, for a gradient already computed */
static void update_hessian_gradient(const mjModel* m, mjData* d, tnPrimal* ctx, int first) {
  if (ctx->flg_Newton && hessian_stale(d, ctx, first)) {
    if (ctx->H) {
      // dense: a few rows changed state: rank-one changes of the factor, else rebuild
      if (first || tn__newtonHessianUpdate(m, d, ctx)) {
        tn__newtonHessian(m, d, ctx);
      }
    } else {
      // sparse: the pattern once per solve; then rank-one changes, else rebuild
      if (first && !ctx->Hshared) {
        tn__newtonHessianSparseInit(m, d, ctx);
      }
      if (first || tn__newtonHessianSparseUpdate(m, d, ctx)) {
        tn__newtonHessianSparse(m, d, ctx);
      }
    }
  }
  precondition_gradient(m, d, ctx);
}

/* CG or Newton from d->qacc */
void tn__solPrimal(const mjModel* m, mjData* d, int island, int maxiter, int flg_Newton,
                   const mjtNum* jaref, const mjtNum* Ma) {
  tn__solPrimalPattern(m, d, island, maxiter, flg_Newton, jaref, Ma, NULL);
}

/* the sparse Hessian's pattern and storage, shared: copied from the caller's */
static void use_pattern(tnPrimal* ctx, const tnPrimal* pattern) {
  ctx->Hnnz = pattern->Hnnz;
  ctx->Hrownnz = pattern->Hrownnz;
  ctx->Hrowadr = pattern->Hrowadr;
  ctx->Hcolind = pattern->Hcolind;
  ctx->Hval = pattern->Hval;
  ctx->Hdiaginv = pattern->Hdiaginv;
  ctx->Hcolptr = pattern->Hcolptr;
  ctx->Hcolrow = pattern->Hcolrow;
  ctx->Hcoladr = pattern->Hcoladr;
  ctx->Hchain = pattern->Hchain;
  ctx->Hwork = pattern->Hwork;
  ctx->HB = pattern->HB;
  ctx->Hnewidx = pattern->Hnewidx;
  ctx->Hrowisland = pattern->Hrowisland;
  ctx->Holdidx = pattern->Holdidx;
  ctx->Hgroup = pattern->Hgroup;
  ctx->Hgroupadr = pattern->Hgroupadr;
  ctx->HMmap = pattern->HMmap;
  ctx->Hrowmap = pattern->Hrowmap;
  ctx->Hrowmapadr = pattern->Hrowmapadr;
  ctx->Hshared = 1;
}

/* CG or Newton from d->qacc, with an optional shared sparse Hessian pattern */
void tn__solPrimalPattern(const mjModel* m, mjData* d, int island, int maxiter, int flg_Newton,
                          const mjtNum* jaref, const mjtNum* Ma, const tnPrimal* pattern) {
  int nv = m->nv, nefc = d->nefc, iter = 0;
  tnPrimal ctx;
  mj_markStack(d);
  alloc_context(m, d, &ctx, island, flg_Newton);
  if (pattern) {
    use_pattern(&ctx, pattern);
  }

  // initial state: Ma, Jaref (given, or computed), constraints, Hessian, gradient
  if (Ma) {
    mju_copy(ctx.Ma, Ma, nv);
  } else {
    mj_mulM(m, d, ctx.Ma, d->qacc);
  }
  if (jaref) {
    mju_copy(ctx.Jaref, jaref, nefc);
  } else {
    mj_mulJacVec(m, d, ctx.Jaref, d->qacc);
    mju_subFrom(ctx.Jaref, d->efc_aref, nefc);
  }
  for (int i = 0; i < nefc; i++) {
    d->efc_state[i] = mjCNSTRSTATE_SATISFIED;
  }
  update_constraint(m, d, &ctx);

  // Newton's first convergence test reads the gradient only: a start point that passes it
  // (a warm start at rest, often) needs no Hessian
  if (flg_Newton) {
    raw_gradient(d, &ctx);
    if (maxiter <= 0 || start_converged(m, &ctx, 0)) {
      maxiter = 0;
    }
  }
  if (maxiter > 0) {
    if (!flg_Newton) {
      raw_gradient(d, &ctx);
    }
    update_hessian_gradient(m, d, &ctx, 1);

    // first direction: the preconditioned gradient
    mju_scl(ctx.search, ctx.Mgrad, -1, nv);
  }

  while (iter < maxiter) {
    // converged at the start of the iteration
    if (start_converged(m, &ctx, iter)) {
      break;
    }

    // exact line search; no progress: done
    mjtNum alpha = tn__lineSearch(m, d, &ctx);
    if (alpha == 0) {
      break;
    }

    // move (one island: its dofs and rows; the others' search, Mv and Jv are zero)
    for (int k = 0; k < ctx.nidof; k++) {
      int i = tn__primalDof(&ctx, k);
      d->qacc[i] += ctx.search[i] * alpha;
      ctx.Ma[i] += ctx.Mv[i] * alpha;
    }
    for (int k = 0; k < ctx.niefc; k++) {
      int i = tn__primalRow(&ctx, k);
      ctx.Jaref[i] += ctx.Jv[i] * alpha;
    }

    // keep the previous gradients (CG)
    if (!flg_Newton) {
      mju_copy(ctx.prev_grad, ctx.grad, nv);
      mju_copy(ctx.prev_Mgrad, ctx.Mgrad, nv);
    }

    // re-evaluate constraints and gradient
    update_constraint(m, d, &ctx);
    raw_gradient(d, &ctx);

    // statistics
    mjtNum improvement = -ctx.scale * ctx.LScost;
    mjtNum gradient = ctx.scale * sqrt(tn__primalDot(&ctx, ctx.grad, ctx.grad));
    tn__saveStats(m, d, island, iter, improvement, gradient, ctx.LSslope, ctx.nactive, ctx.nchange,
                  ctx.LSiter, 0);
    iter++;

    // converged (small improvement or small gradient) or out of iterations: done, without
    // the Hessian and preconditioned gradient only a further iteration would read
    if (improvement < m->opt.tolerance || gradient < m->opt.tolerance || iter >= maxiter) {
      break;
    }
    update_hessian_gradient(m, d, &ctx, 0);

    // next direction
    if (flg_Newton) {
      for (int k = 0; k < ctx.nidof; k++) {
        int i = tn__primalDof(&ctx, k);
        ctx.search[i] = -ctx.Mgrad[i];
      }
    } else {
      update_direction_cg(&ctx);
    }
  }
  if (island < mjNISLAND) {
    d->solver_niter[island < 0 ? 0 : island] = iter;
  }
  mj_freeStack(d);
}
