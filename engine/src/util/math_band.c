/* util/math_band.c — band-dense symmetric matrices: Cholesky factor and solve, conversion
 * to and from dense, products, and the address of a diagonal entry.
 *
 * Storage (MuJoCo's): of ntotal rows, the first nsparse = ntotal - ndense are band rows,
 * each nband numbers holding the entries left of the diagonal and the diagonal itself (the
 * diagonal last, so entry (i, j) of band row i sits at (i+1)*nband - 1 - (i-j)); the last
 * ndense rows follow as full rows of ntotal numbers (entries right of the diagonal unused).
 * Only the lower triangle is stored; the matrix is symmetric. */
#include <math.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* smaller of two ints */
static int imin(int a, int b) {
  return a < b ? a : b;
}

/* address of entry (i, j), j <= i, j inside row i's stored range */
static int band_adr(int i, int j, int nsparse, int nband, int ntotal) {
  if (i < nsparse) {
    return (i + 1) * nband - 1 - (i - j);
  }
  return nsparse * nband + (i - nsparse) * ntotal + j;
}

/* address of diagonal entry i */
int mju_bandDiag(int i, int ntotal, int nband, int ndense) {
  int nsparse = ntotal - ndense;
  return band_adr(i, i, nsparse, nband, ntotal);
}

/* in-place Cholesky L L' = mat + diag(diagadd + diagmul * mat_ii) in band-dense storage;
 * returns the smallest pivot before its square root, or 0 (factor abandoned) as soon as a
 * pivot falls below mjMINVAL */
mjtNum mju_cholFactorBand(mjtNum* mat, int ntotal, int nband, int ndense, mjtNum diagadd,
                          mjtNum diagmul) {
  int nsparse = ntotal - ndense;
  mjtNum mindiag = -1;

  // band columns: rows below in the band, then the dense rows
  for (int j = 0; j < nsparse; j++) {
    int left = imin(j, nband - 1);
    int below = imin(nsparse - 1 - j, nband - 1);
    int jj = (j + 1) * nband - 1;

    // pivot
    mjtNum sum = left > 0 ? mju_dot(mat + jj - left, mat + jj - left, left) : 0;
    mjtNum piv = diagadd + diagmul * mat[jj] + mat[jj] - sum;
    if (piv < mindiag || mindiag < 0) {
      mindiag = piv;
    }
    if (piv < mjMINVAL) {
      return 0;
    }
    mjtNum ljj = sqrt(piv);
    mjtNum inv = 1 / ljj;

    // band rows i in (j, j+below]: the common columns left of j
    for (int i = j + 1; i <= j + below; i++) {
      int common = imin(j, nband - 1 - (i - j));
      int ij = (i + 1) * nband - 1 - (i - j);
      mjtNum s = common > 0 ? mju_dot(mat + jj - common, mat + ij - common, common) : 0;
      mat[ij] = inv * (mat[ij] - s);
    }

    // dense rows: the columns of row j left of the diagonal
    for (int i = nsparse; i < ntotal; i++) {
      int ij = nsparse * nband + (i - nsparse) * ntotal + j;
      mjtNum s = left > 0 ? mju_dot(mat + jj - left, mat + ij - left, left) : 0;
      mat[ij] = inv * (mat[ij] - s);
    }
    mat[jj] = ljj;
  }

  // dense columns
  for (int j = nsparse; j < ntotal; j++) {
    int jj = nsparse * nband + (j - nsparse) * ntotal + j;
    mjtNum piv = diagadd + diagmul * mat[jj] + mat[jj] - mju_dot(mat + jj - j, mat + jj - j, j);
    if (piv < mindiag || mindiag < 0) {
      mindiag = piv;
    }
    if (piv < mjMINVAL) {
      return 0;
    }
    mjtNum ljj = sqrt(piv);
    mjtNum inv = 1 / ljj;

    // rows below: full dense rows
    for (int i = j + 1; i < ntotal; i++) {
      int ij = jj + ntotal * (i - j);
      mat[ij] = inv * (mat[ij] - mju_dot(mat + jj - j, mat + ij - j, j));
    }
    mat[jj] = ljj;
  }
  return mindiag;
}

/* solve (L L') res = vec with the factor of mju_cholFactorBand (res may alias vec) */
void mju_cholSolveBand(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int ntotal, int nband,
                       int ndense) {
  int nsparse = ntotal - ndense;
  const mjtNum* dense = mat + (size_t)nsparse * nband;
  if (res != vec) {
    mju_copy(res, vec, ntotal);
  }

  // forward substitution, band rows
  for (int i = 0; i < nsparse; i++) {
    int left = imin(i, nband - 1);
    int ii = (i + 1) * nband - 1;
    if (left) {
      res[i] -= mju_dot(mat + ii - left, res + i - left, left);
    }
    res[i] /= mat[ii];
  }

  // forward substitution, dense rows
  for (int i = nsparse; i < ntotal; i++) {
    const mjtNum* row = dense + (size_t)(i - nsparse) * ntotal;
    res[i] -= mju_dot(row, res, i);
    res[i] /= row[i];
  }

  // backward substitution, dense rows
  for (int i = ntotal - 1; i >= nsparse; i--) {
    for (int j = i + 1; j < ntotal; j++) {
      res[i] -= dense[(size_t)(j - nsparse) * ntotal + i] * res[j];
    }
    res[i] /= dense[(size_t)(i - nsparse) * ntotal + i];
  }

  // backward substitution, band rows: band rows below, then the dense rows
  for (int i = nsparse - 1; i >= 0; i--) {
    int below = imin(nsparse - 1 - i, nband - 1);
    for (int j = i + 1; j <= i + below; j++) {
      res[i] -= mat[(j + 1) * nband - 1 - (j - i)] * res[j];
    }
    for (int j = nsparse; j < ntotal; j++) {
      res[i] -= dense[(size_t)(j - nsparse) * ntotal + i] * res[j];
    }
    res[i] /= mat[(i + 1) * nband - 1];
  }
}

/* dense ntotal x ntotal matrix from band-dense storage; the upper triangle is zero, or the
 * mirror of the lower one when flg_sym */
void mju_band2Dense(mjtNum* res, const mjtNum* mat, int ntotal, int nband, int ndense,
                    mjtBool flg_sym) {
  int nsparse = ntotal - ndense;
  mju_zero(res, ntotal * ntotal);

  // band rows, then dense rows (lower triangle with the diagonal)
  for (int i = 0; i < nsparse; i++) {
    int left = imin(i, nband - 1);
    mju_copy(res + (size_t)i * ntotal + i - left, mat + (i + 1) * nband - 1 - left, left + 1);
  }
  for (int i = nsparse; i < ntotal; i++) {
    mju_copy(res + (size_t)i * ntotal, mat + nsparse * nband + (size_t)(i - nsparse) * ntotal,
             i + 1);
  }

  // mirror
  if (flg_sym) {
    for (int i = 0; i < ntotal; i++) {
      for (int j = i + 1; j < ntotal; j++) {
        res[(size_t)i * ntotal + j] = res[(size_t)j * ntotal + i];
      }
    }
  }
}

/* band-dense storage from the lower triangle of a dense ntotal x ntotal matrix (unused
 * slots set to zero) */
void mju_dense2Band(mjtNum* res, const mjtNum* mat, int ntotal, int nband, int ndense) {
  int nsparse = ntotal - ndense;
  mju_zero(res, nsparse * nband + ndense * ntotal);
  for (int i = 0; i < nsparse; i++) {
    int left = imin(i, nband - 1);
    mju_copy(res + (i + 1) * nband - 1 - left, mat + (size_t)i * ntotal + i - left, left + 1);
  }
  for (int i = nsparse; i < ntotal; i++) {
    mju_copy(res + nsparse * nband + (size_t)(i - nsparse) * ntotal, mat + (size_t)i * ntotal,
             i + 1);
  }
}

/* res = mat * vec for nvec vectors of length ntotal (consecutive); the stored lower
 * triangle only, or the whole symmetric matrix when flg_sym */
void mju_bandMulMatVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int ntotal, int nband,
                       int ndense, int nvec, mjtBool flg_sym) {
  int nsparse = ntotal - ndense;
  for (int k = 0; k < nvec; k++) {
    const mjtNum* v = vec + (size_t)k * ntotal;
    mjtNum* r = res + (size_t)k * ntotal;

    // band rows: row i's stored part, and (symmetric) its mirror into earlier entries
    for (int i = 0; i < nsparse; i++) {
      int width = imin(i + 1, nband);
      const mjtNum* row = mat + (size_t)i * nband + nband - width;
      int first = i + 1 - width;
      r[i] = mju_dot(row, v + first, width);
      if (flg_sym) {
        mju_addToScl(r + first, row, v[i], width - 1);
      }
    }

    // dense rows
    for (int i = nsparse; i < ntotal; i++) {
      const mjtNum* row = mat + nsparse * nband + (size_t)(i - nsparse) * ntotal;
      r[i] = mju_dot(row, v, i + 1);
      if (flg_sym) {
        mju_addToScl(r, row, v[i], i);
      }
    }
  }
}
