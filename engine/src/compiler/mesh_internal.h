/* compiler/mesh_internal.h — helpers shared by the mesh_*.c files (not part of the
 * compiler's contract, which is compiler/mesh.h): error messages that name the asset,
 * growable arrays, the OBJ parser called by the loader, and the mass properties called by
 * the processor. */
#ifndef TORSION_MESH_INTERNAL_H
#define TORSION_MESH_INTERNAL_H

#include <stddef.h>

#include "compiler/mesh.h"

/* Write "mesh 'NAME' (file 'FILE'): <message>" (the file part only when file is given)
 * into err and return -1. */
int tn__meshError(char* err, int errsz, const char* name, const char* file, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Make room for at least `need` elements of `elsize` bytes in *arr (capacity in *cap).
 * Returns 0, or -1 when out of memory (the array is left as it was). */
int tn__meshReserve(void** arr, int* cap, int need, size_t elsize);

/* Parse a Wavefront OBJ held in data[0..size) into mesh->vert / mesh->face: v and f lines,
 * polygons triangulated as MuJoCo's loader does (quads along the shorter diagonal, larger
 * polygons by ear clipping), negative indices relative to the vertices read so far; other
 * lines (vt, vn, o, g, s, usemtl, ...) are ignored. Implemented in mesh_obj.c. */
int tn__meshParseOBJ(tnMesh* mesh, const char* data, size_t size, char* err, int errsz);

/* Center of mass and principal frame (mesh->pos, mesh->quat), volume (area for shell) and
 * inertia box (mesh->boxsz) of a transformed mesh, for the given inertia type; "convex"
 * needs mesh->graph. Vertices are not moved. Implemented in mesh_inertia.c. */
int tn__meshMassProperties(tnMesh* mesh, tnMeshInertia type, char* err, int errsz);

#endif /* TORSION_MESH_INTERNAL_H */
