/* constraint/solver_noslip.c — the noslip post-processor: after the main solver, PGS
 * sweeps over friction-loss rows and contact friction only, without the regularizer R
 * (so friction is hard), keeping the normal forces fixed. Pyramidal edge pairs exchange
 * force along their common normal; elliptic friction solves the cone slice's QCQP. The
 * first sweep's improvement also counts 0.5 f'Rf, the cost the regularizer stops adding.
 * With constraint islands, each island's rows are one such solve (in place). */
#include <math.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* 1 if row i belongs to the island solved (island < 0: every row does) */
static inline int in_island(const mjData* d, int i, int island) {
  return island < 0 || d->efc_island[i] == island;
}

/* friction-loss rows of the island: Newton step on A (no R), clamped to the interval */
static mjtNum sweep_friction_loss(const mjModel* m, mjData* d, const mjtNum* Ainv, int island) {
  mjtNum improvement = 0, res, A;
  for (int i = d->ne; i < d->ne + d->nf; i++) {
    if (!in_island(d, i, island)) {
      continue;
    }
    mjtNum* f = d->efc_force + i;
    mjtNum old = *f, fl = d->efc_frictionloss[i];
    tn__dualResidual(m, d, &res, i, 1, 1);
    *f -= res * Ainv[i];
    if (*f < -fl) {
      *f = -fl;
    } else if (*f > fl) {
      *f = fl;
    }
    tn__dualBlock(m, d, &A, i, 1, 1);
    improvement -= tn__dualCostChange(&A, f, &old, &res, 1);
  }
  return improvement;
}

/* one pair of opposing pyramid edges j, j+1: redistribute their sum */
static mjtNum pyramid_pair(const mjModel* m, mjData* d, int j) {
  mjtNum res[2], old[2], Ac[4], bc[2];
  mjtNum* f = d->efc_force + j;
  tn__dualResidual(m, d, res, j, 2, 1);
  mju_copy(old, f, 2);
  tn__dualBlock(m, d, Ac, j, 2, 1);

  // linear term without the current forces
  bc[0] = res[0] - Ac[0] * old[0] - Ac[1] * old[1];
  bc[1] = res[1] - Ac[2] * old[0] - Ac[3] * old[1];

  // f0 = mid + y, f1 = mid - y; minimize over y in [-mid, mid]
  mjtNum mid = 0.5 * (f[0] + f[1]), y;
  mjtNum K1 = Ac[0] + Ac[3] - Ac[1] - Ac[2];
  mjtNum K0 = mid * (Ac[0] - Ac[3]) + bc[0] - bc[1];
  if (K1 < mjMINVAL) {
    f[0] = f[1] = mid;
  } else {
    y = -K0 / K1;
    if (y < -mid) {
      f[0] = 0, f[1] = 2 * mid;
    } else if (y > mid) {
      f[0] = 2 * mid, f[1] = 0;
    } else {
      f[0] = mid + y, f[1] = mid - y;
    }
  }
  return -tn__dualCostChange(Ac, f, old, res, 2);
}

/* elliptic friction at fixed normal force: QCQP in the cone slice */
static mjtNum elliptic_friction(const mjModel* m, mjData* d, int i, int dim) {
  const mjContact* con = d->contact + d->efc_id[i];
  int nf = dim - 1;
  if (nf < 1 || nf > 5) {
    __builtin_unreachable();  // elliptic contacts have one to five friction directions
  }
  mjtNum res[5], old[5], Ac[25], bc[5], v[5];
  mjtNum* f = d->efc_force + i;
  tn__dualResidual(m, d, res, i + 1, nf, 1);
  mju_copy(old, f + 1, nf);
  tn__dualBlock(m, d, Ac, i + 1, nf, 1);

  // linear term without the current friction
  for (int j = 0; j < nf; j++) {
    bc[j] = res[j] - mju_dot(Ac + j * nf, old, nf);
  }

  // no normal force: no friction; else the QCQP, projected onto the cone when active
  if (f[0] < mjMINVAL) {
    mju_zero(f + 1, nf);
  } else {
    int active = tn__QCQP(v, Ac, bc, con->friction, f[0], nf);
    if (active) {
      mjtNum s = 0;
      for (int j = 0; j < nf; j++) {
        s += v[j] * v[j] / (con->friction[j] * con->friction[j]);
      }
      s = sqrt(f[0] * f[0] / mju_max(mjMINVAL, s));
      mju_scl(v, v, s, nf);
    }
    mju_copy(f + 1, v, nf);
  }
  return -tn__dualCostChange(Ac, f + 1, old, res, nf);
}

/* contact friction of every contact of the island */
static mjtNum sweep_contacts(const mjModel* m, mjData* d, int island) {
  mjtNum improvement = 0;
  for (int i = d->ne + d->nf; i < d->nefc; i++) {
    int type = d->efc_type[i], in = in_island(d, i, island);
    if (type == mjCNSTR_CONTACT_PYRAMIDAL) {
      int dim = d->contact[d->efc_id[i]].dim;
      for (int j = i; in && j < i + 2 * (dim - 1); j += 2) {
        improvement += pyramid_pair(m, d, j);
      }
      i += 2 * (dim - 1) - 1;
    } else if (type == mjCNSTR_CONTACT_ELLIPTIC) {
      int dim = d->contact[d->efc_id[i]].dim;
      improvement += in ? elliptic_friction(m, d, i, dim) : 0;
      i += dim - 1;
    }
  }
  return improvement;
}

/* noslip sweeps after the main solver, over the rows of one island (< 0: all rows); the
 * iterations follow the main solver's in the island's slots */
void tn__solNoSlip(const mjModel* m, mjData* d, int island, int maxiter) {
  int slot = island < 0 ? 0 : island, nefc = d->nefc, iter = 0;
  int base = slot < mjNISLAND ? d->solver_niter[slot] : 0;
  mjtNum scale = tn__solverScale(m);
  mj_markStack(d);
  mjtNum* Ainv = mj_stackAllocNum(d, (size_t)nefc);
  int* oldstate = mj_stackAllocInt(d, (size_t)nefc);

  // inverse diagonal of A (without R), initial states
  tn__dualDiagInv(m, d, Ainv, 1);
  tn__dualState(m, d, d->efc_state);

  while (iter < maxiter) {
    for (int i = 0; i < nefc; i++) {
      oldstate[i] = d->efc_state[i];
    }

    // the first sweep also counts the change of cost function: R no longer regularizes
    mjtNum improvement = 0;
    if (iter == 0) {
      for (int i = 0; i < nefc; i++) {
        if (in_island(d, i, island)) {
          improvement += 0.5 * d->efc_R[i] * d->efc_force[i] * d->efc_force[i];
        }
      }
    }

    // sweeps: friction loss, then contact friction
    improvement += sweep_friction_loss(m, d, Ainv, island) + sweep_contacts(m, d, island);

    // states and statistics
    tn__dualState(m, d, d->efc_state);
    int nactive = 0, nchange = 0;
    for (int i = 0; i < nefc; i++) {
      // elliptic contacts are not classified by the dual state: never counted active
      if (in_island(d, i, island)) {
        nactive += d->efc_state[i] != mjCNSTRSTATE_SATISFIED &&
                   d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC;
        nchange += d->efc_state[i] != oldstate[i];
      }
    }
    improvement *= scale;
    tn__saveStats(m, d, island, base + iter, improvement, 0, 0, nactive, nchange, 0, 0);
    iter++;
    if (improvement < m->opt.noslip_tolerance) {
      break;
    }
  }
  if (slot < mjNISLAND) {
    d->solver_niter[slot] = base + iter;
  }
  mj_freeStack(d);
}
