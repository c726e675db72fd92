/* server/scheduler.h — the fair queue of env-range chunks between the loop and workers.
 *
 * Round-robin over clients, then over each client's jobs: every connection with chunks
 * left has one queue in a ring; a worker takes the next chunk of the runnable queue with the
 * fewest chunks running (the first such in ring order), moves that job to the tail of its
 * queue and the queue to the tail of the ring. So a client with forty huge requests gets the
 * same share of the workers as a client with one small request. One extra "express" worker
 * takes only light chunks (a few milliseconds of work): a chunk cannot be interrupted, so
 * without it a small request could wait for a long chunk of another client to end. Latency-class
 * jobs (small session, Forward, Inverse and FD calls) are taken before any other by every
 * worker, but after `latency_burst` of them in a row a waiting bulk chunk goes first, so bulk
 * work is never starved. Rollout chunks run in slices of about `slice_us` of work; at a slice
 * boundary a chunk goes back to the queue when latency work or an idle client waits (its
 * environment's state is kept in the job) and resumes before the job's new chunks. A queue is
 * `blocked` while its connection's unsent output is over its limit: its chunks are not
 * started (no output is built that the client is not reading). The loop pushes jobs and
 * removes the untaken chunks of cancelled ones; workers block on a condition variable
 * while nothing runnable is queued. */
#ifndef TORSIOND_SCHEDULER_H
#define TORSIOND_SCHEDULER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

typedef struct tdJob_ tdJob;

/* one client's jobs with chunks left (lives in its tdConn; under the scheduler's mutex) */
typedef struct tdSchedQueue_ {
  tdJob* head;
  tdJob* tail;
  struct tdSchedQueue_* rnext; /* ring of queues with jobs */
  int inring;
  int blocked; /* output over the client's limit: take nothing */
  int running; /* its chunks being run */
} tdSchedQueue;

/* the queue */
typedef struct tdScheduler_ {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  tdSchedQueue* rhead; /* ring of non-empty client queues */
  tdSchedQueue* rtail;
  tdSchedQueue orphans; /* jobs without a connection */
  int stop;
  int nwaiting;      /* workers blocked in td_sched_take */
  int nwaiting_full; /* of which not express (they take any chunk) */
  uint64_t queued_chunks;
  int running;        /* chunks being run */
  int latency_queued; /* queued chunks of latency-class jobs */
  int latency_streak; /* latency chunks taken since the last bulk one */
  int latency_burst;  /* after this many in a row a waiting bulk chunk goes first */
  atomic_ulong wakes; /* bumped at every broadcast: what a polling worker watches */
} tdScheduler;

int td_sched_init(tdScheduler* s);
void td_sched_destroy(tdScheduler* s);

/* make the job's chunks [job->next_chunk, job->nchunks) available */
void td_sched_push(tdScheduler* s, tdJob* job);

/* block for the next chunk (only chunks of light jobs when `light_only`: the express
 * worker; it still takes latency ones first); returns 0 and fills job/chunk, or -1 when
 * stopping */
int td_sched_take(tdScheduler* s, tdJob** job, int* chunk, int light_only);

/* at a slice boundary of a running chunk: 1 when it should go back to the queue (always, or
 * when a latency chunk or another client's work waits and no worker is idle) */
int td_sched_should_yield(tdScheduler* s, tdJob* job, int always);

/* a worker stopped a started chunk at a slice boundary: it is queued again, to resume first
 * among the job's chunks (counts as td_sched_done too); -1 when the job is failing and the
 * chunk must be completed instead */
int td_sched_requeue(tdScheduler* s, tdJob* job, int chunk);

/* a worker finished running a chunk taken from the queue */
void td_sched_done(tdScheduler* s, tdJob* job);

/* withdraw the job's untaken chunks; returns how many were withdrawn */
int td_sched_remove(tdScheduler* s, tdJob* job);

/* the job's connection is going away: its running chunks count in the orphans' queue */
void td_sched_orphan(tdScheduler* s, tdJob* job);

/* block or unblock a client's queue (its unsent output crossed its limit) */
void td_sched_set_blocked(tdScheduler* s, tdSchedQueue* q, int blocked);

/* wake every worker and make td_sched_take return -1 */
void td_sched_stop(tdScheduler* s);

/* queued and running chunk counts (for Stats and Health) */
void td_sched_counts(tdScheduler* s, uint64_t* queued, int* running);

#endif /* TORSIOND_SCHEDULER_H */
