/* collision/collision_query.c — collision queries outside mj_collision: the signed
 * distance between two geoms with the segment joining their nearest points
 * (mj_geomDistance), whether a point is inside a site (mj_insideSite), adding a contact by
 * hand (mj_addContact) and the most contacts a geom pair can produce (mj_maxContact).
 *
 * mj_geomDistance follows MuJoCo: with the native convex solver enabled (mjDSBL_NATIVECCD
 * clear) the pairs handled by the general convex or the box-box collider are measured by
 * GJK (collision_distance.c); every other pair runs its collider with distmax as the margin
 * and takes the nearest contact. The segment runs from geom1 to geom2. */
#include <string.h>

#include "collision/collision_distance.h"
#include "collision/collision_internal.h"
#include "util/util_inline.h"

/* the nearest of a collider's contacts within distmax: its distance and fromto segment
 * (sign -1 when the pair was flipped); returns distmax when there is none */
static mjtNum nearest_contact(const mjContact* con, int num, mjtNum distmax, mjtNum sign,
                              mjtNum fromto[6]) {
  mjtNum dist = distmax;
  int best = -1;
  for (int i = 0; i < num; i++) {
    if (con[i].dist < dist) {
      dist = con[i].dist;
      best = i;
    }
  }
  if (fromto && best >= 0) {
    mju_addScl3(fromto, con[best].pos, con[best].frame, -0.5 * sign * dist);
    mju_addScl3(fromto + 3, con[best].pos, con[best].frame, 0.5 * sign * dist);
  }
  return dist;
}

/* smallest signed distance between two geoms, at most distmax; fromto (nullable) gets the
 * segment between the nearest points (zero when none was found within distmax) */
mjtNum mj_geomDistance(const mjModel* m, mjData* d, int geom1, int geom2, mjtNum distmax,
                       mjtNum fromto[6]) {
  if (fromto) {
    memset(fromto, 0, 6 * sizeof(mjtNum));
  }

  // colliders take the geom of lower type first
  int flip = m->geom_type[geom1] > m->geom_type[geom2];
  int g1 = flip ? geom2 : geom1, g2 = flip ? geom1 : geom2;
  tnCollideFunc func = tn__collideTable[m->geom_type[g1]][m->geom_type[g2]];
  if (!func) {
    return distmax;
  }
  mjContact con[mjMAXCONPAIR];

  // general convex and box pairs: GJK apart, EPA overlapping (the collider if both fail)
  int native = !(m->opt.disableflags & mjDSBL_NATIVECCD);
  if (native && (func == tn__collideConvex || func == tn__collideBoxBox)) {
    mjtNum dist, p1[3], p2[3];
    if (tn__convexDistance(m, d, g1, g2, &dist, p1, p2)) {
      if (dist > distmax) {
        return distmax;
      }
      if (fromto) {
        mju_copy3(fromto, flip ? p2 : p1);
        mju_copy3(fromto + 3, flip ? p1 : p2);
      }
      return dist;
    }
    int num = func(m, d, con, g1, g2, distmax);
    return nearest_contact(con, num, distmax, flip ? -1 : 1, fromto);
  }

  // any other pair: its collider with distmax as the margin
  int num = func(m, d, con, g1, g2, distmax);
  return nearest_contact(con, num, distmax, flip ? -1 : 1, fromto);
}

/* append a contact to d->contact; 1 (and the contact-full warning) when there is no room */
int mj_addContact(const mjModel* m, mjData* d, const mjContact* con) {
  (void)m;
  if (d->ncon >= d->ncon_capacity) {
    mj_warning(d, mjWARN_CONTACTFULL, d->ncon);
    return 1;
  }
  d->contact[d->ncon++] = *con;
  return 0;
}

/* 1 when a global point is inside a site's shape (boundary included), 0 otherwise */
int mj_insideSite(const mjModel* m, const mjData* d, int siteid, const mjtNum point[3]) {
  // the point in the site's frame
  mjtNum dif[3], p[3];
  mju_sub3(dif, point, d->site_xpos + 3 * siteid);
  mju_mulMatTVec3(p, d->site_xmat + 9 * siteid, dif);
  const mjtNum* size = m->site_size + 3 * siteid;

  switch (m->site_type[siteid]) {
    case mjGEOM_SPHERE: return mju_dot3(p, p) <= size[0] * size[0];
    case mjGEOM_CAPSULE: {
      mjtNum z = mju_clip(p[2], -size[1], size[1]);
      mjtNum q[3] = {p[0], p[1], p[2] - z};
      return mju_dot3(q, q) <= size[0] * size[0];
    }
    case mjGEOM_ELLIPSOID: {
      mjtNum s = 0;
      for (int i = 0; i < 3; i++) {
        s += (p[i] / size[i]) * (p[i] / size[i]);
      }
      return s <= 1;
    }
    case mjGEOM_CYLINDER:
      return p[0] * p[0] + p[1] * p[1] <= size[0] * size[0] && p[2] >= -size[1] && p[2] <= size[1];
    case mjGEOM_BOX:
      return p[0] >= -size[0] && p[0] <= size[0] && p[1] >= -size[1] && p[1] <= size[1] &&
             p[2] >= -size[2] && p[2] <= size[2];
    default: mju_error("mj_insideSite: unsupported site type %d", m->site_type[siteid]); return 0;
  }
}

/* the most contacts the colliders can report for a pair of geoms: fixed per pair of types
 * for the analytic colliders and height fields; for the general convex pairs one, or with
 * the multi-contact search (mjDSBL_MULTICCD clear) four from the native solver's polygon
 * clipping (no margin, no capsule) and five otherwise. has_margin: -1 reads the geoms'
 * margins, else > 0 when the pair has a positive margin. */
int mj_maxContact(const mjModel* m, int g1, int g2, int has_margin) {
  int t1 = m->geom_type[g1], t2 = m->geom_type[g2];
  if (t1 > t2) {
    int t = t1;
    t1 = t2;
    t2 = t;
  }

  // planes and height fields
  if (t1 == mjGEOM_PLANE) {
    switch (t2) {
      case mjGEOM_SPHERE:
      case mjGEOM_ELLIPSOID: return 1;
      case mjGEOM_CAPSULE: return 2;
      case mjGEOM_CYLINDER:
      case mjGEOM_BOX:
      case mjGEOM_MESH: return 4;
      default: return 0;
    }
  }
  if (t1 == mjGEOM_HFIELD) {
    return t2 == mjGEOM_HFIELD ? 0 : mjMAXCONPAIR;
  }
  if (t2 == mjGEOM_SDF) {
    return mjMAXCONPAIR;
  }

  // analytic pairs, and smooth shapes (a single contact)
  if (t1 == mjGEOM_SPHERE || t1 == mjGEOM_ELLIPSOID || t2 == mjGEOM_ELLIPSOID) {
    return 1;
  }
  if (t1 == mjGEOM_CAPSULE && t2 == mjGEOM_CAPSULE) {
    return 2;
  }
  if (t1 == mjGEOM_CAPSULE && t2 == mjGEOM_BOX) {
    return 4;
  }
  if (t1 == mjGEOM_BOX && t2 == mjGEOM_BOX) {
    return 8;
  }

  // general convex pairs
  if (m->opt.disableflags & mjDSBL_MULTICCD) {
    return 1;
  }
  int margin = has_margin < 0 ? m->geom_margin[g1] + m->geom_margin[g2] > 0 : has_margin > 0;
  int native = !(m->opt.disableflags & mjDSBL_NATIVECCD);
  return native && !margin && t1 != mjGEOM_CAPSULE ? 4 : 5;
}
