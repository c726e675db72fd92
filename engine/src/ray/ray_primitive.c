/* ray/ray_primitive.c — ray intersection with the primitive shapes: plane, sphere, capsule,
 * ellipsoid, cylinder and box (mju_rayGeom), in the shape's local frame.
 *
 * Distances are ray parameters x >= 0 (hit point pnt + x*vec); the nearest non-negative one
 * wins, so a ray starting inside a volume reports where it leaves it. A plane is hit only
 * from its front side (local +z), within its size when the size is positive. */
#include <math.h>

#include "ray/ray.h"
#include "util/util_inline.h"

/* keep the smaller non-negative candidate: best < 0 means none yet */
static mjtNum nearest(mjtNum best, mjtNum x) {
  if (x >= 0 && (best < 0 || x < best)) {
    return x;
  }
  return best;
}

/* both roots of a x^2 + 2 b x + c = 0 (a > 0), ascending; 0 if there is no real root */
static int quad_roots(mjtNum a, mjtNum b, mjtNum c, mjtNum x[2]) {
  mjtNum det = b * b - a * c;
  if (det < mjMINVAL) {
    return 0;
  }
  det = sqrt(det);
  x[0] = (-b - det) / a;
  x[1] = (-b + det) / a;
  return 1;
}

/* sphere of radius r centred at c (local frame) */
static mjtNum ray_sphere(const mjtNum p[3], const mjtNum v[3], const mjtNum c[3], mjtNum r) {
  mjtNum dp[3], x[2];
  mju_sub3(dp, p, c);
  mjtNum a = mju_dot3(v, v);
  if (a < mjMINVAL || !quad_roots(a, mju_dot3(dp, v), mju_dot3(dp, dp) - r * r, x)) {
    return -1;
  }
  return nearest(nearest(-1, x[0]), x[1]);
}

/* side of a z-aligned cylinder of radius r and half-height h */
static mjtNum ray_cylinder_side(const mjtNum p[3], const mjtNum v[3], mjtNum r, mjtNum h) {
  mjtNum a = v[0] * v[0] + v[1] * v[1], x[2], best = -1;
  if (a < mjMINVAL || !quad_roots(a, p[0] * v[0] + p[1] * v[1],
                                  p[0] * p[0] + p[1] * p[1] - r * r, x)) {
    return -1;
  }
  for (int k = 0; k < 2; k++) {
    if (fabs(p[2] + x[k] * v[2]) <= h) {
      best = nearest(best, x[k]);
    }
  }
  return best;
}

/* plane z = 0, hit from the front; finite when size[0] or size[1] is positive */
static mjtNum ray_plane(const mjtNum p[3], const mjtNum v[3], const mjtNum size[3]) {
  if (v[2] > -mjMINVAL) {
    return -1;
  }
  mjtNum x = -p[2] / v[2];
  if (x < 0) {
    return -1;
  }

  // extent check in the plane
  mjtNum hx = p[0] + x * v[0], hy = p[1] + x * v[1];
  if ((size[0] > 0 && fabs(hx) > size[0]) || (size[1] > 0 && fabs(hy) > size[1])) {
    return -1;
  }
  return x;
}

/* one end cap of a capsule: the hemisphere of radius r centred at z = side*h, beyond it */
static mjtNum ray_capsule_cap(const mjtNum p[3], const mjtNum v[3], mjtNum r, mjtNum h,
                              int side) {
  mjtNum dp[3] = {p[0], p[1], p[2] - side * h}, x[2], best = -1;
  mjtNum a = mju_dot3(v, v);
  if (a < mjMINVAL || !quad_roots(a, mju_dot3(dp, v), mju_dot3(dp, dp) - r * r, x)) {
    return -1;
  }

  // the inner hemisphere lies inside the capsule: a ray from inside must not stop there
  for (int k = 0; k < 2; k++) {
    if (side * (dp[2] + x[k] * v[2]) >= 0) {
      best = nearest(best, x[k]);
    }
  }
  return best;
}

/* capsule: cylinder side plus the two end caps */
static mjtNum ray_capsule(const mjtNum p[3], const mjtNum v[3], const mjtNum size[3]) {
  mjtNum best = ray_cylinder_side(p, v, size[0], size[1]);
  best = nearest(best, ray_capsule_cap(p, v, size[0], size[1], 1));
  return nearest(best, ray_capsule_cap(p, v, size[0], size[1], -1));
}

/* ellipsoid: a unit sphere after scaling the axes */
static mjtNum ray_ellipsoid(const mjtNum p[3], const mjtNum v[3], const mjtNum size[3]) {
  mjtNum sp[3], sv[3], zero[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    sp[k] = p[k] / size[k];
    sv[k] = v[k] / size[k];
  }
  return ray_sphere(sp, sv, zero, 1);
}

/* cylinder: side plus the two caps */
static mjtNum ray_cylinder(const mjtNum p[3], const mjtNum v[3], const mjtNum size[3]) {
  mjtNum r = size[0], h = size[1];
  mjtNum best = ray_cylinder_side(p, v, r, h);
  if (fabs(v[2]) < mjMINVAL) {
    return best;
  }
  for (int side = -1; side <= 1; side += 2) {
    mjtNum x = (side * h - p[2]) / v[2];
    mjtNum hx = p[0] + x * v[0], hy = p[1] + x * v[1];
    if (x >= 0 && hx * hx + hy * hy <= r * r) {
      best = nearest(best, x);
    }
  }
  return best;
}

/* box: the six faces */
static mjtNum ray_box(const mjtNum p[3], const mjtNum v[3], const mjtNum size[3]) {
  mjtNum best = -1;
  for (int i = 0; i < 3; i++) {
    if (fabs(v[i]) < mjMINVAL) {
      continue;
    }
    int j = (i + 1) % 3, k = (i + 2) % 3;
    for (int side = -1; side <= 1; side += 2) {
      mjtNum x = (side * size[i] - p[i]) / v[i];
      if (x >= 0 && fabs(p[j] + x * v[j]) <= size[j] && fabs(p[k] + x * v[k]) <= size[k]) {
        best = nearest(best, x);
      }
    }
  }
  return best;
}

/* the ray in a frame's local coordinates */
void tn__rayLocal(mjtNum lpnt[3], mjtNum lvec[3], const mjtNum pos[3], const mjtNum mat[9],
                  const mjtNum pnt[3], const mjtNum vec[3]) {
  mjtNum dif[3];
  mju_sub3(dif, pnt, pos);
  mju_mulMatTVec3(lpnt, mat, dif);
  mju_mulMatTVec3(lvec, mat, vec);
}

/* outward unit normal (local frame) of a primitive at surface point q */
static void primitive_normal(mjtNum n[3], int geomtype, const mjtNum size[3], const mjtNum q[3]) {
  mju_zero3(n);
  switch (geomtype) {
    case mjGEOM_SPHERE: mju_copy3(n, q); break;
    case mjGEOM_CAPSULE: {
      // away from the nearest point of the axis segment
      mjtNum z = mju_clip(q[2], -size[1], size[1]);
      n[0] = q[0], n[1] = q[1], n[2] = q[2] - z;
      break;
    }
    case mjGEOM_ELLIPSOID:
      // gradient of the implicit function sum (q_i / size_i)^2
      for (int k = 0; k < 3; k++) {
        n[k] = q[k] / (size[k] * size[k]);
      }
      break;
    case mjGEOM_CYLINDER: {
      // the cap or the side, whichever surface q is nearer to
      mjtNum rho = sqrt(q[0] * q[0] + q[1] * q[1]);
      if (fabs(fabs(q[2]) - size[1]) < fabs(rho - size[0])) {
        n[2] = q[2] < 0 ? -1 : 1;
      } else {
        n[0] = q[0], n[1] = q[1];
      }
      break;
    }
    case mjGEOM_BOX: {
      // the face q is nearest to
      int face = 0;
      for (int k = 1; k < 3; k++) {
        if (fabs(size[k] - fabs(q[k])) < fabs(size[face] - fabs(q[face]))) {
          face = k;
        }
      }
      n[face] = q[face] < 0 ? -1 : 1;
      break;
    }
    default: n[2] = 1; break;  // plane: its +z side
  }
  mju_normalize3(n);
}

/* ray against a primitive shape in global coordinates; the outward surface normal at the
 * hit (global frame) into normal when it is not NULL, zero on a miss */
mjtNum mju_rayGeom(const mjtNum pos[3], const mjtNum mat[9], const mjtNum size[3],
                   const mjtNum pnt[3], const mjtNum vec[3], int geomtype, mjtNum normal[3]) {
  mjtNum p[3], v[3], zero[3] = {0, 0, 0}, x;
  tn__rayLocal(p, v, pos, mat, pnt, vec);
  switch (geomtype) {
    case mjGEOM_PLANE: x = ray_plane(p, v, size); break;
    case mjGEOM_SPHERE: x = ray_sphere(p, v, zero, size[0]); break;
    case mjGEOM_CAPSULE: x = ray_capsule(p, v, size); break;
    case mjGEOM_ELLIPSOID: x = ray_ellipsoid(p, v, size); break;
    case mjGEOM_CYLINDER: x = ray_cylinder(p, v, size); break;
    case mjGEOM_BOX: x = ray_box(p, v, size); break;
    default: x = -1; break;
  }
  if (normal) {
    mju_zero3(normal);
    if (x >= 0) {
      mjtNum q[3], n[3];
      mju_addScl3(q, p, v, x);
      primitive_normal(n, geomtype, size, q);
      mju_mulMatVec3(normal, mat, n);
    }
  }
  return x;
}
