/* tests/unit/test_math.c — unit tests of the mju_* math library and the error/warning API.
 *
 * Each test asserts concrete values: hand-computed results for small cases, round trips
 * (quaternion <-> matrix, integrate <-> quat2Vel, pose <-> inverse pose), algebraic identities
 * checked against dense 6x6 matrices for the spatial operations, a Cholesky solve of a random
 * SPD matrix, MuJoCo's edge-case conventions (degenerate normalization, exact identities,
 * clamped pivots) and the warning counters. Values taken from MuJoCo 3.14 are marked so. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* tolerance for results that are exact up to a few roundings */
#define TOL 1e-14

/* ---------------------------------------------------------------------------------------
 * helpers
 * ------------------------------------------------------------------------------------- */

/* assert two arrays agree entrywise within tol */
static void expect_near(const mjtNum* a, const mjtNum* b, int n, mjtNum tol) {
  for (int i = 0; i < n; i++) {
    if (!(fabs(a[i] - b[i]) <= tol)) {
      fail_msg("entry %d: %.17g vs %.17g (tol %g)", i, a[i], b[i], tol);
    }
  }
}

/* deterministic uniform numbers in [-1, 1) (xorshift64) */
static mjtNum rnd(uint64_t* s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (mjtNum)(*s >> 11) / 4503599627370496.0 - 1.0;
}

/* random unit quaternion */
static void rnd_quat(mjtNum q[4], uint64_t* s) {
  for (int i = 0; i < 4; i++) {
    q[i] = rnd(s);
  }
  mju_normalize4(q);
}

/* dense 6x6 spatial inertia from the 10-number cinert */
static void cinert_to_dense(mjtNum M[36], const mjtNum c[10]) {
  const mjtNum I[9] = {c[0], c[3], c[4], c[3], c[1], c[5], c[4], c[5], c[2]};
  const mjtNum h[3] = {c[6], c[7], c[8]};
  // skew(h)
  const mjtNum H[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
  memset(M, 0, 36 * sizeof(mjtNum));
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) {
      M[6 * r + k] = I[3 * r + k];            // I
      M[6 * r + 3 + k] = H[3 * r + k];        // [h]x
      M[6 * (r + 3) + k] = -H[3 * r + k];     // -[h]x
    }
    M[6 * (r + 3) + 3 + r] = c[9];            // m Id
  }
}

/* ---------------------------------------------------------------------------------------
 * scalars and vectors
 * ------------------------------------------------------------------------------------- */

static void test_scalars(void** state) {
  (void)state;
  assert_true(mju_min(1, 2) == 1 && mju_max(1, 2) == 2);
  assert_true(mju_clip(5, -1, 2) == 2 && mju_clip(-5, -1, 2) == -1 && mju_clip(0.5, -1, 2) == 0.5);
  assert_true(mju_sign(-3) == -1 && mju_sign(0) == 0 && mju_sign(2) == 1);
  // halves round away from zero (as MuJoCo 3.14)
  assert_int_equal(mju_round(2.5), 3);
  assert_int_equal(mju_round(-2.5), -3);
  assert_int_equal(mju_round(1.4), 1);
  assert_int_equal(mju_round(-1.6), -2);
  assert_int_equal(mju_round(0.49999999999999994), 0);
  // divergence test
  assert_true(mju_isBad(NAN) && mju_isBad(INFINITY) && mju_isBad(-INFINITY));
  assert_true(mju_isBad(1.0000001e10) && mju_isBad(-2e10));
  assert_false(mju_isBad(1e10) || mju_isBad(-1e10) || mju_isBad(0));
  const mjtNum z[3] = {0, -0.0, 0}, nz[3] = {0, 0, 1e-300};
  assert_true(mju_isZero(z, 3));
  assert_false(mju_isZero(nz, 3));
  assert_true(mju_isZero(nz, 0));
}

static void test_vec3(void** state) {
  (void)state;
  const mjtNum a[3] = {1, 2, 3}, b[3] = {-4, 5, 0.5};
  mjtNum r[3];
  mju_cross(r, a, b);
  const mjtNum cross[3] = {2 * 0.5 - 3 * 5, 3 * -4 - 1 * 0.5, 1 * 5 - 2 * -4};
  expect_near(r, cross, 3, 0);
  assert_true(mju_dot3(a, b) == -4 + 10 + 1.5);
  assert_true(fabs(mju_norm3(a) - sqrt(14)) < TOL);
  assert_true(fabs(mju_dist3(a, b) - sqrt(25 + 9 + 6.25)) < TOL);
  mju_addScl3(r, a, b, 2);
  const mjtNum as[3] = {-7, 12, 4};
  expect_near(r, as, 3, 0);
  mju_copy3(r, a);
  mju_addToScl3(r, b, -1);
  mju_addTo3(r, b);
  mju_subFrom3(r, a);
  expect_near(r, (mjtNum[3]){0, 0, 0}, 3, 0);
  mju_sub3(r, a, b);
  expect_near(r, (mjtNum[3]){5, -3, 2.5}, 3, 0);
  mju_add3(r, r, b);
  expect_near(r, a, 3, 0);
  mju_scl3(r, a, -2);
  expect_near(r, (mjtNum[3]){-2, -4, -6}, 3, 0);
  mju_zero3(r);
  expect_near(r, (mjtNum[3]){0, 0, 0}, 3, 0);

  // row-major 3x3 products
  const mjtNum M[9] = {1, 2, 3, 4, 5, 6, 7, 8, 10};
  mju_mulMatVec3(r, M, a);
  expect_near(r, (mjtNum[3]){14, 32, 53}, 3, 0);
  mju_mulMatTVec3(r, M, a);
  expect_near(r, (mjtNum[3]){30, 36, 45}, 3, 0);

  // cross may alias its inputs
  mju_copy3(r, a);
  mju_cross(r, r, b);
  expect_near(r, cross, 3, 0);
}

static void test_normalize_edges(void** state) {
  (void)state;
  mjtNum v[3] = {0, 0, 0}, q[4] = {0, 0, 0, 0}, n[5] = {0, 0, 0, 0, 0};
  // degenerate vectors fall back to fixed unit vectors and return the tiny norm
  assert_true(mju_normalize3(v) == 0);
  expect_near(v, (mjtNum[3]){1, 0, 0}, 3, 0);
  assert_true(mju_normalize4(q) == 0);
  expect_near(q, (mjtNum[4]){1, 0, 0, 0}, 4, 0);
  n[3] = 1e-16;
  assert_true(mju_normalize(n, 5) == 1e-16);
  expect_near(n, (mjtNum[5]){1, 0, 0, 0, 0}, 5, 0);
  mjtNum t[3] = {1e-16, 0, 0};
  assert_true(mju_normalize3(t) == 1e-16);
  expect_near(t, (mjtNum[3]){1, 0, 0}, 3, 0);

  // regular vectors: unit result, original norm returned
  mjtNum w[3] = {3, 0, -4};
  assert_true(mju_normalize3(w) == 5);
  expect_near(w, (mjtNum[3]){0.6, 0, -0.8}, 3, TOL);
  mjtNum p[4] = {1, 1, 1, 1};
  assert_true(mju_normalize4(p) == 2);
  expect_near(p, (mjtNum[4]){0.5, 0.5, 0.5, 0.5}, 4, 0);

  // an already-unit vector is left bit-for-bit unchanged
  mjtNum u[3] = {0.6, 0.8, 0};
  mjtNum u0[3] = {0.6, 0.8, 0};
  mju_normalize3(u);
  expect_near(u, u0, 3, 0);
}

static void test_vecn(void** state) {
  (void)state;
  mjtNum a[7], b[7], r[7];
  for (int i = 0; i < 7; i++) {
    a[i] = i + 1;
    b[i] = (i % 2) ? -0.5 : 2;
  }
  // 1*2 - 2*.5 + 3*2 - 4*.5 + 5*2 - 6*.5 + 7*2 = 26
  assert_true(mju_dot(a, b, 7) == 26);
  assert_true(mju_dot(a, b, 0) == 0);
  assert_true(mju_sum(a, 7) == 28);
  assert_true(mju_L1(b, 7) == 9.5);
  assert_true(fabs(mju_norm(a, 7) - sqrt(140)) < TOL);
  mju_addScl(r, a, b, 2, 7);
  assert_true(r[0] == 5 && r[1] == 1 && r[6] == 11);
  mju_sub(r, a, b, 7);
  mju_addTo(r, b, 7);
  expect_near(r, a, 7, 0);
  mju_add(r, a, a, 7);
  mju_subFrom(r, a, 7);
  expect_near(r, a, 7, 0);
  mju_scl(r, a, -1, 7);
  mju_addToScl(r, a, 1, 7);
  mju_fill(b, 0, 7);
  expect_near(r, b, 7, 0);
  mju_copy(r, a, 7);
  mju_zero(r, 3);
  assert_true(r[2] == 0 && r[3] == 4);
}

/* bit patterns equal (signed zeros told apart) */
static int same_bits(mjtNum a, mjtNum b) {
  return memcmp(&a, &b, sizeof(mjtNum)) == 0;
}

/* tn__dotRows4 (four rows' dot products side by side, as mj_mulJacVec uses it) gives each
 * row's mju_dot bit for bit, for every length with and without a 1-3 entry tail, with
 * zeros of both signs among the entries and rows whose products are all -0 */
static void test_dot_rows4(void** state) {
  (void)state;
  uint64_t seed = 12345;
  mjtNum mat[4 * 13], vec[13], res[4];
  for (int n = 0; n <= 13; n++) {
    for (int trial = 0; trial < 50; trial++) {
      for (int k = 0; k < 4 * n; k++) {
        mjtNum x = rnd(&seed);
        mat[k] = x < -0.6 ? -0.0 : (x > 0.6 ? 0.0 : x);
      }
      for (int k = 0; k < n; k++) {
        vec[k] = trial % 5 == 0 ? 1 : rnd(&seed);
      }
      // every fifth trial: row 2 is all -0 and vec all +1, so its products and sums are -0
      if (trial % 5 == 0) {
        for (int k = 0; k < n; k++) {
          mat[2 * n + k] = -0.0;
        }
      }
      tn__dotRows4(res, mat, (size_t)n, vec, n);
      for (int t = 0; t < 4; t++) {
        mjtNum expect = mju_dot(mat + t * n, vec, n);
        if (!same_bits(res[t], expect)) {
          fail_msg("n %d trial %d row %d: %a vs mju_dot %a", n, trial, t, res[t], expect);
        }
      }
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * matrices and Cholesky
 * ------------------------------------------------------------------------------------- */

static void test_matrices(void** state) {
  (void)state;
  // A is 2x3, B is 3x2
  const mjtNum A[6] = {1, 2, 3, 4, 5, 6};
  const mjtNum B[6] = {7, 8, 9, 10, 11, 12};
  mjtNum r[9];
  mju_mulMatMat(r, A, B, 2, 3, 2);
  expect_near(r, (mjtNum[4]){58, 64, 139, 154}, 4, 0);

  // A * A' (2x2) and A' * A (3x3)
  mju_mulMatMatT(r, A, A, 2, 3, 2);
  expect_near(r, (mjtNum[4]){14, 32, 32, 77}, 4, 0);
  mju_mulMatTMat(r, A, A, 2, 3, 3);
  expect_near(r, (mjtNum[9]){17, 22, 27, 22, 29, 36, 27, 36, 45}, 9, 0);

  // matrix-vector
  const mjtNum x[3] = {1, 0, -1}, y[2] = {2, -1};
  mju_mulMatVec(r, A, x, 2, 3);
  expect_near(r, (mjtNum[2]){-2, -2}, 2, 0);
  mju_mulMatTVec(r, A, y, 2, 3);
  expect_near(r, (mjtNum[3]){-2, -1, 0}, 3, 0);
  const mjtNum S[4] = {2, 1, 1, 3};
  assert_true(mju_mulVecMatVec(y, S, y, 2) == 8 - 4 + 3);

  // transpose of 2x3 is 3x2
  mju_transpose(r, A, 2, 3);
  expect_near(r, (mjtNum[6]){1, 4, 2, 5, 3, 6}, 6, 0);
}

static void test_cholesky(void** state) {
  (void)state;
  enum { N = 7 };
  uint64_t s = 12345;
  mjtNum G[N * N], A[N * N], L[N * N], x[N], b[N], r[N];

  // random SPD A = G G' + 0.1 I, and b = A x for a known x
  for (int i = 0; i < N * N; i++) {
    G[i] = rnd(&s);
  }
  mju_mulMatMatT(A, G, G, N, N, N);
  for (int i = 0; i < N; i++) {
    A[i * (N + 1)] += 0.1;
    x[i] = rnd(&s);
  }
  mju_mulMatVec(b, A, x, N, N);

  // factor: full rank, L L' reproduces A in the lower triangle
  mju_copy(L, A, N * N);
  assert_int_equal(mju_cholFactor(L, N, 1e-10), N);
  mjtNum Lo[N * N], LLt[N * N];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      Lo[i * N + j] = j <= i ? L[i * N + j] : 0;
    }
  }
  mju_mulMatMatT(LLt, Lo, Lo, N, N, N);
  expect_near(LLt, A, N * N, 1e-13);

  // the upper triangle is untouched
  assert_true(L[1] == A[1] && L[N - 1] == A[N - 1]);

  // solve, also in place (res aliasing vec)
  mju_cholSolve(r, L, b, N);
  expect_near(r, x, N, 1e-11);
  mju_cholSolve(b, L, b, N);
  expect_near(b, x, N, 1e-11);
}

/* mju_cholFactor (rows taken four and two at a time) against the column-by-column algorithm
 * in MuJoCo's order written out here, bit for bit, for sizes 1-30, full rank and with
 * clamped pivots */
static void test_cholesky_bits(void** state) {
  (void)state;
  enum { NMAX = 30 };
  static mjtNum G[NMAX * NMAX], A[NMAX * NMAX], L[NMAX * NMAX], R[NMAX * NMAX];
  uint64_t s = 777;
  for (int n = 1; n <= NMAX; n++) {
    for (int trial = 0; trial < 4; trial++) {
      // A = G G' (rank about n/2 on odd trials: some pivots clamp) + a small diagonal
      int rank = trial % 2 ? n / 2 + 1 : n;
      for (int i = 0; i < n * n; i++) {
        G[i] = rnd(&s);
      }
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          A[i * n + j] = mju_dot(G + i * n, G + j * n, rank) + (i == j && !(trial % 2) ? 0.01 : 0);
        }
      }
      mju_copy(L, A, n * n);
      mju_copy(R, A, n * n);
      int got = mju_cholFactor(L, n, 1e-10);

      // reference: each pivot and entry from one mju_dot, clamped pivots decouple the column
      int want = n;
      for (int j = 0; j < n; j++) {
        mjtNum piv = R[j * n + j] - (j ? mju_dot(R + j * n, R + j * n, j) : 0);
        if (piv < 1e-10) {
          R[j * n + j] = sqrt(1e-10);
          want--;
          for (int i = j + 1; i < n; i++) {
            R[i * n + j] = 0;
          }
          continue;
        }
        R[j * n + j] = sqrt(piv);
        mjtNum inv = 1 / R[j * n + j];
        for (int i = j + 1; i < n; i++) {
          R[i * n + j] = (R[i * n + j] - mju_dot(R + i * n, R + j * n, j)) * inv;
        }
      }
      assert_int_equal(got, want);
      if (memcmp(L, R, sizeof(mjtNum) * (size_t)(n * n))) {
        fail_msg("n %d trial %d: factor differs from the reference", n, trial);
      }
    }
  }
}

/* mju_mulMatTVec (columns in passes of up to 27, sums held in registers) against rows of
 * the matrix scaled and added one by one into a zeroed result, skipping zero scales, bit
 * for bit: every width 1-70 (one pass, several, and every tail), zeros of both signs in the
 * matrix and the vector, and nothing written past the result's last column */
static void test_mul_mat_t_vec_bits(void** state) {
  (void)state;
  enum { RMAX = 9, CMAX = 70 };
  static mjtNum A[RMAX * CMAX], v[RMAX], got[CMAX + 1], want[CMAX];
  uint64_t s = 4242;
  for (int nc = 1; nc <= CMAX; nc++) {
    for (int nr = 0; nr <= RMAX; nr += 3) {
      for (int k = 0; k < nr * nc; k++) {
        mjtNum x = rnd(&s);
        A[k] = x < -0.8 ? -0.0 : (x > 0.8 ? 0.0 : x);
      }
      for (int r = 0; r < nr; r++) {
        v[r] = r % 4 == 1 ? 0 : (r % 4 == 2 ? -0.0 : rnd(&s));
      }
      got[nc] = 12345;
      mju_mulMatTVec(got, A, v, nr, nc);
      mju_zero(want, nc);
      for (int r = 0; r < nr; r++) {
        for (int c = 0; c < nc && v[r] != 0; c++) {
          want[c] += A[r * nc + c] * v[r];
        }
      }
      assert_true(got[nc] == 12345);
      if (memcmp(got, want, sizeof(mjtNum) * (size_t)nc)) {
        fail_msg("nr %d nc %d: product differs from row-by-row accumulation", nr, nc);
      }
    }
  }
}

static void test_cholesky_clamp(void** state) {
  (void)state;
  // MuJoCo 3.14 on this matrix with mindiag 0.9: pivot 1 is clamped, its column below the
  // diagonal is zeroed, rank 2 (values from mujoco.mju_cholFactor)
  mjtNum A[16] = {1.1, 0.1, 0.1, 0.1, 0.1, 0.6, 0.1, 0.1, 0.1, 0.1, 2.1, 0.1,
                  0.1, 0.1, 0.1, 0.4};
  assert_int_equal(mju_cholFactor(A, 4, 0.9), 2);
  assert_true(A[5] == sqrt(0.9) && A[15] == sqrt(0.9));
  assert_true(A[9] == 0 && A[13] == 0);
  const mjtNum l00 = sqrt(1.1), l10 = 0.1 / l00;
  assert_true(fabs(A[0] - l00) < TOL && fabs(A[4] - l10) < TOL);
  assert_true(fabs(A[10] - sqrt(2.1 - l10 * l10)) < TOL);
  const mjtNum lower[16] = {1.0488088481701516, 0, 0, 0,
                            0.09534625892455922, 0.9486832980505138, 0, 0,
                            0.09534625892455922, 0, 1.4459976109624424, 0,
                            0.09534625892455922, 0, 0.06286946134619315, 0.9486832980505138};
  for (int i = 0; i < 4; i++) {
    expect_near(A + 4 * i, lower + 4 * i, i + 1, 1e-15);
  }

  // rank-1 matrix: every pivot after the first is clamped
  mjtNum R[9] = {1, 2, 3, 2, 4, 6, 3, 6, 9};
  assert_int_equal(mju_cholFactor(R, 3, 1e-8), 1);
  assert_true(R[7] == 0);
}

/* ---------------------------------------------------------------------------------------
 * quaternions and poses
 * ------------------------------------------------------------------------------------- */

static void test_quat_basic(void** state) {
  (void)state;
  const mjtNum id[4] = {1, 0, 0, 0};
  const mjtNum z90[4] = {sqrt(0.5), 0, 0, sqrt(0.5)};
  mjtNum r[9], q[4];

  // identity rotation is exact
  const mjtNum v[3] = {0.3, -1.7, 2.9};
  mju_rotVecQuat(r, v, id);
  expect_near(r, v, 3, 0);
  mju_quat2Mat(r, id);
  expect_near(r, (mjtNum[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, 9, 0);

  // 90 degrees about z maps x to y
  mju_rotVecQuat(r, (mjtNum[3]){1, 0, 0}, z90);
  expect_near(r, (mjtNum[3]){0, 1, 0}, 3, TOL);
  mju_quat2Mat(r, z90);
  expect_near(r, (mjtNum[9]){0, -1, 0, 1, 0, 0, 0, 0, 1}, 9, TOL);

  // axis-angle: exact identity at zero angle, and z90 at pi/2
  mju_axisAngle2Quat(q, (mjtNum[3]){0, 0, 1}, 0);
  expect_near(q, id, 4, 0);
  mju_axisAngle2Quat(q, (mjtNum[3]){0, 0, 1}, mjPI / 2);
  expect_near(q, z90, 4, TOL);

  // product of two quarter turns is a half turn; conjugate undoes it
  mju_mulQuat(q, z90, z90);
  expect_near(q, (mjtNum[4]){0, 0, 0, 1}, 4, TOL);
  mjtNum c[4];
  mju_negQuat(c, z90);
  expect_near(c, (mjtNum[4]){sqrt(0.5), 0, 0, -sqrt(0.5)}, 4, 0);
  mju_mulQuat(q, z90, c);
  expect_near(q, id, 4, TOL);

  // mulQuatAxis = quat * (0, axis)
  const mjtNum ax[3] = {0.2, -0.4, 1.3};
  mjtNum q1[4], q2[4];
  mju_mulQuatAxis(q1, z90, ax);
  mju_mulQuat(q2, z90, (mjtNum[4]){0, ax[0], ax[1], ax[2]});
  expect_near(q1, q2, 4, TOL);

  // derivQuat = 0.5 * (0, vel) * quat: MuJoCo 3.14 multiplies the velocity on the LEFT
  // (checked bit for bit against mujoco.mju_derivQuat)
  mju_derivQuat(q1, z90, ax);
  mju_mulQuat(q2, (mjtNum[4]){0, ax[0], ax[1], ax[2]}, z90);
  mju_scl(q2, q2, 0.5, 4);
  expect_near(q1, q2, 4, TOL);
}

static void test_quat_roundtrips(void** state) {
  (void)state;
  uint64_t s = 777;
  for (int t = 0; t < 200; t++) {
    mjtNum q[4], m[9], q2[4], v[3], r1[3], r2[3];
    rnd_quat(q, &s);

    // quat -> mat -> quat (up to sign)
    mju_quat2Mat(m, q);
    mju_mat2Quat(q2, m);
    if (q2[0] * q[0] + q2[1] * q[1] + q2[2] * q[2] + q2[3] * q[3] < 0) {
      mju_scl(q2, q2, -1, 4);
    }
    expect_near(q2, q, 4, 1e-13);

    // rotVecQuat agrees with the matrix
    for (int i = 0; i < 3; i++) {
      v[i] = rnd(&s);
    }
    mju_rotVecQuat(r1, v, q);
    mju_mulMatVec3(r2, m, v);
    expect_near(r1, r2, 3, 1e-14);

    // integrate a velocity, then recover it with subQuat and quat2Vel
    mjtNum w[3] = {rnd(&s), rnd(&s), rnd(&s)}, qi[4], dq[4], qn[4];
    mju_copy4(qi, q);
    mju_quatIntegrate(qi, w, 0.7);
    mju_subQuat(r1, qi, q);
    mju_scl3(r2, w, 0.7);
    expect_near(r1, r2, 3, 1e-13);
    mju_negQuat(qn, q);
    mju_mulQuat(dq, qn, qi);
    mju_quat2Vel(r1, dq, 0.7);
    expect_near(r1, w, 3, 1e-13);
  }
}

static void test_quat_edges(void** state) {
  (void)state;
  mjtNum q[4], v[3];

  // quat2Vel wraps to the short way round: -q gives the same velocity
  const mjtNum z90[4] = {sqrt(0.5), 0, 0, sqrt(0.5)};
  const mjtNum mz90[4] = {-sqrt(0.5), 0, 0, -sqrt(0.5)};
  mju_quat2Vel(v, z90, 0.5);
  expect_near(v, (mjtNum[3]){0, 0, mjPI}, 3, TOL);
  mju_quat2Vel(v, mz90, 0.5);
  expect_near(v, (mjtNum[3]){0, 0, mjPI}, 3, TOL);

  // identity and its negative: zero velocity (axis falls back to x)
  mju_quat2Vel(v, (mjtNum[4]){1, 0, 0, 0}, 1);
  expect_near(v, (mjtNum[3]){0, 0, 0}, 3, 0);
  mju_quat2Vel(v, (mjtNum[4]){-1, 0, 0, 0}, 1);
  expect_near(v, (mjtNum[3]){0, 0, 0}, 3, TOL);

  // quatZ2Vec: parallel, antiparallel, zero, and a general direction
  mju_quatZ2Vec(q, (mjtNum[3]){0, 0, 2});
  expect_near(q, (mjtNum[4]){1, 0, 0, 0}, 4, 0);
  mju_quatZ2Vec(q, (mjtNum[3]){1e-20, 0, -3});
  expect_near(q, (mjtNum[4]){0, 1, 0, 0}, 4, 0);
  mju_quatZ2Vec(q, (mjtNum[3]){0, 0, 0});
  expect_near(q, (mjtNum[4]){1, 0, 0, 0}, 4, 0);
  const mjtNum dir[3] = {1, -2, 0.5};
  mju_quatZ2Vec(q, dir);
  mju_rotVecQuat(v, (mjtNum[3]){0, 0, 1}, q);
  mjtNum d[3] = {dir[0], dir[1], dir[2]};
  mju_normalize3(d);
  expect_near(v, d, 3, TOL);
  assert_true(fabs(q[3]) < TOL);  // minimal rotation: axis is perpendicular to z

  // quatIntegrate normalizes a non-unit input, zero velocity leaves the direction
  mjtNum qq[4] = {2, 0, 0, 0};
  mju_quatIntegrate(qq, (mjtNum[3]){0, 0, 0}, 1);
  expect_near(qq, (mjtNum[4]){1, 0, 0, 0}, 4, 0);

  // mat2Quat branches: half turns about x, y, z
  const mjtNum rx[9] = {1, 0, 0, 0, -1, 0, 0, 0, -1};
  const mjtNum ry[9] = {-1, 0, 0, 0, 1, 0, 0, 0, -1};
  const mjtNum rz[9] = {-1, 0, 0, 0, -1, 0, 0, 0, 1};
  mju_mat2Quat(q, rx);
  expect_near(q, (mjtNum[4]){0, 1, 0, 0}, 4, 0);
  mju_mat2Quat(q, ry);
  expect_near(q, (mjtNum[4]){0, 0, 1, 0}, 4, 0);
  mju_mat2Quat(q, rz);
  expect_near(q, (mjtNum[4]){0, 0, 0, 1}, 4, 0);
}

static void test_quat_mujoco_values(void** state) {
  (void)state;
  // reference numbers printed by MuJoCo 3.14 (mujoco.mju_* in Python)
  const mjtNum qa[4] = {0.5, 0.5, -0.5, 0.5};
  const mjtNum qb[4] = {0.8, 0.0, 0.6, 0.0};
  mjtNum r[9];
  mju_subQuat(r, qa, qb);
  expect_near(r, (mjtNum[3]){0.295607532474955, -2.0692527273246846, 2.0692527273246846},
              3, 1e-15);
  mju_mulQuat(r, qa, qb);
  expect_near(r, (mjtNum[4]){0.7, 0.10000000000000003, -0.10000000000000003, 0.7}, 4, 0);
  mju_rotVecQuat(r, (mjtNum[3]){1, 2, 3}, qa);
  expect_near(r, (mjtNum[3]){-2, -3, 1}, 3, 1e-15);
}

static void test_poses(void** state) {
  (void)state;
  uint64_t s = 99;
  for (int t = 0; t < 50; t++) {
    mjtNum p1[3] = {rnd(&s), rnd(&s), rnd(&s)}, p2[3] = {rnd(&s), rnd(&s), rnd(&s)};
    mjtNum q1[4], q2[4], p[3], q[4], pi[3], qi[4], v[3] = {rnd(&s), rnd(&s), rnd(&s)};
    rnd_quat(q1, &s);
    rnd_quat(q2, &s);

    // composing a pose with its inverse gives the identity
    mju_negPose(pi, qi, p1, q1);
    mju_mulPose(p, q, p1, q1, pi, qi);
    expect_near(p, (mjtNum[3]){0, 0, 0}, 3, 1e-14);
    assert_true(fabs(fabs(q[0]) - 1) < 1e-14);

    // mulPose then trnVecPose = trnVecPose twice
    mjtNum a[3], b[3], c[3];
    mju_mulPose(p, q, p1, q1, p2, q2);
    mju_trnVecPose(a, p, q, v);
    mju_trnVecPose(b, p2, q2, v);
    mju_trnVecPose(c, p1, q1, b);
    expect_near(a, c, 3, 1e-14);
  }
}

/* ---------------------------------------------------------------------------------------
 * spatial algebra
 * ------------------------------------------------------------------------------------- */

static void test_transform_spatial(void** state) {
  (void)state;
  const mjtNum newpos[3] = {1, 2, 3}, oldpos[3] = {0, 1, -1};
  const mjtNum vec[6] = {0.5, -1, 2, 3, 0.25, -2};
  mjtNum r[6];

  // motion: linear part at newpos = v - cof x w, cof = (1, 1, 4)
  // cof x w = (1*2 - 4*-1, 4*0.5 - 1*2, 1*-1 - 1*0.5) = (6, 0, -1.5)
  mju_transformSpatial(r, vec, 0, newpos, oldpos, NULL);
  expect_near(r, (mjtNum[6]){0.5, -1, 2, -3, 0.25, -0.5}, 6, 0);

  // force: torque at newpos = t - cof x f; cof x f = (1*-2 - 4*0.25, 4*3 - 1*-2, 1*.25 - 1*3)
  mju_transformSpatial(r, vec, 1, newpos, oldpos, NULL);
  expect_near(r, (mjtNum[6]){3.5, -15, 4.75, 3, 0.25, -2}, 6, 0);

  // with a rotation (90 deg about z): both halves rotated by rot'
  const mjtNum rot[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  mju_transformSpatial(r, vec, 0, newpos, oldpos, rot);
  expect_near(r, (mjtNum[6]){-1, -0.5, 2, 0.25, 3, -0.5}, 6, 0);

  // in-place use is allowed
  mjtNum w[6];
  mju_copy(w, vec, 6);
  mju_transformSpatial(w, w, 1, newpos, oldpos, rot);
  mju_transformSpatial(r, vec, 1, newpos, oldpos, rot);
  expect_near(w, r, 6, 0);
}

static void test_cross_spatial(void** state) {
  (void)state;
  const mjtNum vel[6] = {0.3, -0.2, 0.9, 1.5, -0.7, 0.1};
  const mjtNum v[6] = {-1, 0.4, 2, 0.6, 0.8, -1.2};
  mjtNum r[6], a[3], b[3], e[6];

  // crossMotion = (w x v_rot, w x v_tran + u x v_rot)
  tn_crossMotion(r, vel, v);
  mju_cross(e, vel, v);
  mju_cross(a, vel, v + 3);
  mju_cross(b, vel + 3, v);
  mju_add3(e + 3, a, b);
  expect_near(r, e, 6, TOL);

  // crossForce = (w x f_rot + u x f_tran, w x f_tran)
  tn_crossForce(r, vel, v);
  mju_cross(a, vel, v);
  mju_cross(b, vel + 3, v + 3);
  mju_add3(e, a, b);
  mju_cross(e + 3, vel, v + 3);
  expect_near(r, e, 6, TOL);

  // duality: crossForce(vel, f) . m = -f . crossMotion(vel, m)
  mjtNum cm[6], cf[6];
  const mjtNum f[6] = {0.1, 0.2, -0.3, 0.4, 0.5, 0.6};
  tn_crossMotion(cm, vel, v);
  tn_crossForce(cf, vel, f);
  assert_true(fabs(mju_dot(cf, v, 6) + mju_dot(f, cm, 6)) < TOL);
}

static void test_inertia(void** state) {
  (void)state;
  uint64_t s = 4242;
  mjtNum q[4], mat[9], c[10], M[36];
  const mjtNum inert[3] = {0.3, 0.5, 0.7}, dif[3] = {0.2, -0.1, 0.4}, mass = 2.5;
  rnd_quat(q, &s);
  mju_quat2Mat(mat, q);
  tn_inertCom(c, inert, mat, dif, mass);

  // rotational part: R diag R' + m (|d|^2 I - d d')
  mjtNum D[9] = {inert[0], 0, 0, 0, inert[1], 0, 0, 0, inert[2]}, T[9], I[9];
  mju_mulMatMatT(T, D, mat, 3, 3, 3);
  mju_mulMatMat(I, mat, T, 3, 3, 3);
  const mjtNum dd = mju_dot3(dif, dif);
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) {
      I[3 * r + k] += mass * ((r == k ? dd : 0) - dif[r] * dif[k]);
    }
  }
  expect_near(c, (mjtNum[6]){I[0], I[4], I[8], I[1], I[2], I[5]}, 6, TOL);
  expect_near(c + 6, (mjtNum[4]){mass * dif[0], mass * dif[1], mass * dif[2], mass}, 4, 0);

  // mulInertVec equals the dense 6x6 product
  const mjtNum v[6] = {0.4, -1.1, 0.3, 2.0, -0.5, 0.9};
  mjtNum r[6], e[6];
  tn_mulInertVec(r, c, v);
  cinert_to_dense(M, c);
  mju_mulMatVec(e, M, v, 6, 6);
  expect_near(r, e, 6, TOL);

  // kinetic energy of a pure translation is m |u|^2 / 2 (via the spatial inertia)
  const mjtNum u[6] = {0, 0, 0, 1, 2, 2};
  tn_mulInertVec(r, c, u);
  assert_true(fabs(mju_dot(u, r, 6) - mass * 9) < TOL);
}

static void test_dofs(void** state) {
  (void)state;
  const mjtNum axis[3] = {0, 0, 1}, offset[3] = {1, 0, 0};
  mjtNum r[6];

  // rotational dof: (axis, axis x offset); translational: (0, axis)
  tn_dofCom(r, axis, offset);
  expect_near(r, (mjtNum[6]){0, 0, 1, 0, 1, 0}, 6, 0);
  tn_dofCom(r, axis, NULL);
  expect_near(r, (mjtNum[6]){0, 0, 0, 0, 0, 1}, 6, 0);

  // mulDofVec: weighted sum of consecutive 6D dofs, zero for n == 0
  const mjtNum dof[12] = {1, 2, 3, 4, 5, 6, -1, 0, 1, 0, 2, 0};
  const mjtNum w[2] = {2, -3};
  tn_mulDofVec(r, dof, w, 2);
  expect_near(r, (mjtNum[6]){5, 4, 3, 8, 4, 12}, 6, 0);
  mju_fill(r, 7, 6);
  tn_mulDofVec(r, dof, w, 0);
  expect_near(r, (mjtNum[6]){0, 0, 0, 0, 0, 0}, 6, 0);
}

/* ---------------------------------------------------------------------------------------
 * errors and warnings
 * ------------------------------------------------------------------------------------- */

/* last message seen by the test handlers, and how many */
static char g_msg[1000];
static int g_count;

static void capture(const char* msg) {
  snprintf(g_msg, sizeof(g_msg), "%s", msg);
  g_count++;
}

static void test_errors(void** state) {
  (void)state;
  // handlers receive the formatted message; mju_error returns
  mju_user_error = capture;
  mju_user_warning = capture;
  g_count = 0;
  mju_error("bad value %d in %s", 7, "qpos");
  assert_string_equal(g_msg, "bad value 7 in qpos");
  mju_warning("w %.1f", 2.5);
  assert_string_equal(g_msg, "w 2.5");
  assert_int_equal(g_count, 2);

  // long messages are truncated, not overflowed
  char big[1500];
  memset(big, 'x', sizeof(big) - 1);
  big[sizeof(big) - 1] = 0;
  mju_warning("%s", big);
  assert_int_equal(strlen(g_msg), 999);
  mju_user_error = NULL;
  mju_user_warning = NULL;
}

static void test_mj_warning(void** state) {
  (void)state;
  mjData d;
  memset(&d, 0, sizeof(d));
  mju_user_warning = capture;
  mju_user_error = capture;
  g_count = 0;

  // first occurrence prints (naming the dof), later ones only count
  mj_warning(&d, mjWARN_BADQACC, 3);
  assert_int_equal(g_count, 1);
  assert_non_null(strstr(g_msg, "QACC"));
  assert_non_null(strstr(g_msg, "3"));
  mj_warning(&d, mjWARN_BADQACC, 5);
  mj_warning(&d, mjWARN_BADQACC, 6);
  assert_int_equal(g_count, 1);
  assert_int_equal(d.warning[mjWARN_BADQACC].number, 3);
  assert_int_equal(d.warning[mjWARN_BADQACC].lastinfo, 6);

  // other counters are independent
  mj_warning(&d, mjWARN_INERTIA, 0);
  assert_int_equal(g_count, 2);
  assert_int_equal(d.warning[mjWARN_INERTIA].number, 1);
  assert_int_equal(d.warning[mjWARN_BADQPOS].number, 0);

  // an invalid kind is an error, and nothing is counted
  mj_warning(&d, mjNWARNING, 1);
  assert_int_equal(g_count, 3);
  assert_non_null(strstr(g_msg, "invalid warning"));
  mju_user_warning = NULL;
  mju_user_error = NULL;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalars),
      cmocka_unit_test(test_vec3),
      cmocka_unit_test(test_normalize_edges),
      cmocka_unit_test(test_vecn),
      cmocka_unit_test(test_dot_rows4),
      cmocka_unit_test(test_matrices),
      cmocka_unit_test(test_cholesky),
      cmocka_unit_test(test_cholesky_bits),
      cmocka_unit_test(test_mul_mat_t_vec_bits),
      cmocka_unit_test(test_cholesky_clamp),
      cmocka_unit_test(test_quat_basic),
      cmocka_unit_test(test_quat_roundtrips),
      cmocka_unit_test(test_quat_edges),
      cmocka_unit_test(test_quat_mujoco_values),
      cmocka_unit_test(test_poses),
      cmocka_unit_test(test_transform_spatial),
      cmocka_unit_test(test_cross_spatial),
      cmocka_unit_test(test_inertia),
      cmocka_unit_test(test_dofs),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_mj_warning),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
