/* util/math_boxqp.c — MuJoCo's box-constrained quadratic program (mju_boxQP):
 *   minimize 0.5 x'Hx + x'g  subject to  lower <= x <= upper,
 * by projected Newton: each iteration clamps the dimensions sitting on a bound with the
 * gradient pushing outward, solves the Newton step on the free subspace with a Cholesky
 * factor (refactored only when the clamped set changes) and runs a projected Armijo line
 * search. Only the lower triangle of H is read.
 *
 * R (allocated n*(n+7)) receives the Cholesky factor of the free block (nfree x nfree) and
 * holds the solver's scratch vectors after it; index (optional) receives the free
 * dimensions. Returns nfree, or -1 when the free Hessian is not positive definite or no
 * descent direction was found. Options are MuJoCo's defaults. */
#include <stdlib.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* mju_malloc belongs to the user-memory layer; when it is linked in, boxQPmalloc uses it
 * so that mju_free releases the arrays, otherwise plain malloc (which mju_free's default
 * also releases) */
extern void* mju_malloc(size_t size) __attribute__((weak));

/* solver outcome (MuJoCo's order) */
enum {
  BOXQP_NOT_SPD = -1,  // free Hessian not positive definite
  BOXQP_NO_DESCENT,    // search direction not a descent direction
  BOXQP_MAX_ITER,      // iteration limit
  BOXQP_MAX_LS_ITER,   // line search step below the minimum
  BOXQP_TOL_GRAD,      // free gradient below tolerance
  BOXQP_UNBOUNDED,     // nothing clamped: the Newton point
  BOXQP_ALL_CLAMPED    // every dimension clamped
};

/* algorithm options (MuJoCo's defaults) */
static const int kMaxIter = 100;       // main iterations
static const mjtNum kMinGrad = 1e-16;  // squared norm of the free gradient
static const mjtNum kBacktrack = 0.5;  // step factor of the line search
static const mjtNum kMinStep = 1e-22;  // smallest line-search step
static const mjtNum kArmijo = 0.1;     // fraction of the expected linear improvement

/* vec' * H * vec with H symmetric, from its lower triangle */
static mjtNum quad_sym(const mjtNum* vec, const mjtNum* H, int n) {
  mjtNum res = 0;
  for (int i = 0; i < n; i++) {
    res += vec[i] * H[(size_t)n * i + i] * vec[i];
    res += 2 * vec[i] * mju_dot(H + (size_t)n * i, vec, i);
  }
  return res;
}

/* res = H * vec with H symmetric, from its lower triangle (res must not alias vec) */
static void mul_sym(mjtNum* res, const mjtNum* H, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    const mjtNum* row = H + (size_t)n * i;
    res[i] = row[i] * vec[i] + mju_dot(row, vec, i);
    mju_addToScl(res, row, vec[i], i);
  }
}

/* objective 0.5 x'Hx + x'g */
static mjtNum objective(const mjtNum* x, const mjtNum* H, const mjtNum* g, int n) {
  return 0.5 * quad_sym(x, H, n) + mju_dot(x, g, n);
}

int mju_boxQP(mjtNum* res, mjtNum* R, int* index, const mjtNum* H, const mjtNum* g, int n,
              const mjtNum* lower, const mjtNum* upper) {
  // argument checks
  if (n <= 0) {
    mju_error("mju_boxQPoption: problem size n must be positive");
    return -1;
  }
  if (lower && upper) {
    for (int i = 0; i < n; i++) {
      if (lower[i] >= upper[i]) {
        mju_error("mju_boxQPoption: upper bounds must be stricly larger than lower bounds");
        return -1;
      }
    }
  }

  // scratch after the factor in R
  mjtNum* grad = R + (size_t)n * n;
  mjtNum* search = grad + n;
  mjtNum* candidate = search + n;
  mjtNum* temp = candidate + n;
  int* clamped = (int*)(temp + n);
  int* oldclamped = (int*)(temp + 2 * n);
  if (!index) {
    index = (int*)(temp + 3 * n);
  }

  int status = BOXQP_NO_DESCENT;
  int nfree = n;

  // no bounds: the Newton point
  if (!lower && !upper) {
    mju_copy(R, H, n * n);
    if (mju_cholFactor(R, n, mjMINVAL) == n) {
      mju_cholSolve(res, R, g, n);
      mju_scl(res, res, -1, n);
      status = BOXQP_UNBOUNDED;
    } else {
      status = BOXQP_NOT_SPD;
    }
    for (int i = 0; i < n; i++) {
      index[i] = i;
    }
  }

  // bounds: project the warm start
  else {
    for (int i = 0; i < n; i++) {
      if (lower) {
        res[i] = mju_max(res[i], lower[i]);
      }
      if (upper) {
        res[i] = mju_min(res[i], upper[i]);
      }
    }
  }

  // main loop
  int iter;
  for (iter = 0; iter < kMaxIter; iter++) {
    if (status != BOXQP_NO_DESCENT) {
      break;
    }
    mjtNum value = objective(res, H, g, n);
    mjtNum oldvalue = value;

    // gradient
    mul_sym(grad, H, res, n);
    mju_addTo(grad, g, n);

    // clamped dimensions: on a bound with the gradient pointing outward
    nfree = 0;
    for (int i = 0; i < n; i++) {
      clamped[i] = (lower && res[i] == lower[i] && grad[i] > 0) ||
                   (upper && res[i] == upper[i] && grad[i] < 0);
      if (!clamped[i]) {
        index[nfree++] = i;
      }
    }
    if (!nfree) {
      status = BOXQP_ALL_CLAMPED;
      break;
    }

    // refactor on the first iteration and when the clamped set changed
    int factorize = 1;
    if (iter) {
      factorize = 0;
      for (int i = 0; i < n; i++) {
        if (clamped[i] != oldclamped[i]) {
          factorize = 1;
          break;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      oldclamped[i] = clamped[i];
    }

    // right-hand side g + H[:, clamped] x_clamped, restricted to the free dimensions
    for (int i = 0; i < n; i++) {
      temp[i] = clamped[i] ? res[i] : 0;
    }
    mul_sym(search, H, temp, n);
    mju_addTo(search, g, n);
    for (int i = 0; i < nfree; i++) {
      search[i] = search[index[i]];
    }

    // factor of the free block (lower triangle)
    if (factorize) {
      for (int i = 0; i < nfree; i++) {
        for (int j = 0; j <= i; j++) {
          R[(size_t)i * nfree + j] = H[(size_t)index[i] * n + index[j]];
        }
      }
      if (mju_cholFactor(R, nfree, mjMINVAL) != nfree) {
        status = BOXQP_NOT_SPD;
        break;
      }
    }

    // Newton step on the free dimensions, zero on the clamped ones
    mju_cholSolve(temp, R, search, nfree);
    mju_zero(search, n);
    for (int i = 0; i < nfree; i++) {
      search[index[i]] = -temp[i] - res[index[i]];
    }

    // converged: free gradient small
    mjtNum norm2 = 0;
    for (int i = 0; i < nfree; i++) {
      mjtNum gi = grad[index[i]];
      norm2 += gi * gi;
    }
    if (norm2 < kMinGrad) {
      status = nfree == n ? BOXQP_UNBOUNDED : BOXQP_TOL_GRAD;
      break;
    }

    // the step must descend
    mjtNum sdotg = mju_dot(search, grad, n);
    if (sdotg >= 0) {
      break;
    }

    // projected Armijo line search
    mjtNum step = 1, improvement;
    do {
      mju_scl(candidate, search, step, n);
      mju_addTo(candidate, res, n);
      for (int i = 0; i < n; i++) {
        if (lower && candidate[i] < lower[i]) {
          candidate[i] = lower[i];
        } else if (upper && candidate[i] > upper[i]) {
          candidate[i] = upper[i];
        }
      }
      value = objective(candidate, H, g, n);
      step *= kBacktrack;
      if (step < kMinStep) {
        status = BOXQP_MAX_LS_ITER;
        break;
      }
      improvement = (value - oldvalue) / (step * sdotg);
    } while (improvement < kArmijo);

    // accept
    mju_copy(res, candidate, n);
  }
  if (iter == kMaxIter) {
    status = BOXQP_MAX_ITER;
  }

  return (status == BOXQP_NO_DESCENT || status == BOXQP_NOT_SPD) ? -1 : nfree;
}

/* one array of `size` bytes from mju_malloc when linked, else malloc */
static void* qp_alloc(size_t size) {
  return mju_malloc ? mju_malloc(size) : malloc(size);
}

/* allocate the arrays of mju_boxQP for dimension n (R with its scratch: n*(n+7));
 * index, lower and upper only when their pointers are given. Free each with mju_free */
void mju_boxQPmalloc(mjtNum** res, mjtNum** R, int** index, mjtNum** H, mjtNum** g, int n,
                     mjtNum** lower, mjtNum** upper) {
  *res = qp_alloc(sizeof(mjtNum) * n);
  *R = qp_alloc(sizeof(mjtNum) * n * (n + 7));
  *H = qp_alloc(sizeof(mjtNum) * n * n);
  *g = qp_alloc(sizeof(mjtNum) * n);
  if (lower) {
    *lower = qp_alloc(sizeof(mjtNum) * n);
  }
  if (upper) {
    *upper = qp_alloc(sizeof(mjtNum) * n);
  }
  if (index) {
    *index = qp_alloc(sizeof(int) * n);
  }
}
