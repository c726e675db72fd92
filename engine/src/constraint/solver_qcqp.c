/* constraint/solver_qcqp.c — the small quadratically constrained quadratic program solved
 * for a contact's friction forces by the dual solvers:
 *   min 0.5 x'Ax + x'b  subject to  sum (x_i / d_i)^2 <= r^2.
 * Scaling x = D y makes the constraint a ball |y| <= r; the minimizer is
 * y(la) = -(A' + la I)^-1 b' for the smallest la >= 0 with |y(la)| <= r, found by Newton's
 * method on |y(la)|^2 - r^2 (at most 20 steps). */
#include "constraint/constraint.h"

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

/* n unknowns: Cholesky of A + la I */
static int qcqp_n(mjtNum* res, const mjtNum* Ain, const mjtNum* bin, const mjtNum* d, mjtNum r,
                  int n) {
  mjtNum A[25], Ala[25], b[5], tmp[5], la = 0;

  // scale so the constraint is a ball
  for (int i = 0; i < n; i++) {
    b[i] = bin[i] * d[i];
    for (int j = 0; j < n; j++) {
      A[i * n + j] = Ain[i * n + j] * d[i] * d[j];
    }
  }

  for (int iter = 0; iter < 20; iter++) {
    // factor A + la, guarding against rank loss
    mju_copy(Ala, A, n * n);
    for (int i = 0; i < n; i++) {
      Ala[i * (n + 1)] += la;
    }
    if (mju_cholFactor(Ala, n, 1e-10) < n) {
      mju_zero(res, n);
      return 0;
    }

    // candidate and its violation
    mju_cholSolve(res, Ala, b, n);
    mju_scl(res, res, -1, n);
    mjtNum val = mju_dot(res, res, n) - r * r;
    if (val < 1e-10) {
      break;
    }

    // Newton step on la: derivative -2 res' (A+la)^-1 res
    mju_cholSolve(tmp, Ala, res, n);
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

/* dispatch on size */
int tn__QCQP(mjtNum* res, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r, int n) {
  return n == 2 ? qcqp2(res, A, b, d, r) : qcqp_n(res, A, b, d, r, n);
}
