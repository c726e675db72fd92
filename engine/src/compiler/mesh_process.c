/* compiler/mesh_process.c — from a loaded mesh to MuJoCo's compiled mesh, and what mesh
 * geoms take from it.
 *
 * The steps and their order are MuJoCo's (the results are compared with MuJoCo 3.14 in
 * tests/unit/test_mesh.c):
 *   1. the convex hull (mesh_hull.c), from the vertices as loaded; a mesh given without
 *      faces takes the hull's faces;
 *   2. the asset transform: subtract refpos, rotate by the conjugate of refquat, scale
 *      (a mirroring scale flips the faces to keep them outward, but not the hull's);
 *   3. center of mass, volume, principal axes and inertia box (mesh_inertia.c);
 *   4. the vertices moved into the principal frame; mesh_pos / mesh_quat keep the move.
 * A mesh geom's frame is its MJCF frame composed with the mesh frame; its inertia is that
 * of the inertia box, scaled by the geom's mass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_helpers.h"
#include "compiler/mesh_internal.h"

/* ---------------------------------------------------------------------------------------
 * options and the asset transform
 * ------------------------------------------------------------------------------------- */

/* MuJoCo's defaults */
void tn__meshDefaultOptions(tnMeshOptions* opt) {
  memset(opt, 0, sizeof(*opt));
  opt->scale[0] = opt->scale[1] = opt->scale[2] = 1;
  opt->refquat[0] = 1;
  opt->inertia = TN_MESH_INERTIA_LEGACY;
  opt->maxhullvert = -1;
  opt->needhull = 1;
}

/* refpos, refquat and scale applied to every vertex; faces flipped by a mirroring scale */
static void apply_transform(tnMesh* mesh, const tnMeshOptions* opt) {
  mjtNum* v = mesh->vert;
  int n = mesh->nvert;

  // translate to the reference position
  if (opt->refpos[0] != 0 || opt->refpos[1] != 0 || opt->refpos[2] != 0) {
    for (int i = 0; i < n; i++) {
      mju_subFrom3(v + 3 * i, opt->refpos);
    }
  }

  // rotate by the conjugate of the reference orientation
  if (opt->refquat[0] != 1 || opt->refquat[1] != 0 || opt->refquat[2] != 0 ||
      opt->refquat[3] != 0) {
    // normalized by dividing by the norm
    mjtNum q[4] = {opt->refquat[0], opt->refquat[1], opt->refquat[2], opt->refquat[3]};
    mjtNum norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) {
      q[k] /= norm;
    }
    mjtNum mat[9], tmp[3];
    mju_quat2Mat(mat, q);

    // v <- R' v with R the normalized refquat's matrix (MuJoCo's rounding)
    for (int i = 0; i < n; i++) {
      mju_mulMatTVec3(tmp, mat, v + 3 * i);
      mju_copy3(v + 3 * i, tmp);
    }
  }

  // scale each axis
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      v[3 * i + k] *= opt->scale[k];
    }
  }

  // a mirror turns outward faces inward: swap two corners of each
  if (opt->scale[0] * opt->scale[1] * opt->scale[2] < 0) {
    for (int f = 0; f < mesh->nface; f++) {
      int tmp = mesh->face[3 * f + 1];
      mesh->face[3 * f + 1] = mesh->face[3 * f + 2];
      mesh->face[3 * f + 2] = tmp;
    }
  }
}

/* vertices into the principal frame: v <- R' (v - com); then their bounding box */
static void to_principal_frame(tnMesh* mesh) {
  mjtNum mat[9], d[3];
  mju_quat2Mat(mat, mesh->quat);

  // an empty box, grown by every moved vertex
  for (int k = 0; k < 3; k++) {
    mesh->aamm[k] = mjMAXVAL;
    mesh->aamm[k + 3] = -mjMAXVAL;
  }
  for (int i = 0; i < mesh->nvert; i++) {
    mjtNum* v = mesh->vert + 3 * i;
    mju_sub3(d, v, mesh->pos);
    mju_mulMatTVec3(v, mat, d);
    for (int k = 0; k < 3; k++) {
      mesh->aamm[k] = fmin(mesh->aamm[k], v[k]);
      mesh->aamm[k + 3] = fmax(mesh->aamm[k + 3], v[k]);
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * processing
 * ------------------------------------------------------------------------------------- */

/* the hull's faces become the mesh's when none were given */
static int faces_from_hull(tnMesh* mesh, char* err, int errsz) {
  int nv = mesh->graph[0], nf = mesh->graph[1];
  int* face = malloc(sizeof(int) * 3 * (size_t)nf);
  if (!face) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  memcpy(face, mesh->graph + 2 + 3 * nv + 3 * nf, sizeof(int) * 3 * (size_t)nf);
  free(mesh->face);
  mesh->face = face;
  mesh->nface = nf;
  return 0;
}

/* check the options before touching the mesh */
static int check_options(const tnMesh* mesh, const tnMeshOptions* opt, char* err, int errsz) {
  // the enumerated options
  if (opt->maxhullvert != -1 && opt->maxhullvert < 4) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "maxhullvert must be -1 or larger "
                         "than 3 (got %d)",
                         opt->maxhullvert);
  }
  if (opt->inertia < TN_MESH_INERTIA_CONVEX || opt->inertia > TN_MESH_INERTIA_SHELL) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "invalid inertia type %d",
                         (int)opt->inertia);
  }

  // the numbers
  for (int k = 0; k < 4; k++) {
    if (!isfinite(opt->refquat[k]) || (k < 3 && (!isfinite(opt->refpos[k]) ||
                                                 !isfinite(opt->scale[k])))) {
      return tn__meshError(err, errsz, mesh->name, mesh->file,
                           "scale, refpos and refquat must "
                           "be finite");
    }
  }
  if (mju_norm(opt->refquat, 4) < mjMINVAL) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "refquat is zero");
  }

  // the mesh itself
  if (mesh->nvert < 4) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "at least 4 vertices required "
                         "(got %d)",
                         mesh->nvert);
  }
  return 0;
}

/* the whole pipeline */
int tn__meshProcess(tnMesh* mesh, const tnMeshOptions* opt, char* err, int errsz) {
  // a loaded mesh, processed once, with valid options
  if (!mesh->vert || mesh->processed) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         mesh->processed ? "already "
                                           "processed"
                                         : "not loaded");
  }
  if (check_options(mesh, opt, err, errsz)) {
    return -1;
  }

  // the hull, from the vertices as loaded (MuJoCo builds it before the asset transform);
  // required by colliding geoms, convex inertia and meshes without faces
  int needhull = opt->needhull || opt->inertia == TN_MESH_INERTIA_CONVEX || mesh->nface == 0;
  char hullerr[512];
  if (tn__meshHull(mesh, opt->maxhullvert, &mesh->graph, &mesh->ngraph, hullerr, sizeof(hullerr))) {
    if (needhull) {
      if (err && errsz > 0) {
        snprintf(err, (size_t)errsz, "%s", hullerr);
      }
      return -1;
    }
  }

  // the hull's polygons, merged in the same frame as the hull
  if (tn__meshPolygons(mesh, err, errsz)) {
    return -1;
  }

  // faces from the hull when none were given, then the asset transform
  if (mesh->nface == 0 && faces_from_hull(mesh, err, errsz)) {
    return -1;
  }
  apply_transform(mesh, opt);

  // mass properties, the inertia box, and the vertices in the principal frame
  if (tn__meshMassProperties(mesh, opt->inertia, err, errsz)) {
    return -1;
  }
  to_principal_frame(mesh);
  tn__meshHullFinish(mesh);

  // what the model keeps besides the arrays
  mju_copy3(mesh->scale, opt->scale);
  mesh->inertia = opt->inertia;
  mesh->processed = 1;
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * mesh geoms and the model
 * ------------------------------------------------------------------------------------- */

/* geom frame = given frame * mesh frame: pos + R(quat) mesh_pos, quat * mesh_quat (the
 * offset rotated through the rotation matrix, as MuJoCo's compiler does) */
void tn__meshGeomFrame(const tnMesh* mesh, const mjtNum pos[3], const mjtNum quat[4],
                       mjtNum gpos[3], mjtNum gquat[4]) {
  // offset and orientation composed first, so gpos may alias pos and gquat quat
  mjtNum mat[9], off[3], q[4];
  mju_quat2Mat(mat, quat);
  mju_mulMatVec3(off, mat, mesh->pos);
  mju_mulQuat(q, quat, mesh->quat);
  for (int k = 0; k < 3; k++) {
    gpos[k] = pos[k] + off[k];
  }
  mju_copy4(gquat, q);
}

/* mass and principal inertia of the equivalent box */
int tn__meshGeomInertia(const tnMesh* mesh, mjtNum mass, mjtNum density, mjtNum* mass_out,
                        mjtNum inertia[3], char* err, int errsz) {
  if (!mesh->processed) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "not processed");
  }
  // the given mass, or density times volume (area for a shell)
  mjtNum m = mass >= 0 ? mass : density * mesh->volume;

  // a uniform box of that mass with the inertia box's half sizes
  const mjtNum* b = mesh->boxsz;
  inertia[0] = m * (b[1] * b[1] + b[2] * b[2]) / 3;
  inertia[1] = m * (b[0] * b[0] + b[2] * b[2]) / 3;
  inertia[2] = m * (b[0] * b[0] + b[1] * b[1]) / 3;
  *mass_out = m;
  return 0;
}

/* size, bounding radius and box from the double-precision vertex bounds */
void tn__meshGeomBounds(const tnMesh* mesh, mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]) {
  // per axis: the farthest extent, and the box's center and half size
  const mjtNum* a = mesh->aamm;
  for (int k = 0; k < 3; k++) {
    size[k] = fmax(fabs(a[k]), fabs(a[k + 3]));
    aabb[k] = (a[k + 3] + a[k]) / 2;
    aabb[k + 3] = (a[k + 3] - a[k]) / 2;
  }

  // the radius reaches the farthest corner of the size box
  *rbound = sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
}

/* copy into the model's mesh arrays */
void tn__meshToModel(const tnMesh* mesh, mjModel* m, int id, int vertadr, int faceadr,
                     int graphadr) {
  // addresses, counts and frame
  m->mesh_vertadr[id] = vertadr;
  m->mesh_vertnum[id] = mesh->nvert;
  m->mesh_faceadr[id] = faceadr;
  m->mesh_facenum[id] = mesh->nface;
  m->mesh_graphadr[id] = mesh->ngraph ? graphadr : -1;
  mju_copy3(m->mesh_pos + 3 * id, mesh->pos);
  mju_copy4(m->mesh_quat + 4 * id, mesh->quat);
  mju_copy3(m->mesh_scale + 3 * id, mesh->scale);

  // the arrays: vertices in single precision, faces and graph as they are
  for (int i = 0; i < 3 * mesh->nvert; i++) {
    m->mesh_vert[3 * vertadr + i] = (float)mesh->vert[i];
  }
  memcpy(m->mesh_face + 3 * faceadr, mesh->face, sizeof(int) * 3 * (size_t)mesh->nface);
  if (mesh->ngraph) {
    memcpy(m->mesh_graph + graphadr, mesh->graph, sizeof(int) * (size_t)mesh->ngraph);
  }
}
