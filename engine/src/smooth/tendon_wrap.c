/* smooth/tendon_wrap.c — geometry of tendon wrapping around spheres and cylinders.
 *
 * A spatial tendon segment between two sites is the shortest path that does not cross a
 * wrapping obstacle. Both obstacles reduce to a 2D problem around a circle: the sphere in
 * the plane through its center and the two end points, the (infinite) cylinder in its
 * cross-section plane, the height then interpolated linearly along the unrolled path
 * (a helix on the surface). A side site chooses on which side of the obstacle the path
 * goes (and forces wrapping when it lies across the straight segment from the obstacle);
 * a side site inside the obstacle makes the path touch the surface at a single point. */

#include <math.h>

#include "smooth/tendon_wrap.h"

/* squared norm of a 2D vector */
static mjtNum sqnorm2(const mjtNum v[2]) {
  return v[0]*v[0] + v[1]*v[1];
}

/* distance between two 2D points */
static mjtNum dist2(const mjtNum a[2], const mjtNum b[2]) {
  mjtNum dx = a[0] - b[0], dy = a[1] - b[1];
  return sqrt(dx*dx + dy*dy);
}

/* tangent point on the circle of radius r seen from p (outside), on side sgn (+1/-1) */
static void circleTangent(mjtNum t[2], const mjtNum p[2], mjtNum r, mjtNum sgn) {
  mjtNum sq = sqnorm2(p);
  mjtNum a = r*r / sq;
  mjtNum b = sgn * r * sqrt(sq - r*r) / sq;
  t[0] = a*p[0] - b*p[1];
  t[1] = a*p[1] + b*p[0];
}

/* point of the segment e0-e1 closest to the origin */
static void segmentClosest(mjtNum c[2], const mjtNum e0[2], const mjtNum e1[2]) {
  mjtNum dif[2] = {e1[0] - e0[0], e1[1] - e0[1]};
  mjtNum dd = sqnorm2(dif);

  // parameter of the closest point, clamped to the segment
  mjtNum u = 0;
  if (dd > mjMINVAL) {
    u = -(e0[0]*dif[0] + e0[1]*dif[1]) / dd;
    u = mju_clip(u, 0, 1);
  }
  c[0] = e0[0] + u*dif[0];
  c[1] = e0[1] + u*dif[1];
}

/* 1 if the 2D segments a0-a1 and b0-b1 cross */
static int segmentsCross(const mjtNum a0[2], const mjtNum a1[2], const mjtNum b0[2],
                         const mjtNum b1[2]) {
  mjtNum da[2] = {a1[0] - a0[0], a1[1] - a0[1]};
  mjtNum db[2] = {b1[0] - b0[0], b1[1] - b0[1]};
  mjtNum det = da[0]*db[1] - da[1]*db[0];

  // parallel segments do not cross
  if (fabs(det) < mjMINVAL) {
    return 0;
  }

  // parameters of the crossing point of the two lines, both inside [0, 1]
  mjtNum w[2] = {b0[0] - a0[0], b0[1] - a0[1]};
  mjtNum ta = (w[0]*db[1] - w[1]*db[0]) / det;
  mjtNum tb = (w[0]*da[1] - w[1]*da[0]) / det;
  return (ta >= 0 && ta <= 1 && tb >= 0 && tb <= 1);
}

/* side site inside the circle: the path touches the circle at the single point x that
 * makes it shortest (reflection law), found by Newton's method on the angle of x to
 * round-off. MuJoCo's iterative solution stops earlier: its contact point differs by up
 * to ~1e-7 rad (lengths agree to round-off, the point is stationary; Jacobians ~1e-8). */
static mjtNum wrapInside(mjtNum pnt[4], const mjtNum end[4], mjtNum r) {
  const mjtNum* e0 = end;
  const mjtNum* e1 = end + 2;

  // straight segment already crosses the circle: no wrap
  mjtNum c[2];
  segmentClosest(c, e0, e1);
  if (sqnorm2(c) < r*r) {
    return -1;
  }

  // initial guess: direction of the bisector of the two end points
  mjtNum n0 = sqrt(sqnorm2(e0)), n1 = sqrt(sqnorm2(e1));
  mjtNum bis[2] = {e0[0]/n0 + e1[0]/n1, e0[1]/n0 + e1[1]/n1};
  if (sqnorm2(bis) < mjMINVAL) {
    bis[0] = -e0[1];
    bis[1] = e0[0];
  }
  mjtNum theta = atan2(bis[1], bis[0]);

  // Newton iterations on the derivative of the path length
  for (int iter = 0; iter < 50; iter++) {
    mjtNum x[2] = {r*cos(theta), r*sin(theta)};
    mjtNum xt[2] = {-x[1], x[0]};
    mjtNum g1 = 0, g2 = 0;
    for (int i = 0; i < 2; i++) {
      const mjtNum* e = end + 2*i;
      mjtNum u[2] = {e[0] - x[0], e[1] - x[1]};
      mjtNum len = sqrt(sqnorm2(u));
      if (len < mjMINVAL) {
        return -1;
      }
      u[0] /= len;
      u[1] /= len;
      mjtNum ut = u[0]*xt[0] + u[1]*xt[1];
      g1 -= ut;
      g2 += (r*r - ut*ut) / len + u[0]*x[0] + u[1]*x[1];
    }
    if (g2 <= mjMINVAL) {
      break;
    }
    mjtNum step = g1 / g2;
    theta -= step;
    if (fabs(step) < 1e-15) {
      break;
    }
  }

  // both wrap points at the contact point, no length on the surface
  pnt[0] = pnt[2] = r*cos(theta);
  pnt[1] = pnt[3] = r*sin(theta);
  return 0;
}

/* choose the tangent points of the path around the circle: of the two candidate paths,
 * one on each side, the one whose chord midpoint points most toward the side point, or
 * without a side point the one with the shorter chord; paths whose straight pieces cross
 * each other are ruled out */
static void chooseTangents(mjtNum pnt[4], const mjtNum e0[2], const mjtNum e1[2],
                           const mjtNum* side, mjtNum r) {
  mjtNum cand[2][4], good[2];
  for (int k = 0; k < 2; k++) {
    mjtNum sgn = (k == 0 ? -1 : 1);
    circleTangent(cand[k], e0, r, sgn);
    circleTangent(cand[k] + 2, e1, r, -sgn);

    // rating
    if (side) {
      mjtNum mid[2] = {cand[k][0] + cand[k][2], cand[k][1] + cand[k][3]};
      mju_normalize(mid, 2);
      good[k] = mid[0]*side[0] + mid[1]*side[1];
    } else {
      mjtNum chord[2] = {cand[k][0] - cand[k][2], cand[k][1] - cand[k][3]};
      good[k] = -sqnorm2(chord);
    }

    // straight pieces crossing each other: strongly penalized
    if (segmentsCross(e0, cand[k], e1, cand[k] + 2)) {
      good[k] -= 10000;
    }
  }

  int best = (good[0] > good[1] ? 0 : 1);
  for (int i = 0; i < 4; i++) {
    pnt[i] = cand[best][i];
  }
}

/* length of the arc from pnt[0..1] to pnt[2..3] travelled by a path arriving from e0: the
 * short arc, or the long one when the path goes round the other way */
static mjtNum arcLength(const mjtNum pnt[4], const mjtNum e0[2], mjtNum r) {
  mjtNum cosang = (pnt[0]*pnt[2] + pnt[1]*pnt[3]) / (r*r);
  mjtNum angle = acos(mju_clip(cosang, -1, 1));

  // sense of travel at the first point against the sense of the short arc
  mjtNum sense = pnt[0]*(pnt[1] - e0[1]) - pnt[1]*(pnt[0] - e0[0]);
  mjtNum chord = pnt[0]*pnt[3] - pnt[1]*pnt[2];
  if (sense * chord < 0) {
    angle = 2*mjPI - angle;
  }
  return r * angle;
}

/* 2D wrap of the segment end[0..1]-end[2..3] around the circle of radius r at the origin;
 * side (2D, may be NULL) selects the side, `inside` says that the side point lies inside
 * the obstacle. Returns the arc length or -1 (no wrap). */
static mjtNum wrapCircle(mjtNum pnt[4], const mjtNum end[4], const mjtNum* side, int inside,
                         mjtNum r) {
  const mjtNum* e0 = end;
  const mjtNum* e1 = end + 2;

  // an end point inside the circle, or a degenerate circle: no wrap
  if (sqnorm2(e0) < r*r || sqnorm2(e1) < r*r || r < mjMINVAL) {
    return -1;
  }

  // side point inside the obstacle: single contact point
  if (side && inside) {
    return wrapInside(pnt, end, r);
  }

  // straight segment clears the circle, on the side point's side if any: no wrap
  mjtNum c[2];
  segmentClosest(c, e0, e1);
  if (sqnorm2(c) > r*r && (!side || side[0]*c[0] + side[1]*c[1] >= 0)) {
    return -1;
  }

  // tangent points and the arc between them
  chooseTangents(pnt, e0, e1, side, r);
  return arcLength(pnt, e0, r);
}

/* sphere: 2D wrap in the plane through the center and the two end points */
static mjtNum wrapSphere(mjtNum res[6], const mjtNum p0[3], const mjtNum p1[3],
                         const mjtNum* s, mjtNum r) {
  // first axis along p0, normal to the plane of p0, p1 and the center
  mjtNum axis0[3], axis1[3], normal[3];
  mju_copy3(axis0, p0);
  mju_normalize3(axis0);
  mju_cross(normal, p0, p1);
  mjtNum nrm = mju_normalize3(normal);

  // end points and center (nearly) collinear: plane through the side point, or any plane
  if (nrm < mjMINVAL) {
    if (s) {
      mju_cross(normal, p0, s);
    }
    if (!s || mju_normalize3(normal) < mjMINVAL) {
      mjtNum other[3] = {0, 0, 0};
      other[fabs(axis0[0]) < 0.5 ? 0 : 1] = 1;
      mju_cross(normal, axis0, other);
      mju_normalize3(normal);
    }
  }

  // second axis completes the in-plane frame
  mju_cross(axis1, normal, axis0);
  mju_normalize3(axis1);

  // project end points and side point into the plane
  mjtNum end[4] = {mju_dot3(p0, axis0), mju_dot3(p0, axis1),
                   mju_dot3(p1, axis0), mju_dot3(p1, axis1)};
  mjtNum side2[2];
  if (s) {
    side2[0] = mju_dot3(s, axis0);
    side2[1] = mju_dot3(s, axis1);
  }

  // 2D wrap, then map the tangent points back to 3D
  mjtNum pnt[4];
  int inside = (s && mju_dot3(s, s) < r*r);
  mjtNum wlen = wrapCircle(pnt, end, s ? side2 : NULL, inside, r);
  if (wlen < 0) {
    return -1;
  }
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 3; i++) {
      res[3*k + i] = axis0[i]*pnt[2*k] + axis1[i]*pnt[2*k + 1];
    }
  }
  return wlen;
}

/* cylinder: 2D wrap in the cross-section, height interpolated along the unrolled path */
static mjtNum wrapCylinder(mjtNum res[6], const mjtNum p0[3], const mjtNum p1[3],
                           const mjtNum* s, mjtNum r) {
  mjtNum end[4] = {p0[0], p0[1], p1[0], p1[1]};
  mjtNum pnt[4];

  // 2D wrap in the cross-section plane
  int inside = (s && s[0]*s[0] + s[1]*s[1] < r*r);
  mjtNum arc = wrapCircle(pnt, end, s, inside, r);
  if (arc < 0) {
    return -1;
  }

  // lengths of the three pieces of the path projected on the cross-section
  mjtNum len0 = dist2(end, pnt);
  mjtNum len2 = dist2(pnt + 2, end + 2);
  mjtNum total = len0 + arc + len2;

  // heights of the tangent points: linear in the unrolled path length
  mjtNum dz = p1[2] - p0[2];
  mjtNum z0 = p0[2], z1 = p0[2];
  if (total > mjMINVAL) {
    z0 = p0[2] + dz * len0 / total;
    z1 = p0[2] + dz * (len0 + arc) / total;
  }
  res[0] = pnt[0];
  res[1] = pnt[1];
  res[2] = z0;
  res[3] = pnt[2];
  res[4] = pnt[3];
  res[5] = z1;

  // helix length on the surface
  return sqrt(arc*arc + (z1 - z0)*(z1 - z0));
}

/* wrap a segment around a sphere or cylinder; see tendon_wrap.h */
mjtNum tn_wrap(mjtNum wpnt[6], const mjtNum x0[3], const mjtNum x1[3], const mjtNum xpos[3],
               const mjtNum xmat[9], mjtNum radius, int type, const mjtNum* side) {
  mjtNum p0[3], p1[3], s[3], dif[3], loc[6];

  // end points (and side point) in the obstacle's frame
  mju_sub3(dif, x0, xpos);
  mju_mulMatTVec3(p0, xmat, dif);
  mju_sub3(dif, x1, xpos);
  mju_mulMatTVec3(p1, xmat, dif);
  if (side) {
    mju_sub3(dif, side, xpos);
    mju_mulMatTVec3(s, xmat, dif);
  }

  // an end point at the center: no wrap
  if (mju_norm3(p0) < mjMINVAL || mju_norm3(p1) < mjMINVAL) {
    return -1;
  }

  // wrap in local coordinates
  mjtNum wlen;
  if (type == mjWRAP_SPHERE) {
    wlen = wrapSphere(loc, p0, p1, side ? s : NULL, radius);
  } else {
    wlen = wrapCylinder(loc, p0, p1, side ? s : NULL, radius);
  }
  if (wlen < 0) {
    return -1;
  }

  // tangent points back to global coordinates
  for (int k = 0; k < 2; k++) {
    mju_mulMatVec3(wpnt + 3*k, xmat, loc + 3*k);
    mju_addTo3(wpnt + 3*k, xpos);
  }
  return wlen;
}
