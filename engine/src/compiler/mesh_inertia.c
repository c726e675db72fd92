/* compiler/mesh_inertia.c — a mesh's center of mass, volume and principal axes, as MuJoCo
 * computes them (compared bit for bit with MuJoCo 3.14 in tests/unit/test_mesh.c).
 *
 *   - the surface centroid: area-weighted triangle centers of the mesh's faces;
 *   - the center of mass: pyramids from the surface centroid to every face, their volumes
 *     unsigned for "legacy" (which overcounts non-convex meshes), signed for "exact" (which
 *     also requires consistently oriented faces), over the convex hull's faces for "convex";
 *     for "shell", area-weighted instead of volume-weighted;
 *   - the volume and inertia tensor about that center: tetrahedra from the center to every
 *     face (shell: triangles weighted by their area);
 *   - the principal axes by Jacobi rotations with MuJoCo's loose mesh tolerance;
 *   - the "inertia box": half sizes of the uniform box with the same principal moments per
 *     unit volume, from which mesh geoms take their inertia. */
#include <math.h>
#include <stdlib.h>

#include "compiler/compile_helpers.h"
#include "compiler/mesh_internal.h"

/* a triangle's area, unit normal and center; area 0 (normal unset) when degenerate */
static mjtNum triangle(mjtNum normal[3], mjtNum center[3], const mjtNum* a, const mjtNum* b,
                       const mjtNum* c) {
  // center: mean of the corners
  for (int k = 0; k < 3; k++) {
    center[k] = (a[k] + b[k] + c[k]) / 3;
  }

  // normal from the edges' cross product; its length is twice the area
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

/* the faces a computation runs over */
typedef struct face_set_ {
  const int* face;
  int nface;
} face_set;

/* the hull's faces for "convex" (when there is a hull), the mesh's otherwise */
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

/* total weight and weighted centroid of the pyramids from apex to every face: weighted by
 * their signed volume (unsigned for legacy), or by the face area for a shell (the apex
 * then cancels out, but MuJoCo's rounding is kept by computing it the same way) */
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
    // the pyramid's weight, and its centroid
    mjtNum vol = a;
    if (type != TN_MESH_INERTIA_SHELL) {
      mjtNum d[3] = {cen[0] - apex[0], cen[1] - apex[1], cen[2] - apex[2]};
      vol = mju_dot3(d, nrm) * a / 3;
      if (type == TN_MESH_INERTIA_LEGACY) {
        vol = fabs(vol);
      }
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

/* principal moments (decreasing unless nearly equal) and the frame quaternion */
static void mesh_eig3(mjtNum eigval[3], mjtNum quat[4], const mjtNum mat[9]) {
  mjtNum eigvec[9];
  tn__eig3Tol(eigval, eigvec, quat, mat, MESH_EIG_TOL, MESH_EIG_TOL, 0);
}

/* "exact" inertia needs consistently oriented faces: no directed edge may be used by two
 * faces (MuJoCo reports the first such edge, in face order) */
static int check_orientation(const tnMesh* mesh, char* err, int errsz) {
  size_t size = 16;
  while (size < 6 * (size_t)mesh->nface) {
    size *= 2;
  }
  long long* slot = malloc(sizeof(long long) * size);
  if (!slot) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  for (size_t i = 0; i < size; i++) {
    slot[i] = -1;
  }

  // insert each directed edge; meeting it again means two faces run it the same way
  int res = 0;
  for (int e = 0; e < 3 * mesh->nface && !res; e++) {
    int a = mesh->face[e], b = mesh->face[e % 3 == 2 ? e - 2 : e + 1];
    long long key = (long long)a * mesh->nvert + b;
    size_t h = (size_t)((unsigned long long)key * 0x9E3779B97F4A7C15ull >> 20) & (size - 1);
    while (slot[h] >= 0 && slot[h] != key) {
      h = (h + 1) & (size - 1);
    }
    if (slot[h] == key) {
      res = tn__meshError(err, errsz, mesh->name, mesh->file,
                          "faces have inconsistent "
                          "orientation: the edge from vertex %d to vertex %d is in two faces "
                          "(needed by inertia=\"exact\")",
                          a, b);
    }
    slot[h] = key;
  }
  free(slot);
  return res;
}

/* center of mass, volume and principal frame; -1 with a reason on a degenerate mesh */
static int mass_properties(tnMesh* mesh, tnMeshInertia type, mjtNum eigval[3], char* err,
                           int errsz) {
  face_set fs = inertia_faces(mesh, type);
  face_set mesh_faces = {mesh->face, mesh->nface};
  mjtNum surfcen[3], com[3], inert[6];

  // "exact" trusts the faces' orientation: check it
  if (type == TN_MESH_INERTIA_EXACT && check_orientation(mesh, err, errsz)) {
    return -1;
  }

  // center of mass: the pyramids' centroid about the surface centroid (of the mesh's own
  // faces, also for "convex")
  mjtNum area = surface_center(mesh, mesh_faces, surfcen);
  mjtNum vol = volume_center(mesh, fs, type, surfcen, com);
  if (type == TN_MESH_INERTIA_SHELL && area < mjMINVAL) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "surface area is too small");
  }
  if (type != TN_MESH_INERTIA_SHELL && vol < 0) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "volume is negative (misoriented "
                         "triangles)");
  }
  if (type != TN_MESH_INERTIA_SHELL && vol < mjMINVAL) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "volume is too small (%g); try "
                         "inertia=\"shell\"",
                         vol);
  }

  // volume and inertia about the center, then the principal axes
  vol = inertia_about(mesh, fs, type, com, inert);
  if (vol < mjMINVAL) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "volume is too small (%g); try "
                         "inertia=\"shell\"",
                         vol);
  }
  mjtNum full[9] = {inert[0], inert[3], inert[4], inert[3], inert[1],
                    inert[5], inert[4], inert[5], inert[2]};
  mesh_eig3(eigval, mesh->quat, full);

  // a principal frame needs positive moments
  if (eigval[2] <= 0) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "inertia has a non-positive "
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
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "principal moments violate the "
                         "triangle inequality A + B >= C");
  }
  mesh->boxsz[0] = 0.5 * sqrt(6 * d0 / mesh->volume);
  mesh->boxsz[1] = 0.5 * sqrt(6 * d1 / mesh->volume);
  mesh->boxsz[2] = 0.5 * sqrt(6 * d2 / mesh->volume);
  return 0;
}

/* the whole computation: frame, volume and inertia box */
int tn__meshMassProperties(tnMesh* mesh, tnMeshInertia type, char* err, int errsz) {
  mjtNum eigval[3];
  if (mass_properties(mesh, type, eigval, err, errsz)) {
    return -1;
  }
  return inertia_box(mesh, eigval, err, errsz);
}
