/* collision/collision_sphere.c — a sphere (always g1) against sphere, capsule, cylinder and
 * box, all analytic with one contact.
 *
 * Each reduces to the closest point of the other geom to the sphere center. When the center
 * lies inside the other geom, the contact goes through the nearest face (box: the face with
 * the smallest depth, x before y before z, a centre within mjMINVAL of the surface counting
 * as inside; cylinder: side or cap, cap on a tie). The raw sphere-box contact is shared with
 * the capsule-box collider (collision_sphere_box.h). Degenerate
 * directions fall back as MuJoCo's do: coincident sphere centers use (1,0,0), a center at
 * the box center uses the box's own axis, a center on the cylinder axis uses the horizontal
 * direction perpendicular to that axis. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_sphere_box.h"

/* contact between two spheres */
int tn__sphereSphere(mjContact* con, const mjtNum c1[3], mjtNum r1, const mjtNum c2[3], mjtNum r2,
                     mjtNum margin) {
  mjtNum normal[3], pos[3];

  // distance between the surfaces along the line of centers (clearly apart: skip the root)
  mju_sub3(normal, c2, c1);
  mjtNum reach = r1 + r2 + margin;
  if (reach >= 0 && mju_dot3(normal, normal) > reach * reach * (1 + 1e-10)) {
    return 0;
  }
  mjtNum dist = mju_normalize3(normal) - r1 - r2;
  if (dist > margin) {
    return 0;
  }

  // halfway between the two surface points
  mju_addScl3(pos, c1, normal, r1 + dist / 2);
  set_contact(con, dist, pos, normal, NULL);
  return 1;
}

/* closest point to p on segment c + t*axis, t in [-1, 1] */
mjtNum tn__closestOnSegment(mjtNum res[3], const mjtNum p[3], const mjtNum c[3],
                            const mjtNum axis[3]) {
  mjtNum dif[3];
  mju_sub3(dif, p, c);
  mjtNum len2 = mju_dot3(axis, axis);
  mjtNum t = len2 > mjMINVAL ? mju_dot3(dif, axis) / len2 : 0;
  t = mju_clip(t, -1, 1);
  mju_addScl3(res, c, axis, t);
  return t;
}

/* sphere - sphere */
int tn__collideSphereSphere(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                            mjtNum margin) {
  return tn__sphereSphere(con, d->geom_xpos + 3 * g1, m->geom_size[3 * g1], d->geom_xpos + 3 * g2,
                          m->geom_size[3 * g2], margin);
}

/* sphere - capsule: sphere against the closest point of the capsule segment */
int tn__collideSphereCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                             mjtNum margin) {
  mjtNum axis[3], closest[3];
  mat_col(axis, d->geom_xmat + 9 * g2, 2);
  mju_scl3(axis, axis, m->geom_size[3 * g2 + 1]);
  tn__closestOnSegment(closest, d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2, axis);
  return tn__sphereSphere(con, d->geom_xpos + 3 * g1, m->geom_size[3 * g1], closest,
                          m->geom_size[3 * g2], margin);
}

/* write the contact of a sphere (center c, radius r) whose surface is at depth `depth`
 * below a surface with unit normal `normal` (pointing from the sphere into the geom) */
static int sphere_contact(mjContact* con, const mjtNum c[3], mjtNum r, const mjtNum normal[3],
                          mjtNum dist, mjtNum margin) {
  mjtNum pos[3];
  if (dist > margin) {
    return 0;
  }
  mju_addScl3(pos, c, normal, r + dist / 2);
  set_contact(con, dist, pos, normal, NULL);
  return 1;
}

/* raw sphere - box, worked in the box frame with MuJoCo's arithmetic. Outside: the normal
 * runs from the centre to its clamp onto the box, the contact point is midway between the
 * clamp and the sphere's deepest point. Inside (or on the surface): through the nearest
 * face (faces in the order -x, +x, -y, +y, -z, +z; the first on a tie), the point midway
 * between the face and the sphere's far side along the normal. */
int tn__sphereBox(mjContact* con, const mjtNum center[3], mjtNum radius, const mjtNum bpos[3],
                  const mjtNum bmat[9], const mjtNum size[3], mjtNum margin) {
  mjtNum dif[3], local[3], clamped[3], dir[3], pos[3], normal[3], world[3];

  // centre in the box frame, its clamp onto the box, the unit offset between them
  mju_sub3(dif, center, bpos);
  mju_mulMatTVec3(local, bmat, dif);
  for (int k = 0; k < 3; k++) {
    clamped[k] = mju_clip(local[k], -size[k], size[k]);
  }
  mju_sub3(dir, clamped, local);
  mjtNum dist = mju_normalize3(dir);
  if (dist - radius > margin) {
    return 0;
  }

  // inside: the nearest face; point midway between it and the sphere's far side
  if (dist <= mjMINVAL) {
    mjtNum closest = (size[0] + size[1] + size[2]) * 2;
    int face = 0;
    for (int f = 0; f < 6; f++) {
      mjtNum gap = fabs((f % 2 ? 1 : -1) * size[f / 2] - local[f / 2]);
      if (closest > gap) {
        closest = gap;
        face = f;
      }
    }
    mjtNum nearest[3] = {0, 0, 0};
    nearest[face / 2] = face % 2 ? -1 : 1;
    for (int k = 0; k < 3; k++) {
      pos[k] = local[k] + nearest[k] * ((radius - closest) / 2);
    }
    mju_mulMatVec3(normal, bmat, nearest);
    dist = -closest;
  }

  // outside: midway between the clamp and the sphere's deepest point
  else {
    for (int k = 0; k < 3; k++) {
      mjtNum deepest = local[k] + dir[k] * radius;
      pos[k] = (0 + clamped[k] * 0.5) + deepest * 0.5;
    }
    mju_mulMatVec3(normal, bmat, dir);
  }

  // back to the global frame
  mju_mulMatVec3(world, bmat, pos);
  mju_addTo3(world, bpos);
  set_contact(con, dist - radius, world, normal, NULL);
  return 1;
}

/* sphere - box */
int tn__collideSphereBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                         mjtNum margin) {
  return tn__sphereBox(con, d->geom_xpos + 3 * g1, m->geom_size[3 * g1], d->geom_xpos + 3 * g2,
                       d->geom_xmat + 9 * g2, m->geom_size + 3 * g2, margin);
}

/* sphere - cylinder */
int tn__collideSphereCylinder(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                              mjtNum margin) {
  mjtNum dif[3], axis[3], radial[3], normal[3], closest[3];
  const mjtNum* c = d->geom_xpos + 3 * g1;
  const mjtNum* cc = d->geom_xpos + 3 * g2;
  mjtNum r = m->geom_size[3 * g1];
  mjtNum radius = m->geom_size[3 * g2], half = m->geom_size[3 * g2 + 1];

  // axial coordinate and radial offset of the sphere center
  mat_col(axis, d->geom_xmat + 9 * g2, 2);
  mju_sub3(dif, c, cc);
  mjtNum t = mju_dot3(dif, axis);
  mju_addScl3(radial, dif, axis, -t);
  mjtNum rlen = mju_norm3(radial);

  // inside the cylinder: through the side or the cap, whichever is nearer (cap on a tie)
  if (rlen <= radius && fabs(t) <= half) {
    mjtNum side = radius - rlen, cap = half - fabs(t);
    if (side < cap) {
      if (rlen < mjMINVAL) {
        mjtNum up[3] = {0, 0, 1};
        mju_cross(normal, up, axis);
        mju_normalize3(normal);
      } else {
        mju_scl3(normal, radial, -1 / rlen);
      }
      return sphere_contact(con, c, r, normal, -side - r, margin);
    }
    mju_scl3(normal, axis, t > 0 ? -1 : 1);
    return sphere_contact(con, c, r, normal, -cap - r, margin);
  }

  // outside: closest point of the solid cylinder (radial part clamped, axial clamped)
  mjtNum scale = rlen > radius ? radius / rlen : 1;
  mju_addScl3(closest, cc, axis, mju_clip(t, -half, half));
  mju_addToScl3(closest, radial, scale);
  return tn__sphereSphere(con, c, r, closest, 0, margin);
}
