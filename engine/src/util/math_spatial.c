/* util/math_spatial.c — 6D spatial algebra in the com-based frame.
 *
 * Motion and force vectors are ordered (rotational, translational). cinert holds a body's
 * spatial inertia about a point in 10 numbers: (Ixx, Iyy, Izz, Ixy, Ixz, Iyz, m*dx, m*dy,
 * m*dz, m), with d the body com minus that point, all in the global frame. These are the
 * building blocks of mj_comPos, mj_crb, mj_rne and mj_comVel. */
#include <torsion/torsion.h>
#include "util/util_inline.h"

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
