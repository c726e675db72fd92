/* server/workers.c — worker threads, the completion queue and the engine error slot
 * (see workers.h). */
#include "workers.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <torsion/torsion.h>

#include "job.h"
#include "log.h"

/* ---------------------------------------------------------------------------------------
 * engine errors: a per-thread slot behind the process-global handler
 * ------------------------------------------------------------------------------------- */

/* where this thread's engine errors go, and how many arrived */
static _Thread_local char* err_buf;
static _Thread_local size_t err_size;
static _Thread_local int err_count;

/* mju_user_error: record (first message wins) or log when no request is listening */
static void on_engine_error(const char* msg) {
  err_count++;
  if (err_buf && err_size) {
    if (!err_buf[0]) {
      snprintf(err_buf, err_size, "%s", msg ? msg : "engine error");
    }
    return;
  }
  char q[512];
  td_log(TD_LOG_ERROR, "engine_error", "msg=%s", td_log_quote(q, sizeof(q), msg ? msg : ""));
}

/* mju_user_warning: engine warnings are per-environment flags in responses; log at debug */
static void on_engine_warning(const char* msg) {
  if (td_log_enabled(TD_LOG_DEBUG)) {
    char q[512];
    td_log(TD_LOG_DEBUG, "engine_warning", "msg=%s", td_log_quote(q, sizeof(q), msg ? msg : ""));
  }
}

/* install both handlers */
void td_engine_install_handlers(void) {
  mju_user_error = on_engine_error;
  mju_user_warning = on_engine_warning;
}

/* route this thread's errors */
void td_engine_errors_to(char* buf, size_t size) {
  err_buf = buf;
  err_size = size;
  err_count = 0;
  if (buf && size) {
    buf[0] = '\0';
  }
}

/* was an error recorded */
int td_engine_failed(void) {
  return err_count > 0;
}

/* one item under an unwinding point; after an engine error the mjData starts clean */
int td_engine_run(const mjModel* m, mjData* d, tnRunFn fn, void* arg) {
  if (tn_run(d, fn, arg, NULL, 0) == 0) {
    return 0;
  }
  mj_resetData(m, d);
  return -1;
}

/* ---------------------------------------------------------------------------------------
 * completion queue
 * ------------------------------------------------------------------------------------- */

/* an error on a completion (an engine error wins over what the chunk reported after it) */
void td_completion_error(tdCompletion* c, int code, const char* fmt, ...) {
  if (code == TD_E_ENGINE || !c->code) {
    c->code = code;
  }
  if (!c->msg || code == TD_E_ENGINE) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    free(c->msg);
    c->msg = strdup(buf);
  }
}

/* an empty queue */
int td_cq_init(tdCompletionQueue* q) {
  q->head = q->tail = NULL;
  return pthread_mutex_init(&q->mu, NULL) ? -1 : 0;
}

/* free the queue's mutex */
void td_cq_destroy(tdCompletionQueue* q) {
  pthread_mutex_destroy(&q->mu);
}

/* push and wake the loop */
void td_complete(tdServer* srv, tdCompletion* c) {
  c->next = NULL;
  pthread_mutex_lock(&srv->cq.mu);
  if (srv->cq.tail) {
    srv->cq.tail->next = c;
  } else {
    srv->cq.head = c;
  }
  srv->cq.tail = c;
  pthread_mutex_unlock(&srv->cq.mu);
  uv_async_send(&srv->async);
}

/* take the whole list */
tdCompletion* td_completions_take(tdCompletionQueue* q) {
  pthread_mutex_lock(&q->mu);
  tdCompletion* list = q->head;
  q->head = q->tail = NULL;
  pthread_mutex_unlock(&q->mu);
  return list;
}

/* ---------------------------------------------------------------------------------------
 * worker threads
 * ------------------------------------------------------------------------------------- */

/* this thread's CPU priority lowered by `nice` steps (Linux keeps a nice value per thread;
 * raising it needs no privilege, and it is never lowered again) */
static void lower_priority(int nice, int index) {
#ifdef __linux__
  if (nice > 0) {
    id_t tid = (id_t)syscall(SYS_gettid);
    int cur = getpriority(PRIO_PROCESS, tid);
    int next = cur + nice > 19 ? 19 : cur + nice;
    if (setpriority(PRIO_PROCESS, tid, next)) {
      td_log(TD_LOG_WARN, "bulk_nice_failed", "worker=%d nice=%d", index, next);
    }
  }
#else
  (void)nice;
  (void)index;
#endif
}

/* take chunks until the scheduler stops */
static void* worker_main(void* arg) {
  tdWorker* w = arg;
  tdServer* srv = w->srv;
  tdJob* job;
  int chunk;

  // optionally, the workers that run bulk chunks yield the CPU to the I/O loop and the
  // express worker
  if (!w->express) {
    lower_priority(srv->cfg.bulk_nice, w->index);
  }
  while (td_sched_take(&srv->sched, &job, &chunk, w->express) == 0) {
    // run the chunk with engine errors routed to its completion
    tdCompletion* c = &job->comps[chunk];
    c->job = job;
    c->chunk = chunk;
    td_engine_errors_to(w->err, sizeof(w->err));
    if (!td_job_should_stop(job, c)) {
      job->ops->run(job, w, chunk, c);
    }
    if (td_engine_failed()) {
      td_completion_error(c, TD_E_ENGINE, "%s", w->err);
    }
    td_engine_errors_to(NULL, 0);

    // a chunk stopped at a slice boundary goes back to the queue (unless its job is failing:
    // then it completes as cancelled)
    int yielded = c->yielded && !c->code;
    c->yielded = 0;
    if (yielded) {
      if (td_sched_requeue(&srv->sched, job, chunk) == 0) {
        continue;
      }
      td_completion_error(c, atomic_load(&job->cancel), "cancelled");
      td_complete(srv, c);
      continue;
    }

    // release the scheduler's hold, then hand over (the job may be freed after this)
    td_sched_done(&srv->sched, job);
    td_complete(srv, c);
  }
  return NULL;
}

/* start the pool */
int td_workers_start(tdServer* srv, int n) {
  int total = n + TD_EXPRESS_WORKERS;
  srv->pool.workers = calloc((size_t)total, sizeof(tdWorker));
  srv->pool.n = 0;
  if (!srv->pool.workers) {
    return -1;
  }
  for (int i = 0; i < total; i++) {
    tdWorker* w = &srv->pool.workers[i];
    w->index = i;
    w->express = i >= n;  // the last one runs only light chunks
    w->srv = srv;
    if (pthread_create(&w->thread, NULL, worker_main, w)) {
      return -1;
    }
    w->started = 1;
    srv->pool.n = i + 1;
  }
  return 0;
}

/* stop and join */
void td_workers_join(tdServer* srv) {
  td_sched_stop(&srv->sched);
  for (int i = 0; i < srv->pool.n; i++) {
    if (srv->pool.workers[i].started) {
      pthread_join(srv->pool.workers[i].thread, NULL);
    }
  }
  free(srv->pool.workers);
  srv->pool.workers = NULL;
  srv->pool.n = 0;
}
