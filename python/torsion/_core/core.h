/* _core/core.h — shared declarations of the torsion._core extension: the object layouts of
 * Model, Data, View and SimBatch, and the helpers every file of the extension uses (engine
 * calls under tn_run with the GIL released, float64 buffer arguments, size checks). */
#ifndef TORSION_PY_CORE_H
#define TORSION_PY_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <torsion/torsion.h>

/* a compiled model; owns m */
typedef struct tnpyModel_ {
  PyObject_HEAD mjModel* m;
} tnpyModel;

/* simulation data; owns d unless `owner` is set (then d belongs to owner, e.g. a batch) */
typedef struct tnpyData_ {
  PyObject_HEAD mjData* d;
  tnpyModel* model; /* strong reference: d's sizes come from it */
  PyObject* owner;  /* NULL, or the object that owns d */
} tnpyData;

/* the struct format character of an element type */
#define TNPY_FMT(T) \
  _Generic((T){0}, mjtNum : 'd', int : 'i', mjtByte : 'B', mjtBool : 'B', mjtSize : 'q', \
           float : 'f', char : 'b')

/* one fixed-size array of mjModel or mjData: name, element format and size, row-count
 * field, column expression as written in the X-macro table ("1" for vectors) and where its
 * pointer sits in the struct */
typedef struct tnpyField_ {
  const char* name;
  char fmt;
  int itemsize;
  const char* rows;
  const char* cols;
  size_t ptr_offset;
} tnpyField;

/* the types, set up by the module's init */
extern PyTypeObject tnpy_ModelType;
extern PyTypeObject tnpy_DataType;
extern PyTypeObject tnpy_ViewType;
extern PyTypeObject tnpy_BatchType;

/* torsion.FatalError: an mju_error raised inside an engine call */
extern PyObject* tnpy_FatalError;

/* A buffer-protocol object over engine memory that keeps `owner` alive: numpy.asarray()
 * of it is a writable array view. fmt is a struct format character ('d', 'i', 'B', 'f',
 * 'b'); ndim is 1 or 2 (shape[1] ignored for 1). */
PyObject* tnpy_view(PyObject* owner, void* ptr, char fmt, Py_ssize_t itemsize, int ndim,
                    Py_ssize_t rows, Py_ssize_t cols);

/* Run fn(arg) under tn_run with the GIL released; on an engine error set FatalError and
 * return -1, else 0. d may be NULL. */
int tnpy_run(mjData* d, tnRunFn fn, void* arg);

/* A float64 C-contiguous buffer of exactly n elements from obj (writable when asked);
 * None gives ok with buf->buf NULL when `optional`. Returns 0, or -1 with an exception.
 * Release with tnpy_release. */
int tnpy_numbuf(PyObject* obj, Py_buffer* buf, Py_ssize_t n, int writable, int optional,
                const char* what);
void tnpy_release(Py_buffer* buf);

/* a Data object (of type `type`, Data or a subclass) over d, which belongs to owner (d is
 * not freed with the object) */
PyObject* tnpy_data_borrowed(PyTypeObject* type, tnpyModel* model, mjData* d, PyObject* owner);

/* Where fixed data array i (the X-macro table's order) lives in d and its size in bytes;
 * -1 when i is out of range. */
int tnpy_data_field(const mjModel* m, mjData* d, int i, void** ptr, size_t* nbytes);

/* 0 when d was made for a model with m's sizes, else -1 with ValueError */
int tnpy_check_pair(const tnpyModel* model, const tnpyData* data);

/* module-level functions of functions.c and rollout.c, added to the module's method table */
extern PyMethodDef tnpy_function_methods[];
extern PyMethodDef tnpy_rollout_methods[];

#endif /* TORSION_PY_CORE_H */
