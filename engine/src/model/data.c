/* model/data.c — mjData lifetime: allocation, copy, reset, keyframes and the arena stack.
 *
 * mj_makeData allocates every array in one buffer (layout from MJDATA_POINTERS and
 * MJDATA_ISLAND_POINTERS) and a separate arena used as a stack for pipeline scratch memory,
 * so mj_step never allocates. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_alloc.h"
#include "model/data_cache.h"
#include "model/efc_arena.h"

/* alignment of each array inside the buffer and of stack allocations */
#define TN_ALIGN 64
#define TN_STACK_ALIGN 8

/* the persistent cache takes this share of an arena budget of at least TN_CACHE_MIN_BUDGET,
 * at most TN_CACHE_MAX */
#define TN_CACHE_SHARE 16
#define TN_CACHE_MIN_BUDGET ((size_t)1 << 20)
#define TN_CACHE_MAX ((size_t)1 << 20)

_Static_assert(sizeof(tnDataCache) == TN_ALIGN, "the cache's bytes start 64-byte aligned");

/* round n up to a multiple of a */
static size_t align_to(size_t n, size_t a) {
  return (n + a - 1) / a * a;
}

/* bytes needed by every array of mjData for model m */
size_t tn__dataBufferBytes(const mjModel* m) {
  size_t total = 0;
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols) \
  total += align_to(sizeof(type) * (size_t)m->rows * (cols), TN_ALIGN);
  MJDATA_POINTERS(X)
  MJDATA_ISLAND_POINTERS(X)
#undef X
#undef MJ_M
  return total;
}

/* point every array of d into d->buffer */
static void data_set_pointers(const mjModel* m, mjData* d) {
  char* ptr = (char*)d->buffer;
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols)                                   \
  d->name = (type*)ptr;                                             \
  ptr += align_to(sizeof(type) * (size_t)m->rows * (cols), TN_ALIGN);
  MJDATA_POINTERS(X)
  MJDATA_ISLAND_POINTERS(X)
#undef X
#undef MJ_M
}

/* bytes of the cache's separating directions (data_cache.h): models with a shape the
 * native convex solver handles, a cache of four times that or more */
static size_t separation_bytes(const mjModel* m, size_t ncache) {
  size_t bytes = ncache / 4 < TN_CACHE_SEP_BYTES ? ncache / 4 : TN_CACHE_SEP_BYTES;
  for (int g = 0; g < m->ngeom; g++) {
    int type = m->geom_type[g];
    if (type == mjGEOM_BOX || type == mjGEOM_MESH || type == mjGEOM_CYLINDER ||
        type == mjGEOM_ELLIPSOID) {
      return bytes / TN_ALIGN * TN_ALIGN;
    }
  }
  return 0;
}

/* allocate data for model m and reset it */
mjData* mj_makeData(const mjModel* m) {
  // every block through mju_malloc (the user's allocator when installed, as MuJoCo)
  mjData* d = mju_malloc(sizeof(mjData));
  if (!d) {
    mju_error("mj_makeData: out of memory");
    return NULL;
  }
  memset(d, 0, sizeof(mjData));

  // array buffer
  size_t nbuffer = tn__dataBufferBytes(m);
  d->nbuffer = (mjtSize)nbuffer;
  d->buffer = mju_malloc(align_to(nbuffer ? nbuffer : 1, TN_ALIGN));

  // contacts and arena share the model's arena bytes (<size memory> exactly, as MuJoCo,
  // else the default): the contact array takes nconmax contacts when given, else room for
  // many per geom, at most a quarter of the bytes; the scratch stack and efc rows the rest
  size_t budget = m->narena > 0 ? (size_t)m->narena : tn__defaultArena(m, -1);
  size_t want =
      m->nconmax > 0 ? (size_t)m->nconmax : (m->ngeom * 16 > 1024 ? (size_t)m->ngeom * 16 : 1024);
  size_t most = budget / 4 / sizeof(mjContact);
  d->ncon_capacity = (int)(want < most ? want : most);
  size_t ncontact = align_to(sizeof(mjContact) * (size_t)d->ncon_capacity, TN_ALIGN);

  // the persistent cache (model/data_cache.h): a small share of a budget of a MiB or more
  size_t ncache = budget >= TN_CACHE_MIN_BUDGET ? budget / TN_CACHE_SHARE : 0;
  ncache = (ncache < TN_CACHE_MAX ? ncache : TN_CACHE_MAX) / TN_ALIGN * TN_ALIGN;
  size_t narena = (budget - ncontact - ncache) / TN_ALIGN * TN_ALIGN;
  d->narena = (mjtSize)narena;
  d->arena = d->buffer ? mju_malloc(narena) : NULL;

  // contacts are written before they are read (never beyond ncon): left untouched here, so
  // the pages of unused capacity are never made resident; the cache follows them
  d->contact = d->arena ? mju_malloc(ncontact + sizeof(tnDataCache) + ncache) : NULL;

  if (!d->buffer || !d->arena || !d->contact) {
    mju_free(d->buffer);
    mju_free(d->arena);
    mju_free(d->contact);
    mju_free(d);
    mju_error("mj_makeData: out of memory");
    return NULL;
  }
  tnDataCache* cache = tn__dataCache(d);
  memset(cache, 0, sizeof(tnDataCache));
  cache->sepbytes = separation_bytes(m, ncache);
  cache->capacity = ncache - cache->sepbytes;
  memset(tn__dataCacheSepBytes(cache), 0xFF, cache->sepbytes);
  data_set_pointers(m, d);
  mj_resetData(m, d);
  return d;
}

/* the cache after the contact array */
tnDataCache* tn__dataCache(const mjData* d) {
  size_t ncontact = align_to(sizeof(mjContact) * (size_t)d->ncon_capacity, TN_ALIGN);
  return (tnDataCache*)((char*)d->contact + ncontact);
}

/* free data */
void mj_deleteData(mjData* d) {
  if (!d) {
    return;
  }
  mju_free(d->buffer);
  mju_free(d->arena);
  mju_free(d->contact);
  mju_free(d);
}

/* bytes allocated by mj_makeData for d */
size_t tn_dataBytes(const mjData* d) {
  return sizeof(mjData) + (size_t)d->nbuffer + (size_t)d->narena +
         align_to(sizeof(mjContact) * (size_t)d->ncon_capacity, TN_ALIGN) + sizeof(tnDataCache) +
         tn__dataCache(d)->sepbytes + tn__dataCache(d)->capacity;
}

/* copy src into dest (allocating dest when NULL) */
mjData* mj_copyData(mjData* dest, const mjModel* m, const mjData* src) {
  if (!dest) {
    dest = mj_makeData(m);
    if (!dest) {
      return NULL;
    }
  }
  if (dest->nbuffer != src->nbuffer || dest->narena != src->narena ||
      dest->ncon_capacity != src->ncon_capacity) {
    mju_error("mj_copyData: destination was made for a different model");
    return NULL;
  }

  // scalars, then buffers, then re-point arrays at dest's own buffers
  void* buffer = dest->buffer;
  void* arena = dest->arena;
  mjContact* contact = dest->contact;
  *dest = *src;
  dest->buffer = buffer;
  dest->arena = arena;
  dest->contact = contact;
  memcpy(dest->buffer, src->buffer, src->nbuffer);
  memcpy(dest->arena, src->arena, src->pstack);
  memcpy(dest->contact, src->contact, sizeof(mjContact) * (size_t)src->ncon);
  tn__dataCache(dest)->solver_maxuse = tn__dataCache(src)->solver_maxuse;
  data_set_pointers(m, dest);
  tn__efcCopy(dest, src);
  return dest;
}

/* reset to the model's defaults */
void mj_resetData(const mjModel* m, mjData* d) {
  // clear everything derived and every counter
  memset(d->buffer, 0, d->nbuffer);
  memset(d->warning, 0, sizeof(d->warning));
  memset(d->timer, 0, sizeof(d->timer));
  // the solver statistics the engine wrote (all of them were zeroed by mj_makeData; a full
  // clear is 160 kB, most of a reset's time for small models)
  tnDataCache* cache = tn__dataCache(d);
  int nstat = mjNISLAND * mjNSOLVER, used = cache->solver_maxuse;
  used = used >= 0 && used <= nstat ? used : nstat;
  memset(d->solver, 0, sizeof(mjSolverStat) * (size_t)used);
  cache->solver_maxuse = 0;
  memset(d->solver_niter, 0, sizeof(d->solver_niter));
  d->nisland = d->nidof = 0;
  d->pstack = 0;
  d->pbase = 0;
  d->maxuse_stack = 0;
  d->parena = 0;
  d->nJ = d->nA = 0;
  d->time = 0;
  d->energy[0] = d->energy[1] = 0;
  d->ncon = d->ne = d->nf = d->nl = d->nefc = 0;
  tn__efcRelease(d);

  // default configuration
  if (m->nq) {
    memcpy(d->qpos, m->qpos0, sizeof(mjtNum) * m->nq);
  }
  for (int i = 0; i < m->neq; i++) {
    d->eq_active[i] = m->eq_active0[i];
  }

  // mocap bodies start at their model poses
  for (int b = 0; b < m->nbody; b++) {
    int id = m->body_mocapid[b];
    if (id >= 0) {
      mju_copy3(d->mocap_pos + 3 * id, m->body_pos + 3 * b);
      mju_copy4(d->mocap_quat + 4 * id, m->body_quat + 4 * b);
    }
  }
}

/* reset, then apply a keyframe */
void mj_resetDataKeyframe(const mjModel* m, mjData* d, int key) {
  mj_resetData(m, d);
  if (key < 0 || key >= m->nkey) {
    if (key != -1) {
      mju_warning("mj_resetDataKeyframe: keyframe %d out of range (nkey = %d)", key, m->nkey);
    }
    return;
  }

  // copy every keyframe field
  d->time = m->key_time[key];
  mju_copy(d->qpos, m->key_qpos + (size_t)key * m->nq, m->nq);
  mju_copy(d->qvel, m->key_qvel + (size_t)key * m->nv, m->nv);
  mju_copy(d->act, m->key_act + (size_t)key * m->na, m->na);
  mju_copy(d->ctrl, m->key_ctrl + (size_t)key * m->nu, m->nu);
  mju_copy(d->mocap_pos, m->key_mpos + (size_t)key * 3 * m->nmocap, 3 * m->nmocap);
  mju_copy(d->mocap_quat, m->key_mquat + (size_t)key * 4 * m->nmocap, 4 * m->nmocap);
}

/* ---- arena stack: grows up from the bottom; the efc arrays (d->parena bytes) sit at the
 * top of the same arena (see src/constraint). A frame holds the previous pbase in its first
 * bytes; d->pbase is the offset just past the innermost frame's marker, so 0 means "no
 * frame". Exhaustion raises mju_error, which unwinds to the host's tn_run. ---- */

/* fail with MuJoCo's message: `need` more bytes than the stack has left at `top` */
static void stack_overflow(mjData* d, size_t top, size_t need) {
  size_t max = (size_t)d->narena - d->parena;
  size_t avail = max > d->pstack ? max - d->pstack : 0;
  mju_error("mj_stackAlloc: out of memory, stack overflow (max = %zu, available = %zu, "
            "requested = %zu, nefc = %d, ncon = %d)",
            max, avail, top - d->pstack + need, d->nefc, d->ncon);
}

/* push a frame marker storing the previous pbase */
void mj_markStack(mjData* d) {
  size_t top = align_to(d->pstack, TN_STACK_ALIGN);
  if (top + sizeof(size_t) + d->parena > (size_t)d->narena) {
    stack_overflow(d, top, sizeof(size_t));
    return;
  }
  memcpy((char*)d->arena + top, &d->pbase, sizeof(size_t));
  d->pstack = top + sizeof(size_t);
  d->pbase = d->pstack;
}

/* pop to the last mark */
void mj_freeStack(mjData* d) {
  // no frame, or a marker the stack has already been popped below: unbalanced calls
  if (d->pbase < sizeof(size_t) || d->pbase > d->pstack) {
    mju_error("mj_freeStack: no matching mj_markStack (pbase = %zu, pstack = %zu)", d->pbase,
              d->pstack);
    return;
  }
  size_t base = d->pbase - sizeof(size_t);
  memcpy(&d->pbase, (char*)d->arena + base, sizeof(size_t));
  d->pstack = base;
}

/* raw stack allocation of n elements of `size` bytes */
static void* stack_alloc(mjData* d, size_t n, size_t size, const char* who) {
  // element counts whose byte size does not fit in size_t
  if (size && n > SIZE_MAX / size) {
    mju_error("%s: requested size is too large (more than 2^64 bytes)", who);
    return NULL;
  }
  size_t bytes = n * size;
  size_t top = align_to(d->pstack, TN_STACK_ALIGN);
  size_t narena = (size_t)d->narena;
  if (top < d->pstack || bytes > narena || top + bytes + d->parena > narena) {
    stack_overflow(d, top, bytes);
    return NULL;
  }
  d->pstack = top + bytes;
  if (d->pstack > (size_t)d->maxuse_stack) {
    d->maxuse_stack = (mjtSize)d->pstack;
  }
  return (char*)d->arena + top;
}

/* allocate bytes on the stack at a power-of-2 alignment (of the address itself) */
void* mj_stackAllocByte(mjData* d, size_t bytes, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1))) {
    mju_error("mj_stackAllocByte: alignment %zu is not a power of 2", alignment);
    return NULL;
  }

  // padding that brings the next free address to the alignment
  uintptr_t next = (uintptr_t)((char*)d->arena + d->pstack);
  size_t pad = (size_t)((alignment - next % alignment) % alignment);
  size_t narena = (size_t)d->narena;
  if (bytes > narena || d->pstack + pad + bytes + d->parena > narena) {
    stack_overflow(d, d->pstack + pad, bytes);
    return NULL;
  }
  d->pstack += pad + bytes;
  if ((mjtSize)d->pstack > d->maxuse_stack) {
    d->maxuse_stack = (mjtSize)d->pstack;
  }
  return (char*)d->arena + d->pstack - bytes;
}

/* allocate mjtNums on the stack */
mjtNum* mj_stackAllocNum(mjData* d, size_t n) {
  return (mjtNum*)stack_alloc(d, n, sizeof(mjtNum), "mj_stackAllocNum");
}

/* allocate ints on the stack */
int* mj_stackAllocInt(mjData* d, size_t n) {
  return (int*)stack_alloc(d, n, sizeof(int), "mj_stackAllocInt");
}
