/* _core/rollout.c — the loop behind torsion.rollout: nbatch open-loop rollouts with
 * mujoco.rollout's semantics, each item on the engine's per-item path (tn_rolloutItem,
 * which applies control rows of any mjSTATE_USER components and an initial warmstart),
 * spread over the worker threads of pool.h (thread i uses datas[i]) with the GIL released. */
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

/* one rollout r on data d; returns 0 or -1 with the engine's message */
static int run_item(const rolloutJob* job, int r, mjData* d, char* error, int error_sz) {
  const mjModel* m = job->models[r];
  int nphys = mj_stateSize(m, mjSTATE_FULLPHYSICS);
  int nsens = m->nsensordata, nstep = job->nstep;
  int ncontrol = mj_stateSize(m, job->control_spec);
  itemCtx c;
  memset(&c, 0, sizeof(c));
  c.m = m;
  c.d = d;
  c.item.spec = mjSTATE_FULLPHYSICS;
  c.item.state0 = job->state0 + (size_t)r * nphys;
  c.item.warmstart0 = job->warmstart0 ? job->warmstart0 + (size_t)r * m->nv : NULL;
  c.item.ctrl_spec = job->control_spec;
  c.item.ctrl = job->control && ncontrol ? job->control + (size_t)r * nstep * ncontrol : NULL;
  c.item.ctrl_nt = nstep;
  c.item.nstep = nstep;
  c.item.states = job->state ? job->state + (size_t)r * nstep * nphys : NULL;
  c.item.sensordata = job->sensordata ? job->sensordata + (size_t)r * nstep * nsens : NULL;
  return tn_run(d, item_fn, &c, error, error_sz) ? -1 : 0;
}

/* one call's items and the lowest failure (lock: the failure's) */
typedef struct rolloutRun_ {
  rolloutJob* job;
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

  // the items over the threads (pool.h), each on its thread's MjData; the lowest failed
  // item is reported
  rolloutRun run = {.job = &job, .failed = -1};
  pthread_mutex_init(&run.lock, NULL);
  Py_BEGIN_ALLOW_THREADS;
  tnpy_poolRun((int)nthread, job.nbatch, chunk, rollout_one, &run);
  Py_END_ALLOW_THREADS;
  pthread_mutex_destroy(&run.lock);
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
