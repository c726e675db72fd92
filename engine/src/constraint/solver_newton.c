/* constraint/solver_newton.c — the Hessian of the reduced primal cost for Newton's method.
 *
 * H = M + sum over quadratic rows of D_i J_i' J_i + sum over elliptic contacts in the cone's
 * middle zone of J_c' H_c J_c (H_c from mj_constraintUpdate). With a dense Jacobian, H is
 * formed densely (lower triangle) from the rows' non-zeros and factored with Cholesky;
 * Newton's preconditioned gradient is H \ grad. With constraint islands H covers only the
 * island's dofs (its rows in ascending dof order, ctx->Hloc), as MuJoCo's island-local
 * solve: a scene of many islands factors small blocks, not nv x nv once per island.
 * (Sparse Jacobians: solver_hessian_sparse.c.) */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/solver_primal.h"

/* non-zeros of dense row i: values and their rows in H (loc: each dof's row) */
static int row_nonzeros(const mjModel* m, const mjData* d, int i, const int* loc, mjtNum* val,
                        int* ind) {
  const mjtNum* row = d->efc_J + (size_t)i * m->nv;
  int n = 0, k = 0;

  // blocks of four entries, skipped when all are zero (either sign: the bits but the sign
  // bit are zero): a contact's row is zero off its chain
  for (; k + 4 <= m->nv; k += 4) {
    uint64_t bits[4];
    memcpy(bits, row + k, sizeof(bits));
    if (!((bits[0] | bits[1] | bits[2] | bits[3]) << 1)) {
      continue;
    }
    for (int j = k; j < k + 4; j++) {
      if (row[j] != 0) {
        val[n] = row[j];
        ind[n++] = loc[j];
      }
    }
  }
  for (; k < m->nv; k++) {
    if (row[k] != 0) {
      val[n] = row[k];
      ind[n++] = loc[k];
    }
  }
  return n;
}

/* lower triangle of H += scl * a b' over the non-zeros at the common ascending columns ind
 * (the Cholesky factorization reads only the lower triangle) */
static void add_outer(mjtNum* H, int nv, const mjtNum* va, const mjtNum* vb, const int* ind, int n,
                      mjtNum scl) {
  for (int p = 0; p < n; p++) {
    mjtNum s = scl * va[p];
    mjtNum* Hrow = H + (size_t)ind[p] * nv;
    for (int q = 0; q <= p; q++) {
      Hrow[ind[q]] += s * vb[q];
    }
  }
}

/* add_outer of two or four rows (v, stride nv apart) sharing the columns ind, with their
 * scales: one pass over the triangle, each element getting the rows' products added in
 * row order, as successive add_outer calls would add them */
static void add_outer_rows(mjtNum* H, int nv, const mjtNum* v, int stride, const int* ind, int n,
                           const mjtNum* scl, int nrow) {
  const mjtNum *v0 = v, *v1 = v + stride, *v2 = v + 2 * stride, *v3 = v + 3 * stride;
  for (int p = 0; p < n; p++) {
    mjtNum* Hrow = H + (size_t)ind[p] * nv;
    mjtNum s0 = scl[0] * v0[p], s1 = scl[1] * v1[p];
    if (nrow == 2) {
      for (int q = 0; q <= p; q++) {
        mjtNum* h = Hrow + ind[q];
        *h = (*h + s0 * v0[q]) + s1 * v1[q];
      }
      continue;
    }
    mjtNum s2 = scl[2] * v2[p], s3 = scl[3] * v3[p];
    for (int q = 0; q <= p; q++) {
      mjtNum* h = Hrow + ind[q];
      *h = (((*h + s0 * v0[q]) + s1 * v1[q]) + s2 * v2[q]) + s3 * v3[q];
    }
  }
}

/* quadratic rows gathered so far (slot g: values at val + g nv, columns at ind + g nv, all
 * the same columns), added to H four, two or one at a time in their order */
static void flush_rows(mjtNum* H, int nh, int nv, const mjtNum* val, const int* ind, int n,
                       const mjtNum* scl, int nrow) {
  int g = 0;
  if (nrow - g >= 4) {
    add_outer_rows(H, nh, val, nv, ind, n, scl, 4);
    g += 4;
  }
  if (nrow - g >= 2) {
    add_outer_rows(H, nh, val + (size_t)g * nv, nv, ind, n, scl + g, 2);
    g += 2;
  }
  if (nrow - g == 1) {
    add_outer(H, nh, val + (size_t)g * nv, val + (size_t)g * nv, ind, n, scl[g]);
  }
}

/* dense rows i..i+dim-1 gathered at the columns where any of them is non-zero (col: the
 * columns, ind: their rows in H); returns the column count */
static int contact_rows(const mjModel* m, const mjData* d, int i, int dim, const int* loc,
                        mjtNum* val, int* col, int* ind) {
  int nv = m->nv, n = 0;

  // union of non-zero columns
  for (int c = 0; c < nv; c++) {
    for (int j = 0; j < dim; j++) {
      if (d->efc_J[(size_t)(i + j) * nv + c] != 0) {
        col[n] = c;
        ind[n++] = loc[c];
        break;
      }
    }
  }
  for (int j = 0; j < dim; j++) {
    for (int k = 0; k < n; k++) {
      val[j * n + k] = d->efc_J[(size_t)(i + j) * nv + col[k]];
    }
  }
  return n;
}

/* one elliptic contact in the cone's middle zone: J_c' H_c J_c */
static void add_cone(const mjModel* m, const mjData* d, int i, mjtNum* H, int nh, const int* loc,
                     mjtNum* val, int* col, int* ind) {
  const mjContact* con = d->contact + d->efc_id[i];
  int dim = con->dim;
  int n = contact_rows(m, d, i, dim, loc, val, col, ind);

  // sum over pairs of rows
  for (int a = 0; a < dim; a++) {
    for (int b = 0; b < dim; b++) {
      mjtNum h = con->H[a * dim + b];
      if (h != 0) {
        add_outer(H, nh, val + a * n, val + b * n, ind, n, h);
      }
    }
  }
}

/* islands of at most this many dofs add each quadratic row whole (add_rows_small) instead of
 * gathering rows by their non-zero columns: on a free body's 6 dofs the bookkeeping of the
 * gathered path cost several times the arithmetic */
#define TN_HESSIAN_SMALL 8

/* H's lower triangle (nh x nh, row-major) += D x x' for one row x; a zero entry of x skips
 * its row of the triangle */
static inline void add_row_triangle(mjtNum* H, const mjtNum* x, mjtNum D, int nh) {
  for (int p = 0; p < nh; p++) {
    if (x[p] == 0) {
      continue;
    }
    mjtNum s = D * x[p];
    mjtNum* Hrow = H + (size_t)p * nh;
    for (int q = 0; q <= p; q++) {
      Hrow[q] += s * x[q];
    }
  }
}

/* the rows part of H for a small island: each quadratic row read at the island's dofs and
 * added to the triangle, a zero entry skipping its row of the triangle (MuJoCo's dense
 * order; the zero products it adds elsewhere leave H's bits unchanged, H never being -0) */
static void add_rows_small(const mjModel* m, const mjData* d, const tnPrimal* ctx, mjtNum* H,
                           mjtNum* val, int* col, int* ind) {
  int nv = m->nv, nh = ctx->nidof;
  mjtNum x[TN_HESSIAN_SMALL];
  for (int k = 0; k < ctx->niefc; k++) {
    int i = tn__primalRow(ctx, k);
    int state = d->efc_state[i];

    // cone: the whole contact (its rows are consecutive, in one island)
    if (state == mjCNSTRSTATE_CONE) {
      add_cone(m, d, i, H, nh, ctx->Hloc, val, col, ind);
      k += d->contact[d->efc_id[i]].dim - 1;
      continue;
    }
    if (state != mjCNSTRSTATE_QUADRATIC) {
      continue;
    }

    // D_i J_i' J_i over the island's dofs (a free body's six with the size known to the
    // compiler: the triangle's loops unrolled)
    const mjtNum* row = d->efc_J + (size_t)i * nv;
    mjtNum D = d->efc_D[i];
    for (int a = 0; a < nh; a++) {
      x[a] = row[tn__primalDof(ctx, a)];
    }
    if (nh == 6) {
      add_row_triangle(H, x, D, 6);
    } else {
      add_row_triangle(H, x, D, nh);
    }
  }
}

/* 1 if the n ints of a and b are equal (a few dozen at most: a loop beats a memcmp call) */
static inline int same_ints(const int* a, const int* b, int n) {
  for (int k = 0; k < n; k++) {
    if (a[k] != b[k]) {
      return 0;
    }
  }
  return 1;
}

/* the rows part of H for a larger island: consecutive quadratic rows with the same non-zero
 * columns (a contact's rows, usually) are gathered, up to four, and added in one pass over
 * their triangle */
static void add_rows_gathered(const mjModel* m, const mjData* d, const tnPrimal* ctx,
                              mjtNum* H, mjtNum* val, int* col, int* ind) {
  int nv = m->nv, nh = ctx->nidof;
  const int* loc = ctx->Hloc;

  // active rows of the solved part (ascending)
  mjtNum scl[4];
  int ngroup = 0, ncol = 0;
  for (int k = 0; k < ctx->niefc; k++) {
    int i = tn__primalRow(ctx, k);
    int state = d->efc_state[i];

    // cone: the whole contact (its rows are consecutive, in one island), after the rows
    // gathered before it
    if (state == mjCNSTRSTATE_CONE) {
      flush_rows(H, nh, nv, val, ind, ncol, scl, ngroup);
      ngroup = 0;
      add_cone(m, d, i, H, nh, loc, val, col, ind);
      k += d->contact[d->efc_id[i]].dim - 1;
      continue;
    }

    // quadratic: D_i J_i' J_i, gathered in the next slot; other columns than the gathered
    // rows': add those first, then start again from this row
    if (state == mjCNSTRSTATE_QUADRATIC) {
      mjtNum* vslot = val + (size_t)ngroup * nv;
      int* islot = ind + (size_t)ngroup * nv;
      int n = row_nonzeros(m, d, i, loc, vslot, islot);
      if (ngroup && (n != ncol || !same_ints(islot, ind, n))) {
        flush_rows(H, nh, nv, val, ind, ncol, scl, ngroup);
        mju_copy(val, vslot, n);
        memcpy(ind, islot, sizeof(int) * (size_t)n);
        ngroup = 0;
      }
      ncol = n;
      scl[ngroup++] = d->efc_D[i];
      if (ngroup == 4) {
        flush_rows(H, nh, nv, val, ind, ncol, scl, ngroup);
        ngroup = 0;
      }
    }
  }
  flush_rows(H, nh, nv, val, ind, ncol, scl, ngroup);
}

/* H = J' D_active J (+ cones) + M (lower triangle), then its Cholesky factor; the sums run
 * in MuJoCo's order (rows first, the inertia added last), so H rounds as MuJoCo's does */
void tn__newtonHessian(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nv = m->nv, nh = ctx->nidof;
  const int* loc = ctx->Hloc;
  mjtNum* H = ctx->H;
  mj_markStack(d);
  mjtNum* val = mj_stackAllocNum(d, (size_t)(6 * nv));
  int* ind = mj_stackAllocInt(d, (size_t)(6 * nv));
  int* col = mj_stackAllocInt(d, (size_t)nv);
  mju_zero(H, nh * nh);

  // the constraint rows
  if (nh <= TN_HESSIAN_SMALL) {
    add_rows_small(m, d, ctx, H, val, col, ind);
  } else {
    add_rows_gathered(m, d, ctx, H, val, col, ind);
  }

  // inertia of the solved dofs, added to the lower triangle (M is block-diagonal by tree:
  // a dof's stored ancestors are in its island)
  for (int k = 0; k < nh; k++) {
    int i = tn__primalDof(ctx, k), adr = m->M_rowadr[i], end = adr + m->M_rownnz[i];
    mjtNum* Hrow = H + (size_t)k * nh;
    for (int q = adr; q < end; q++) {
      Hrow[loc[m->M_colind[q]]] += d->M[q];
    }
  }

  // factor (the rank counted over all nv, the unsolved dofs as full rank)
  ctx->Hrank = nv - nh + mju_cholFactor(H, nh, mjMINVAL);
  mj_freeStack(d);
}

/* the rotation of one column of a rank-one change below its pivot: cnt entries of L at
 * stride `stride` (col) and of x; sc = sign * s. The rows are independent (with an AVX2
 * clone: four rows per instruction, the column's entries gathered and scattered) */
TN_CLONE_AVX2
static void rotate_column(mjtNum* restrict col, mjtNum* restrict x, int cnt, int stride,
                          mjtNum sc, mjtNum s, mjtNum c, mjtNum cinv) {
  for (int i = 0; i < cnt; i++) {
    mjtNum l = (col[(size_t)i * stride] + sc * x[i]) * cinv;
    col[(size_t)i * stride] = l;
    x[i] = c * x[i] - s * l;
  }
}

/* column k of a rank-one update (sign 1) or downdate (sign -1) of the lower Cholesky factor
 * L (n x n, row-major) by x: the new pivot, the rest of column k and x below k; 0, or -1
 * when a downdate would leave the pivot below mjMINVAL */
static inline int rank_one_column(mjtNum* L, int n, mjtNum* x, int k, int sign) {
  // nothing to rotate in this column
  if (x[k] == 0) {
    return 0;
  }

  // new pivot and the rotation taking the old one to it
  mjtNum* Lk = L + (size_t)k * n;
  mjtNum r2 = Lk[k] * Lk[k] + sign * x[k] * x[k];
  if (r2 < mjMINVAL) {
    return -1;
  }
  mjtNum r = sqrt(r2), c = r / Lk[k], cinv = 1 / c, s = x[k] / Lk[k];
  Lk[k] = r;

  // the rest of column k (scaled by 1/c as a product, MuJoCo's rounding), and x for the
  // next columns
  rotate_column(L + (size_t)(k + 1) * n + k, x + k + 1, n - k - 1, n, sign * s, s, c, cinv);
  return 0;
}

/* most rank-one changes swept together */
#define TN_RANK_WAVE 4

/* m <= TN_RANK_WAVE successive rank-one changes of L (change j: x[j], zero before column
 * k0[j], overwritten; sign[j]) as one wavefront: at step t change j does column t - j.
 * Change j's column k needs change j-1's column k and its own column k-1, both done a step
 * earlier, so L and every x come out as the changes applied one after the other give them,
 * bit for bit, while the changes' dependency chains (a square root and two divisions per
 * column) run side by side. 0, or -1 when a downdate loses definiteness (the caller then
 * rebuilds the factor, whatever the changes left in L) */
static int chol_rank_wave(mjtNum* L, int n, mjtNum* const* x, const int* k0, const int* sign,
                          int m) {
  int t0 = n;
  for (int j = 0; j < m; j++) {
    t0 = k0[j] + j < t0 ? k0[j] + j : t0;
  }
  for (int t = t0; t < n + m - 1; t++) {
    for (int j = 0; j < m; j++) {
      int k = t - j;
      if (k >= k0[j] && k < n && rank_one_column(L, n, x[j], k, sign[j])) {
        return -1;
      }
    }
  }
  return 0;
}

/* x = sqrt(D_i) J_i on the solved dofs for row i, whose quadratic membership flipped (an
 * update when it entered, a downdate when it left); returns its first non-zero column (nh
 * when none) */
static int flip_vector(const mjModel* m, const mjData* d, const tnPrimal* ctx, int i,
                       mjtNum* x) {
  int nh = ctx->nidof;
  const mjtNum* row = d->efc_J + (size_t)i * m->nv;
  mjtNum sd = sqrt(d->efc_D[i]);
  int k0 = nh;
  for (int k = 0; k < nh; k++) {
    x[k] = sd * row[tn__primalDof(ctx, k)];
    if (x[k] != 0 && k < k0) {
      k0 = k;
    }
  }
  return k0;
}

/* rows that entered or left the quadratic state since the last factorization, or -1 when
 * the factor must be rebuilt instead (rank-deficient, or a cone row: its block of H depends
 * on the point); the sparse update also rebuilds when many rows changed (a rebuild costs
 * about nv^3/6, each change about 2 nv^2) */
int tn__newtonCountFlips(const mjModel* m, const mjData* d, const tnPrimal* ctx) {
  int nv = m->nv, nflip = 0;
  if (ctx->Hrank < nv) {
    return -1;
  }
  for (int k = 0; k < ctx->niefc; k++) {
    int i = tn__primalRow(ctx, k);
    if (d->efc_state[i] == mjCNSTRSTATE_CONE || ctx->oldstate[i] == mjCNSTRSTATE_CONE) {
      return -1;
    }
    nflip += (d->efc_state[i] == mjCNSTRSTATE_QUADRATIC) !=
             (ctx->oldstate[i] == mjCNSTRSTATE_QUADRATIC);
  }
  return nflip;
}

/* the dense factor of H after state changes, as MuJoCo 3.14 keeps it: one rank-one update
 * or downdate per flipped row, in row order, however many (swept TN_RANK_WAVE at a time);
 * -1: rebuild instead */
int tn__newtonHessianUpdate(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nflip = tn__newtonCountFlips(m, d, ctx);
  if (nflip <= 0) {
    return nflip;
  }
  mj_markStack(d);
  int nwave = nflip < TN_RANK_WAVE ? nflip : TN_RANK_WAVE;
  mjtNum* buf = mj_stackAllocNum(d, (size_t)nwave * m->nv);
  if (!buf) {
    mj_freeStack(d);
    return -1;
  }
  mjtNum* x[TN_RANK_WAVE];
  int k0[TN_RANK_WAVE], sign[TN_RANK_WAVE], nx = 0, res = 0;
  for (int k = 0; k < ctx->niefc && !res; k++) {
    int i = tn__primalRow(ctx, k);
    int now = d->efc_state[i] == mjCNSTRSTATE_QUADRATIC;
    int was = ctx->oldstate[i] == mjCNSTRSTATE_QUADRATIC;
    if (now == was) {
      continue;
    }

    // gather the flip; sweep when the wave is full or the last flip is in
    x[nx] = buf + (size_t)nx * m->nv;
    k0[nx] = flip_vector(m, d, ctx, i, x[nx]);
    sign[nx] = now ? 1 : -1;
    nx++;
    nflip--;
    if (nx == nwave || nflip == 0) {
      res = chol_rank_wave(ctx->H, ctx->nidof, x, k0, sign, nx);
      nx = 0;
    }
  }
  mj_freeStack(d);
  return res ? -1 : 0;
}

/* Mgrad = H \ grad on the solved dofs (zero elsewhere, as grad) */
void tn__newtonSolve(const tnPrimal* ctx) {
  int nh = ctx->nidof;
  mjtNum *b = ctx->Hb, *x = ctx->Hb + ctx->nv;
  for (int k = 0; k < nh; k++) {
    b[k] = ctx->grad[tn__primalDof(ctx, k)];
  }
  mju_cholSolve(x, ctx->H, b, nh);
  for (int k = 0; k < nh; k++) {
    ctx->Mgrad[tn__primalDof(ctx, k)] = x[k];
  }
}
