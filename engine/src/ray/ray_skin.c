/* ray/ray_skin.c — mju_raySkin: a ray against the triangles of a skin given as float
 * vertices (global frame) and faces, returning the nearest hit and the face vertex closest
 * to it. The skin's axis-aligned bounding box rejects rays that miss it first. */
#include "ray/ray.h"
#include "util/util_inline.h"

/* distance in units of |vec| to the nearest face hit (-1: none); vertid[0] (may be NULL)
 * receives the vertex of that face nearest to the hit point (first one on ties) */
mjtNum mju_raySkin(int nface, int nvert, const int* face, const float* vert, const mjtNum pnt[3],
                   const mjtNum vec[3], int vertid[1]) {
  if (nvert <= 0 || nface <= 0) {
    return -1;
  }

  // bounding box of the vertices as a box geom in the global frame
  mjtNum lo[3], hi[3];
  for (int j = 0; j < 3; j++) {
    lo[j] = hi[j] = vert[j];
  }
  for (int i = 1; i < nvert; i++) {
    for (int j = 0; j < 3; j++) {
      mjtNum v = vert[3 * i + j];
      lo[j] = v < lo[j] ? v : lo[j];
      hi[j] = v > hi[j] ? v : hi[j];
    }
  }
  mjtNum center[3], half[3];
  const mjtNum eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int j = 0; j < 3; j++) {
    center[j] = 0.5 * (lo[j] + hi[j]);
    half[j] = 0.5 * (hi[j] - lo[j]);
  }
  if (mju_rayGeom(center, eye, half, pnt, vec, mjGEOM_BOX, NULL) < 0) {
    return -1;
  }

  // every face, keeping the nearest hit and its nearest vertex
  mjtNum best = -1;
  for (int f = 0; f < nface; f++) {
    mjtNum v[3][3];
    for (int k = 0; k < 3; k++) {
      for (int j = 0; j < 3; j++) {
        v[k][j] = vert[3 * face[3 * f + k] + j];
      }
    }
    mjtNum x = tn__rayTriangle(pnt, vec, v[0], v[1], v[2]);
    if (x < 0 || (best >= 0 && x >= best)) {
      continue;
    }
    best = x;
    if (vertid) {
      mjtNum hit[3];
      mju_addScl3(hit, pnt, vec, x);
      mjtNum near = mju_dist3(hit, v[0]);
      vertid[0] = face[3 * f];
      for (int k = 1; k < 3; k++) {
        mjtNum dk = mju_dist3(hit, v[k]);
        if (dk < near) {
          near = dk;
          vertid[0] = face[3 * f + k];
        }
      }
    }
  }
  return best;
}
