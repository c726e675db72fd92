/* constraint/ar_pattern_cache.c — the sparsity patterns of AR and of the whitened Jacobian
 * Y kept across steps in the mjData's cache (model/data_cache.h).
 *
 * Both patterns follow from the Jacobian's pattern alone (its rows' dofs, the model's dof
 * tree), and in a scene at rest that pattern repeats from one forward pass to the next
 * (three steps in four of 16 Gymnasium humanoids on the floor). The cache holds the
 * Jacobian's pattern as the key (nefc, nJ, rownnz, rowadr, colind), the AR pattern, and,
 * once mj_projectConstraint has made it for that key, the Y pattern:
 *   ints: nv nefc nJ nA nY | rownnz rowadr colind (key) | AR rownnz rowadr colind |
 *         Y rownnz rowadr colind (nY < 0: not stored yet) */
#include <string.h>

#include "constraint/constraint.h"
#include "model/data_cache.h"

enum { HEAD = 5 };

/* the cache's ints when they hold d's current Jacobian pattern, else NULL */
static int* matching(const mjModel* m, const mjData* d) {
  tnDataCache* cache = tn__dataCache(d);
  int* p = (int*)tn__dataCacheBytes(cache);
  int nefc = d->nefc, nJ = d->nJ;
  if (cache->owner != TN_CACHE_AR_PATTERN || p[0] != m->nv || p[1] != nefc || p[2] != nJ) {
    return NULL;
  }
  const int* key = p + HEAD;
  if (memcmp(key, d->efc_J_rownnz, sizeof(int) * (size_t)nefc) ||
      memcmp(key + nefc, d->efc_J_rowadr, sizeof(int) * (size_t)nefc) ||
      memcmp(key + 2 * nefc, d->efc_J_colind, sizeof(int) * (size_t)nJ)) {
    return NULL;
  }
  return p;
}

/* 1 and the stored patterns in pat when the cache holds d's Jacobian pattern */
int tn__arPatternCached(const mjModel* m, const mjData* d, tnARPattern* pat) {
  const int* p = matching(m, d);
  if (!p) {
    return 0;
  }
  int nefc = d->nefc;
  const int* ar = p + HEAD + 2 * nefc + d->nJ;
  pat->nA = p[3];
  pat->nY = p[4];
  pat->AR_rownnz = ar;
  pat->AR_rowadr = ar + nefc;
  pat->AR_colind = ar + 2 * nefc;
  const int* y = ar + 2 * nefc + pat->nA;
  pat->ynnz = y;
  pat->yadr = y + nefc;
  pat->ycol = y + 2 * nefc;
  return 1;
}

/* keep d's Jacobian pattern and its AR pattern (d->efc_AR_*), when they fit */
void tn__arPatternStoreAR(const mjModel* m, const mjData* d) {
  tnDataCache* cache = tn__dataCache(d);
  int nefc = d->nefc, nJ = d->nJ, nA = d->nA;
  size_t nint = HEAD + 2 * (size_t)nefc + (size_t)nJ + 2 * (size_t)nefc + (size_t)nA;
  cache->owner = TN_CACHE_NONE;
  if (nint * sizeof(int) > cache->capacity) {
    return;
  }
  int* p = (int*)tn__dataCacheBytes(cache);
  p[0] = m->nv;
  p[1] = nefc;
  p[2] = nJ;
  p[3] = nA;
  p[4] = -1;
  int* q = p + HEAD;
  memcpy(q, d->efc_J_rownnz, sizeof(int) * (size_t)nefc);
  memcpy(q + nefc, d->efc_J_rowadr, sizeof(int) * (size_t)nefc);
  memcpy(q + 2 * nefc, d->efc_J_colind, sizeof(int) * (size_t)nJ);
  q += 2 * nefc + nJ;
  memcpy(q, d->efc_AR_rownnz, sizeof(int) * (size_t)nefc);
  memcpy(q + nefc, d->efc_AR_rowadr, sizeof(int) * (size_t)nefc);
  memcpy(q + 2 * nefc, d->efc_AR_colind, sizeof(int) * (size_t)nA);
  cache->owner = TN_CACHE_AR_PATTERN;
}

/* add the Y pattern to the cache when it holds d's Jacobian pattern and there is room */
void tn__arPatternStoreY(const mjModel* m, const mjData* d, const int* ynnz, const int* yadr,
                         const int* ycol, int nY) {
  int* p = matching(m, d);
  if (!p || p[4] >= 0) {
    return;
  }
  int nefc = d->nefc;
  size_t used = HEAD + 4 * (size_t)nefc + (size_t)d->nJ + (size_t)p[3];
  if ((used + 2 * (size_t)nefc + (size_t)nY) * sizeof(int) > tn__dataCache(d)->capacity) {
    return;
  }
  int* y = p + used;
  memcpy(y, ynnz, sizeof(int) * (size_t)nefc);
  memcpy(y + nefc, yadr, sizeof(int) * (size_t)nefc);
  memcpy(y + 2 * nefc, ycol, sizeof(int) * (size_t)nY);
  p[4] = nY;
}
