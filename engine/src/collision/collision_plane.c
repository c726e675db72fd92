/* collision/collision_plane.c — a plane (always g1) against sphere, capsule, cylinder, box
 * and any convex geom with a support function (ellipsoid, mesh).
 *
 * The plane is infinite: its normal is the z axis of its frame, and every contact normal is
 * that axis. Each contact point sits halfway between the geom's surface point and the plane.
 * Contact counts and their order follow MuJoCo: capsule up to 2 (the two end spheres),
 * box up to 4 (corners facing the plane, in corner-index order), cylinder up to 4 (the
 * deepest rim point, the other disk's deepest rim point, then the near disk's points at
 * +-120 degrees), ellipsoid 1 (support point), mesh up to 4: the deepest vertex, then, going
 * round the hull polygon through it that faces the plane most, the polygon's representative
 * vertices (all of a triangle or quad; every quarter of a larger polygon, counted from the
 * polygon's first vertex) lying below the mesh centre, each within the margin. The polygons
 * are the mesh graph's coplanar hull triangles merged, walked from the first boundary edge of
 * their first triangle, which reproduces MuJoCo's polygon data; the rules were established
 * against MuJoCo by sweeping random poses of several meshes. Known differences: which
 * vertices of a polygon with more than 4 (and other than 8) vertices MuJoCo keeps, and
 * exact ties between equally facing polygons (exactly symmetric poses). */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_support.h"

/* hull triangles whose vertices lie within this fraction of the mesh's largest extent of
 * one another's plane form one polygon (MuJoCo merges such near-coplanar triangles; its
 * exact tolerance is not known, this one matches the cases measured) */
#define TN_COPLANAR 4.5e-4

/* plane geometry: unit normal and signed distance of point p above the plane */
static mjtNum planeDist(const mjData* d, int gp, const mjtNum p[3], mjtNum normal[3]) {
  mjtNum dif[3];
  tn_matCol(normal, d->geom_xmat + 9 * gp, 2);
  tnu_sub3(dif, p, d->geom_xpos + 3 * gp);
  return tnu_dot3(dif, normal);
}

/* add a contact at surface point p with distance dist if within margin */
static int addPoint(mjContact* con, const mjtNum p[3], mjtNum dist, const mjtNum normal[3],
                    const mjtNum hint[3], mjtNum margin) {
  mjtNum pos[3];
  if (dist > margin) {
    return 0;
  }
  tnu_addScl3(pos, p, normal, -dist / 2);
  tn_setContact(con, dist, pos, normal, hint);
  return 1;
}

/* plane - sphere */
int tn_collidePlaneSphere(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                          mjtNum margin) {
  mjtNum normal[3], pos[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  mjtNum radius = m->geom_size[3 * g2];
  mjtNum dist = planeDist(d, g1, center, normal) - radius;
  if (dist > margin) {
    return 0;
  }

  // halfway between the sphere's lowest point and the plane
  tnu_addScl3(pos, center, normal, -radius - dist / 2);
  tn_setContact(con, dist, pos, normal, NULL);
  return 1;
}

/* plane - capsule: the two end spheres, the capsule axis as tangent hint */
int tn_collidePlaneCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                           mjtNum margin) {
  mjtNum normal[3], axis[3], end[3], pos[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  mjtNum radius = m->geom_size[3 * g2], half = m->geom_size[3 * g2 + 1];
  tn_matCol(axis, d->geom_xmat + 9 * g2, 2);

  // end at +axis first, then -axis
  int n = 0;
  for (int side = 1; side >= -1; side -= 2) {
    tnu_addScl3(end, center, axis, side * half);
    mjtNum dist = planeDist(d, g1, end, normal) - radius;
    if (dist <= margin) {
      tnu_addScl3(pos, end, normal, -radius - dist / 2);
      tn_setContact(con + n, dist, pos, normal, axis);
      n++;
    }
  }
  return n;
}

/* plane - box: corners on the plane side of the box center, within margin, at most 4 */
int tn_collidePlaneBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  mjtNum normal[3], local[3], corner[3], p[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  const mjtNum* size = m->geom_size + 3 * g2;
  mjtNum dist = planeDist(d, g1, center, normal);

  // corners in index order: bit 0 x, bit 1 y, bit 2 z, set bit = positive side
  int n = 0;
  for (int i = 0; i < 8 && n < 4; i++) {
    local[0] = (i & 1) ? size[0] : -size[0];
    local[1] = (i & 2) ? size[1] : -size[1];
    local[2] = (i & 4) ? size[2] : -size[2];
    tnu_mulMatVec3(corner, mat, local);

    // skip corners above the center or beyond the margin
    mjtNum ldist = tnu_dot3(normal, corner);
    if (dist + ldist > margin || ldist > 0) {
      continue;
    }
    tnu_add3(p, center, corner);
    n += addPoint(con + n, p, dist + ldist, normal, NULL, margin);
  }
  return n;
}

/* plane - cylinder: deepest rim point, far disk's deepest point, near disk's +-120 deg */
int tn_collidePlaneCylinder(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                            mjtNum margin) {
  mjtNum normal[3], axis[3], radial[3], side[3], near[3], p[3];
  const mjtNum* center = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  mjtNum radius = m->geom_size[3 * g2], half = m->geom_size[3 * g2 + 1];
  mjtNum dist = planeDist(d, g1, center, normal);
  tn_matCol(axis, mat, 2);

  // axis pointing away from the plane; the near disk is at -axis*half
  mjtNum prj = tnu_dot3(axis, normal);
  if (prj < 0) {
    tnu_scl3(axis, axis, -1);
    prj = -prj;
  }

  // radial direction of the deepest rim point: minus the normal's in-disk component
  tnu_addScl3(radial, normal, axis, -prj);
  mjtNum len = tnu_norm3(radial);
  if (len < mjMINVAL) {
    tn_matCol(radial, mat, 0);
  } else {
    tnu_scl3(radial, radial, -1 / len);
  }

  // deepest point of the near disk
  int n = 0;
  tnu_addScl3(near, center, axis, -half);
  tnu_addScl3(p, near, radial, radius);
  n += addPoint(con + n, p, dist + tnu_dot3(normal, p) - tnu_dot3(normal, center), normal, NULL,
                margin);

  // deepest point of the far disk
  tnu_addScl3(p, center, axis, half);
  tnu_addToScl3(p, radial, radius);
  n += addPoint(con + n, p, dist + tnu_dot3(normal, p) - tnu_dot3(normal, center), normal, NULL,
                margin);

  // near-disk points at +120 and -120 degrees from the deepest one (about the axis)
  tnu_cross(side, axis, radial);
  for (int s = 1; s >= -1; s -= 2) {
    tnu_addScl3(p, near, radial, -0.5 * radius);
    tnu_addToScl3(p, side, s * radius * sqrt(3.0) / 2);
    n += addPoint(con + n, p, dist + tnu_dot3(normal, p) - tnu_dot3(normal, center), normal, NULL,
                  margin);
  }
  return n;
}

/* mesh data for the plane-mesh contacts: vertices, hull faces, depths below the plane */
typedef struct tnPlaneMesh_ {
  const float* vert;
  const int* face;    /* hull triangles, global vertex ids */
  int nvert, nface;
  const mjtNum* depth; /* signed distance of each vertex above the plane */
  mjtNum coplanar;     /* distance within which hull triangles share a polygon */
} tnPlaneMesh;

/* unit normal of hull triangle f in the mesh frame */
static void faceNormal(const tnPlaneMesh* pm, int f, mjtNum nrm[3]) {
  mjtNum p[3][3], e1[3], e2[3];
  for (int k = 0; k < 3; k++) {
    const float* v = pm->vert + 3 * pm->face[3 * f + k];
    p[k][0] = v[0];
    p[k][1] = v[1];
    p[k][2] = v[2];
  }
  tnu_sub3(e1, p[1], p[0]);
  tnu_sub3(e2, p[2], p[0]);
  tnu_cross(nrm, e1, e2);
  tnu_normalize3(nrm);
}

/* hull triangle through vertex v0 facing the plane most (local plane normal nl): -1 if none */
static int facingFace(const tnPlaneMesh* pm, int v0, const mjtNum nl[3]) {
  int best = -1;
  mjtNum bestdot = INFINITY, nrm[3];
  for (int f = 0; f < pm->nface; f++) {
    const int* fv = pm->face + 3 * f;
    if (fv[0] != v0 && fv[1] != v0 && fv[2] != v0) {
      continue;
    }
    faceNormal(pm, f, nrm);
    mjtNum dot = tnu_dot3(nrm, nl);
    if (dot < bestdot) {
      bestdot = dot;
      best = f;
    }
  }
  return best;
}

/* 1 if the directed edge a->b belongs to one of the listed triangles */
static int hasEdge(const tnPlaneMesh* pm, const int* tri, int ntri, int a, int b) {
  for (int i = 0; i < ntri; i++) {
    const int* fv = pm->face + 3 * tri[i];
    for (int k = 0; k < 3; k++) {
      if (fv[k] == a && fv[(k + 1) % 3] == b) {
        return 1;
      }
    }
  }
  return 0;
}

/* boundary edge of the listed triangles starting at vertex a (its end, or -1) */
static int boundaryFrom(const tnPlaneMesh* pm, const int* tri, int ntri, int a) {
  for (int i = 0; i < ntri; i++) {
    const int* fv = pm->face + 3 * tri[i];
    for (int k = 0; k < 3; k++) {
      int b = fv[(k + 1) % 3];
      if (fv[k] == a && !hasEdge(pm, tri, ntri, b, a)) {
        return b;
      }
    }
  }
  return -1;
}

/* hull polygon containing triangle f0: its coplanar triangles merged, the boundary walked
 * from the first boundary edge of the first triangle; returns the vertex count */
static int hullPolygon(const tnPlaneMesh* pm, int f0, int* tri, int* poly) {
  mjtNum n0[3], nrm[3];
  faceNormal(pm, f0, n0);

  // coplanar triangles (facing the same way, vertices within the tolerance of the plane of
  // f0), in face order
  const float* a = pm->vert + 3 * pm->face[3 * f0];
  int ntri = 0;
  for (int f = 0; f < pm->nface; f++) {
    faceNormal(pm, f, nrm);
    int flat = tnu_dot3(nrm, n0) > 0.5;
    for (int k = 0; k < 3 && flat; k++) {
      const float* v = pm->vert + 3 * pm->face[3 * f + k];
      mjtNum off = (v[0] - a[0]) * n0[0] + (v[1] - a[1]) * n0[1] + (v[2] - a[2]) * n0[2];
      flat = fabs(off) <= pm->coplanar;
    }
    if (flat) {
      tri[ntri++] = f;
    }
  }

  // first boundary edge of the first triangle, then the boundary loop
  const int* fv = pm->face + 3 * tri[0];
  int start = -1;
  for (int k = 0; k < 3 && start < 0; k++) {
    if (!hasEdge(pm, tri, ntri, fv[(k + 1) % 3], fv[k])) {
      start = fv[k];
    }
  }
  int n = 0, cur = start;
  while (cur >= 0 && n < pm->nvert) {
    poly[n++] = cur;
    cur = boundaryFrom(pm, tri, ntri, cur);
    if (cur == start) {
      break;
    }
  }
  return n;
}

/* 1 if polygon position i holds a representative vertex: every vertex of a triangle or
 * quad, every quarter of a larger polygon */
static int isRepresentative(int i, int n) {
  if (n <= 4) {
    return 1;
  }
  for (int k = 0; k < 4; k++) {
    if (i == (k * n) / 4) {
      return 1;
    }
  }
  return 0;
}

/* deepest vertex: the mesh support point against the plane normal (ties resolve like
 * MuJoCo's support search), as a vertex index */
static int supportVertex(const mjModel* m, const mjData* d, const tnPlaneMesh* pm, int gm,
                         const mjtNum normal[3]) {
  mjtNum down[3], sp[3], dif[3], loc[3], beste = INFINITY;
  tnu_scl3(down, normal, -1);
  tn_supportGlobal(sp, m, d, gm, down);
  tnu_sub3(dif, sp, d->geom_xpos + 3 * gm);
  tnu_mulMatTVec3(loc, d->geom_xmat + 9 * gm, dif);

  // the vertex at that point (nearest, first on ties)
  int v0 = 0;
  for (int v = 0; v < pm->nvert; v++) {
    const float* f = pm->vert + 3 * v;
    mjtNum e = fabs(f[0] - loc[0]) + fabs(f[1] - loc[1]) + fabs(f[2] - loc[2]);
    if (e < beste) {
      beste = e;
      v0 = v;
    }
  }
  return v0;
}

/* hull triangles of a mesh graph (global vertex ids, 3 per face); sets *nface */
static const int* graphFaces(const int* graph, int* nface) {
  int nvert = graph[0], last = 0;
  const int* edge = graph + 2 + 2 * nvert;
  *nface = graph[1];

  // the face list follows the last (-1 terminated) edge list
  for (int i = 0; i < nvert; i++) {
    last = graph[2 + i] > last ? graph[2 + i] : last;
  }
  while (edge[last] >= 0) {
    last++;
  }
  return edge + last + 1;
}

/* vertices of the contacts after the deepest one v0: the representatives of the polygon
 * facing the plane most (local normal nl), going round from v0, below the centre depth;
 * writes them into sel (up to 3) and returns their number */
static int polygonVertices(mjData* d, const tnPlaneMesh* pm, int v0, const mjtNum nl[3],
                           mjtNum center, int sel[3]) {
  int f0 = facingFace(pm, v0, nl), nsel = 0;
  if (f0 < 0) {
    return 0;
  }
  mj_markStack(d);
  int* tri = mj_stackAllocInt(d, pm->nface);
  int* poly = mj_stackAllocInt(d, pm->nvert);
  int n = hullPolygon(pm, f0, tri, poly), at = 0;
  while (at < n && poly[at] != v0) {
    at++;
  }
  for (int i = 1; i < n && at < n && nsel < 3; i++) {
    int pos = (at + i) % n, v = poly[pos];
    if (isRepresentative(pos, n) && pm->depth[v] < center) {
      sel[nsel++] = v;
    }
  }
  mj_freeStack(d);
  return nsel;
}

/* global position of mesh vertex v */
static void vertexGlobal(mjtNum p[3], const mjData* d, const tnPlaneMesh* pm, int gm, int v) {
  const float* f = pm->vert + 3 * v;
  mjtNum local[3] = {f[0], f[1], f[2]};
  tnu_mulMatVec3(p, d->geom_xmat + 9 * gm, local);
  tnu_addTo3(p, d->geom_xpos + 3 * gm);
}

/* plane - mesh: deepest vertex, then the facing polygon's representatives below the centre */
static int planeMesh(const mjModel* m, mjData* d, mjContact* con, int gp, int gm,
                     const mjtNum normal[3], mjtNum margin) {
  int mesh = m->geom_dataid[gm], gadr = m->mesh_graphadr[mesh];
  tnPlaneMesh pm;
  pm.vert = m->mesh_vert + 3 * m->mesh_vertadr[mesh];
  pm.nvert = m->mesh_vertnum[mesh];
  if (pm.nvert <= 0) {
    return 0;
  }
  mj_markStack(d);
  mjtNum* depth = mj_stackAllocNum(d, pm.nvert);
  pm.depth = depth;

  // vertex depths and the mesh extent (coplanarity tolerance), the centre's depth
  mjtNum p[3], nl[3], lo[3], hi[3];
  for (int v = 0; v < pm.nvert; v++) {
    for (int k = 0; k < 3; k++) {
      mjtNum x = pm.vert[3 * v + k];
      lo[k] = v ? mju_min(lo[k], x) : x;
      hi[k] = v ? mju_max(hi[k], x) : x;
    }
    vertexGlobal(p, d, &pm, gm, v);
    depth[v] = planeDist(d, gp, p, nl);
  }
  mjtNum center = planeDist(d, gp, d->geom_xpos + 3 * gm, nl);
  pm.coplanar = TN_COPLANAR * mju_max(hi[0] - lo[0], mju_max(hi[1] - lo[1], hi[2] - lo[2]));
  tnu_mulMatTVec3(nl, d->geom_xmat + 9 * gm, normal);

  // deepest vertex, then the facing polygon's vertices (no hull graph: the vertex only)
  int sel[4] = {supportVertex(m, d, &pm, gm, normal), -1, -1, -1}, nsel = 1;
  if (gadr >= 0) {
    pm.face = graphFaces(m->mesh_graph + gadr, &pm.nface);
    nsel += polygonVertices(d, &pm, sel[0], nl, center, sel + 1);
  }

  // contacts halfway between each selected vertex and the plane, within the margin
  int ncon = 0;
  for (int i = 0; i < nsel; i++) {
    vertexGlobal(p, d, &pm, gm, sel[i]);
    ncon += addPoint(con + ncon, p, depth[sel[i]], normal, NULL, margin);
  }
  mj_freeStack(d);
  return ncon;
}

/* plane - convex geom through its support function (ellipsoid, mesh) */
int tn_collidePlaneConvex(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                          mjtNum margin) {
  mjtNum normal[3], down[3], p[3];
  planeDist(d, g1, d->geom_xpos + 3 * g2, normal);
  tnu_scl3(down, normal, -1);

  // ellipsoid (and anything without vertices): the support point only
  if (m->geom_type[g2] != mjGEOM_MESH || m->geom_dataid[g2] < 0) {
    tn_supportGlobal(p, m, d, g2, down);
    return addPoint(con, p, planeDist(d, g1, p, normal), normal, NULL, margin);
  }

  // mesh: the deepest vertex and its facing polygon
  return planeMesh(m, d, con, g1, g2, normal, margin);
}
