/* server/scheduler.c — the round-robin chunk queue (see scheduler.h). */
#include "scheduler.h"

#include "job.h"

/* init the mutex and condition variable */
int td_sched_init(tdScheduler* s) {
  s->head = s->tail = NULL;
  s->stop = 0;
  s->nwaiting = 0;
  s->queued_chunks = 0;
  s->running = 0;
  if (pthread_mutex_init(&s->mu, NULL)) {
    return -1;
  }
  if (pthread_cond_init(&s->cv, NULL)) {
    pthread_mutex_destroy(&s->mu);
    return -1;
  }
  return 0;
}

/* free the mutex and condition variable */
void td_sched_destroy(tdScheduler* s) {
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
}

/* append a job to the tail (mutex held) */
static void append(tdScheduler* s, tdJob* job) {
  job->qnext = NULL;
  if (s->tail) {
    s->tail->qnext = job;
  } else {
    s->head = job;
  }
  s->tail = job;
  job->queued = 1;
}

/* unlink a queued job (mutex held) */
static void unlink_job(tdScheduler* s, tdJob* job) {
  tdJob* prev = NULL;
  for (tdJob* j = s->head; j; prev = j, j = j->qnext) {
    if (j == job) {
      if (prev)
        prev->qnext = j->qnext;
      else
        s->head = j->qnext;
      if (s->tail == j)
        s->tail = prev;
      break;
    }
  }
  job->qnext = NULL;
  job->queued = 0;
}

/* publish a job's chunks and wake as many workers as there are chunks */
void td_sched_push(tdScheduler* s, tdJob* job) {
  pthread_mutex_lock(&s->mu);
  int n = job->nchunks - job->next_chunk;
  if (n > 0 && !job->queued) {
    append(s, job);
    s->queued_chunks += (uint64_t)n;
    if (job->model) {
      job->model->queued_chunks += (uint64_t)n;
    }
  }
  if (n == 1) {
    pthread_cond_signal(&s->cv);
  } else if (n > 1) {
    pthread_cond_broadcast(&s->cv);
  }
  pthread_mutex_unlock(&s->mu);
}

/* take the head job's next chunk; rotate the job to the tail */
int td_sched_take(tdScheduler* s, tdJob** out, int* chunk) {
  pthread_mutex_lock(&s->mu);
  while (!s->head && !s->stop) {
    s->nwaiting++;
    pthread_cond_wait(&s->cv, &s->mu);
    s->nwaiting--;
  }
  if (s->stop) {
    pthread_mutex_unlock(&s->mu);
    return -1;
  }
  tdJob* job = s->head;
  *out = job;
  *chunk = job->next_chunk++;
  s->head = job->qnext;
  if (!s->head) {
    s->tail = NULL;
  }
  job->queued = 0;
  job->qnext = NULL;
  if (job->next_chunk < job->nchunks) {
    append(s, job);
  }
  s->queued_chunks--;
  s->running++;
  if (job->model) {
    job->model->queued_chunks--;
    job->model->running_chunks++;
  }
  pthread_mutex_unlock(&s->mu);
  return 0;
}

/* a chunk has been run */
void td_sched_done(tdScheduler* s, tdJob* job) {
  pthread_mutex_lock(&s->mu);
  s->running--;
  if (job->model) {
    job->model->running_chunks--;
  }
  pthread_mutex_unlock(&s->mu);
}

/* withdraw a job's untaken chunks (a job is queued exactly while it has untaken chunks) */
int td_sched_remove(tdScheduler* s, tdJob* job) {
  pthread_mutex_lock(&s->mu);
  int n = 0;
  if (job->queued) {
    n = job->nchunks - job->next_chunk;
    unlink_job(s, job);
    s->queued_chunks -= (uint64_t)n;
    if (job->model) {
      job->model->queued_chunks -= (uint64_t)n;
    }
    job->next_chunk = job->nchunks;
  }
  pthread_mutex_unlock(&s->mu);
  return n;
}

/* stop every worker */
void td_sched_stop(tdScheduler* s) {
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* counts for Stats/Health */
void td_sched_counts(tdScheduler* s, uint64_t* queued, int* running) {
  pthread_mutex_lock(&s->mu);
  *queued = s->queued_chunks;
  *running = s->running;
  pthread_mutex_unlock(&s->mu);
}
