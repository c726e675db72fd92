/* smooth/tendon_wrap.c — geometry of tendon wrapping around spheres and cylinders.
 *
 * A spatial tendon segment between two sites is the shortest path that does not cross a
 * wrapping obstacle. Both obstacles reduce to a 2D problem around a circle: the sphere in
 * the plane through its center and the two end points, the (infinite) cylinder in its
 * cross-section plane, the height then interpolated linearly along the unrolled path
 * (a helix on the surface). A side site chooses on which side of the obstacle the path
 * goes (and forces wrapping when it lies across the straight segment from the obstacle);
 * a side site inside the obstacle (by its 3D distance from the obstacle's center, also for
 * the cylinder) makes the path touch the surface at a single point.
 *
 * Every step follows MuJoCo 3.14's arithmetic (its tests for degenerate cases, its choice
 * between the two candidate paths, its Newton iteration for the single contact point with
 * the same start, tolerance and iteration limit), so that the tangent points are MuJoCo's
 * to round-off, including where that iteration stops short of the exact point. */

#include <math.h>

#include "smooth/tendon_wrap.h"

/* settings of the Newton iteration for the single contact point (side site inside) */
#define INSIDE_MAXITER 20            /* at most this many Newton steps */
#define INSIDE_ZSTART (1 - 1e-7)     /* starting value of z (the sine of the half angle) */
#define INSIDE_TOL 1e-6              /* stop when the residual is this small */

/* normalize a 2D vector by multiplying with the reciprocal of its length ((1, 0) when
 * shorter than mjMINVAL); returns the length */
static mjtNum normalize2(mjtNum v[2]) {
  mjtNum len = sqrt(v[0]*v[0] + v[1]*v[1]);
  if (len < mjMINVAL) {
    v[0] = 1;
    v[1] = 0;
  } else {
    mjtNum inv = 1/len;
    v[0] *= inv;
    v[1] *= inv;
  }
  return len;
}

/* 1 if the 2D segments a0-a1 and b0-b1 intersect (parallel segments never do) */
static int segments_cross(const mjtNum a0[2], const mjtNum a1[2], const mjtNum b0[2],
                          const mjtNum b1[2]) {
  // determinant of the two directions
  mjtNum det = (b1[1] - b0[1])*(a1[0] - a0[0]) - (b1[0] - b0[0])*(a1[1] - a0[1]);
  if (fabs(det) < mjMINVAL) {
    return 0;
  }

  // line parameters of the crossing point on each segment, both inside [0, 1]
  mjtNum ta = ((b1[0] - b0[0])*(a0[1] - b0[1]) - (b1[1] - b0[1])*(a0[0] - b0[0])) / det;
  mjtNum tb = ((a1[0] - a0[0])*(a0[1] - b0[1]) - (a1[1] - a0[1])*(a0[0] - b0[0])) / det;
  return (ta >= 0 && ta <= 1 && tb >= 0 && tb <= 1);
}

/* length of the arc between the circle points t0 and t1: the angle between them in
 * [0, pi], replaced by its complement to 2 pi when the orientation of (t0, t1) does not
 * match the candidate path `which` (0 or 1) */
static mjtNum arc_length(const mjtNum t0[2], const mjtNum t1[2], int which, mjtNum r) {
  mjtNum u0[2] = {t0[0], t0[1]}, u1[2] = {t1[0], t1[1]};
  normalize2(u0);
  normalize2(u1);
  mjtNum angle = acos(u0[0]*u1[0] + u0[1]*u1[1]);

  // long way round
  mjtNum orient = t0[1]*t1[0] - t0[0]*t1[1];
  if ((orient > 0 && which) || (orient < 0 && !which)) {
    angle = 2*mjPI - angle;
  }
  return r * angle;
}

/* 2D wrap of the segment end[0..1]-end[2..3] around the circle of radius r at the origin;
 * side (2D, on the circle; may be NULL) selects the side. Writes the two tangent points
 * into pnt and returns the arc length between them, or -1 when the segment does not wrap. */
static mjtNum wrap_circle(mjtNum pnt[4], const mjtNum end[4], const mjtNum* side, mjtNum r) {
  mjtNum sq0 = end[0]*end[0] + end[1]*end[1];
  mjtNum sq1 = end[2]*end[2] + end[3]*end[3];
  mjtNum rr = r*r;

  // an end point inside the circle, or a degenerate circle: no wrap
  if (sq0 < rr || sq1 < rr || r < mjMINVAL) {
    return -1;
  }

  // end points (nearly) coincide: no wrap
  mjtNum dif[2] = {end[2] - end[0], end[3] - end[1]};
  mjtNum dd = dif[0]*dif[0] + dif[1]*dif[1];
  if (dd < mjMINVAL) {
    return -1;
  }

  // point of the segment closest to the center
  mjtNum u = -(dif[0]*end[0] + dif[1]*end[1]) / dd;
  if (u < 0) {
    u = 0;
  } else if (u > 1) {
    u = 1;
  }
  mjtNum near[2] = {u*dif[0] + end[0], u*dif[1] + end[1]};

  // segment clears the circle, on the side point's side if any: no wrap
  if (near[0]*near[0] + near[1]*near[1] > rr &&
      (!side || side[0]*near[0] + side[1]*near[1] >= 0)) {
    return -1;
  }

  // two candidate paths: tangent points from each end, turning one way or the other
  mjtNum h0 = sqrt(sq0 - rr), h1 = sqrt(sq1 - rr);
  mjtNum cand[2][4], rating[2];
  for (int k = 0; k < 2; k++) {
    mjtNum sgn = (k == 0 ? 1 : -1);
    cand[k][0] = (end[0]*rr + sgn*r*end[1]*h0) / sq0;
    cand[k][1] = (end[1]*rr - sgn*r*end[0]*h0) / sq0;
    cand[k][2] = (end[2]*rr - sgn*r*end[3]*h1) / sq1;
    cand[k][3] = (end[3]*rr + sgn*r*end[2]*h1) / sq1;

    // rating: chord midpoint direction toward the side point, or the shorter chord
    mjtNum v[2];
    if (side) {
      v[0] = cand[k][0] + cand[k][2];
      v[1] = cand[k][1] + cand[k][3];
      normalize2(v);
      rating[k] = v[0]*side[0] + v[1]*side[1];
    } else {
      v[0] = cand[k][0] - cand[k][2];
      v[1] = cand[k][1] - cand[k][3];
      rating[k] = -(v[0]*v[0] + v[1]*v[1]);
    }

    // straight pieces crossing each other: worst rating
    if (segments_cross(end, cand[k], end + 2, cand[k] + 2)) {
      rating[k] = -10000;
    }
  }

  // the better candidate (the second one on a tie)
  int best = (rating[0] > rating[1] ? 0 : 1);
  for (int i = 0; i < 4; i++) {
    pnt[i] = cand[best][i];
  }

  // its straight pieces cross: no wrap
  if (segments_cross(end, pnt, end + 2, pnt + 2)) {
    return -1;
  }
  return arc_length(cand[best], cand[best] + 2, best, r);
}

/* residual of the contact-point equation asin(a z) + asin(b z) - 2 asin(z) + g = 0 */
static mjtNum inside_residual(mjtNum z, mjtNum a, mjtNum b, mjtNum g) {
  return asin(a*z) + asin(b*z) - 2*asin(z) + g;
}

/* side point inside the circle: the path from end[0..1] to end[2..3] touches the circle
 * at a single point (written twice into pnt). With z the sine of the angle between the
 * path and the circle's normal there, the point solves asin(a z) + asin(b z) - 2 asin(z)
 * + g = 0 (a, b: radius over the end points' distances; g: angle between the end points),
 * found by Newton's method from just below z = 1 down to a residual of INSIDE_TOL.
 * Returns 0, or -1 when the segment does not wrap. Numerical trouble keeps the point in
 * the direction of the end points' midpoint. */
static mjtNum wrap_inside(mjtNum pnt[4], const mjtNum end[4], mjtNum r) {
  mjtNum len0 = sqrt(end[0]*end[0] + end[1]*end[1]);
  mjtNum len1 = sqrt(end[2]*end[2] + end[3]*end[3]);
  mjtNum dif[2] = {end[2] - end[0], end[3] - end[1]};
  mjtNum dd = dif[0]*dif[0] + dif[1]*dif[1];

  // an end point inside (or on) the circle, or degenerate sizes: no wrap
  if (len0 <= r || len1 <= r || r < mjMINVAL || len0 < mjMINVAL || len1 < mjMINVAL) {
    return -1;
  }

  // segment passes through the circle (closest point strictly inside it): no wrap
  if (dd > mjMINVAL) {
    mjtNum u = -(dif[0]*end[0] + dif[1]*end[1]) / dd;
    if (u > 0 && u < 1) {
      mjtNum near[2] = {end[0] + dif[0]*u, end[1] + dif[1]*u};
      if (sqrt(near[0]*near[0] + near[1]*near[1]) <= r) {
        return -1;
      }
    }
  }

  // fallback point: direction of the midpoint of the end points
  pnt[0] = 0.5*(end[0] + end[2]);
  pnt[1] = 0.5*(end[1] + end[3]);
  normalize2(pnt);
  pnt[0] *= r;
  pnt[1] *= r;
  pnt[2] = pnt[0];
  pnt[3] = pnt[1];

  // coefficients of the equation; end points in line with the center
  mjtNum a = r / len0;
  mjtNum b = r / len1;
  mjtNum cosg = (len0*len0 + len1*len1 - dd) / (2*len0*len1);
  if (cosg < -1 + mjMINVAL) {
    return -1;
  }
  if (cosg > 1 - mjMINVAL) {
    return 0;
  }
  mjtNum g = acos(cosg);

  // start below z = 1; a positive residual there: keep the fallback
  mjtNum z = INSIDE_ZSTART;
  mjtNum f = inside_residual(z, a, b, g);
  if (f > 0) {
    return 0;
  }

  // Newton iterations (z decreases monotonically); any anomaly keeps the fallback
  int iter = 0;
  while (iter < INSIDE_MAXITER && fabs(f) > INSIDE_TOL) {
    mjtNum df = a / fmax(mjMINVAL, sqrt(1 - z*z*a*a)) +
                b / fmax(mjMINVAL, sqrt(1 - z*z*b*b)) -
                2 / fmax(mjMINVAL, sqrt(1 - z*z));
    if (df > -mjMINVAL) {
      return 0;
    }
    mjtNum znew = z - f/df;
    if (znew > z) {
      return 0;
    }
    z = znew;
    f = inside_residual(z, a, b, g);
    if (f > INSIDE_TOL) {
      return 0;
    }
    iter++;
  }
  if (iter >= INSIDE_MAXITER) {
    return 0;
  }

  // contact point: the first end point's direction rotated by asin(z) - asin(a z) when
  // the end points turn counterclockwise, else the second one's by asin(z) - asin(b z)
  mjtNum dir[2], ang;
  if (end[0]*end[3] - end[1]*end[2] > 0) {
    dir[0] = end[0];
    dir[1] = end[1];
    ang = asin(z) - asin(a*z);
  } else {
    dir[0] = end[2];
    dir[1] = end[3];
    ang = asin(z) - asin(b*z);
  }
  normalize2(dir);
  pnt[0] = r*(cos(ang)*dir[0] - sin(ang)*dir[1]);
  pnt[1] = r*(sin(ang)*dir[0] + cos(ang)*dir[1]);
  pnt[2] = pnt[0];
  pnt[3] = pnt[1];
  return 0;
}

/* in-plane frame of the 2D problem: for the sphere, axis0 along p0 and axis1 completing
 * the plane of p0, p1 and the center (a fixed plane through p0 when they are in line);
 * for the cylinder, the cross-section axes x and y */
static void wrap_frame(mjtNum axis0[3], mjtNum axis1[3], const mjtNum p0[3], const mjtNum p1[3],
                       int type) {
  // cylinder: cross-section plane
  if (type != mjWRAP_SPHERE) {
    axis0[0] = 1;
    axis0[1] = axis0[2] = 0;
    axis1[1] = 1;
    axis1[0] = axis1[2] = 0;
    return;
  }

  // sphere: first axis along p0, normal of the plane of p0, p1 and the center
  mjtNum normal[3];
  mju_copy3(axis0, p0);
  mju_normalize3(axis0);
  mju_cross(normal, p0, p1);
  mjtNum nrm = mju_normalize3(normal);

  // p0 and p1 in line with the center: normal from the vector that has ones except at
  // the largest component of axis0
  if (nrm < mjMINVAL) {
    int big = 0;
    if (fabs(axis0[1]) > fabs(axis0[0]) && fabs(axis0[1]) > fabs(axis0[2])) {
      big = 1;
    }
    if (fabs(axis0[2]) > fabs(axis0[0]) && fabs(axis0[2]) > fabs(axis0[1])) {
      big = 2;
    }
    mjtNum other[3] = {1, 1, 1};
    other[big] = 0;
    mju_cross(normal, axis0, other);
    mju_normalize3(normal);
  }

  // second axis completes the in-plane frame
  mju_cross(axis1, normal, axis0);
  mju_normalize3(axis1);
}

/* wrap a segment around a sphere or cylinder; see tendon_wrap.h */
mjtNum tn__wrap(mjtNum wpnt[6], const mjtNum x0[3], const mjtNum x1[3], const mjtNum xpos[3],
                const mjtNum xmat[9], mjtNum radius, int type, const mjtNum* side) {
  mjtNum p0[3], p1[3], dif[3];

  // end points in the obstacle's frame
  mju_sub3(dif, x0, xpos);
  mju_mulMatTVec3(p0, xmat, dif);
  mju_sub3(dif, x1, xpos);
  mju_mulMatTVec3(p1, xmat, dif);

  // an end point at the center: no wrap
  if (mju_norm3(p0) < mjMINVAL || mju_norm3(p1) < mjMINVAL) {
    return -1;
  }

  // 2D problem: end points in the in-plane frame
  mjtNum axis0[3], axis1[3];
  wrap_frame(axis0, axis1, p0, p1, type);
  mjtNum end[4] = {mju_dot3(p0, axis0), mju_dot3(p0, axis1),
                   mju_dot3(p1, axis0), mju_dot3(p1, axis1)};

  // side point: in the obstacle's frame, projected into the plane and moved onto the
  // circle; it is inside when its 3D distance from the center is below the radius
  mjtNum s[3], side2[2];
  int inside = 0;
  if (side) {
    mju_sub3(dif, side, xpos);
    mju_mulMatTVec3(s, xmat, dif);
    side2[0] = mju_dot3(s, axis0);
    side2[1] = mju_dot3(s, axis1);
    normalize2(side2);
    side2[0] *= radius;
    side2[1] *= radius;
    inside = (mju_norm3(s) < radius);
  }

  // 2D wrap: single contact point, or tangent points and the arc between them
  mjtNum pnt[4];
  mjtNum wlen =
      inside ? wrap_inside(pnt, end, radius) : wrap_circle(pnt, end, side ? side2 : NULL, radius);
  if (wlen < 0) {
    return -1;
  }

  // tangent points back to 3D (obstacle frame)
  mjtNum loc[6];
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 3; i++) {
      loc[3*k + i] = axis0[i]*pnt[2*k] + axis1[i]*pnt[2*k + 1];
    }
  }

  // cylinder: heights linear in the unrolled path length, helix length on the surface
  if (type == mjWRAP_CYLINDER) {
    mjtNum l0 = sqrt((p0[0] - loc[0])*(p0[0] - loc[0]) + (p0[1] - loc[1])*(p0[1] - loc[1]));
    mjtNum l1 = sqrt((p1[0] - loc[3])*(p1[0] - loc[3]) + (p1[1] - loc[4])*(p1[1] - loc[4]));
    loc[2] = p0[2] + (p1[2] - p0[2])*l0 / (l0 + wlen + l1);
    loc[5] = p0[2] + (p1[2] - p0[2])*(l0 + wlen) / (l0 + wlen + l1);
    mjtNum height = fabs(loc[5] - loc[2]);
    wlen = sqrt(wlen*wlen + height*height);
  }

  // tangent points back to global coordinates
  for (int k = 0; k < 2; k++) {
    mju_mulMatVec3(wpnt + 3*k, xmat, loc + 3*k);
    mju_addTo3(wpnt + 3*k, xpos);
  }
  return wlen;
}
