/* compiler/mesh.h — mesh assets as pure functions the MJCF compiler calls.
 *
 * A <mesh> asset goes through three steps, each returning 0 on success or -1 with a
 * one-line reason in err that names the asset (and its file, when it has one):
 *   1. load: tn__meshLoadFile / tn__meshLoadBuffer (binary or ASCII STL, OBJ, MuJoCo's MSH)
 *      or tn__meshFromLists (the inline vertex/face attributes);
 *   2. process: tn__meshProcess builds the convex hull with qhull and its vertex graph
 *      (mjModel.mesh_graph), applies refpos, refquat and scale, computes the volume, center
 *      of mass and principal axes for the chosen inertia type, and moves the vertices into
 *      that principal frame (mesh_pos, mesh_quat say where the frame is);
 *   3. use: tn__meshGeomFrame, tn__meshGeomInertia and tn__meshGeomBounds give a mesh geom's
 *      geom_pos / geom_quat, mass properties, and geom_size / geom_rbound / geom_aabb;
 *      tn__meshToModel copies the mesh into mjModel's mesh_* arrays.
 * The results equal MuJoCo 3.14's bit for bit on the test meshes and on every mesh shipped
 * with dm_control (tests/unit/test_mesh.c holds MuJoCo's values for a test scene).
 * Functions are pure: no globals, no output; safe to call from several threads.
 * Implemented in compiler/mesh_load.c, mesh_obj.c, mesh_hull.c, mesh_inertia.c and
 * mesh_process.c. */
#ifndef TORSION_MESH_H
#define TORSION_MESH_H

#include <stddef.h>

#include <torsion/torsion.h>

#include "util/file_source.h"

/* how mass and inertia are inferred from a mesh (same values as MuJoCo's mjtMeshInertia) */
typedef enum tnMeshInertia_ {
  TN_MESH_INERTIA_CONVEX = 0, /* volume of the convex hull */
  TN_MESH_INERTIA_EXACT,      /* signed volume of a closed, outward-oriented mesh */
  TN_MESH_INERTIA_LEGACY,     /* MuJoCo's default: unsigned volumes about the center */
  TN_MESH_INERTIA_SHELL       /* mass spread uniformly over the surface */
} tnMeshInertia;

/* file formats; AUTO picks by the file name's extension (.stl, .obj, .msh) */
typedef enum tnMeshFormat_ {
  TN_MESH_FORMAT_AUTO = 0,
  TN_MESH_FORMAT_STL, /* binary or ASCII STL */
  TN_MESH_FORMAT_OBJ, /* Wavefront OBJ: v and f lines */
  TN_MESH_FORMAT_MSH  /* MuJoCo's legacy binary mesh */
} tnMeshFormat;

/* the <mesh> attributes that change the geometry, and whether the hull is required */
typedef struct tnMeshOptions_ {
  mjtNum scale[3];       /* per-axis scale, applied last; default 1 1 1 */
  mjtNum refpos[3];      /* subtracted from the vertices first; default 0 0 0 */
  mjtNum refquat[4];     /* vertices rotated by its conjugate; default 1 0 0 0 */
  tnMeshInertia inertia; /* default TN_MESH_INERTIA_LEGACY (MuJoCo 3.14's default) */
  int maxhullvert;       /* most hull vertices; -1 = no limit, otherwise > 3 */
  int needhull;          /* 1 (MuJoCo's rule): the mesh is used by a geom with contype or
                          * conaffinity nonzero, by a geom in an explicit <pair>, or by a
                          * site, so a hull that cannot be formed is an error; 0 (unused,
                          * or only on contype=conaffinity=0 geoms): the hull is built when
                          * possible and silently omitted otherwise. Convex inertia and
                          * meshes without faces always need it. */
} tnMeshOptions;

/* a mesh asset; every array is owned (tn__meshFree releases them) */
typedef struct tnMesh_ {
  char* name;  /* asset name (may be empty) */
  char* file;  /* file name as given, or NULL for inline data */

  /* geometry: after tn__meshProcess, vertices are in the mesh (principal) frame */
  int nvert;
  mjtNum* vert;  /* 3*nvert */
  int nface;
  int* face;     /* 3*nface vertex indices, counterclockwise seen from outside */

  /* convex hull as MuJoCo's mesh_graph: [nv, nf, vert_edgeadr(nv), vert_globalid(nv),
   * edge_localid(nv + 3*nf, each vertex's neighbors then -1), face_globalid(3*nf)];
   * ngraph = 0 and graph = NULL when there is no hull */
  int ngraph;
  int* graph;

  /* the hull's faces merged into polygons (MuJoCo's mesh_poly* fields, in MuJoCo's
   * order): triangles whose normals, in the frame the hull was built in, round to the same
   * spherical angles at 0.01 rad, each connected piece traced as one vertex loop (mesh
   * vertex ids), the groups listed in the order of MuJoCo's hash table; polygon normals
   * from the first three vertices of each loop in the final frame; npoly = 0 without a
   * hull */
  int npoly, npolyvert;
  int* polyvertadr;   /* npoly: start of each polygon in polyvert */
  int* polyvertnum;   /* npoly: its vertex count */
  int* polyvert;      /* npolyvert */
  mjtNum* polynormal; /* 3*npoly */

  /* mesh_extrema: for the 27 directions (cx, cy, cz) in {-1, 0, 1}^3 (cx slowest), the hull
   * vertex (hull-local id) farthest along it, from the final single-precision vertices */
  int extrema[27];

  /* results of tn__meshProcess */
  int processed;
  tnMeshInertia inertia; /* inertia type used */
  mjtNum scale[3];       /* the scale applied (mesh_scale) */
  mjtNum pos[3];         /* mesh_pos: the mesh frame's origin (the center of mass) ... */
  mjtNum quat[4];        /* mesh_quat: ... and its principal axes, both in the asset's
                          * frame after refpos, refquat and scale */
  mjtNum volume;         /* volume, or surface area for TN_MESH_INERTIA_SHELL */
  mjtNum boxsz[3];       /* half sizes of the box with the same inertia per unit mass */
  mjtNum aamm[6];        /* axis-aligned box of the vertices in the mesh frame: min, max */
} tnMesh;

/* ---- loading ---- */

/* Format from a file name's extension or an MJCF content_type ("model/stl", "model/obj",
 * "model/vnd.mujoco.msh"); content_type wins when given. TN_MESH_FORMAT_AUTO if unknown. */
tnMeshFormat tn__meshFormat(const char* filename, const char* content_type);

/* Read a mesh file (format AUTO: from the extension) under the load's file rules (`files`,
 * NULL: anywhere on disk). name is the asset name used in messages. The mesh is zeroed
 * first; on failure it holds nothing to free. */
int tn__meshLoadFile(tnFiles* files, tnMesh* mesh, const char* name, const char* path,
                     tnMeshFormat format, char* err, int errsz);

/* The same from a file's contents in memory; filename is used for messages and, with
 * format AUTO, for the extension. */
int tn__meshLoadBuffer(tnMesh* mesh, const char* name, const char* filename, const void* data,
                       size_t size, tnMeshFormat format, char* err, int errsz);

/* The inline vertex (3*nvert) and face (3*nface, may be 0) attributes. Coordinates are
 * rounded to float as MuJoCo stores user vertices. Without faces, the faces become those
 * of the convex hull during tn__meshProcess. */
int tn__meshFromLists(tnMesh* mesh, const char* name, const mjtNum* vert, int nvert,
                      const int* face, int nface, char* err, int errsz);

/* Release the arrays and zero the struct (safe on a zeroed or partly loaded mesh). */
void tn__meshFree(tnMesh* mesh);

/* ---- processing ---- */

/* Options as MuJoCo's defaults: scale 1, refpos 0, refquat identity, legacy inertia,
 * maxhullvert -1, needhull 1. */
void tn__meshDefaultOptions(tnMeshOptions* opt);

/* Build the hull and graph (from the vertices as loaded, as MuJoCo does), apply the
 * options, compute the mass properties and move the vertices into the principal frame.
 * Errors (as MuJoCo's): fewer than 4 vertices; a hull that cannot be formed (coplanar or
 * coincident points) when needed; a volume too small or negative (inward faces; "convex"
 * with a mirroring scale, as in MuJoCo); for "exact", faces of inconsistent orientation;
 * invalid options. After a failure the mesh is unusable: free it. */
int tn__meshProcess(tnMesh* mesh, const tnMeshOptions* opt, char* err, int errsz);

/* Convex hull of the mesh's current vertices with qhull (reentrant), as MuJoCo's
 * mesh_graph layout (see tnMesh.graph) in a malloc'ed *graph of *ngraph ints (the hull's
 * faces point outward for these vertices). maxhullvert as in tnMeshOptions. Returns -1
 * with a reason naming the asset and file when qhull cannot form a 3-D hull (fewer than 4
 * points, coplanar or coincident points); qhull's own messages are captured, never
 * printed. Used by tn__meshProcess. */
int tn__meshHull(const tnMesh* mesh, int maxhullvert, int** graph, int* ngraph, char* err,
                 int errsz);

/* Merge the hull's triangles into polygons (tnMesh.poly*, normals not yet set) from the
 * mesh's current vertices; call right after tn__meshHull, before any transform (MuJoCo
 * merges in the frame the hull is built in). A mesh without a hull gets none. Returns -1
 * with a reason when out of memory. */
int tn__meshPolygons(tnMesh* mesh, char* err, int errsz);

/* Polygon normals and mesh_extrema from the final vertices (after tn__meshProcess has moved
 * them into the principal frame). */
void tn__meshHullFinish(tnMesh* mesh);

/* Release the polygons and clear the extrema: the hull data besides the graph (also done
 * by tn__meshFree). */
void tn__meshFreePolygons(tnMesh* mesh);

/* Copy mesh `id`'s polygons and extrema into m: polyadr counts polygons (mesh_polynormal +
 * 3*polyadr), polyvertadr counts polygon vertices (mesh_polyvert and mesh_polymap);
 * vertadr is the mesh's mesh_vertadr. Fills mesh_polynum/adr, mesh_polynormal,
 * mesh_polyvertadr/num, mesh_polyvert, mesh_polymapadr/num, mesh_polymap, mesh_extrema.
 * Model sizes: nmeshpoly += npoly, nmeshpolyvert and nmeshpolymap += npolyvert. */
void tn__meshPolygonsToModel(const tnMesh* mesh, mjModel* m, int id, int vertadr, int polyadr,
                             int polyvertadr);

/* ---- mesh geoms ---- */

/* A mesh geom's frame: the geom frame given in MJCF (pos, quat) composed with the mesh
 * frame (mesh_pos, mesh_quat), as MuJoCo stores geom_pos and geom_quat. */
void tn__meshGeomFrame(const tnMesh* mesh, const mjtNum pos[3], const mjtNum quat[4],
                       mjtNum gpos[3], mjtNum gquat[4]);

/* Mass and principal inertia (about the geom frame from tn__meshGeomFrame, at its origin,
 * which is the mesh's center of mass) of a mesh geom; mass < 0 means density * volume
 * (density per area for shell meshes). Like tn__geomInertia; feed the results, with the
 * geom frame, to tn__combineInertia. Returns -1 with a reason when the mesh is not
 * processed. (MuJoCo rejects shellinertia="true" on mesh geoms: "for mesh geoms, inertia
 * should be specified in the mesh asset"; that check is the compiler's.) */
int tn__meshGeomInertia(const tnMesh* mesh, mjtNum mass, mjtNum density, mjtNum* mass_out,
                        mjtNum inertia[3], char* err, int errsz);

/* geom_size (largest |coordinate| per axis of the vertices), geom_rbound (the norm of
 * that size) and geom_aabb (center and half sizes of the vertices' box), in the geom
 * frame from tn__meshGeomFrame, from the double-precision vertices as MuJoCo does. */
void tn__meshGeomBounds(const tnMesh* mesh, mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]);

/* ---- into mjModel ---- */

/* Copy mesh `id` into m: vertadr counts vertices (mesh_vert + 3*vertadr), faceadr counts
 * faces (mesh_face + 3*faceadr), graphadr counts ints in mesh_graph (ignored when the mesh
 * has no hull). Fills mesh_vertadr/num, mesh_faceadr/num, mesh_graphadr (-1 without hull),
 * mesh_pos, mesh_quat, mesh_scale, mesh_vert (as float), mesh_face (indices local to the
 * mesh), mesh_graph. Model sizes: nmeshvert += nvert, nmeshface += nface,
 * nmeshgraph += ngraph, per mesh. */
void tn__meshToModel(const tnMesh* mesh, mjModel* m, int id, int vertadr, int faceadr,
                     int graphadr);

#endif /* TORSION_MESH_H */
