/* constraint/solver_dual.c — pieces of the dual problem shared by PGS and noslip:
 *   min_f 0.5 f'(A + R) f + f'b   subject to f in the constraint set,
 * with AR = A + R from mj_projectConstraint (dense or sparse) and b = efc_b. Residuals,
 * diagonal blocks, the inverse diagonal, the cost change of a block update (reverted when
 * it increases the cost) and the row states implied by a force. */
#include <math.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* AR[r, c] (0 when not stored) */
mjtNum tn__dualEntry(const mjModel* m, const mjData* d, int r, int c) {
  if (!is_sparse(m)) {
    return d->efc_AR[(size_t)r * d->nefc + c];
  }
  // the row's columns ascend: bisect
  int adr = d->efc_AR_rowadr[r], nnz = d->efc_AR_rownnz[r];
  const int* col = d->efc_AR_colind + adr;
  int k = tn__lowerBound(col, nnz, c);
  return k < nnz && col[k] == c ? d->efc_AR[adr + k] : 0;
}

/* res = 1 / diag(AR) (minus R when flg_subR) */
void tn__dualDiagInv(const mjModel* m, const mjData* d, mjtNum* res, int flg_subR) {
  for (int i = 0; i < d->nefc; i++) {
    mjtNum v = tn__dualEntry(m, d, i, i);
    if (flg_subR) {
      v -= d->efc_R[i];
    }
    res[i] = 1 / mju_max(mjMINVAL, v);
  }
}

/* the state of row i implied by its dual force (elliptic rows: cur, left as it was) */
static int dual_state_of(const mjData* d, int i, int cur) {
  int ne = d->ne, nf = d->nf;
  mjtNum f = d->efc_force[i];

  // equality: always quadratic
  if (i < ne) {
    return mjCNSTRSTATE_QUADRATIC;
  }

  // friction loss: at a bound linear, else quadratic
  if (i < ne + nf) {
    mjtNum fl = d->efc_frictionloss[i];
    return f >= fl ? mjCNSTRSTATE_LINEARNEG : f <= -fl ? mjCNSTRSTATE_LINEARPOS : mjCNSTRSTATE_QUADRATIC;
  }

  // elliptic contacts: not classified by the dual solvers
  if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
    return cur;
  }

  // limits and other contacts: active when pushing
  return f > 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_SATISFIED;
}

/* row states implied by the dual force */
void tn__dualState(const mjModel* m, mjData* d, int* state) {
  (void)m;
  for (int i = 0; i < d->nefc; i++) {
    state[i] = dual_state_of(d, i, state[i]);
  }
}

/* the same for the listed rows only */
void tn__dualStateRows(mjData* d, int* state, const int* rows, int nrow) {
  for (int k = 0; k < nrow; k++) {
    state[rows[k]] = dual_state_of(d, rows[k], state[rows[k]]);
  }
}

/* the same, counting the rows active afterwards (elliptic ones never: the dual solvers do
 * not classify them) and those whose state changed */
void tn__dualStateRowsCount(mjData* d, int* state, const int* rows, int nrow, int* nactive,
                            int* nchange) {
  int na = 0, nc = 0, nef = d->ne + d->nf;
  const int* type = d->efc_type;
  const mjtNum* force = d->efc_force;
  for (int k = 0; k < nrow; k++) {
    int i = rows[k], old = state[i], now;

    // limits and contacts (the most rows) decided here; elliptic ones keep their state
    if (i >= nef) {
      if (type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
        continue;
      }
      now = force[i] > 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_SATISFIED;
    } else {
      now = dual_state_of(d, i, old);
    }
    state[i] = now;
    na += now != mjCNSTRSTATE_SATISFIED;
    nc += now != old;
  }
  *nactive = na;
  *nchange = nc;
}

/* project a contact force onto the friction cone |f_k / mu_k| <= f_0: a non-positive normal
 * force gives zero, friction outside the cone is scaled onto its surface */
void tn__projectCone(mjtNum* f, const mjtNum* friction, int dim) {
  if (f[0] <= 0) {
    mju_zero(f, dim);
    return;
  }
  mjtNum s = 0;
  for (int j = 1; j < dim; j++) {
    mjtNum t = f[j] / friction[j - 1];
    s += t * t;
  }
  if (s > f[0] * f[0]) {
    mju_scl(f + 1, f + 1, f[0] / sqrt(s), dim - 1);
  }
}
