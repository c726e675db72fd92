/* collision/collision_capsule_box.c — capsule (g1) against box (g2).
 *
 * Every contact is the contact of a sphere placed on the capsule segment with the box. The
 * first sphere sits at the segment point closest to the box (found exactly: the squared
 * distance is piecewise quadratic between the points where the segment crosses the box's
 * slab planes; ties go to the lower segment parameter). The second sphere sits at an end of
 * the stretch of segment lying over the same box feature: for a face, the stretch over the
 * face rectangle, the end away from the first point; for an edge or corner, the stretch
 * along the edge, its lower end unless that one is beyond the margin. A segment reaching
 * into the box yields one contact: at an end inside the box, else at the deepest point of
 * the crossing. MuJoCo's second-point rule is matched for most resting configurations;
 * some end-on edge/corner contacts and deep crossings still differ. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"

/* local geometry of the pair: segment c + t*a (t in [-1, 1]) in the box frame */
typedef struct tnSegBox_ {
  mjtNum c[3];
  mjtNum a[3];
  const mjtNum* size;
} tnSegBox;

/* squared distance from segment point t to the box (0 inside) */
static mjtNum segBoxDist2(const tnSegBox* s, mjtNum t) {
  mjtNum d2 = 0;
  for (int i = 0; i < 3; i++) {
    mjtNum x = s->c[i] + t * s->a[i];
    mjtNum e = fabs(x) - s->size[i];
    if (e > 0) {
      d2 += e * e;
    }
  }
  return d2;
}

/* minimizer of the squared distance on [t0, t1], where the clamping pattern is fixed */
static mjtNum pieceMin(const tnSegBox* s, mjtNum t0, mjtNum t1) {
  mjtNum tm = 0.5 * (t0 + t1), qa = 0, qb = 0;
  for (int i = 0; i < 3; i++) {
    mjtNum x = s->c[i] + tm * s->a[i];
    if (fabs(x) > s->size[i]) {
      mjtNum target = x > 0 ? s->size[i] : -s->size[i];
      qa += s->a[i] * s->a[i];
      qb += s->a[i] * (s->c[i] - target);
    }
  }
  if (qa < mjMINVAL) {
    return t0;
  }
  return mju_clip(-qb / qa, t0, t1);
}

/* segment parameter closest to the box (lowest on ties) */
static mjtNum closestParam(const tnSegBox* s) {
  mjtNum brk[8];
  int nb = 0;
  brk[nb++] = -1;
  for (int i = 0; i < 3; i++) {
    if (fabs(s->a[i]) < mjMINVAL) {
      continue;
    }
    for (int sg = -1; sg <= 1; sg += 2) {
      mjtNum t = (sg * s->size[i] - s->c[i]) / s->a[i];
      if (t > -1 && t < 1) {
        brk[nb++] = t;
      }
    }
  }
  brk[nb++] = 1;

  // sort the breakpoints (insertion sort, at most 8)
  for (int i = 1; i < nb; i++) {
    for (int j = i; j > 0 && brk[j] < brk[j - 1]; j--) {
      mjtNum tmp = brk[j];
      brk[j] = brk[j - 1];
      brk[j - 1] = tmp;
    }
  }

  // best piece minimum
  mjtNum best = -1, bestd = segBoxDist2(s, -1);
  for (int k = 0; k + 1 < nb; k++) {
    if (brk[k + 1] <= brk[k]) {
      continue;
    }
    mjtNum t = pieceMin(s, brk[k], brk[k + 1]);
    mjtNum d2 = segBoxDist2(s, t);
    if (d2 < bestd) {
      bestd = d2;
      best = t;
    }
  }
  return best;
}

/* signed distance from local point x to the box surface (negative inside) */
static mjtNum boxSigned(const mjtNum size[3], const mjtNum x[3]) {
  mjtNum d2 = 0, inner = INFINITY;
  int outside = 0;
  for (int i = 0; i < 3; i++) {
    mjtNum e = fabs(x[i]) - size[i];
    if (e > 0) {
      d2 += e * e;
      outside = 1;
    }
    if (-e < inner) {
      inner = -e;
    }
  }
  return outside ? sqrt(d2) : -inner;
}

/* deepest segment parameter of a segment crossing the box (golden-section search on the
 * concave depth) */
static mjtNum deepestParam(const tnSegBox* s) {
  mjtNum a = -1, b = 1, x[3];
  const mjtNum g = 0.5 * (sqrt(5.0) - 1);
  for (int iter = 0; iter < 100; iter++) {
    mjtNum t1 = b - g * (b - a), t2 = a + g * (b - a);
    tnu_addScl3(x, s->c, s->a, t1);
    mjtNum f1 = boxSigned(s->size, x);
    tnu_addScl3(x, s->c, s->a, t2);
    mjtNum f2 = boxSigned(s->size, x);
    if (f1 < f2) {
      b = t2;
    } else {
      a = t1;
    }
  }
  return 0.5 * (a + b);
}

/* sphere-box contact of the segment point at parameter t */
static int sphereAt(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum t,
                    mjtNum margin) {
  mjtNum axis[3], center[3];
  tn_matCol(axis, d->geom_xmat + 9 * g1, 2);
  tnu_addScl3(center, d->geom_xpos + 3 * g1, axis, t * m->geom_size[3 * g1 + 1]);

  // temporarily describe the sphere through the sphere-box collider's inputs
  mjtNum radius = m->geom_size[3 * g1];
  mjtNum dif[3], local[3], closest[3], nlocal[3] = {0, 0, 0}, normal[3], pos[3];
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  const mjtNum* size = m->geom_size + 3 * g2;
  tnu_sub3(dif, center, d->geom_xpos + 3 * g2);
  tnu_mulMatTVec3(local, mat, dif);
  int inside = 1;
  for (int k = 0; k < 3; k++) {
    closest[k] = mju_clip(local[k], -size[k], size[k]);
    if (closest[k] != local[k]) {
      inside = 0;
    }
  }
  mjtNum dist;
  if (!inside) {
    tnu_sub3(nlocal, closest, local);
    dist = tnu_normalize3(nlocal) - radius;
  } else {
    int ax = 0;
    mjtNum depth = size[0] - fabs(local[0]);
    for (int k = 1; k < 3; k++) {
      if (size[k] - fabs(local[k]) < depth) {
        depth = size[k] - fabs(local[k]);
        ax = k;
      }
    }
    nlocal[ax] = local[ax] > 0 ? -1 : 1;
    dist = -depth - radius;
  }
  if (dist > margin) {
    return 0;
  }
  tnu_mulMatVec3(normal, mat, nlocal);
  tnu_addScl3(pos, center, normal, radius + dist / 2);
  tn_setContact(con, dist, pos, normal, NULL);
  return 1;
}

/* capsule - box */
int tn_collideCapsuleBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                         mjtNum margin) {
  tnSegBox s;
  mjtNum axis[3], dif[3];
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  mjtNum half = m->geom_size[3 * g1 + 1], radius = m->geom_size[3 * g1];

  // segment in the box frame
  s.size = m->geom_size + 3 * g2;
  tn_matCol(axis, d->geom_xmat + 9 * g1, 2);
  tnu_scl3(axis, axis, half);
  tnu_mulMatTVec3(s.a, mat, axis);
  tnu_sub3(dif, d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2);
  tnu_mulMatTVec3(s.c, mat, dif);

  // closest segment point; a segment reaching into the box: an end inside (the lower
  // one first), else the deepest point of the crossing
  mjtNum t1 = closestParam(&s);
  if (segBoxDist2(&s, t1) <= 0) {
    mjtNum lo[3], hi[3];
    tnu_addScl3(lo, s.c, s.a, -1);
    tnu_addScl3(hi, s.c, s.a, 1);
    if (boxSigned(s.size, lo) <= 0) {
      t1 = -1;
    } else if (boxSigned(s.size, hi) <= 0) {
      t1 = 1;
    } else {
      t1 = deepestParam(&s);
    }
    return sphereAt(m, d, con, g1, g2, t1, margin);
  }
  int n = sphereAt(m, d, con, g1, g2, t1, margin);
  if (!n) {
    return 0;
  }

  // feature of the box closest to the segment: the axes along which the point is outside
  mjtNum p[3], lo = -1, hi = 1;
  int outside[3], nout = 0;
  tnu_addScl3(p, s.c, s.a, t1);
  for (int i = 0; i < 3; i++) {
    outside[i] = fabs(p[i]) > s.size[i];
    nout += outside[i];
  }

  // stretch of the segment over the feature (free axes stay within the box)
  for (int i = 0; i < 3; i++) {
    if (outside[i] || fabs(s.a[i]) < mjMINVAL) {
      continue;
    }
    mjtNum ta = (-s.size[i] - s.c[i]) / s.a[i], tb = (s.size[i] - s.c[i]) / s.a[i];
    lo = mju_max(lo, mju_min(ta, tb));
    hi = mju_min(hi, mju_max(ta, tb));
  }

  // second point: face -> the far end; edge/corner -> lower end unless beyond the margin
  mjtNum t2;
  if (nout == 1) {
    t2 = (t1 - lo <= hi - t1) ? hi : lo;
  } else {
    mjtNum plo[3];
    tnu_addScl3(plo, s.c, s.a, lo);
    t2 = boxSigned(s.size, plo) - radius <= margin ? lo : hi;
  }
  n += sphereAt(m, d, con + n, g1, g2, t2, margin);
  return n;
}
