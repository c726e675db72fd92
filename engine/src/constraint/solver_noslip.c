/* constraint/solver_noslip.c — the noslip post-processor: after the main solver, PGS
 * sweeps over friction-loss rows and contact friction only, without the regularizer R
 * (so friction is hard), keeping the normal forces fixed. Pyramidal edge pairs exchange
 * force along their common normal; elliptic friction solves the cone slice's QCQP. The
 * first sweep's improvement also counts 0.5 f'Rf, the cost the regularizer stops adding.
 * With constraint islands, each island's rows are one such solve (in place). */
#include <math.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* dense AR: res = AR[i:i+dim, :] force + b[i:i+dim] - R force, the rows summed together
 * so that each block of force is loaded once. Each row's dot is mju_dot's: blocks of four
 * in four lanes combined as (s0+s2)+(s1+s3), the 1-3 remaining products summed apart and
 * added (the AVX2 clone and the baseline lower the same lane operations: same bits) */
static inline __attribute__((always_inline)) void dense_rows(const mjData* d, mjtNum* res, int i,
                                                             int dim) {
  int nefc = d->nefc, nblk = nefc & ~3;
  const mjtNum* force = d->efc_force;
  const mjtNum* row = d->efc_AR + (size_t)i * nefc;
  mjtNum dot[5] = {0, 0, 0, 0, 0};

  // blocks of four, one accumulator of four lanes per row
  if (nefc >= 4) {
    tn_vec4 s[5];
    tn_vec4 f = *(const tn_vec4*)force;
    for (int j = 0; j < dim; j++) {
      s[j] = *(const tn_vec4*)(row + (size_t)j * nefc) * f;
    }
    for (int k = 4; k < nblk; k += 4) {
      f = *(const tn_vec4*)(force + k);
      for (int j = 0; j < dim; j++) {
        s[j] += *(const tn_vec4*)(row + (size_t)j * nefc + k) * f;
      }
    }
    for (int j = 0; j < dim; j++) {
      tn_vec2 lo = {s[j][0], s[j][1]}, hi = {s[j][2], s[j][3]}, sum = lo + hi;
      dot[j] = sum[0] + sum[1];
    }
  }

  // remaining entries summed apart from the first, then added (none: the block total as
  // it is); then b and the R part
  for (int j = 0; j < dim; j++) {
    const mjtNum* rj = row + (size_t)j * nefc;
    if (nblk < nefc) {
      mjtNum tail = rj[nblk] * force[nblk];
      for (int k = nblk + 1; k < nefc; k++) {
        tail += rj[k] * force[k];
      }
      dot[j] += tail;
    }
    res[j] = dot[j] + d->efc_b[i + j];
    res[j] -= d->efc_R[i + j] * force[i + j];
  }
}

/* dense_rows for a friction-loss row (1), a pyramid pair (2) or an elliptic contact's
 * friction rows (1-5), each size unrolled */
TN_CLONE_AVX2
static void dense_residual(const mjData* d, mjtNum* res, int i, int dim) {
  switch (dim) {
    case 1: dense_rows(d, res, i, 1); break;
    case 2: dense_rows(d, res, i, 2); break;
    case 3: dense_rows(d, res, i, 3); break;
    case 4: dense_rows(d, res, i, 4); break;
    default: dense_rows(d, res, i, 5); break;
  }
}

/* AR[i:i+dim, :] force + b - R force, dense or sparse */
static inline void noslip_residual(const mjModel* m, const mjData* d, mjtNum* res, int i, int dim) {
  if (is_sparse(m)) {
    tn__dualResidual(m, d, res, i, dim, 1);
  } else {
    dense_residual(d, res, i, dim);
  }
}

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
    noslip_residual(m, d, &res, i, 1);
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
  noslip_residual(m, d, res, j, 2);
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

/* elliptic friction at fixed normal force: QCQP in the cone slice (nf = dim - 1 friction
 * rows; inlined per size so its small loops unroll) */
static inline __attribute__((always_inline)) mjtNum elliptic_friction_n(const mjModel* m, mjData* d,
                                                                        int i, int nf) {
  const mjContact* con = d->contact + d->efc_id[i];
  if (nf < 1 || nf > 5) {
    __builtin_unreachable();  // elliptic contacts have one to five friction directions
  }
  mjtNum res[5], old[5], Ac[25], bc[5], v[5];
  mjtNum* f = d->efc_force + i;
  noslip_residual(m, d, res, i + 1, nf);
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

/* elliptic_friction_n for the contact's size: condim 3, 4 and 6 unrolled */
static mjtNum elliptic_friction(const mjModel* m, mjData* d, int i, int dim) {
  switch (dim) {
    case 3: return elliptic_friction_n(m, d, i, 2);
    case 4: return elliptic_friction_n(m, d, i, 3);
    case 6: return elliptic_friction_n(m, d, i, 5);
    default: return elliptic_friction_n(m, d, i, dim - 1);
  }
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
