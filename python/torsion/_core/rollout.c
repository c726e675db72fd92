/* _core/rollout.c — the loop behind torsion.rollout: nbatch open-loop rollouts with
 * mujoco.rollout's semantics, each item on the engine's per-item path (tn_rolloutItem,
 * which applies control rows of any mjSTATE_USER components and an initial warmstart),
 * spread over the worker threads of pool.h (thread i uses datas[i]) with the GIL released.
 * With the Euler or RK4 integrator, items of one model go in groups of four, stepped
 * together (tn_rolloutGroup, same bits as alone) on the thread's MjData and three made for
 * the call; after an engine error in a group, each of its items runs again alone. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pool.h"

/* the shared inputs of one rollout call */
typedef struct rolloutJob_ {
  const mjModel** models;
  mjData** datas;
  int nbatch, nstep;
  int control_spec;
  const mjtNum *state0, *warmstart0, *control;
  mjtNum *state, *sensordata;
} rolloutJob;

/* one item in flight */
typedef struct itemCtx_ {
  const mjModel* m;
  mjData* d;
  tnRolloutItem item;
} itemCtx;

/* tn_rolloutItem on an item */
static void item_fn(void* arg) {
  itemCtx* c = arg;
  tn_rolloutItem(c->m, c->d, &c->item);
}

/* the engine's description of rollout r */
static void item_of(const rolloutJob* job, int r, tnRolloutItem* item) {
  const mjModel* m = job->models[r];
  int nphys = mj_stateSize(m, mjSTATE_FULLPHYSICS);
  int nsens = m->nsensordata, nstep = job->nstep;
  int ncontrol = mj_stateSize(m, job->control_spec);
  memset(item, 0, sizeof(*item));
  item->spec = mjSTATE_FULLPHYSICS;
  item->state0 = job->state0 + (size_t)r * nphys;
  item->warmstart0 = job->warmstart0 ? job->warmstart0 + (size_t)r * m->nv : NULL;
  item->ctrl_spec = job->control_spec;
  item->ctrl = job->control && ncontrol ? job->control + (size_t)r * nstep * ncontrol : NULL;
  item->ctrl_nt = nstep;
  item->nstep = nstep;
  item->states = job->state ? job->state + (size_t)r * nstep * nphys : NULL;
  item->sensordata = job->sensordata ? job->sensordata + (size_t)r * nstep * nsens : NULL;
}

/* one rollout r on data d; returns 0 or -1 with the engine's message */
static int run_item(const rolloutJob* job, int r, mjData* d, char* error, int error_sz) {
  itemCtx c;
  c.m = job->models[r];
  c.d = d;
  item_of(job, r, &c.item);
  return tn_run(d, item_fn, &c, error, error_sz) ? -1 : 0;
}

/* rollouts stepped together: a group of items of one model and their datas */
typedef struct groupCtx_ {
  const mjModel* m;
  mjData* d[TN_ROLLOUT_GROUP];
  tnRolloutItem item[TN_ROLLOUT_GROUP];
  tnRolloutItem* items[TN_ROLLOUT_GROUP];
  int rc[TN_ROLLOUT_GROUP];
  int n;
} groupCtx;

/* tn_rolloutGroup on a group */
static void group_fn(void* arg) {
  groupCtx* g = arg;
  tn_rolloutGroup(g->m, g->d, g->items, g->n, g->rc);
}

/* one call's items and the lowest failure (lock: the failure's); with groups, each thread's
 * datas: its own, then TN_ROLLOUT_GROUP - 1 made for the call (extra[thread * 3 + j]) */
typedef struct rolloutRun_ {
  rolloutJob* job;
  mjData** extra;
  int failed;
  char failmsg[512];
  pthread_mutex_t lock;
} rolloutRun;

/* item r on thread `thread`'s MjData */
static void rollout_one(void* p, ptrdiff_t r, int thread) {
  rolloutRun* run = p;
  char error[512] = {0};
  if (run_item(run->job, (int)r, run->job->datas[thread], error, sizeof(error)) < 0) {
    pthread_mutex_lock(&run->lock);
    if (run->failed < 0 || r < run->failed) {
      run->failed = (int)r;
      memcpy(run->failmsg, error, sizeof(error));
    }
    pthread_mutex_unlock(&run->lock);
  }
}

/* group g (items TN_ROLLOUT_GROUP * g on) on thread `thread`'s datas, stepped together when
 * its items share a model; after an engine error, and otherwise, each item alone */
static void rollout_group(void* p, ptrdiff_t g, int thread) {
  rolloutRun* run = p;
  rolloutJob* job = run->job;
  int r0 = (int)g * TN_ROLLOUT_GROUP;
  groupCtx c;
  c.n = job->nbatch - r0 < TN_ROLLOUT_GROUP ? job->nbatch - r0 : TN_ROLLOUT_GROUP;
  c.m = job->models[r0];
  int same = 1;
  for (int i = 0; i < c.n; i++) {
    same &= job->models[r0 + i] == c.m;
    c.d[i] = i ? run->extra[(size_t)thread * (TN_ROLLOUT_GROUP - 1) + i - 1] : job->datas[thread];
    item_of(job, r0 + i, &c.item[i]);
    c.items[i] = &c.item[i];
  }
  if (same && c.n > 1 && !tn_run(c.d[0], group_fn, &c, NULL, 0)) {
    return;
  }
  for (int i = 0; i < c.n; i++) {
    rollout_one(p, r0 + i, thread);
  }
}

/* 1 when rollouts of m step faster in groups (tn_stepGroup groups Euler and RK4 steps) */
static int groups_pay(const mjModel* m, int nbatch) {
  return nbatch >= TN_ROLLOUT_GROUP &&
         (m->opt.integrator == mjINT_EULER || m->opt.integrator == mjINT_RK4);
}

/* rollout(models, datas, nstep, control_spec, state0, warmstart0, control, state,
 *         sensordata, chunk_size): arrays already checked and shaped by torsion.rollout */
static PyObject* py_rollout(PyObject* self, PyObject* args) {
  (void)self;
  PyObject *models, *datas, *s0, *w0, *ctl, *st, *sd;
  int nstep, chunk;
  unsigned int spec;
  if (!PyArg_ParseTuple(args, "O!O!iIOOOOOi", &PyList_Type, &models, &PyList_Type, &datas, &nstep,
                        &spec, &s0, &w0, &ctl, &st, &sd, &chunk)) {
    return NULL;
  }
  Py_ssize_t nbatch = PyList_GET_SIZE(models), nthread = PyList_GET_SIZE(datas);
  if (nthread < 1) {
    PyErr_SetString(PyExc_ValueError, "at least one MjData is required");
    return NULL;
  }
  rolloutJob job;
  memset(&job, 0, sizeof(job));
  job.models = PyMem_Calloc((size_t)(nbatch ? nbatch : 1), sizeof(mjModel*));
  job.datas = PyMem_Calloc((size_t)nthread, sizeof(mjData*));
  if (!job.models || !job.datas) {
    PyMem_Free(job.models);
    PyMem_Free(job.datas);
    return PyErr_NoMemory();
  }
  PyObject* res = NULL;
  Py_buffer b[5];
  int nb = 0;
  const mjModel* m0 = NULL;

  // models and datas: all of one size signature
  for (Py_ssize_t i = 0; i < nbatch; i++) {
    PyObject* mo = PyList_GET_ITEM(models, i);
    if (!PyObject_TypeCheck(mo, &tnpy_ModelType) || !((tnpyModel*)mo)->m) {
      PyErr_SetString(PyExc_TypeError, "model must be MjModel instances");
      goto done;
    }
    job.models[i] = ((tnpyModel*)mo)->m;
  }
  m0 = nbatch ? job.models[0] : NULL;
  for (Py_ssize_t i = 0; i < nthread; i++) {
    PyObject* da = PyList_GET_ITEM(datas, i);
    if (!PyObject_TypeCheck(da, &tnpy_DataType)) {
      PyErr_SetString(PyExc_TypeError, "data must be MjData instances");
      goto done;
    }
    tnpyData* dd = (tnpyData*)da;
    if (m0) {
      tnpyModel tmp;
      tmp.m = (mjModel*)m0;
      if (tnpy_check_pair(&tmp, dd) < 0) {
        goto done;
      }
    }
    job.datas[i] = dd->d;
  }
  if (nstep < 1 || nbatch == 0) {
    res = Py_None;
    Py_INCREF(res);
    goto done;
  }

  // the arrays
  int nphys = mj_stateSize(m0, mjSTATE_FULLPHYSICS);
  int ncontrol = mj_stateSize(m0, (int)spec);
  PyObject* objs[5] = {s0, w0, ctl, st, sd};
  Py_ssize_t sizes[5] = {nbatch * nphys, nbatch * m0->nv, nbatch * nstep * ncontrol,
                         nbatch * nstep * nphys, nbatch * nstep * m0->nsensordata};
  const char* names[5] = {"initial_state", "initial_warmstart", "control", "state", "sensordata"};
  for (; nb < 5; nb++) {
    if (tnpy_numbuf(objs[nb], &b[nb], sizes[nb], nb >= 3, nb > 0, names[nb]) < 0) {
      goto done;
    }
  }
  job.nbatch = (int)nbatch;
  job.nstep = nstep;
  job.control_spec = (int)spec;
  job.state0 = b[0].buf;
  job.warmstart0 = b[1].buf;
  job.control = b[2].buf;
  job.state = b[3].buf;
  job.sensordata = b[4].buf;
  if (chunk < 1) {
    chunk = (int)(nbatch / (nthread * 10));
    chunk = chunk < 1 ? 1 : chunk;
  }

  // the items over the threads (pool.h), each on its thread's MjData, or in groups of
  // TN_ROLLOUT_GROUP on its MjData and datas made for the call (when they can be made);
  // the lowest failed item is reported
  rolloutRun run = {.job = &job, .failed = -1};
  size_t nextra = (size_t)nthread * (TN_ROLLOUT_GROUP - 1);
  if (groups_pay(m0, job.nbatch)) {
    run.extra = PyMem_Calloc(nextra, sizeof(mjData*));
    for (size_t i = 0; run.extra && i < nextra; i++) {
      run.extra[i] = mj_makeData(m0);
      if (!run.extra[i]) {
        for (size_t j = 0; j < i; j++) {
          mj_deleteData(run.extra[j]);
        }
        PyMem_Free(run.extra);
        run.extra = NULL;
      }
    }
  }
  pthread_mutex_init(&run.lock, NULL);
  Py_BEGIN_ALLOW_THREADS;
  if (run.extra) {
    ptrdiff_t ngroup = (job.nbatch + TN_ROLLOUT_GROUP - 1) / TN_ROLLOUT_GROUP;
    tnpy_poolRun((int)nthread, ngroup, (chunk + TN_ROLLOUT_GROUP - 1) / TN_ROLLOUT_GROUP,
                 rollout_group, &run);
  } else {
    tnpy_poolRun((int)nthread, job.nbatch, chunk, rollout_one, &run);
  }
  Py_END_ALLOW_THREADS;
  pthread_mutex_destroy(&run.lock);
  for (size_t i = 0; run.extra && i < nextra; i++) {
    mj_deleteData(run.extra[i]);
  }
  PyMem_Free(run.extra);
  if (run.failed >= 0) {
    PyErr_Format(tnpy_FatalError, "%s", run.failmsg[0] ? run.failmsg : "rollout failed");
    goto done;
  }
  res = Py_None;
  Py_INCREF(res);

done:
  while (nb-- > 0) {
    tnpy_release(&b[nb]);
  }
  PyMem_Free(job.models);
  PyMem_Free(job.datas);
  return res;
}

PyMethodDef tnpy_rollout_methods[] = {
    {"rollout", py_rollout, METH_VARARGS,
     "rollout(models, datas, nstep, control_spec, state0, warmstart0, control, state, "
     "sensordata, chunk_size): nbatch rollouts over len(datas) threads."},
    {NULL, NULL, 0, NULL}};
