/* server/scheduler.c — the round-robin chunk queue over clients and jobs (see scheduler.h). */
#include "scheduler.h"

#include "job.h"

/* init the mutex and condition variable */
int td_sched_init(tdScheduler* s) {
  s->rhead = s->rtail = NULL;
  s->orphans = (tdSchedQueue){0};
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

/* put a client queue at the ring's tail (mutex held) */
static void ring_append(tdScheduler* s, tdSchedQueue* q) {
  q->rnext = NULL;
  if (s->rtail) {
    s->rtail->rnext = q;
  } else {
    s->rhead = q;
  }
  s->rtail = q;
  q->inring = 1;
}

/* take a client queue out of the ring (mutex held) */
static void ring_unlink(tdScheduler* s, tdSchedQueue* q) {
  tdSchedQueue* prev = NULL;
  for (tdSchedQueue* r = s->rhead; r; prev = r, r = r->rnext) {
    if (r == q) {
      if (prev)
        prev->rnext = r->rnext;
      else
        s->rhead = r->rnext;
      if (s->rtail == r)
        s->rtail = prev;
      break;
    }
  }
  q->rnext = NULL;
  q->inring = 0;
}

/* append a job to its client's queue, which joins the ring if it was empty (mutex held) */
static void append(tdScheduler* s, tdJob* job) {
  tdSchedQueue* q = job->sq;
  job->qnext = NULL;
  if (q->tail) {
    q->tail->qnext = job;
  } else {
    q->head = job;
  }
  q->tail = job;
  job->queued = 1;
  if (!q->inring) {
    ring_append(s, q);
  }
}

/* unlink a queued job; an emptied client queue leaves the ring (mutex held) */
static void unlink_job(tdScheduler* s, tdJob* job) {
  tdSchedQueue* q = job->sq;
  tdJob* prev = NULL;
  for (tdJob* j = q->head; j; prev = j, j = j->qnext) {
    if (j == job) {
      if (prev)
        prev->qnext = j->qnext;
      else
        q->head = j->qnext;
      if (q->tail == j)
        q->tail = prev;
      break;
    }
  }
  job->qnext = NULL;
  job->queued = 0;
  if (!q->head && q->inring) {
    ring_unlink(s, q);
  }
}

/* publish a job's chunks and wake as many workers as there are chunks */
void td_sched_push(tdScheduler* s, tdJob* job) {
  pthread_mutex_lock(&s->mu);
  if (!job->sq) {
    job->sq = job->conn ? &job->conn->sq : &s->orphans;
  }
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

/* the first light job of a client queue, or NULL (mutex held) */
static tdJob* first_light(const tdSchedQueue* q) {
  for (tdJob* j = q->head; j; j = j->qnext) {
    if (j->light) {
      return j;
    }
  }
  return NULL;
}

/* the job to take from: in the runnable queue with the fewest running chunks (ring order
 * breaks ties), its head job, or its first light job for the express worker; NULL when
 * there is none (mutex held) */
static tdJob* pick(tdScheduler* s, int light_only) {
  tdJob* best = NULL;
  int fewest = 0;
  for (tdSchedQueue* q = s->rhead; q; q = q->rnext) {
    if (q->blocked || (best && q->running >= fewest)) {
      continue;
    }
    tdJob* j = light_only ? first_light(q) : q->head;
    if (j) {
      best = j;
      fewest = q->running;
    }
  }
  return best;
}

/* take the next chunk of the picked job; rotate the job and its client */
int td_sched_take(tdScheduler* s, tdJob** out, int* chunk, int light_only) {
  pthread_mutex_lock(&s->mu);
  tdJob* job;
  while (!(job = pick(s, light_only)) && !s->stop) {
    s->nwaiting++;
    pthread_cond_wait(&s->cv, &s->mu);
    s->nwaiting--;
  }
  if (s->stop) {
    pthread_mutex_unlock(&s->mu);
    return -1;
  }
  tdSchedQueue* q = job->sq;
  *out = job;
  *chunk = job->next_chunk++;

  // the job goes to the tail of its client's queue, the client to the tail of the ring
  unlink_job(s, job);
  if (job->next_chunk < job->nchunks) {
    append(s, job);
  }
  if (q->inring) {
    ring_unlink(s, q);
    ring_append(s, q);
  }
  s->queued_chunks--;
  s->running++;
  q->running++;
  job->running++;
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
  job->sq->running--;
  job->running--;
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

/* move a job (its untaken and running chunks) to the orphans' queue: its connection's queue
 * is about to be freed */
void td_sched_orphan(tdScheduler* s, tdJob* job) {
  pthread_mutex_lock(&s->mu);
  if (job->sq && job->sq != &s->orphans) {
    int queued = job->queued;
    if (queued) {
      unlink_job(s, job);  // still waiting: it moves to the orphans' queue with its chunks
    }
    job->sq->running -= job->running;
    s->orphans.running += job->running;
    job->sq = &s->orphans;
    if (queued) {
      append(s, job);
    }
  }
  pthread_mutex_unlock(&s->mu);
}

/* block or unblock a client */
void td_sched_set_blocked(tdScheduler* s, tdSchedQueue* q, int blocked) {
  if (q->blocked == blocked) {
    return;  // only the loop writes the flag, so reading it unlocked here is safe
  }
  pthread_mutex_lock(&s->mu);
  q->blocked = blocked;
  if (!blocked && q->inring) {
    pthread_cond_broadcast(&s->cv);
  }
  pthread_mutex_unlock(&s->mu);
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
