/* util/math_mat_sym.c — square and symmetric dense matrices: identity, symmetrization,
 * mat' * diag * mat, and the rank-one update of a dense Cholesky factor.
 *
 * Matrices are row-major. The Cholesky factor is the lower triangle written by
 * mju_cholFactor (math_mat.c); the update keeps that layout. */
#include <math.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* mat (n x n) = identity */
void mju_eye(mjtNum* mat, int n) {
  mju_zero(mat, n * n);
  for (int i = 0; i < n; i++) {
    mat[(size_t)i * (n + 1)] = 1;
  }
}

/* res = (mat + mat') / 2 for a square n x n matrix (res may alias mat) */
void mju_symmetrize(mjtNum* res, const mjtNum* mat, int n) {
  for (int i = 0; i < n; i++) {
    res[(size_t)i * (n + 1)] = mat[(size_t)i * (n + 1)];
    for (int j = 0; j < i; j++) {
      mjtNum avg = 0.5 * (mat[(size_t)i * n + j] + mat[(size_t)j * n + i]);
      res[(size_t)i * n + j] = avg;
      res[(size_t)j * n + i] = avg;
    }
  }
}

/* res (nc x nc) = mat' * diag(diag) * mat, or mat' * mat when diag is NULL (mat is
 * nr x nc); the lower triangle is accumulated row by row of mat, then mirrored */
void mju_sqrMatTD(mjtNum* res, const mjtNum* mat, const mjtNum* diag, int nr, int nc) {
  mju_zero(res, nc * nc);

  // weighted: each row r of mat adds diag[r] * row' * row
  if (diag) {
    for (int r = 0; r < nr; r++) {
      if (diag[r] == 0) {
        continue;
      }
      const mjtNum* row = mat + (size_t)r * nc;
      for (int i = 0; i < nc; i++) {
        if (row[i] != 0) {
          mju_addToScl(res + (size_t)i * nc, row, row[i] * diag[r], i + 1);
        }
      }
    }
  }

  // unweighted: row i of the result sums over the rows of mat
  else {
    for (int i = 0; i < nc; i++) {
      for (int r = 0; r < nr; r++) {
        const mjtNum* row = mat + (size_t)r * nc;
        if (row[i] != 0) {
          mju_addToScl(res + (size_t)i * nc, row, row[i], i + 1);
        }
      }
    }
  }

  // upper triangle from the lower one
  for (int i = 0; i < nc; i++) {
    for (int j = i + 1; j < nc; j++) {
      res[(size_t)i * nc + j] = res[(size_t)j * nc + i];
    }
  }
}

/* rank-one update of the Cholesky factor in the lower triangle of mat: afterwards
 * L L' = (old L L') + x x' (flg_plus) or - x x'. x is overwritten (scratch). A pivot that
 * would fall below mjMINVAL is clamped there; returns n minus the clamped pivots */
int mju_cholUpdate(mjtNum* mat, mjtNum* x, int n, int flg_plus) {
  int rank = n;
  for (int k = 0; k < n; k++) {
    if (x[k] == 0) {
      continue;
    }

    // new diagonal and the rotation (c, s) it implies
    mjtNum lkk = mat[(size_t)k * (n + 1)];
    mjtNum piv = lkk * lkk + (flg_plus ? x[k] * x[k] : -x[k] * x[k]);
    if (piv < mjMINVAL) {
      piv = mjMINVAL;
      rank--;
    }
    mjtNum r = sqrt(piv);
    mjtNum c = r / lkk;
    mjtNum cinv = 1 / c;
    mjtNum s = x[k] / lkk;
    mat[(size_t)k * (n + 1)] = r;

    // column k below the diagonal
    for (int i = k + 1; i < n; i++) {
      mjtNum* lik = mat + (size_t)i * n + k;
      *lik = (flg_plus ? *lik + s * x[i] : *lik - s * x[i]) * cinv;
    }

    // remaining part of x
    for (int i = k + 1; i < n; i++) {
      x[i] = c * x[i] - s * mat[(size_t)i * n + k];
    }
  }
  return rank;
}
