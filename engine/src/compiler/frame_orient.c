/* compiler/frame_orient.c — MJCF orientations and fromto frames.
 *
 * Every MJCF element with a frame can give its orientation as quat, axisangle, euler,
 * xyaxes or zaxis; geoms and sites can instead give a segment (fromto). These helpers turn
 * each form into a unit quaternion exactly as MuJoCo's compiler does (checked against
 * MuJoCo 3.14), so compiled frames match MuJoCo's to the last bit where possible. */
#include <math.h>
#include <stdio.h>

#include "compiler/compile_helpers.h"

/* vectors shorter than this cannot define a direction */
#define ORIENT_MINLEN 1E-14

/* below this |axis x z| the minimal rotation from +z is taken about x */
#define ORIENT_Z2VEC_EPS 1E-10

/* write a formatted reason into err (if given) and return 0 */
static int orient_fail(char* err, int errsz, const char* msg) {
  if (err && errsz > 0) {
    snprintf(err, (size_t)errsz, "%s", msg);
  }
  return 0;
}

/* normalize an n-vector in place as MuJoCo's compiler does; returns its length, 0 (vector
 * unchanged) when the squared length is below TN_COMPILER_EPS; a length within it of 1 is left
 * as it is (so values round as in MuJoCo) */
mjtNum tn__normVec(mjtNum* v, int n) {
  mjtNum sq = 0;
  for (int i = 0; i < n; i++) {
    sq += v[i] * v[i];
  }
  if (sq < TN_COMPILER_EPS) {
    return 0;
  }
  mjtNum len = sqrt(sq);
  if (fabs(len - 1) > TN_COMPILER_EPS) {
    for (int i = 0; i < n; i++) {
      v[i] /= len;
    }
  }
  return len;
}

/* normalize a 3-vector in place; returns its length before normalization */
static mjtNum orient_norm3(mjtNum v[3]) {
  return tn__normVec(v, 3);
}

/* normalize a quaternion in place; returns its length before normalization */
static mjtNum orient_norm4(mjtNum q[4]) {
  return tn__normVec(q, 4);
}

/* angle in radians from compiler units */
static mjtNum orient_angle(mjtNum a, int degree) {
  return degree ? a / 180.0 * mjPI : a;
}

/* quaternion of the frame whose axes (columns of the rotation) are x, y, z */
static void orient_frame2quat(mjtNum q[4], const mjtNum x[3], const mjtNum y[3],
                              const mjtNum z[3]) {
  // R[r][c] is component r of axis c; branch on the largest quaternion component
  if (x[0] + y[1] + z[2] > 0) {
    q[0] = 0.5 * sqrt(1 + x[0] + y[1] + z[2]);
    q[1] = 0.25 * (y[2] - z[1]) / q[0];
    q[2] = 0.25 * (z[0] - x[2]) / q[0];
    q[3] = 0.25 * (x[1] - y[0]) / q[0];
  } else if (x[0] > y[1] && x[0] > z[2]) {
    q[1] = 0.5 * sqrt(1 + x[0] - y[1] - z[2]);
    q[0] = 0.25 * (y[2] - z[1]) / q[1];
    q[2] = 0.25 * (y[0] + x[1]) / q[1];
    q[3] = 0.25 * (z[0] + x[2]) / q[1];
  } else if (y[1] > z[2]) {
    q[2] = 0.5 * sqrt(1 - x[0] + y[1] - z[2]);
    q[0] = 0.25 * (z[0] - x[2]) / q[2];
    q[1] = 0.25 * (y[0] + x[1]) / q[2];
    q[3] = 0.25 * (z[1] + y[2]) / q[2];
  } else {
    q[3] = 0.5 * sqrt(1 - x[0] - y[1] + z[2]);
    q[0] = 0.25 * (x[1] - y[0]) / q[3];
    q[1] = 0.25 * (z[0] + x[2]) / q[3];
    q[2] = 0.25 * (z[1] + y[2]) / q[3];
  }
}

/* minimal rotation taking +z to the unit vector vec */
static void orient_z2quat(mjtNum q[4], const mjtNum vec[3]) {
  // rotation axis z x vec (normalized), about x when vec is (anti)parallel to z
  mjtNum axis[3] = {0 * vec[2] - 1 * vec[1], 1 * vec[0] - 0 * vec[2], 0 * vec[1] - 0 * vec[0]};
  mjtNum s = tn__normVec(axis, 3);
  if (s < ORIENT_Z2VEC_EPS) {
    axis[0] = 1, axis[1] = 0, axis[2] = 0;
  }

  // angle between z and vec
  mjtNum half = atan2(s, vec[2]) / 2;
  q[0] = cos(half);
  q[1] = axis[0] * sin(half);
  q[2] = axis[1] * sin(half);
  q[3] = axis[2] * sin(half);
}

/* quaternion product res = a * b (res may alias a or b) */
static void orient_mulquat(mjtNum res[4], const mjtNum a[4], const mjtNum b[4]) {
  mjtNum r0 = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  mjtNum r1 = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  mjtNum r2 = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  mjtNum r3 = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  res[0] = r0, res[1] = r1, res[2] = r2, res[3] = r3;
}

/* euler angles: lowercase axes rotate with the frame, uppercase stay fixed */
static int orient_euler(mjtNum q[4], const mjtNum ang[3], int degree, const char seq[3],
                        char* err, int errsz) {
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  for (int i = 0; i < 3; i++) {
    // elementary rotation about the i-th axis of the sequence
    mjtNum half = 0.5 * orient_angle(ang[i], degree);
    mjtNum rot[4] = {cos(half), 0, 0, 0};
    char ax = seq[i];
    int k = (ax == 'x' || ax == 'X') ? 0 : (ax == 'y' || ax == 'Y') ? 1
          : (ax == 'z' || ax == 'Z') ? 2 : -1;
    if (k < 0) {
      return orient_fail(err, errsz, "eulerseq must contain only x, y, z, X, Y, Z");
    }
    rot[k + 1] = sin(half);

    // intrinsic: post-multiply; extrinsic: pre-multiply
    if (ax >= 'a') {
      orient_mulquat(q, q, rot);
    } else {
      orient_mulquat(q, rot, q);
    }
  }
  return 1;
}

/* xyaxes: x normalized, y orthogonalized against x, z = x cross y */
static int orient_xyaxes(mjtNum q[4], const mjtNum v[6], char* err, int errsz) {
  mjtNum x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3];
  if (orient_norm3(x) < ORIENT_MINLEN) {
    return orient_fail(err, errsz, "xaxis too small");
  }
  mjtNum d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  y[0] -= d * x[0], y[1] -= d * x[1], y[2] -= d * x[2];
  if (orient_norm3(y) < ORIENT_MINLEN) {
    return orient_fail(err, errsz, "yaxis too small");
  }
  z[0] = x[1] * y[2] - x[2] * y[1];
  z[1] = x[2] * y[0] - x[0] * y[2];
  z[2] = x[0] * y[1] - x[1] * y[0];
  orient_frame2quat(q, x, y, z);
  return 1;
}

/* convert an MJCF orientation to a unit quaternion */
int tn__orientationToQuat(mjtNum quat[4], const tnOrientation* o, int degree,
                          const char eulerseq[3], char* err, int errsz) {
  switch (o->kind) {
    case TN_ORIENT_NONE:
      quat[0] = 1, quat[1] = quat[2] = quat[3] = 0;
      return 1;

    case TN_ORIENT_QUAT:
      for (int i = 0; i < 4; i++) {
        quat[i] = o->v[i];
      }
      if (orient_norm4(quat) < ORIENT_MINLEN) {
        return orient_fail(err, errsz, "quaternion is zero");
      }
      return 1;

    case TN_ORIENT_AXISANGLE: {
      mjtNum axis[3] = {o->v[0], o->v[1], o->v[2]};
      if (orient_norm3(axis) < ORIENT_MINLEN) {
        return orient_fail(err, errsz, "axisangle axis too small");
      }
      mjtNum half = 0.5 * orient_angle(o->v[3], degree);
      quat[0] = cos(half);
      quat[1] = axis[0] * sin(half);
      quat[2] = axis[1] * sin(half);
      quat[3] = axis[2] * sin(half);
      return 1;
    }

    case TN_ORIENT_EULER:
      return orient_euler(quat, o->v, degree, eulerseq, err, errsz);

    case TN_ORIENT_XYAXES:
      return orient_xyaxes(quat, o->v, err, errsz);

    case TN_ORIENT_ZAXIS: {
      mjtNum z[3] = {o->v[0], o->v[1], o->v[2]};
      if (orient_norm3(z) < ORIENT_MINLEN) {
        return orient_fail(err, errsz, "zaxis too small");
      }
      orient_z2quat(quat, z);
      return 1;
    }
  }
  return orient_fail(err, errsz, "unknown orientation kind");
}

/* frame of a geom or site given by fromto */
int tn__fromtoFrame(int geomtype, const mjtNum fromto[6], mjtNum pos[3], mjtNum quat[4],
                    mjtNum size[3], char* err, int errsz) {
  // only elongated primitives accept fromto
  if (geomtype != mjGEOM_CAPSULE && geomtype != mjGEOM_CYLINDER && geomtype != mjGEOM_BOX &&
      geomtype != mjGEOM_ELLIPSOID) {
    return orient_fail(err, errsz, "fromto requires capsule, cylinder, box or ellipsoid");
  }

  // segment direction (from minus to, as MuJoCo) and length
  mjtNum dir[3] = {fromto[0] - fromto[3], fromto[1] - fromto[4], fromto[2] - fromto[5]};
  mjtNum len = orient_norm3(dir);
  if (len < ORIENT_MINLEN) {
    return orient_fail(err, errsz, "fromto points too close");
  }

  // frame: midpoint, +z along the segment
  for (int i = 0; i < 3; i++) {
    pos[i] = 0.5 * (fromto[i] + fromto[i + 3]);
  }
  orient_z2quat(quat, dir);

  // half-length into the axial size
  if (geomtype == mjGEOM_CAPSULE || geomtype == mjGEOM_CYLINDER) {
    size[1] = 0.5 * len;
  } else {
    size[1] = size[0];
    size[2] = 0.5 * len;
  }
  return 1;
}
