/* collision/collision_gjk.h — MuJoCo's native convex collision (GJK, EPA, multi-contact).
 *
 * The default convex narrow phase of MuJoCo 3.14 (mjDSBL_NATIVECCD clear): the
 * Gilbert-Johnson-Keerthi distance iteration with the signed-volume sub-simplex solver,
 * the expanding polytope algorithm for the penetration depth (collision_gjk.c), and for
 * flat features of boxes, meshes and cylinders touching face to face (or edge to face) the
 * clipping of the two features into several contact points (collision_multicontact.c). */
#ifndef TORSION_COLLISION_GJK_H
#define TORSION_COLLISION_GJK_H

#include <torsion/torsion.h>

#include "collision/collision_support.h"

/* a point w = a - b of the Minkowski difference, with the support points of both shapes
 * and their vertex ids (tnConvex.vertindex when they were found) */
typedef struct tnCCDVertex_ {
  mjtNum w[3], a[3], b[3];
  int ia, ib;
} tnCCDVertex;

/* the answer: nx witness pairs (x1 on shape 1, x2 on shape 2) with their signed distances
 * (< 0: penetration), and how many contacts the caller accepts; sep: GJK's last direction
 * (a point of the Minkowski difference; when the shapes are apart, a direction along which
 * shape 1 lies beyond shape 2), zero when GJK did not run */
typedef struct tnCCDResult_ {
  mjtNum dist[mjMAXCONPAIR];
  mjtNum x1[3 * mjMAXCONPAIR], x2[3 * mjMAXCONPAIR];
  mjtNum sep[3];
  int nx;
  int maxcon;
} tnCCDResult;

/* Penetration of two convex objects (their margins in obj->margin: each support point is
 * pushed out by half of it), with up to max_contacts witness pairs in *res. Returns the
 * smallest signed distance (< 0: penetration; no contact otherwise). The EPA polytope
 * lives in d's arena. */
mjtNum tn__nativeCCD(mjData* d, tnConvex* obj1, tnConvex* obj2, int max_contacts, tnCCDResult* res);

/* Several contacts where EPA's nearest face (vertices face[0..2]) has flat features of
 * both shapes facing each other: replaces res's single witness pair (x1[0], x2[0]) by the
 * vertices of the clipped features when they match, else leaves it. */
void tn__multiContact(tnCCDResult* res, const tnCCDVertex* const face[3], const tnConvex* obj1,
                      const tnConvex* obj2);

#endif /* TORSION_COLLISION_GJK_H */
