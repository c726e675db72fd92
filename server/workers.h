/* server/workers.h — worker threads, the completion queue and the engine error slot.
 *
 * Workers take chunks from the scheduler, run them on their own mjData and push a
 * completion (an encoded frame or an error) onto a mutex-protected queue, then wake the
 * loop with uv_async_send. The engine reports fatal errors through the process-global
 * mju_user_error; our handler records the message in a _Thread_local slot of whichever
 * thread is running, so an error fails exactly the request that caused it. Every item a
 * worker runs goes through td_engine_run (an unwinding point): an engine error (an arena
 * too small for the model, ...) leaves the engine at once, resets that mjData and fails
 * only that request. */
#ifndef TORSIOND_WORKERS_H
#define TORSIOND_WORKERS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include <torsion/torsion.h>

typedef struct tdServer_ tdServer;
typedef struct tdJob_ tdJob;

/* the result of running one chunk, travelling from a worker to the loop */
typedef struct tdCompletion_ {
  struct tdCompletion_* next;
  tdJob* job;
  int chunk;
  int code;    /* 0 or an error code */
  int final;   /* the frame is the request's last */
  char* frame; /* encoded response (NULL: nothing to send) */
  size_t len;
  uint64_t steps; /* env-steps computed */
  int yielded;    /* the chunk stopped at a slice boundary and resumes later (no frame yet) */
  char* msg;      /* error message when code != 0 (malloc'ed, may be NULL) */
} tdCompletion;

/* record an error on a completion: code, and the message unless one is set already */
void td_completion_error(tdCompletion* c, int code, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* completions waiting for the loop */
typedef struct tdCompletionQueue_ {
  pthread_mutex_t mu;
  tdCompletion* head;
  tdCompletion* tail;
} tdCompletionQueue;

/* one worker thread */
typedef struct tdWorker_ {
  int index;      /* its mjData in every model's pool */
  int express;    /* takes only light chunks (scheduler.h) */
  char err[1024]; /* engine errors of the running chunk */
  pthread_t thread;
  tdServer* srv;
  int started;
} tdWorker;

/* all workers */
typedef struct tdWorkerPool_ {
  tdWorker* workers;
  int n;
} tdWorkerPool;

/* install the engine's error and warning handlers (once, before any thread starts) */
void td_engine_install_handlers(void);

/* route engine errors of this thread into buf (cleared); NULL stops routing */
void td_engine_errors_to(char* buf, size_t size);

/* 1 when an engine error was recorded since td_engine_errors_to */
int td_engine_failed(void);

/* run fn(arg), one item's engine work on d, under an unwinding point: 0, or -1 after an
 * engine error (recorded in this thread's slot; d has been reset with mj_resetData) */
int td_engine_run(const mjModel* m, mjData* d, tnRunFn fn, void* arg);

/* start n workers; 0 or -1 */
int td_workers_start(tdServer* srv, int n);
/* (n workers plus TD_EXPRESS_WORKERS express ones, indices n ...) */

/* stop the scheduler and join every worker */
void td_workers_join(tdServer* srv);

/* worker side: hand a completion to the loop */
void td_complete(tdServer* srv, tdCompletion* c);

/* loop side: take every waiting completion (FIFO order) */
tdCompletion* td_completions_take(tdCompletionQueue* q);

int td_cq_init(tdCompletionQueue* q);
void td_cq_destroy(tdCompletionQueue* q);

#endif /* TORSIOND_WORKERS_H */
