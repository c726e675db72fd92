/* _core/data.c — Data: an mjData for a Model, its arrays as views by MuJoCo name (the
 * X-macro table, the efc_* rows sized by nefc/nJ/nA, the island arrays sized by nisland,
 * nidof, nefc, ntree or nv, the contacts) and a bytes view of the
 * whole struct for the scalar members (time, ncon, warning ...). Making a Data installs a
 * clock for the stage timers when none is, as MuJoCo's bindings do. */
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "core.h"

/* the clock MuJoCo's Python bindings install for the stage timers (mjData.timer), seconds */
static mjtNum monotonic_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (mjtNum)t.tv_sec + 1e-9 * (mjtNum)t.tv_nsec;
}

static const tnpyField data_fields[] = {
#define X(T_, N_, R_, C_) {#N_, TNPY_FMT(T_), (int)sizeof(T_), #R_, #C_, offsetof(mjData, N_)},
    MJDATA_POINTERS(X)
#undef X
};
#define NDATAFIELD ((int)(sizeof(data_fields) / sizeof(data_fields[0])))

/* the constraint and island arrays: their row count changes with the step (nefc, nJ, nA,
 * nisland, nidof) or they are the islands' tree and dof maps (ntree, nv); KBIP has 4
 * columns */
typedef struct efcField_ {
  const char* name;
  char fmt;
  int itemsize;
  const char* rows;
  int cols;
  size_t ptr_offset;
} efcField;

#define EFC(N_, T_, R_, C_) \
  { #N_, TNPY_FMT(T_), (int)sizeof(T_), #R_, C_, offsetof(mjData, N_) }
static const efcField efc_fields[] = {
    EFC(efc_type, int, nefc, 1),       EFC(efc_id, int, nefc, 1),
    EFC(efc_J_rownnz, int, nefc, 1),   EFC(efc_J_rowadr, int, nefc, 1),
    EFC(efc_J_rowsuper, int, nefc, 1), EFC(efc_J_colind, int, nJ, 1),
    EFC(efc_J, mjtNum, nJ, 1),         EFC(efc_pos, mjtNum, nefc, 1),
    EFC(efc_margin, mjtNum, nefc, 1),  EFC(efc_frictionloss, mjtNum, nefc, 1),
    EFC(efc_diagA, mjtNum, nefc, 1),   EFC(efc_KBIP, mjtNum, nefc, 4),
    EFC(efc_D, mjtNum, nefc, 1),       EFC(efc_R, mjtNum, nefc, 1),
    EFC(efc_AR_rownnz, int, nefc, 1),  EFC(efc_AR_rowadr, int, nefc, 1),
    EFC(efc_AR_colind, int, nA, 1),    EFC(efc_AR, mjtNum, nA, 1),
    EFC(efc_vel, mjtNum, nefc, 1),     EFC(efc_aref, mjtNum, nefc, 1),
    EFC(efc_b, mjtNum, nefc, 1),       EFC(efc_state, int, nefc, 1),
    EFC(efc_force, mjtNum, nefc, 1),
    /* constraint islands: trees and dofs (ntree, nv), per island (nisland), island dofs
     * (nidof) and island-sorted rows (inefc: nefc when there are islands, else none); not
     * the per-island solver's outputs (iacc, ifrc_constraint, iefc_aref/state/force), which
     * the solvers do not fill yet */
    EFC(tree_island, int, ntree, 1),     EFC(island_ntree, int, nisland, 1),
    EFC(island_itreeadr, int, nisland, 1), EFC(map_itree2tree, int, ntree, 1),
    EFC(dof_island, int, nv, 1),         EFC(island_nv, int, nisland, 1),
    EFC(island_idofadr, int, nisland, 1), EFC(island_dofadr, int, nisland, 1),
    EFC(map_dof2idof, int, nv, 1),       EFC(map_idof2dof, int, nv, 1),
    EFC(ifrc_smooth, mjtNum, nidof, 1),  EFC(iacc_smooth, mjtNum, nidof, 1),
    EFC(efc_island, int, inefc, 1),
    EFC(island_ne, int, nisland, 1),     EFC(island_nf, int, nisland, 1),
    EFC(island_nefc, int, nisland, 1),   EFC(island_iefcadr, int, nisland, 1),
    EFC(map_efc2iefc, int, inefc, 1),    EFC(map_iefc2efc, int, inefc, 1),
    EFC(iefc_type, int, inefc, 1),       EFC(iefc_id, int, inefc, 1),
    EFC(iefc_frictionloss, mjtNum, inefc, 1), EFC(iefc_D, mjtNum, inefc, 1),
    EFC(iefc_R, mjtNum, inefc, 1),
};
#undef EFC
#define NEFCFIELD ((int)(sizeof(efc_fields) / sizeof(efc_fields[0])))

/* rows and columns of data array i for model m */
static void data_shape(const mjModel* m, int i, Py_ssize_t* rows, Py_ssize_t* cols) {
  int k = 0;
#define MJ_M(n) (m->n)
#define X(T_, N_, R_, C_) \
  if (k++ == i) {         \
    *rows = m->R_;        \
    *cols = (C_);         \
    return;               \
  }
  MJDATA_POINTERS(X)
#undef X
#undef MJ_M
}

/* where fixed array i lives and how many bytes it has */
int tnpy_data_field(const mjModel* m, mjData* d, int i, void** ptr, size_t* nbytes) {
  if (i < 0 || i >= NDATAFIELD) {
    return -1;
  }
  Py_ssize_t rows = 0, cols = 0;
  data_shape(m, i, &rows, &cols);
  *ptr = *(void**)((char*)d + data_fields[i].ptr_offset);
  *nbytes = (size_t)rows * (size_t)cols * (size_t)data_fields[i].itemsize;
  return 0;
}

/* Data(model): mj_makeData */
static PyObject* data_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
  (void)kw;
  PyObject* model = NULL;
  if (!PyArg_ParseTuple(args, "O!", &tnpy_ModelType, &model)) {
    return NULL;
  }
  tnpyModel* mo = (tnpyModel*)model;
  if (!mo->m) {
    PyErr_SetString(PyExc_ValueError, "model is not loaded");
    return NULL;
  }
  mjData* d = mj_makeData(mo->m);
  if (!d) {
    PyErr_SetString(PyExc_MemoryError, "mj_makeData failed");
    return NULL;
  }
  tnpyData* self = (tnpyData*)type->tp_alloc(type, 0);
  if (!self) {
    mj_deleteData(d);
    return NULL;
  }
  self->d = d;
  Py_INCREF(model);
  self->model = mo;
  self->owner = NULL;

  // as MuJoCo's bindings: a clock for the stage timers unless one is installed (the GIL
  // serializes this with other Data constructions)
  if (!mjcb_time) {
    mjcb_time = monotonic_seconds;
  }
  return (PyObject*)self;
}

/* a Data object over memory owned by someone else */
PyObject* tnpy_data_borrowed(PyTypeObject* type, tnpyModel* model, mjData* d, PyObject* owner) {
  tnpyData* self = (tnpyData*)type->tp_alloc(type, 0);
  if (!self) {
    return NULL;
  }
  self->d = d;
  Py_INCREF(model);
  self->model = model;
  Py_INCREF(owner);
  self->owner = owner;
  return (PyObject*)self;
}

/* free d unless it is borrowed */
static void data_dealloc(PyObject* self) {
  tnpyData* da = (tnpyData*)self;
  if (!da->owner) {
    mj_deleteData(da->d);
  }
  da->d = NULL;
  Py_CLEAR(da->owner);
  Py_CLEAR(da->model);
  Py_TYPE(self)->tp_free(self);
}

/* Data._fields() -> [(name, fmt, rows_field, cols_expr), ...]: fixed arrays, then efc */
static PyObject* data_fields_list(PyObject* cls, PyObject* noargs) {
  (void)cls;
  (void)noargs;
  PyObject* fixed = PyList_New(NDATAFIELD);
  PyObject* efc = PyList_New(NEFCFIELD);
  for (int i = 0; fixed && efc && i < NDATAFIELD; i++) {
    const tnpyField* f = data_fields + i;
    PyList_SET_ITEM(fixed, i, Py_BuildValue("(sCss)", f->name, f->fmt, f->rows, f->cols));
  }
  for (int i = 0; fixed && efc && i < NEFCFIELD; i++) {
    const efcField* f = efc_fields + i;
    PyList_SET_ITEM(efc, i,
                    Py_BuildValue("(sCss)", f->name, f->fmt, f->rows, f->cols == 1 ? "1" : "4"));
  }
  if (!fixed || !efc) {
    Py_XDECREF(fixed);
    Py_XDECREF(efc);
    return NULL;
  }
  return Py_BuildValue("(NN)", fixed, efc);
}

/* Data._array(i) -> View of fixed array i */
static PyObject* data_array(PyObject* self, PyObject* arg) {
  tnpyData* da = (tnpyData*)self;
  int i = (int)PyLong_AsLong(arg);
  if (PyErr_Occurred()) {
    return NULL;
  }
  if (i < 0 || i >= NDATAFIELD) {
    PyErr_SetString(PyExc_IndexError, "data field index out of range");
    return NULL;
  }
  const tnpyField* f = data_fields + i;
  Py_ssize_t rows = 0, cols = 0;
  data_shape(da->model->m, i, &rows, &cols);
  void* ptr = *(void**)((char*)da->d + f->ptr_offset);
  int ndim = strcmp(f->cols, "1") == 0 ? 1 : 2;
  return tnpy_view(self, ptr, f->fmt, f->itemsize, ndim, rows, cols);
}

/* Data._efc(i) -> View of constraint array i at the current nefc/nJ/nA */
static PyObject* data_efc(PyObject* self, PyObject* arg) {
  tnpyData* da = (tnpyData*)self;
  int i = (int)PyLong_AsLong(arg);
  if (PyErr_Occurred()) {
    return NULL;
  }
  if (i < 0 || i >= NEFCFIELD) {
    PyErr_SetString(PyExc_IndexError, "efc field index out of range");
    return NULL;
  }
  const efcField* f = efc_fields + i;
  const mjData* d = da->d;
  const mjModel* m = da->model->m;
  Py_ssize_t rows = strcmp(f->rows, "nJ") == 0        ? d->nJ
                    : strcmp(f->rows, "nA") == 0      ? d->nA
                    : strcmp(f->rows, "ntree") == 0   ? m->ntree
                    : strcmp(f->rows, "nv") == 0      ? m->nv
                    : strcmp(f->rows, "nisland") == 0 ? d->nisland
                    : strcmp(f->rows, "nidof") == 0   ? d->nidof
                    : strcmp(f->rows, "inefc") == 0   ? (d->nisland ? d->nefc : 0)
                                                      : d->nefc;
  void* ptr = *(void**)((char*)d + f->ptr_offset);
  if (rows == 0) {
    ptr = NULL;
  }
  return tnpy_view(self, ptr, f->fmt, f->itemsize, f->cols == 1 ? 1 : 2, rows, f->cols);
}

/* Data._contact() -> bytes View of the ncon detected contacts */
static PyObject* data_contact(PyObject* self, PyObject* noargs) {
  (void)noargs;
  tnpyData* da = (tnpyData*)self;
  Py_ssize_t n = (Py_ssize_t)da->d->ncon * (Py_ssize_t)sizeof(mjContact);
  return tnpy_view(self, n ? (void*)da->d->contact : NULL, 'B', 1, 1, n, 0);
}

/* Data._struct() -> bytes View of the whole mjData struct (scalar members) */
static PyObject* data_struct(PyObject* self, PyObject* noargs) {
  (void)noargs;
  tnpyData* da = (tnpyData*)self;
  return tnpy_view(self, da->d, 'B', 1, 1, sizeof(mjData), 0);
}

/* Data._model() -> the Model this data was made for */
static PyObject* data_model(PyObject* self, PyObject* noargs) {
  (void)noargs;
  tnpyData* da = (tnpyData*)self;
  Py_INCREF(da->model);
  return (PyObject*)da->model;
}

/* Data._copy() -> a new Data with the same contents (copy.copy of MjData) */
static PyObject* data_copy(PyObject* self, PyObject* noargs) {
  (void)noargs;
  tnpyData* da = (tnpyData*)self;
  mjData* d = mj_copyData(NULL, da->model->m, da->d);
  if (!d) {
    return PyErr_NoMemory();
  }
  PyTypeObject* type = da->owner ? &tnpy_DataType : Py_TYPE(self);
  tnpyData* res = (tnpyData*)type->tp_alloc(type, 0);
  if (!res) {
    mj_deleteData(d);
    return NULL;
  }
  res->d = d;
  Py_INCREF(da->model);
  res->model = da->model;
  res->owner = NULL;
  return (PyObject*)res;
}

/* d.time: read and written directly (the most used scalar) */
static PyObject* data_get_time(PyObject* self, void* closure) {
  (void)closure;
  return PyFloat_FromDouble(((tnpyData*)self)->d->time);
}
static int data_set_time(PyObject* self, PyObject* value, void* closure) {
  (void)closure;
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "time cannot be deleted");
    return -1;
  }
  double t = PyFloat_AsDouble(value);
  if (t == -1.0 && PyErr_Occurred()) {
    return -1;
  }
  ((tnpyData*)self)->d->time = t;
  return 0;
}

/* the row counts of contacts and constraints, read-only */
static PyObject* data_get_count(PyObject* self, void* closure) {
  const mjData* d = ((tnpyData*)self)->d;
  const char* name = closure;
  int v = name[0] == 'c'   ? d->ncon
          : name[0] == 'e' ? d->ne
          : name[0] == 'f' ? d->nf
          : name[0] == 'l' ? d->nl
                           : d->nefc;
  return PyLong_FromLong(v);
}

static PyGetSetDef data_getset[] = {
    {"time", data_get_time, data_set_time, "simulation time", NULL},
    {"ncon", data_get_count, NULL, "number of detected contacts", "c"},
    {"ne", data_get_count, NULL, "number of equality constraint rows", "e"},
    {"nf", data_get_count, NULL, "number of friction constraint rows", "f"},
    {"nl", data_get_count, NULL, "number of limit constraint rows", "l"},
    {"nefc", data_get_count, NULL, "number of constraint rows", "n"},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef data_methods[] = {
    {"_fields", data_fields_list, METH_NOARGS | METH_CLASS, "The data array tables."},
    {"_array", data_array, METH_O, "View of data array i."},
    {"_efc", data_efc, METH_O, "View of constraint array i."},
    {"_contact", data_contact, METH_NOARGS, "Bytes view of the contacts."},
    {"_struct", data_struct, METH_NOARGS, "Bytes view of the struct."},
    {"_model", data_model, METH_NOARGS, "The model."},
    {"_copy", data_copy, METH_NOARGS, "Copy."},
    {NULL, NULL, 0, NULL}};

PyTypeObject tnpy_DataType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torsion._core.Data",
    .tp_basicsize = sizeof(tnpyData),
    .tp_dealloc = data_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Simulation data (mjData) for a Model.",
    .tp_methods = data_methods,
    .tp_getset = data_getset,
    .tp_new = data_new,
};
