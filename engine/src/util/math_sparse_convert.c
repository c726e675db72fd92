/* util/math_sparse_convert.c — conversions between dense row-major matrices and MuJoCo's
 * compressed sparse rows (CSR: rownnz, rowadr, colind, values), and printing of both.
 *
 * A CSR matrix stores row r's nonzeros at values[rowadr[r] .. rowadr[r]+rownnz[r]) with
 * their columns in colind at the same addresses, columns increasing. */
#include <stdio.h>

#include <torsion/torsion.h>

/* CSR of a dense nr x nc matrix, keeping the entries that are not exactly zero; res and
 * colind hold nnz entries. Returns 1 (output incomplete) when nnz is too small, else 0 */
int mju_dense2sparse(mjtNum* res, const mjtNum* mat, int nr, int nc, int* rownnz, int* rowadr,
                     int* colind, int nnz) {
  if (nnz <= 0) {
    return 1;
  }
  int adr = 0;
  for (int r = 0; r < nr; r++) {
    rownnz[r] = 0;
    rowadr[r] = adr;
    for (int c = 0; c < nc; c++) {
      mjtNum v = mat[(size_t)r * nc + c];
      if (v == 0) {
        continue;
      }
      if (adr >= nnz) {
        return 1;
      }
      colind[adr] = c;
      res[adr++] = v;
      rownnz[r]++;
    }
  }
  return 0;
}

/* dense nr x nc matrix of a CSR matrix */
void mju_sparse2dense(mjtNum* res, const mjtNum* mat, int nr, int nc, const int* rownnz,
                      const int* rowadr, const int* colind) {
  mju_zero(res, nr * nc);
  for (int r = 0; r < nr; r++) {
    for (int k = rowadr[r]; k < rowadr[r] + rownnz[r]; k++) {
      res[(size_t)r * nc + colind[k]] = mat[k];
    }
  }
}

/* dense symmetric n x n matrix of a CSR matrix that holds its lower triangle */
void mju_sym2dense(mjtNum* res, const mjtNum* mat, int n, const int* rownnz, const int* rowadr,
                   const int* colind) {
  mju_zero(res, n * n);
  for (int r = 0; r < n; r++) {
    for (int k = rowadr[r]; k < rowadr[r] + rownnz[r]; k++) {
      res[(size_t)r * n + colind[k]] = mat[k];
      res[(size_t)colind[k] * n + r] = mat[k];
    }
  }
}

/* print a dense nr x nc matrix to stdout, one row per line, then an empty line */
void mju_printMat(const mjtNum* mat, int nr, int nc) {
  for (int r = 0; r < nr; r++) {
    for (int c = 0; c < nc; c++) {
      printf("%.8f ", mat[(size_t)r * nc + c]);
    }
    printf("\n");
  }
  printf("\n");
}

/* print a CSR matrix to stdout as "(row col): value" entries, one row per line, then an
 * empty line */
void mju_printMatSparse(const mjtNum* mat, int nr, const int* rownnz, const int* rowadr,
                        const int* colind) {
  for (int r = 0; r < nr; r++) {
    for (int k = rowadr[r]; k < rowadr[r] + rownnz[r]; k++) {
      printf("(%d %d): %9.6f  ", r, colind[k], mat[k]);
    }
    printf("\n");
  }
  printf("\n");
}
