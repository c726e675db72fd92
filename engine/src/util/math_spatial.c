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
