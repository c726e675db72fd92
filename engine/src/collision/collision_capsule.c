/* collision/collision_capsule.c — capsule against capsule.
 *
 * Two capsules collide like two spheres placed at the closest points of their segments.
 * When the segments are parallel the closest points are not unique, and MuJoCo's answer is
 * kept: the ends of segment 1 (+ then -) against segment 2, then the ends of segment 2
 * against segment 1, stopping at two contacts — a line contact gets one at each end. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"

/* sphere at `p1` (radius r1) against the closest point of segment c2 + t*axis2 */
static int end_against_segment(mjContact* con, const mjtNum p1[3], mjtNum r1, const mjtNum c2[3],
                               const mjtNum axis2[3], mjtNum r2, mjtNum margin, int swap) {
  mjtNum closest[3];
  tn__closestOnSegment(closest, p1, c2, axis2);
  if (swap) {
    return tn__sphereSphere(con, closest, r2, p1, r1, margin);
  }
  return tn__sphereSphere(con, p1, r1, closest, r2, margin);
}

/* capsule - capsule */
int tn__collideCapsuleCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                              mjtNum margin) {
  mjtNum axis1[3], axis2[3], dif[3], p1[3], p2[3];
  const mjtNum* c1 = d->geom_xpos + 3 * g1;
  const mjtNum* c2 = d->geom_xpos + 3 * g2;
  mjtNum r1 = m->geom_size[3 * g1], r2 = m->geom_size[3 * g2];

  // half-axes (segment = center +- axis)
  mat_col(axis1, d->geom_xmat + 9 * g1, 2);
  mat_col(axis2, d->geom_xmat + 9 * g2, 2);
  mju_scl3(axis1, axis1, m->geom_size[3 * g1 + 1]);
  mju_scl3(axis2, axis2, m->geom_size[3 * g2 + 1]);
  mju_sub3(dif, c1, c2);

  // normal equations of min |c1 + x1*axis1 - c2 - x2*axis2|
  mjtNum ma = mju_dot3(axis1, axis1), mb = -mju_dot3(axis1, axis2);
  mjtNum mc = mju_dot3(axis2, axis2);
  mjtNum u = -mju_dot3(axis1, dif), v = mju_dot3(axis2, dif);
  mjtNum det = ma * mc - mb * mb;

  // general position: unconstrained optimum, clamped to the segments
  if (fabs(det) >= mjMINVAL) {
    mjtNum x1 = (mc * u - mb * v) / det, x2 = (ma * v - mb * u) / det;
    if (x1 > 1) {
      x1 = 1;
      x2 = (v - mb) / mc;
    } else if (x1 < -1) {
      x1 = -1;
      x2 = (v + mb) / mc;
    }
    if (x2 > 1) {
      x2 = 1;
      x1 = mju_clip((u - mb) / ma, -1, 1);
    } else if (x2 < -1) {
      x2 = -1;
      x1 = mju_clip((u + mb) / ma, -1, 1);
    }
    mju_addScl3(p1, c1, axis1, x1);
    mju_addScl3(p2, c2, axis2, x2);

    // crossing segments: the normal is perpendicular to both axes
    mju_sub3(dif, p2, p1);
    if (mju_norm3(dif) < mjMINVAL) {
      mjtNum normal[3], pos[3];
      mju_cross(normal, axis1, axis2);
      mju_normalize3(normal);
      mjtNum dist = -r1 - r2;
      if (dist > margin) {
        return 0;
      }
      mju_addScl3(pos, p1, normal, r1 + dist / 2);
      set_contact(con, dist, pos, normal, NULL);
      return 1;
    }
    return tn__sphereSphere(con, p1, r1, p2, r2, margin);
  }

  // parallel: ends of capsule 1, then ends of capsule 2, at most two contacts
  int n = 0;
  for (int s = 1; s >= -1 && n < 2; s -= 2) {
    mju_addScl3(p1, c1, axis1, s);
    n += end_against_segment(con + n, p1, r1, c2, axis2, r2, margin, 0);
  }
  for (int s = 1; s >= -1 && n < 2; s -= 2) {
    mju_addScl3(p2, c2, axis2, s);
    n += end_against_segment(con + n, p2, r2, c1, axis1, r1, margin, 1);
  }
  return n;
}
