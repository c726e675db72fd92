/* clients/examples/ilqr/mat.c — the few dense matrix operations the backward pass needs
 * (products and a Cholesky solve on row-major arrays). The matrices are tiny (nx x nx with
 * nx = 2 nv + na), so plain loops are all that is wanted. */
#include <math.h>

#include "ilqr.h"

void mat_mul(double* C, const double* A, const double* B, int n, int m, int p, int add) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < p; j++) {
      double s = add ? C[i * p + j] : 0;
      for (int k = 0; k < m; k++) {
        s += A[i * m + k] * B[k * p + j];
      }
      C[i * p + j] = s;
    }
  }
}

void mat_mulT(double* C, const double* A, const double* B, int m, int n, int p, int add) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < p; j++) {
      double s = add ? C[i * p + j] : 0;
      for (int k = 0; k < m; k++) {
        s += A[k * n + i] * B[k * p + j];
      }
      C[i * p + j] = s;
    }
  }
}

int mat_cholesky(double* A, int n) {
  for (int j = 0; j < n; j++) {
    // diagonal: what is left of A_jj after the previous columns
    double d = A[j * n + j];
    for (int k = 0; k < j; k++) {
      d -= A[j * n + k] * A[j * n + k];
    }
    if (!(d > 0)) {
      return -1;
    }
    d = sqrt(d);
    A[j * n + j] = d;

    // column below the diagonal
    for (int i = j + 1; i < n; i++) {
      double s = A[i * n + j];
      for (int k = 0; k < j; k++) {
        s -= A[i * n + k] * A[j * n + k];
      }
      A[i * n + j] = s / d;
    }
  }
  return 0;
}

void mat_cholsolve(const double* L, double* b, int n) {
  // forward substitution: L y = b
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int k = 0; k < i; k++) {
      s -= L[i * n + k] * b[k];
    }
    b[i] = s / L[i * n + i];
  }

  // back substitution: L' x = y
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int k = i + 1; k < n; k++) {
      s -= L[k * n + i] * b[k];
    }
    b[i] = s / L[i * n + i];
  }
}
