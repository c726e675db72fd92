/* server/job.h — a request in flight: its chunks, cancellation, deadline and completion.
 *
 * A job is created by a request handler after full validation, split into env-range chunks
 * and pushed to the scheduler. Workers run chunks through job->ops->run and count finished
 * chunks atomically: the worker that finishes the last one marks its frame final. The loop
 * writes frames as completions arrive, holding a final frame back until every other chunk
 * has reported, so the final flag is always on the last frame of the request. A job that
 * fails, is cancelled or passes its deadline gets one error frame; later completions are
 * dropped. A job is freed when it is finished and every chunk is accounted for (run or
 * withdrawn from the queue). */
#ifndef TORSIOND_JOB_H
#define TORSIOND_JOB_H

#include <stdatomic.h>
#include <stdint.h>

#include "server.h"

/* per-kind behaviour */
typedef struct tdJobOps_ {
  /* worker: run chunk `chunk` on worker w; fill c->frame/len (or leave NULL) or c->code/msg */
  void (*run)(tdJob* job, tdWorker* w, int chunk, tdCompletion* c);
  /* loop: the job just finished (final frame sent or error); may be NULL */
  void (*finished)(tdJob* job, int code);
  /* loop: free the kind's payload; may be NULL */
  void (*release)(tdJob* job);
} tdJobOps;

/* a request in flight */
struct tdJob_ {
  const tdJobOps* ops;
  tdServer* srv;
  tdConn* conn; /* NULL once the connection has closed */
  tdJob* jprev;
  tdJob* jnext;
  uint64_t id;
  int kind;             /* request kind (kinds.h) */
  double t0;            /* arrival time (s) */
  uint64_t deadline_ns; /* 0: none */
  tdModel* model;       /* referenced while the job lives (may be NULL) */
  tdReq* req;           /* the decoded request: inputs point into it */
  void* payload;        /* kind-specific */
  int64_t cost_steps;   /* env-steps counted against the limits */

  /* chunking: comps[k] is chunk k's completion, filled by the worker that runs it */
  tdCompletion* comps;
  int nitems;
  int chunk_items;
  int nchunks;

  /* scheduler fields (under the scheduler's mutex) */
  tdSchedQueue* sq; /* the client queue it waits in */
  tdJob* qnext;
  int running; /* chunks being run */
  int light;   /* a chunk is a few milliseconds of work: the express worker may take it */
  int latency; /* latency class: taken ahead of bulk work by every worker */
  int next_chunk;
  int queued;
  int* resume; /* [nchunks] ring of started chunks waiting for their next slice */
  int resume_head, nresume;

  /* worker fields */
  atomic_int done_chunks;
  atomic_int cancel; /* 0, or the error code that stops the workers */

  /* loop fields */
  int seen;           /* completions processed */
  int withdrawn;      /* chunks removed from the queue */
  int submitted;      /* pushed to the scheduler */
  int finished;       /* final frame sent (or would have been) */
  int code;           /* final error code, 0 on success */
  tdCompletion* held; /* a final frame waiting for the other chunks */
  uint64_t steps;     /* env-steps computed so far */
  int64_t conn_steps; /* cost_steps still counted in conn->queued_steps */
};

/* a new job for request `req` (ownership of req passes to the job) on connection c */
tdJob* td_job_new(tdConn* c, tdReq* req, const tdJobOps* ops, int kind);

/* split nitems into chunks of chunk_items and queue them (or just count them when
 * `hold` is set: a session job waiting for its turn is pushed later with td_job_push) */
void td_job_submit(tdJob* job, int nitems, int chunk_items, int hold);

/* is one chunk of the job light (a few milliseconds of work, by the model's step cost) */
int td_job_chunk_is_light(const tdJob* job);

/* is the job in the latency class: a session call or a Forward/Inverse/FD request whose
 * whole work is at most latency_work_us (by the model's step cost) */
int td_job_is_latency(const tdJob* job);

/* queue the chunks of a submitted, held job */
void td_job_push(tdJob* job);

/* the items [first, first + count) of chunk k */
void td_job_chunk_range(const tdJob* job, int k, int* first, int* count);

/* worker: 1 when the chunk should stop (cancelled, deadline passed) — sets c->code */
int td_job_should_stop(tdJob* job, tdCompletion* c);

/* worker, at a slice boundary inside a chunk: 1 when the chunk should go back to the queue
 * (its state saved, c->yielded set) so that waiting work runs first */
int td_job_should_yield(tdJob* job, int always);

/* worker: count a finished chunk; returns 1 when it was the job's last */
int td_job_chunk_done(tdJob* job);

/* one item of a chunk: load item b of the request into d, run the engine on it and store its
 * results as row i of the chunk's outputs `out` */
typedef void (*tdItemFn)(const tdJob* job, mjData* d, int b, int i, void* out);

/* worker: run the items e0 .. e0 + ne - 1 on d, each followed by the stop checks (engine
 * error, cancel, deadline), its warnings (warnings[i]) and steps_per_item steps counted in c;
 * 0, or -1 when the chunk must stop */
int td_job_run_items(tdJob* job, mjData* d, int e0, int ne, tdItemFn item, void* out,
                     uint32_t* warnings, int64_t steps_per_item, tdCompletion* c);

/* worker: pack a chunk's result frame r into c (ERROR_INTERNAL when it cannot be packed); the
 * last chunk to finish carries the final flag */
void td_job_pack_chunk(tdJob* job, tdResp* r, tdCompletion* c);

/* loop: finish with an error frame (no frame when the connection is gone) */
void td_job_fail(tdJob* job, int code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

/* loop: the connection went away: cancel the job silently */
void td_job_detach(tdJob* job);

/* loop: process one completion from a worker */
void td_job_on_completion(tdServer* srv, tdCompletion* c);

/* loop: fail the jobs whose deadline has passed */
void td_job_check_deadlines(tdServer* srv);

/* loop: an unfinished job of this connection with this id, or NULL */
tdJob* td_job_find(tdConn* c, uint64_t id);

/* the deadline for a request: its own (clamped) or the default; 0 for none */
uint64_t td_job_deadline(const tdServer* srv, uint32_t requested_ms);

#endif /* TORSIOND_JOB_H */
