/* server/scheduler.h — the fair queue of env-range chunks between the loop and workers.
 *
 * A job with chunks left to run sits once in a round-robin list: a worker takes the next
 * chunk of the job at the head and moves that job to the tail, so one huge request cannot
 * starve small ones. The loop pushes jobs and removes the untaken chunks of cancelled ones;
 * workers block on a condition variable while the queue is empty. */
#ifndef TORSIOND_SCHEDULER_H
#define TORSIOND_SCHEDULER_H

#include <pthread.h>
#include <stdint.h>

typedef struct tdJob_ tdJob;

/* the queue */
typedef struct tdScheduler_ {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  tdJob* head;
  tdJob* tail;
  int stop;
  int nwaiting; /* workers blocked in td_sched_take */
  uint64_t queued_chunks;
  int running; /* chunks being run */
} tdScheduler;

int td_sched_init(tdScheduler* s);
void td_sched_destroy(tdScheduler* s);

/* make the job's chunks [job->next_chunk, job->nchunks) available */
void td_sched_push(tdScheduler* s, tdJob* job);

/* block for the next chunk; returns 0 and fills job/chunk, or -1 when stopping */
int td_sched_take(tdScheduler* s, tdJob** job, int* chunk);

/* a worker finished running a chunk taken from the queue */
void td_sched_done(tdScheduler* s, tdJob* job);

/* withdraw the job's untaken chunks; returns how many were withdrawn */
int td_sched_remove(tdScheduler* s, tdJob* job);

/* wake every worker and make td_sched_take return -1 */
void td_sched_stop(tdScheduler* s);

/* queued and running chunk counts (for Stats and Health) */
void td_sched_counts(tdScheduler* s, uint64_t* queued, int* running);

#endif /* TORSIOND_SCHEDULER_H */
