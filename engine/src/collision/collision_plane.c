/* collision/collision_plane.c — a plane (always g1) against sphere, capsule, cylinder, box
 * and any convex geom with a support function (ellipsoid, mesh).
 *
 * The plane is infinite: its normal is the z axis of its frame, and every contact normal is
 * that axis. Each contact point sits halfway between the geom's surface point and the plane.
 * Contact counts and their order follow MuJoCo: capsule up to 2 (the two end spheres),
 * box up to 4 (corners facing the plane, in corner-index order), cylinder up to 4 (the
 * deepest rim point, the other disk's deepest rim point, then the near disk's points at
 * +-120 degrees), ellipsoid 1 (support point), mesh up to 4, as MuJoCo 3.14: the support
 * vertex (a fresh hill climb from mesh_extrema), then corners of the hull polygon through
 * it whose normal points most against the plane (mesh_poly*, built by the compiler): the
 * next three going round a triangle or quad, or the three that with the support vertex span
 * the largest quadrilateral of a larger polygon; a corner counts when within the margin and
 * not above the mesh centre along the plane normal. Per-call work is bounded by the
 * polygon's size and the climb, never the mesh's vertex count. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_support.h"

/* plane geometry: unit normal and signed distance of point p above the plane */
static mjtNum plane_dist(const mjData* d, int gp, const mjtNum p[3], mjtNum normal[3]) {
  mjtNum dif[3];
  mat_col(normal, d->geom_xmat + 9 * gp, 2);
  mju_sub3(dif, p, d->geom_xpos + 3 * gp);
  return mju_dot3(dif, normal);
}

/* add a contact at surface point p with distance dist if within margin */
static int add_point(mjContact* con, const mjtNum p[3], mjtNum dist, const mjtNum normal[3],
                     const mjtNum hint[3], mjtNum margin) {
  mjtNum pos[3];
  if (dist > margin) {
    return 0;
  }
  mju_addScl3(pos, p, normal, -dist / 2);
  set_contact(con, dist, pos, normal, hint);
  return 1;
}

/* plane - sphere */
int tn__collidePlaneSphere(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                           mjtNum margin) {
  mjtNum normal[3], pos[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  mjtNum radius = m->geom_size[3 * g2];
  mjtNum dist = plane_dist(d, g1, center, normal) - radius;
  if (dist > margin) {
    return 0;
  }

  // halfway between the sphere's lowest point and the plane
  mju_addScl3(pos, center, normal, -radius - dist / 2);
  set_contact(con, dist, pos, normal, NULL);
  return 1;
}

/* plane - capsule: the two end spheres, the capsule axis as tangent hint */
int tn__collidePlaneCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                            mjtNum margin) {
  mjtNum normal[3], axis[3], end[3], pos[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  mjtNum radius = m->geom_size[3 * g2], half = m->geom_size[3 * g2 + 1];
  mat_col(axis, d->geom_xmat + 9 * g2, 2);

  // end at +axis first, then -axis
  int n = 0;
  for (int side = 1; side >= -1; side -= 2) {
    mju_addScl3(end, center, axis, side * half);
    mjtNum dist = plane_dist(d, g1, end, normal) - radius;
    if (dist <= margin) {
      mju_addScl3(pos, end, normal, -radius - dist / 2);
      set_contact(con + n, dist, pos, normal, axis);
      n++;
    }
  }
  return n;
}

/* plane - box: corners on the plane side of the box center, within margin, at most 4 */
int tn__collidePlaneBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                        mjtNum margin) {
  mjtNum normal[3], local[3], corner[3], p[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  const mjtNum* size = m->geom_size + 3 * g2;
  mjtNum dist = plane_dist(d, g1, center, normal);

  // corners in index order: bit 0 x, bit 1 y, bit 2 z, set bit = positive side
  int n = 0;
  for (int i = 0; i < 8 && n < 4; i++) {
    local[0] = (i & 1) ? size[0] : -size[0];
    local[1] = (i & 2) ? size[1] : -size[1];
    local[2] = (i & 4) ? size[2] : -size[2];
    mju_mulMatVec3(corner, mat, local);

    // skip corners above the center or beyond the margin
    mjtNum ldist = mju_dot3(normal, corner);
    if (dist + ldist > margin || ldist > 0) {
      continue;
    }
    mju_add3(p, center, corner);
    n += add_point(con + n, p, dist + ldist, normal, NULL, margin);
  }
  return n;
}

/* plane - cylinder: deepest rim point, far disk's deepest point, near disk's +-120 deg */
int tn__collidePlaneCylinder(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                             mjtNum margin) {
  mjtNum normal[3], axis[3], radial[3], side[3], near[3], p[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  mjtNum radius = m->geom_size[3 * g2], half = m->geom_size[3 * g2 + 1];
  mjtNum dist = plane_dist(d, g1, center, normal);
  mat_col(axis, mat, 2);

  // axis pointing away from the plane; the near disk is at -axis*half
  mjtNum prj = mju_dot3(axis, normal);
  if (prj < 0) {
    mju_scl3(axis, axis, -1);
    prj = -prj;
  }

  // radial direction of the deepest rim point: minus the normal's in-disk component
  mju_addScl3(radial, normal, axis, -prj);
  mjtNum len = mju_norm3(radial);
  if (len < mjMINVAL) {
    mat_col(radial, mat, 0);
  } else {
    mju_scl3(radial, radial, -1 / len);
  }

  // deepest point of the near disk
  int n = 0;
  mju_addScl3(near, center, axis, -half);
  mju_addScl3(p, near, radial, radius);
  n += add_point(con + n, p, dist + mju_dot3(normal, p) - mju_dot3(normal, center), normal, NULL,
                 margin);

  // deepest point of the far disk
  mju_addScl3(p, center, axis, half);
  mju_addToScl3(p, radial, radius);
  n += add_point(con + n, p, dist + mju_dot3(normal, p) - mju_dot3(normal, center), normal, NULL,
                 margin);

  // near-disk points at +120 and -120 degrees from the deepest one (about the axis)
  mju_cross(side, axis, radial);
  for (int s = 1; s >= -1; s -= 2) {
    mju_addScl3(p, near, radial, -0.5 * radius);
    mju_addToScl3(p, side, s * radius * sqrt(3.0) / 2);
    n += add_point(con + n, p, dist + mju_dot3(normal, p) - mju_dot3(normal, center), normal, NULL,
                   margin);
  }
  return n;
}

/* area of the quadrilateral with diagonals a-c and b-d (points given as float vertices) */
static mjtNum quad_area(const float* a, const float* b, const float* c, const float* d) {
  mjtNum u[3], w[3], x[3];
  for (int k = 0; k < 3; k++) {
    u[k] = (mjtNum)a[k] - (mjtNum)c[k];
    w[k] = (mjtNum)b[k] - (mjtNum)d[k];
  }
  mju_cross(x, u, w);
  return 0.5 * mju_norm3(x);
}

/* positions in `poly` (n > 4 vertices, local ids) of three more corners to go with the
 * corner at i0: starting from the next three, grow the quadrilateral i0-a-b-c while moving
 * c forward enlarges it, each time moving b and then a forward as long as that enlarges
 * it further (MuJoCo's search; n bounds each walk only as a guard) */
static void largest_quad(int sel[3], const int* poly, int n, int i0, const float* vert) {
  int a = (i0 + 1) % n, b = (i0 + 2) % n, c = (i0 + 3) % n;
#define V(i) (vert + 3 * poly[i])
  mjtNum area = quad_area(V(i0), V(a), V(b), V(c));
  for (int outer = 0; outer < n; outer++) {
    int c2 = (c + 1) % n;
    mjtNum grown = quad_area(V(i0), V(a), V(b), V(c2));
    if (area >= grown) {
      break;
    }
    c = c2;
    area = grown;
    for (int k = 0; k < n; k++) {
      int b2 = (b + 1) % n;
      mjtNum next = quad_area(V(i0), V(a), V(b2), V(c));
      if (!(area < next)) {
        break;
      }
      b = b2;
      area = next;
    }
    for (int k = 0; k < n; k++) {
      int a2 = (a + 1) % n;
      mjtNum next = quad_area(V(i0), V(a2), V(b), V(c));
      if (!(area < next)) {
        break;
      }
      a = a2;
      area = next;
    }
  }
#undef V
  sel[0] = a;
  sel[1] = b;
  sel[2] = c;
}

/* contacts after the first for a mesh whose support vertex is v0 (mesh vertex id): the
 * corners of the hull polygon through v0 that faces the plane most (local plane normal
 * nl): the next three around it, or for larger polygons the three that with v0 span the
 * largest quadrilateral; each kept when within the margin and not above the mesh centre */
static int polygon_contacts(const mjModel* m, const mjData* d, mjContact* con, int gp, int gm,
                            int v0, const mjtNum normal[3], mjtNum margin) {
  int mesh = m->geom_dataid[gm], vadr = m->mesh_vertadr[mesh];
  int npoly = m->mesh_polymapnum[vadr + v0], padr = m->mesh_polyadr[mesh];
  const int* polymap = m->mesh_polymap + m->mesh_polymapadr[vadr + v0];
  const mjtNum* mat = d->geom_xmat + 9 * gm;
  const mjtNum* pos = d->geom_xpos + 3 * gm;
  const float* vert = m->mesh_vert + 3 * vadr;
  if (!m->mesh_polynum[mesh] || npoly <= 0) {
    return 0;
  }

  // the polygon through v0 whose normal points most against the plane's
  mjtNum nl[3], bestdot = 1;
  int best = -1;
  mju_mulMatTVec3(nl, mat, normal);
  for (int i = 0; i < npoly; i++) {
    mjtNum dot = mju_dot3(m->mesh_polynormal + 3 * (padr + polymap[i]), nl);
    if (bestdot > dot) {
      bestdot = dot;
      best = polymap[i];
    }
  }
  if (best < 0) {
    return 0;
  }
  const int* poly = m->mesh_polyvert + m->mesh_polyvertadr[padr + best];
  int n = m->mesh_polyvertnum[padr + best], i0 = 0;
  while (i0 < n && poly[i0] != v0) {
    i0++;
  }
  i0 = i0 < n ? i0 : 0;

  // the corners to try: the next ones around, or the largest quadrilateral's
  if (n < 2) {
    return 0;
  }
  int sel[3] = {(i0 + 1) % n, (i0 + 2) % n, (i0 + 3) % n}, nsel = n - 1;
  if (n > 4) {
    largest_quad(sel, poly, n, i0, vert);
    nsel = 3;
  }

  // a contact halfway between each corner and the plane, if near enough and not above
  // the centre of the mesh
  int ncon = 0;
  for (int i = 0; i < nsel; i++) {
    const float* f = vert + 3 * poly[sel[i]];
    mjtNum local[3] = {f[0], f[1], f[2]}, p[3], rel[3], unused[3];
    mju_mulMatVec3(p, mat, local);
    mju_addTo3(p, pos);
    mjtNum dist = plane_dist(d, gp, p, unused);
    mju_sub3(rel, p, pos);
    if (dist > margin || mju_dot3(normal, rel) > 0) {
      continue;
    }
    ncon += add_point(con + ncon, p, dist, normal, NULL, margin);
  }
  return ncon;
}

/* plane - convex geom (ellipsoid, mesh): the support point against the plane normal, and
 * for a mesh the corners of its hull polygon facing the plane */
int tn__collidePlaneConvex(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                           mjtNum margin) {
  mjtNum normal[3], down[3], p[3];
  int vertex;
  plane_dist(d, g1, d->geom_xpos + 3 * g2, normal);
  mju_scl3(down, normal, -1);
  tn__supportFresh(p, &vertex, m, d, g2, down);
  if (!add_point(con, p, plane_dist(d, g1, p, normal), normal, NULL, margin)) {
    return 0;
  }
  if (vertex < 0) {
    return 1;
  }
  return 1 + polygon_contacts(m, d, con + 1, g1, g2, vertex, normal, margin);
}
