/* compiler/mesh_process.c — from a loaded mesh to MuJoCo's compiled mesh.
 *
 * The steps and their order are MuJoCo's (the results are compared with MuJoCo 3.14 in
 * tests/unit/test_mesh.c):
 *   1. the asset transform: subtract refpos, rotate by the conjugate of refquat, scale
 *      (a mirroring scale flips the faces to keep them outward);
 *   2. the convex hull (mesh_hull.c); a mesh given without faces takes the hull's;
 *   3. the center of mass: pyramids from every face to the surface centroid (area-weighted
 *      face centers), their volumes unsigned for "legacy", signed for "exact", over the
 *      hull's faces for "convex"; for "shell" the surface centroid itself;
 *   4. volume and inertia about that center: tetrahedra from the center to every face
 *      (shell: triangles weighted by area), then the principal axes with mju_eig3;
 *   5. the vertices moved into the principal frame; mesh_pos / mesh_quat keep the move.
 * A mesh geom's inertia is that of the box with the same principal moments per unit mass
 * (MuJoCo's "inertia box"), scaled by the geom's mass. */
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
void tn_meshDefaultOptions(tnMeshOptions* opt) {
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
    mjtNum q[4] = {opt->refquat[0], opt->refquat[1], opt->refquat[2], opt->refquat[3]};
    mjtNum norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) {
      q[k] /= norm;
    }
    mjtNum mat[9], tmp[3];
    mju_quat2Mat(mat, q);
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

/* ---------------------------------------------------------------------------------------
 * mass properties
 * ------------------------------------------------------------------------------------- */

/* a triangle's area, unit normal and center; area 0 (normal unset) when degenerate */
static mjtNum triangle(mjtNum normal[3], mjtNum center[3], const mjtNum* a, const mjtNum* b,
                       const mjtNum* c) {
  for (int k = 0; k < 3; k++) {
    center[k] = (a[k] + b[k] + c[k]) / 3;
  }
  mjtNum e1[3], e2[3];
  mju_sub3(e1, b, a);
  mju_sub3(e2, c, a);
  mju_cross(normal, e1, e2);
  mjtNum len = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
  if (len < mjMINVAL) {
    return 0;
  }
  for (int k = 0; k < 3; k++) {
    normal[k] /= len;
  }
  return len / 2;
}

/* the faces a computation runs over: the hull's for "convex", the mesh's otherwise */
typedef struct face_set_ {
  const int* face;
  int nface;
} face_set;

static face_set inertia_faces(const tnMesh* mesh, tnMeshInertia type) {
  face_set s = {mesh->face, mesh->nface};
  if (type == TN_MESH_INERTIA_CONVEX && mesh->graph) {
    int nv = mesh->graph[0];
    s.nface = mesh->graph[1];
    s.face = mesh->graph + 2 + 3 * nv + 3 * s.nface;
  }
  return s;
}

/* surface area and area-weighted centroid of the faces */
static mjtNum surface_center(const tnMesh* mesh, face_set fs, mjtNum center[3]) {
  mjtNum area = 0, nrm[3], cen[3];
  mju_zero3(center);
  for (int f = 0; f < fs.nface; f++) {
    const int* t = fs.face + 3 * f;
    mjtNum a = triangle(nrm, cen, mesh->vert + 3 * t[0], mesh->vert + 3 * t[1],
                        mesh->vert + 3 * t[2]);
    for (int k = 0; k < 3; k++) {
      center[k] += a * cen[k];
    }
    area += a;
  }
  if (area >= mjMINVAL) {
    for (int k = 0; k < 3; k++) {
      center[k] /= area;
    }
  }
  return area;
}

/* volume and center of mass of the pyramids from apex to every face */
static mjtNum volume_center(const tnMesh* mesh, face_set fs, tnMeshInertia type,
                            const mjtNum apex[3], mjtNum com[3]) {
  mjtNum total = 0, nrm[3], cen[3];
  mju_zero3(com);
  for (int f = 0; f < fs.nface; f++) {
    const int* t = fs.face + 3 * f;
    mjtNum a = triangle(nrm, cen, mesh->vert + 3 * t[0], mesh->vert + 3 * t[1],
                        mesh->vert + 3 * t[2]);
    if (a == 0) {
      continue;
    }
    // signed pyramid volume (unsigned for legacy) and its centroid
    mjtNum d[3] = {cen[0] - apex[0], cen[1] - apex[1], cen[2] - apex[2]};
    mjtNum vol = mju_dot3(d, nrm) * a / 3;
    if (type == TN_MESH_INERTIA_SHELL) vol = a;
    if (type == TN_MESH_INERTIA_LEGACY) {
      vol = fabs(vol);
    }
    total += vol;
    for (int k = 0; k < 3; k++) {
      com[k] += vol * (cen[k] * 3.0 / 4.0 + apex[k] / 4.0);
    }
  }
  if (fabs(total) >= mjMINVAL) {
    for (int k = 0; k < 3; k++) {
      com[k] /= total;
    }
  }
  return total;
}

/* products of inertia (xx yy zz xy xz yz) of one face about the origin: a solid tetrahedron
 * with the origin (weight = its volume, divisor 20) or a shell triangle (weight = its area,
 * divisor 12); the bracket is the same sum of vertex products in both */
static void face_products(mjtNum P[6], const mjtNum* D, const mjtNum* E, const mjtNum* F,
                          mjtNum weight, mjtNum divisor) {
  static const int idx[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  for (int j = 0; j < 6; j++) {
    int a = idx[j][0], b = idx[j][1];
    P[j] += weight / divisor *
            (2 * (D[a] * D[b] + E[a] * E[b] + F[a] * F[b]) + D[a] * E[b] + D[b] * E[a] +
             D[a] * F[b] + D[b] * F[a] + E[a] * F[b] + E[b] * F[a]);
  }
}

/* volume (area for shell) and inertia tensor (xx yy zz xy xz yz) about com */
static mjtNum inertia_about(const tnMesh* mesh, face_set fs, tnMeshInertia type,
                            const mjtNum com[3], mjtNum inert[6]) {
  mjtNum P[6] = {0}, total = 0, nrm[3], cen[3];
  int shell = type == TN_MESH_INERTIA_SHELL;
  for (int f = 0; f < fs.nface; f++) {
    const int* t = fs.face + 3 * f;
    mjtNum D[3], E[3], F[3];
    mju_sub3(D, mesh->vert + 3 * t[0], com);
    mju_sub3(E, mesh->vert + 3 * t[1], com);
    mju_sub3(F, mesh->vert + 3 * t[2], com);
    mjtNum a = triangle(nrm, cen, D, E, F);
    if (a == 0) {
      continue;
    }
    // weight: tetrahedron volume (unsigned for legacy), or area for a shell
    mjtNum w = a;
    if (!shell) {
      w = mju_dot3(cen, nrm) * a / 3;
      if (type == TN_MESH_INERTIA_LEGACY) {
        w = fabs(w);
      }
    }
    total += w;
    face_products(P, D, E, F, w, shell ? 12 : 20);
  }

  // moments from products
  inert[0] = P[1] + P[2];
  inert[1] = P[0] + P[2];
  inert[2] = P[0] + P[1];
  inert[3] = -P[3];
  inert[4] = -P[4];
  inert[5] = -P[5];
  return total;
}

/* MuJoCo finds a mesh's principal axes with the same cyclic Jacobi rotations as mju_eig3
 * but a much looser tolerance, relative to the largest entry: rotations stop once the
 * largest off-diagonal entry is below it, and eigenvalues closer than it are not sorted
 * (so a nearly isotropic mesh keeps its own axes). Found by comparing with MuJoCo 3.14. */
#define MESH_EIG_TOL 1E-7

/* most Jacobi iterations */
#define MESH_EIG_MAXITER 500

/* the Jacobi rotation (a quaternion about axis k) that zeroes D[r][c] */
static void jacobi_rotation(mjtNum rot[4], const mjtNum D[9], int r, int c, int k) {
  mjtNum off = D[3 * r + c];
  mjtNum tau = (D[4 * c] - D[4 * r]) / (2 * off);
  mjtNum t = tau >= 0 ? 1 / (tau + sqrt(1 + tau * tau)) : -1 / (-tau + sqrt(1 + tau * tau));
  mjtNum th = t / (1 + sqrt(1 + t * t));
  mjtNum scl = 1 / sqrt(1 + th * th);
  rot[0] = scl;
  rot[1] = rot[2] = rot[3] = 0;
  rot[k + 1] = (k == 1 ? th : -th) * scl;
}

/* D = R' A R for row-major 3x3 matrices */
static void rotate_tensor(mjtNum D[9], const mjtNum R[9], const mjtNum A[9]) {
  mjtNum RA[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      RA[3 * i + j] = R[i] * A[j] + R[3 + i] * A[3 + j] + R[6 + i] * A[6 + j];
    }
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      D[3 * i + j] = RA[3 * i] * R[j] + RA[3 * i + 1] * R[3 + j] + RA[3 * i + 2] * R[6 + j];
    }
  }
}

/* principal moments (decreasing unless nearly equal) and the frame quaternion */
static void mesh_eig3(mjtNum eigval[3], mjtNum quat[4], const mjtNum mat[9]) {
  mjtNum scale = 0, D[9], R[9], rot[4];
  for (int i = 0; i < 9; i++) {
    scale = fmax(scale, fabs(mat[i]));
  }
  mjtNum tol = MESH_EIG_TOL * scale;

  // rotate until the largest off-diagonal entry is negligible
  mju_unit4(quat);
  for (int iter = 0; iter < MESH_EIG_MAXITER; iter++) {
    mju_quat2Mat(R, quat);
    rotate_tensor(D, R, mat);
    eigval[0] = D[0], eigval[1] = D[4], eigval[2] = D[8];
    mjtNum a01 = fabs(D[1]), a02 = fabs(D[2]), a12 = fabs(D[5]);
    int r = 1, c = 2, k = 0;
    if (a01 > a02 && a01 > a12) {
      r = 0, c = 1, k = 2;
    } else if (a02 > a12) {
      r = 0, c = 2, k = 1;
    }
    if (fabs(D[3 * r + c]) <= tol) {
      break;
    }
    jacobi_rotation(rot, D, r, c, k);
    mju_mulQuat(quat, quat, rot);
    mju_normalize4(quat);
  }

  // sort decreasing (pairs 01, 12, 01) by quarter turns, leaving near-equal pairs alone
  for (int pass = 0; pass < 3; pass++) {
    int j = pass % 2;
    if (eigval[j + 1] - eigval[j] > tol) {
      mjtNum tmp = eigval[j];
      eigval[j] = eigval[j + 1];
      eigval[j + 1] = tmp;
      rot[0] = 0.707106781186548;
      rot[1] = rot[2] = rot[3] = 0;
      rot[(j + 2) % 3 + 1] = rot[0];
      mju_mulQuat(quat, quat, rot);
    }
  }
}

/* center of mass, volume and principal frame; -1 with a reason on a degenerate mesh */
static int mass_properties(tnMesh* mesh, tnMeshInertia type, mjtNum eigval[3], char* err,
                           int errsz) {
  face_set fs = inertia_faces(mesh, type);
  face_set mesh_faces = {mesh->face, mesh->nface};
  mjtNum surfcen[3], com[3], inert[6];

  // center of mass: the surface centroid, or the pyramids' centroid about it
  mjtNum area = surface_center(mesh, mesh_faces, surfcen);
  if (type == TN_MESH_INERTIA_SHELL) {
    if (area < mjMINVAL) {
      return tn_meshError(err, errsz, mesh->name, mesh->file, "surface area is too small");
    }
    volume_center(mesh, fs, type, surfcen, com);
  } else {
    mjtNum vol = volume_center(mesh, fs, type, surfcen, com);
    if (vol < 0) {
      return tn_meshError(err, errsz, mesh->name, mesh->file, "volume is negative (misoriented "
                          "triangles)");
    }
    if (vol < mjMINVAL) {
      return tn_meshError(err, errsz, mesh->name, mesh->file, "volume is too small (%g); try "
                          "inertia=\"shell\"", vol);
    }
  }

  // volume and inertia about the center, then the principal axes
  mjtNum vol = inertia_about(mesh, fs, type, com, inert);
  if (vol < mjMINVAL) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "volume is too small (%g); try "
                        "inertia=\"shell\"", vol);
  }
  mjtNum full[9] = {inert[0], inert[3], inert[4], inert[3], inert[1],
                    inert[5], inert[4], inert[5], inert[2]};
  mesh_eig3(eigval, mesh->quat, full);
  if (eigval[2] <= 0) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "inertia has a non-positive "
                        "principal moment");
  }
  mju_copy3(mesh->pos, com);
  mesh->volume = vol;
  return 0;
}

/* the equivalent inertia box: half sizes of the box with these moments per unit volume */
static int inertia_box(tnMesh* mesh, const mjtNum ev[3], char* err, int errsz) {
  mjtNum d0 = ev[1] + ev[2] - ev[0], d1 = ev[0] + ev[2] - ev[1], d2 = ev[0] + ev[1] - ev[2];
  if (d0 < 0 || d1 < 0 || d2 < 0) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "principal moments violate the "
                        "triangle inequality A + B >= C");
  }
  mesh->boxsz[0] = 0.5 * sqrt(6 * d0 / mesh->volume);
  mesh->boxsz[1] = 0.5 * sqrt(6 * d1 / mesh->volume);
  mesh->boxsz[2] = 0.5 * sqrt(6 * d2 / mesh->volume);
  return 0;
}

/* vertices into the principal frame: v <- R' (v - com); then their bounding box */
static void to_principal_frame(tnMesh* mesh) {
  mjtNum mat[9], d[3];
  mju_quat2Mat(mat, mesh->quat);
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
    return tn_meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  memcpy(face, mesh->graph + 2 + 3 * nv + 3 * nf, sizeof(int) * 3 * (size_t)nf);
  free(mesh->face);
  mesh->face = face;
  mesh->nface = nf;
  return 0;
}

/* check the options before touching the mesh */
static int check_options(const tnMesh* mesh, const tnMeshOptions* opt, char* err, int errsz) {
  if (opt->maxhullvert != -1 && opt->maxhullvert < 4) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "maxhullvert must be -1 or larger "
                        "than 3 (got %d)", opt->maxhullvert);
  }
  if (opt->inertia < TN_MESH_INERTIA_CONVEX || opt->inertia > TN_MESH_INERTIA_SHELL) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "invalid inertia type %d",
                        (int)opt->inertia);
  }
  for (int k = 0; k < 4; k++) {
    if (!isfinite(opt->refquat[k]) || (k < 3 && (!isfinite(opt->refpos[k]) ||
                                                 !isfinite(opt->scale[k])))) {
      return tn_meshError(err, errsz, mesh->name, mesh->file, "scale, refpos and refquat must "
                          "be finite");
    }
  }
  if (mju_norm(opt->refquat, 4) < mjMINVAL) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "refquat is zero");
  }
  if (mesh->nvert < 4) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "at least 4 vertices required "
                        "(got %d)", mesh->nvert);
  }
  return 0;
}

/* the whole pipeline */
int tn_meshProcess(tnMesh* mesh, const tnMeshOptions* opt, char* err, int errsz) {
  if (!mesh->vert || mesh->processed) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, mesh->processed ? "already "
                        "processed" : "not loaded");
  }
  if (check_options(mesh, opt, err, errsz)) {
    return -1;
  }

  // the hull, from the vertices as loaded (MuJoCo builds it before the asset transform);
  // required by colliding geoms, convex inertia and meshes without faces
  int needhull = opt->needhull || opt->inertia == TN_MESH_INERTIA_CONVEX || mesh->nface == 0;
  char hullerr[512];
  if (tn_meshHull(mesh, opt->maxhullvert, &mesh->graph, &mesh->ngraph, hullerr,
                  sizeof(hullerr))) {
    if (needhull) {
      snprintf(err, (size_t)errsz, "%s", hullerr);
      return -1;
    }
  }
  if (mesh->nface == 0 && faces_from_hull(mesh, err, errsz)) {
    return -1;
  }
  apply_transform(mesh, opt);

  // mass properties, the inertia box, and the vertices in the principal frame
  mjtNum eigval[3];
  if (mass_properties(mesh, opt->inertia, eigval, err, errsz) ||
      inertia_box(mesh, eigval, err, errsz)) {
    return -1;
  }
  to_principal_frame(mesh);
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
void tn_meshGeomFrame(const tnMesh* mesh, const mjtNum pos[3], const mjtNum quat[4],
                      mjtNum gpos[3], mjtNum gquat[4]) {
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
int tn_meshGeomInertia(const tnMesh* mesh, mjtNum mass, mjtNum density, mjtNum* mass_out,
                       mjtNum inertia[3], char* err, int errsz) {
  if (!mesh->processed) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "not processed");
  }
  mjtNum m = mass >= 0 ? mass : density * mesh->volume;
  const mjtNum* b = mesh->boxsz;
  inertia[0] = m * (b[1] * b[1] + b[2] * b[2]) / 3;
  inertia[1] = m * (b[0] * b[0] + b[2] * b[2]) / 3;
  inertia[2] = m * (b[0] * b[0] + b[1] * b[1]) / 3;
  *mass_out = m;
  return 0;
}

/* size, bounding radius and box from the double-precision vertex bounds */
void tn_meshGeomBounds(const tnMesh* mesh, mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]) {
  const mjtNum* a = mesh->aamm;
  for (int k = 0; k < 3; k++) {
    size[k] = fmax(fabs(a[k]), fabs(a[k + 3]));
    aabb[k] = (a[k + 3] + a[k]) / 2;
    aabb[k + 3] = (a[k + 3] - a[k]) / 2;
  }
  *rbound = sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
}

/* copy into the model's mesh arrays */
void tn_meshToModel(const tnMesh* mesh, mjModel* m, int id, int vertadr, int faceadr,
                    int graphadr) {
  m->mesh_vertadr[id] = vertadr;
  m->mesh_vertnum[id] = mesh->nvert;
  m->mesh_faceadr[id] = faceadr;
  m->mesh_facenum[id] = mesh->nface;
  m->mesh_graphadr[id] = mesh->ngraph ? graphadr : -1;
  mju_copy3(m->mesh_pos + 3 * id, mesh->pos);
  mju_copy4(m->mesh_quat + 4 * id, mesh->quat);
  mju_copy3(m->mesh_scale + 3 * id, mesh->scale);
  for (int i = 0; i < 3 * mesh->nvert; i++) {
    m->mesh_vert[3 * vertadr + i] = (float)mesh->vert[i];
  }
  memcpy(m->mesh_face + 3 * faceadr, mesh->face, sizeof(int) * 3 * (size_t)mesh->nface);
  if (mesh->ngraph) {
    memcpy(m->mesh_graph + graphadr, mesh->graph, sizeof(int) * (size_t)mesh->ngraph);
  }
}
