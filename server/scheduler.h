/* server/scheduler.h — the fair queue of env-range chunks between the loop and workers.
 *
 * Round-robin over clients, then over each client's jobs: every connection with chunks
 * left has one queue in a ring; a worker takes the next chunk of the runnable queue with the
 * fewest chunks running (the first such in ring order), moves that job to the tail of its
 * queue and the queue to the tail of the ring. So a client with forty huge requests gets the
 * same share of the workers as a client with one small request. One extra "express" worker
 * takes only light chunks (a few milliseconds of work): a chunk cannot be interrupted, so
 * without it a small request could wait for a long chunk of another client to end. A queue is
 * `blocked` while its connection's unsent output is over its limit: its chunks are not
 * started (no output is built that the client is not reading). The loop pushes jobs and
 * removes the untaken chunks of cancelled ones; workers block on a condition variable
 * while nothing runnable is queued. */
#ifndef TORSIOND_SCHEDULER_H
#define TORSIOND_SCHEDULER_H

#include <pthread.h>
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
  int nwaiting; /* workers blocked in td_sched_take */
  uint64_t queued_chunks;
  int running; /* chunks being run */
} tdScheduler;

int td_sched_init(tdScheduler* s);
void td_sched_destroy(tdScheduler* s);

/* make the job's chunks [job->next_chunk, job->nchunks) available */
void td_sched_push(tdScheduler* s, tdJob* job);

/* block for the next chunk (only chunks of light jobs when `light_only`: the express
 * worker); returns 0 and fills job/chunk, or -1 when stopping */
int td_sched_take(tdScheduler* s, tdJob** job, int* chunk, int light_only);

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
