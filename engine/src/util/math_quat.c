/* util/math_quat.c — quaternions (w, x, y, z), rotation matrices and poses.
 *
 * Unit quaternions represent orientations; products are Hamilton products, q1*q2 applies q2
 * first in q1's frame. Rotation matrices are 3x3 row-major. A pose is a position plus a
 * quaternion; mulPose composes frames, negPose inverts one. */
#include <math.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* res = conjugate of quat */
void mju_negQuat(mjtNum res[4], const mjtNum quat[4]) {
  res[0] = quat[0];
  res[1] = -quat[1];
  res[2] = -quat[2];
  res[3] = -quat[3];
}

/* res = quat * (0, axis) */
void mju_mulQuatAxis(mjtNum res[4], const mjtNum quat[4], const mjtNum axis[3]) {
  mjtNum w = -quat[1] * axis[0] - quat[2] * axis[1] - quat[3] * axis[2];
  mjtNum x = quat[0] * axis[0] + quat[2] * axis[2] - quat[3] * axis[1];
  mjtNum y = quat[0] * axis[1] + quat[3] * axis[0] - quat[1] * axis[2];
  mjtNum z = quat[0] * axis[2] + quat[1] * axis[1] - quat[2] * axis[0];
  res[0] = w;
  res[1] = x;
  res[2] = y;
  res[3] = z;
}

/* angular velocity that rotates by quat in time dt (angle wrapped to (-pi, pi]) */
void mju_quat2Vel(mjtNum res[3], const mjtNum quat[4], mjtNum dt) {
  mjtNum axis[3] = {quat[1], quat[2], quat[3]};
  mjtNum sin_half = mju_normalize3(axis);

  // rotation angle, wrapped
  mjtNum speed = 2 * atan2(sin_half, quat[0]);
  if (speed > mjPI) {
    speed -= 2 * mjPI;
  }
  speed /= dt;

  mju_scl3(res, axis, speed);
}

/* res = velocity taking qb to qa in unit time: quat2Vel(neg(qb) * qa, 1) */
void mju_subQuat(mjtNum res[3], const mjtNum qa[4], const mjtNum qb[4]) {
  mjtNum qneg[4], qdif[4];
  mju_negQuat(qneg, qb);
  mju_mulQuat(qdif, qneg, qa);
  mju_quat2Vel(res, qdif, 1);
}

/* unit quaternion of a rotation matrix (branch on the largest component), normalized */
void mju_mat2Quat(mjtNum quat[4], const mjtNum mat[9]) {
  // w largest
  if (mat[0] + mat[4] + mat[8] > 0) {
    quat[0] = 0.5 * sqrt(1 + mat[0] + mat[4] + mat[8]);
    quat[1] = 0.25 * (mat[7] - mat[5]) / quat[0];
    quat[2] = 0.25 * (mat[2] - mat[6]) / quat[0];
    quat[3] = 0.25 * (mat[3] - mat[1]) / quat[0];
  }

  // x largest
  else if (mat[0] > mat[4] && mat[0] > mat[8]) {
    quat[1] = 0.5 * sqrt(1 + mat[0] - mat[4] - mat[8]);
    quat[0] = 0.25 * (mat[7] - mat[5]) / quat[1];
    quat[2] = 0.25 * (mat[1] + mat[3]) / quat[1];
    quat[3] = 0.25 * (mat[2] + mat[6]) / quat[1];
  }

  // y largest
  else if (mat[4] > mat[8]) {
    quat[2] = 0.5 * sqrt(1 - mat[0] + mat[4] - mat[8]);
    quat[0] = 0.25 * (mat[2] - mat[6]) / quat[2];
    quat[1] = 0.25 * (mat[1] + mat[3]) / quat[2];
    quat[3] = 0.25 * (mat[5] + mat[7]) / quat[2];
  }

  // z largest
  else {
    quat[3] = 0.5 * sqrt(1 - mat[0] - mat[4] + mat[8]);
    quat[0] = 0.25 * (mat[3] - mat[1]) / quat[3];
    quat[1] = 0.25 * (mat[2] + mat[6]) / quat[3];
    quat[2] = 0.25 * (mat[5] + mat[7]) / quat[3];
  }

  mju_normalize4(quat);
}

/* res = time derivative of quat for angular velocity vel: 0.5 * (0, vel) * quat (velocity on
 * the left, as MuJoCo 3.14 computes it; verified bit for bit) */
void mju_derivQuat(mjtNum res[4], const mjtNum quat[4], const mjtNum vel[3]) {
  mjtNum w = 0.5 * (-vel[0] * quat[1] - vel[1] * quat[2] - vel[2] * quat[3]);
  mjtNum x = 0.5 * (vel[0] * quat[0] + vel[1] * quat[3] - vel[2] * quat[2]);
  mjtNum y = 0.5 * (-vel[0] * quat[3] + vel[1] * quat[0] + vel[2] * quat[1]);
  mjtNum z = 0.5 * (vel[0] * quat[2] - vel[1] * quat[1] + vel[2] * quat[0]);
  res[0] = w;
  res[1] = x;
  res[2] = y;
  res[3] = z;
}

/* integrate quat (normalized first) by local angular velocity vel over time scale, then
 * normalize */
void mju_quatIntegrate(mjtNum quat[4], const mjtNum vel[3], mjtNum scale) {
  mjtNum axis[3] = {vel[0], vel[1], vel[2]};
  mjtNum qrot[4];

  // rotation by |vel|*scale about vel's direction
  mjtNum angle = scale * mju_normalize3(axis);
  mju_axisAngle2Quat(qrot, axis, angle);

  // apply in the local frame to the normalized quaternion
  mju_normalize4(quat);
  mju_mulQuat(quat, quat, qrot);
  mju_normalize4(quat);
}

/* minimal rotation taking the z axis to vec */
void mju_quatZ2Vec(mjtNum quat[4], const mjtNum vec[3]) {
  static const mjtNum z[3] = {0, 0, 1};
  mjtNum dir[3] = {vec[0], vec[1], vec[2]};
  mjtNum axis[3];
  mju_unit4(quat);

  // direction of vec; a zero vector gives the identity
  if (mju_normalize3(dir) < mjMINVAL) {
    return;
  }

  // rotation axis z x dir
  mju_cross(axis, z, dir);
  mjtNum s = mju_normalize3(axis);

  // parallel or antiparallel: identity or half turn about x
  if (s < mjMINVAL) {
    if (dir[2] < 0) {
      quat[0] = 0;
      quat[1] = 1;
    }
    return;
  }

  // rotate by the angle between z and dir
  mju_axisAngle2Quat(quat, axis, atan2(s, dir[2]));
}

/* compose poses: pos = pos1 + rot(quat1) pos2, quat = quat1 * quat2 */
void mju_mulPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos1[3],
                 const mjtNum quat1[4], const mjtNum pos2[3], const mjtNum quat2[4]) {
  mjtNum q[4], p[3];
  mju_mulQuat(q, quat1, quat2);
  mju_normalize4(q);
  mju_rotVecQuat(p, pos2, quat1);
  mju_add3(posres, p, pos1);
  mju_copy4(quatres, q);
}

/* invert a pose: quat = neg(quat), pos = -rot(neg(quat)) pos */
void mju_negPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos[3],
                 const mjtNum quat[4]) {
  mjtNum q[4];
  mju_negQuat(q, quat);
  mju_rotVecQuat(posres, pos, q);
  mju_scl3(posres, posres, -1);
  mju_copy4(quatres, q);
}

/* res = pos + rot(quat) vec */
void mju_trnVecPose(mjtNum res[3], const mjtNum pos[3], const mjtNum quat[4],
                    const mjtNum vec[3]) {
  mjtNum p[3];
  mju_rotVecQuat(p, vec, quat);
  mju_add3(res, p, pos);
}
