/* compiler/mesh_cache.h — internal: processed mesh files in the asset cache
 * (util/asset_cache.h), so that loading a model again skips parsing and hull building. */
#ifndef TORSION_MESH_CACHE_H
#define TORSION_MESH_CACHE_H

#include "compiler/mesh.h"

/* The cache key of a mesh file processed with `opt`: its real path, modification time and
 * size, the format and every option. NULL (no caching) when the file comes from the VFS,
 * cannot be examined, or the load restricts its files (a root directory, VFS only or a byte
 * limit: the file must then be read under those rules). malloc'ed; the caller frees it. */
char* tn__meshCacheKey(const tnFiles* files, const char* path, tnMeshFormat format,
                       const tnMeshOptions* opt);

/* The processed mesh stored under key into mesh (zeroed first; name and file set from the
 * arguments): 1, or 0 when the cache holds none (mesh left zeroed). */
int tn__meshCacheGet(const char* key, tnMesh* mesh, const char* name, const char* file);

/* Store the processed mesh under key. */
void tn__meshCachePut(const char* key, const tnMesh* mesh);

#endif /* TORSION_MESH_CACHE_H */
