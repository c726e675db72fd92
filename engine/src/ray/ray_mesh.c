/* ray/ray_mesh.c — ray intersection with triangle geometry: mesh geoms (every face) and
 * height fields (the solid between the base at -size[3] and the elevation surface).
 *
 * A height field's surface is a grid of nrow x ncol samples over [-size[0], size[0]] x
 * [-size[1], size[1]] (row r at y = -size[1] + 2 size[1] r/(nrow-1), column c likewise in
 * x), each cell split into two triangles along its (r,c)-(r+1,c+1) diagonal, at heights
 * data*size[2]. The ray walks the cells its ground track crosses, in order (a 2D grid
 * traversal), so only O(nrow + ncol) triangles are tested. Below z = 0 the field is a box
 * down to the base (a ray starting above it but under the surface stops at z = 0, as in
 * MuJoCo); side walls close the prisms between z = 0 and the surface. */
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

/* ray against triangle (v0, v1, v2), from either side (Moller-Trumbore) */
mjtNum tn__rayTriangle(const mjtNum lpnt[3], const mjtNum lvec[3], const mjtNum v0[3],
                       const mjtNum v1[3], const mjtNum v2[3]) {
  mjtNum e1[3], e2[3], pv[3], tv[3], qv[3];
  mju_sub3(e1, v1, v0);
  mju_sub3(e2, v2, v0);

  // determinant: zero when the ray is parallel to the triangle
  mju_cross(pv, lvec, e2);
  mjtNum det = mju_dot3(e1, pv);
  if (fabs(det) < mjMINVAL) {
    return -1;
  }
  mjtNum inv = 1 / det;

  // barycentric coordinates of the hit point
  mju_sub3(tv, lpnt, v0);
  mjtNum u = mju_dot3(tv, pv) * inv;
  if (u < 0 || u > 1) {
    return -1;
  }
  mju_cross(qv, tv, e1);
  mjtNum w = mju_dot3(lvec, qv) * inv;
  if (w < 0 || u + w > 1) {
    return -1;
  }

  // distance along the ray
  mjtNum x = mju_dot3(e2, qv) * inv;
  return x >= 0 ? x : -1;
}

/* unit normal of triangle (v0, v1, v2) by its winding: (v1 - v0) x (v2 - v0) */
static void triangle_normal(mjtNum n[3], const mjtNum v0[3], const mjtNum v1[3],
                            const mjtNum v2[3]) {
  mjtNum e1[3], e2[3];
  mju_sub3(e1, v1, v0);
  mju_sub3(e2, v2, v0);
  mju_cross(n, e1, e2);
  mju_normalize3(n);
}

/* a local-frame normal of geom g into the global frame (normal may be NULL) */
static void normal_to_global(mjtNum normal[3], const mjData* d, int g, const mjtNum n[3]) {
  if (normal) {
    mju_mulMatVec3(normal, d->geom_xmat + 9 * g, n);
  }
}

/* ray against every face of a mesh geom; normal (may be NULL): the hit face's normal by
 * its winding (outward for MuJoCo's compiled meshes), zero on a miss */
mjtNum mj_rayMesh(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                  const mjtNum vec[3], mjtNum normal[3]) {
  if (normal) {
    mju_zero3(normal);
  }
  int mesh = m->geom_dataid[geomid];
  if (mesh < 0) {
    return -1;
  }
  mjtNum p[3], v[3], best = -1, n[3] = {0, 0, 0};
  tn__rayLocal(p, v, d->geom_xpos + 3 * geomid, d->geom_xmat + 9 * geomid, pnt, vec);

  // faces, vertex indices relative to the mesh's first vertex
  const float* vert = m->mesh_vert + 3 * (size_t)m->mesh_vertadr[mesh];
  const int* face = m->mesh_face + 3 * (size_t)m->mesh_faceadr[mesh];
  for (int f = 0; f < m->mesh_facenum[mesh]; f++) {
    mjtNum tri[3][3];
    for (int k = 0; k < 3; k++) {
      const float* src = vert + 3 * (size_t)face[3 * f + k];
      tri[k][0] = src[0], tri[k][1] = src[1], tri[k][2] = src[2];
    }
    mjtNum x = tn__rayTriangle(p, v, tri[0], tri[1], tri[2]);
    if (x >= 0 && (best < 0 || x < best)) {
      best = x;
      triangle_normal(n, tri[0], tri[1], tri[2]);
    }
  }
  if (best >= 0) {
    normal_to_global(normal, d, geomid, n);
  }
  return best;
}

/* a height field's grid in its local frame */
typedef struct hfGrid_ {
  const float* data;   /* elevation samples, row-major (nrow x ncol), in [0, 1] */
  int nrow, ncol;
  mjtNum sx, sy, sz;   /* half-extents in x and y, elevation scale */
  mjtNum base;         /* depth of the base below z = 0 */
  mjtNum dx, dy;       /* cell size */
} hfGrid;

/* vertex (r, c) of the surface */
static void hf_vertex(const hfGrid* g, int r, int c, mjtNum v[3]) {
  v[0] = -g->sx + c * g->dx;
  v[1] = -g->sy + r * g->dy;
  v[2] = g->data[(size_t)r * g->ncol + c] * g->sz;
}

/* the two surface triangles of cell (r, c); n: the upward normal of the one hit */
static mjtNum hf_cell(const hfGrid* g, int r, int c, const mjtNum p[3], const mjtNum v[3],
                      mjtNum n[3]) {
  mjtNum v00[3], v01[3], v10[3], v11[3];
  hf_vertex(g, r, c, v00);
  hf_vertex(g, r, c + 1, v01);
  hf_vertex(g, r + 1, c, v10);
  hf_vertex(g, r + 1, c + 1, v11);
  mjtNum best = tn__rayTriangle(p, v, v00, v11, v10);
  if (best >= 0) {
    triangle_normal(n, v00, v11, v10);
  }
  mjtNum x = tn__rayTriangle(p, v, v00, v01, v11);
  if (x >= 0 && (best < 0 || x < best)) {
    best = x;
    triangle_normal(n, v00, v01, v11);
  }
  return best;
}

/* height of the surface along a boundary row (r fixed) at x, or column (c fixed) at y */
static mjtNum hf_edge_height(const hfGrid* g, int along_x, int fixed, mjtNum coord) {
  int n = along_x ? g->ncol : g->nrow;
  mjtNum cell = along_x ? g->dx : g->dy, lo = along_x ? -g->sx : -g->sy;
  mjtNum s = (coord - lo) / cell;
  int i = (int)floor(s);
  i = i < 0 ? 0 : (i > n - 2 ? n - 2 : i);
  mjtNum a = s - i;
  size_t i0 = along_x ? (size_t)fixed * g->ncol + i : (size_t)i * g->ncol + fixed;
  size_t i1 = along_x ? i0 + 1 : i0 + g->ncol;
  return ((1 - a) * g->data[i0] + a * g->data[i1]) * g->sz;
}

/* the base box (-base <= z <= 0, hit from outside or left from inside) and the four side
 * walls from z = 0 up to the surface's boundary profile; n: outward normal of the hit */
static mjtNum hf_walls(const hfGrid* g, const mjtNum p[3], const mjtNum v[3], mjtNum n[3]) {
  // base box, centred half-way down
  mjtNum bpos[3] = {0, 0, -g->base / 2}, bsize[3] = {g->sx, g->sy, g->base / 2};
  mjtNum eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  mjtNum best = g->base > 0 ? mju_rayGeom(bpos, eye, bsize, p, v, mjGEOM_BOX, n) : -1;

  // walls x = +-sx (profile along a column) and y = +-sy (along a row)
  for (int axis = 0; axis < 2; axis++) {
    if (fabs(v[axis]) < mjMINVAL) {
      continue;
    }
    mjtNum half = axis == 0 ? g->sx : g->sy, other_half = axis == 0 ? g->sy : g->sx;
    for (int side = -1; side <= 1; side += 2) {
      mjtNum x = (side * half - p[axis]) / v[axis];
      mjtNum other = p[1 - axis] + x * v[1 - axis], z = p[2] + x * v[2];
      if (x < 0 || fabs(other) > other_half || z < 0) {
        continue;
      }
      int fixed = side < 0 ? 0 : (axis == 0 ? g->ncol - 1 : g->nrow - 1);
      if (z <= hf_edge_height(g, axis == 1, fixed, other) && (best < 0 || x < best)) {
        best = x;
        mju_zero3(n);
        n[axis] = side;
      }
    }
  }
  return best;
}

/* parameter range [t0, t1] of the ray inside the box |x|<=sx, |y|<=sy, -base<=z<=sz */
static int hf_clip(const hfGrid* g, const mjtNum p[3], const mjtNum v[3], mjtNum* t0,
                   mjtNum* t1) {
  mjtNum lo[3] = {-g->sx, -g->sy, -g->base}, hi[3] = {g->sx, g->sy, g->sz};
  *t0 = 0;
  *t1 = INFINITY;
  for (int k = 0; k < 3; k++) {
    if (fabs(v[k]) < mjMINVAL) {
      if (p[k] < lo[k] || p[k] > hi[k]) {
        return 0;
      }
      continue;
    }
    mjtNum a = (lo[k] - p[k]) / v[k], b = (hi[k] - p[k]) / v[k];
    *t0 = fmax(*t0, fmin(a, b));
    *t1 = fmin(*t1, fmax(a, b));
  }
  return *t0 <= *t1;
}

/* cell index of coordinate s on a grid starting at lo with n samples spaced by cell */
static int hf_index(mjtNum s, mjtNum lo, mjtNum cell, int n) {
  int i = (int)floor((s - lo) / cell);
  return i < 0 ? 0 : (i > n - 2 ? n - 2 : i);
}

/* walk the cells crossed by the ray's ground track, up to parameter t1; the first cell
 * with a hit holds the nearest surface point */
static mjtNum hf_surface(const hfGrid* g, const mjtNum p[3], const mjtNum v[3], mjtNum t0,
                         mjtNum t1, mjtNum n[3]) {
  // entry cell
  int c = hf_index(p[0] + t0 * v[0], -g->sx, g->dx, g->ncol);
  int r = hf_index(p[1] + t0 * v[1], -g->sy, g->dy, g->nrow);

  // steps and the parameters of the next cell boundaries in x and y
  int stepc = v[0] > mjMINVAL ? 1 : (v[0] < -mjMINVAL ? -1 : 0);
  int stepr = v[1] > mjMINVAL ? 1 : (v[1] < -mjMINVAL ? -1 : 0);
  mjtNum nextc = stepc ? (-g->sx + (c + (stepc > 0)) * g->dx - p[0]) / v[0] : INFINITY;
  mjtNum nextr = stepr ? (-g->sy + (r + (stepr > 0)) * g->dy - p[1]) / v[1] : INFINITY;
  mjtNum deltac = stepc ? g->dx / fabs(v[0]) : INFINITY;
  mjtNum deltar = stepr ? g->dy / fabs(v[1]) : INFINITY;

  // visit cells in order of the ray parameter
  for (;;) {
    mjtNum x = hf_cell(g, r, c, p, v, n);
    if (x >= 0) {
      return x;
    }
    if (fmin(nextc, nextr) > t1) {
      return -1;
    }
    if (nextc < nextr) {
      c += stepc;
      nextc += deltac;
    } else {
      r += stepr;
      nextr += deltar;
    }
    if (c < 0 || c > g->ncol - 2 || r < 0 || r > g->nrow - 2) {
      return -1;
    }
  }
}

/* ray against a height-field geom; normal (may be NULL): outward normal at the hit */
mjtNum mj_rayHfield(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                    const mjtNum vec[3], mjtNum normal[3]) {
  return tn__rayHfieldBefore(m, d, geomid, pnt, vec, -1, normal);
}

/* ray against a height-field geom, ignoring hits beyond tmax (tmax < 0: no limit) */
mjtNum tn__rayHfieldBefore(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                           const mjtNum vec[3], mjtNum tmax, mjtNum normal[3]) {
  if (normal) {
    mju_zero3(normal);
  }
  int h = m->geom_dataid[geomid];
  if (h < 0 || m->hfield_nrow[h] < 2 || m->hfield_ncol[h] < 2) {
    return -1;
  }
  const mjtNum* size = m->hfield_size + 4 * h;
  hfGrid g = {m->hfield_data + m->hfield_adr[h], m->hfield_nrow[h], m->hfield_ncol[h],
              size[0], size[1], size[2], size[3], 0, 0};
  g.dx = 2 * g.sx / (g.ncol - 1);
  g.dy = 2 * g.sy / (g.nrow - 1);

  // local ray, clipped to the bounding box
  mjtNum p[3], v[3], t0, t1;
  tn__rayLocal(p, v, d->geom_xpos + 3 * geomid, d->geom_xmat + 9 * geomid, pnt, vec);
  if (!hf_clip(&g, p, v, &t0, &t1)) {
    return -1;
  }
  if (tmax >= 0 && tmax < t1) {
    t1 = tmax;
  }

  // nearest of the surface, the walls and the base
  mjtNum nsurf[3] = {0, 0, 0}, nwall[3] = {0, 0, 0};
  mjtNum xsurf = hf_surface(&g, p, v, t0, t1, nsurf), xwall = hf_walls(&g, p, v, nwall);
  mjtNum best = nearest(xsurf, xwall);
  if (best >= 0) {
    normal_to_global(normal, d, geomid, best == xsurf ? nsurf : nwall);
  }
  return best;
}
