/* collision/collision_capsule_box.c — capsule (g1) against box (g2).
 *
 * Every contact is the contact of a sphere of the capsule's radius centred on the capsule
 * segment, taken against the box. Which segment points get a sphere follows MuJoCo 3.14's
 * choices, established by sweeping random poses against MuJoCo (see the rules below); the
 * work happens in the box frame, with the segment c + t*a, t in [-1, 1].
 *
 * The infinite line of the segment either misses the box or passes through it.
 * - Line misses: the first point is the line's point closest to the box (found over the
 *   twelve edges: an interior edge point, or a corner), clamped to the segment; a segment
 *   end as near to the box as that point (the segment parallel to a face, lying over it)
 *   takes its place, the nearer end, the -axis end on an exact tie (a capsule resting on a
 *   box: 112 of 400 parallel poses had the two contacts in the other order before this
 *   rule, none after). A second point is added when
 *     the first point is a segment end lying over a face: the far end of the stretch of
 *       segment lying over that face;
 *     the closest feature is an edge, and the first point lies beside that same edge: the
 *       point reached by walking from it across the adjacent face, i.e. by the box's full
 *       width along the axis (perpendicular to the edge) the capsule runs most along,
 *       towards the box, stopping where the walk leaves the edge's slab or the segment;
 *     the closest feature is a corner: the same walk along the corner axis the capsule runs
 *       most along (relative to the box size), or along the corner's odd axis (the one
 *       whose direction relative to the corner differs from the other two) when the capsule
 *       is within 45 degrees of it. When the line point was clamped to a segment end: none
 *       if the end lies past the box's far side (away from the corner) along the odd axis;
 *       the end itself if the end lies beside another corner, past the far side along the
 *       walk axis only; else none if the same walk from the unclamped point would stay
 *       beyond that segment end.
 *   An end lying beside another edge than the line's gets no second point, except a walk
 *   across an axis the end is outside of. A clamped end beside a corner (line feature an
 *   edge) walks as for a corner feature, from its own corner. These clamped-end rules are
 *   the least certain part: about 0.5% of random contacting poses of a capsule much larger
 *   than the box (humanoid torso against foot), mostly an end beyond the line's edge and
 *   beside a perpendicular edge, still differ from MuJoCo in the number of contacts.
 * - Line passes through the box: a segment end inside the box gives one contact there (the
 *   -axis end first). Otherwise the first point is the segment end or the segment point
 *   closest to an edge, whichever is nearer (an end wins a tie); a second point comes from
 *   the face rule when that end lies over a face, or from the edge walk when the point
 *   closest to an edge lies inside the box.
 * The two contacts may coincide (a walk stopped at the segment end), as in MuJoCo.
 * Known difference: a segment parallel to the face cutting across a corner of it, both
 * ends beyond the face, gets one contact in MuJoCo (where it crosses an edge running along
 * the box's x axis) and two here (about 1.7% of random parallel poses). */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_sphere_box.h"

/* local geometry of the pair: segment c + t*a (t in [-1, 1]) in the box frame */
typedef struct tnSegBox_ {
  mjtNum c[3];
  mjtNum a[3];
  const mjtNum* size;
} tnSegBox;

/* closest box feature: segment parameter, squared distance, box point and kind */
typedef struct tnBoxFeature_ {
  mjtNum t;
  mjtNum dist2;
  mjtNum bp[3];
  int edge;   /* 1: interior edge point, 0: corner (or a segment end in the passing case) */
  int axis;   /* axis of the edge */
} tnBoxFeature;

/* relative margin by which an edge must beat a segment end to be preferred */
#define TN_TIE 1e-10

/* point of the segment at parameter t */
static void segPoint(mjtNum p[3], const tnSegBox* s, mjtNum t) {
  tnu_addScl3(p, s->c, s->a, t);
}

/* axes along which point p lies outside the box: flags and count */
static int outsideAxes(const mjtNum size[3], const mjtNum p[3], int out[3]) {
  int n = 0;
  for (int i = 0; i < 3; i++) {
    out[i] = fabs(p[i]) > size[i];
    n += out[i];
  }
  return n;
}

/* squared distance from point p to the box (0 inside) */
static mjtNum boxDist2(const mjtNum size[3], const mjtNum p[3]) {
  mjtNum d2 = 0;
  for (int i = 0; i < 3; i++) {
    mjtNum e = fabs(p[i]) - size[i];
    if (e > 0) {
      d2 += e * e;
    }
  }
  return d2;
}

/* 1 if the infinite line c + t*a meets the box (slab test) */
static int lineMeetsBox(const tnSegBox* s) {
  mjtNum lo = -INFINITY, hi = INFINITY;
  for (int i = 0; i < 3; i++) {
    if (s->a[i] == 0) {
      if (fabs(s->c[i]) > s->size[i]) {
        return 0;
      }
      continue;
    }
    mjtNum ta = (-s->size[i] - s->c[i]) / s->a[i], tb = (s->size[i] - s->c[i]) / s->a[i];
    lo = mju_max(lo, mju_min(ta, tb));
    hi = mju_min(hi, mju_max(ta, tb));
  }
  return lo <= hi;
}

/* centre of edge k (0..11): axis k/4, the other two coordinates at the signs of bits 0, 1 */
static int edgeCenter(const mjtNum size[3], int k, mjtNum p[3]) {
  int ax = k / 4, o1 = (ax + 1) % 3, o2 = (ax + 2) % 3;
  p[ax] = 0;
  p[o1] = (k & 1) ? size[o1] : -size[o1];
  p[o2] = (k & 2) ? size[o2] : -size[o2];
  return ax;
}

/* squared distance between segment point t and edge point u (edge centre p, axis ax) */
static mjtNum segEdgeDist2(const tnSegBox* s, const mjtNum p[3], int ax, mjtNum t, mjtNum u) {
  mjtNum q[3];
  segPoint(q, s, t);
  tnu_subFrom3(q, p);
  q[ax] -= u;
  return tnu_dot3(q, q);
}

/* closest points of the segment and edge k (both clamped): fills f, returns nothing */
static void segmentEdge(const tnSegBox* s, int k, tnBoxFeature* f) {
  mjtNum p[3], d[3];
  int ax = edgeCenter(s->size, k, p);
  mjtNum len = s->size[ax];
  tnu_sub3(d, s->c, p);
  mjtNum aa = tnu_dot3(s->a, s->a), b = s->a[ax], ad = tnu_dot3(s->a, d), e = d[ax];
  mjtNum det = aa - b * b;

  // unconstrained minimum of |d + t*a - u*e_ax|^2, used when inside the rectangle
  mjtNum bt = 0, bu = 0, best = INFINITY;
  if (det > mjMINVAL) {
    mjtNum t = (b * e - ad) / det, u = e + t * b;
    if (fabs(t) <= 1 && fabs(u) <= len) {
      bt = t;
      bu = u;
      best = segEdgeDist2(s, p, ax, t, u);
    }
  }

  // otherwise on the rectangle's sides: segment ends, then edge ends
  if (best == INFINITY) {
    for (int side = -1; side <= 1; side += 2) {
      mjtNum u = mju_clip(e + side * b, -len, len), d2 = segEdgeDist2(s, p, ax, side, u);
      if (d2 < best) {
        best = d2;
        bt = side;
        bu = u;
      }
    }
    for (int side = -1; side <= 1; side += 2) {
      mjtNum t = aa > 0 ? mju_clip((side * len * b - ad) / aa, -1, 1) : 0;
      mjtNum d2 = segEdgeDist2(s, p, ax, t, side * len);
      if (d2 < best) {
        best = d2;
        bt = t;
        bu = side * len;
      }
    }
  }
  f->t = bt;
  f->dist2 = best;
  f->axis = ax;
  f->edge = fabs(bu) < len;
  tnu_copy3(f->bp, p);
  f->bp[ax] = bu;
}

/* closest points of the infinite line and edge k (edge clamped); 0 if they are parallel */
static int lineEdge(const tnSegBox* s, int k, tnBoxFeature* f) {
  mjtNum p[3], d[3];
  int ax = edgeCenter(s->size, k, p);
  mjtNum len = s->size[ax];
  tnu_sub3(d, s->c, p);
  mjtNum aa = tnu_dot3(s->a, s->a), b = s->a[ax], ad = tnu_dot3(s->a, d), e = d[ax];
  mjtNum det = aa - b * b;
  if (det <= mjMINVAL * aa) {
    return 0;
  }

  // interior edge point, else the nearer corner and the line point closest to it
  mjtNum t = (b * e - ad) / det, u = e + t * b;
  f->edge = 1;
  if (fabs(u) > len) {
    u = u > 0 ? len : -len;
    t = (u * b - ad) / aa;
    f->edge = 0;
  }
  f->t = t;
  f->dist2 = segEdgeDist2(s, p, ax, t, u);
  f->axis = ax;
  tnu_copy3(f->bp, p);
  f->bp[ax] = u;
  return 1;
}

/* far end of the stretch of segment lying over the face that point t1 (an end) faces */
static mjtNum faceSecond(const tnSegBox* s, mjtNum t1, int normal) {
  mjtNum lo = -1, hi = 1;
  for (int i = 0; i < 3; i++) {
    if (i == normal || s->a[i] == 0) {
      continue;
    }
    mjtNum ta = (-s->size[i] - s->c[i]) / s->a[i], tb = (s->size[i] - s->c[i]) / s->a[i];
    lo = mju_max(lo, mju_min(ta, tb));
    hi = mju_min(hi, mju_max(ta, tb));
  }
  return (t1 - lo < hi - t1) ? hi : lo;
}

/* walk from t1 by the box's full width along axis k, towards the box side of box point bp,
 * stopping at the exit of the slab of axis `slab` (-1: none) and at the segment ends */
static mjtNum walkSecond(const tnSegBox* s, mjtNum t1, const mjtNum bp[3], int k, int slab) {
  mjtNum dir = (bp[k] * s->a[k] > 0) ? -1 : 1;
  mjtNum step = 2 * s->size[k] / fabs(s->a[k]);
  if (slab >= 0 && s->a[slab] != 0) {
    for (int side = -1; side <= 1; side += 2) {
      mjtNum tj = (side * s->size[slab] - s->c[slab]) / s->a[slab];
      if ((tj - t1) * dir > 0) {
        step = mju_min(step, (tj - t1) * dir);
      }
    }
  }
  return mju_clip(t1 + dir * step, -1, 1);
}

/* walk axis of an edge feature: the perpendicular axis the capsule follows most */
static int edgeWalkAxis(const tnSegBox* s, const tnBoxFeature* f) {
  int k1 = (f->axis + 1) % 3, k2 = (f->axis + 2) % 3;
  return fabs(s->a[k2]) > fabs(s->a[k1]) ? k2 : k1;
}

/* second point of an edge feature: the walk along its walk axis, within the edge's slab */
static mjtNum edgeSecond(const tnSegBox* s, mjtNum t1, const tnBoxFeature* f) {
  return walkSecond(s, t1, f->bp, edgeWalkAxis(s, f), f->axis);
}

/* odd axis of a corner feature: the one whose direction relative to the corner differs
 * from the other two (-1 when the capsule points the same way on all three) */
static int cornerOddAxis(const tnSegBox* s, const tnBoxFeature* f) {
  int sgn[3], npos = 0, odd = -1;
  for (int i = 0; i < 3; i++) {
    sgn[i] = f->bp[i] * s->a[i] > 0;
    npos += sgn[i];
  }
  for (int i = 0; i < 3 && (npos == 1 || npos == 2); i++) {
    if (sgn[i] == (npos == 1)) {
      odd = i;
    }
  }
  return odd;
}

/* walk axis of a corner feature: the odd axis when the capsule is within 45 degrees of it,
 * else the other axis it follows most relative to the box size */
static int cornerWalkAxis(const tnSegBox* s, const tnBoxFeature* f) {
  int odd = cornerOddAxis(s, f);
  mjtNum aa = tnu_dot3(s->a, s->a);
  if (odd >= 0 && s->a[odd] * s->a[odd] > 0.5 * aa) {
    return odd;
  }

  // best of the remaining axes by |a_k| / size_k
  int k = -1;
  mjtNum bestv = -1;
  for (int i = 0; i < 3; i++) {
    mjtNum v = fabs(s->a[i]) / s->size[i];
    if (i != odd && v > bestv) {
      bestv = v;
      k = i;
    }
  }
  return k;
}

/* second point of a corner feature (f->t: the unclamped line parameter, t1 its clamp).
 * Unclamped: the walk along the corner's walk axis. Clamped, with the end outside the box:
 *   past the far side along the odd axis: none (returns 0);
 *   beside another corner, past the far side along the walk axis only (not the odd one):
 *     the end itself (the walk from that end's own corner leaves the segment);
 *   otherwise the walk, but none when the same walk from the line point stays beyond that
 *     segment end while the walk from t1 does not */
static int cornerSecond(const tnSegBox* s, mjtNum t1, const tnBoxFeature* f, mjtNum* t2) {
  int k = cornerWalkAxis(s, f);
  *t2 = walkSecond(s, t1, f->bp, k, -1);
  if (fabs(f->t) <= 1) {
    return 1;
  }

  // axes along which the end is past the box on the side away from the corner
  mjtNum p[3];
  int out[3], far[3], nfar = 0;
  segPoint(p, s, t1);
  int nout = outsideAxes(s->size, p, out);
  for (int i = 0; i < 3; i++) {
    far[i] = out[i] && (p[i] > 0) != (f->bp[i] > 0);
    nfar += far[i];
  }

  // far along the odd axis: none; beside a corner far along the walk axis only: the end
  int odd = cornerOddAxis(s, f);
  if (odd >= 0 && far[odd]) {
    return 0;
  }
  if (k != odd && nout == 3 && nfar == 1 && far[k]) {
    *t2 = t1;
    return 1;
  }

  // walk from the unclamped line point staying beyond the end
  if (*t2 != t1) {
    mjtNum dir = (f->bp[k] * s->a[k] > 0) ? -1 : 1;
    mjtNum u = f->t + dir * 2 * s->size[k] / fabs(s->a[k]);
    if (fabs(u) > 1 && (u > 0) == (f->t > 0)) {
      return 0;
    }
  }
  return 1;
}

/* sphere-box contact of the segment point at parameter t */
static int sphereAt(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum t,
                    mjtNum margin) {
  mjtNum axis[3], center[3];
  tn_matCol(axis, d->geom_xmat + 9 * g1, 2);
  tnu_addScl3(center, d->geom_xpos + 3 * g1, axis, t * m->geom_size[3 * g1 + 1]);
  return tn_sphereBox(con, center, m->geom_size[3 * g1], d->geom_xpos + 3 * g2,
                      d->geom_xmat + 9 * g2, m->geom_size + 3 * g2, margin);
}

/* line passing through the box: segment points of the contacts (returns their number) */
static int passingPoints(const tnSegBox* s, mjtNum t[2]) {
  mjtNum p[3];
  int out[3];

  // a segment end inside the box: one contact there
  for (int side = -1; side <= 1; side += 2) {
    segPoint(p, s, side);
    if (outsideAxes(s->size, p, out) == 0) {
      t[0] = side;
      return 1;
    }
  }

  // nearest of the two ends and the segment points closest to the edges (ends win ties)
  tnBoxFeature best = {0}, f;
  best.dist2 = INFINITY;
  int isEdge = 0;
  for (int side = -1; side <= 1; side += 2) {
    segPoint(p, s, side);
    mjtNum d2 = boxDist2(s->size, p);
    if (d2 < best.dist2) {
      best.dist2 = d2;
      best.t = side;
    }
  }
  for (int k = 0; k < 12; k++) {
    segmentEdge(s, k, &f);
    if (f.dist2 < best.dist2 * (1 - TN_TIE)) {
      best = f;
      isEdge = 1;
    }
  }

  // second point: face stretch for an end over a face, edge walk for a point inside
  t[0] = best.t;
  segPoint(p, s, best.t);
  int nout = outsideAxes(s->size, p, out);
  if (!isEdge && nout == 1) {
    t[1] = faceSecond(s, best.t, out[0] ? 0 : (out[1] ? 1 : 2));
    return 2;
  }
  if (isEdge && nout == 0) {
    t[1] = edgeSecond(s, best.t, &best);
    return 2;
  }
  return 1;
}

/* line missing the box: segment points of the contacts (returns their number) */
static int missingPoints(const tnSegBox* s, mjtNum t[2]) {
  tnBoxFeature best = {0}, f;
  best.dist2 = INFINITY;
  mjtNum p[3];
  int out[3];

  // line feature closest to the box, over the edges (corners through their edges)
  for (int k = 0; k < 12; k++) {
    if (lineEdge(s, k, &f) && f.dist2 < best.dist2) {
      best = f;
    }
  }
  if (best.dist2 == INFINITY) {
    t[0] = 0;  // zero-length segment: the centre's sphere
    return 1;
  }

  // first point: clamped to the segment; when a segment end is as near to the box as the
  // line's feature (the segment parallel to a face over it), the nearer end, the -axis
  // end when both are exactly as near
  t[0] = mju_clip(best.t, -1, 1);
  mjtNum endd2[2];
  for (int e = 0; e < 2; e++) {
    segPoint(p, s, 2 * e - 1);
    endd2[e] = boxDist2(s->size, p);
  }
  int near = endd2[1] < endd2[0];
  if (endd2[near] <= best.dist2 * (1 + TN_TIE)) {
    t[0] = 2 * near - 1;
  }
  segPoint(p, s, t[0]);
  int nout = outsideAxes(s->size, p, out);

  // an end over a face: the face stretch
  if (nout == 1) {
    t[1] = faceSecond(s, t[0], out[0] ? 0 : (out[1] ? 1 : 2));
    return 2;
  }

  // corner feature: the corner walk
  if (!best.edge) {
    return 1 + cornerSecond(s, t[0], &best, t + 1);
  }

  // edge feature: no second point when the end lies beside a non-adjacent edge
  for (int i = 0; i < 3; i++) {
    if (i != best.axis && out[i] && (p[i] > 0) != (best.bp[i] > 0)) {
      return 1;
    }
  }

  // end beyond the edge's end: the walk only when it crosses an axis the end is outside
  // (MuJoCo mostly adds nothing else here; the exact rule is not known)
  if (out[best.axis] && !out[edgeWalkAxis(s, &best)]) {
    return 1;
  }

  // clamped end beside a corner: the corner walk from that end's own corner
  if (fabs(best.t) > 1 && nout == 3) {
    tnBoxFeature own = best;
    for (int i = 0; i < 3; i++) {
      own.bp[i] = p[i] > 0 ? s->size[i] : -s->size[i];
    }
    t[1] = walkSecond(s, t[0], own.bp, cornerWalkAxis(s, &own), -1);
    return 2;
  }
  t[1] = edgeSecond(s, t[0], &best);
  return 2;
}

/* capsule - box */
int tn_collideCapsuleBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                         mjtNum margin) {
  tnSegBox s;
  mjtNum axis[3], dif[3], t[2];
  const mjtNum* mat = d->geom_xmat + 9 * g2;

  // segment in the box frame
  s.size = m->geom_size + 3 * g2;
  tn_matCol(axis, d->geom_xmat + 9 * g1, 2);
  tnu_scl3(axis, axis, m->geom_size[3 * g1 + 1]);
  tnu_mulMatTVec3(s.a, mat, axis);
  tnu_sub3(dif, d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2);
  tnu_mulMatTVec3(s.c, mat, dif);

  // segment points of the contacts, each a sphere-box contact within the margin
  int np = lineMeetsBox(&s) ? passingPoints(&s, t) : missingPoints(&s, t);
  int n = 0;
  for (int i = 0; i < np; i++) {
    n += sphereAt(m, d, con + n, g1, g2, t[i], margin);
  }
  return n;
}
