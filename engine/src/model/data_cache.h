/* model/data_cache.h — internal: scratch memory of an mjData that persists across steps.
 *
 * mj_makeData carves it from the arena's budget (a sixteenth of a budget of 1 MiB or more,
 * at most 1 MiB; none below): a pipeline stage may keep results there that the next call
 * can reuse when its inputs are unchanged, checked by a key the stage stores beside them.
 * Nothing is copied by mj_copyData or cleared by mj_resetData: a user must always validate
 * before reusing. The header also keeps the solver statistics' high-water mark, which is
 * bookkeeping rather than cache: mj_copyData copies it and mj_resetData clears it. */
#ifndef TORSION_MODEL_DATA_CACHE_H
#define TORSION_MODEL_DATA_CACHE_H

#include <stddef.h>

#include <torsion/torsion.h>

/* header of the cache: `sepbytes` bytes of the collision's separating directions
 * (collision/collision_separation.h) follow it, then `capacity` bytes of the stage that owns
 * them (64-byte aligned) */
typedef struct tnDataCache_ {
  size_t capacity;
  size_t sepbytes;
  int owner;         /* which stage's content is there (0: none) */
  int solver_maxuse; /* d->solver entries written since the last reset lie below this index
                        (mj_resetData clears only those; mj_copyData copies it) */
  char pad[40];
} tnDataCache;

/* bytes of the separating directions when the model has shapes the native convex solver
 * handles (box, mesh, cylinder, ellipsoid): at most this, at most a quarter of the cache;
 * filled with 0xFF at creation (every slot's geom ids -1: empty) */
#define TN_CACHE_SEP_BYTES ((size_t)12288)

/* owners */
#define TN_CACHE_NONE 0
#define TN_CACHE_SPARSE_ORDERING 1
#define TN_CACHE_AR_PATTERN 2

/* d's cache (its capacity may be 0) */
tnDataCache* tn__dataCache(const mjData* d);

/* the owner's bytes, after the header and the separating directions */
static inline char* tn__dataCacheBytes(tnDataCache* cache) {
  return (char*)(cache + 1) + cache->sepbytes;
}

/* the separating directions' bytes (cache->sepbytes of them), right after the header */
static inline char* tn__dataCacheSepBytes(tnDataCache* cache) {
  return (char*)(cache + 1);
}

#endif /* TORSION_MODEL_DATA_CACHE_H */
