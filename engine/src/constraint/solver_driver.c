/* constraint/solver_driver.c — the constraint stage of mj_fwdConstraint: efc_b, the
 * warmstart, the selected solver (PGS, CG or Newton) and noslip, plus solver statistics.
 *
 * Warmstart (unless disabled): evaluate the constraints at qacc_warmstart. The primal
 * solvers start from whichever of qacc_warmstart and qacc_smooth has the lower total cost;
 * PGS starts from the forces implied by qacc_warmstart unless their dual cost is positive
 * (worse than zero force); J qacc - aref (and M qacc for the warmstart) at the chosen
 * start are handed to the primal solvers.
 *
 * Constraint islands (MuJoCo 3.14): with islands enabled and found, CG and Newton solve
 * each island on its own (its dofs and rows only, its own iteration count, tolerance tests
 * and statistics scale 1 / sum of its diagonal of M), recording iterations, statistics
 * and solver_nnz in the island's slot (islands past mjNISLAND are solved, not recorded);
 * the warmstart stays whole-system and efc_state keeps its values (the final states are
 * in iefc_state); dofs of no island get qacc_smooth. PGS sweeps each island's rows in
 * place on the global arrays (its own iterations, statistics and stopping; the scale stays
 * 1 / (meaninertia * nv)), then maps all forces to joint space at once; noslip likewise,
 * its iterations following the main solver's in each island's slots. */
#include <string.h>

#include "constraint/solver_primal.h"
#include "model/data_cache.h"
#include "util/util_inline.h"

/* 1 / (meaninertia * max(1, nv)) */
mjtNum tn__solverScale(const mjModel* m) {
  return 1 / (m->stat.meaninertia * (m->nv > 1 ? m->nv : 1));
}

/* 1 / (sum of the island's diagonal of M): the statistics' scale of one island's solve */
mjtNum tn__solverScaleIsland(const mjModel* m, const mjData* d, int island) {
  mjtNum inertia = 0;
  int adr = d->island_idofadr[island];
  for (int k = 0; k < d->island_nv[island]; k++) {
    int v = d->map_idof2dof[adr + k];
    inertia += d->M[m->M_rowadr[v] + m->M_rownnz[v] - 1];
  }
  return 1 / inertia;
}

/* statistics of one iteration of an island's solve (island < 0: the whole system, slot
 * 0); islands and iterations past the arrays are not recorded */
void tn__saveStats(const mjModel* m, mjData* d, int island, int iter, mjtNum improvement,
                   mjtNum gradient, mjtNum lineslope, int nactive, int nchange, int neval,
                   int nupdate) {
  (void)m;
  island = island < 0 ? 0 : island;
  if (island >= mjNISLAND || iter < 0 || iter >= mjNSOLVER) {
    return;
  }
  int index = island * mjNSOLVER + iter;
  tnDataCache* cache = tn__dataCache(d);
  if (index >= cache->solver_maxuse) {
    cache->solver_maxuse = index + 1;
  }
  mjSolverStat* s = d->solver + index;
  s->improvement = improvement;
  s->gradient = gradient;
  s->lineslope = lineslope;
  s->nactive = nactive;
  s->nchange = nchange;
  s->neval = neval;
  s->nupdate = nupdate;
}

/* dual cost 0.5 f'AR f + f'b of the current forces, row by row; the residuals four rows at
 * a time (each the sum tn__dualRowResidual makes: dense rows sharing the force loads, in
 * an AVX2 clone where each row's four partial sums fill one register; sparse rows as four
 * independent chains) */
static TN_CLONE_AVX2 mjtNum dual_cost(const mjModel* m, mjData* d) {
  int nefc = d->nefc, i = 0;
  const mjtNum *f = d->efc_force, *b = d->efc_b;
  mjtNum cost = 0, res[4];
  for (; i + 4 <= nefc; i += 4) {
    if (is_sparse(m)) {
      // four sparse residuals side by side (b included)
      int rows[4] = {i, i + 1, i + 2, i + 3};
      tn__sparseResiduals(d, rows, 4, res);
    } else {
      tn__dotRows4(res, d->efc_AR + (size_t)i * nefc, (size_t)nefc, f, nefc);
      for (int t = 0; t < 4; t++) {
        res[t] += b[i + t];
      }
    }
    for (int t = 0; t < 4; t++) {
      cost += f[i + t] * (0.5 * (res[t] - b[i + t]) + b[i + t]);
    }
  }
  for (; i < nefc; i++) {
    mjtNum r;
    tn__dualResidual(m, d, &r, i, 1, 0);
    cost += f[i] * (0.5 * (r - b[i]) + b[i]);
  }
  return cost;
}

/* choose the starting point of the solver; for the primal solvers, also return
 * jaref = J qacc - aref at the chosen point and, when it is the warmstart, Ma = M qacc
 * (*flg_Ma = 1), so that the solver need not compute them again */
static void warmstart(const mjModel* m, mjData* d, mjtNum* jaref, mjtNum* Ma, int* flg_Ma) {
  int nv = m->nv, nefc = d->nefc;
  *flg_Ma = 0;

  // disabled: qacc_smooth and zero force
  if (TN_CDISABLED(m, mjDSBL_WARMSTART)) {
    mju_copy(d->qacc, d->qacc_smooth, nv);
    mju_zero(d->efc_force, nefc);
    mju_zero(d->qfrc_constraint, nv);
    mju_copy(jaref, d->efc_b, nefc);
    return;
  }

  // constraints at qacc_warmstart
  mjtNum cost_warm;
  mju_copy(d->qacc, d->qacc_warmstart, nv);
  mj_mulJacVec(m, d, jaref, d->qacc_warmstart);
  mju_subFrom(jaref, d->efc_aref, nefc);
  mj_constraintUpdate(m, d, jaref, &cost_warm, 0);

  // PGS: keep those forces unless worse than zero
  if (m->opt.solver == mjSOL_PGS) {
    if (dual_cost(m, d) > 0) {
      mju_zero(d->efc_force, nefc);
      mju_zero(d->qfrc_constraint, nv);
    }
    return;
  }

  // primal: add the Gauss cost and compare with qacc_smooth
  mj_mulM(m, d, Ma, d->qacc);
  for (int i = 0; i < nv; i++) {
    cost_warm += 0.5 * (Ma[i] - d->qfrc_smooth[i]) * (d->qacc[i] - d->qacc_smooth[i]);
  }
  mjtNum cost_smooth;
  mj_constraintUpdate(m, d, d->efc_b, &cost_smooth, 0);
  if (cost_warm > cost_smooth) {
    mju_copy(d->qacc, d->qacc_smooth, nv);
    mju_copy(jaref, d->efc_b, nefc);
  } else {
    *flg_Ma = 1;
  }
}

/* 1 if the primal solvers solve island by island: islands enabled and found */
static int per_island(const mjModel* m, const mjData* d) {
  return !TN_CDISABLED(m, mjDSBL_ISLAND) && d->nisland > 0;
}

/* CG statistics per island: the non-zeros of its rows of a sparse Jacobian, or the size
 * of its dense block (island_nefc x island_nv) */
static void jacobian_nnz(const mjModel* m, mjData* d) {
  int nisl = d->nisland < mjNISLAND ? d->nisland : mjNISLAND;
  for (int k = 0; k < nisl && !is_sparse(m); k++) {
    d->solver_nnz[k] = d->island_nefc[k] * d->island_nv[k];
  }
  for (int i = 0; i < d->nefc && is_sparse(m); i++) {
    if (d->efc_island[i] >= 0 && d->efc_island[i] < mjNISLAND) {
      d->solver_nnz[d->efc_island[i]] += d->efc_J_rownnz[i];
    }
  }
}

/* PGS statistics per island: the non-zeros of its rows of AR (sparse), or the size of
 * its dense block (island_nefc^2) */
static void dual_nnz(const mjModel* m, mjData* d) {
  int nisl = d->nisland < mjNISLAND ? d->nisland : mjNISLAND;
  for (int k = 0; k < nisl && !is_sparse(m); k++) {
    d->solver_nnz[k] = d->island_nefc[k] * d->island_nefc[k];
  }
  for (int i = 0; i < d->nefc && is_sparse(m); i++) {
    if (d->efc_island[i] >= 0 && d->efc_island[i] < mjNISLAND) {
      d->solver_nnz[d->efc_island[i]] += d->efc_AR_rownnz[i];
    }
  }
}

/* sparse Newton's statistics of island k: its rows' entries in the shared factor pattern
 * (Torsion's own factor: not MuJoCo's count) */
static int pattern_nnz(const tnPrimal* pattern, int nv, int k) {
  int nnz = 0;
  for (int r = 0; r < nv; r++) {
    nnz += pattern->Hrowisland[r] == k ? pattern->Hrownnz[r] : 0;
  }
  return nnz;
}

/* CG or Newton island by island, from the warmstart's qacc, jaref and Ma (which hold for
 * every island: each depends only on its own dofs). Each solve leaves the rows outside
 * its island satisfied, so the warmstart's states are kept aside and put back afterwards
 * (MuJoCo leaves efc_state at the warmstart's values; each island's final states go to
 * iefc_state). Dofs of no island move freely: qacc_smooth, no constraint force. */
static void solve_islands(const mjModel* m, mjData* d, int flg_Newton, const mjtNum* jaref,
                          const mjtNum* Ma) {
  int nefc = d->nefc, sparse_newton = flg_Newton && is_sparse(m);
  mj_markStack(d);
  int* warmstate = mj_stackAllocInt(d, (size_t)nefc);
  memcpy(warmstate, d->efc_state, sizeof(int) * (size_t)nefc);

  // sparse Newton: one Hessian pattern (block-diagonal by island) for every island
  tnPrimal pattern;
  memset(&pattern, 0, sizeof(pattern));
  pattern.island = mjNISLAND;
  if (sparse_newton) {
    tn__newtonHessianSparseInit(m, d, &pattern);
  }

  // each island; its final states in island order. solver_nnz: the Jacobian's (CG, and
  // Newton stopping before its first iteration), else Newton's dense Hessian size or the
  // sparse factor's count (set by the solver)
  jacobian_nnz(m, d);
  for (int k = 0; k < d->nisland; k++) {
    int jnnz = k < mjNISLAND ? d->solver_nnz[k] : 0;
    tn__solPrimalPattern(m, d, k, m->opt.iterations, flg_Newton, jaref, Ma,
                         sparse_newton ? &pattern : NULL);
    if (flg_Newton && k < mjNISLAND) {
      d->solver_nnz[k] = !d->solver_niter[k] ? jnnz
                         : !sparse_newton    ? d->island_nv[k] * d->island_nv[k]
                                             : pattern_nnz(&pattern, m->nv, k);
    }
    for (int c = d->island_iefcadr[k]; c < d->island_iefcadr[k] + d->island_nefc[k]; c++) {
      d->iefc_state[c] = d->efc_state[d->map_iefc2efc[c]];
    }
  }
  memcpy(d->efc_state, warmstate, sizeof(int) * (size_t)nefc);
  mj_freeStack(d);

  // unconstrained dofs
  for (int k = d->nidof; k < m->nv; k++) {
    int v = d->map_idof2dof[k];
    d->qacc[v] = d->qacc_smooth[v];
    d->qfrc_constraint[v] = 0;
  }

  // the solution in island order
  for (int k = 0; k < d->nidof; k++) {
    d->iacc[k] = d->qacc[d->map_idof2dof[k]];
    d->ifrc_constraint[k] = d->qfrc_constraint[d->map_idof2dof[k]];
  }
  for (int c = 0; c < nefc; c++) {
    d->iefc_force[c] = d->efc_force[d->map_iefc2efc[c]];
    d->iefc_aref[c] = d->efc_aref[d->map_iefc2efc[c]];
  }
}

/* the constraint stage */
void tn_fwdConstraintSolve(const mjModel* m, mjData* d) {
  int nv = m->nv, nefc = d->nefc;
  for (int i = 0; i < mjNISLAND; i++) {
    d->solver_niter[i] = 0;
    d->solver_nnz[i] = 0;
  }

  // islands found by mj_island: their dofs' smooth force and acceleration in island order,
  // which the primal solvers (CG, Newton) read; PGS works on the global arrays
  for (int k = 0; m->opt.solver != mjSOL_PGS && k < d->nidof; k++) {
    d->ifrc_smooth[k] = d->qfrc_smooth[d->map_idof2dof[k]];
    d->iacc_smooth[k] = d->qacc_smooth[d->map_idof2dof[k]];
  }

  // no constraints: the smooth acceleration
  if (!nefc) {
    mju_copy(d->qacc, d->qacc_smooth, nv);
    mju_zero(d->qfrc_constraint, nv);
    return;
  }

  // efc_b = J qacc_smooth - aref
  mj_mulJacVec(m, d, d->efc_b, d->qacc_smooth);
  mju_subFrom(d->efc_b, d->efc_aref, nefc);

  // starting point, then the main solver: the primal ones island by island when islands
  // are on; PGS always on the whole system
  int flg_Ma, islands = per_island(m, d);
  mj_markStack(d);
  mjtNum* jaref = mj_stackAllocNum(d, (size_t)nefc);
  mjtNum* Ma = mj_stackAllocNum(d, (size_t)nv);
  warmstart(m, d, jaref, Ma, &flg_Ma);
  switch (m->opt.solver) {
    case mjSOL_PGS:
      if (islands) {
        // each island's rows in place; solver_nnz the non-zeros of its rows of AR
        tn__solPGSIslands(m, d, m->opt.iterations);
        dual_nnz(m, d);
      } else {
        tn__solPGS(m, d, -1, m->opt.iterations);
        d->solver_nnz[0] = d->nA;
      }
      tn__dualFinish(m, d);
      break;
    case mjSOL_CG:
      if (islands) {
        solve_islands(m, d, 0, jaref, flg_Ma ? Ma : NULL);
      } else {
        tn__solPrimal(m, d, -1, m->opt.iterations, 0, jaref, flg_Ma ? Ma : NULL);
      }
      break;
    default:
      if (islands) {
        solve_islands(m, d, 1, jaref, flg_Ma ? Ma : NULL);
        break;
      }
      if (!is_sparse(m)) {
        d->solver_nnz[0] = nv * nv;
      }
      tn__solPrimal(m, d, -1, m->opt.iterations, 1, jaref, flg_Ma ? Ma : NULL);
      break;
  }
  mj_freeStack(d);

  // noslip post-processing: island by island when the main solver was, then the joint
  // space
  if (m->opt.noslip_iterations > 0) {
    for (int k = 0; islands && k < d->nisland; k++) {
      tn__solNoSlip(m, d, k, m->opt.noslip_iterations);
    }
    if (!islands) {
      tn__solNoSlip(m, d, -1, m->opt.noslip_iterations);
    }
    tn__dualFinish(m, d);
  }
}
