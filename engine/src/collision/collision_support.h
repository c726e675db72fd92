/* collision/collision_support.h — support functions of convex geoms (internal).
 *
 * A support function returns the point of a convex shape farthest along a direction. The
 * general convex collider (libccd's MPR), plane-convex and the height-field prisms use
 * them. A tnConvex describes one shape at a pose (the geom's own pose, or a perturbed one
 * for the multi-contact search) with an optional inflation along the direction. */
#ifndef TORSION_COLLISION_SUPPORT_H
#define TORSION_COLLISION_SUPPORT_H

#include <torsion/torsion.h>

/* one convex shape for the support-based algorithms */
typedef struct tnConvex_ {
  const mjModel* m;
  int geom;      /* geom id, or -1 for a height-field prism */
  int type;      /* mjtGeom of the shape */
  mjtNum pos[3]; /* pose: position and rotation (row-major, local to global) */
  mjtNum mat[9];
  mjtNum inflate;     /* distance added along the (unit) direction to every support point */
  mjtNum prism[6][3]; /* prism vertices when geom < 0: base 0..2, top 3..5 (same order) */
  int meshindex;      /* mesh: hill-climbing warm start (graph vertex), -1: none yet;
                       * updated by the support function (through a cast: libccd hands
                       * the objects over as const) */
  int vertindex; /* native solver: box corner (bits x, y, z) or mesh vertex of the last
                  * support point, -1: none (also the warm start of small meshes) */
  mjtNum margin; /* native solver: margin; support points move out by half of it */
  int core;      /* native solver: 0 whole shape, 1 center point (sphere), 2 axis segment
                  * (capsule) */
  const float* mvert;  /* mesh: its vertices (NULL for other shapes or an empty mesh) */
  const int* mgraph;   /* mesh: its hull graph when it climbs one (>= 10 vertices), else NULL */
  const int* mextrema; /* mesh: its 27 climb starts (mesh_extrema) */
  int mnvert;          /* mesh: number of vertices */
} tnConvex;

/* set up `obj` for geom g at its current pose with the given inflation */
void tn__convexInit(tnConvex* obj, const mjModel* m, const mjData* d, int g, mjtNum inflate);

/* support vertex of a height-field prism (obj->geom < 0) in global direction dir */
void tn__prismSupport(mjtNum res[3], const tnConvex* obj, const mjtNum dir[3]);

/* support point of `obj` in unit direction dir, both in the frame of obj's pose (global,
 * or the height field's) */
void tn__convexSupport(mjtNum res[3], const tnConvex* obj, const mjtNum dir[3]);

/* support point of geom g (at its current pose) in global unit direction dir */
void tn__supportGlobal(mjtNum res[3], const mjModel* m, const mjData* d, int g,
                       const mjtNum dir[3]);

/* support point of a mesh or ellipsoid geom g (at its pose) in global unit direction dir, as
 * MuJoCo's plane-convex collider computes it (a fresh search: meshes climb from
 * mesh_extrema); *vertex: the mesh vertex id, -1 for other shapes */
void tn__supportFresh(mjtNum res[3], int* vertex, const mjModel* m, const mjData* d, int g,
                      const mjtNum dir[3]);

#endif /* TORSION_COLLISION_SUPPORT_H */
