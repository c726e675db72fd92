/* util/pool.c — the bump allocator that owns a parsed document and the MJCF spec.
 *
 * Parsing creates many small strings and nodes that all die together; a pool of chained
 * blocks makes that cheap and leak-free (one tn__poolFree per document). */
#include <stdlib.h>
#include <string.h>

#include "util/pool.h"

/* one block of the pool; data follows the header */
struct tnPoolBlock_ {
  tnPoolBlock* next;
  size_t used;
  size_t size;
};

/* default block payload */
#define TN_POOL_BLOCK 65536

/* round up to 16-byte multiples so every allocation is aligned */
static size_t round16(size_t n) {
  return (n + 15) & ~(size_t)15;
}

/* zeroed memory from the pool */
void* tn__poolAlloc(tnPool* pool, size_t size) {
  size = round16(size ? size : 1);
  size_t header = round16(sizeof(tnPoolBlock));

  // allocate a new block when the head has no room
  tnPoolBlock* b = pool->head;
  if (!b || b->size - b->used < size) {
    size_t payload = size > TN_POOL_BLOCK ? size : TN_POOL_BLOCK;
    b = malloc(header + payload);
    if (!b) {
      return NULL;
    }
    b->next = pool->head;
    b->used = 0;
    b->size = payload;
    pool->head = b;
  }

  // carve the allocation
  char* p = (char*)b + header + b->used;
  b->used += size;
  memset(p, 0, size);
  return p;
}

/* copy of a string in the pool */
char* tn__poolStrdup(tnPool* pool, const char* s) {
  size_t n = strlen(s);
  char* p = tn__poolAlloc(pool, n + 1);
  if (p) {
    memcpy(p, s, n + 1);
  }
  return p;
}

/* free every block */
void tn__poolFree(tnPool* pool) {
  tnPoolBlock* b = pool->head;
  while (b) {
    tnPoolBlock* next = b->next;
    free(b);
    b = next;
  }
  pool->head = NULL;
}
