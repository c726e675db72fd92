/* clients/examples/ilqr/boxqp.c — the control-limited step of the backward pass: a small
 * box-constrained quadratic program min 0.5 x'Hx + g'x, lo <= x <= hi, solved by projected
 * Newton (the method of Bertsekas used by Tassa, Mansard and Todorov's control-limited DDP):
 * fix the components whose bound is active and whose gradient pushes outward, take a Newton
 * step on the others, project it onto the box with a backtracking (Armijo) search, repeat
 * until the free gradient vanishes or no step decreases the value. The free set's Cholesky
 * factor is returned for the feedback gains, which are zero along the clamped controls. */
#include <math.h>
#include <string.h>

#include "ilqr.h"

#define BOXQP_MAXITER 50
#define BOXQP_ARMIJO 0.1
#define BOXQP_MINSTEP 1e-12
#define BOXQP_TOL 1e-12

/* 0.5 x'Hx + g'x */
static double qp_value(int n, const double* H, const double* g, const double* x) {
  double v = 0;
  for (int i = 0; i < n; i++) {
    double hx = 0;
    for (int j = 0; j < n; j++) {
      hx += H[i * n + j] * x[j];
    }
    v += x[i] * (0.5 * hx + g[i]);
  }
  return v;
}

/* grad = H x + g */
static void qp_grad(int n, const double* H, const double* g, const double* x, double* grad) {
  for (int i = 0; i < n; i++) {
    grad[i] = g[i];
    for (int j = 0; j < n; j++) {
      grad[i] += H[i * n + j] * x[j];
    }
  }
}

/* isfree[i] = 0 where x sits on a bound and the gradient points out of the box; returns the
 * number of free components */
static int qp_free_set(int n, const double* x, const double* grad, const double* lo,
                       const double* hi, unsigned char* isfree) {
  int nfree = 0;
  for (int i = 0; i < n; i++) {
    int clamped = (x[i] <= lo[i] && grad[i] > 0) || (x[i] >= hi[i] && grad[i] < 0);
    isfree[i] = !clamped;
    nfree += isfree[i];
  }
  return nfree;
}

/* the free rows and columns of H, Cholesky-factored into Hff; -1 if not positive */
static int qp_factor_free(int n, const double* H, const unsigned char* isfree, int nfree,
                          double* Hff) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    if (!isfree[i]) {
      continue;
    }
    int c = 0;
    for (int j = 0; j < n; j++) {
      if (isfree[j]) {
        Hff[r * nfree + c++] = H[i * n + j];
      }
    }
    r++;
  }
  return mat_cholesky(Hff, nfree);
}

/* Newton direction on the free set (zero on the clamped set); returns |grad_free|^2 */
static double qp_direction(int n, const unsigned char* isfree, int nfree, const double* Hff,
                           const double* grad, double* dx) {
  double gf[ILQR_MAXQ], gnorm = 0;
  int r = 0;
  for (int i = 0; i < n; i++) {
    if (isfree[i]) {
      gf[r] = -grad[i];
      gnorm += grad[i] * grad[i];
      r++;
    }
  }
  mat_cholsolve(Hff, gf, nfree);
  r = 0;
  for (int i = 0; i < n; i++) {
    dx[i] = isfree[i] ? gf[r++] : 0;
  }
  return gnorm;
}

/* projected backtracking search along dx; returns 1 and moves x when the value decreases */
static int qp_search(int n, const double* H, const double* g, const double* lo, const double* hi,
                     const double* grad, const double* dx, double* x) {
  double f0 = qp_value(n, H, g, x), xn[ILQR_MAXQ];
  for (double step = 1; step > BOXQP_MINSTEP; step *= 0.5) {
    double lin = 0;
    for (int i = 0; i < n; i++) {
      xn[i] = fmin(hi[i], fmax(lo[i], x[i] + step * dx[i]));
      lin += grad[i] * (xn[i] - x[i]);
    }
    if (qp_value(n, H, g, xn) - f0 <= BOXQP_ARMIJO * lin) {
      memcpy(x, xn, sizeof(double) * n);
      return 1;
    }
  }
  return 0;
}

int ilqr_boxqp(int n, const double* H, const double* g, const double* lo, const double* hi,
               double* x, unsigned char* isfree, double* Hff) {
  double grad[ILQR_MAXQ], dx[ILQR_MAXQ];
  int nfree = 0;

  // start inside the box
  for (int i = 0; i < n; i++) {
    x[i] = fmin(hi[i], fmax(lo[i], x[i]));
  }

  // projected Newton iterations
  for (int iter = 0; iter < BOXQP_MAXITER; iter++) {
    qp_grad(n, H, g, x, grad);
    nfree = qp_free_set(n, x, grad, lo, hi, isfree);
    if (!nfree) {
      break;
    }
    if (qp_factor_free(n, H, isfree, nfree, Hff)) {
      return -1;
    }
    if (qp_direction(n, isfree, nfree, Hff, grad, dx) < BOXQP_TOL) {
      break;
    }
    if (!qp_search(n, H, g, lo, hi, grad, dx, x)) {
      break;
    }
  }

  // the final free set and its factor
  qp_grad(n, H, g, x, grad);
  nfree = qp_free_set(n, x, grad, lo, hi, isfree);
  if (nfree && qp_factor_free(n, H, isfree, nfree, Hff)) {
    return -1;
  }
  return nfree;
}
