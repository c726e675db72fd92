/* collision/collision_distance.c — distance between two separated convex geoms (GJK).
 *
 * The Gilbert-Johnson-Keerthi iteration on the Minkowski difference A - B, with the geoms'
 * support functions (collision_support.c): the simplex (up to four difference points, each
 * remembered with the two support points that made it) is reduced to the face nearest the
 * origin, and the nearest point v of that face gives the next search direction -v. The
 * iteration stops when a new support point brings v no closer (relative gap below
 * 1e-12), and the nearest points on A and B follow from v's barycentric coordinates.
 * Used by mj_geomDistance for the pairs MuJoCo measures with its native convex solver;
 * overlapping geoms are reported as such (the caller measures penetration otherwise). */
#include <math.h>

#include "collision/collision_distance.h"
#include "collision/collision_internal.h"
#include "collision/collision_support.h"
#include "util/util_inline.h"

/* one vertex of the simplex: the difference point and its two support points */
typedef struct gjkVertex_ {
  mjtNum w[3], a[3], b[3];
} gjkVertex;

/* support point of A - B in direction dir (not necessarily unit) */
static void difference_support(gjkVertex* v, const tnConvex* A, const tnConvex* B,
                               const mjtNum dir[3]) {
  mjtNum u[3], nu[3];
  mju_copy3(u, dir);
  mju_normalize3(u);
  mju_scl3(nu, u, -1);
  tn__convexSupport(v->a, A, u);
  tn__convexSupport(v->b, B, nu);
  mju_sub3(v->w, v->a, v->b);
}

/* nearest point to the origin on the affine hull of the k points of `s` selected by `mask`:
 * barycentric weights lam (over the selected points, in order); 0 when the hull is
 * degenerate or the nearest point is not strictly inside it */
static int affine_nearest(const gjkVertex* s, int mask, mjtNum lam[4], int idx[4], int* k) {
  int n = 0;
  for (int i = 0; i < 4; i++) {
    if (mask & (1 << i)) {
      idx[n++] = i;
    }
  }
  *k = n;
  if (n == 1) {
    lam[0] = 1;
    return 1;
  }

  // minimize |p0 + sum_j x_j e_j|^2 with e_j = p_j - p0: Gram system G x = -E' p0
  mjtNum e[3][3], G[9], rhs[3];
  const mjtNum* p0 = s[idx[0]].w;
  int m = n - 1;
  for (int j = 0; j < m; j++) {
    mju_sub3(e[j], s[idx[j + 1]].w, p0);
    rhs[j] = -mju_dot3(e[j], p0);
  }
  for (int r = 0; r < m; r++) {
    for (int c = 0; c < m; c++) {
      G[r * m + c] = mju_dot3(e[r], e[c]);
    }
  }

  // solve by Cramer's rule (m <= 3), rejecting degenerate hulls
  mjtNum x[3];
  if (m == 1) {
    if (G[0] < mjMINVAL) {
      return 0;
    }
    x[0] = rhs[0] / G[0];
  } else if (m == 2) {
    mjtNum det = G[0] * G[3] - G[1] * G[2];
    if (fabs(det) < mjMINVAL * (G[0] * G[3] + mjMINVAL)) {
      return 0;
    }
    x[0] = (rhs[0] * G[3] - G[1] * rhs[1]) / det;
    x[1] = (G[0] * rhs[1] - rhs[0] * G[2]) / det;
  } else {
    mjtNum c0 = G[4] * G[8] - G[5] * G[7];
    mjtNum c1 = G[3] * G[8] - G[5] * G[6];
    mjtNum c2 = G[3] * G[7] - G[4] * G[6];
    mjtNum det = G[0] * c0 - G[1] * c1 + G[2] * c2;
    if (fabs(det) < mjMINVAL * (G[0] * G[4] * G[8] + mjMINVAL)) {
      return 0;
    }
    for (int j = 0; j < 3; j++) {
      mjtNum M[9];
      for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
          M[3 * r + c] = c == j ? rhs[r] : G[3 * r + c];
        }
      }
      x[j] = (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
              M[2] * (M[3] * M[7] - M[4] * M[6])) /
             det;
    }
  }

  // barycentric weights: all strictly positive for a point inside the face
  mjtNum sum = 0;
  for (int j = 0; j < m; j++) {
    lam[j + 1] = x[j];
    sum += x[j];
  }
  lam[0] = 1 - sum;
  for (int j = 0; j < n; j++) {
    if (lam[j] <= 0) {
      return 0;
    }
  }
  return 1;
}

/* reduce the simplex (n vertices) to its face nearest the origin; writes the nearest point v
 * and returns the new vertex count, or 0 when the origin lies inside a full tetrahedron */
static int simplex_reduce(gjkVertex* s, int n, mjtNum v[3], mjtNum lam_out[4]) {
  int best_mask = 0, best_k = 0;
  mjtNum best_d2 = 0, best_lam[4] = {0}, best_v[3] = {0};
  int full = (1 << n) - 1;

  // every face (non-empty subset) whose nearest point is inside it
  for (int mask = 1; mask <= full; mask++) {
    mjtNum lam[4];
    int idx[4], k;
    if (!affine_nearest(s, mask, lam, idx, &k)) {
      continue;
    }
    mjtNum p[3] = {0, 0, 0};
    for (int j = 0; j < k; j++) {
      mju_addToScl3(p, s[idx[j]].w, lam[j]);
    }
    mjtNum d2 = mju_dot3(p, p);
    if (!best_mask || d2 < best_d2) {
      best_mask = mask;
      best_k = k;
      best_d2 = d2;
      mju_copy3(best_v, p);
      for (int j = 0; j < k; j++) {
        best_lam[j] = lam[j];
      }
    }
  }

  // the origin inside the tetrahedron: overlap
  if (n == 4 && best_mask == full) {
    return 0;
  }

  // keep the vertices of the nearest face, in order
  gjkVertex tmp[4];
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (best_mask & (1 << i)) {
      tmp[k++] = s[i];
    }
  }
  for (int i = 0; i < k; i++) {
    s[i] = tmp[i];
    lam_out[i] = best_lam[i];
  }
  mju_copy3(v, best_v);
  return best_k;
}

/* Distance between geoms g1 and g2 (convex, at their current poses) when they are apart:
 * returns 1 and writes the distance and the nearest points on each geom (p1 on g1, p2 on
 * g2); returns 0 when they touch or overlap (or the iteration found no separation). */
int tn__convexDistance(const mjModel* m, const mjData* d, int g1, int g2, mjtNum* dist,
                       mjtNum p1[3], mjtNum p2[3]) {
  tnConvex A, B;
  tn__convexInit(&A, m, d, g1, 0);
  tn__convexInit(&B, m, d, g2, 0);

  // start from the direction between the centers
  gjkVertex s[4];
  mjtNum v[3], lam[4] = {1, 0, 0, 0};
  mju_sub3(v, A.pos, B.pos);
  if (mju_dot3(v, v) < mjMINVAL) {
    v[0] = 1;
    v[1] = v[2] = 0;
  }
  difference_support(&s[0], &A, &B, v);
  mju_copy3(v, s[0].w);
  int n = 1;

  int maxiter = 100 + 10 * m->opt.ccd_iterations;
  for (int iter = 0; iter < maxiter; iter++) {
    mjtNum vv = mju_dot3(v, v);
    if (vv < mjMINVAL * mjMINVAL) {
      return 0;
    }

    // new support point against v; stop when it does not get closer
    mjtNum dir[3];
    mju_scl3(dir, v, -1);
    gjkVertex w;
    difference_support(&w, &A, &B, dir);
    mjtNum gap = vv - mju_dot3(v, w.w);
    if (gap <= 1e-12 * vv) {
      break;
    }
    int repeated = 0;
    for (int i = 0; i < n; i++) {
      mjtNum diff[3];
      mju_sub3(diff, w.w, s[i].w);
      repeated |= mju_dot3(diff, diff) < 1e-24 * (1 + vv);
    }
    if (repeated) {
      break;
    }

    // add it to a trial simplex and reduce that to its face nearest the origin
    gjkVertex trial[4];
    for (int i = 0; i < n; i++) {
      trial[i] = s[i];
    }
    trial[n] = w;
    mjtNum vnew[3], lamnew[4];
    int k = simplex_reduce(trial, n + 1, vnew, lamnew);
    if (!k) {
      return 0;
    }
    if (mju_dot3(vnew, vnew) >= vv) {
      break;  // no progress (numerical floor): keep the previous answer
    }

    // accept the trial
    for (int i = 0; i < k; i++) {
      s[i] = trial[i];
      lam[i] = lamnew[i];
    }
    n = k;
    mju_copy3(v, vnew);
  }

  // the nearest points from the barycentric weights of v
  mju_zero3(p1);
  mju_zero3(p2);
  if (n == 1) {
    lam[0] = 1;
  }
  for (int i = 0; i < n; i++) {
    mju_addToScl3(p1, s[i].a, lam[i]);
    mju_addToScl3(p2, s[i].b, lam[i]);
  }
  *dist = mju_norm3(v);
  return *dist > 0;
}
