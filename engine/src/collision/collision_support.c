/* collision/collision_support.c — support functions of the convex geom types.
 *
 * Each shape computes its support in its own frame (the direction rotated into it), then
 * maps the point back to the frame of its pose (global, or a height field's). Directions
 * are unit vectors (libccd's): like MuJoCo, spheres and capsules scale the direction by
 * the radius without normalizing it, and the inflation (half the margin) adds the local
 * direction times the inflation before the point is mapped back; these orders of
 * operations reproduce MuJoCo's support points bit for bit, which MPR on flat-sided pairs
 * needs (its portal path is sensitive to the last bit). Ties on a zero direction component
 * resolve to the shape's middle for that component, as MuJoCo's sign function (0 at 0)
 * does. Meshes climb their convex-hull graph (small ones scan their vertices); a
 * height-field prism (vertical sides) takes its best base vertex for a downward direction
 * and its best top vertex otherwise. The plane-convex collider uses MuJoCo's other set of
 * support functions (tn__supportFresh, at the end): there a mesh's climb starts at the
 * extremal vertex of the direction's cell (mesh_extrema) rather than the previous answer. */
#include <float.h>
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_support.h"

/* meshes with at least this many vertices (and a hull graph) climb the graph like MuJoCo;
 * smaller ones scan all vertices */
#define TN_HILLCLIMB_MIN 10

/* dot product of a direction with a (float) mesh vertex */
static inline mjtNum vert_dot(const mjtNum dir[3], const float* v) {
  return dir[0] * v[0] + dir[1] * v[1] + dir[2] * v[2];
}

/* hill climbing on a mesh's hull graph (numvert, numface, edge addresses, global ids,
 * edges) from graph vertex `cur`: move to the first neighbour with a larger dot product
 * until none has one; returns the graph vertex reached */
static int hill_climb(const int* graph, const float* vert, const mjtNum dir[3], int cur) {
  int nvert = graph[0];
  const int* edgeadr = graph + 2;
  const int* globalid = graph + 2 + nvert;
  const int* edge = graph + 2 + 2 * nvert;
  mjtNum bestdot = vert_dot(dir, vert + 3 * globalid[cur]);
  for (int moved = 1; moved;) {
    moved = 0;
    int from = cur;
    for (int e = edgeadr[from]; edge[e] >= 0; e++) {
      mjtNum dot = vert_dot(dir, vert + 3 * globalid[edge[e]]);
      if (dot > bestdot) {
        bestdot = dot;
        cur = edge[e];
        moved = 1;
      }
    }
  }
  return cur;
}

/* support vertex of a mesh in local direction dir: steepest ascent on the hull graph from
 * the previous answer (*meshindex, a graph vertex; 0 at first), each step scanning all
 * neighbors of the current vertex for the largest strict improvement; or a scan of all
 * vertices (first maximum) for small meshes. Ties, common when MPR's portal holds a hull
 * edge, resolve like MuJoCo's. */
static void mesh_support(mjtNum res[3], const mjModel* m, int g, const mjtNum dir[3],
                         int* meshindex) {
  int mesh = m->geom_dataid[g];
  if (mesh < 0 || m->mesh_vertnum[mesh] <= 0) {
    mju_zero3(res);
    return;
  }
  int num = m->mesh_vertnum[mesh], gadr = m->mesh_graphadr[mesh], best = 0;
  const float* vert = m->mesh_vert + 3 * m->mesh_vertadr[mesh];

  // hill climbing on the hull graph: numvert, numface, edge addresses, global ids, edges
  if (gadr >= 0 && num >= TN_HILLCLIMB_MIN) {
    const int* graph = m->mesh_graph + gadr;
    int nvert = graph[0];
    const int* globalid = graph + 2 + nvert;
    int cur = hill_climb(graph, vert, dir, *meshindex >= 0 && *meshindex < nvert ? *meshindex : 0);
    *meshindex = cur;
    best = globalid[cur];
  }

  // all vertices, first maximum
  else {
    mjtNum bestdot = -INFINITY;
    for (int v = 0; v < num; v++) {
      mjtNum dot = vert_dot(dir, vert + 3 * v);
      if (dot > bestdot) {
        bestdot = dot;
        best = v;
      }
    }
  }
  res[0] = vert[3 * best];
  res[1] = vert[3 * best + 1];
  res[2] = vert[3 * best + 2];
}

/* support of a primitive or mesh in its local frame, local direction dir */
static void support_local(mjtNum res[3], const mjModel* m, int g, int type, const mjtNum dir[3],
                          int* meshindex) {
  const mjtNum* size = m->geom_size + 3 * g;
  switch (type) {
    case mjGEOM_SPHERE: {
      mju_scl3(res, dir, size[0]);
      break;
    }
    case mjGEOM_CAPSULE: {
      mju_scl3(res, dir, size[0]);
      res[2] += mju_sign(dir[2]) * size[1];
      break;
    }
    case mjGEOM_ELLIPSOID: {
      for (int i = 0; i < 3; i++) {
        res[i] = dir[i] * size[i];
      }
      mju_normalize3(res);
      for (int i = 0; i < 3; i++) {
        res[i] *= size[i];
      }
      break;
    }
    case mjGEOM_CYLINDER: {
      mjtNum len = sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
      if (len > mjMINVAL) {
        res[0] = dir[0] / len * size[0];
        res[1] = dir[1] / len * size[0];
      } else {
        res[0] = res[1] = 0;
      }
      res[2] = mju_sign(dir[2]) * size[1];
      break;
    }
    case mjGEOM_BOX: {
      for (int i = 0; i < 3; i++) {
        res[i] = mju_sign(dir[i]) * size[i];
      }
      break;
    }
    case mjGEOM_MESH: {
      mesh_support(res, m, g, dir, meshindex);
      break;
    }
    default: mju_zero3(res);
  }
}

/* set up a convex object for geom g at its current pose */
void tn__convexInit(tnConvex* obj, const mjModel* m, const mjData* d, int g, mjtNum inflate) {
  obj->m = m;
  obj->geom = g;
  obj->type = m->geom_type[g];
  mju_copy3(obj->pos, d->geom_xpos + 3 * g);
  mju_copy(obj->mat, d->geom_xmat + 9 * g, 9);
  obj->inflate = inflate;
  obj->meshindex = -1;
  obj->vertindex = -1;
  obj->margin = 0;
  obj->core = 0;

  // a mesh's arrays, looked up once for all its support calls
  obj->mvert = NULL;
  obj->mgraph = NULL;
  obj->mextrema = NULL;
  obj->mnvert = 0;
  int mesh = obj->type == mjGEOM_MESH ? m->geom_dataid[g] : -1;
  if (mesh >= 0 && m->mesh_vertnum[mesh] > 0) {
    obj->mvert = m->mesh_vert + 3 * m->mesh_vertadr[mesh];
    obj->mnvert = m->mesh_vertnum[mesh];
    obj->mextrema = m->mesh_extrema + 27 * mesh;
    if (m->mesh_graphadr[mesh] >= 0 && m->mesh_vertnum[mesh] >= TN_HILLCLIMB_MIN) {
      obj->mgraph = m->mesh_graph + m->mesh_graphadr[mesh];
    }
  }
}

/* support vertex of a height-field prism in global direction dir: the base (0..2) for a
 * downward direction, else the top (3..5), then the vertex with the largest projection (the
 * first on ties) */
void tn__prismSupport(mjtNum res[3], const tnConvex* obj, const mjtNum dir[3]) {
  int start = dir[2] < 0 ? 0 : 3, best = start;
  mjtNum bestdot = mju_dot3(obj->prism[start], dir);
  for (int i = start + 1; i < start + 3; i++) {
    mjtNum dot = mju_dot3(obj->prism[i], dir);
    if (dot > bestdot) {
      bestdot = dot;
      best = i;
    }
  }
  mju_copy3(res, obj->prism[best]);
}

/* support point in global direction dir */
void tn__convexSupport(mjtNum res[3], const tnConvex* obj, const mjtNum dir[3]) {
  mjtNum local[3], sup[3];

  // height-field prism
  if (obj->geom < 0) {
    tn__prismSupport(res, obj, dir);
  }

  // geom: support in the local frame, inflated along the local direction, mapped back
  else {
    mju_mulMatTVec3(local, obj->mat, dir);
    support_local(sup, obj->m, obj->geom, obj->type, local, (int*)&obj->meshindex);
    if (obj->inflate > 0) {
      mju_addToScl3(sup, local, obj->inflate);
    }
    mju_mulMatVec3(res, obj->mat, sup);
    mju_addTo3(res, obj->pos);
  }
}

/* support point of geom g at its current pose */
void tn__supportGlobal(mjtNum res[3], const mjModel* m, const mjData* d, int g,
                       const mjtNum dir[3]) {
  tnConvex obj;
  tn__convexInit(&obj, m, d, g, 0);
  tn__convexSupport(res, &obj, dir);
}

/* ---- the per-shape support functions of MuJoCo's plane-convex collider ----
 * They differ from the MPR callbacks above in two places: an ellipsoid's point is scaled
 * by (1 / norm) * size in one product, and a mesh climbs its hull graph from the extremal
 * vertex of the direction's 3x3x3 cell (mesh_extrema) instead of the previous answer. */

/* hull-local vertex where a climb in local direction dir starts: the extremal vertex of the
 * cell of dir's components, each classified as below -0.4, within, or above 0.4 */
static int extrema_start(const mjModel* m, int mesh, const mjtNum dir[3]) {
  int cell = 13;
  static const int stride[3] = {9, 3, 1};
  for (int i = 0; i < 3; i++) {
    cell += stride[i] * ((dir[i] > 0.4) - (dir[i] < -0.4));
  }
  return m->mesh_extrema[27 * mesh + cell];
}

/* support vertex (mesh vertex id) of a mesh in local direction dir, without a previous
 * answer: steepest ascent on the hull graph from the direction's extremal vertex, or, for
 * meshes under TN_HILLCLIMB_MIN vertices or without a graph, the first maximum of all */
static int mesh_support_fresh(const mjModel* m, int mesh, const mjtNum dir[3]) {
  int num = m->mesh_vertnum[mesh], gadr = m->mesh_graphadr[mesh];
  const float* vert = m->mesh_vert + 3 * m->mesh_vertadr[mesh];

  // all vertices
  if (gadr < 0 || num < TN_HILLCLIMB_MIN) {
    int best = 0;
    mjtNum bestdot = -FLT_MAX;
    for (int v = 0; v < num; v++) {
      mjtNum dot = vert_dot(dir, vert + 3 * v);
      if (dot > bestdot) {
        bestdot = dot;
        best = v;
      }
    }
    return best;
  }

  // hill climbing: numvert, numface, edge addresses, global ids, edges
  const int* graph = m->mesh_graph + gadr;
  return graph[2 + graph[0] + hill_climb(graph, vert, dir, extrema_start(m, mesh, dir))];
}

/* support point of a mesh or ellipsoid geom as MuJoCo's plane-convex collider finds it */
void tn__supportFresh(mjtNum res[3], int* vertex, const mjModel* m, const mjData* d, int g,
                      const mjtNum dir[3]) {
  const mjtNum* mat = d->geom_xmat + 9 * g;
  const mjtNum* size = m->geom_size + 3 * g;
  mjtNum local[3], sup[3] = {0, 0, 0};
  mju_mulMatTVec3(local, mat, dir);
  *vertex = -1;

  switch (m->geom_type[g]) {
    case mjGEOM_ELLIPSOID: {
      // the direction scaled by the sizes, normalized, scaled again
      mjtNum t[3] = {local[0] * size[0], local[1] * size[1], local[2] * size[2]};
      mjtNum norm = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
      if (norm < mjMINVAL) {
        sup[0] = size[0];
      } else {
        mjtNum inv = 1 / norm;
        for (int i = 0; i < 3; i++) {
          sup[i] = t[i] * (inv * size[i]);
        }
      }
      break;
    }
    case mjGEOM_MESH: {
      int mesh = m->geom_dataid[g];
      if (mesh >= 0 && m->mesh_vertnum[mesh] > 0) {
        *vertex = mesh_support_fresh(m, mesh, local);
        const float* v = m->mesh_vert + 3 * (m->mesh_vertadr[mesh] + *vertex);
        sup[0] = v[0];
        sup[1] = v[1];
        sup[2] = v[2];
      }
      break;
    }
    default: {
      tn__supportGlobal(res, m, d, g, dir);
      return;
    }
  }
  mju_mulMatVec3(res, mat, sup);
  mju_addTo3(res, d->geom_xpos + 3 * g);
}
