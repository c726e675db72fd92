/* util/asset_cache.h — internal: the asset cache behind mj_getCache (MuJoCo 3.14's API).
 *
 * One process-wide cache of byte blobs keyed by strings, bounded in bytes (a blob and its
 * key count), evicting the least recently used entries first. The compiler keeps processed
 * mesh files in it (compiler/mesh_cache.c) so loading a model again skips parsing and
 * convex hulls. All functions are thread-safe. */
#ifndef TORSION_ASSET_CACHE_H
#define TORSION_ASSET_CACHE_H

#include <stddef.h>

/* A copy of the blob stored under key (malloc'ed, the caller frees it): 1, or 0 when the
 * cache holds no such key (or is out of memory). A hit makes the entry the most recent. */
int tn__cacheGet(const char* key, void** data, size_t* size);

/* Store a copy of the blob under key, replacing an entry of the same key and evicting the
 * least recently used entries until it fits. A blob larger than the capacity (0: caching
 * disabled) is not stored. */
void tn__cachePut(const char* key, const void* data, size_t size);

#endif /* TORSION_ASSET_CACHE_H */
