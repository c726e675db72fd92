/* util/asset_cache.c — the asset cache: mj_getCache, mj_getCacheSize, mj_getCacheCapacity,
 * mj_setCacheCapacity, mj_clearCache (torsion.h) and the compiler's get/put
 * (util/asset_cache.h).
 *
 * Entries live in one array searched linearly (a model has at most a few thousand assets);
 * each carries the tick of its last use, and eviction removes the smallest tick. A mutex
 * guards everything, so loads on several threads may share the cache. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <torsion/torsion.h>

#include "util/asset_cache.h"

/* MuJoCo's default capacity: 500 MB */
#define TN_CACHE_DEFAULT ((size_t)500 << 20)

/* one cached blob */
typedef struct tnCacheEntry_ {
  char* key;
  void* data;
  size_t size;
  unsigned long long tick; /* last use */
} tnCacheEntry;

/* the cache (what mjCache.impl_ points to) */
typedef struct tnCache_ {
  pthread_mutex_t lock;
  tnCacheEntry* entry;
  int n, cap;
  size_t bytes;    /* blobs and keys held */
  size_t capacity; /* most bytes held */
  unsigned long long tick;
} tnCache;

/* the process-wide cache and its public handle */
static tnCache cache_impl = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, TN_CACHE_DEFAULT, 0};
static mjCache cache_handle = {&cache_impl};

/* bytes an entry counts for */
static size_t entry_bytes(const tnCacheEntry* e) {
  return e->size + strlen(e->key) + 1;
}

/* remove entry i (lock held) */
static void remove_entry(tnCache* c, int i) {
  c->bytes -= entry_bytes(c->entry + i);
  free(c->entry[i].key);
  free(c->entry[i].data);
  c->entry[i] = c->entry[--c->n];
}

/* evict least recently used entries until at most `limit` bytes are held (lock held) */
static void evict_to(tnCache* c, size_t limit) {
  if (limit == 0) {
    while (c->n) {
      remove_entry(c, c->n - 1);
    }
    return;
  }
  while (c->n && c->bytes > limit) {
    int oldest = 0;
    for (int i = 1; i < c->n; i++) {
      if (c->entry[i].tick < c->entry[oldest].tick) {
        oldest = i;
      }
    }
    remove_entry(c, oldest);
  }
}

/* index of key, or -1 (lock held) */
static int find(const tnCache* c, const char* key) {
  for (int i = 0; i < c->n; i++) {
    if (!strcmp(c->entry[i].key, key)) {
      return i;
    }
  }
  return -1;
}

/* ---- compiler side ------------------------------------------------------------------- */

/* copy of the blob under key */
int tn__cacheGet(const char* key, void** data, size_t* size) {
  tnCache* c = &cache_impl;
  int hit = 0;
  pthread_mutex_lock(&c->lock);
  int i = find(c, key);
  if (i >= 0) {
    void* copy = malloc(c->entry[i].size ? c->entry[i].size : 1);
    if (copy) {
      memcpy(copy, c->entry[i].data, c->entry[i].size);
      *data = copy;
      *size = c->entry[i].size;
      c->entry[i].tick = ++c->tick;
      hit = 1;
    }
  }
  pthread_mutex_unlock(&c->lock);
  return hit;
}

/* store a copy of the blob under key */
void tn__cachePut(const char* key, const void* data, size_t size) {
  tnCache* c = &cache_impl;
  size_t need = size + strlen(key) + 1;
  pthread_mutex_lock(&c->lock);
  int i = find(c, key);
  if (i >= 0) {
    remove_entry(c, i);
  }
  if (need <= c->capacity) {
    evict_to(c, c->capacity - need);
    tnCacheEntry e = {malloc(strlen(key) + 1), malloc(size ? size : 1), size, ++c->tick};
    if (c->n == c->cap) {
      int cap = c->cap ? 2 * c->cap : 16;
      tnCacheEntry* grown = realloc(c->entry, sizeof(tnCacheEntry) * (size_t)cap);
      if (grown) {
        c->entry = grown;
        c->cap = cap;
      }
    }
    if (e.key && e.data && c->n < c->cap) {
      strcpy(e.key, key);
      memcpy(e.data, data, size);
      c->entry[c->n++] = e;
      c->bytes += need;
    } else {
      free(e.key);
      free(e.data);
    }
  }
  pthread_mutex_unlock(&c->lock);
}

/* ---- public API ---------------------------------------------------------------------- */

/* the cache the compiler uses */
mjCache* mj_getCache(void) {
  return &cache_handle;
}

/* bytes held */
size_t mj_getCacheSize(const mjCache* cache) {
  if (!cache || !cache->impl_) {
    return 0;
  }
  tnCache* c = cache->impl_;
  pthread_mutex_lock(&c->lock);
  size_t bytes = c->bytes;
  pthread_mutex_unlock(&c->lock);
  return bytes;
}

/* most bytes held */
size_t mj_getCacheCapacity(const mjCache* cache) {
  if (!cache || !cache->impl_) {
    return 0;
  }
  tnCache* c = cache->impl_;
  pthread_mutex_lock(&c->lock);
  size_t capacity = c->capacity;
  pthread_mutex_unlock(&c->lock);
  return capacity;
}

/* set the capacity (0 disables caching), evicting down to it; returns the new capacity */
size_t mj_setCacheCapacity(mjCache* cache, size_t size) {
  if (!cache || !cache->impl_) {
    return 0;
  }
  tnCache* c = cache->impl_;
  pthread_mutex_lock(&c->lock);
  c->capacity = size;
  evict_to(c, size);
  pthread_mutex_unlock(&c->lock);
  return size;
}

/* drop every entry (the capacity stays) */
void mj_clearCache(mjCache* cache) {
  if (!cache || !cache->impl_) {
    return;
  }
  tnCache* c = cache->impl_;
  pthread_mutex_lock(&c->lock);
  evict_to(c, 0);
  pthread_mutex_unlock(&c->lock);
}
