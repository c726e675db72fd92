/* server/scheduler.c — the round-robin chunk queue over clients and jobs (see scheduler.h). */
#include "scheduler.h"

#include "job.h"
#include "idle_poll.h"

/* chunks of a job not taken yet: never started, or waiting for their next slice */
static int untaken(const tdJob* job) {
  return job->nchunks - job->next_chunk + job->nresume;
}

/* count n chunks of a job as queued (negative: no longer queued) (mutex held) */
static void count_queued(tdScheduler* s, tdJob* job, int n) {
  s->queued_chunks += (uint64_t)(int64_t)n;
  if (job->latency) {
    s->latency_queued += n;
  }
  if (job->model) {
    job->model->queued_chunks += (uint64_t)(int64_t)n;
  }
}

/* wake every waiting worker: the sleeping ones and the polling ones (mutex held) */
static void wake_workers(tdScheduler* s) {
  atomic_fetch_add_explicit(&s->wakes, 1, memory_order_relaxed);
  pthread_cond_broadcast(&s->cv);
}

/* a worker out of work looks for new work for up to TD_POLL_NS before it sleeps (idle_poll.h) */
#define TD_POLL_NS 300000

/* init the mutex and condition variable */
int td_sched_init(tdScheduler* s) {
  s->rhead = s->rtail = NULL;
  s->orphans = (tdSchedQueue){0};
  s->stop = 0;
  s->nwaiting = 0;
  s->nwaiting_full = 0;
  s->queued_chunks = 0;
  s->running = 0;
  s->latency_queued = 0;
  s->latency_streak = 0;
  s->latency_burst = 8;
  atomic_init(&s->wakes, 0);
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
  if (job->srv) {
    s->latency_burst = job->srv->cfg.latency_burst;  // the loop's configuration, reloadable
  }
  int n = untaken(job);
  if (n > 0 && !job->queued) {
    append(s, job);
    count_queued(s, job, n);
  }
  if (n > 0) {
    wake_workers(s);  // every waiter: a signal could wake only the express one
  }
  pthread_mutex_unlock(&s->mu);
}

/* what a worker looks for in a client queue */
enum { TAKE_ANY = 0, TAKE_LIGHT, TAKE_LATENCY, TAKE_BULK };

/* does the job match what the worker looks for */
static int matches(const tdJob* j, int what) {
  switch (what) {
    case TAKE_LIGHT: return j->light;
    case TAKE_LATENCY: return j->latency;
    case TAKE_BULK: return !j->latency;
    default: return 1;
  }
}

/* the first job of a client queue that matches, or NULL (mutex held) */
static tdJob* first_match(const tdSchedQueue* q, int what) {
  for (tdJob* j = q->head; j; j = j->qnext) {
    if (matches(j, what)) {
      return j;
    }
  }
  return NULL;
}

/* the job to take from: in the runnable queue with the fewest running chunks (ring order
 * breaks ties), its first job that matches; NULL when there is none (mutex held) */
static tdJob* pick_from(tdScheduler* s, int what) {
  tdJob* best = NULL;
  int fewest = 0;
  for (tdSchedQueue* q = s->rhead; q; q = q->rnext) {
    if (q->blocked || (best && q->running >= fewest)) {
      continue;
    }
    tdJob* j = first_match(q, what);
    if (j) {
      best = j;
      fewest = q->running;
    }
  }
  return best;
}

/* latency work first (the express worker: then other light work; the others: then anything),
 * except that after latency_burst latency chunks in a row a waiting bulk chunk goes first
 * (mutex held) */
static tdJob* pick(tdScheduler* s, int light_only) {
  tdJob* job = NULL;
  int bulk_turn = !light_only && s->latency_streak >= s->latency_burst;
  if (bulk_turn) {
    job = pick_from(s, TAKE_BULK);
  }
  if (!job && s->latency_queued > 0) {
    job = pick_from(s, TAKE_LATENCY);
    if (job && light_only && !job->light) {
      job = NULL;  // latency_work_us above the light bound: not for the express worker
    }
  }
  if (!job) {
    job = pick_from(s, light_only ? TAKE_LIGHT : TAKE_ANY);
  }
  return job;
}

/* a waiting latency chunk no idle worker is about to take, or a runnable client with work
 * queued and nothing running while `sq` runs (mutex held) */
static int someone_waits(tdScheduler* s, const tdSchedQueue* sq) {
  if (s->latency_queued > 0 && s->nwaiting == 0) {
    return 1;
  }
  for (tdSchedQueue* q = s->rhead; q; q = q->rnext) {
    if (q != sq && !q->blocked && q->running == 0 && q->head) {
      return s->nwaiting_full == 0;
    }
  }
  return 0;
}

/* should a running chunk go back to the queue at its slice boundary */
int td_sched_should_yield(tdScheduler* s, tdJob* job, int always) {
  if (always) {
    return 1;
  }
  pthread_mutex_lock(&s->mu);
  int yield = someone_waits(s, job->sq);
  pthread_mutex_unlock(&s->mu);
  return yield;
}

/* a started chunk waits for its next slice: it joins the job's resume ring (first taken) */
int td_sched_requeue(tdScheduler* s, tdJob* job, int chunk) {
  pthread_mutex_lock(&s->mu);
  s->running--;
  job->sq->running--;
  job->running--;
  if (job->model) {
    job->model->running_chunks--;
  }
  // a failing job has withdrawn its chunks already (its cancel flag is set first)
  if (atomic_load(&job->cancel)) {
    pthread_mutex_unlock(&s->mu);
    return -1;
  }
  job->resume[(job->resume_head + job->nresume) % job->nchunks] = chunk;
  job->nresume++;
  if (!job->queued) {
    append(s, job);
  }
  count_queued(s, job, 1);
  wake_workers(s);
  pthread_mutex_unlock(&s->mu);
  return 0;
}

/* take the next chunk of the picked job; rotate the job and its client */
int td_sched_take(tdScheduler* s, tdJob** out, int* chunk, int light_only) {
  pthread_mutex_lock(&s->mu);
  tdJob* job;
  int polled = 0;
  while (!(job = pick(s, light_only)) && !s->stop) {
    // idle (counted as waiting while it polls too): poll, again after every change that
    // brought nothing for this worker; sleep once TD_POLL_NS pass without any change
    s->nwaiting++;
    s->nwaiting_full += !light_only;
    if (!polled) {
      unsigned long seen = atomic_load_explicit(&s->wakes, memory_order_relaxed);
      pthread_mutex_unlock(&s->mu);
      polled = !tn_pollChange(&s->wakes, seen, TD_POLL_NS);
      pthread_mutex_lock(&s->mu);
    } else {
      pthread_cond_wait(&s->cv, &s->mu);
    }
    s->nwaiting--;
    s->nwaiting_full -= !light_only;
  }
  if (s->stop) {
    pthread_mutex_unlock(&s->mu);
    return -1;
  }
  tdSchedQueue* q = job->sq;
  *out = job;

  // a started chunk's next slice before a new chunk (frames keep their order)
  if (job->nresume > 0) {
    *chunk = job->resume[job->resume_head];
    job->resume_head = (job->resume_head + 1) % job->nchunks;
    job->nresume--;
  } else {
    *chunk = job->next_chunk++;
  }

  // the job goes to the tail of its client's queue, the client to the tail of the ring
  unlink_job(s, job);
  if (untaken(job) > 0) {
    append(s, job);
  }
  if (q->inring) {
    ring_unlink(s, q);
    ring_append(s, q);
  }
  s->latency_streak = job->latency ? s->latency_streak + 1 : 0;
  count_queued(s, job, -1);
  s->running++;
  q->running++;
  job->running++;
  if (job->model) {
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

/* withdraw a job's untaken chunks, new or waiting to resume (a job is queued exactly while it
 * has untaken chunks) */
int td_sched_remove(tdScheduler* s, tdJob* job) {
  pthread_mutex_lock(&s->mu);
  int n = 0;
  if (job->queued) {
    n = untaken(job);
    unlink_job(s, job);
    count_queued(s, job, -n);
    job->next_chunk = job->nchunks;
    job->nresume = 0;
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
    wake_workers(s);
  }
  pthread_mutex_unlock(&s->mu);
}

/* stop every worker */
void td_sched_stop(tdScheduler* s) {
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  wake_workers(s);
  pthread_mutex_unlock(&s->mu);
}

/* counts for Stats/Health */
void td_sched_counts(tdScheduler* s, uint64_t* queued, int* running) {
  pthread_mutex_lock(&s->mu);
  *queued = s->queued_chunks;
  *running = s->running;
  pthread_mutex_unlock(&s->mu);
}
