/* collision/collision_plane.c — a plane (always g1) against sphere, capsule, cylinder, box
 * and any convex geom with a support function (ellipsoid, mesh).
 *
 * The plane is infinite: its normal is the z axis of its frame, and every contact normal is
 * that axis. Each contact point sits halfway between the geom's surface point and the plane.
 * Contact counts and their order follow MuJoCo: capsule up to 2 (the two end spheres),
 * box up to 4 (corners facing the plane, in corner-index order), cylinder up to 4 (the
 * deepest rim point, the other disk's deepest rim point, then the near disk's points at
 * +-120 degrees), ellipsoid 1 (support point), mesh up to 4 (the deepest vertices within
 * the margin, deepest first). */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_support.h"

/* plane geometry: unit normal and signed distance of point p above the plane */
static mjtNum planeDist(const mjData* d, int gp, const mjtNum p[3], mjtNum normal[3]) {
  mjtNum dif[3];
  tn_matCol(normal, d->geom_xmat + 9 * gp, 2);
  tnu_sub3(dif, p, d->geom_xpos + 3 * gp);
  return tnu_dot3(dif, normal);
}

/* add a contact at surface point p with distance dist if within margin */
static int addPoint(mjContact* con, const mjtNum p[3], mjtNum dist, const mjtNum normal[3],
                    const mjtNum hint[3], mjtNum margin) {
  mjtNum pos[3];
  if (dist > margin) {
    return 0;
  }
  tnu_addScl3(pos, p, normal, -dist / 2);
  tn_setContact(con, dist, pos, normal, hint);
  return 1;
}

/* plane - sphere */
int tn_collidePlaneSphere(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                          mjtNum margin) {
  mjtNum normal[3], pos[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  mjtNum radius = m->geom_size[3 * g2];
  mjtNum dist = planeDist(d, g1, center, normal) - radius;
  if (dist > margin) {
    return 0;
  }

  // halfway between the sphere's lowest point and the plane
  tnu_addScl3(pos, center, normal, -radius - dist / 2);
  tn_setContact(con, dist, pos, normal, NULL);
  return 1;
}

/* plane - capsule: the two end spheres, the capsule axis as tangent hint */
int tn_collidePlaneCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                           mjtNum margin) {
  mjtNum normal[3], axis[3], end[3], pos[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  mjtNum radius = m->geom_size[3 * g2], half = m->geom_size[3 * g2 + 1];
  tn_matCol(axis, d->geom_xmat + 9 * g2, 2);

  // end at +axis first, then -axis
  int n = 0;
  for (int side = 1; side >= -1; side -= 2) {
    tnu_addScl3(end, center, axis, side * half);
    mjtNum dist = planeDist(d, g1, end, normal) - radius;
    if (dist <= margin) {
      tnu_addScl3(pos, end, normal, -radius - dist / 2);
      tn_setContact(con + n, dist, pos, normal, axis);
      n++;
    }
  }
  return n;
}

/* plane - box: corners on the plane side of the box center, within margin, at most 4 */
int tn_collidePlaneBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  mjtNum normal[3], local[3], corner[3], p[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  const mjtNum* size = m->geom_size + 3 * g2;
  mjtNum dist = planeDist(d, g1, center, normal);

  // corners in index order: bit 0 x, bit 1 y, bit 2 z, set bit = positive side
  int n = 0;
  for (int i = 0; i < 8 && n < 4; i++) {
    local[0] = (i & 1) ? size[0] : -size[0];
    local[1] = (i & 2) ? size[1] : -size[1];
    local[2] = (i & 4) ? size[2] : -size[2];
    tnu_mulMatVec3(corner, mat, local);

    // skip corners above the center or beyond the margin
    mjtNum ldist = tnu_dot3(normal, corner);
    if (dist + ldist > margin || ldist > 0) {
      continue;
    }
    tnu_add3(p, center, corner);
    n += addPoint(con + n, p, dist + ldist, normal, NULL, margin);
  }
  return n;
}

/* plane - cylinder: deepest rim point, far disk's deepest point, near disk's +-120 deg */
int tn_collidePlaneCylinder(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                            mjtNum margin) {
  mjtNum normal[3], axis[3], radial[3], side[3], near[3], p[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  mjtNum radius = m->geom_size[3 * g2], half = m->geom_size[3 * g2 + 1];
  mjtNum dist = planeDist(d, g1, center, normal);
  tn_matCol(axis, mat, 2);

  // axis pointing away from the plane; the near disk is at -axis*half
  mjtNum prj = tnu_dot3(axis, normal);
  if (prj < 0) {
    tnu_scl3(axis, axis, -1);
    prj = -prj;
  }

  // radial direction of the deepest rim point: minus the normal's in-disk component
  tnu_addScl3(radial, normal, axis, -prj);
  mjtNum len = tnu_norm3(radial);
  if (len < mjMINVAL) {
    tn_matCol(radial, mat, 0);
  } else {
    tnu_scl3(radial, radial, -1 / len);
  }

  // deepest point of the near disk
  int n = 0;
  tnu_addScl3(near, center, axis, -half);
  tnu_addScl3(p, near, radial, radius);
  n += addPoint(con + n, p, dist + tnu_dot3(normal, p) - tnu_dot3(normal, center), normal, NULL,
                margin);

  // deepest point of the far disk
  tnu_addScl3(p, center, axis, half);
  tnu_addToScl3(p, radial, radius);
  n += addPoint(con + n, p, dist + tnu_dot3(normal, p) - tnu_dot3(normal, center), normal, NULL,
                margin);

  // near-disk points at +120 and -120 degrees from the deepest one (about the axis)
  tnu_cross(side, axis, radial);
  for (int s = 1; s >= -1; s -= 2) {
    tnu_addScl3(p, near, radial, -0.5 * radius);
    tnu_addToScl3(p, side, s * radius * sqrt(3.0) / 2);
    n += addPoint(con + n, p, dist + tnu_dot3(normal, p) - tnu_dot3(normal, center), normal, NULL,
                  margin);
  }
  return n;
}

/* plane - convex geom through its support function (ellipsoid, mesh) */
int tn_collidePlaneConvex(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                          mjtNum margin) {
  mjtNum normal[3], down[3], p[3];
  planeDist(d, g1, d->geom_xpos + 3 * g2, normal);
  tnu_scl3(down, normal, -1);

  // ellipsoid (and anything without vertices): the support point only
  if (m->geom_type[g2] != mjGEOM_MESH || m->geom_dataid[g2] < 0) {
    tn_supportGlobal(p, m, d, g2, down);
    return addPoint(con, p, planeDist(d, g1, p, normal), normal, NULL, margin);
  }

  // mesh: vertices within the margin, deepest first
  return tn_planeMesh(m, d, con, g1, g2, normal, margin);
}
