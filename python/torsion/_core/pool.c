/* _core/pool.c — SimBatch's and rollout's worker threads: asleep between calls, the caller
 * never sleeps.
 *
 * One pool per process, made on first use and grown to the largest thread count asked
 * for. A call publishes a job (function, context, item count, a shared next-item counter)
 * under the pool's lock and wakes the workers; each worker that wakes while the job is
 * still open joins it (counted in `busy`) and takes items until none are left. The caller
 * takes items too; when they run out it closes the job (no worker joins after that) and
 * spins until the joined workers finish their current items. Workers then sleep on the
 * condition variable again. After fork() the child has none of the parent's threads: a
 * pool made by another process is abandoned and a fresh one made. */
#include "pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "idle_poll.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TNPY_PAUSE() _mm_pause()
#else
#define TNPY_PAUSE() ((void)0)
#endif

/* most workers the pool makes */
#define TNPY_POOL_MAX 255

/* the pool and its current job */
typedef struct tnpyPool_ {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  pthread_mutex_t calls; /* held by the running call (others run alone) */
  pid_t pid;             /* process that made the workers */
  int nworker;
  /* the job, written under lock */
  atomic_ulong gen;  /* bumped per job (read without the lock by polling workers) */
  int open;          /* workers may still join */
  int want;          /* how many workers may join */
  int joined;
  tnpyPoolFn fn;
  void* ctx;
  ptrdiff_t k, chunk;
  atomic_ptrdiff_t next; /* next item to take */
  atomic_int busy;       /* joined workers not yet done */
} tnpyPool;

static tnpyPool* pool;
static pthread_mutex_t pool_make = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_hook = PTHREAD_ONCE_INIT;

/* in a fork()ed child: the parent's pool is not there (its lock may have been held by a
 * thread the child does not have) */
static void forget_pool(void) {
  pthread_mutex_init(&pool_make, NULL);
  pool = NULL;
}

/* register forget_pool for fork()ed children */
static void hook_fork(void) {
  pthread_atfork(NULL, NULL, forget_pool);
}

/* take items of the current job, chunk at a time, until none are left */
static void take_items(tnpyPool* p, tnpyPoolFn fn, void* ctx, ptrdiff_t k, ptrdiff_t chunk,
                       int thread) {
  for (;;) {
    ptrdiff_t j = atomic_fetch_add_explicit(&p->next, chunk, memory_order_relaxed);
    if (j >= k) {
      return;
    }
    ptrdiff_t end = k - j < chunk ? k : j + chunk;
    for (; j < end; j++) {
      fn(ctx, j, thread);
    }
  }
}

/* after a job a worker looks for the next one for up to TNPY_POLL_NS before it sleeps
 * (idle_poll.h): a trainer's step loop calls again within that time */
#define TNPY_POLL_NS 300000

/* a worker: sleep until a job it may join, take its items, repeat */
static void* worker_main(void* arg) {
  tnpyPool* p = arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (!(p->open && p->gen != seen && p->joined < p->want)) {
      pthread_cond_wait(&p->wake, &p->lock);
    }
    seen = p->gen;
    int thread = ++p->joined;
    atomic_fetch_add_explicit(&p->busy, 1, memory_order_relaxed);
    tnpyPoolFn fn = p->fn;
    void* ctx = p->ctx;
    ptrdiff_t k = p->k, chunk = p->chunk;
    pthread_mutex_unlock(&p->lock);
    take_items(p, fn, ctx, k, chunk, thread);
    atomic_fetch_sub_explicit(&p->busy, 1, memory_order_release);
    tn_pollChange(&p->gen, seen, TNPY_POLL_NS);
    pthread_mutex_lock(&p->lock);
  }
  return NULL;
}

/* the pool of this process with at least `workers` workers when they can be made (fewer
 * otherwise); NULL when none can be set up */
static tnpyPool* get_pool(int workers) {
  pthread_once(&fork_hook, hook_fork);
  pthread_mutex_lock(&pool_make);
  pid_t pid = getpid();
  if (pool && pool->pid != pid) {
    pool = NULL;  // made before fork(): its threads are not in this process (left as is)
  }
  if (!pool) {
    tnpyPool* p = calloc(1, sizeof(tnpyPool));
    if (p && !pthread_mutex_init(&p->lock, NULL) && !pthread_cond_init(&p->wake, NULL) &&
        !pthread_mutex_init(&p->calls, NULL)) {
      p->pid = pid;
      atomic_init(&p->next, 0);
      atomic_init(&p->busy, 0);
      atomic_init(&p->gen, 0);
      pool = p;
    } else {
      free(p);
    }
  }
  if (pool) {
    // workers block every signal (the interpreter's handlers belong to its threads)
    workers = workers < TNPY_POOL_MAX ? workers : TNPY_POOL_MAX;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    while (pool->nworker < workers) {
      pthread_t t;
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
      int failed = pthread_create(&t, &attr, worker_main, pool);
      pthread_attr_destroy(&attr);
      if (failed) {
        break;
      }
      pool->nworker++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
  }
  tnpyPool* p = pool;
  pthread_mutex_unlock(&pool_make);
  return p;
}

/* run the items over the caller and up to nthread - 1 workers */
void tnpy_poolRun(int nthread, ptrdiff_t k, ptrdiff_t chunk, tnpyPoolFn fn, void* ctx) {
  if (k <= 0) {
    return;
  }
  chunk = chunk < 1 ? 1 : chunk;
  ptrdiff_t ntake = (k + chunk - 1) / chunk;  // takes the items need
  tnpyPool* p = nthread > 1 && ntake > 1 ? get_pool(nthread - 1) : NULL;
  if (!p || !p->nworker || pthread_mutex_trylock(&p->calls)) {
    for (ptrdiff_t j = 0; j < k; j++) {
      fn(ctx, j, 0);
    }
    return;
  }

  // publish the job and wake the workers it may use
  int want = nthread - 1 < p->nworker ? nthread - 1 : p->nworker;
  want = (ptrdiff_t)want < ntake - 1 ? want : (int)(ntake - 1);
  pthread_mutex_lock(&p->lock);
  p->fn = fn;
  p->ctx = ctx;
  p->k = k;
  p->chunk = chunk;
  atomic_store_explicit(&p->next, 0, memory_order_relaxed);
  p->gen++;
  p->open = 1;
  p->want = want;
  p->joined = 0;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);

  // the caller's share, then no more joiners, then the joined workers' last items
  take_items(p, fn, ctx, k, chunk, 0);
  pthread_mutex_lock(&p->lock);
  p->open = 0;
  pthread_mutex_unlock(&p->lock);
  while (atomic_load_explicit(&p->busy, memory_order_acquire) > 0) {
    TNPY_PAUSE();
  }
  pthread_mutex_unlock(&p->calls);
}
