/* util/pool.h — internal: a bump allocator of chained blocks, freed all at once.
 *
 * The MJCF reader keeps a parsed document in one (xml/), the spec its strings and small
 * arrays in another (compiler/spec.h); everything in a pool dies together. */
#ifndef TORSION_UTIL_POOL_H
#define TORSION_UTIL_POOL_H

#include <stddef.h>

/* a bump allocator: blocks chained together, freed all at once */
typedef struct tnPoolBlock_ tnPoolBlock;
typedef struct tnPool_ {
  tnPoolBlock* head;
} tnPool;

/* zeroed memory from the pool (NULL on OOM) */
void* tn__poolAlloc(tnPool* pool, size_t size);
/* copy of a string in the pool */
char* tn__poolStrdup(tnPool* pool, const char* s);
/* free every block */
void tn__poolFree(tnPool* pool);

#endif /* TORSION_UTIL_POOL_H */
