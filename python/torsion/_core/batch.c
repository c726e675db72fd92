/* _core/batch.c — Batch: n environments (one mjData each) of one model, stepped, reset and
 * read in C loops over worker threads (pool.h) with the GIL released; the engine side of
 * torsion.batch.SimBatch. Steps go to groups of four environments stepping in lockstep
 * (tn_stepGroup: the same numbers as one by one, some stages computed for all four at
 * once); an engine error in a group puts its environments back and steps each alone under
 * its own tn_run, so the failing environment is reset and raised as torsion.FatalError
 * after the loop, without touching the others. A readout (Batch._readout) names fixed
 * mjData arrays that every reset and step copies, right after each environment's work and
 * on the thread that did it, into one [n, ...] array per field. */
#include <omp.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "core.h"
#include "pool.h"

/* the batch */
typedef struct tnpyBatch_ {
  PyObject_HEAD tnpyModel* model;
  int n;
  int nthread;
  mjData** datas;
  mjtNum* saved;      /* each environment's integration state, kept while it steps in a group */
  int nsaved;         /* numbers per saved state */
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

/* environments stepped in lockstep per group (tn_stepGroup computes some stages for the
 * whole group at once) */
#define GROUP 4

/* a group's step work: nstep group steps of its datas */
typedef struct groupWork_ {
  const mjModel* m;
  mjData* d[GROUP];
  int n;
  int nstep;
  int rne_post;
} groupWork;

/* step every data of a group nstep times */
static void group_run(void* p) {
  groupWork* w = p;
  for (int k = 0; k < w->nstep; k++) {
    tn_stepGroup(w->m, w->d, w->n);
  }
  if (w->rne_post) {
    for (int i = 0; i < w->n; i++) {
      mj_rnePostConstraint(w->m, w->d[i]);
    }
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
  if (!self->saved) {
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

/* one loop's inputs and its first failure (lock: the failure's) */
typedef struct runCtx_ {
  tnpyBatch* b;
  const int* ids;
  ptrdiff_t k;
  int nstep, reset, rne_post;
  const mjtNum *ctrl, *qpos, *qvel;
  failure fail;
  pthread_mutex_t lock;
} runCtx;

/* environment env's work under its own tn_run; a failed environment is reset and the
 * lowest failing one kept */
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
  char error[512];
  if (tn_run(w.d, env_run, &w, error, sizeof(error))) {
    mj_resetData(m, w.d);
    pthread_mutex_lock(&c->lock);
    if (c->fail.env < 0 || env < c->fail.env) {
      c->fail.env = env;
      memcpy(c->fail.error, error, sizeof(error));
    }
    pthread_mutex_unlock(&c->lock);
  }
  gather_readout(c->b, env);
}

/* item j of a loop: environment ids[j] (or j) */
static void run_one(void* p, ptrdiff_t j, int thread) {
  (void)thread;
  runCtx* c = p;
  run_env(c, c->ids ? c->ids[j] : (int)j, j);
}

/* item g of a stepping loop: the GROUP environments from item GROUP*g, stepped together.
 * Their integration states (and warning counts) are kept first; when an engine error stops
 * the group, each is put back (its arena too) and stepped alone, so the failing
 * environment is found and reset and the others end as if stepped alone */
static void run_group(void* p, ptrdiff_t g, int thread) {
  (void)thread;
  runCtx* c = p;
  tnpyBatch* b = c->b;
  const mjModel* m = b->model->m;
  ptrdiff_t j0 = g * GROUP;
  groupWork w = {.m = m, .n = 0, .nstep = c->nstep, .rne_post = c->rne_post};
  int env[GROUP];
  size_t pstack[GROUP], pbase[GROUP];
  mjWarningStat warning[GROUP][mjNWARNING];
  for (ptrdiff_t j = j0; j < c->k && j < j0 + GROUP; j++, w.n++) {
    int e = env[w.n] = c->ids ? c->ids[j] : (int)j;
    mjData* d = w.d[w.n] = b->datas[e];
    if (c->ctrl && m->nu) {
      memcpy(d->ctrl, c->ctrl + (size_t)j * m->nu, sizeof(mjtNum) * m->nu);
    }
    mj_getState(m, d, b->saved + (size_t)e * b->nsaved, mjSTATE_INTEGRATION);
    memcpy(warning[w.n], d->warning, sizeof(d->warning));
    pstack[w.n] = d->pstack;
    pbase[w.n] = d->pbase;
  }

  // the group; after an error, each environment from its kept state, alone
  if (tn_run(w.d[0], group_run, &w, NULL, 0)) {
    for (int i = 0; i < w.n; i++) {
      mjData* d = w.d[i];
      d->pstack = pstack[i];
      d->pbase = pbase[i];
      d->parena = 0;
      d->nefc = d->nJ = d->nA = 0;
      mj_setState(m, d, b->saved + (size_t)env[i] * b->nsaved, mjSTATE_INTEGRATION);
      memcpy(d->warning, warning[i], sizeof(d->warning));
      run_env(c, env[i], j0 + i);
    }
    return;
  }
  for (int i = 0; i < w.n; i++) {
    gather_readout(b, env[i]);
  }
}

/* run the work for k environments over the batch's threads (pool.h: resets handed out one
 * environment at a time, steps one group of GROUP at a time; workers asleep between calls,
 * the caller never); raise on the first failure */
static int run_envs(tnpyBatch* b, const int* ids, Py_ssize_t k, int nstep, int reset,
                    int rne_post, const mjtNum* ctrl, const mjtNum* qpos, const mjtNum* qvel) {
  runCtx c = {.b = b, .ids = ids, .k = k, .nstep = nstep, .reset = reset, .rne_post = rne_post,
              .ctrl = ctrl, .qpos = qpos, .qvel = qvel, .fail = {-1, {0}}};
  pthread_mutex_init(&c.lock, NULL);
  Py_BEGIN_ALLOW_THREADS;
  if (reset || nstep == 0) {
    tnpy_poolRun(b->nthread, (ptrdiff_t)k, 1, run_one, &c);
  } else {
    tnpy_poolRun(b->nthread, ((ptrdiff_t)k + GROUP - 1) / GROUP, 1, run_group, &c);
  }
  Py_END_ALLOW_THREADS;
  pthread_mutex_destroy(&c.lock);
  if (c.fail.env >= 0) {
    PyErr_Format(tnpy_FatalError, "env %d: %s (the environment was reset)", c.fail.env,
                 c.fail.error);
    return -1;
  }
  return 0;
}

/* Batch._step(ctrl, nstep, env_ids, rne_post): ctrl None or [k*nu] float64 */
static PyObject* batch_step(PyObject* self, PyObject* args) {
  tnpyBatch* b = (tnpyBatch*)self;
  PyObject *ctrl, *idobj;
  int nstep, rne_post = 0;
  if (!PyArg_ParseTuple(args, "OiO|p", &ctrl, &nstep, &idobj, &rne_post)) {
    return NULL;
  }
  if (nstep < 0) {
    PyErr_SetString(PyExc_ValueError, "nstep must be non-negative");
    return NULL;
  }
  Py_buffer ib, cb;
  const int* ids;
  Py_ssize_t k = take_ids(b, idobj, &ib, &ids, 1);
  if (k < 0) {
    return NULL;
  }
  const mjModel* m = b->model->m;
  if (tnpy_numbuf(ctrl, &cb, k * m->nu, 0, 1, "ctrl") < 0) {
    tnpy_release(&ib);
    return NULL;
  }
  int rc = run_envs(b, ids, k, nstep, 0, rne_post, cb.buf, NULL, NULL);
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
  int rc = run_envs(b, ids, k, 0, 1, 0, NULL, qb.buf, vb.buf);
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
