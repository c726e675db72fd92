/* compiler/compile_mesh.c — mesh assets: loading and processing (before the model's sizes
 * are known, since they set nmeshvert, nmeshface and nmeshgraph), copying into the model,
 * and the per-geom lookups the geom and inertia stages use.
 *
 * The work itself is done by the mesh functions of compiler/mesh.h; this file decides
 * each mesh's options (whether its convex hull is required follows MuJoCo's rule: a mesh
 * used by a colliding geom or by a geom of an explicit <pair>) and reports their errors at
 * the <mesh> element. */
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"
#include "compiler/mesh_cache.h"

/* true when spec geom g is a mesh geom of mesh `name` */
static int geom_uses(const tnSpecGeom* g, const char* name) {
  return g->type == mjGEOM_MESH && g->mesh && name && strcmp(g->mesh, name) == 0;
}

/* true when a geom named `geom` (of an explicit pair) uses mesh `name` */
static int pair_geom_uses(const tnSpec* s, const char* geom, const char* name) {
  for (int i = 0; geom && i < s->geoms.n; i++) {
    const tnSpecGeom* g = TN_AT(s->geoms, tnSpecGeom, i);
    if (g->name && strcmp(g->name, geom) == 0) {
      return geom_uses(g, name);
    }
  }
  return 0;
}

/* MuJoCo's rule: the hull is required when a colliding geom or a pair geom uses the mesh */
static int mesh_needs_hull(const tnSpec* s, const char* name) {
  for (int i = 0; i < s->geoms.n; i++) {
    const tnSpecGeom* g = TN_AT(s->geoms, tnSpecGeom, i);
    if (geom_uses(g, name) && (g->contype || g->conaffinity)) {
      return 1;
    }
  }
  for (int i = 0; i < s->pairs.n; i++) {
    const tnSpecPair* p = TN_AT(s->pairs, tnSpecPair, i);
    if (pair_geom_uses(s, p->geom1, name) || pair_geom_uses(s, p->geom2, name)) {
      return 1;
    }
  }
  return 0;
}

/* load and process one mesh (a mesh file processed with the same options before comes
 * from the asset cache) */
static int compile_one(tnCompiler* c, const tnSpecMesh* sm, tnMesh* mesh) {
  char why[512] = "";
  const char* name = sm->name ? sm->name : "";
  int ok;

  // options of the hull, mass properties and principal frame
  tnMeshOptions opt;
  tn__meshDefaultOptions(&opt);
  mju_copy3(opt.scale, sm->scale);
  mju_copy3(opt.refpos, sm->refpos);
  mju_copy4(opt.refquat, sm->refquat);
  opt.inertia = (tnMeshInertia)sm->inertia;
  opt.maxhullvert = sm->maxhullvert;
  opt.needhull = mesh_needs_hull(c->spec, sm->name);

  // the data: a file (format from content_type or the extension) or inline lists
  char* key = NULL;
  if (sm->file) {
    tnMeshFormat format = tn__meshFormat(sm->file, sm->content_type);
    if (sm->content_type && format == TN_MESH_FORMAT_AUTO) {
      return tn__compileFail(c, sm->src, "content_type",
                             "unsupported content_type '%s' of mesh '%s'", sm->content_type, name);
    }
    key = tn__meshCacheKey(c->spec->files, sm->path, format, &opt);
    if (key && tn__meshCacheGet(key, mesh, name, sm->path)) {
      free(key);
      return 1;
    }
    ok = tn__meshLoadFile(c->spec->files, mesh, name, sm->path, format, why, sizeof(why)) == 0;
    if (!ok) {
      free(key);
      return tn__compileFail(c, sm->src, "file", "%s", why[0] ? why : "cannot load the file");
    }
  } else {
    ok = tn__meshFromLists(mesh, name, sm->vertex, sm->nvertex / 3, sm->face, sm->nface / 3, why,
                           sizeof(why)) == 0;
  }

  // hull, mass properties and the principal frame
  if (ok) {
    int hadfaces = mesh->nface > 0;
    ok = tn__meshProcess(mesh, &opt, why, sizeof(why)) == 0;

    // MuJoCo keeps no hull (mesh_graphadr -1) for a mesh that needs none
    if (ok && !opt.needhull && opt.inertia != TN_MESH_INERTIA_CONVEX && hadfaces) {
      free(mesh->graph);
      mesh->graph = NULL;
      mesh->ngraph = 0;
      tn__meshFreePolygons(mesh);
    }
  }
  if (ok && key) {
    tn__meshCachePut(key, mesh);
  }
  free(key);
  if (!ok) {
    return tn__compileFail(c, sm->src, NULL, "%s", why[0] ? why : "invalid mesh");
  }
  return 1;
}

/* load and process every mesh asset into c->meshes */
int tn__compileMeshes(tnCompiler* c) {
  int n = c->spec->meshes.n;
  c->meshes = calloc((size_t)(n ? n : 1), sizeof(tnMesh));
  if (!c->meshes) {
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }
  c->nmesh = n;
  for (int i = 0; i < n; i++) {
    if (!compile_one(c, TN_AT(c->spec->meshes, tnSpecMesh, i), c->meshes + i)) {
      return 0;
    }
  }
  return 1;
}

/* model sizes of the meshes */
void tn__compileMeshSizes(const tnCompiler* c, mjModel* sz) {
  sz->nmesh = c->nmesh;
  for (int i = 0; i < c->nmesh; i++) {
    sz->nmeshvert += c->meshes[i].nvert;
    sz->nmeshface += c->meshes[i].nface;
    sz->nmeshgraph += c->meshes[i].ngraph;
    sz->nmeshpoly += c->meshes[i].npoly;
    sz->nmeshpolyvert += c->meshes[i].npolyvert;
    sz->nmeshpolymap += c->meshes[i].npolyvert;
  }
}

/* copy every mesh into the model's mesh_* arrays */
int tn__compileMeshModel(tnCompiler* c) {
  int vertadr = 0, faceadr = 0, graphadr = 0, polyadr = 0, polyvertadr = 0;
  for (int i = 0; i < c->nmesh; i++) {
    const tnMesh* mesh = c->meshes + i;
    tn__meshToModel(mesh, c->m, i, vertadr, faceadr, graphadr);
    tn__meshPolygonsToModel(mesh, c->m, i, vertadr, polyadr, polyvertadr);
    polyadr += mesh->npoly;
    polyvertadr += mesh->npolyvert;
    vertadr += mesh->nvert;
    faceadr += mesh->nface;
    graphadr += mesh->ngraph;
  }
  return 1;
}

/* the processed mesh of a mesh geom (spec geom g), NULL with an error */
const tnMesh* tn__compileGeomMesh(tnCompiler* c, const tnSpecGeom* g, int* id) {
  *id = -1;
  if (!g->mesh) {
    tn__compileFail(c, g->src, "mesh", "mesh geom needs a mesh asset");
    return NULL;
  }
  *id = tn__compileRequire(c, mjOBJ_MESH, g->mesh, g->src, "mesh");
  return *id < 0 ? NULL : c->meshes + *id;
}

/* release the meshes */
void tn__compileMeshFree(tnCompiler* c) {
  for (int i = 0; c->meshes && i < c->nmesh; i++) {
    tn__meshFree(c->meshes + i);
  }
  free(c->meshes);
  c->meshes = NULL;
  c->nmesh = 0;
}
