/* constraint/solver_newton.c — the Hessian of the reduced primal cost for Newton's method.
 *
 * H = M + sum over quadratic rows of D_i J_i' J_i + sum over elliptic contacts in the cone's
 * middle zone of J_c' H_c J_c (H_c from mj_constraintUpdate). With a dense Jacobian, H is
 * formed densely (lower triangle) from the rows' non-zeros and factored with Cholesky;
 * Newton's preconditioned gradient is H \ grad. (Sparse Jacobians:
 * solver_hessian_sparse.c.) */
#include "constraint/solver_primal.h"

/* non-zeros of dense row i: values and columns */
static int rowNonzeros(const mjModel* m, const mjData* d, int i, mjtNum* val, int* ind) {
  const mjtNum* row = d->efc_J + (size_t)i * m->nv;
  int n = 0;
  for (int k = 0; k < m->nv; k++) {
    if (row[k] != 0) {
      val[n] = row[k];
      ind[n++] = k;
    }
  }
  return n;
}

/* lower triangle of H += scl * a b' over the non-zeros at the common ascending columns ind
 * (the Cholesky factorization reads only the lower triangle) */
static void addOuter(mjtNum* H, int nv, const mjtNum* va, const mjtNum* vb, const int* ind,
                     int n, mjtNum scl) {
  for (int p = 0; p < n; p++) {
    mjtNum s = scl * va[p];
    mjtNum* Hrow = H + (size_t)ind[p] * nv;
    for (int q = 0; q <= p; q++) {
      Hrow[ind[q]] += s * vb[q];
    }
  }
}

/* dense rows i..i+dim-1 gathered at the columns where any of them is non-zero; returns
 * the column count */
static int contactRows(const mjModel* m, const mjData* d, int i, int dim, mjtNum* val,
                       int* ind) {
  int nv = m->nv, n = 0;

  // union of non-zero columns
  for (int c = 0; c < nv; c++) {
    for (int j = 0; j < dim; j++) {
      if (d->efc_J[(size_t)(i + j) * nv + c] != 0) {
        ind[n++] = c;
        break;
      }
    }
  }
  for (int j = 0; j < dim; j++) {
    for (int k = 0; k < n; k++) {
      val[j * n + k] = d->efc_J[(size_t)(i + j) * nv + ind[k]];
    }
  }
  return n;
}

/* one elliptic contact in the cone's middle zone: J_c' H_c J_c */
static void addCone(const mjModel* m, const mjData* d, int i, mjtNum* H, mjtNum* val,
                    int* ind) {
  const mjContact* con = d->contact + d->efc_id[i];
  int dim = con->dim, nv = m->nv;
  int n = contactRows(m, d, i, dim, val, ind);

  // sum over pairs of rows
  for (int a = 0; a < dim; a++) {
    for (int b = 0; b < dim; b++) {
      mjtNum h = con->H[a * dim + b];
      if (h != 0) {
        addOuter(H, nv, val + a * n, val + b * n, ind, n, h);
      }
    }
  }
}

/* H = M + J' D_active J (+ cones; lower triangle), then its Cholesky factor */
void tn_newtonHessian(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nv = m->nv, nefc = d->nefc;
  mjtNum* H = ctx->H;
  mj_markStack(d);
  mjtNum* val = mj_stackAllocNum(d, (size_t)(6 * nv));
  int* ind = mj_stackAllocInt(d, (size_t)(6 * nv));

  // inertia
  mj_fullM(m, H, d->M);

  // active rows
  for (int i = 0; i < nefc; i++) {
    int state = d->efc_state[i];

    // cone: the whole contact
    if (state == mjCNSTRSTATE_CONE) {
      addCone(m, d, i, H, val, ind);
      i += d->contact[d->efc_id[i]].dim - 1;
      continue;
    }

    // quadratic: D_i J_i' J_i
    if (state == mjCNSTRSTATE_QUADRATIC) {
      int n = rowNonzeros(m, d, i, val, ind);
      addOuter(H, nv, val, val, ind, n, d->efc_D[i]);
    }
  }

  // factor
  mju_cholFactor(H, nv, mjMINVAL);
  mj_freeStack(d);
}

/* Mgrad = H \ grad */
void tn_newtonSolve(const tnPrimal* ctx) {
  mju_cholSolve(ctx->Mgrad, ctx->H, ctx->grad, ctx->nv);
}
