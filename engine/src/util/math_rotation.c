/* util/math_rotation.c — more rotation utilities: Euler-angle sequences to quaternions, the
 * rotation nearest to an arbitrary 3x3 matrix, and the analytic derivatives of
 * mju_subQuat and mju_quatIntegrate (MuJoCo's mjd_subQuat, mjd_quatIntegrate). */
#include <math.h>
#include <string.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* quaternion of three successive rotations by euler[i] about the axes named in seq: a
 * lower-case letter rotates about the moving (intrinsic) axis, upper-case about the fixed
 * (extrinsic) one */
void mju_euler2Quat(mjtNum quat[4], const mjtNum euler[3], const char* seq) {
  if (strnlen(seq, 4) != 3) {
    mju_error("mju_euler2Quat: seq must contain exactly 3 characters");
    return;
  }
  mjtNum acc[4] = {1, 0, 0, 0};

  for (int i = 0; i < 3; i++) {
    // elementary rotation about the named axis
    mjtNum rot[4] = {cos(euler[i] / 2), 0, 0, 0};
    mjtNum s = sin(euler[i] / 2);
    char axis = seq[i];
    if (axis == 'x' || axis == 'X') {
      rot[1] = s;
    } else if (axis == 'y' || axis == 'Y') {
      rot[2] = s;
    } else if (axis == 'z' || axis == 'Z') {
      rot[3] = s;
    } else {
      mju_error("mju_euler2Quat: seq[%d] is '%c', should be one of x, y, z, X, Y, Z", i, axis);
      return;
    }

    // intrinsic: post-multiply; extrinsic: pre-multiply
    if (axis == 'x' || axis == 'y' || axis == 'z') {
      mju_mulQuat(acc, acc, rot);
    } else {
      mju_mulQuat(acc, rot, acc);
    }
  }
  mju_copy4(quat, acc);
}

/* refine quat (the initial guess, updated in place) towards the rotational part of mat by
 * fixed-point iteration (Mueller et al. 2016, "A robust method to extract the rotational
 * part of deformations"); returns the iterations used (at most 500) */
int mju_mat2Rot(mjtNum quat[4], const mjtNum mat[9]) {
  int iter;
  for (iter = 0; iter < 500; iter++) {
    mjtNum rot[9];
    mju_quat2Mat(rot, quat);

    // omega = sum_k rot_col_k x mat_col_k / (|sum_k rot_col_k . mat_col_k| + mjMINVAL)
    mjtNum omega[3] = {0, 0, 0}, dots = 0;
    for (int k = 0; k < 3; k++) {
      mjtNum rc[3] = {rot[k], rot[3 + k], rot[6 + k]};
      mjtNum mc[3] = {mat[k], mat[3 + k], mat[6 + k]};
      mjtNum c[3];
      mju_cross(c, rc, mc);
      if (k == 0) {
        mju_copy3(omega, c);
      } else {
        mju_addTo3(omega, c);
      }
      dots = k == 0 ? mju_dot3(rc, mc) : dots + mju_dot3(rc, mc);
    }
    mju_scl3(omega, omega, 1.0 / (fabs(dots) + mjMINVAL));

    // rotate by |omega| about its direction; stop when the correction is negligible
    mjtNum angle = mju_normalize3(omega);
    if (angle < 1e-9) {
      break;
    }
    mjtNum qrot[4];
    mju_axisAngle2Quat(qrot, omega, angle);
    mju_mulQuat(quat, qrot, quat);
    mju_normalize4(quat);
  }
  return iter;
}

/* derivatives of res = mju_subQuat(qa, qb) with respect to qa and qb, as 3x3 Jacobians in
 * tangent coordinates; either output may be NULL */
void mjd_subQuat(const mjtNum qa[4], const mjtNum qb[4], mjtNum Da[9], mjtNum Db[9]) {
  if (!Da && !Db) {
    return;
  }

  // axis and half angle of the difference
  mjtNum axis[3];
  mju_subQuat(axis, qa, qb);
  mjtNum half = 0.5 * mju_normalize3(axis);

  // D = I + half*K + (1 - half*cot(half)) K^2, K = [axis]x
  mjtNum D[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  mjtNum K[9] = {0, -axis[2], axis[1], axis[2], 0, -axis[0], -axis[1], axis[0], 0};
  mju_addToScl(D, K, half, 9);
  mjtNum KK[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      KK[3 * i + j] = K[3 * i] * K[j] + K[3 * i + 1] * K[3 + j] + K[3 * i + 2] * K[6 + j];
    }
  }
  mjtNum coef = 1.0 - (half < 6e-8 ? 1.0 : half / tan(half));
  mju_addToScl(D, KK, coef, 9);

  // Da = D, Db = -D'
  if (Da) {
    mju_copy(Da, D, 9);
  }
  if (Db) {
    mju_transpose(Db, D, 3, 3);
    mju_scl(Db, Db, -1.0, 9);
  }
}

/* derivatives of mju_quatIntegrate(quat, vel, scale) with respect to quat (tangent), vel
 * and scale; any output may be NULL */
void mjd_quatIntegrate(const mjtNum vel[3], mjtNum scale, mjtNum Dquat[9], mjtNum Dvel[9],
                       mjtNum Dscale[3]) {
  // scaled velocity s, its cross-product matrix (transposed) and outer product
  mjtNum s[3] = {scale * vel[0], scale * vel[1], scale * vel[2]};
  static const mjtNum eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  mjtNum cross[9] = {0, s[2], -s[1], -s[2], 0, s[0], s[1], -s[0], 0};
  mjtNum outer[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      outer[3 * i + j] = s[i] * s[j];
    }
  }

  // coefficients cos(x), sin(x)/x, (1-cos(x))/x^2, (x-sin(x))/x^3, series for small x
  mjtNum xx = mju_dot3(s, s);
  mjtNum x = sqrt(xx);
  mjtNum a = cos(x), b, c, d;
  if (fabs(x) > 1.0 / 32) {
    b = sin(x) / x;
    c = (1.0 - a) / xx;
    d = (1.0 - b) / xx;
  } else {
    b = 1 + xx / 6 * (xx / 20 * (1 - xx / 42) - 1);
    c = (1 + xx / 12 * (xx / 30 * (1 - xx / 56) - 1)) / 2;
    d = (1 + xx / 20 * (xx / 42 * (1 - xx / 72) - 1)) / 6;
  }

  // Dquat = a I + b C + c O;  Dvel = b I + c C + d O;  Dscale = Dvel * vel
  mjtNum dv[9];
  for (int i = 0; i < 9; i++) {
    if (Dquat) {
      Dquat[i] = a * eye[i] + b * cross[i] + c * outer[i];
    }
    dv[i] = b * eye[i] + c * cross[i] + d * outer[i];
  }
  if (Dvel) {
    mju_copy(Dvel, dv, 9);
  }
  if (Dscale) {
    mju_mulMatVec3(Dscale, dv, vel);
  }
}
