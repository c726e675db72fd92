/* util/math_spatial.c — 6D spatial algebra in the com-based frame.
 *
 * Motion and force vectors are ordered (rotational, translational). cinert holds a body's
 * spatial inertia about a point in 10 numbers: (Ixx, Iyy, Izz, Ixy, Ixz, Iyz, m*dx, m*dy,
 * m*dz, m), with d the body com minus that point, all in the global frame. These are the
 * building blocks of mj_comPos, mj_crb, mj_rne and mj_comVel. */
#include <torsion/torsion.h>
#include "util/util_inline.h"

/* shift a motion (flg_force=0) or force (1) vector from oldpos to newpos, then rotate it by
 * rotnew2old' when given; res may alias vec (the shifted vector is kept in a local) */
void mju_transformSpatial(mjtNum res[6], const mjtNum vec[6], int flg_force,
                          const mjtNum newpos[3], const mjtNum oldpos[3],
                          const mjtNum rotnew2old[9]) {
  mjtNum cof[3], tran[3], shifted[6];
  mju_sub3(cof, newpos, oldpos);

  // force: torque changes by -cof x force
  if (flg_force) {
    mju_cross(tran, cof, vec + 3);
    mju_sub3(shifted, vec, tran);
    mju_copy3(shifted + 3, vec + 3);
  }

  // motion: linear velocity changes by -cof x angular velocity
  else {
    mju_cross(tran, cof, vec);
    mju_copy3(shifted, vec);
    mju_sub3(shifted + 3, vec + 3, tran);
  }

  // rotate both halves into the new frame, or copy
  if (rotnew2old) {
    mju_mulMatTVec3(res, rotnew2old, shifted);
    mju_mulMatTVec3(res + 3, rotnew2old, shifted + 3);
  } else {
    mju_copy(res, shifted, 6);
  }
}

/* cinert from principal inertia, body orientation mat, offset dif = com - point, mass */
void tn_inertCom(mjtNum res[10], const mjtNum inert[3], const mjtNum mat[9], const mjtNum dif[3],
                 mjtNum mass) {
  // rotated inertia: mat * (diag(inert) * mat'), entry (r,c) = sum_k mat_rk (mat_ck inert_k)
  const mjtNum* r0 = mat;
  const mjtNum* r1 = mat + 3;
  const mjtNum* r2 = mat + 6;
  res[0] = r0[0] * (r0[0] * inert[0]) + r0[1] * (r0[1] * inert[1]) + r0[2] * (r0[2] * inert[2]);
  res[1] = r1[0] * (r1[0] * inert[0]) + r1[1] * (r1[1] * inert[1]) + r1[2] * (r1[2] * inert[2]);
  res[2] = r2[0] * (r2[0] * inert[0]) + r2[1] * (r2[1] * inert[1]) + r2[2] * (r2[2] * inert[2]);
  res[3] = r0[0] * (r1[0] * inert[0]) + r0[1] * (r1[1] * inert[1]) + r0[2] * (r1[2] * inert[2]);
  res[4] = r0[0] * (r2[0] * inert[0]) + r0[1] * (r2[1] * inert[1]) + r0[2] * (r2[2] * inert[2]);
  res[5] = r1[0] * (r2[0] * inert[0]) + r1[1] * (r2[1] * inert[1]) + r1[2] * (r2[2] * inert[2]);

  // parallel-axis term: mass * (|dif|^2 Id - dif dif')
  res[0] += mass * (dif[1] * dif[1] + dif[2] * dif[2]);
  res[1] += mass * (dif[0] * dif[0] + dif[2] * dif[2]);
  res[2] += mass * (dif[0] * dif[0] + dif[1] * dif[1]);
  res[3] -= mass * dif[0] * dif[1];
  res[4] -= mass * dif[0] * dif[2];
  res[5] -= mass * dif[1] * dif[2];

  // first moment and mass
  mju_scl3(res + 6, dif, mass);
  res[9] = mass;
}

/* com-based motion of a dof: rotational (offset given) or translational (offset NULL) */
void tn_dofCom(mjtNum res[6], const mjtNum axis[3], const mjtNum offset[3]) {
  // rotation about axis through a point offset from the com
  if (offset) {
    mju_copy3(res, axis);
    mju_cross(res + 3, axis, offset);
  }

  // translation along axis
  else {
    mju_zero3(res);
    mju_copy3(res + 3, axis);
  }
}

/* res (6) = sum over n consecutive 6D dof motions scaled by vec */
void tn_mulDofVec(mjtNum* res, const mjtNum* dof, const mjtNum* vec, int n) {
  // no dofs: zero
  if (n <= 0) {
    mju_zero(res, 6);
    return;
  }

  // first dof sets, the rest accumulate
  mju_scl(res, dof, vec[0], 6);
  for (int i = 1; i < n; i++) {
    mju_addToScl(res, dof + 6 * i, vec[i], 6);
  }
}
