/* util/math_eig3.c — eigen-decomposition of a symmetric 3x3 matrix.
 *
 * Cyclic Jacobi rotations accumulated as a quaternion, reproducing MuJoCo's mju_eig3
 * bit for bit (checked against MuJoCo 3.14 on random matrices): the compiler uses it to
 * find the principal axes of body inertias, and tests compare body_inertia and body_iquat
 * with MuJoCo's, so the pivoting, rotation formula, stopping rule and the final ordering
 * (decreasing eigenvalues, reached by quarter-turn rotations) all follow MuJoCo.
 * tn__eig3Compiler and tn__eig3Tol (declared in compiler/compile_helpers.h) are the
 * compiler's variants (body inertias; mesh principal axes with a looser tolerance). */
#include <math.h>

#include <torsion/torsion.h>

/* converged when the pivot is at most this fraction of the input's largest entry */
#define EIG3_EPS 4E-15

/* eigenvalues closer than this fraction of the input's largest entry are not reordered */
#define EIG3_SORTEPS 1E-12

/* most iterations before giving up */
#define EIG3_MAXITER 500

/* D = R' * A * R for 3x3 row-major matrices (R'*A first, then times R) */
static void eig3_rotate(mjtNum D[9], const mjtNum R[9], const mjtNum A[9]) {
  mjtNum RA[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      RA[3 * i + j] = R[i] * A[j] + R[3 + i] * A[3 + j] + R[6 + i] * A[6 + j];
    }
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      D[3 * i + j] = RA[3 * i] * R[j] + RA[3 * i + 1] * R[3 + j] + RA[3 * i + 2] * R[6 + j];
    }
  }
}

/* pick the largest off-diagonal entry (row r, column c) and the axis k it rotates about */
static void eig3_pivot(const mjtNum D[9], int* r, int* c, int* k) {
  mjtNum a01 = fabs(D[1]), a02 = fabs(D[2]), a12 = fabs(D[5]);
  if (a01 > a02 && a01 > a12) {
    *r = 0, *c = 1, *k = 2;
  } else if (a02 > a12) {
    *r = 0, *c = 2, *k = 1;
  } else {
    *r = 1, *c = 2, *k = 0;
  }
}

/* the Jacobi rotation zeroing D[r][c], as a quaternion about axis k */
static void eig3_rotation(mjtNum rot[4], const mjtNum D[9], int r, int c, int k) {
  // tangent of the 2x2 symmetric Schur rotation (the smaller of the two roots)
  mjtNum off = D[3 * r + c];
  mjtNum tau = (D[4 * c] - D[4 * r]) / (2 * off);
  mjtNum t = tau >= 0 ? 1 / (tau + sqrt(1 + tau * tau)) : -1 / (-tau + sqrt(1 + tau * tau));

  // half-angle tangent; the rotation about y has the opposite handedness in the r,c plane
  mjtNum th = t / (1 + sqrt(1 + t * t));
  mjtNum scl = 1 / sqrt(1 + th * th);
  rot[0] = scl;
  rot[1] = rot[2] = rot[3] = 0;
  rot[k + 1] = (k == 1 ? th : -th) * scl;
}

/* the decomposition with tolerances relative to the input's largest entry: eps stops the
 * rotations, sorteps leaves near-equal eigenvalues in place; renormalize selects whether the
 * sorting turns renormalize the frame */
int tn__eig3Tol(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9], mjtNum eps,
                mjtNum sorteps, int renormalize) {
  mjtNum D[9], rot[4];
  int iter;

  // tolerances are relative to the largest entry of the input
  mjtNum scale = 0;
  for (int i = 0; i < 9; i++) {
    scale = fmax(scale, fabs(mat[i]));
  }
  mjtNum tol = eps * scale;

  // Jacobi iterations from the identity frame: diagonalize R'*mat*R
  mju_unit4(quat);
  for (iter = 0; iter < EIG3_MAXITER; iter++) {
    // current frame and the matrix expressed in it
    mju_quat2Mat(eigvec, quat);
    eig3_rotate(D, eigvec, mat);
    eigval[0] = D[0];
    eigval[1] = D[4];
    eigval[2] = D[8];

    // stop when the largest off-diagonal entry is negligible
    int r, c, k;
    eig3_pivot(D, &r, &c, &k);
    if (fabs(D[3 * r + c]) <= tol) {
      break;
    }

    // rotate the frame to zero that entry
    eig3_rotation(rot, D, r, c, k);
    mju_mulQuat(quat, quat, rot);
    mju_normalize4(quat);
  }

  // sort decreasing with three bubble passes (pairs 01, 12, 01), swapping axes by quarter
  // turns; eigenvalues equal to within a relative tolerance are left in place
  mjtNum same = sorteps * scale;
  for (int pass = 0; pass < 3; pass++) {
    int j = pass % 2;
    if (eigval[j + 1] - eigval[j] > same) {
      mjtNum tmp = eigval[j];
      eigval[j] = eigval[j + 1];
      eigval[j + 1] = tmp;

      // quarter turn about the axis that is neither j nor j+1
      rot[0] = 0.707106781186548;
      rot[1] = rot[2] = rot[3] = 0;
      rot[(j + 2) % 3 + 1] = rot[0];
      mju_mulQuat(quat, quat, rot);
      if (renormalize) {
        mju_normalize4(quat);
      }
    }
  }

  // eigenvectors from the final frame
  mju_quat2Mat(eigvec, quat);
  return iter;
}

/* eigenvalues (decreasing), eigenvectors (columns of eigvec) and their frame quaternion */
int mju_eig3(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]) {
  return tn__eig3Tol(eigval, eigvec, quat, mat, EIG3_EPS, EIG3_SORTEPS, 1);
}

/* the compiler's variant: MuJoCo's compiled body_iquat keeps the sorting turns
 * unrenormalized (norm off by ~1e-15), so body frames match MuJoCo's bit for bit */
int tn__eig3Compiler(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]) {
  return tn__eig3Tol(eigval, eigvec, quat, mat, EIG3_EPS, EIG3_SORTEPS, 0);
}
