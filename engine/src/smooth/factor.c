/* smooth/factor.c — sparse L'DL factorization of the joint-space inertia and solves with it.
 *
 * M = L' D L with L unit lower triangular. Eliminating from the last dof backwards, the
 * update of row k only touches the rows of k's ancestors, whose columns are a prefix of
 * row k's columns: the factor has exactly M's sparsity (no fill-in) and is stored in M's
 * CSR layout (d->qLD: L off the diagonal, D on it; d->qLDiagInv = 1/D). The same routines
 * factor and solve the Euler integrator's M + h*diag(damping) (d->qH, d->qHDiagInv). */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* dst += src * scl over n entries: one ancestor row's update (the rows never overlap, so
 * the compiler needs no aliasing checks between them) */
static inline void eliminate_row(mjtNum* restrict dst, const mjtNum* restrict src, mjtNum scl,
                                 int n) {
  for (int j = 0; j < n; j++) {
    dst[j] += src[j] * scl;
  }
}

/* 1 if the n entries are all +0 (a -0 among them would turn an ancestor's -0 into +0) */
static inline int zero_row(const mjtNum* row, int n) {
  for (int j = 0; j < n; j++) {
    if (row[j] != 0 || signbit(row[j])) {
      return 0;
    }
  }
  return 1;
}

/* in-place L'DL factorization of a matrix with M's CSR layout (with an AVX2 clone: four
 * entries of an ancestor row per instruction) */
TN_CLONE_AVX2
void tn__factorLD(const mjModel* m, mjData* d, mjtNum* mat, mjtNum* diaginv) {
  const int* rowadr = m->M_rowadr;
  const int* rownnz = m->M_rownnz;
  const int* colind = m->M_colind;
  const int* simplenum = m->dof_simplenum;

  // backward loop over rows: row k is final once all its descendants are eliminated
  for (int k = m->nv - 1; k >= 0; k--) {
    int start = rowadr[k];
    int diag = start + rownnz[k] - 1;

    // guard against a (nearly) singular pivot
    if (mat[diag] < mjMINVAL) {
      mj_warning(d, mjWARN_INERTIA, k);
      mat[diag] = mjMINVAL;
    }
    mjtNum invD = 1 / mat[diag];
    diaginv[k] = invD;

    // a simple dof's row, whose off-diagonals are normally all +0, would leave every
    // entry as it is: it adds +0 * -0 = -0 to its ancestors' entries and keeps +0 when
    // scaled (checked, since tendon armature can couple simple dofs)
    if (simplenum[k] && zero_row(mat + start, diag - start)) {
      continue;
    }

    // eliminate: row i of each ancestor -= L(k,i) * row k (restricted to columns <= i);
    // row k's columns are k's ancestors in increasing order and row i's are i's ancestors
    // and i, so row i holds exactly the adr - start + 1 columns of row k up to i
    for (int adr = diag - 1; adr >= start; adr--) {
      eliminate_row(mat + rowadr[colind[adr]], mat + start, -mat[adr] * invD, adr - start + 1);
    }

    // scale row k's off-diagonals into L
    for (int adr = start; adr < diag; adr++) {
      mat[adr] *= invD;
    }
  }
}

/* one vector: x <- inv(L') x, the first half of the solve */
static void solve_lt(const mjModel* m, mjtNum* x, const mjtNum* qLD) {
  const int* rowadr = m->M_rowadr;
  const int* rownnz = m->M_rownnz;
  const int* colind = m->M_colind;
  for (int i = m->nv - 1; i >= 0; i--) {
    mjtNum xi = x[i];
    if (xi == 0) {
      continue;
    }

    // x(j) -= L(i,j) * x(i) for the ancestors j of i
    int adr = rowadr[i], diag = adr + rownnz[i] - 1;
    for (int k = adr; k < diag; k++) {
      x[colind[k]] -= qLD[k] * xi;
    }
  }
}

/* solve (L'DL) x = x in place for n vectors; the second half, x <- inv(L) inv(D) x, scales
 * x(i) by 1/D(i) as it reaches it and then subtracts L(i,:) x over the ancestors of i (all
 * final by then) as one dot product (MuJoCo's order; simple dofs have no ancestors) */
void tn__solveLD(const mjModel* m, mjtNum* x, int n, const mjtNum* qLD, const mjtNum* diaginv) {
  int nv = m->nv;
  const int* rowadr = m->M_rowadr;
  const int* rownnz = m->M_rownnz;
  const int* colind = m->M_colind;
  const int* simplenum = m->dof_simplenum;
  for (int v = 0; v < n; v++, x += nv) {
    solve_lt(m, x, qLD);
    for (int i = 0; i < nv; i++) {
      mjtNum xi = x[i] * diaginv[i];
      int adr = rowadr[i], cnt = rownnz[i] - 1;
      if (cnt > 0 && !simplenum[i]) {
        xi -= mju_dotSparse(qLD + adr, x, cnt, colind + adr);
      }
      x[i] = xi;
    }
  }
}

/* factor d->M into d->qLD, d->qLDiagInv */
void mj_factorM(const mjModel* m, mjData* d) {
  mju_copy(d->qLD, d->M, m->nC);
  tn__factorLD(m, d, d->qLD, d->qLDiagInv);
}

/* x = inv(M) y for n vectors (x may equal y) */
void mj_solveM(const mjModel* m, mjData* d, mjtNum* x, const mjtNum* y, int n) {
  if (x != y) {
    mju_copy(x, y, n * m->nv);
  }
  tn__solveLD(m, x, n, d->qLD, d->qLDiagInv);
}

/* half of the solve: x = sqrt(inv(D)) inv(L') y for n vectors (x may equal y) */
void mj_solveM2(const mjModel* m, mjData* d, mjtNum* x, const mjtNum* y, const mjtNum* sqrtInvD,
                int n) {
  int nv = m->nv;
  if (x != y) {
    mju_copy(x, y, n * nv);
  }
  for (int v = 0; v < n; v++) {
    mjtNum* xv = x + (size_t)v * nv;
    solve_lt(m, xv, d->qLD);
    for (int i = 0; i < nv; i++) {
      xv[i] *= sqrtInvD[i];
    }
  }
}
