/* collision/collision_distance.c — signed distance between two convex geoms (GJK, EPA).
 *
 * The Gilbert-Johnson-Keerthi iteration on the Minkowski difference A - B, with the geoms'
 * support functions (collision_support.c): the simplex (up to four difference points, each
 * remembered with the two support points that made it) is reduced to the face nearest the
 * origin, and the nearest point v of that face gives the next search direction -v. The
 * iteration stops when a new support point brings v no closer (relative gap below
 * 1e-12), and the nearest points on A and B follow from v's barycentric coordinates.
 * When the simplex comes to enclose the origin the geoms overlap, and the expanding
 * polytope algorithm (EPA) measures the penetration depth from that tetrahedron. Used by
 * mj_geomDistance for the pairs MuJoCo measures with its native convex solver. */
#include <math.h>

#include "collision/collision_distance.h"
#include "collision/collision_internal.h"
#include "collision/collision_support.h"
#include "util/util_inline.h"

/* one vertex of the simplex: the difference point and its two support points */
typedef struct gjkVertex_ {
  mjtNum w[3], a[3], b[3];
} gjkVertex;

/* a geom as GJK sees it: spheres and capsules by their core (center point or axis segment)
 * and radius, as MuJoCo's native solver treats them; other shapes whole (radius 0) */
typedef struct coreShape_ {
  tnConvex obj;
  int core;      /* 0: whole shape, 1: point, 2: segment along the local z axis */
  mjtNum radius; /* added to the core all around */
  mjtNum half;   /* half length of the segment */
} coreShape;

/* set up geom g */
static void core_init(coreShape* c, const mjModel* m, const mjData* d, int g) {
  tn__convexInit(&c->obj, m, d, g, 0);
  int type = m->geom_type[g];
  c->core = type == mjGEOM_SPHERE ? 1 : type == mjGEOM_CAPSULE ? 2 : 0;
  c->radius = c->core ? m->geom_size[3 * g] : 0;
  c->half = c->core == 2 ? m->geom_size[3 * g + 1] : 0;
}

/* support point of the core in unit direction u */
static void core_support(mjtNum res[3], const coreShape* c, const mjtNum u[3]) {
  if (!c->core) {
    tn__convexSupport(res, &c->obj, u);
    return;
  }
  mju_copy3(res, c->obj.pos);
  if (c->core == 2) {
    const mjtNum* R = c->obj.mat;
    mjtNum along = R[2] * u[0] + R[5] * u[1] + R[8] * u[2];
    mjtNum s = along >= 0 ? c->half : -c->half;
    res[0] += R[2] * s;
    res[1] += R[5] * s;
    res[2] += R[8] * s;
  }
}

/* support point of A - B in direction dir (not necessarily unit) */
static void difference_support(gjkVertex* v, const coreShape* A, const coreShape* B,
                               const mjtNum dir[3]) {
  mjtNum u[3], nu[3];
  mju_copy3(u, dir);
  mju_normalize3(u);
  mju_scl3(nu, u, -1);
  core_support(v->a, A, u);
  core_support(v->b, B, nu);
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

/* ---- penetration: the expanding polytope algorithm (EPA) ---- */

/* capacity of the polytope */
#define EPA_MAXVERT 128
#define EPA_MAXFACE 256

/* one triangle of the polytope: vertex ids (counter-clockwise seen from outside), outward
 * unit normal and its distance from the origin */
typedef struct epaFace_ {
  int v[3];
  mjtNum n[3];
  mjtNum dist;
  int alive;
} epaFace;

/* set a face's normal and distance from its vertices; 0 when degenerate */
static int epa_face(epaFace* f, const gjkVertex* V, int a, int b, int c) {
  mjtNum e1[3], e2[3];
  f->v[0] = a;
  f->v[1] = b;
  f->v[2] = c;
  mju_sub3(e1, V[b].w, V[a].w);
  mju_sub3(e2, V[c].w, V[a].w);
  mju_cross(f->n, e1, e2);
  mjtNum len = mju_norm3(f->n);
  f->alive = 1;
  if (len < mjMINVAL) {
    f->dist = 0;
    return 0;
  }
  mju_scl3(f->n, f->n, 1 / len);
  f->dist = mju_dot3(f->n, V[a].w);
  return 1;
}

/* Penetration of A and B from a tetrahedron of A - B containing the origin: grow the
 * polytope towards the boundary face nearest the origin until a new support point no longer
 * moves it out (relative 1e-12), or the capacity is reached. Writes the depth (> 0) and the
 * deepest points a (on A) and b (on B) from the face's barycentric weights; 0 on failure. */
static int epa_penetration(const coreShape* A, const coreShape* B, const gjkVertex tet[4],
                           mjtNum* depth, mjtNum pa[3], mjtNum pb[3]) {
  static const int tri[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
  gjkVertex V[EPA_MAXVERT];
  epaFace F[EPA_MAXFACE];
  int nv = 4, nf = 0;
  for (int i = 0; i < 4; i++) {
    V[i] = tet[i];
  }

  // the tetrahedron's faces, oriented outwards
  for (int i = 0; i < 4; i++) {
    int a = tri[i][0], b = tri[i][1], c = tri[i][2], opp = tri[i][3];
    epaFace* f = &F[nf++];
    if (!epa_face(f, V, a, b, c)) {
      return 0;
    }
    mjtNum rel[3];
    mju_sub3(rel, V[opp].w, V[a].w);
    if (mju_dot3(f->n, rel) > 0) {
      epa_face(f, V, a, c, b);
    }
  }

  epaFace* best = NULL;
  for (;;) {
    // the live face nearest the origin
    best = NULL;
    for (int i = 0; i < nf; i++) {
      if (F[i].alive && (!best || F[i].dist < best->dist)) {
        best = &F[i];
      }
    }
    if (!best) {
      return 0;
    }

    // a support point beyond it, or done
    gjkVertex w;
    difference_support(&w, A, B, best->n);
    mjtNum ext = mju_dot3(w.w, best->n);
    if (ext - best->dist <= 1e-12 * (1 + fabs(ext)) || nv >= EPA_MAXVERT) {
      break;
    }

    // remove the faces the new point sees; their unshared edges form the horizon
    int edges[3 * EPA_MAXFACE][2], ne = 0;
    for (int i = 0; i < nf; i++) {
      mjtNum rel[3];
      mju_sub3(rel, w.w, V[F[i].v[0]].w);
      if (!F[i].alive || mju_dot3(F[i].n, rel) <= 0) {
        continue;
      }
      F[i].alive = 0;
      for (int e = 0; e < 3; e++) {
        int a = F[i].v[e], b = F[i].v[(e + 1) % 3];
        int shared = -1;
        for (int k = 0; k < ne; k++) {
          if (edges[k][0] == b && edges[k][1] == a) {
            shared = k;
            break;
          }
        }
        if (shared >= 0) {
          edges[shared][0] = edges[ne - 1][0];
          edges[shared][1] = edges[ne - 1][1];
          ne--;
        } else {
          edges[ne][0] = a;
          edges[ne][1] = b;
          ne++;
        }
      }
    }

    // cone of new faces from the horizon to the new point (stop when out of room)
    if (nf + ne > EPA_MAXFACE) {
      break;
    }
    V[nv] = w;
    for (int k = 0; k < ne; k++) {
      epa_face(&F[nf++], V, edges[k][0], edges[k][1], nv);
    }
    nv++;
  }

  // deepest points: barycentric weights of the origin's projection on the nearest face
  mjtNum p[3], e0[3], e1[3], e2[3];
  mju_scl3(p, best->n, best->dist);
  const gjkVertex* a = &V[best->v[0]];
  const gjkVertex* b = &V[best->v[1]];
  const gjkVertex* c = &V[best->v[2]];
  mju_sub3(e0, b->w, a->w);
  mju_sub3(e1, c->w, a->w);
  mju_sub3(e2, p, a->w);
  mjtNum d00 = mju_dot3(e0, e0), d01 = mju_dot3(e0, e1), d11 = mju_dot3(e1, e1);
  mjtNum d20 = mju_dot3(e2, e0), d21 = mju_dot3(e2, e1);
  mjtNum den = d00 * d11 - d01 * d01;
  if (den < mjMINVAL) {
    return 0;
  }
  mjtNum lb = (d11 * d20 - d01 * d21) / den;
  mjtNum lc = (d00 * d21 - d01 * d20) / den;
  mjtNum la = 1 - lb - lc;
  for (int i = 0; i < 3; i++) {
    pa[i] = la * a->a[i] + lb * b->a[i] + lc * c->a[i];
    pb[i] = la * a->b[i] + lb * b->b[i] + lc * c->b[i];
  }
  *depth = best->dist;
  return 1;
}

/* grow the cores' answer by their radii: each point moves towards the other geom by its
 * radius and the distance drops by both (apart: along b - a; overlapping: along a - b, as
 * each deepest point lies inside the other geom); 0 when the direction is undefined */
static int add_radii(const coreShape* A, const coreShape* B, mjtNum pa[3], mjtNum pb[3],
                     mjtNum* dist, int overlap) {
  mjtNum dir[3];
  if (overlap) {
    mju_sub3(dir, pa, pb);
  } else {
    mju_sub3(dir, pb, pa);
  }
  if (mju_normalize3(dir) < mjMINVAL) {
    return A->radius + B->radius == 0;
  }
  mju_addToScl3(pa, dir, A->radius);
  mju_addToScl3(pb, dir, -B->radius);
  *dist -= A->radius + B->radius;
  return 1;
}

/* Signed distance between geoms g1 and g2 (convex, at their current poses): apart, the
 * distance and the nearest points (p1 on g1, p2 on g2); overlapping (GJK's simplex encloses
 * the origin), minus the penetration depth and the deepest points from EPA. Returns 0 when
 * neither could be measured (touching, degenerate simplices). */
int tn__convexDistance(const mjModel* m, const mjData* d, int g1, int g2, mjtNum* dist,
                       mjtNum p1[3], mjtNum p2[3]) {
  coreShape A, B;
  core_init(&A, m, d, g1);
  core_init(&B, m, d, g2);
  mjtNum radii = A.radius + B.radius;

  // start from the direction between the centers
  gjkVertex s[4];
  mjtNum v[3], lam[4] = {1, 0, 0, 0};
  mju_sub3(v, A.obj.pos, B.obj.pos);
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
      // overlap: the tetrahedron holds the origin; measure the penetration
      mjtNum depth;
      if (!epa_penetration(&A, &B, trial, &depth, p1, p2)) {
        return 0;
      }
      *dist = -depth;
      return add_radii(&A, &B, p1, p2, dist, 1);
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
  if (!(*dist > 0)) {
    return 0;
  }
  return radii > 0 ? add_radii(&A, &B, p1, p2, dist, 0) : 1;
}
