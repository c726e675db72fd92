/* util/math_mat.c — dense row-major matrix products, transpose and Cholesky.
 *
 * Products are organized so the inner loop is a contiguous dot product or axpy: row-times-
 * vector uses mju_dot, transposed products accumulate scaled rows (skipping zero scales,
 * which keeps sparse-ish Jacobians cheap). The Cholesky factor is the lower triangle of the
 * input matrix, computed column by column (Cholesky-Crout); the upper triangle is left as is.
 * The kernels the Newton solver spends its time in have AVX2 clones (TN_CLONE_AVX2). */
#include <math.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* res[nr] = mat * vec (with an AVX2 clone, as mju_dot's four lanes fill one register) */
TN_CLONE_AVX2
void mju_mulMatVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc) {
  for (int r = 0; r < nr; r++) {
    res[r] = mju_dot(mat + (size_t)r * nc, vec, nc);
  }
}

/* the columns [c, c + 4 q + rest) of mat' * vec (q <= 6 blocks of four, then the last
 * 0-3 columns) in one pass over the rows: every column's sum held in a register over all
 * the rows and stored once. Inlined with a constant q, so the sums stay in registers. */
static inline __attribute__((always_inline)) void mat_t_pass(mjtNum* res, const mjtNum* mat,
                                                             const mjtNum* vec, int nr, int nc,
                                                             int c, int q, int rest) {
  tn_vec4 a[6];
  for (int k = 0; k < q; k++) {
    a[k] = (tn_vec4){0, 0, 0, 0};
  }
  int has2 = (rest & 2) != 0, has1 = rest & 1;
  int c2 = c + 4 * q, c1 = c2 + 2 * has2;
  tn_vec2 a2 = {0, 0};
  mjtNum a1 = 0;
  for (int r = 0; r < nr; r++) {
    mjtNum s = vec[r];
    if (s != 0) {
      const mjtNum* row = mat + (size_t)r * nc;
      for (int k = 0; k < q; k++) {
        a[k] += *(const tn_vec4*)(row + c + 4 * k) * s;
      }
      if (has2) {
        a2 += *(const tn_vec2*)(row + c2) * s;
      }
      if (has1) {
        a1 += row[c1] * s;
      }
    }
  }
  for (int k = 0; k < q; k++) {
    *(tn_vec4*)(res + c + 4 * k) = a[k];
  }
  if (has2) {
    *(tn_vec2*)(res + c2) = a2;
  }
  if (has1) {
    res[c1] = a1;
  }
}

/* res[nc] = mat' * vec: rows of mat scaled by the entries of vec (zero entries skipped)
 * summed in row order from +0, for each column on its own. Up to 27 columns in one pass
 * over the rows (six blocks of four and three more), wider matrices in passes of 24
 * columns first: the columns' sums are independent chains of additions, and the more of
 * them one pass carries, the more of their latency overlaps */
TN_CLONE_AVX2
void mju_mulMatTVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc) {
  int c = 0;
  for (; nc - c > 27; c += 24) {
    mat_t_pass(res, mat, vec, nr, nc, c, 6, 0);
  }

  // the last 1-27 columns, with the block count a literal in each case (a loop over the
  // counts, even unrolled, left the sums on the stack: 2-3x slower)
  int rest = (nc - c) % 4;
  switch ((nc - c) / 4) {
    case 6:
      mat_t_pass(res, mat, vec, nr, nc, c, 6, rest);
      break;
    case 5:
      mat_t_pass(res, mat, vec, nr, nc, c, 5, rest);
      break;
    case 4:
      mat_t_pass(res, mat, vec, nr, nc, c, 4, rest);
      break;
    case 3:
      mat_t_pass(res, mat, vec, nr, nc, c, 3, rest);
      break;
    case 2:
      mat_t_pass(res, mat, vec, nr, nc, c, 2, rest);
      break;
    case 1:
      mat_t_pass(res, mat, vec, nr, nc, c, 1, rest);
      break;
    default:
      // fewer than four columns (none when nc is 0)
      mat_t_pass(res, mat, vec, nr, nc, c, 0, rest);
      break;
  }
}

/* vec1' * mat * vec2 */
mjtNum mju_mulVecMatVec(const mjtNum* vec1, const mjtNum* mat, const mjtNum* vec2, int n) {
  mjtNum res = 0;
  for (int r = 0; r < n; r++) {
    res += vec1[r] * mju_dot(mat + (size_t)r * n, vec2, n);
  }
  return res;
}

/* res (nc x nr) = mat' */
void mju_transpose(mjtNum* res, const mjtNum* mat, int nr, int nc) {
  for (int r = 0; r < nr; r++) {
    for (int c = 0; c < nc; c++) {
      res[(size_t)c * nr + r] = mat[(size_t)r * nc + c];
    }
  }
}

/* res (r1 x c2) = mat1 (r1 x c1) * mat2 (c1 x c2) */
void mju_mulMatMat(mjtNum* res, const mjtNum* mat1, const mjtNum* mat2, int r1, int c1,
                   int c2) {
  mju_zero(res, r1 * c2);

  // row i of res accumulates rows of mat2 scaled by row i of mat1
  for (int i = 0; i < r1; i++) {
    for (int k = 0; k < c1; k++) {
      mjtNum s = mat1[(size_t)i * c1 + k];
      if (s != 0) {
        mju_addToScl(res + (size_t)i * c2, mat2 + (size_t)k * c2, s, c2);
      }
    }
  }
}

/* res (r1 x r2) = mat1 (r1 x c1) * mat2' (mat2 is r2 x c1) */
void mju_mulMatMatT(mjtNum* res, const mjtNum* mat1, const mjtNum* mat2, int r1, int c1,
                    int r2) {
  for (int i = 0; i < r1; i++) {
    for (int j = 0; j < r2; j++) {
      res[(size_t)i * r2 + j] = mju_dot(mat1 + (size_t)i * c1, mat2 + (size_t)j * c1, c1);
    }
  }
}

/* res (c1 x c2) = mat1' * mat2 (mat1 is r1 x c1, mat2 is r1 x c2) */
TN_CLONE_AVX2
void mju_mulMatTMat(mjtNum* res, const mjtNum* mat1, const mjtNum* mat2, int r1, int c1,
                    int c2) {
  mju_zero(res, c1 * c2);

  // each row i contributes the outer product of its rows in mat1 and mat2
  for (int i = 0; i < r1; i++) {
    for (int j = 0; j < c1; j++) {
      mjtNum s = mat1[(size_t)i * c1 + j];
      if (s != 0) {
        mju_addToScl(res + (size_t)j * c2, mat2 + (size_t)i * c2, s, c2);
      }
    }
  }
}

/* in-place Cholesky L L' = mat in the lower triangle; a pivot below mindiag is clamped to
 * mindiag and its column below the diagonal is zeroed (the dof is decoupled, as MuJoCo
 * does); returns n minus the number of clamped pivots */
TN_CLONE_AVX2
int mju_cholFactor(mjtNum* mat, int n, mjtNum mindiag) {
  int rank = n;

  for (int j = 0; j < n; j++) {
    mjtNum* rowj = mat + (size_t)j * n;

    // pivot: A_jj minus the squared norm of row j of L so far
    mjtNum piv = rowj[j];
    if (j) {
      piv -= mju_dot(rowj, rowj, j);
    }

    // clamped pivot: decoupled column
    if (piv < mindiag) {
      rowj[j] = sqrt(mindiag);
      rank--;
      for (int i = j + 1; i < n; i++) {
        mat[(size_t)i * n + j] = 0;
      }
      continue;
    }
    rowj[j] = sqrt(piv);

    // column j below the diagonal, four rows at a time, then the last 0-3 one by one (each
    // dot summed as mju_dot sums)
    mjtNum inv = 1 / rowj[j];
    int i = j + 1;
    for (; i + 3 < n; i += 4) {
      mjtNum* row0 = mat + (size_t)i * n;
      mjtNum dot[4];
      tn__dotRows4(dot, row0, (size_t)n, rowj, j);
      for (int t = 0; t < 4; t++) {
        row0[(size_t)t * n + j] = (row0[(size_t)t * n + j] - dot[t]) * inv;
      }
    }
    for (; i < n; i++) {
      mjtNum* rowi = mat + (size_t)i * n;
      rowi[j] = (rowi[j] - mju_dot(rowi, rowj, j)) * inv;
    }
  }
  return rank;
}

/* solve (L L') res = vec with the factor from mju_cholFactor (res may alias vec) */
TN_CLONE_AVX2
void mju_cholSolve(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int n) {
  // forward substitution: L y = vec
  for (int i = 0; i < n; i++) {
    const mjtNum* rowi = mat + (size_t)i * n;
    mjtNum v = vec[i];
    if (i) {
      v -= tn__dotFresh(rowi, res, i);
    }
    res[i] = v / rowi[i];
  }

  // backward substitution: L' res = y (the solved entries read one by one, as in the
  // forward pass: the newest was stored just before)
  const volatile mjtNum* solved = res;
  for (int i = n - 1; i >= 0; i--) {
    mjtNum v = res[i];
    for (int j = i + 1; j < n; j++) {
      v -= mat[(size_t)j * n + i] * solved[j];
    }
    res[i] = v / mat[(size_t)i * n + i];
  }
}
