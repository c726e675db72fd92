/* compiler/mesh_cache.c — processed mesh files in the asset cache (compiler/mesh_cache.h).
 *
 * A processed tnMesh is flattened into one blob: its counts and scalar results, then its
 * arrays (vertices, faces, hull graph, polygons). The key names the file by real path,
 * modification time and size, so an edited file is read again. Every field of tnMesh must
 * be stored here: the static assertion below fails when tnMesh changes size, as a reminder
 * to extend the blob. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/mesh_cache.h"
#include "util/asset_cache.h"
#include "util/vfs.h"

_Static_assert(sizeof(tnMesh) == 384, "tnMesh changed: store the new fields in mesh_cache.c");

/* the counts at the start of a blob */
enum {
  TN_MC_NVERT,
  TN_MC_NFACE,
  TN_MC_NGRAPH,
  TN_MC_NPOLY,
  TN_MC_NPOLYVERT,
  TN_MC_PROCESSED,
  TN_MC_INERTIA,
  TN_MC_NINT
};

/* the key of a mesh file processed with opt, or NULL */
char* tn__meshCacheKey(const tnFiles* files, const char* path, tnMeshFormat format,
                       const tnMeshOptions* opt) {
  if (!path || (files && (files->root || files->vfs_only || files->limit >= 0))) {
    return NULL;
  }
  const unsigned char* vdata;
  size_t vsize;
  if (files && tn__vfsFind(files->vfs, path, &vdata, &vsize)) {
    return NULL;
  }
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(path, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
    return NULL;
  }
  size_t n = strlen(real) + 512;
  char* key = malloc(n);
  if (!key) {
    return NULL;
  }
  snprintf(key, n, "mesh|%s|%lld.%09ld|%lld|%d|%a %a %a|%a %a %a|%a %a %a %a|%d|%d|%d", real,
           (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, (long long)st.st_size,
           (int)format, opt->scale[0], opt->scale[1], opt->scale[2], opt->refpos[0], opt->refpos[1],
           opt->refpos[2], opt->refquat[0], opt->refquat[1], opt->refquat[2], opt->refquat[3],
           (int)opt->inertia, opt->maxhullvert, opt->needhull);
  return key;
}

/* the scalar results of processing, in blob order */
#define TN_MC_SCALARS(mesh)                                                      \
  {(mesh)->scale, 3}, {(mesh)->pos, 3}, {(mesh)->quat, 4}, {&(mesh)->volume, 1}, \
      {(mesh)->boxsz, 3}, {                                                      \
    (mesh)->aamm, 6                                                              \
  }

/* one run of numbers */
typedef struct tnMcRun_ {
  mjtNum* v;
  int n;
} tnMcRun;

/* append n bytes at *p */
static void put_bytes(char** p, const void* src, size_t n) {
  if (n) {
    memcpy(*p, src, n);
    *p += n;
  }
}

/* store a processed mesh */
void tn__meshCachePut(const char* key, const tnMesh* mesh) {
  int count[TN_MC_NINT] = {mesh->nvert,     mesh->nface,     mesh->ngraph,      mesh->npoly,
                           mesh->npolyvert, mesh->processed, (int)mesh->inertia};
  tnMesh* mm = (tnMesh*)mesh;  // runs only read through it
  tnMcRun scalars[] = {TN_MC_SCALARS(mm)};
  size_t nint = TN_MC_NINT + 27 + 3 * (size_t)mesh->nface + (size_t)mesh->ngraph +
                2 * (size_t)mesh->npoly + (size_t)mesh->npolyvert;
  size_t nnum = 20 + 3 * (size_t)mesh->nvert + 3 * (size_t)mesh->npoly;
  size_t size = sizeof(int) * nint + sizeof(mjtNum) * nnum;
  char* blob = malloc(size);
  if (!blob) {
    return;
  }

  // counts and extrema, scalars, then the arrays
  char* p = blob;
  put_bytes(&p, count, sizeof(count));
  put_bytes(&p, mesh->extrema, sizeof(mesh->extrema));
  for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
    put_bytes(&p, scalars[i].v, sizeof(mjtNum) * scalars[i].n);
  }
  put_bytes(&p, mesh->vert, sizeof(mjtNum) * 3 * (size_t)mesh->nvert);
  put_bytes(&p, mesh->face, sizeof(int) * 3 * (size_t)mesh->nface);
  put_bytes(&p, mesh->graph, sizeof(int) * (size_t)mesh->ngraph);
  put_bytes(&p, mesh->polyvertadr, sizeof(int) * (size_t)mesh->npoly);
  put_bytes(&p, mesh->polyvertnum, sizeof(int) * (size_t)mesh->npoly);
  put_bytes(&p, mesh->polyvert, sizeof(int) * (size_t)mesh->npolyvert);
  put_bytes(&p, mesh->polynormal, sizeof(mjtNum) * 3 * (size_t)mesh->npoly);
  tn__cachePut(key, blob, size);
  free(blob);
}

/* a malloc'ed copy of n bytes at *p, advancing *p; for n = 0 NULL when may_be_null (the
 * hull and polygon arrays of a mesh without them), else a 1-byte block as the loaders
 * allocate; *ok cleared on failure */
static void* take_array(const char** p, size_t n, int may_be_null, int* ok) {
  if (!n && may_be_null) {
    return NULL;
  }
  void* a = malloc(n ? n : 1);
  if (!a) {
    *ok = 0;
    return NULL;
  }
  if (n) {
    memcpy(a, *p, n);
    *p += n;
  }
  return a;
}

/* a processed mesh from the cache */
int tn__meshCacheGet(const char* key, tnMesh* mesh, const char* name, const char* file) {
  memset(mesh, 0, sizeof(*mesh));
  void* data;
  size_t size;
  if (!tn__cacheGet(key, &data, &size)) {
    return 0;
  }
  const char* p = data;
  int count[TN_MC_NINT];
  int ok = size >= sizeof(count) + sizeof(mesh->extrema) + 20 * sizeof(mjtNum);
  if (ok) {
    memcpy(count, p, sizeof(count));
    p += sizeof(count);
    memcpy(mesh->extrema, p, sizeof(mesh->extrema));
    p += sizeof(mesh->extrema);
    tnMcRun scalars[] = {TN_MC_SCALARS(mesh)};
    for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
      memcpy(scalars[i].v, p, sizeof(mjtNum) * scalars[i].n);
      p += sizeof(mjtNum) * scalars[i].n;
    }
    mesh->nvert = count[TN_MC_NVERT];
    mesh->nface = count[TN_MC_NFACE];
    mesh->ngraph = count[TN_MC_NGRAPH];
    mesh->npoly = count[TN_MC_NPOLY];
    mesh->npolyvert = count[TN_MC_NPOLYVERT];
    mesh->processed = count[TN_MC_PROCESSED];
    mesh->inertia = (tnMeshInertia)count[TN_MC_INERTIA];

    // the blob was written by tn__meshCachePut: its length must match the counts
    size_t want = (size_t)(p - (const char*)data) +
                  sizeof(mjtNum) * (3 * (size_t)mesh->nvert + 3 * (size_t)mesh->npoly) +
                  sizeof(int) * (3 * (size_t)mesh->nface + (size_t)mesh->ngraph +
                                 2 * (size_t)mesh->npoly + (size_t)mesh->npolyvert);
    ok = want == size;
  }
  if (ok) {
    mesh->vert = take_array(&p, sizeof(mjtNum) * 3 * (size_t)mesh->nvert, 0, &ok);
    mesh->face = take_array(&p, sizeof(int) * 3 * (size_t)mesh->nface, 0, &ok);
    mesh->graph = take_array(&p, sizeof(int) * (size_t)mesh->ngraph, 1, &ok);
    mesh->polyvertadr = take_array(&p, sizeof(int) * (size_t)mesh->npoly, 1, &ok);
    mesh->polyvertnum = take_array(&p, sizeof(int) * (size_t)mesh->npoly, 1, &ok);
    mesh->polyvert = take_array(&p, sizeof(int) * (size_t)mesh->npolyvert, 1, &ok);
    mesh->polynormal = take_array(&p, sizeof(mjtNum) * 3 * (size_t)mesh->npoly, 1, &ok);
    mesh->name = strdup(name ? name : "");
    mesh->file = file ? strdup(file) : NULL;
    ok = ok && mesh->name && (!file || mesh->file);
  }
  free(data);
  if (!ok) {
    tn__meshFree(mesh);
  }
  return ok;
}
