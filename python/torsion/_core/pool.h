/* _core/pool.h — the worker threads of SimBatch's and torsion.rollout's loops.
 *
 * tnpy_poolRun(nthread, k, chunk, fn, ctx) calls fn(ctx, j, thread) for j = 0..k-1 on the
 * calling thread (thread 0) and up to nthread - 1 workers (threads 1..nthread-1, each
 * index used by one thread at a time within a call), items handed out `chunk` at a time.
 * Workers sleep between calls (they take no core while the trainer's own code runs); the
 * caller starts at once and, when it runs out of items, waits for the workers' items in
 * progress by spinning rather than sleeping, so a call never pays a sleeping thread's
 * wake-up at its end. A worker that wakes after the caller took the last item goes back to
 * sleep without joining. A call made while another thread's call is running runs all
 * items on the caller (thread 0). Call with the GIL released; fn must not call back into
 * the pool. */
#ifndef TORSION_PY_POOL_H
#define TORSION_PY_POOL_H

#include <stddef.h>

/* one item of a call, run by thread `thread` (0: the caller) */
typedef void (*tnpyPoolFn)(void* ctx, ptrdiff_t j, int thread);

/* run fn(ctx, j, thread), j < k, over nthread threads (the caller included), chunk items
 * (>= 1) per take */
void tnpy_poolRun(int nthread, ptrdiff_t k, ptrdiff_t chunk, tnpyPoolFn fn, void* ctx);

#endif /* TORSION_PY_POOL_H */
