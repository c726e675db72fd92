/* server/job.c — the life of a request in flight (see job.h). */
#include "job.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "quota.h"
#include "requests.h"

/* ---------------------------------------------------------------------------------------
 * creation and submission
 * ------------------------------------------------------------------------------------- */

/* the absolute deadline of a request */
uint64_t td_job_deadline(const tdServer* srv, uint32_t requested_ms) {
  uint64_t ms = requested_ms ? requested_ms : (uint64_t)srv->cfg.default_deadline_ms;
  if (srv->cfg.max_deadline_ms > 0 && ms > (uint64_t)srv->cfg.max_deadline_ms) {
    ms = (uint64_t)srv->cfg.max_deadline_ms;
  }
  return ms ? td_now_ns() + ms * 1000000ull : 0;
}

/* a new job, linked into its connection */
tdJob* td_job_new(tdConn* c, tdReq* req, const tdJobOps* ops, int kind) {
  tdJob* job = calloc(1, sizeof(tdJob));
  if (!job) {
    return NULL;
  }
  job->ops = ops;
  job->srv = c->srv;
  job->conn = c;
  job->id = req->id;
  job->kind = kind;
  job->req = req;
  job->t0 = td_now_s();
  job->deadline_ns = td_job_deadline(c->srv, req->deadline_ms);
  atomic_init(&job->done_chunks, 0);
  atomic_init(&job->cancel, 0);

  // link at the head of the connection's list
  job->jnext = c->jobs;
  if (c->jobs) {
    c->jobs->jprev = job;
  }
  c->jobs = job;
  c->ninflight++;
  c->srv->inflight++;
  return job;
}

/* most work of a light chunk, and the step count standing for it while a model's step cost
 * is unknown */
#define TD_LIGHT_NS 10000000ull
#define TD_LIGHT_STEPS 5000

/* is one chunk of the job a few milliseconds of work (the express worker may run it) */
int td_job_chunk_is_light(const tdJob* job) {
  if (job->nitems < 1) {
    return 1;
  }
  double steps = (double)job->cost_steps / job->nitems * job->chunk_items;
  uint64_t ns = job->model ? atomic_load_explicit(&job->model->step_ns, memory_order_relaxed) : 0;
  return ns ? steps * (double)ns <= (double)TD_LIGHT_NS : steps <= TD_LIGHT_STEPS;
}

/* the step count standing for latency_work_us while a model's step cost is unknown (per
 * millisecond) */
#define TD_LATENCY_STEPS_PER_MS 100

/* a session call or a Forward/Inverse/FD request of at most latency_work_us of work */
int td_job_is_latency(const tdJob* job) {
  switch (job->kind) {
    case TD_KIND_SESSION_STEP:
    case TD_KIND_SESSION_RESET:
    case TD_KIND_SESSION_GET_STATE:
    case TD_KIND_SESSION_SET_STATE:
    case TD_KIND_FORWARD:
    case TD_KIND_INVERSE:
    case TD_KIND_TRANSITION_FD:
    case TD_KIND_INVERSE_FD: break;
    default: return 0;
  }
  double bound_us = job->srv->cfg.latency_work_us, steps = (double)job->cost_steps;
  uint64_t ns = job->model ? atomic_load_explicit(&job->model->step_ns, memory_order_relaxed) : 0;
  return ns ? steps * (double)ns <= bound_us * 1e3
            : steps <= bound_us * 1e-3 * TD_LATENCY_STEPS_PER_MS;
}

/* at a slice boundary: go back to the queue when waiting work should run first */
int td_job_should_yield(tdJob* job, int always) {
  return td_sched_should_yield(&job->srv->sched, job, always);
}

/* chunk and queue */
void td_job_submit(tdJob* job, int nitems, int chunk_items, int hold) {
  job->nitems = nitems;
  job->chunk_items = chunk_items < 1 ? 1 : chunk_items;
  job->nchunks = (nitems + job->chunk_items - 1) / job->chunk_items;
  job->light = td_job_chunk_is_light(job);
  job->latency = td_job_is_latency(job);
  job->resume = malloc(sizeof(int) * (size_t)(job->nchunks > 0 ? job->nchunks : 1));
  job->comps = calloc((size_t)(job->nchunks > 0 ? job->nchunks : 1), sizeof(tdCompletion));
  job->srv->queued_steps += job->cost_steps;
  if (job->conn) {
    job->conn_steps = job->cost_steps;
    td_quota_steps(job->conn, job->conn_steps);
  }
  if (!job->comps || !job->resume) {
    job->nchunks = 0;
    td_job_fail(job, TD_E_INTERNAL, "out of memory");
    return;
  }
  if (!hold) {
    td_job_push(job);
  }
}

/* queue the chunks */
void td_job_push(tdJob* job) {
  job->submitted = 1;
  td_sched_push(&job->srv->sched, job);
}

/* items of chunk k */
void td_job_chunk_range(const tdJob* job, int k, int* first, int* count) {
  *first = k * job->chunk_items;
  *count = job->nitems - *first < job->chunk_items ? job->nitems - *first : job->chunk_items;
}

/* ---------------------------------------------------------------------------------------
 * worker side
 * ------------------------------------------------------------------------------------- */

/* cancelled or past the deadline */
int td_job_should_stop(tdJob* job, tdCompletion* c) {
  int code = atomic_load_explicit(&job->cancel, memory_order_relaxed);
  if (!code && job->deadline_ns && td_now_ns() >= job->deadline_ns) {
    code = TD_E_DEADLINE_EXCEEDED;
  }
  if (code) {
    td_completion_error(c, code, "%s",
                        code == TD_E_DEADLINE_EXCEEDED ? "deadline exceeded" : "cancelled");
    return 1;
  }
  return 0;
}

/* count a finished chunk */
int td_job_chunk_done(tdJob* job) {
  return atomic_fetch_add_explicit(&job->done_chunks, 1, memory_order_acq_rel) + 1 == job->nchunks;
}

/* one item's call, for td_engine_run */
typedef struct runItem_ {
  const tdJob* job;
  mjData* d;
  int b, i;
  tdItemFn item;
  void* out;
} runItem;

/* call the item function */
static void run_item(void* arg) {
  runItem* a = arg;
  a->item(a->job, a->d, a->b, a->i, a->out);
}

/* run a chunk's items, each under an unwinding point, stopping at an engine error, a
 * cancel or the deadline */
int td_job_run_items(tdJob* job, mjData* d, int e0, int ne, tdItemFn item, void* out,
                     uint32_t* warnings, int64_t steps_per_item, tdCompletion* c) {
  uint64_t t0 = td_now_ns();
  for (int i = 0; i < ne; i++) {
    runItem a = {job, d, e0 + i, i, item, out};
    if (td_engine_run(job->model->m, d, run_item, &a) || td_engine_failed() ||
        td_job_should_stop(job, c)) {
      return -1;
    }
    warnings[i] = td_warning_mask(d);
    c->steps += (uint64_t)steps_per_item;
  }

  // the model's cost per step (engine evaluation), which sizes later chunks
  if (job->model) {
    td_model_note_cost(job->model, (uint64_t)ne * (uint64_t)steps_per_item, td_now_ns() - t0);
  }
  return 0;
}

/* pack a chunk's frame; the last chunk to finish marks it final */
void td_job_pack_chunk(tdJob* job, tdResp* r, tdCompletion* c) {
  r->id = job->id;
  r->final = td_job_chunk_done(job);
  c->final = r->final;
  if (td_pack_frame(r, &c->frame, &c->len)) {
    td_completion_error(c, TD_E_INTERNAL, "result frame too large");
  }
}

/* ---------------------------------------------------------------------------------------
 * loop side: finishing and freeing
 * ------------------------------------------------------------------------------------- */

/* free the job once finished and every chunk is accounted for */
static void maybe_free(tdJob* job) {
  if (!job->finished || job->seen + job->withdrawn < job->nchunks) {
    return;
  }
  tdServer* srv = job->srv;

  // unlink from the connection
  if (job->conn) {
    if (job->jprev)
      job->jprev->jnext = job->jnext;
    else
      job->conn->jobs = job->jnext;
    if (job->jnext)
      job->jnext->jprev = job->jprev;
  }

  // release accounting, the model and everything the job owns
  srv->queued_steps -= job->cost_steps;
  srv->metrics.steps_total += job->steps;
  if (job->model) {
    job->model->steps_served += job->steps;
    td_model_unref(job->model);
  }
  if (job->ops->release) {
    job->ops->release(job);
  }
  for (int k = 0; job->comps && k < job->nchunks; k++) {
    free(job->comps[k].frame);
    free(job->comps[k].msg);
  }
  free(job->comps);
  free(job->resume);
  if (job->req) {
    protobuf_c_message_free_unpacked(&job->req->base, NULL);
  }
  free(job);
}

/* the job's steps no longer count against its connection's quota */
static void release_conn_steps(tdJob* job) {
  if (job->conn) {
    td_quota_steps(job->conn, -job->conn_steps);
  }
  job->conn_steps = 0;
}

/* mark finished: counters, metrics, the kind's hook */
static void finish(tdJob* job, int code) {
  job->finished = 1;
  job->code = code;
  release_conn_steps(job);
  if (job->conn) {
    job->conn->ninflight--;
  }
  job->srv->inflight--;
  td_metrics_request(&job->srv->metrics, job->kind, code, (td_now_s() - job->t0) * 1e6);
  if (job->model) {
    job->model->requests_served++;
  }
  if (job->ops->finished) {
    job->ops->finished(job, code);
  }
}

/* fail with one error frame and stop the rest of the work */
void td_job_fail(tdJob* job, int code, const char* fmt, ...) {
  if (job->finished) {
    return;
  }
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (job->conn) {
    td_conn_send_error(job->conn, job->id, code, "%s", msg);
  }

  // stop the workers: running chunks see the flag, queued ones are withdrawn
  atomic_store(&job->cancel, code);
  if (job->submitted) {
    job->withdrawn += td_sched_remove(&job->srv->sched, job);
  } else {
    job->withdrawn = job->nchunks;
  }
  if (job->held) {
    free(job->held->frame);
    job->held->frame = NULL;
    job->held = NULL;
  }
  finish(job, code);
  maybe_free(job);
}

/* the connection closed under the job: it is already unlinked by the caller */
void td_job_detach(tdJob* job) {
  release_conn_steps(job);
  td_sched_orphan(&job->srv->sched, job);
  job->conn = NULL;
  job->jprev = job->jnext = NULL;
  if (!job->finished) {
    td_job_fail(job, TD_E_CANCELLED, "connection closed");
  } else {
    maybe_free(job);
  }
}

/* hand a frame to the connection (or drop it) */
static void send_frame(tdJob* job, char* frame, size_t len) {
  if (job->conn) {
    td_conn_write(job->conn, frame, len);
  } else {
    free(frame);
  }
}

/* one completion */
void td_job_on_completion(tdServer* srv, tdCompletion* c) {
  (void)srv;
  tdJob* job = c->job;
  job->seen++;
  job->steps += c->steps;
  if (job->finished) {
    // a failed or cancelled job: drop what arrives
    free(c->frame);
    c->frame = NULL;
  } else if (c->code) {
    td_job_fail(job, c->code, "%s", c->msg ? c->msg : "request failed");
    return;
  } else if (c->final && job->seen < job->nchunks) {
    // the last frame, but other chunks have not reported: hold it
    job->held = c;
  } else {
    if (c->frame) {
      send_frame(job, c->frame, c->len);
      c->frame = NULL;
    }
    if (c->final) {
      finish(job, 0);
    }
  }

  // release a held final frame once every chunk has reported
  if (job->held && job->seen == job->nchunks && !job->finished) {
    tdCompletion* h = job->held;
    job->held = NULL;
    send_frame(job, h->frame, h->len);
    h->frame = NULL;
    finish(job, 0);
  }
  maybe_free(job);
}

/* ---------------------------------------------------------------------------------------
 * lookups and deadlines
 * ------------------------------------------------------------------------------------- */

/* fail every job past its deadline */
void td_job_check_deadlines(tdServer* srv) {
  uint64_t now = td_now_ns();
  for (tdConn* c = srv->conns; c; c = c->next) {
    tdJob* next;
    for (tdJob* j = c->jobs; j; j = next) {
      next = j->jnext;
      if (!j->finished && j->deadline_ns && now >= j->deadline_ns) {
        td_job_fail(j, TD_E_DEADLINE_EXCEEDED, "deadline exceeded");
      }
    }
  }
}

/* an unfinished job by id */
tdJob* td_job_find(tdConn* c, uint64_t id) {
  for (tdJob* j = c->jobs; j; j = j->jnext) {
    if (!j->finished && j->id == id) {
      return j;
    }
  }
  return NULL;
}
