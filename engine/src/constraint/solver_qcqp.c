/* constraint/solver_qcqp.c — the small quadratically constrained quadratic program solved
 * for a contact's friction forces by the dual solvers:
 *   min 0.5 x'Ax + x'b  subject to  sum (x_i / d_i)^2 <= r^2.
 * Scaling x = D y makes the constraint a ball |y| <= r; the minimizer is
 * y(la) = -(A' + la I)^-1 b' for the smallest la >= 0 with |y(la)| <= r, found by Newton's
 * method on |y(la)|^2 - r^2 (at most 20 steps). */
#include <math.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* two unknowns: explicit 2x2 inverse */
static int qcqp2(mjtNum* res, const mjtNum* Ain, const mjtNum* bin, const mjtNum* d,
                 mjtNum r) {
  // scale so the constraint is a ball
  mjtNum b1 = bin[0] * d[0], b2 = bin[1] * d[1];
  mjtNum A11 = Ain[0] * d[0] * d[0], A22 = Ain[3] * d[1] * d[1], A12 = Ain[1] * d[0] * d[1];
  mjtNum la = 0, v1 = 0, v2 = 0;

  for (int iter = 0; iter < 20; iter++) {
    // (A + la)^-1, guarding against a singular matrix
    mjtNum det = (A11 + la) * (A22 + la) - A12 * A12;
    if (det < 1e-10) {
      res[0] = res[1] = 0;
      return 0;
    }
    mjtNum detinv = 1 / det;
    mjtNum P11 = (A22 + la) * detinv, P22 = (A11 + la) * detinv, P12 = -A12 * detinv;

    // candidate and its violation
    v1 = -P11 * b1 - P12 * b2;
    v2 = -P12 * b1 - P22 * b2;
    mjtNum val = v1 * v1 + v2 * v2 - r * r;
    if (val < 1e-10) {
      break;
    }

    // Newton step on la
    mjtNum deriv = -2.0 * (P11 * v1 * v1 + 2.0 * P12 * v1 * v2 + P22 * v2 * v2);
    mjtNum delta = -val / deriv;
    if (delta < 1e-10) {
      break;
    }
    la += delta;
  }

  // undo the scaling
  res[0] = v1 * d[0];
  res[1] = v2 * d[1];
  return la != 0;
}

/* a . b over len <= 4 entries, rounded as mju_dot rounds them (a block of four as lane
 * pairs (0+2) + (1+3), shorter ones summed apart from their first product and added to
 * zero) */
static inline mjtNum dot_short(const mjtNum* a, const mjtNum* b, int len) {
  if (len == 4) {
    mjtNum s02 = a[0] * b[0] + a[2] * b[2], s13 = a[1] * b[1] + a[3] * b[3];
    return s02 + s13;
  }
  if (len == 0) {
    return 0;
  }
  mjtNum tail = a[0] * b[0];
  for (int i = 1; i < len; i++) {
    tail += a[i] * b[i];
  }
  return 0 + tail;
}

/* in-place Cholesky of a small n x n matrix (n <= 5): mju_cholFactor's operations in its
 * order, unrolled for the QCQP's sizes; returns the rank (clamped pivots uncounted) */
static inline int chol_small(mjtNum* mat, int n, mjtNum mindiag) {
  int rank = n;
  for (int j = 0; j < n; j++) {
    mjtNum* rowj = mat + j * n;

    // pivot; a clamped one decouples its column
    mjtNum piv = rowj[j];
    if (j) {
      piv -= dot_short(rowj, rowj, j);
    }
    if (piv < mindiag) {
      rowj[j] = sqrt(mindiag);
      rank--;
      for (int i = j + 1; i < n; i++) {
        mat[i * n + j] = 0;
      }
      continue;
    }
    rowj[j] = sqrt(piv);

    // column j below the diagonal
    mjtNum inv = 1 / rowj[j];
    for (int i = j + 1; i < n; i++) {
      mjtNum* rowi = mat + i * n;
      rowi[j] = (rowi[j] - dot_short(rowi, rowj, j)) * inv;
    }
  }
  return rank;
}

/* solve (L L') res = vec with chol_small's factor: mju_cholSolve's operations in its order */
static inline void chol_solve_small(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    mjtNum v = vec[i];
    if (i) {
      v -= dot_short(mat + i * n, res, i);
    }
    res[i] = v / mat[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    mjtNum v = res[i];
    for (int j = i + 1; j < n; j++) {
      v -= mat[j * n + i] * res[j];
    }
    res[i] = v / mat[i * n + i];
  }
}

/* n unknowns (n <= 5): Cholesky of A + la I; always inlined so each size's loops unroll */
static inline __attribute__((always_inline)) int qcqp_n(mjtNum* res, const mjtNum* Ain,
                                                        const mjtNum* bin, const mjtNum* d,
                                                        mjtNum r, int n) {
  // tmp has room for 8: mju_dot's blocks of four never run for n <= 5, but GCC's
  // -Warray-bounds (-O2, sanitizer builds) cannot tell
  mjtNum A[25], Ala[25], b[5], tmp[8], la = 0;

  // scale so the constraint is a ball
  for (int i = 0; i < n; i++) {
    b[i] = bin[i] * d[i];
    for (int j = 0; j < n; j++) {
      A[i * n + j] = Ain[i * n + j] * d[i] * d[j];
    }
  }

  for (int iter = 0; iter < 20; iter++) {
    // factor A + la, guarding against rank loss
    for (int i = 0; i < n * n; i++) {
      Ala[i] = A[i];
    }
    for (int i = 0; i < n; i++) {
      Ala[i * (n + 1)] += la;
    }
    if (chol_small(Ala, n, 1e-10) < n) {
      for (int i = 0; i < n; i++) {
        res[i] = 0;
      }
      return 0;
    }

    // candidate and its violation
    chol_solve_small(res, Ala, b, n);
    for (int i = 0; i < n; i++) {
      res[i] = res[i] * -1;
    }
    mjtNum val = mju_dot(res, res, n) - r * r;
    if (val < 1e-10) {
      break;
    }

    // Newton step on la: derivative -2 res' (A+la)^-1 res
    chol_solve_small(tmp, Ala, res, n);
    mjtNum deriv = -2.0 * mju_dot(res, tmp, n);
    mjtNum delta = -val / deriv;
    if (delta < 1e-10) {
      break;
    }
    la += delta;
  }

  // undo the scaling
  for (int i = 0; i < n; i++) {
    res[i] *= d[i];
  }
  return la != 0;
}

/* the sizes of contact friction beyond 2: 3 (condim 4) and 5 (condim 6), each unrolled */
static int qcqp3(mjtNum* res, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r) {
  return qcqp_n(res, A, b, d, r, 3);
}
static int qcqp5(mjtNum* res, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r) {
  return qcqp_n(res, A, b, d, r, 5);
}

/* dispatch on size */
int tn__QCQP(mjtNum* res, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r, int n) {
  switch (n) {
    case 2: return qcqp2(res, A, b, d, r);
    case 3: return qcqp3(res, A, b, d, r);
    case 5: return qcqp5(res, A, b, d, r);
    default: return qcqp_n(res, A, b, d, r, n);
  }
}
