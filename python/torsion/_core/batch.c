/* _core/batch.c — Batch: n environments (one mjData each) of one model, stepped, reset and
 * read in C loops over worker threads (pool.h) with the GIL released; the engine side of
 * torsion.batch.SimBatch. Steps go to groups of four environments stepping in lockstep
 * (tn_stepGroup: the same numbers as one by one, some stages computed for all four at
 * once), one group step at a time per thread: a thread steps its own groups in turn and,
 * out of work, takes over another thread's idle group, so the threads finish together. An
 * engine error in a group puts its environments back and steps each alone under its own
 * tn_run, so the failing environment is reset and raised as torsion.FatalError after the
 * loop, without touching the others. A readout (Batch._readout) names fixed
 * mjData arrays that every reset and step copies, right after each environment's work and
 * on the thread that did it, into one [n, ...] array per field. */
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "core.h"
#include "pool.h"

/* environments stepped in lockstep per group (tn_stepGroup computes some stages for the
 * whole group at once) */
#define GROUP 4

/* A group within a stepping call: its environments, what is kept to put them back after an
 * engine error, and where its steps stand. busy, done and owner are shared by the call's
 * threads: a thread takes one step of a group at a time, holding busy. */
typedef struct groupState_ {
  atomic_int busy;  /* a thread is taking one of the group's steps */
  atomic_int done;  /* steps taken; nstep once finished (or stepped one by one after an error) */
  atomic_int owner; /* the thread the group belongs to: the last that stepped it */
  int n;            /* environments (up to GROUP) */
  ptrdiff_t j0;     /* position of the first in the call's lists (ids, ctrl) */
  int env[GROUP];
  mjData* d[GROUP];
  size_t pstack[GROUP], pbase[GROUP];
  mjWarningStat warning[GROUP][mjNWARNING];
} groupState;

/* the batch */
typedef struct tnpyBatch_ {
  PyObject_HEAD tnpyModel* model;
  int n;
  int nthread;
  mjData** datas;
  mjtNum* saved;      /* each environment's integration state, kept while it steps in a group */
  int nsaved;         /* numbers per saved state */
  groupState* groups; /* the groups of a stepping call, (n + GROUP - 1) / GROUP */
  atomic_int in_call; /* a step or reset is running (another thread's call is refused) */
  int nread;          /* readout fields */
  int* read_index;    /* each field's table index (-1: time) */
  Py_buffer* read_out; /* each field's [n * field bytes] destination, held */
} tnpyBatch;

/* copy the readout fields of environment env into their rows */
static void gather_readout(const tnpyBatch* b, int env) {
  const mjModel* m = b->model->m;
  mjData* d = b->datas[env];
  for (int f = 0; f < b->nread; f++) {
    void* src = &d->time;
    size_t nbytes = sizeof(mjtNum);
    if (b->read_index[f] >= 0) {
      tnpy_data_field(m, d, b->read_index[f], &src, &nbytes);
    }
    memcpy((char*)b->read_out[f].buf + (size_t)env * nbytes, src, nbytes);
  }
}

/* drop the readout (its buffers released) */
static void clear_readout(tnpyBatch* b) {
  for (int f = 0; f < b->nread; f++) {
    PyBuffer_Release(&b->read_out[f]);
  }
  PyMem_Free(b->read_out);
  PyMem_Free(b->read_index);
  b->read_out = NULL;
  b->read_index = NULL;
  b->nread = 0;
}

/* the first failure of a loop */
typedef struct failure_ {
  int env;
  char error[512];
} failure;

/* one environment's work inside a loop */
typedef struct envWork_ {
  const mjModel* m;
  mjData* d;
  int nstep;
  const mjtNum* ctrl;
  const mjtNum* qpos;
  const mjtNum* qvel;
  int reset;
  int rne_post; /* after the steps: mj_rnePostConstraint */
} envWork;

/* reset and/or step one environment */
static void env_run(void* p) {
  envWork* w = p;
  const mjModel* m = w->m;
  mjData* d = w->d;
  if (w->reset) {
    mj_resetData(m, d);
    if (w->qpos) {
      memcpy(d->qpos, w->qpos, sizeof(mjtNum) * m->nq);
    }
    if (w->qvel) {
      memcpy(d->qvel, w->qvel, sizeof(mjtNum) * m->nv);
    }
    mj_forward(m, d);
    return;
  }
  if (w->ctrl && m->nu) {
    memcpy(d->ctrl, w->ctrl, sizeof(mjtNum) * m->nu);
  }
  for (int k = 0; k < w->nstep; k++) {
    mj_step(m, d);
  }
  if (w->rne_post) {
    mj_rnePostConstraint(m, d);
  }
}

/* Batch(model, n, nthread) */
static PyObject* batch_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
  static char* kwlist[] = {"model", "n", "nthread", NULL};
  PyObject* model;
  int n, nthread = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!i|i", kwlist, &tnpy_ModelType, &model, &n,
                                   &nthread)) {
    return NULL;
  }
  tnpyModel* mo = (tnpyModel*)model;
  if (!mo->m) {
    PyErr_SetString(PyExc_ValueError, "model is not loaded");
    return NULL;
  }
  if (n < 1) {
    PyErr_SetString(PyExc_ValueError, "n must be at least 1");
    return NULL;
  }
  if (nthread < 0) {
    PyErr_SetString(PyExc_ValueError, "nthread must be positive");
    return NULL;
  }
  tnpyBatch* self = (tnpyBatch*)type->tp_alloc(type, 0);
  if (!self) {
    return NULL;
  }
  self->datas = PyMem_Calloc((size_t)n, sizeof(mjData*));
  if (!self->datas) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  Py_INCREF(model);
  self->model = mo;
  self->n = n;
  self->nthread = nthread ? nthread : omp_get_max_threads();
  if (self->nthread > n) {
    self->nthread = n;
  }
  self->nsaved = mj_stateSize(mo->m, mjSTATE_INTEGRATION);
  size_t nsaved = (size_t)(self->nsaved ? self->nsaved : 1);
  self->saved = PyMem_Malloc(sizeof(mjtNum) * (size_t)n * nsaved);
  self->groups = PyMem_Calloc((size_t)(n + GROUP - 1) / GROUP, sizeof(groupState));
  if (!self->saved || !self->groups) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  for (int i = 0; i < n; i++) {
    self->datas[i] = mj_makeData(mo->m);
    if (!self->datas[i]) {
      Py_DECREF(self);
      PyErr_SetString(PyExc_MemoryError, "mj_makeData failed");
      return NULL;
    }
  }
  return (PyObject*)self;
}

/* free every environment */
static void batch_dealloc(PyObject* self) {
  tnpyBatch* b = (tnpyBatch*)self;
  clear_readout(b);
  if (b->datas) {
    for (int i = 0; i < b->n; i++) {
      mj_deleteData(b->datas[i]);
    }
    PyMem_Free(b->datas);
  }
  PyMem_Free(b->saved);
  PyMem_Free(b->groups);
  Py_CLEAR(b->model);
  Py_TYPE(self)->tp_free(self);
}

/* env ids from an int32 buffer (None: all n), with `unique` each at most once; returns the
 * count or -1 */
static Py_ssize_t take_ids(tnpyBatch* b, PyObject* obj, Py_buffer* buf, const int** ids,
                           int unique) {
  memset(buf, 0, sizeof(*buf));
  *ids = NULL;
  if (obj == Py_None) {
    return b->n;
  }
  if (PyObject_GetBuffer(obj, buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
    return -1;
  }
  if (buf->itemsize != 4 || !buf->format ||
      strchr("iIl", buf->format[strlen(buf->format) - 1]) == NULL) {
    PyBuffer_Release(buf);
    PyErr_SetString(PyExc_TypeError, "env_ids must be int32");
    return -1;
  }
  Py_ssize_t k = buf->len / 4;
  const int* p = buf->buf;
  for (Py_ssize_t j = 0; j < k; j++) {
    if (p[j] < 0 || p[j] >= b->n) {
      PyBuffer_Release(buf);
      PyErr_Format(PyExc_KeyError, "env id %d out of range [0, %d)", p[j], b->n);
      return -1;
    }
  }

  // for steps and resets, each environment at most once (two items on one mjData would
  // race, or in one group step it twice at once)
  if (!unique) {
    *ids = p;
    return k;
  }
  char* seen = PyMem_Calloc((size_t)b->n, 1);
  if (!seen) {
    PyBuffer_Release(buf);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t j = 0; j < k; j++) {
    if (seen[p[j]]) {
      PyMem_Free(seen);
      PyBuffer_Release(buf);
      PyErr_Format(PyExc_ValueError, "env id %d is listed twice", p[j]);
      return -1;
    }
    seen[p[j]] = 1;
  }
  PyMem_Free(seen);
  *ids = p;
  return k;
}

/* the environments a call resets: ids[j] to qpos row j and qvel row j (either NULL: the
 * model's defaults) */
typedef struct resetList_ {
  const int* ids;
  ptrdiff_t k;
  const mjtNum *qpos, *qvel;
} resetList;

/* one loop's inputs and its first failure (lock: the failure's) */
typedef struct runCtx_ {
  tnpyBatch* b;
  const int* ids;
  ptrdiff_t k;
  int nstep, reset, rne_post;
  int ngroup; /* stepping: groups of GROUP environments (b->groups) */
  const mjtNum *ctrl, *qpos, *qvel;
  resetList resets;       /* stepping: other environments reset in the same pass */
  atomic_long next_reset; /* the next of them for a thread to take */
  failure fail;
  pthread_mutex_t lock;
} runCtx;

/* environment env's work w under its own tn_run; a failed environment is reset and the
 * lowest failing one kept */
static void run_work(runCtx* c, int env, envWork* w) {
  const mjModel* m = c->b->model->m;
  char error[512];
  if (tn_run(w->d, env_run, w, error, sizeof(error))) {
    mj_resetData(m, w->d);
    pthread_mutex_lock(&c->lock);
    if (c->fail.env < 0 || env < c->fail.env) {
      c->fail.env = env;
      memcpy(c->fail.error, error, sizeof(error));
    }
    pthread_mutex_unlock(&c->lock);
  }
  gather_readout(c->b, env);
}

/* environment env's work as item j of the call's lists */
static void run_env(runCtx* c, int env, ptrdiff_t j) {
  const mjModel* m = c->b->model->m;
  envWork w = {m,
               c->b->datas[env],
               c->nstep,
               c->ctrl ? c->ctrl + (size_t)j * m->nu : NULL,
               c->qpos ? c->qpos + (size_t)j * m->nq : NULL,
               c->qvel ? c->qvel + (size_t)j * m->nv : NULL,
               c->reset,
               c->rne_post};
  run_work(c, env, &w);
}

/* the stepping call's next reset, when one is left: 1 if one was run */
static int run_next_reset(runCtx* c) {
  const resetList* r = &c->resets;
  ptrdiff_t j = (ptrdiff_t)atomic_fetch_add(&c->next_reset, 1);
  if (j >= r->k) {
    return 0;
  }
  const mjModel* m = c->b->model->m;
  int env = r->ids[j];
  envWork w = {m,
               c->b->datas[env],
               0,
               NULL,
               r->qpos ? r->qpos + (size_t)j * m->nq : NULL,
               r->qvel ? r->qvel + (size_t)j * m->nv : NULL,
               1,
               0};
  run_work(c, env, &w);
  return 1;
}

/* item j of a loop: environment ids[j] (or j); past the k listed, the call's resets */
static void run_one(void* p, ptrdiff_t j, int thread) {
  (void)thread;
  runCtx* c = p;
  if (j >= c->k) {
    run_next_reset(c);
    return;
  }
  run_env(c, c->ids ? c->ids[j] : (int)j, j);
}

/* own groups a thread steps in turn, one step each, so that at the end of a call the
 * groups still stepping belong to different threads and an idle thread can take over one
 * of them (a group's steps are a chain: one thread at a time) */
#define WINDOW 2

/* one step of a group under tn_run; after the last, mj_rnePostConstraint when asked */
typedef struct groupStep_ {
  const mjModel* m;
  groupState* s;
  int last, rne_post;
} groupStep;

/* tn_run body: one lockstep step of the group's datas */
static void group_step(void* p) {
  groupStep* w = p;
  tn_stepGroup(w->m, w->s->d, w->s->n);
  if (w->last && w->rne_post) {
    for (int i = 0; i < w->s->n; i++) {
      mj_rnePostConstraint(w->m, w->s->d[i]);
    }
  }
}

/* before a group's first step: its controls set, then each environment's integration state
 * (and warning counts, arena marks) kept */
static void group_begin(runCtx* c, groupState* s) {
  tnpyBatch* b = c->b;
  const mjModel* m = b->model->m;
  for (int i = 0; i < s->n; i++) {
    mjData* d = s->d[i];
    if (c->ctrl && m->nu) {
      memcpy(d->ctrl, c->ctrl + (size_t)(s->j0 + i) * m->nu, sizeof(mjtNum) * m->nu);
    }
    mj_getState(m, d, b->saved + (size_t)s->env[i] * b->nsaved, mjSTATE_INTEGRATION);
    memcpy(s->warning[i], d->warning, sizeof(d->warning));
    s->pstack[i] = d->pstack;
    s->pbase[i] = d->pbase;
  }
}

/* the group's next step (the caller holds busy). When an engine error stops it, each
 * environment is put back (its arena too) and stepped alone from its kept state, so the
 * failing environment is found and reset and the others end as if stepped alone. */
static void group_advance(runCtx* c, groupState* s) {
  tnpyBatch* b = c->b;
  const mjModel* m = b->model->m;
  int done = atomic_load(&s->done);
  if (done == 0) {
    group_begin(c, s);
  }
  groupStep w = {m, s, done + 1 == c->nstep, c->rne_post};
  if (tn_run(s->d[0], group_step, &w, NULL, 0)) {
    for (int i = 0; i < s->n; i++) {
      mjData* d = s->d[i];
      d->pstack = s->pstack[i];
      d->pbase = s->pbase[i];
      d->parena = 0;
      d->nefc = d->nJ = d->nA = 0;
      mj_setState(m, d, b->saved + (size_t)s->env[i] * b->nsaved, mjSTATE_INTEGRATION);
      memcpy(d->warning, s->warning[i], sizeof(d->warning));
      run_env(c, s->env[i], s->j0 + i);
    }
    atomic_store(&s->done, c->nstep);
    return;
  }
  atomic_store(&s->done, done + 1);
  if (w.last) {
    for (int i = 0; i < s->n; i++) {
      gather_readout(b, s->env[i]);
    }
  }
}

/* take group s for thread t: 1 if it is now t's to step (busy held, steps left) */
static int take_group(runCtx* c, groupState* s, int t) {
  int idle = 0;
  if (!atomic_compare_exchange_strong(&s->busy, &idle, 1)) {
    return 0;
  }
  if (atomic_load(&s->done) >= c->nstep) {
    atomic_store(&s->busy, 0);
    return 0;
  }
  atomic_store(&s->owner, t);
  return 1;
}

/* the group thread t steps next (busy held), NULL when none is left to it: its own started
 * group with the fewest steps, or a new own group while fewer than WINDOW are started;
 * else another thread's idle group with the most steps left */
static groupState* pick_group(runCtx* c, int t) {
  groupState* groups = c->b->groups;
  for (;;) {
    groupState *fewest = NULL, *fresh = NULL, *most = NULL;
    int started = 0, fewest_done = c->nstep, most_left = 0;
    for (int g = 0; g < c->ngroup; g++) {
      groupState* s = groups + g;
      int done = atomic_load(&s->done);
      if (done >= c->nstep) {
        continue;
      }
      if (atomic_load(&s->owner) == t) {
        if (done == 0) {
          fresh = fresh ? fresh : s;
        } else {
          started++;
          if (done < fewest_done) {
            fewest = s;
            fewest_done = done;
          }
        }
      } else if (c->nstep - done > most_left && !atomic_load(&s->busy)) {
        most = s;
        most_left = c->nstep - done;
      }
    }
    groupState* own = fresh && (started < WINDOW || !fewest) ? fresh : fewest;
    groupState* pick = own ? own : most;
    if (!pick) {
      return NULL;
    }
    if (take_group(c, pick, t)) {
      return pick;
    }
  }
}

/* item t of a stepping loop: thread t's share, taken one group step at a time; group g
 * belongs at first to thread g % nthread, an idle thread takes over others' groups. The
 * call's resets fill the time a thread has no group step to take (its own groups finished,
 * the others' busy); it leaves when neither is left. */
static void run_groups(void* p, ptrdiff_t t, int thread) {
  (void)thread;
  runCtx* c = p;
  for (;;) {
    groupState* s = pick_group(c, (int)t);
    if (s) {
      group_advance(c, s);
      atomic_store(&s->busy, 0);
    } else if (!run_next_reset(c)) {
      return;
    }
  }
}

/* the groups of a stepping call, each GROUP consecutive environments of the call's list */
static void init_groups(runCtx* c, int nthread) {
  tnpyBatch* b = c->b;
  for (int g = 0; g < c->ngroup; g++) {
    groupState* s = b->groups + g;
    atomic_store(&s->busy, 0);
    atomic_store(&s->done, 0);
    atomic_store(&s->owner, g % nthread);
    s->j0 = (ptrdiff_t)g * GROUP;
    s->n = 0;
    for (ptrdiff_t j = s->j0; j < c->k && j < s->j0 + GROUP; j++, s->n++) {
      int e = s->env[s->n] = c->ids ? c->ids[j] : (int)j;
      s->d[s->n] = b->datas[e];
    }
  }
}

/* run the work for k environments over the batch's threads (pool.h: resets handed out one
 * environment at a time, steps one group step at a time (run_groups); workers asleep
 * between calls, the caller never), and `resets` (NULL: none) of other environments as
 * further items of the same pass; raise on the first failure. A second call on the same
 * batch while one runs (from another Python thread) is refused. */
static int run_envs(tnpyBatch* b, const int* ids, Py_ssize_t k, int nstep, int reset,
                    int rne_post, const mjtNum* ctrl, const mjtNum* qpos, const mjtNum* qvel,
                    const resetList* resets) {
  runCtx c = {.b = b, .ids = ids, .k = k, .nstep = nstep, .reset = reset, .rne_post = rne_post,
              .ctrl = ctrl, .qpos = qpos, .qvel = qvel, .fail = {-1, {0}}};
  if (resets) {
    c.resets = *resets;
  }
  atomic_init(&c.next_reset, 0);
  int idle = 0;
  if (!atomic_compare_exchange_strong(&b->in_call, &idle, 1)) {
    PyErr_SetString(PyExc_RuntimeError, "the batch is being stepped or reset by another "
                                        "thread; calls on one batch must not overlap");
    return -1;
  }
  pthread_mutex_init(&c.lock, NULL);
  Py_BEGIN_ALLOW_THREADS;
  if (reset || nstep == 0) {
    tnpy_poolRun(b->nthread, (ptrdiff_t)k + c.resets.k, 1, run_one, &c);
  } else {
    c.ngroup = (int)(((ptrdiff_t)k + GROUP - 1) / GROUP);
    ptrdiff_t units = c.ngroup + c.resets.k;
    int nthread = b->nthread < units ? b->nthread : (int)units;
    init_groups(&c, nthread);
    tnpy_poolRun(nthread, nthread, 1, run_groups, &c);
  }
  Py_END_ALLOW_THREADS;
  pthread_mutex_destroy(&c.lock);
  atomic_store(&b->in_call, 0);
  if (c.fail.env >= 0) {
    PyErr_Format(tnpy_FatalError, "env %d: %s (the environment was reset)", c.fail.env,
                 c.fail.error);
    return -1;
  }
  return 0;
}

/* 1 if no environment is in both lists (ids NULL: all na = n), else 0 with ValueError
 * (a call that steps and resets one environment would race on its mjData) */
static int disjoint(const tnpyBatch* b, const int* ids, Py_ssize_t na, const int* rids,
                    Py_ssize_t nr) {
  char* stepped = PyMem_Calloc((size_t)b->n, 1);
  if (!stepped) {
    PyErr_NoMemory();
    return 0;
  }
  for (Py_ssize_t j = 0; j < na; j++) {
    stepped[ids ? ids[j] : (int)j] = 1;
  }
  int ok = 1;
  for (Py_ssize_t i = 0; i < nr && ok; i++) {
    if (stepped[rids[i]]) {
      PyErr_Format(PyExc_ValueError, "env id %d is both stepped and reset", rids[i]);
      ok = 0;
    }
  }
  PyMem_Free(stepped);
  return ok;
}

/* Batch._step(ctrl, nstep, env_ids, rne_post, reset_ids, reset_qpos, reset_qvel): ctrl None
 * or [k*nu] float64; the environments reset_ids (int32, none of env_ids) are reset to their
 * qpos/qvel rows (None: the defaults) in the same pass over the threads */
static PyObject* batch_step(PyObject* self, PyObject* args) {
  tnpyBatch* b = (tnpyBatch*)self;
  PyObject *ctrl, *idobj, *ridobj = Py_None, *rqpos = Py_None, *rqvel = Py_None;
  int nstep, rne_post = 0;
  if (!PyArg_ParseTuple(args, "OiO|pOOO", &ctrl, &nstep, &idobj, &rne_post, &ridobj, &rqpos,
                        &rqvel)) {
    return NULL;
  }
  if (nstep < 0) {
    PyErr_SetString(PyExc_ValueError, "nstep must be non-negative");
    return NULL;
  }
  Py_buffer ib, cb, rb, qb, vb;
  memset(&rb, 0, sizeof(rb));
  memset(&qb, 0, sizeof(qb));
  memset(&vb, 0, sizeof(vb));
  const int *ids, *rids = NULL;
  Py_ssize_t k = take_ids(b, idobj, &ib, &ids, 1);
  if (k < 0) {
    return NULL;
  }
  const mjModel* m = b->model->m;
  if (tnpy_numbuf(ctrl, &cb, k * m->nu, 0, 1, "ctrl") < 0) {
    tnpy_release(&ib);
    return NULL;
  }
  resetList resets = {NULL, 0, NULL, NULL};
  int rc = -1;
  if (ridobj != Py_None) {
    Py_ssize_t nr = take_ids(b, ridobj, &rb, &rids, 1);
    if (nr < 0 || !disjoint(b, ids, k, rids, nr) ||
        tnpy_numbuf(rqpos, &qb, nr * m->nq, 0, 1, "reset_qpos") < 0 ||
        tnpy_numbuf(rqvel, &vb, nr * m->nv, 0, 1, "reset_qvel") < 0) {
      goto done;
    }
    resets = (resetList){rids, nr, qb.buf, vb.buf};
  }
  rc = run_envs(b, ids, k, nstep, 0, rne_post, cb.buf, NULL, NULL, &resets);
done:
  tnpy_release(&vb);
  tnpy_release(&qb);
  tnpy_release(&rb);
  tnpy_release(&cb);
  tnpy_release(&ib);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* Batch._reset(env_ids, qpos, qvel): qpos None or [k*nq], qvel None or [k*nv] */
static PyObject* batch_reset(PyObject* self, PyObject* args) {
  tnpyBatch* b = (tnpyBatch*)self;
  PyObject *idobj, *qpos, *qvel;
  if (!PyArg_ParseTuple(args, "OOO", &idobj, &qpos, &qvel)) {
    return NULL;
  }
  Py_buffer ib, qb, vb;
  const int* ids;
  Py_ssize_t k = take_ids(b, idobj, &ib, &ids, 1);
  if (k < 0) {
    return NULL;
  }
  const mjModel* m = b->model->m;
  if (tnpy_numbuf(qpos, &qb, k * m->nq, 0, 1, "qpos") < 0) {
    tnpy_release(&ib);
    return NULL;
  }
  if (tnpy_numbuf(qvel, &vb, k * m->nv, 0, 1, "qvel") < 0) {
    tnpy_release(&qb);
    tnpy_release(&ib);
    return NULL;
  }
  int rc = run_envs(b, ids, k, 0, 1, 0, NULL, qb.buf, vb.buf, NULL);
  tnpy_release(&vb);
  tnpy_release(&qb);
  tnpy_release(&ib);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* Batch._get(field_indices, env_ids, outs): copy fixed data arrays (by table index) of the
 * listed environments into outs[f] (writable, [k * field size] bytes each); index -1 is
 * time. */
static PyObject* batch_get(PyObject* self, PyObject* args) {
  tnpyBatch* b = (tnpyBatch*)self;
  PyObject *fields, *idobj, *outs;
  if (!PyArg_ParseTuple(args, "O!OO!", &PyList_Type, &fields, &idobj, &PyList_Type, &outs)) {
    return NULL;
  }
  Py_ssize_t nf = PyList_GET_SIZE(fields);
  if (PyList_GET_SIZE(outs) != nf) {
    PyErr_SetString(PyExc_ValueError, "one output per field");
    return NULL;
  }
  Py_buffer ib;
  const int* ids;
  Py_ssize_t k = take_ids(b, idobj, &ib, &ids, 0);
  if (k < 0) {
    return NULL;
  }
  const mjModel* m = b->model->m;
  for (Py_ssize_t f = 0; f < nf; f++) {
    int index = (int)PyLong_AsLong(PyList_GET_ITEM(fields, f));
    if (PyErr_Occurred()) {
      tnpy_release(&ib);
      return NULL;
    }
    void* src;
    size_t nbytes = sizeof(mjtNum);
    if (index >= 0 && tnpy_data_field(m, b->datas[0], index, &src, &nbytes) < 0) {
      tnpy_release(&ib);
      PyErr_SetString(PyExc_IndexError, "data field index out of range");
      return NULL;
    }
    Py_buffer ob;
    if (PyObject_GetBuffer(PyList_GET_ITEM(outs, f), &ob, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) <
        0) {
      tnpy_release(&ib);
      return NULL;
    }
    if ((size_t)ob.len != nbytes * (size_t)k) {
      PyBuffer_Release(&ob);
      tnpy_release(&ib);
      PyErr_SetString(PyExc_ValueError, "output has the wrong size");
      return NULL;
    }
    char* dst = ob.buf;
    Py_BEGIN_ALLOW_THREADS for (Py_ssize_t j = 0; j < k; j++) {
      mjData* d = b->datas[ids ? ids[j] : (int)j];
      if (index < 0) {
        memcpy(dst + (size_t)j * nbytes, &d->time, nbytes);
      } else {
        tnpy_data_field(m, d, index, &src, &nbytes);
        memcpy(dst + (size_t)j * nbytes, src, nbytes);
      }
    }
    Py_END_ALLOW_THREADS PyBuffer_Release(&ob);
  }
  tnpy_release(&ib);
  Py_RETURN_NONE;
}

/* Batch._readout(field_indices, outs): from now on every reset and step copies these fixed
 * data arrays (by table index, -1: time) of each environment it runs into row env of
 * outs[f] (writable, [n * field size] bytes each, held until replaced); every row is
 * filled now. Empty lists stop the readout. */
static PyObject* batch_readout(PyObject* self, PyObject* args) {
  tnpyBatch* b = (tnpyBatch*)self;
  PyObject *fields, *outs;
  if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &fields, &PyList_Type, &outs)) {
    return NULL;
  }
  Py_ssize_t nf = PyList_GET_SIZE(fields);
  if (PyList_GET_SIZE(outs) != nf) {
    PyErr_SetString(PyExc_ValueError, "one output per field");
    return NULL;
  }
  int* index = PyMem_Calloc((size_t)nf + 1, sizeof(int));
  Py_buffer* out = PyMem_Calloc((size_t)nf + 1, sizeof(Py_buffer));
  if (!index || !out) {
    PyMem_Free(index);
    PyMem_Free(out);
    return PyErr_NoMemory();
  }
  const mjModel* m = b->model->m;
  Py_ssize_t held = 0;
  for (; held < nf; held++) {
    index[held] = (int)PyLong_AsLong(PyList_GET_ITEM(fields, held));
    if (PyErr_Occurred()) {
      break;
    }
    void* src;
    size_t nbytes = sizeof(mjtNum);
    if (index[held] >= 0 && tnpy_data_field(m, b->datas[0], index[held], &src, &nbytes) < 0) {
      PyErr_SetString(PyExc_IndexError, "data field index out of range");
      break;
    }
    if (PyObject_GetBuffer(PyList_GET_ITEM(outs, held), &out[held],
                           PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
      break;
    }
    if ((size_t)out[held].len != nbytes * (size_t)b->n) {
      PyBuffer_Release(&out[held]);
      PyErr_SetString(PyExc_ValueError, "output has the wrong size");
      break;
    }
  }
  if (held < nf) {
    for (Py_ssize_t f = 0; f < held; f++) {
      PyBuffer_Release(&out[f]);
    }
    PyMem_Free(index);
    PyMem_Free(out);
    return NULL;
  }
  clear_readout(b);
  b->nread = (int)nf;
  b->read_index = index;
  b->read_out = out;
  for (int env = 0; env < b->n; env++) {
    gather_readout(b, env);
  }
  Py_RETURN_NONE;
}

/* Batch._data(i, cls) -> a Data object (of class cls) over environment i */
static PyObject* batch_data(PyObject* self, PyObject* args) {
  tnpyBatch* b = (tnpyBatch*)self;
  int i;
  PyObject* cls;
  if (!PyArg_ParseTuple(args, "iO!", &i, &PyType_Type, &cls)) {
    return NULL;
  }
  if (!PyType_IsSubtype((PyTypeObject*)cls, &tnpy_DataType)) {
    PyErr_SetString(PyExc_TypeError, "cls must be a Data type");
    return NULL;
  }
  if (i < 0 || i >= b->n) {
    PyErr_Format(PyExc_KeyError, "env id %d out of range [0, %d)", i, b->n);
    return NULL;
  }
  return tnpy_data_borrowed((PyTypeObject*)cls, b->model, b->datas[i], self);
}

/* read-only attributes */
static PyObject* batch_get_n(PyObject* self, void* closure) {
  (void)closure;
  return PyLong_FromLong(((tnpyBatch*)self)->n);
}
static PyObject* batch_get_nthread(PyObject* self, void* closure) {
  (void)closure;
  return PyLong_FromLong(((tnpyBatch*)self)->nthread);
}

static PyGetSetDef batch_getset[] = {
    {"n", batch_get_n, NULL, "number of environments", NULL},
    {"nthread", batch_get_nthread, NULL, "threads used by the loops", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef batch_methods[] = {
    {"_step", batch_step, METH_VARARGS, "Set controls and step the listed environments."},
    {"_reset", batch_reset, METH_VARARGS, "Reset, set qpos/qvel, forward."},
    {"_get", batch_get, METH_VARARGS, "Copy data arrays of the listed environments."},
    {"_readout", batch_readout, METH_VARARGS, "Data arrays copied after every reset/step."},
    {"_data", batch_data, METH_VARARGS, "Data view of one environment."},
    {NULL, NULL, 0, NULL}};

PyTypeObject tnpy_BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torsion._core.Batch",
    .tp_basicsize = sizeof(tnpyBatch),
    .tp_dealloc = batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "n environments of one model, stepped in C over OpenMP threads.",
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
    .tp_new = batch_new,
};
