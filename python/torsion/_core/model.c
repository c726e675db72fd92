/* _core/model.c — Model: an mjModel loaded from MJCF, its arrays as views by MuJoCo name
 * (generated from the X-macro table), its sizes, and views of mjOption and mjStatistic. */
#include <stddef.h>
#include <string.h>

#include "core.h"

static const tnpyField model_fields[] = {
#define X(T_, N_, R_, C_) {#N_, TNPY_FMT(T_), (int)sizeof(T_), #R_, #C_, offsetof(mjModel, N_)},
    MJMODEL_POINTERS(X)
#undef X
};
#define NMODELFIELD ((int)(sizeof(model_fields) / sizeof(model_fields[0])))

/* rows and columns of model array i for model m */
static void model_shape(const mjModel* m, int i, Py_ssize_t* rows, Py_ssize_t* cols) {
  int k = 0;
#define MJ_M(n) (m->n)
#define X(T_, N_, R_, C_) \
  if (k++ == i) {         \
    *rows = m->R_;        \
    *cols = (C_);         \
    return;               \
  }
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
}

/* Model(): not constructible directly; use the load class methods */
static PyObject* model_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
  (void)args;
  (void)kw;
  tnpyModel* self = (tnpyModel*)type->tp_alloc(type, 0);
  if (self) {
    self->m = NULL;
  }
  return (PyObject*)self;
}

/* free the model */
static void model_dealloc(PyObject* self) {
  tnpyModel* mo = (tnpyModel*)self;
  mj_deleteModel(mo->m);
  mo->m = NULL;
  Py_TYPE(self)->tp_free(self);
}

/* a load request, run under tn_run */
typedef struct loadArgs_ {
  const char* path;
  const char* xml;
  const char* dir;
  char error[2048];
  mjModel* m;
} loadArgs;

/* load from a file or from text */
static void load_fn(void* arg) {
  loadArgs* a = arg;
  if (a->path) {
    a->m = mj_loadXML(a->path, NULL, a->error, sizeof(a->error));
  } else {
    a->m = tn_loadXMLString(a->xml, a->dir, a->error, sizeof(a->error));
  }
}

/* wrap a freshly loaded model into an instance of cls, or raise ValueError */
static PyObject* finish_load(PyTypeObject* cls, loadArgs* a) {
  if (tnpy_run(NULL, load_fn, a) < 0) {
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyObject* msg = v ? PyObject_Str(v) : NULL;
    PyErr_Format(PyExc_ValueError, "%s", msg ? PyUnicode_AsUTF8(msg) : "load failed");
    Py_XDECREF(msg);
    Py_XDECREF(t);
    Py_XDECREF(v);
    Py_XDECREF(tb);
    return NULL;
  }
  if (!a->m) {
    PyErr_SetString(PyExc_ValueError, a->error[0] ? a->error : "load failed");
    return NULL;
  }
  tnpyModel* self = (tnpyModel*)cls->tp_alloc(cls, 0);
  if (!self) {
    mj_deleteModel(a->m);
    return NULL;
  }
  self->m = a->m;
  return (PyObject*)self;
}

/* Model._load_path(path) */
static PyObject* model_load_path(PyObject* cls, PyObject* args) {
  loadArgs* a = PyMem_Calloc(1, sizeof(loadArgs));
  if (!a) {
    return PyErr_NoMemory();
  }
  PyObject* res = NULL;
  if (PyArg_ParseTuple(args, "s", &a->path)) {
    res = finish_load((PyTypeObject*)cls, a);
  }
  PyMem_Free(a);
  return res;
}

/* Model._load_string(xml, dir=None) */
static PyObject* model_load_string(PyObject* cls, PyObject* args) {
  loadArgs* a = PyMem_Calloc(1, sizeof(loadArgs));
  if (!a) {
    return PyErr_NoMemory();
  }
  PyObject* res = NULL;
  if (PyArg_ParseTuple(args, "s|z", &a->xml, &a->dir)) {
    res = finish_load((PyTypeObject*)cls, a);
  }
  PyMem_Free(a);
  return res;
}

/* raise unless a model is loaded */
static int model_ready(tnpyModel* mo) {
  if (!mo->m) {
    PyErr_SetString(PyExc_RuntimeError, "model is not loaded");
    return 0;
  }
  return 1;
}

/* Model._fields() -> [(name, fmt, rows_field, cols_expr), ...] in table order */
static PyObject* model_fields_list(PyObject* cls, PyObject* noargs) {
  (void)cls;
  (void)noargs;
  PyObject* list = PyList_New(NMODELFIELD);
  for (int i = 0; list && i < NMODELFIELD; i++) {
    const tnpyField* f = model_fields + i;
    PyObject* row = Py_BuildValue("(sCss)", f->name, f->fmt, f->rows, f->cols);
    if (!row) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, row);
  }
  return list;
}

/* Model._array(i) -> View of array i (2-D unless its column expression is "1") */
static PyObject* model_array(PyObject* self, PyObject* arg) {
  tnpyModel* mo = (tnpyModel*)self;
  int i = (int)PyLong_AsLong(arg);
  if (PyErr_Occurred() || !model_ready(mo)) {
    return NULL;
  }
  if (i < 0 || i >= NMODELFIELD) {
    PyErr_SetString(PyExc_IndexError, "model field index out of range");
    return NULL;
  }
  const tnpyField* f = model_fields + i;
  Py_ssize_t rows = 0, cols = 0;
  model_shape(mo->m, i, &rows, &cols);
  void* ptr = *(void**)((char*)mo->m + f->ptr_offset);
  int ndim = strcmp(f->cols, "1") == 0 ? 1 : 2;
  return tnpy_view(self, ptr, f->fmt, f->itemsize, ndim, rows, cols);
}

/* Model._sizes() -> {name: value} of every integer size */
static PyObject* model_sizes(PyObject* self, PyObject* noargs) {
  (void)noargs;
  tnpyModel* mo = (tnpyModel*)self;
  if (!model_ready(mo)) {
    return NULL;
  }
  PyObject* dict = PyDict_New();
  const mjModel* m = mo->m;
#define X(n)                                           \
  if (dict) {                                          \
    PyObject* v = PyLong_FromLong(m->n);               \
    if (!v || PyDict_SetItemString(dict, #n, v) < 0) { \
      Py_CLEAR(dict);                                  \
    }                                                  \
    Py_XDECREF(v);                                     \
  }
  MJMODEL_INTS(X)
#undef X
  return dict;
}

/* Model._struct(name) -> bytes View of m->opt ("opt") or m->stat ("stat") */
static PyObject* model_struct(PyObject* self, PyObject* arg) {
  tnpyModel* mo = (tnpyModel*)self;
  const char* name = PyUnicode_AsUTF8(arg);
  if (!name || !model_ready(mo)) {
    return NULL;
  }
  if (strcmp(name, "opt") == 0) {
    return tnpy_view(self, &mo->m->opt, 'B', 1, 1, sizeof(mjOption), 0);
  }
  if (strcmp(name, "stat") == 0) {
    return tnpy_view(self, &mo->m->stat, 'B', 1, 1, sizeof(mjStatistic), 0);
  }
  PyErr_Format(PyExc_KeyError, "no model struct %s", name);
  return NULL;
}

/* a deep copy (copy.copy / copy.deepcopy of MjModel) */
static PyObject* model_copy(PyObject* self, PyObject* noargs) {
  (void)noargs;
  tnpyModel* mo = (tnpyModel*)self;
  if (!model_ready(mo)) {
    return NULL;
  }
  mjModel* m = mj_copyModel(NULL, mo->m);
  if (!m) {
    return PyErr_NoMemory();
  }
  tnpyModel* res = (tnpyModel*)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
  if (!res) {
    mj_deleteModel(m);
    return NULL;
  }
  res->m = m;
  return (PyObject*)res;
}

static PyMethodDef model_methods[] = {
    {"_load_path", model_load_path, METH_VARARGS | METH_CLASS, "Load MJCF from a file."},
    {"_load_string", model_load_string, METH_VARARGS | METH_CLASS, "Load MJCF text."},
    {"_fields", model_fields_list, METH_NOARGS | METH_CLASS, "The model array table."},
    {"_array", model_array, METH_O, "View of model array i."},
    {"_sizes", model_sizes, METH_NOARGS, "The integer sizes."},
    {"_struct", model_struct, METH_O, "Bytes view of opt or stat."},
    {"_copy", model_copy, METH_NOARGS, "Deep copy."},
    {NULL, NULL, 0, NULL}};

PyTypeObject tnpy_ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torsion._core.Model",
    .tp_basicsize = sizeof(tnpyModel),
    .tp_dealloc = model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A compiled model (mjModel).",
    .tp_methods = model_methods,
    .tp_new = model_new,
};
