/* collision/collision_convex.c — general convex pairs: MuJoCo's native solver or libccd.
 *
 * Pairs without an analytic collider (ellipsoid, cylinder, mesh, and their mixes with the
 * other primitives) go, by default, through MuJoCo 3.14's native convex collision
 * (collision_gjk.c: GJK, EPA and the multi-contact clipping): each shape grown by half the
 * margin, the normal from the point on geom 2 to the point on geom 1, no surface-normal
 * fix. Box, mesh and cylinder pairs without margin take up to four contacts from one pass
 * (clipped touching faces); other pairs, with the multiccd option, search for more by
 * tilting (below). With mjDSBL_NATIVECCD set they go through libccd's Minkowski Portal
 * Refinement instead (ccdMPRPenetration, libccd in double precision), with MuJoCo's
 * settings: the geom centers as portal seeds, ccd_tolerance and ccd_iterations from the
 * model options, each shape inflated by half the margin so that separated pairs within the
 * margin are found. The support functions
 * (collision_support.c) reproduce MuJoCo's points bit for bit: on flat-sided pairs MPR's
 * portal path, and so its answer, depends on the last bit and on how ties are broken.
 * MPR's direction is then replaced as MuJoCo does: by geom 1's outward surface normal
 * minus geom 2's, each taken only for a smooth geom near the contact point — sphere,
 * capsule, ellipsoid (closest point from outside, a ray iteration from the MPR normal
 * inside), and a cylinder's side where the side is the nearer feature (measured rules,
 * see surface_normal). With the multiccd option (on unless disabled; skipped when a sphere
 * or ellipsoid is involved) the pair is tilted by +-1e-3 rad about both contact tangents
 * and each new, distinct contact found is added with the first contact's distance (both
 * solvers; the native one only for pairs that did not take the one-pass contacts). */
#include <math.h>

#include <ccd/ccd.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_separation.h"
#include "collision/collision_support.h"
#include "collision/collision_gjk.h"

/* libccd callbacks on tnConvex objects (libccd is built in double precision: its vectors
 * are mjtNum triples, read and written in place) */
_Static_assert(sizeof(ccd_real_t) == sizeof(mjtNum), "libccd must use double precision");
static void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* vec) {
  tn__convexSupport(vec->v, (const tnConvex*)obj, dir->v);
}

static void ccd_center(const void* obj, ccd_vec3_t* center) {
  const tnConvex* o = obj;
  if (o->geom < 0) {
    mjtNum c[3] = {0, 0, 0};
    for (int i = 0; i < 6; i++) {
      mju_addTo3(c, o->prism[i]);
    }
    mju_scl3(c, c, 1.0 / 6.0);
    center->v[0] = c[0];
    center->v[1] = c[1];
    center->v[2] = c[2];
  } else {
    center->v[0] = o->pos[0];
    center->v[1] = o->pos[1];
    center->v[2] = o->pos[2];
  }
}

/* outward unit normal of an ellipsoid (semi-axes a) at a surface point near local point p.
 * Outside (as MuJoCo): the closest surface point q_i = a_i^2 p_i / (a_i^2 + t), with t
 * from Newton's method on F(t) = sum (a_i p_i / (a_i^2 + t))^2 - 1 from t = 0, stopped
 * (without taking it) at the first step shorter than 1e-6; the normal is p_i / (a_i^2 + t).
 * Inside (as MuJoCo): a fixed-point iteration on the normal direction n, starting from
 * `guess` (the MPR normal pointing out of this geom): cast the ray p + l n (l > 0) to the
 * surface, take the surface normal there as the new n; stop when n moves by less than 1e-6
 * (keeping the new n) or after 30 rays. */
static void ellipsoid_normal(mjtNum normal[3], const mjtNum a[3], const mjtNum p[3],
                             const mjtNum guess[3]) {
  mjtNum s2 = 0;
  for (int i = 0; i < 3; i++) {
    s2 += p[i] * p[i] / (a[i] * a[i]);
  }

  // outside: Newton on t
  if (s2 >= 1) {
    mjtNum t = 0;
    for (int iter = 0; iter < 100; iter++) {
      mjtNum f = -1, df = 0;
      for (int i = 0; i < 3; i++) {
        mjtNum den = a[i] * a[i] + t, r = a[i] * p[i] / den;
        f += r * r;
        df -= 2 * r * r / den;
      }
      if (df >= 0) {
        break;
      }
      mjtNum step = -f / df;
      if (fabs(step) < 1e-6) {
        break;
      }
      t += step;
    }
    for (int i = 0; i < 3; i++) {
      normal[i] = p[i] / (a[i] * a[i] + t);
    }
    mju_normalize3(normal);
    return;
  }

  // inside: ray casts along the current normal, starting from the guess
  mjtNum n[3], q[3], next[3];
  mju_copy3(n, guess);
  mju_normalize3(n);
  for (int iter = 0; iter < 30; iter++) {
    // surface point on the ray p + l n: A l^2 + B l + C = 0, C < 0, positive root
    mjtNum A = 0, B = 0, C = s2 - 1;
    for (int i = 0; i < 3; i++) {
      A += n[i] * n[i] / (a[i] * a[i]);
      B += 2 * p[i] * n[i] / (a[i] * a[i]);
    }
    mjtNum l = (-B + sqrt(B * B - 4 * A * C)) / (2 * A);
    mju_addScl3(q, p, n, l);

    // surface normal there; done when it barely moved
    for (int i = 0; i < 3; i++) {
      next[i] = q[i] / (a[i] * a[i]);
    }
    mju_normalize3(next);
    mjtNum move = mju_dist3(next, n);
    mju_copy3(n, next);
    if (move < 1e-6) {
      break;
    }
  }
  mju_copy3(normal, n);
}

/* outward unit normal of geom g at the surface point closest to global point p (guess: a
 * global direction near it, for the ellipsoid's iteration); returns 0 for types without a
 * smooth surface normal (box, mesh, prism) */
static int surface_normal(mjtNum normal[3], const mjModel* m, const tnConvex* obj,
                          const mjtNum p[3], const mjtNum guess[3]) {
  mjtNum dif[3], local[3], localguess[3], n[3] = {0, 0, 0};
  if (obj->geom < 0) {
    return 0;
  }
  const mjtNum* size = m->geom_size + 3 * obj->geom;
  mju_sub3(dif, p, obj->pos);
  mju_mulMatTVec3(local, obj->mat, dif);

  switch (obj->type) {
    case mjGEOM_SPHERE: mju_copy3(n, local); break;
    case mjGEOM_CAPSULE:
      mju_copy3(n, local);
      n[2] -= mju_clip(local[2], -size[1], size[1]);
      break;
    case mjGEOM_ELLIPSOID:
      mju_mulMatTVec3(localguess, obj->mat, guess);
      ellipsoid_normal(n, size, local, localguess);
      break;
    case mjGEOM_CYLINDER: {
      // radial normal of the side, only where the side is the nearer feature: not within
      // 5% of the height from a cap, and the cap no nearer than a quarter of the distance
      // to the side (MuJoCo's choice, measured against it)
      mjtNum dz = size[1] - fabs(local[2]);
      mjtNum dr = size[0] - sqrt(local[0] * local[0] + local[1] * local[1]);
      if (fabs(local[2]) > 0.95 * size[1] || dz <= 0.25 * dr) {
        return 0;
      }
      n[0] = local[0];
      n[1] = local[1];
      break;
    }
    default: return 0;
  }
  mju_normalize3(n);
  mju_mulMatVec3(normal, obj->mat, n);
  return 1;
}

/* MuJoCo's normal for MPR contacts: from the surface normals of the smooth geoms at their
 * points closest to the contact point (geom 1's outward normal minus geom 2's) */
static void fix_normal(const mjModel* m, mjContact* con, const tnConvex* obj1,
                       const tnConvex* obj2) {
  mjtNum n1[3], n2[3], normal[3] = {0, 0, 0}, inward[3];

  // MPR's normal points out of geom 1 and into geom 2
  mju_scl3(inward, con->frame, -1);
  int has1 = surface_normal(n1, m, obj1, con->pos, con->frame);
  int has2 = surface_normal(n2, m, obj2, con->pos, inward);
  if (has1) {
    mju_addTo3(normal, n1);
  }
  if (has2) {
    mju_subFrom3(normal, n2);
  }
  if ((has1 || has2) && mju_normalize3(normal) >= mjMINVAL) {
    mju_copy3(con->frame, normal);
  }
}

static int convex_penetration(const mjModel* m, mjContact* con, const tnConvex* obj1,
                              const tnConvex* obj2, mjtNum margin, int fix);

/* penetration between two convex objects (native solver or MPR): one contact or none */
int tn__convexPenetration(const mjModel* m, mjData* d, mjContact* con, const tnConvex* obj1,
                          const tnConvex* obj2, mjtNum margin) {
  // the native solver: margins from the inflations, its witness points and normal (no
  // surface-normal fix, as MuJoCo's native path)
  if (!(m->opt.disableflags & mjDSBL_NATIVECCD)) {
    // the objects themselves (shared read-only by the caller, but their warm starts carry to
    // the next call), margins set for the solver and put back after
    tnConvex* p1 = (tnConvex*)obj1;
    tnConvex* p2 = (tnConvex*)obj2;
    mjtNum margin1 = p1->margin, margin2 = p2->margin;
    p1->margin = 2 * p1->inflate;
    p2->margin = 2 * p2->inflate;
    mjtNum normal[3], pos[3];
    tnCCDResult r;
    mjtNum dist = tn__nativeCCD(d, p1, p2, 1, &r);
    const mjtNum *x1 = r.x1, *x2 = r.x2;
    p1->margin = margin1;
    p2->margin = margin2;
    if (!(dist < 0) || !r.nx) {
      return 0;
    }
    mju_sub3(normal, x1, x2);
    mju_normalize3(normal);
    for (int k = 0; k < 3; k++) {
      pos[k] = 0.5 * (x1[k] + x2[k]);
    }
    if (mju_norm3(normal) < mjMINVAL) {
      return 0;
    }
    set_contact(con, margin + dist, pos, normal, NULL);
    return 1;
  }
  return convex_penetration(m, con, obj1, obj2, margin, 1);
}

/* MPR penetration, with or without MuJoCo's normal fix */
static int convex_penetration(const mjModel* m, mjContact* con, const tnConvex* obj1,
                              const tnConvex* obj2, mjtNum margin, int fix) {
  ccd_t ccd;
  ccd_real_t depth;
  ccd_vec3_t dir, pos;

  // MuJoCo's MPR settings
  CCD_INIT(&ccd);
  ccd.support1 = ccd_support;
  ccd.support2 = ccd_support;
  ccd.center1 = ccd_center;
  ccd.center2 = ccd_center;
  ccd.max_iterations = m->opt.ccd_iterations;
  ccd.mpr_tolerance = m->opt.ccd_tolerance;

  // no penetration of the inflated shapes, or an undefined normal
  if (ccdMPRPenetration(obj1, obj2, &ccd, &depth, &dir, &pos) != 0) {
    return 0;
  }
  mjtNum normal[3] = {dir.v[0], dir.v[1], dir.v[2]};
  if (mju_norm3(normal) < mjMINVAL) {
    return 0;
  }
  mjtNum p[3] = {pos.v[0], pos.v[1], pos.v[2]};
  set_contact(con, margin - depth, p, normal, NULL);
  if (fix) {
    fix_normal(m, con, obj1, obj2);
  }
  return 1;
}

/* rotate a convex object by mat about point `center` */
static void rotate_about(tnConvex* obj, const mjtNum rot[9], const mjtNum center[3]) {
  mjtNum rel[3], moved[3], mat[9];
  mju_mulMatMat(mat, rot, obj->mat, 3, 3, 3);
  mju_copy(obj->mat, mat, 9);

  // as MuJoCo: the position minus the displacement rot * rel - rel, rel = center - pos
  mju_sub3(rel, center, obj->pos);
  mju_mulMatVec3(moved, rot, rel);
  mju_subFrom3(moved, rel);
  mju_subFrom3(obj->pos, moved);
}

/* rotation matrix about unit axis by angle */
static void axis_rotation(mjtNum rot[9], const mjtNum axis[3], mjtNum angle) {
  mjtNum quat[4];
  mju_axisAngle2Quat(quat, axis, angle);
  mju_quat2Mat(rot, quat);
}

/* 1 if MuJoCo's multi-contact search applies: neither shape is strictly convex */
static int multi_applies(const mjModel* m, int g1, int g2) {
  if (m->opt.disableflags & mjDSBL_MULTICCD) {
    return 0;
  }
  for (int i = 0; i < 2; i++) {
    int type = m->geom_type[i ? g2 : g1];
    if (type == mjGEOM_SPHERE || type == mjGEOM_ELLIPSOID) {
      return 0;
    }
  }
  return 1;
}

/* multi-contact search: tilt the pair by +-1e-3 rad about the two tangents of the first
 * contact (geom 2 one way, geom 1 the other, about the contact point) and keep each new
 * contact found (not within 1e-3 * the smaller bounding radius of an earlier one), with
 * the first contact's distance */
static int multi_contacts(const mjModel* m, mjContact* con, const tnConvex* obj1,
                          const tnConvex* obj2, mjtNum margin) {
  mjtNum frame[9], rot[9], rotT[9];

  // contacts closer than the tilt times the smaller bounding radius are repeats
  mjtNum r1 = m->geom_rbound[obj1->geom], r2 = m->geom_rbound[obj2->geom];
  mjtNum tol = 1e-3 * (r1 < r2 ? r1 : r2);
  mju_copy(frame, con[0].frame, 9);
  tn__makeFrame(frame);
  int n = 1;
  int warm1 = obj1->meshindex, warm2 = obj2->meshindex;
  for (int a = 0; a < 2; a++) {
    for (int s = 1; s >= -1; s -= 2) {
      // the pair at its pose, the hill climbs' warm starts carried from the previous search
      tnConvex p1 = *obj1, p2 = *obj2;
      p1.meshindex = warm1;
      p2.meshindex = warm2;
      axis_rotation(rot, frame + 3 + 3 * a, s * 1e-3);
      mju_transpose(rotT, rot, 3, 3);
      rotate_about(&p1, rotT, con[0].pos);
      rotate_about(&p2, rot, con[0].pos);
      int found = convex_penetration(m, con + n, &p1, &p2, margin, 0);
      warm1 = p1.meshindex;
      warm2 = p2.meshindex;
      if (!found) {
        continue;
      }
      fix_normal(m, con + n, obj1, obj2);

      // keep it unless it repeats a contact already found (within tol)
      int repeat = 0;
      for (int k = 0; k < n; k++) {
        if (mju_dist3(con[k].pos, con[n].pos) <= tol) {
          repeat = 1;
        }
      }
      if (!repeat) {
        con[n].dist = con[0].dist;
        n++;
      }
    }
  }
  return n;
}

/* contacts from the native solver's witness pairs: the midpoint, the normal from the
 * point on geom 2 to the point on geom 1 (normalized), the distance with the margin back */
static int native_contacts(mjData* d, mjContact* con, tnConvex* obj1, tnConvex* obj2,
                           int max_contacts, mjtNum margin, tnSepSlot* slot) {
  tnCCDResult r;
  mjtNum dist = tn__nativeCCD(d, obj1, obj2, max_contacts, &r);
  if (slot) {
    tn__separationStore(slot, obj1, obj2, dist < 0 ? NULL : r.sep);
  }
  if (!(dist < 0)) {
    return 0;
  }
  const mjtNum *x1 = r.x1, *x2 = r.x2;
  for (int i = 0; i < r.nx; i++) {
    mjContact* c = con + i;
    c->dist = margin + r.dist[i];
    mju_sub3(c->frame, x1 + 3 * i, x2 + 3 * i);
    mju_normalize3(c->frame);
    for (int k = 0; k < 3; k++) {
      c->pos[k] = 0.5 * (x1[3 * i + k] + x2[3 * i + k]);
    }
    mju_zero3(c->frame + 3);
  }
  return r.nx;
}

/* how many contacts one native pass may return: up to 4 for pairs of flat-featured shapes
 * (box, mesh, cylinder) without margin (face clipping) unless multiccd is disabled, else 1 */
static int native_max_contacts(const mjModel* m, int g1, int g2, mjtNum margin) {
  if (margin > 0) {
    return 1;
  }
  int t1 = m->geom_type[g1], t2 = m->geom_type[g2];
  if (t1 == mjGEOM_BOX && t2 == mjGEOM_BOX) {
    return 8;
  }
  int flat1 = t1 == mjGEOM_BOX || t1 == mjGEOM_MESH || t1 == mjGEOM_CYLINDER;
  int flat2 = t2 == mjGEOM_BOX || t2 == mjGEOM_MESH || t2 == mjGEOM_CYLINDER;
  if (flat1 && flat2) {
    return (m->opt.disableflags & mjDSBL_MULTICCD) ? 1 : 4;
  }
  return 1;
}

/* convex - convex with MuJoCo's native solver: one pass (several contacts for touching
 * box/mesh faces), else the tilted searches of the multi-contact option around the first
 * contact, each new distinct contact kept with the first contact's distance */
static int collide_native(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                          mjtNum margin) {
  tnConvex obj1, obj2;
  tn__convexInit(&obj1, m, d, g1, 0);
  tn__convexInit(&obj2, m, d, g2, 0);
  obj1.margin = obj2.margin = margin;

  // apart along the direction that separated the pair before: the solver's answer, no
  // contact (collision_separation.h)
  tnSepSlot* slot = tn__separationSlot(d, g1, g2);
  if (slot && tn__separationHolds(slot, &obj1, &obj2)) {
    return 0;
  }
  int maxc = native_max_contacts(m, g1, g2, margin);
  int n = native_contacts(d, con, &obj1, &obj2, maxc, margin, slot);
  if (maxc > 1 || n != 1 || !multi_applies(m, g1, g2)) {
    return n;
  }

  // tilt geom 1 by -+1e-3 rad about each tangent of the first contact, geom 2 back
  mjtNum frame[9], rot[9], rotT[9];
  mjtNum r1 = m->geom_rbound[g1], r2 = m->geom_rbound[g2];
  mjtNum tol = 1e-3 * (r1 < r2 ? r1 : r2);
  mju_copy(frame, con[0].frame, 9);
  tn__makeFrame(frame);
  for (int a = 0; a < 2; a++) {
    for (int s = -1; s <= 1; s += 2) {
      // the pair at the tilted poses, the solver's warm starts carried on
      tnConvex p1 = obj1, p2 = obj2;
      axis_rotation(rot, frame + 3 + 3 * a, s * 1e-3);
      mju_transpose(rotT, rot, 3, 3);
      rotate_about(&p1, rot, con[0].pos);
      rotate_about(&p2, rotT, con[0].pos);
      int found = native_contacts(d, con + n, &p1, &p2, 1, margin, NULL);
      obj1.meshindex = p1.meshindex;
      obj1.vertindex = p1.vertindex;
      obj2.meshindex = p2.meshindex;
      obj2.vertindex = p2.vertindex;

      // keep it unless it repeats a contact already found (within tol)
      int repeat = 0;
      for (int k = 0; found && k < n; k++) {
        if (mju_dist3(con[k].pos, con[n].pos) <= tol) {
          repeat = 1;
        }
      }
      if (found && !repeat) {
        con[n].dist = con[0].dist;
        n++;
      }
    }
  }
  return n;
}

/* convex - convex */
int tn__collideConvex(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  if (!(m->opt.disableflags & mjDSBL_NATIVECCD)) {
    return collide_native(m, d, con, g1, g2, margin);
  }
  tnConvex obj1, obj2;
  tn__convexInit(&obj1, m, d, g1, margin / 2);
  tn__convexInit(&obj2, m, d, g2, margin / 2);
  int n = tn__convexPenetration(m, d, con, &obj1, &obj2, margin);
  if (n && multi_applies(m, g1, g2)) {
    n = multi_contacts(m, con, &obj1, &obj2, margin);
  }
  return n;
}
