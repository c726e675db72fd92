/* _core/pool.h — the worker threads of SimBatch's loops.
 *
 * tnpy_poolRun(nthread, k, fn, ctx) calls fn(ctx, j) for j = 0..k-1 on the calling thread
 * and up to nthread - 1 workers, items handed out one at a time. Workers sleep between
 * calls (they take no core while the trainer's own code runs); the caller starts at once
 * and, when it runs out of items, waits for the workers' items in progress by spinning
 * rather than sleeping, so a call never pays a sleeping thread's wake-up at its end. A
 * worker that wakes after the caller took the last item goes back to sleep without
 * joining. A call made while another thread's call is running (or after fork() in the
 * child, until the pool is remade) runs all items on the caller. Call with the GIL
 * released; fn must not call back into the pool. */
#ifndef TORSION_PY_POOL_H
#define TORSION_PY_POOL_H

#include <stddef.h>

/* one item of a call */
typedef void (*tnpyPoolFn)(void* ctx, ptrdiff_t j);

/* run fn(ctx, j), j < k, over nthread threads (the caller included); returns how many
 * threads took part in the call's setup (1 when it ran on the caller alone) */
int tnpy_poolRun(int nthread, ptrdiff_t k, tnpyPoolFn fn, void* ctx);

#endif /* TORSION_PY_POOL_H */
