/* compiler/geom_fit.c — a primitive geom fitted to a mesh (<geom type="box" mesh="...">).
 *
 * MuJoCo sizes such a geom from the processed mesh, in the mesh (principal) frame:
 *  - compiler fitaabb="false" (the default): from the mesh's equivalent inertia box
 *    (the half sizes of the uniform box with the mesh's principal inertias), the geom
 *    centered at the mesh's center of mass;
 *  - fitaabb="true": from the axis-aligned box of the vertices in the mesh frame, the geom
 *    centered at that box's center.
 * Every size is then multiplied by the geom's fitscale. The geom keeps the mesh as its
 * geom_dataid; its mass and inertia are the primitive's. */
#include <math.h>
#include <stdio.h>

#include "compiler/mesh.h"

/* write a reason and return 0 */
static int fit_fail(char* err, int errsz, const char* mesh) {
  if (err && errsz > 0) {
    snprintf(err, (size_t)errsz, "invalid geom type in fitting mesh %s", mesh ? mesh : "");
  }
  return 0;
}

/* sizes from the inertia box */
static int fit_inertia_box(const tnMesh* mesh, int type, mjtNum size[3]) {
  const mjtNum* b = mesh->boxsz;
  switch (type) {
    case mjGEOM_SPHERE:
      size[0] = (b[0] + b[1] + b[2]) / 3;
      return 1;

    case mjGEOM_CAPSULE:
      size[0] = (b[0] + b[1]) / 2;
      size[1] = fmax(0, b[2] - size[0] / 2);
      return 1;

    case mjGEOM_CYLINDER:
      size[0] = (b[0] + b[1]) / 2;
      size[1] = b[2];
      return 1;

    case mjGEOM_ELLIPSOID:
    case mjGEOM_BOX:
      size[0] = b[0];
      size[1] = b[1];
      size[2] = b[2];
      return 1;

    default:
      return 0;
  }
}

/* sizes from the vertices' axis-aligned box (half sizes h, in the mesh frame): spheres
 * take the largest half size, capsules and cylinders the larger of hx and hy as radius and
 * hz as half length (capsules less their caps), boxes and ellipsoids h itself (found by
 * comparing with MuJoCo 3.14, whose fit differs from the vertex scan of older versions) */
static int fit_aabb(const tnMesh* mesh, int type, mjtNum size[3], mjtNum cen[3]) {
  const mjtNum* a = mesh->aamm;
  mjtNum h[3];
  for (int k = 0; k < 3; k++) {
    cen[k] = (a[k] + a[k + 3]) / 2;
    h[k] = a[k + 3] - cen[k];
  }
  switch (type) {
    case mjGEOM_SPHERE:
      size[0] = fmax(h[0], fmax(h[1], h[2]));
      return 1;

    case mjGEOM_CAPSULE:
      size[0] = fmax(h[0], h[1]);
      size[1] = fmax(0, h[2] - size[0]);
      return 1;

    case mjGEOM_CYLINDER:
      size[0] = fmax(h[0], h[1]);
      size[1] = h[2];
      return 1;

    case mjGEOM_ELLIPSOID:
    case mjGEOM_BOX:
      mju_copy3(size, h);
      return 1;

    default:
      return 0;
  }
}

/* fit a primitive of `type` to a processed mesh: size (sizes the fit does not set keep
 * their value; all three are then scaled by fitscale) and meshpos, the offset of the geom
 * center to compose with the geom's frame (together with the mesh orientation) */
int tn__meshFitGeom(const tnMesh* mesh, int type, int fitaabb, mjtNum fitscale, mjtNum size[3],
                    mjtNum meshpos[3], char* err, int errsz) {
  mju_copy3(meshpos, mesh->pos);
  if (!fitaabb) {
    if (!fit_inertia_box(mesh, type, size)) {
      return fit_fail(err, errsz, mesh->name);
    }
  } else {
    mjtNum cen[3];
    if (!fit_aabb(mesh, type, size, cen)) {
      return fit_fail(err, errsz, mesh->name);
    }
    // the box center, rotated from the mesh frame into the geom frame
    mjtNum mat[9], off[3];
    mju_quat2Mat(mat, mesh->quat);
    mju_mulMatVec3(off, mat, cen);
    for (int k = 0; k < 3; k++) {
      meshpos[k] += off[k];
    }
  }
  for (int k = 0; k < 3; k++) {
    size[k] *= fitscale;
  }
  return 1;
}
