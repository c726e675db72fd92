/* _core/view.c — View: a buffer-protocol window on engine memory (an mjModel or mjData
 * array) that holds a reference to the object owning that memory, so a numpy array made
 * from it stays valid for as long as the array lives. */
#include "core.h"

/* one exported array */
typedef struct tnpyView_ {
  PyObject_HEAD PyObject* owner;
  void* ptr;
  char format[2];
  Py_ssize_t itemsize;
  int ndim;
  Py_ssize_t shape[2];
  Py_ssize_t strides[2];
} tnpyView;

/* storage for empty arrays (numpy wants a non-NULL pointer even for zero elements) */
static double empty_storage[1];

/* make a view over ptr */
PyObject* tnpy_view(PyObject* owner, void* ptr, char fmt, Py_ssize_t itemsize, int ndim,
                    Py_ssize_t rows, Py_ssize_t cols) {
  tnpyView* v = PyObject_New(tnpyView, &tnpy_ViewType);
  if (!v) {
    return NULL;
  }
  Py_INCREF(owner);
  v->owner = owner;
  v->ptr = ptr ? ptr : (void*)empty_storage;
  v->format[0] = fmt;
  v->format[1] = 0;
  v->itemsize = itemsize;
  v->ndim = ndim;
  v->shape[0] = rows;
  v->shape[1] = ndim == 2 ? cols : 1;
  v->strides[1] = itemsize;
  v->strides[0] = ndim == 2 ? cols * itemsize : itemsize;
  return (PyObject*)v;
}

/* the buffer protocol: always writable, C-contiguous */
static int view_getbuffer(PyObject* self, Py_buffer* b, int flags) {
  tnpyView* v = (tnpyView*)self;
  (void)flags;
  b->buf = v->ptr;
  b->obj = self;
  Py_INCREF(self);
  b->len = v->shape[0] * (v->ndim == 2 ? v->shape[1] : 1) * v->itemsize;
  b->readonly = 0;
  b->itemsize = v->itemsize;
  b->format = v->format;
  b->ndim = v->ndim;
  b->shape = v->shape;
  b->strides = v->strides;
  b->suboffsets = NULL;
  b->internal = NULL;
  return 0;
}

/* drop the owner */
static void view_dealloc(PyObject* self) {
  tnpyView* v = (tnpyView*)self;
  Py_XDECREF(v->owner);
  PyObject_Free(self);
}

static PyBufferProcs view_as_buffer = {
    .bf_getbuffer = view_getbuffer,
    .bf_releasebuffer = NULL,
};

PyTypeObject tnpy_ViewType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torsion._core.View",
    .tp_basicsize = sizeof(tnpyView),
    .tp_dealloc = view_dealloc,
    .tp_as_buffer = &view_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Buffer over engine memory; keeps its owner alive.",
};
