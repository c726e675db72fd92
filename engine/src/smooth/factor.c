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

/* the elimination of row k (its first six entries src, in a tree hanging from a free
 * joint) into the joint's six rows, stored one after the other from F (1, 2, ..., 6
 * entries: 21 numbers): row j += src[0..j] * (-src[j] * invD), each entry as eliminate_row
 * updates it, written out so that no loop is set up for rows this short */
static inline void eliminate_free_rows(mjtNum* restrict F, const mjtNum* restrict src,
                                       mjtNum invD) {
  mjtNum s0 = src[0], s1 = src[1], s2 = src[2], s3 = src[3], s4 = src[4], s5 = src[5];
  mjtNum c5 = -s5 * invD, c4 = -s4 * invD, c3 = -s3 * invD;
  mjtNum c2 = -s2 * invD, c1 = -s1 * invD, c0 = -s0 * invD;
  F[15] += s0 * c5, F[16] += s1 * c5, F[17] += s2 * c5;
  F[18] += s3 * c5, F[19] += s4 * c5, F[20] += s5 * c5;
  F[10] += s0 * c4, F[11] += s1 * c4, F[12] += s2 * c4, F[13] += s3 * c4, F[14] += s4 * c4;
  F[6] += s0 * c3, F[7] += s1 * c3, F[8] += s2 * c3, F[9] += s3 * c3;
  F[3] += s0 * c2, F[4] += s1 * c2, F[5] += s2 * c2;
  F[1] += s0 * c1, F[2] += s1 * c1;
  F[0] += s0 * c0;
}

/* 1 if the six rows of tree t's free joint (tn__freeRooted) are stored one after the
 * other, with 1, 2, ..., 6 entries */
static inline int free_rows_packed(const mjModel* m, int t) {
  int r = m->tree_dofadr[t];
  for (int j = 0; j < 6; j++) {
    if (m->M_rownnz[r + j] != j + 1 || m->M_rowadr[r + j] != m->M_rowadr[r] + j * (j + 1) / 2) {
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
  int ordered = tn__treesInOrder(m);
  int tcur = -1, tfree = 0;  // the tree of the last row, and whether it takes the free kernel

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
    // and i, so row i holds exactly the adr - start + 1 columns of row k up to i. Below a
    // free joint, its six rows (row k's first six columns) are eliminated in one go
    int t = ordered ? m->dof_treeid[k] : -1;
    if (t != tcur) {
      tcur = t;
      tfree = t >= 0 && tn__freeRooted(m, t) && free_rows_packed(m, t);
    }
    int free = tfree && k >= m->tree_dofadr[t] + 6;
    int last = free ? start + 6 : start;
    for (int adr = diag - 1; adr >= last; adr--) {
      eliminate_row(mat + rowadr[colind[adr]], mat + start, -mat[adr] * invD, adr - start + 1);
    }
    if (free) {
      eliminate_free_rows(mat + rowadr[m->tree_dofadr[t]], mat + start, invD);
    }

    // scale row k's off-diagonals into L
    for (int adr = start; adr < diag; adr++) {
      mat[adr] *= invD;
    }
  }
}

/* rows hi-1 down to lo of x <- inv(L') x: x(j) -= L(i,j) x(i) for the ancestors j of i */
static inline void solve_lt_rows(const mjModel* m, mjtNum* x, const mjtNum* qLD, int lo, int hi) {
  const int* rowadr = m->M_rowadr;
  const int* rownnz = m->M_rownnz;
  const int* colind = m->M_colind;
  for (int i = hi - 1; i >= lo; i--) {
    mjtNum xi = x[i];
    if (xi == 0) {
      continue;
    }
    int adr = rowadr[i], diag = adr + rownnz[i] - 1;
    for (int k = adr; k < diag; k++) {
      x[colind[k]] -= qLD[k] * xi;
    }
  }
}

/* the rows of a tree hanging from a free joint (dofs r..r+5, tn__freeRooted), past the
 * joint's own: solve_lt_rows with the joint's six entries of x in registers (every row
 * subtracts from all six: through memory, each subtraction would wait for the last one's
 * store) */
static void solve_lt_free_tree(const mjModel* m, mjtNum* x, const mjtNum* qLD, int r, int n) {
  mjtNum xr[6];
  for (int j = 0; j < 6; j++) {
    xr[j] = x[r + j];
  }
  for (int i = r + n - 1; i >= r + 6; i--) {
    mjtNum xi = x[i];
    if (xi == 0) {
      continue;
    }
    int adr = m->M_rowadr[i], diag = adr + m->M_rownnz[i] - 1;
    for (int j = 0; j < 6; j++) {
      xr[j] -= qLD[adr + j] * xi;
    }
    for (int k = adr + 6; k < diag; k++) {
      x[m->M_colind[k]] -= qLD[k] * xi;
    }
  }
  for (int j = 0; j < 6; j++) {
    x[r + j] = xr[j];
  }
}

/* one vector: x <- inv(L') x, the first half of the solve (tree by tree, last to first:
 * a tree's rows touch only its own dofs) */
static void solve_lt(const mjModel* m, mjtNum* x, const mjtNum* qLD) {
  if (!tn__treesInOrder(m)) {
    solve_lt_rows(m, x, qLD, 0, m->nv);
    return;
  }
  for (int t = m->ntree - 1; t >= 0; t--) {
    int r = m->tree_dofadr[t], n = m->tree_dofnum[t];
    if (tn__freeRooted(m, t)) {
      solve_lt_free_tree(m, x, qLD, r, n);
      solve_lt_rows(m, x, qLD, r, r + 6);
    } else {
      solve_lt_rows(m, x, qLD, r, r + n);
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
