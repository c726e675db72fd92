/* collision/collision_gjk.c — MuJoCo's native convex collision: GJK, EPA, multi-contact.
 *
 * GJK walks the Minkowski difference A - B (support points from the shapes' native support
 * functions, below) towards the origin, the nearest point of each simplex found by the
 * signed-volume method (projection on the simplex's affine hull, signs of the sub-volumes
 * decide which sub-simplex holds the nearest point). When only contact is asked for, the
 * iteration stops at the first separating direction, and once it has a tetrahedron it
 * switches to a pure intersection test that walks the tetrahedron towards the origin.
 * An enclosing (or touching) simplex is grown into a polytope (a hexahedron from a segment
 * or triangle) and expanded by EPA towards the face nearest the origin until the upper and
 * lower depth bounds meet within the tolerance (exactly, for flat-sided shapes, until a
 * support point repeats); that face gives the depth and the two witness points. Spheres
 * and capsules are reduced to their center point or axis segment first, and their radii
 * added afterwards, unless they penetrate the reduced shape. For box and mesh pairs that
 * may touch face to face, the features (vertex, edge, face) of both shapes at EPA's face
 * are matched: two anti-parallel faces, or an edge parallel to a face, are clipped
 * against each other and every vertex of the clipped polygon becomes a contact (at most
 * four, chosen to span the largest quadrilateral). The tolerances, iteration limits and
 * orders of operations follow MuJoCo 3.14, whose contacts these reproduce. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "collision/collision_gjk.h"
#include "collision/collision_internal.h"
#include "collision/collision_vec3.h"
#include "util/util_inline.h"

/* numerical limits of the solver */
#define NC_MAX DBL_MAX
#define NC_MINVAL2 (mjMINVAL * mjMINVAL)
#define NC_MAXVAL2 (mjMAXVAL * mjMAXVAL)

/* polytope capacity: enough faces for this many EPA iterations at least */
#define NC_EPA_ITER 170

/* ---------------------------------------------------------------------------------------
 * Small vector helpers (inlined, fixed order of operations)
 * ------------------------------------------------------------------------------------- */

/* a . (b x c) */
static inline mjtNum v_det(const mjtNum a[3], const mjtNum b[3], const mjtNum c[3]) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}
/* equal within mjMINVAL in every component */
static inline int v_equal(const mjtNum a[3], const mjtNum b[3]) {
  return fabs(a[0] - b[0]) < mjMINVAL && fabs(a[1] - b[1]) < mjMINVAL &&
         fabs(a[2] - b[2]) < mjMINVAL;
}
/* 1 if both positive, -1 if both negative, else 0 */
static inline int same_sign(mjtNum a, mjtNum b) {
  if (a > 0 && b > 0) {
    return 1;
  }
  if (a < 0 && b < 0) {
    return -1;
  }
  return 0;
}
/* sum of coef[i] * v_i over the first n of up to four vectors */
static inline void combine(mjtNum r[3], const mjtNum* coef, int n, const mjtNum* v1,
                           const mjtNum* v2, const mjtNum* v3, const mjtNum* v4) {
  for (int i = 0; i < 3; i++) {
    mjtNum s = coef[0] * v1[i];
    if (n > 1) {
      s += coef[1] * v2[i];
    }
    if (n > 2) {
      s += coef[2] * v3[i];
    }
    if (n > 3) {
      s += coef[3] * v4[i];
    }
    r[i] = s;
  }
}
/* ---------------------------------------------------------------------------------------
 * Native support functions
 * ------------------------------------------------------------------------------------- */

/* dot product with a float vertex */
static inline mjtNum fdot(const mjtNum a[3], const float* v) {
  return a[0] * (mjtNum)v[0] + a[1] * (mjtNum)v[1] + a[2] * (mjtNum)v[2];
}

/* support vertex (mesh vertex id) of mesh geom g in local direction dir: the first maximum
 * over all vertices starting from the previous answer (small meshes, no graph), or a climb
 * on the hull graph from the extremal vertex of dir's cell (mesh_extrema), or from the
 * previous answer when the extremal vertex is not farther along dir, that moves to the
 * best neighbour better than the best value seen so far until none is. The start decides
 * exact ties (mirror-symmetric meshes facing a direction with a zero component) as
 * MuJoCo's does. */
static int mesh_vertex(tnConvex* obj, const mjtNum dir[3]) {
  const float* vert = obj->mvert;
  const int* graph = obj->mgraph;

  // all vertices
  if (!graph) {
    int best = 0;
    mjtNum bestdot = -FLT_MAX;
    if (obj->vertindex >= 0) {
      best = obj->vertindex;
      bestdot = fdot(dir, vert + 3 * best);
    }
    for (int i = 0; i < obj->mnvert; i++) {
      mjtNum dot = fdot(dir, vert + 3 * i);
      if (dot > bestdot) {
        bestdot = dot;
        best = i;
      }
    }
    obj->vertindex = best;
    return best;
  }

  // hull graph: numvert, numface, edge addresses, global ids, edges
  int nvert = graph[0];
  const int* edgeadr = graph + 2;
  const int* globalid = graph + 2 + nvert;
  const int* edge = graph + 2 + 2 * nvert;

  // the climb starts at the extremal vertex of the direction's 3x3x3 cell, or at the
  // previous answer when that is at least as far along dir
  int cell = 13 + 9 * ((dir[0] > 0.4) - (dir[0] < -0.4)) + 3 * ((dir[1] > 0.4) - (dir[1] < -0.4)) +
             ((dir[2] > 0.4) - (dir[2] < -0.4));
  int cur = obj->mextrema[cell];
  mjtNum bestdot = fdot(dir, vert + 3 * globalid[cur]);
  if (obj->meshindex >= 0) {
    mjtNum warm = fdot(dir, vert + 3 * globalid[obj->meshindex]);
    if (!(bestdot > warm)) {
      cur = obj->meshindex;
      bestdot = warm;
    }
  }

  // steepest ascent: move to the best neighbour better than the best seen, until none is
  int prev;
  do {
    prev = cur;
    for (const int* nb = edge + edgeadr[prev]; *nb >= 0; nb++) {
      mjtNum dot = fdot(dir, vert + 3 * (ptrdiff_t)globalid[*nb]);
      if (dot > bestdot) {
        bestdot = dot;
        cur = *nb;
      }
    }
  } while (cur != prev);
  obj->meshindex = cur;
  obj->vertindex = globalid[cur];
  return globalid[cur];
}

/* support point of obj (no margin) in global unit direction dir */
static void native_support(mjtNum res[3], tnConvex* obj, const mjtNum dir[3]) {
  // height-field prism: the shared vertex choice of collision_support.c
  if (obj->geom < 0) {
    tn__prismSupport(res, obj, dir);
    return;
  }
  const mjModel* m = obj->m;
  const mjtNum* size = m->geom_size + 3 * obj->geom;
  const mjtNum* mat = obj->mat;
  mjtNum loc[3], t[3];

  // reduced shapes: center point, axis segment
  if (obj->core == 1) {
    v_copy(res, obj->pos);
    return;
  }
  if (obj->core == 2) {
    loc[2] = mat[2] * dir[0] + mat[5] * dir[1] + mat[8] * dir[2];
    local_to_global(res, mat, obj->pos, 0, 0, loc[2] >= 0 ? size[1] : -size[1]);
    return;
  }
  if (obj->type == mjGEOM_SPHERE) {
    res[0] = size[0] * dir[0] + obj->pos[0];
    res[1] = size[0] * dir[1] + obj->pos[1];
    res[2] = size[0] * dir[2] + obj->pos[2];
    return;
  }

  // the direction in the local frame
  loc[0] = mat[0] * dir[0] + mat[3] * dir[1] + mat[6] * dir[2];
  loc[1] = mat[1] * dir[0] + mat[4] * dir[1] + mat[7] * dir[2];
  loc[2] = mat[2] * dir[0] + mat[5] * dir[1] + mat[8] * dir[2];
  switch (obj->type) {
    case mjGEOM_CAPSULE:
      v_scl(t, loc, size[0]);
      t[2] += loc[2] >= 0 ? size[1] : -size[1];
      break;
    case mjGEOM_ELLIPSOID: {
      for (int i = 0; i < 3; i++) {
        t[i] = loc[i] * size[i];
      }
      // a vanishing scaled direction: the end of the x semi-axis
      mjtNum norm2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
      if (norm2 < NC_MINVAL2) {
        res[0] = mat[0] * size[0] + obj->pos[0];
        res[1] = mat[3] * size[0] + obj->pos[1];
        res[2] = mat[6] * size[0] + obj->pos[2];
        return;
      }
      mjtNum inv = 1 / sqrt(norm2);
      for (int i = 0; i < 3; i++) {
        t[i] *= inv * size[i];
      }
      break;
    }
    case mjGEOM_CYLINDER: {
      // the rim point along the direction, on the cap it points to (vertex id: 0 top,
      // 1 bottom)
      mjtNum n2 = loc[0] * loc[0] + loc[1] * loc[1];
      mjtNum scl = n2 >= NC_MINVAL2 ? size[0] / sqrt(n2) : 0;
      t[0] = scl * loc[0];
      t[1] = scl * loc[1];
      t[2] = loc[2] >= 0 ? size[1] : -size[1];
      obj->vertindex = loc[2] >= 0 ? 0 : 1;
      break;
    }
    case mjGEOM_BOX:
      for (int i = 0; i < 3; i++) {
        t[i] = (loc[i] >= 0 ? 1 : -1) * size[i];
      }
      obj->vertindex = (t[0] > 0) | ((t[1] > 0) << 1) | ((t[2] > 0) << 2);
      break;
    case mjGEOM_MESH: {
      if (!obj->mvert) {
        mju_zero3(t);
        break;
      }
      const float* v = obj->mvert + 3 * mesh_vertex(obj, loc);
      t[0] = v[0];
      t[1] = v[1];
      t[2] = v[2];
      break;
    }
    default: mju_zero3(t);
  }
  local_to_global(res, mat, obj->pos, t[0], t[1], t[2]);
}

/* center of an object: geom position, or the mean of a prism's vertices */
static void native_center(mjtNum res[3], const tnConvex* obj) {
  if (obj->geom >= 0) {
    v_copy(res, obj->pos);
    return;
  }
  mju_zero3(res);
  for (int i = 0; i < 6; i++) {
    mju_addTo3(res, obj->prism[i]);
  }
  mju_scl3(res, res, 1.0 / 6.0);
}

/* ---------------------------------------------------------------------------------------
 * Solver state
 * ------------------------------------------------------------------------------------- */

/* a point of A - B with the support points (and their vertex ids) that made it */
typedef tnCCDVertex ncVertex;

/* one triangle of the EPA polytope */
typedef struct ncFace_ {
  int v[3];     /* vertex indices */
  int adj[3];   /* neighbour across edges (v0,v1), (v1,v2), (v2,v0) */
  mjtNum p[3];  /* projection of the origin on the face's plane */
  mjtNum dist2; /* |p|^2 */
  int slot;     /* place in the candidate list; -1: not listed, -2: removed */
} ncFace;

/* the EPA polytope with its candidate list and the horizon being built */
typedef struct ncPolytope_ {
  ncVertex* verts;
  int nverts;
  ncFace* faces;
  int nfaces, maxfaces;
  ncFace** list;
  int nlist;
  mjtNum center[3]; /* inside the initial polytope: faces are oriented away from it */
  int* hface;       /* horizon: face and edge of each boundary edge */
  int* hedge;
  int nedges;
  const mjtNum* w; /* the new point the horizon is seen from */
} ncPolytope;

/* GJK / EPA state and answer */
typedef struct ncStatus_ {
  ncVertex simplex[4];
  int nsimplex;
  tnCCDResult* out; /* the caller's answer, filled in place: witness pairs, distances, their
                     * number (dist[0]: GJK/EPA's) */
  int separated;   /* GJK found a separating direction */
  mjtNum tolerance, cutoff;
  int maxiter, iter;
} ncStatus;

/* both shapes flat-sided (boxes, meshes, prisms) without margin: exact convergence */
static int discrete_pair(const tnConvex* o1, const tnConvex* o2) {
  if (o1->margin != 0 || o2->margin != 0) {
    return 0;
  }
  int t1 = o1->type, t2 = o2->type;
  return (t1 == mjGEOM_MESH || t1 == mjGEOM_BOX || t1 == mjGEOM_HFIELD) &&
         (t2 == mjGEOM_MESH || t2 == mjGEOM_BOX || t2 == mjGEOM_HFIELD);
}

/* support of A - B: A along dir, B along neg (= -dir), each pushed out by half its margin */
static void diff_support(ncVertex* v, tnConvex* o1, tnConvex* o2, const mjtNum dir[3],
                         const mjtNum neg[3]) {
  native_support(v->a, o1, dir);
  if (o1->margin > 0 && o1->geom >= 0) {
    mjtNum h = 0.5 * o1->margin;
    v->a[0] += dir[0] * h;
    v->a[1] += dir[1] * h;
    v->a[2] += dir[2] * h;
  }
  native_support(v->b, o2, neg);
  if (o2->margin > 0 && o2->geom >= 0) {
    mjtNum h = 0.5 * o2->margin;
    v->b[0] += neg[0] * h;
    v->b[1] += neg[1] * h;
    v->b[2] += neg[2] * h;
  }
  v_sub(v->w, v->a, v->b);
  v->ia = o1->vertindex;
  v->ib = o2->vertindex;
}

/* ---------------------------------------------------------------------------------------
 * Signed-volume sub-simplex solver
 * ------------------------------------------------------------------------------------- */

/* projection of the origin on the plane through a, b, c; 1 if the plane is degenerate */
static int project_plane(mjtNum r[3], const mjtNum a[3], const mjtNum b[3], const mjtNum c[3]) {
  mjtNum ba[3], ca[3], cb[3], n[3], nv, nn;
  v_sub(ba, b, a);
  v_sub(ca, c, a);
  v_sub(cb, c, b);

  // three tries with the normal from each corner, each reference vertex its own
  v_cross(n, cb, ba);
  nv = v_dot(n, b);
  nn = v_dot(n, n);
  if (nn == 0) {
    return 1;
  }
  if (nv != 0 && nn > mjMINVAL) {
    v_scl(r, n, nv / nn);
    return 0;
  }
  v_cross(n, ba, ca);
  nv = v_dot(n, a);
  nn = v_dot(n, n);
  if (nn == 0) {
    return 1;
  }
  if (nv != 0 && nn > mjMINVAL) {
    v_scl(r, n, nv / nn);
    return 0;
  }
  v_cross(n, ca, cb);
  nv = v_dot(n, c);
  nn = v_dot(n, n);
  v_scl(r, n, nv / nn);
  return 0;
}

/* barycentric weights of the point of segment (a, b) nearest the origin */
static void nearest_segment(mjtNum lam[2], const mjtNum a[3], const mjtNum b[3]) {
  // projection on the line, from b
  mjtNum d[3], p[3];
  v_sub(d, b, a);
  mjtNum s = -(v_dot(b, d) / v_dot(d, d));
  p[0] = b[0] + s * d[0];
  p[1] = b[1] + s * d[1];
  p[2] = b[2] + s * d[2];

  // the axis of the longest shadow (later axes win ties)
  mjtNum mumax = a[0] - b[0];
  int k = 0;
  for (int i = 1; i < 3; i++) {
    mjtNum mu = a[i] - b[i];
    if (fabs(mu) >= fabs(mumax)) {
      mumax = mu;
      k = i;
    }
  }
  mjtNum c1 = p[k] - b[k], c2 = a[k] - p[k];
  int inside = same_sign(mumax, c1) && same_sign(mumax, c2);
  lam[0] = inside ? c1 / mumax : 0;
  lam[1] = inside ? c2 / mumax : 1;
}

/* minors of the 4x3 matrix [a b c; 1 1 1] that drop one coordinate (x, y, z) */
static void triangle_minors(mjtNum mi[3], const mjtNum a[3], const mjtNum b[3], const mjtNum c[3]) {
  mi[0] = b[1] * c[2] - b[2] * c[1] - a[1] * c[2] + a[2] * c[1] + a[1] * b[2] - a[2] * b[1];
  mi[1] = b[0] * c[2] - b[2] * c[0] - a[0] * c[2] + a[2] * c[0] + a[0] * b[2] - a[2] * b[0];
  mi[2] = b[0] * c[1] - b[1] * c[0] - a[0] * c[1] + a[1] * c[0] + a[0] * b[1] - a[1] * b[0];
}

/* the two coordinates kept when projecting a triangle (drop the largest minor's axis) */
static mjtNum projection_axes(const mjtNum mi[3], int* x, int* y) {
  mjtNum m1 = fabs(mi[0]), m2 = fabs(mi[1]), m3 = fabs(mi[2]);
  if (m1 >= m2 && m1 >= m3) {
    *x = 1, *y = 2;
    return mi[0];
  }
  if (m2 >= m3) {
    *x = 0, *y = 2;
    return mi[1];
  }
  *x = 0, *y = 1;
  return mi[2];
}

/* signed area (2D, axes x, y) of triangle (p, u, v) */
static inline mjtNum area2(const mjtNum p[3], const mjtNum u[3], const mjtNum v[3], int x, int y) {
  return p[x] * u[y] + p[y] * v[x] + u[x] * v[y] - p[x] * v[y] - p[y] * u[x] - v[x] * u[y];
}

/* barycentric weights of the point of triangle (a, b, c) nearest the origin */
static void nearest_triangle(mjtNum lam[3], const mjtNum a[3], const mjtNum b[3],
                             const mjtNum c[3]) {
  mjtNum p[3];
  if (project_plane(p, a, b, c)) {
    nearest_segment(lam, a, b);
    lam[2] = 0;
    return;
  }
  mjtNum mi[3];
  int x, y;
  triangle_minors(mi, a, b, c);
  mjtNum mmax = projection_axes(mi, &x, &y);
  mjtNum c1 = area2(p, b, c, x, y), c2 = area2(p, c, a, x, y), c3 = area2(p, a, b, x, y);
  int s1 = same_sign(mmax, c1), s2 = same_sign(mmax, c2), s3 = same_sign(mmax, c3);
  if (s1 && s2 && s3) {
    lam[0] = c1 / mmax;
    lam[1] = c2 / mmax;
    lam[2] = c3 / mmax;
    return;
  }

  // the nearest of the edges whose opposite vertex has the wrong sign
  mjtNum best = NC_MAX, l[2], q[3];
  if (!s1) {
    nearest_segment(l, b, c);
    combine(q, l, 2, b, c, NULL, NULL);
    best = v_dot(q, q);
    lam[0] = 0, lam[1] = l[0], lam[2] = l[1];
  }
  if (!s2) {
    nearest_segment(l, a, c);
    combine(q, l, 2, a, c, NULL, NULL);
    mjtNum dd = v_dot(q, q);
    if (dd < best) {
      best = dd;
      lam[0] = l[0], lam[1] = 0, lam[2] = l[1];
    }
  }
  if (!s3) {
    nearest_segment(l, a, b);
    combine(q, l, 2, a, b, NULL, NULL);
    mjtNum dd = v_dot(q, q);
    if (dd < best) {
      lam[0] = l[0], lam[1] = l[1], lam[2] = 0;
    }
  }
}

/* barycentric weights of the point of tetrahedron (a, b, c, e) nearest the origin */
static void nearest_tetra(mjtNum lam[4], const mjtNum a[3], const mjtNum b[3], const mjtNum c[3],
                          const mjtNum e[3]) {
  mjtNum c1 = -v_det(b, c, e), c2 = v_det(a, c, e), c3 = -v_det(a, b, e), c4 = v_det(a, b, c);
  mjtNum det = c1 + c2 + c3 + c4;
  int s1 = same_sign(det, c1), s2 = same_sign(det, c2), s3 = same_sign(det, c3),
      s4 = same_sign(det, c4);
  if (s1 && s2 && s3 && s4) {
    lam[0] = c1 / det;
    lam[1] = c2 / det;
    lam[2] = c3 / det;
    lam[3] = c4 / det;
    return;
  }

  // the nearest of the faces whose opposite vertex has the wrong sign
  mjtNum best = NC_MAX, l[3], q[3];
  if (!s1) {
    nearest_triangle(l, b, c, e);
    combine(q, l, 3, b, c, e, NULL);
    best = v_dot(q, q);
    lam[0] = 0, lam[1] = l[0], lam[2] = l[1], lam[3] = l[2];
  }
  if (!s2) {
    nearest_triangle(l, a, c, e);
    combine(q, l, 3, a, c, e, NULL);
    mjtNum dd = v_dot(q, q);
    if (dd < best) {
      best = dd;
      lam[0] = l[0], lam[1] = 0, lam[2] = l[1], lam[3] = l[2];
    }
  }
  if (!s3) {
    nearest_triangle(l, a, b, e);
    combine(q, l, 3, a, b, e, NULL);
    mjtNum dd = v_dot(q, q);
    if (dd < best) {
      best = dd;
      lam[0] = l[0], lam[1] = l[1], lam[2] = 0, lam[3] = l[2];
    }
  }
  if (!s4) {
    nearest_triangle(l, a, b, c);
    combine(q, l, 3, a, b, c, NULL);
    mjtNum dd = v_dot(q, q);
    if (dd < best) {
      lam[0] = l[0], lam[1] = l[1], lam[2] = l[2], lam[3] = 0;
    }
  }
}

/* weights of the nearest point of the first n simplex vertices (zero for unused ones) */
static void sub_simplex(mjtNum lam[4], int n, const ncVertex s[4]) {
  lam[0] = lam[1] = lam[2] = lam[3] = 0;
  switch (n) {
    case 4: nearest_tetra(lam, s[0].w, s[1].w, s[2].w, s[3].w); break;
    case 3: nearest_triangle(lam, s[0].w, s[1].w, s[2].w); break;
    case 2: nearest_segment(lam, s[0].w, s[1].w); break;
    default: lam[0] = 1;
  }
}

/* ---------------------------------------------------------------------------------------
 * GJK
 * ------------------------------------------------------------------------------------- */

/* unit normal of triangle (a, b, c) as (c - a) x (b - a) and its offset from the origin;
 * NC_MAX when the normal is undefined */
static mjtNum face_offset(mjtNum n[3], const ncVertex* a, const ncVertex* b, const ncVertex* c) {
  mjtNum e1[3], e2[3];
  v_sub(e1, c->w, a->w);
  v_sub(e2, b->w, a->w);
  v_cross(n, e1, e2);
  mjtNum nn = v_dot(n, n);
  if (nn > NC_MINVAL2 && nn < NC_MAXVAL2) {
    v_scl(n, n, 1 / sqrt(nn));
    return v_dot(n, a->w);
  }
  return NC_MAX;
}

/* intersection test from GJK's tetrahedron: 1 overlap (the enclosing tetrahedron left in
 * the status), 0 apart, -1 undecided */
static int gjk_intersect(ncStatus* st, tnConvex* o1, tnConvex* o2) {
  ncVertex s[4] = {st->simplex[0], st->simplex[1], st->simplex[2], st->simplex[3]};
  int id[4] = {0, 1, 2, 3};
  int k = st->iter;
  for (; k < st->maxiter; k++) {
    // offsets of the four faces, normals pointing away from the opposite vertex
    mjtNum off[4], nrm[12];
    off[0] = face_offset(nrm + 0, s + id[2], s + id[1], s + id[3]);
    off[1] = face_offset(nrm + 3, s + id[0], s + id[2], s + id[3]);
    off[2] = face_offset(nrm + 6, s + id[1], s + id[0], s + id[3]);
    off[3] = face_offset(nrm + 9, s + id[0], s + id[1], s + id[2]);
    if (!off[3] || !off[2] || !off[1] || !off[0]) {
      st->iter = k;
      return -1;
    }

    // the face nearest the origin; all offsets positive: the origin is inside
    int i = off[0] < off[1] ? 0 : 1;
    int j = off[2] < off[3] ? 2 : 3;
    int f = off[i] < off[j] ? i : j;
    if (off[f] > 0) {
      st->nsimplex = 4;
      for (int q = 0; q < 4; q++) {
        st->simplex[q] = s[id[q]];
      }
      st->iter = k;
      return 1;
    }

    // replace the vertex opposite that face by the support point beyond it
    mjtNum neg[3] = {-nrm[3 * f], -nrm[3 * f + 1], -nrm[3 * f + 2]};
    diff_support(s + id[f], o1, o2, nrm + 3 * f, neg);
    if (v_dot(nrm + 3 * f, s[id[f]].w) < 0) {
      v_scl(st->out->sep, nrm + 3 * f, -1);
      st->nsimplex = 0;
      st->iter = k;
      return 0;
    }

    // keep the orientation
    i = (f + 1) & 3;
    j = (f + 2) & 3;
    int t = id[i];
    id[i] = id[j];
    id[j] = t;
  }
  st->iter = k;
  return -1;
}

/* support point of A - B against x (|x| = xnorm): along -x / xnorm */
static void support_against(ncVertex* v, tnConvex* o1, tnConvex* o2, const mjtNum x[3],
                            mjtNum xnorm) {
  mjtNum dir[3], neg[3];
  v_scl(neg, x, 1 / xnorm);
  v_scl(dir, neg, -1);
  diff_support(v, o1, o2, dir, neg);
}

/* separation found along x: no answer (x kept as the pair's separating direction) */
static void gjk_apart(ncStatus* st, int k, const mjtNum x[3]) {
  v_copy(st->out->sep, x);
  st->separated = 1;
  st->iter = k;
  st->nsimplex = 0;
  st->out->nx = 0;
  st->out->dist[0] = NC_MAX;
}

/* the GJK iteration from the witness guess in st->out->x1, st->out->x2 */
static void gjk(ncStatus* st, tnConvex* o1, tnConvex* o2) {
  int getdist = st->cutoff > 0;
  int backup = !getdist;
  ncVertex* s = st->simplex;
  int n = 0, k = 0;
  mjtNum x[3], lam[4] = {0, 0, 0, 0};
  int discrete = discrete_pair(o1, o2);
  mjtNum eps = discrete ? 0 : 0.5 * (st->tolerance * st->tolerance);
  mjtNum minnorm = discrete ? mjMINVAL : st->tolerance;
  st->separated = 0;
  v_sub(x, st->out->x1, st->out->x2);
  mjtNum xnorm = sqrt(v_dot(x, x)), xprev = 0;

  for (; k < st->maxiter; k++) {
    // converged to the origin, or stalled
    if (xnorm < minnorm || fabs(xprev - xnorm) < mjMINVAL) {
      break;
    }

    // support point against x; Frank-Wolfe duality gap small: converged
    support_against(s + n, o1, o2, x, xnorm);
    const mjtNum* w = s[n].w;
    mjtNum diff[3];
    v_sub(diff, x, w);
    if (v_dot(x, diff) < eps) {
      break;
    }

    // a separating plane: no contact (or beyond the distance cutoff)
    mjtNum lower = v_dot(x, w);
    if (!getdist) {
      if (lower > 0) {
        gjk_apart(st, k, x);
        return;
      }
    } else if (st->cutoff < NC_MAX) {
      if (lower > 0 && lower >= st->cutoff * xnorm) {
        gjk_apart(st, k, x);
        return;
      }
    }

    // a tetrahedron while only contact is needed: decide by the intersection test
    if (n == 3 && backup) {
      st->iter = k;
      int ret = gjk_intersect(st, o1, o2);
      if (ret != -1) {
        st->out->nx = 0;
        st->separated = ret == 0;
        st->out->dist[0] = ret > 0 ? 0 : NC_MAX;
        return;
      }
      k = st->iter;
      backup = 0;
    }

    // nearest point of the simplex; drop the vertices it does not use
    sub_simplex(lam, n + 1, s);
    n = 0;
    for (int i = 0; i < 4; i++) {
      if (!lam[i]) {
        continue;
      }
      s[n] = s[i];
      lam[n++] = lam[i];
    }
    if (n < 1) {
      gjk_apart(st, k, x);
      return;
    }
    combine(x, lam, n, s[0].w, s[1].w, s[2].w, s[3].w);
    xprev = xnorm;
    xnorm = sqrt(v_dot(x, x));
    if (n == 4) {
      break;
    }
  }

  // witness points; separated if the last direction still separates
  if (n > 0) {
    combine(st->out->x1, lam, n, s[0].a, s[1].a, s[2].a, s[3].a);
    combine(st->out->x2, lam, n, s[0].b, s[1].b, s[2].b, s[3].b);
  }
  ncVertex last;
  v_copy(st->out->sep, x);
  support_against(&last, o1, o2, x, xnorm);
  if (v_dot(x, last.w) > 0) {
    st->separated = 1;
  }
  st->out->nx = 1;
  st->iter = k;
  st->nsimplex = n;
  st->out->dist[0] = (n == 4 && !st->separated) ? 0 : xnorm;
}

/* ---------------------------------------------------------------------------------------
 * EPA
 * ------------------------------------------------------------------------------------- */

/* append a copy of v to the polytope */
static int add_vertex(ncPolytope* pt, const ncVertex* v) {
  int n = pt->nverts++;
  pt->verts[n] = *v;
  return n;
}

/* append the support point along d (|d| = dnorm; the x axis when d vanishes) */
static int add_support(ncPolytope* pt, tnConvex* o1, tnConvex* o2, const mjtNum d[3],
                       mjtNum dnorm) {
  mjtNum dir[3] = {1, 0, 0}, neg[3] = {-1, 0, 0};
  if (dnorm > mjMINVAL) {
    dir[0] = d[0] / dnorm;
    dir[1] = d[1] / dnorm;
    dir[2] = d[2] / dnorm;
    v_scl(neg, dir, -1);
  }
  int n = pt->nverts++;
  diff_support(pt->verts + n, o1, o2, dir, neg);
  return n;
}

/* append face (v1, v2, v3) with its neighbours; returns its squared distance (0 when the
 * plane is degenerate) */
static mjtNum add_face(ncPolytope* pt, int v1, int v2, int v3, int a1, int a2, int a3) {
  ncFace* f = &pt->faces[pt->nfaces++];
  f->v[0] = v1, f->v[1] = v2, f->v[2] = v3;
  f->adj[0] = a1, f->adj[1] = a2, f->adj[2] = a3;
  if (project_plane(f->p, pt->verts[v3].w, pt->verts[v2].w, pt->verts[v1].w)) {
    return 0;
  }

  // the origin's projection doubles as the outward normal: away from the center
  mjtNum out[3];
  v_sub(out, pt->verts[v1].w, pt->center);
  if (v_dot(f->p, out) < 0) {
    v_scl(f->p, f->p, -1);
  }
  f->dist2 = v_dot(f->p, f->p);
  f->slot = -1;
  return f->dist2;
}

/* put the first n faces on the candidate list */
static void list_faces(ncPolytope* pt, int n) {
  for (int i = 0; i < n; i++) {
    pt->list[i] = pt->faces + i;
    pt->faces[i].slot = i;
  }
  pt->nlist = n;
}

/* restart from the triangle (v1, v2, v3) of the polytope */
static void to_triangle(ncPolytope* pt, ncStatus* st, int v1, int v2, int v3) {
  st->nsimplex = 3;
  st->simplex[0] = pt->verts[v1];
  st->simplex[1] = pt->verts[v2];
  st->simplex[2] = pt->verts[v3];
  pt->nfaces = pt->nverts = pt->nlist = 0;
}

/* 1 if the origin and p3 lie strictly on the same side of plane (p0, p1, p2) */
static int same_side(const mjtNum p0[3], const mjtNum p1[3], const mjtNum p2[3],
                     const mjtNum p3[3]) {
  mjtNum e1[3], e2[3], e3[3], o[3], n[3];
  v_sub(e1, p1, p0);
  v_sub(e2, p2, p0);
  v_cross(n, e1, e2);
  v_sub(e3, p3, p0);
  mjtNum d1 = v_dot(n, e3);
  v_scl(o, p0, -1);
  mjtNum d2 = v_dot(n, o);
  return (d1 > 0 && d2 > 0) || (d1 < 0 && d2 < 0);
}

/* 1 if the tetrahedron holds the origin */
static int holds_origin(const mjtNum p0[3], const mjtNum p1[3], const mjtNum p2[3],
                        const mjtNum p3[3]) {
  return same_side(p0, p1, p2, p3) && same_side(p1, p2, p3, p0) && same_side(p2, p3, p0, p1) &&
         same_side(p3, p0, p1, p2);
}

/* rotation by 120 degrees about axis */
static void rot120(mjtNum R[9], const mjtNum axis[3]) {
  mjtNum n = sqrt(v_dot(axis, axis));
  mjtNum u1 = axis[0] / n, u2 = axis[1] / n, u3 = axis[2] / n;
  const mjtNum s = 0.86602540378, c = -0.5;
  R[0] = c + u1 * u1 * (1 - c);
  R[1] = u1 * u2 * (1 - c) - u3 * s;
  R[2] = u1 * u3 * (1 - c) + u2 * s;
  R[3] = u2 * u1 * (1 - c) + u3 * s;
  R[4] = c + u2 * u2 * (1 - c);
  R[5] = u2 * u3 * (1 - c) - u1 * s;
  R[6] = u1 * u3 * (1 - c) - u2 * s;
  R[7] = u2 * u3 * (1 - c) + u1 * s;
  R[8] = c + u3 * u3 * (1 - c);
}

/* nonzero if the line through v1, v2 crosses triangle (v3, v4, v5) */
static int line_crosses(const mjtNum v1[3], const mjtNum v2[3], const mjtNum v3[3],
                        const mjtNum v4[3], const mjtNum v5[3]) {
  mjtNum d12[3], d13[3], d14[3], d15[3];
  v_sub(d12, v2, v1);
  v_sub(d13, v3, v1);
  v_sub(d14, v4, v1);
  v_sub(d15, v5, v1);
  mjtNum a = v_det(d13, d14, d12), b = v_det(d14, d15, d12), c = v_det(d15, d13, d12);
  if (a >= 0 && b >= 0 && c >= 0) {
    return 1;
  }
  if (a <= 0 && b <= 0 && c <= 0) {
    return -1;
  }
  return 0;
}

/* affine coordinates of p (in the plane) on triangle (a, b, c) */
static void triangle_coords(mjtNum lam[3], const mjtNum a[3], const mjtNum b[3], const mjtNum c[3],
                            const mjtNum p[3]) {
  mjtNum mi[3];
  int x, y;
  triangle_minors(mi, a, b, c);
  mjtNum mmax = projection_axes(mi, &x, &y);
  lam[0] = area2(p, b, c, x, y) / mmax;
  lam[1] = area2(p, c, a, x, y) / mmax;
  lam[2] = area2(p, a, b, x, y) / mmax;
}

/* 1 if p lies on triangle (a, b, c) */
static int on_triangle(const mjtNum a[3], const mjtNum b[3], const mjtNum c[3], const mjtNum p[3]) {
  mjtNum lam[3], q[3], d[3];
  triangle_coords(lam, a, b, c, p);
  if (lam[0] < 0 || lam[1] < 0 || lam[2] < 0) {
    return 0;
  }
  for (int i = 0; i < 3; i++) {
    q[i] = a[i] * lam[0] + b[i] * lam[1] + c[i] * lam[2];
  }
  v_sub(d, q, p);
  return sqrt(v_dot(d, d)) < mjMINVAL;
}

static int polytope_triangle(ncPolytope* pt, ncStatus* st, tnConvex* o1, tnConvex* o2);

/* hexahedron around a segment simplex: three support points 120 degrees apart around it;
 * 0 on success */
static int polytope_segment(ncPolytope* pt, ncStatus* st, tnConvex* o1, tnConvex* o2) {
  const mjtNum *v1 = st->simplex[0].w, *v2 = st->simplex[1].w;
  mjtNum diff[3];
  v_add(pt->center, v1, v2);
  v_scl(pt->center, pt->center, 0.5);
  v_sub(diff, v2, v1);

  // the axis with the smallest component makes the largest cross product
  mjtNum small = NC_MAX;
  int k = 0;
  for (int i = 0; i < 3; i++) {
    if (fabs(diff[i]) < small) {
      small = fabs(diff[i]);
      k = i;
    }
  }
  mjtNum e[3] = {0, 0, 0}, d1[3], d2[3], d3[3], R[9];
  e[k] = 1;
  v_cross(d1, e, diff);
  rot120(R, diff);
  mju_mulMatVec3(d2, R, d1);
  mju_mulMatVec3(d3, R, d2);

  int i1 = add_vertex(pt, st->simplex + 0);
  int i2 = add_vertex(pt, st->simplex + 1);
  int i3 = add_support(pt, o1, o2, d1, sqrt(v_dot(d1, d1)));
  int i4 = add_support(pt, o1, o2, d2, sqrt(v_dot(d2, d2)));
  int i5 = add_support(pt, o1, o2, d3, sqrt(v_dot(d3, d3)));

  // six faces; one through the origin: restart from that triangle
  static const int tri[6][6] = {{0, 2, 3, 1, 3, 2}, {0, 4, 2, 2, 4, 0}, {0, 3, 4, 0, 5, 1},
                                {1, 3, 2, 5, 0, 4}, {1, 2, 4, 3, 1, 5}, {1, 4, 3, 4, 2, 3}};
  int idx[5] = {i1, i2, i3, i4, i5};
  for (int f = 0; f < 6; f++) {
    int a = idx[tri[f][0]], b = idx[tri[f][1]], c = idx[tri[f][2]];
    if (add_face(pt, a, b, c, tri[f][3], tri[f][4], tri[f][5]) < NC_MINVAL2) {
      to_triangle(pt, st, a, b, c);
      return polytope_triangle(pt, st, o1, o2);
    }
  }

  // the hexahedron must be convex
  if (!line_crosses(pt->verts[i1].w, pt->verts[i2].w, pt->verts[i3].w, pt->verts[i4].w,
                    pt->verts[i5].w)) {
    return 2;
  }
  list_faces(pt, 6);
  return 0;
}

/* hexahedron around a triangle simplex: the support points along both normals; 0 on
 * success */
static int polytope_triangle(ncPolytope* pt, ncStatus* st, tnConvex* o1, tnConvex* o2) {
  const mjtNum *v1 = st->simplex[0].w, *v2 = st->simplex[1].w, *v3 = st->simplex[2].w;
  mjtNum e1[3], e2[3], n[3], nn[3];
  v_add(pt->center, v1, v2);
  v_add(pt->center, pt->center, v3);
  v_scl(pt->center, pt->center, 1.0 / 3.0);
  v_sub(e1, v2, v1);
  v_sub(e2, v3, v1);
  v_cross(n, e1, e2);
  mjtNum nnorm = sqrt(v_dot(n, n));
  if (nnorm < mjMINVAL) {
    return 4;
  }
  v_scl(nn, n, -1);
  int i1 = add_vertex(pt, st->simplex + 0);
  int i2 = add_vertex(pt, st->simplex + 1);
  int i3 = add_vertex(pt, st->simplex + 2);
  int i5 = add_support(pt, o1, o2, nn, nnorm);
  int i4 = add_support(pt, o1, o2, n, nnorm);
  const mjtNum* v4 = pt->verts[i4].w;
  const mjtNum* v5 = pt->verts[i5].w;

  // both apexes off the triangle, and one of the two tetrahedra holding the origin unless
  // the triangle (nearly) touches it
  if (on_triangle(v1, v2, v3, v4) || on_triangle(v1, v2, v3, v5)) {
    return 5;
  }
  if (st->out->dist[0] > 10 * mjMINVAL && !holds_origin(v1, v2, v3, v4) &&
      !holds_origin(v1, v2, v3, v5)) {
    return 7;
  }
  static const int tri[6][6] = {{3, 0, 1, 1, 3, 2}, {3, 2, 0, 2, 4, 0}, {3, 1, 2, 0, 5, 1},
                                {4, 1, 0, 5, 0, 4}, {4, 0, 2, 3, 1, 5}, {4, 2, 1, 4, 2, 3}};
  int idx[5] = {i1, i2, i3, i4, i5};
  for (int f = 0; f < 6; f++) {
    if (add_face(pt, idx[tri[f][0]], idx[tri[f][1]], idx[tri[f][2]], tri[f][3], tri[f][4],
                 tri[f][5]) < NC_MINVAL2) {
      return 8;
    }
  }
  list_faces(pt, 6);
  return 0;
}

/* the tetrahedron simplex itself; 0 on success */
static int polytope_tetra(ncPolytope* pt, ncStatus* st, tnConvex* o1, tnConvex* o2) {
  int v1 = add_vertex(pt, st->simplex + 0);
  int v2 = add_vertex(pt, st->simplex + 1);
  int v3 = add_vertex(pt, st->simplex + 2);
  int v4 = add_vertex(pt, st->simplex + 3);
  v_add(pt->center, pt->verts[v1].w, pt->verts[v2].w);
  v_add(pt->center, pt->center, pt->verts[v3].w);
  v_add(pt->center, pt->center, pt->verts[v4].w);
  v_scl(pt->center, pt->center, 0.25);
  int tri[4][6] = {
      {v1, v2, v3, 1, 3, 2}, {v1, v4, v2, 2, 3, 0}, {v1, v3, v4, 0, 3, 1}, {v4, v3, v2, 2, 0, 1}};
  for (int f = 0; f < 4; f++) {
    if (add_face(pt, tri[f][0], tri[f][1], tri[f][2], tri[f][3], tri[f][4], tri[f][5]) <
        NC_MINVAL2) {
      to_triangle(pt, st, tri[f][0], tri[f][1], tri[f][2]);
      return polytope_triangle(pt, st, o1, o2);
    }
  }
  if (!holds_origin(pt->verts[v1].w, pt->verts[v2].w, pt->verts[v3].w, pt->verts[v4].w)) {
    return 9;
  }
  list_faces(pt, 4);
  return 0;
}

/* take a face off the candidate list and mark it removed */
static void remove_face(ncPolytope* pt, ncFace* f) {
  if (f->slot >= 0) {
    pt->list[f->slot] = pt->list[--pt->nlist];
    pt->list[f->slot]->slot = f->slot;
  }
  f->slot = -2;
}

/* add an edge to the horizon */
static void horizon_edge(ncPolytope* pt, int face, int edge) {
  pt->hedge[pt->nedges] = edge;
  pt->hface[pt->nedges++] = face;
}

/* which edge of f starts at vertex v */
static int edge_of(const ncFace* f, int v) {
  if (f->v[0] == v) {
    return 0;
  }
  if (f->v[1] == v) {
    return 1;
  }
  return 2;
}

/* remove f if the new point sees it and search on across its other two edges; 1 if
 * removed */
static int horizon_search(ncPolytope* pt, ncFace* f, int e) {
  if (v_dot(f->p, pt->w) - f->dist2 > mjMINVAL) {
    remove_face(pt, f);
    for (int k = 1; k < 3; k++) {
      int i = (e + k) % 3;
      ncFace* nb = &pt->faces[f->adj[i]];
      if (nb->slot > -2) {
        int ne = edge_of(nb, f->v[(i + 1) % 3]);
        if (!horizon_search(pt, nb, ne)) {
          horizon_edge(pt, f->adj[i], ne);
        }
      }
    }
    return 1;
  }
  return 0;
}

/* the horizon seen from pt->w, starting at the (visible) face f */
static void build_horizon(ncPolytope* pt, ncFace* f) {
  remove_face(pt, f);
  for (int i = 0; i < 3; i++) {
    ncFace* nb = &pt->faces[f->adj[i]];
    int ne = edge_of(nb, f->v[(i + 1) % 3]);
    if ((i == 0 || nb->slot > -2) && !horizon_search(pt, nb, ne)) {
      horizon_edge(pt, f->adj[i], ne);
    }
  }
}

/* witness points of face f: the barycentric coordinates of its origin projection */
static void face_witness(const ncPolytope* pt, const ncFace* f, mjtNum x1[3], mjtNum x2[3]) {
  mjtNum lam[3];
  const ncVertex *a = pt->verts + f->v[0], *b = pt->verts + f->v[1], *c = pt->verts + f->v[2];
  triangle_coords(lam, a->w, b->w, c->w, f->p);
  for (int i = 0; i < 3; i++) {
    x1[i] = a->a[i] * lam[0] + b->a[i] * lam[1] + c->a[i] * lam[2];
  }
  for (int i = 0; i < 3; i++) {
    x2[i] = a->b[i] * lam[0] + b->b[i] * lam[1] + c->b[i] * lam[2];
  }
}

/* expand the polytope towards the origin's nearest face; returns that face (witness points
 * and distance in the status) or NULL */
static ncFace* epa(ncStatus* st, ncPolytope* pt, tnConvex* o1, tnConvex* o2) {
  mjtNum upper = NC_MAX, upper2 = NC_MAX, lower2;
  ncFace *face = NULL, *prev = NULL;
  mjtNum tol = st->tolerance;
  int discrete = discrete_pair(o1, o2);
  if (discrete) {
    tol = mjMINVAL;
  }
  int kmax = st->maxiter < 1000 ? st->maxiter : 1000;
  for (int k = 0; k < kmax; k++) {
    prev = face;

    // nearest candidate face: the lower bound
    lower2 = NC_MAX;
    for (int i = 0; i < pt->nlist; i++) {
      if (pt->list[i]->dist2 < lower2) {
        face = pt->list[i];
        lower2 = face->dist2;
      }
    }
    if (lower2 > upper2 || !face) {
      face = prev;
      break;
    }
    if (lower2 <= 0) {
      break;
    }

    // support point along its normal: the upper bound
    mjtNum lower = sqrt(lower2);
    int wi = add_support(pt, o1, o2, face->p, lower);
    const ncVertex* w = pt->verts + wi;
    mjtNum up = v_dot(face->p, w->w) / lower;
    if (up < upper) {
      upper = up;
      upper2 = upper * upper;
    }
    if (upper - lower < tol) {
      // an upper bound below the lower one at once: no penetration after all
      if (k == 0 && upper < lower - 1e-10) {
        face = NULL;
      }
      break;
    }

    // flat-sided shapes: a repeated support point ends the expansion
    if (discrete) {
      int i = 0, nv = pt->nverts - 1;
      for (; i < nv; i++) {
        if (w->ia == pt->verts[i].ia && w->ib == pt->verts[i].ib) {
          break;
        }
      }
      if (i != nv) {
        break;
      }
    }

    // the horizon seen from w, and a cone of new faces from it to w
    pt->w = w->w;
    build_horizon(pt, face);
    if (pt->nedges < 3) {
      face = NULL;
      break;
    }
    int nf = pt->nfaces, ne = pt->nedges;
    if (ne > pt->maxfaces - pt->nfaces) {
      break;
    }
    for (int i = 0; i < ne; i++) {
      int cur = nf + i, nxt = nf + (i + 1) % ne, before = i ? cur - 1 : nf + ne - 1;
      int hf = pt->hface[i], he = pt->hedge[i];
      ncFace* h = &pt->faces[hf];
      int a = h->v[he], b = h->v[(he + 1) % 3];
      h->adj[he] = cur;
      mjtNum d2 = add_face(pt, wi, b, a, before, hf, nxt);
      if (d2 == 0) {
        face = NULL;
        break;
      }
      if (d2 >= lower2 && d2 <= upper2) {
        int s = pt->nlist++;
        pt->list[s] = &pt->faces[pt->nfaces - 1];
        pt->list[s]->slot = s;
      }
    }
    pt->nedges = 0;
    if (!pt->nlist || !face) {
      break;
    }
  }
  if (face) {
    face_witness(pt, face, st->out->x1, st->out->x2);
    st->out->nx = 1;
    st->out->dist[0] = -sqrt(face->dist2);
  } else {
    st->out->nx = 0;
    st->out->dist[0] = 0;
  }
  return face;
}

/* ---------------------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------------------- */

/* move the witness points apart by the radii of the reduced shapes */
static void add_radii(ncStatus* st, mjtNum r1, mjtNum r2) {
  mjtNum n[3];
  v_sub(n, st->out->x2, st->out->x1);
  mju_normalize3(n);
  if (r1) {
    st->out->x1[0] += r1 * n[0];
    st->out->x1[1] += r1 * n[1];
    st->out->x1[2] += r1 * n[2];
  }
  if (r2) {
    st->out->x2[0] -= r2 * n[0];
    st->out->x2[1] -= r2 * n[1];
    st->out->x2[2] -= r2 * n[2];
  }
  st->out->dist[0] -= r1 + r2;
}

/* reduce a sphere or capsule to its core; returns the radius taken off (with half the
 * margin), 0 for other shapes */
static mjtNum reduce(tnConvex* o) {
  if (o->geom < 0 || (o->type != mjGEOM_SPHERE && o->type != mjGEOM_CAPSULE)) {
    return 0;
  }
  mjtNum r = o->m->geom_size[3 * o->geom] + 0.5 * o->margin;
  o->core = o->type == mjGEOM_SPHERE ? 1 : 2;
  o->margin = 0;
  return r;
}

/* penetration with the polytope in the arena */
static void penetration(mjData* d, ncStatus* st, tnConvex* o1, tnConvex* o2) {
  int N = st->maxiter > NC_EPA_ITER ? st->maxiter : NC_EPA_ITER;
  ncPolytope pt;
  pt.nfaces = pt.nlist = pt.nverts = pt.nedges = 0;
  pt.maxfaces = 6 * N;

  // room in the arena (with slack for alignment), else no answer
  size_t need = sizeof(ncVertex) * (5 + N) + (sizeof(ncFace) + sizeof(ncFace*)) * 6 * N +
                2 * sizeof(int) * (6 + N) + 256;
  size_t top = (size_t)d->narena - d->parena;
  if (d->pstack + need > top) {
    return;
  }
  mj_markStack(d);
  pt.verts = (ncVertex*)mj_stackAllocByte(d, sizeof(ncVertex) * (5 + N), sizeof(mjtNum));
  pt.faces = (ncFace*)mj_stackAllocByte(d, sizeof(ncFace) * 6 * N, sizeof(mjtNum));
  pt.list = (ncFace**)mj_stackAllocByte(d, sizeof(ncFace*) * 6 * N, sizeof(mjtNum));
  pt.hface = (int*)mj_stackAllocByte(d, sizeof(int) * (6 + N), sizeof(int));
  pt.hedge = (int*)mj_stackAllocByte(d, sizeof(int) * (6 + N), sizeof(int));
  if (!pt.verts || !pt.faces || !pt.list || !pt.hface || !pt.hedge) {
    mj_freeStack(d);
    return;
  }
  int ret;
  if (st->nsimplex == 2) {
    ret = polytope_segment(&pt, st, o1, o2);
  } else if (st->nsimplex == 3) {
    ret = polytope_triangle(&pt, st, o1, o2);
  } else {
    ret = polytope_tetra(&pt, st, o1, o2);
  }
  if (!ret) {
    ncFace* face = epa(st, &pt, o1, o2);
    if (st->out->maxcon > 1 && face) {
      const ncVertex* fv[3] = {pt.verts + face->v[0], pt.verts + face->v[1], pt.verts + face->v[2]};
      tn__multiContact(st->out, fv, o1, o2);
    }
  }
  mj_freeStack(d);
}

/* penetration of two convex objects: smallest distance, witness pairs */
mjtNum tn__nativeCCD(mjData* d, tnConvex* obj1, tnConvex* obj2, int max_contacts,
                     tnCCDResult* res) {
  const mjModel* m = obj1->m ? obj1->m : obj2->m;
  ncStatus st;
  st.out = res;
  native_center(st.out->x1, obj1);
  native_center(st.out->x2, obj2);
  st.iter = 0;
  st.nsimplex = 0;
  st.separated = 0;
  st.out->nx = 0;
  st.out->dist[0] = NC_MAX;
  mju_zero3(st.out->sep);
  st.tolerance = m->opt.ccd_tolerance;
  st.maxiter = m->opt.ccd_iterations;
  st.out->maxcon = max_contacts;
  st.cutoff = 0;

  // spheres and capsules: their cores first; a shallow contact takes the radii back on
  int done = 0;
  if (obj1->type == mjGEOM_SPHERE || obj2->type == mjGEOM_SPHERE || obj1->type == mjGEOM_CAPSULE ||
      obj2->type == mjGEOM_CAPSULE) {
    mjtNum margin1 = obj1->margin, margin2 = obj2->margin;
    mjtNum r1 = reduce(obj1), r2 = reduce(obj2);
    st.cutoff = r1 + r2;
    gjk(&st, obj1, obj2);
    st.cutoff = 0;
    obj1->margin = margin1;
    obj2->margin = margin2;
    obj1->core = obj2->core = 0;
    if (st.out->dist[0] > st.tolerance) {
      add_radii(&st, r1, r2);
      if (st.out->dist[0] > st.cutoff) {
        st.out->dist[0] = NC_MAX;
      }
      done = 1;
    } else {
      // deep: the whole shapes from the start
      st.iter = 0;
      native_center(st.out->x1, obj1);
      native_center(st.out->x2, obj2);
    }
  }

  // GJK; overlapping (or touching): EPA's depth, and the multi-contact clipping
  if (!done) {
    gjk(&st, obj1, obj2);
    if (st.out->dist[0] <= st.tolerance && st.nsimplex > 1 && !st.separated) {
      st.out->dist[0] = 0;
      penetration(d, &st, obj1, obj2);
    }
  }

  // the smallest distance over the witness pairs
  mjtNum dist = res->dist[0];
  for (int i = 1; i < res->nx; i++) {
    dist = res->dist[i] < dist ? res->dist[i] : dist;
  }
  return dist;
}
