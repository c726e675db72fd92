/* constraint/solver_driver.c — the constraint stage of mj_fwdConstraint: efc_b, the
 * warmstart, the selected solver (PGS, CG or Newton) and noslip, plus solver statistics.
 *
 * Warmstart (unless disabled): evaluate the constraints at qacc_warmstart. The primal
 * solvers start from whichever of qacc_warmstart and qacc_smooth has the lower total cost;
 * PGS starts from the forces implied by qacc_warmstart unless their dual cost is positive
 * (worse than zero force); J qacc - aref (and M qacc for the warmstart) at the chosen
 * start are handed to the primal solvers. Constraint islands are not used: everything is
 * one problem, with its statistics in island slot 0. */
#include "constraint/constraint.h"
#include "util/util_inline.h"

/* 1 / (meaninertia * max(1, nv)) */
mjtNum tn__solverScale(const mjModel* m) {
  return 1 / (m->stat.meaninertia * (m->nv > 1 ? m->nv : 1));
}

/* statistics of one iteration, island 0 */
void tn__saveStats(const mjModel* m, mjData* d, int iter, mjtNum improvement, mjtNum gradient,
                   mjtNum lineslope, int nactive, int nchange, int neval, int nupdate) {
  (void)m;
  if (iter < 0 || iter >= mjNSOLVER) {
    return;
  }
  mjSolverStat* s = d->solver + iter;
  s->improvement = improvement;
  s->gradient = gradient;
  s->lineslope = lineslope;
  s->nactive = nactive;
  s->nchange = nchange;
  s->neval = neval;
  s->nupdate = nupdate;
}

/* dual cost 0.5 f'AR f + f'b of the current forces */
static mjtNum dual_cost(const mjModel* m, mjData* d) {
  mjtNum cost = 0, res;
  for (int i = 0; i < d->nefc; i++) {
    tn__dualResidual(m, d, &res, i, 1, 0);
    cost += d->efc_force[i] * (0.5 * (res - d->efc_b[i]) + d->efc_b[i]);
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

  // starting point, then the main solver
  int flg_Ma;
  mj_markStack(d);
  mjtNum* jaref = mj_stackAllocNum(d, (size_t)nefc);
  mjtNum* Ma = mj_stackAllocNum(d, (size_t)nv);
  warmstart(m, d, jaref, Ma, &flg_Ma);
  switch (m->opt.solver) {
    case mjSOL_PGS:
      tn__solPGS(m, d, m->opt.iterations);
      d->solver_nnz[0] = d->nA;
      break;
    case mjSOL_CG: tn__solPrimal(m, d, m->opt.iterations, 0, jaref, flg_Ma ? Ma : NULL); break;
    default:
      if (!is_sparse(m)) {
        d->solver_nnz[0] = nv * nv;
      }
      tn__solPrimal(m, d, m->opt.iterations, 1, jaref, flg_Ma ? Ma : NULL);
      break;
  }
  mj_freeStack(d);

  // noslip post-processing
  if (m->opt.noslip_iterations > 0) {
    tn__solNoSlip(m, d, m->opt.noslip_iterations);
  }
}
