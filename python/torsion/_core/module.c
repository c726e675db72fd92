/* _core/module.c — the torsion._core module: its initialisation, torsion.FatalError, the
 * helpers shared by the other files (engine calls under tn_run without the GIL, float64
 * buffer arguments) and the memory layouts of the engine's small structs, from which the
 * Python side builds numpy structured dtypes (mjOption, mjContact, mjData's scalars ...). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core.h"

PyObject* tnpy_FatalError = NULL;

/* engine errors: every call runs under tn_run, which receives the message and raises
 * torsion.FatalError; one outside an unwinding point is printed, never ends the process
 * (the engine's default handler would exit, as MuJoCo's does) */
static void on_engine_error(const char* msg) {
  if (!tn_unwinding()) {
    fprintf(stderr, "ERROR: %s\n", msg);
  }
}

/* engine warnings: printed (no MUJOCO_LOG.TXT, unlike the default handler) */
static void on_engine_warning(const char* msg) {
  fprintf(stderr, "WARNING: %s\n", msg);
}

/* run fn under an unwinding point without the GIL */
int tnpy_run(mjData* d, tnRunFn fn, void* arg) {
  char error[1024] = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = tn_run(d, fn, arg, error, sizeof(error));
  Py_END_ALLOW_THREADS if (rc) {
    PyErr_SetString(tnpy_FatalError, error[0] ? error : "engine error");
    return -1;
  }
  return 0;
}

/* a float64 C-contiguous buffer of n elements */
int tnpy_numbuf(PyObject* obj, Py_buffer* buf, Py_ssize_t n, int writable, int optional,
                const char* what) {
  memset(buf, 0, sizeof(*buf));
  if (obj == Py_None || obj == NULL) {
    if (optional) {
      return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s: an array is required", what);
    return -1;
  }
  int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj, buf, flags) < 0) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s: expected a %sC-contiguous float64 array", what,
                 writable ? "writable " : "");
    return -1;
  }
  const char* f = buf->format ? buf->format : "B";
  if (f[0] == '<' || f[0] == '=' || f[0] == '@') {
    f++;
  }
  if (buf->itemsize != 8 || strcmp(f, "d") != 0) {
    PyBuffer_Release(buf);
    memset(buf, 0, sizeof(*buf));
    PyErr_Format(PyExc_TypeError, "%s: expected dtype float64", what);
    return -1;
  }
  if (buf->len / 8 != n) {
    Py_ssize_t got = buf->len / 8;
    PyBuffer_Release(buf);
    memset(buf, 0, sizeof(*buf));
    PyErr_Format(PyExc_ValueError, "%s: expected %zd elements, got %zd", what, n, got);
    return -1;
  }
  return 0;
}

/* release a buffer from tnpy_numbuf (also one left empty for None) */
void tnpy_release(Py_buffer* buf) {
  if (buf->obj) {
    PyBuffer_Release(buf);
  }
}

/* model and data must agree in the sizes that shape d's arrays */
int tnpy_check_pair(const tnpyModel* model, const tnpyData* data) {
  const mjModel* a = model->m;
  const mjModel* b = data->model->m;
  if (a == b) {
    return 0;
  }
  if (a->nq != b->nq || a->nv != b->nv || a->nu != b->nu || a->na != b->na ||
      a->nbody != b->nbody || a->njnt != b->njnt || a->ngeom != b->ngeom || a->nsite != b->nsite ||
      a->nsensordata != b->nsensordata || a->nC != b->nC || a->nD != b->nD ||
      a->nmocap != b->nmocap || a->neq != b->neq || a->ntendon != b->ntendon ||
      a->nhistory != b->nhistory || a->nuserdata != b->nuserdata || a->nbuffer != b->nbuffer) {
    PyErr_SetString(PyExc_ValueError, "data was made for a model with other sizes");
    return -1;
  }
  return 0;
}

/* ---- struct layouts -------------------------------------------------------------------- */

/* one member: name, byte offset, element kind (struct format character, or the name of a
 * struct with its own layout) and total byte size */
typedef struct layoutRow_ {
  const char* name;
  size_t offset;
  const char* kind;
  size_t size;
} layoutRow;

#define ROW(S, F, K) \
  { #F, offsetof(S, F), K, sizeof(((S*)0)->F) }

static const layoutRow option_rows[] = {ROW(mjOption, timestep, "d"),
                                        ROW(mjOption, impratio, "d"),
                                        ROW(mjOption, tolerance, "d"),
                                        ROW(mjOption, ls_tolerance, "d"),
                                        ROW(mjOption, noslip_tolerance, "d"),
                                        ROW(mjOption, ccd_tolerance, "d"),
                                        ROW(mjOption, sleep_tolerance, "d"),
                                        ROW(mjOption, gravity, "d"),
                                        ROW(mjOption, wind, "d"),
                                        ROW(mjOption, magnetic, "d"),
                                        ROW(mjOption, density, "d"),
                                        ROW(mjOption, viscosity, "d"),
                                        ROW(mjOption, o_margin, "d"),
                                        ROW(mjOption, o_solref, "d"),
                                        ROW(mjOption, o_solimp, "d"),
                                        ROW(mjOption, o_friction, "d"),
                                        ROW(mjOption, integrator, "i"),
                                        ROW(mjOption, cone, "i"),
                                        ROW(mjOption, jacobian, "i"),
                                        ROW(mjOption, solver, "i"),
                                        ROW(mjOption, iterations, "i"),
                                        ROW(mjOption, ls_iterations, "i"),
                                        ROW(mjOption, noslip_iterations, "i"),
                                        ROW(mjOption, ccd_iterations, "i"),
                                        ROW(mjOption, disableflags, "i"),
                                        ROW(mjOption, enableflags, "i"),
                                        ROW(mjOption, disableactuator, "i"),
                                        ROW(mjOption, sdf_initpoints, "i"),
                                        ROW(mjOption, sdf_iterations, "i"),
                                        {NULL, 0, NULL, 0}};

static const layoutRow statistic_rows[] = {
    ROW(mjStatistic, meaninertia, "d"), ROW(mjStatistic, meanmass, "d"),
    ROW(mjStatistic, meansize, "d"),    ROW(mjStatistic, extent, "d"),
    ROW(mjStatistic, center, "d"),      {NULL, 0, NULL, 0}};

static const layoutRow contact_rows[] = {ROW(mjContact, dist, "d"),
                                         ROW(mjContact, pos, "d"),
                                         ROW(mjContact, frame, "d"),
                                         ROW(mjContact, includemargin, "d"),
                                         ROW(mjContact, friction, "d"),
                                         ROW(mjContact, solref, "d"),
                                         ROW(mjContact, solreffriction, "d"),
                                         ROW(mjContact, solimp, "d"),
                                         ROW(mjContact, adhesion, "d"),
                                         ROW(mjContact, mu, "d"),
                                         ROW(mjContact, H, "d"),
                                         ROW(mjContact, dim, "i"),
                                         ROW(mjContact, geom1, "i"),
                                         ROW(mjContact, geom2, "i"),
                                         ROW(mjContact, geom, "i"),
                                         ROW(mjContact, flex, "i"),
                                         ROW(mjContact, elem, "i"),
                                         ROW(mjContact, vert, "i"),
                                         ROW(mjContact, exclude, "i"),
                                         ROW(mjContact, efc_address, "i"),
                                         {NULL, 0, NULL, 0}};

static const layoutRow warning_rows[] = {
    ROW(mjWarningStat, lastinfo, "i"), ROW(mjWarningStat, number, "i"), {NULL, 0, NULL, 0}};

static const layoutRow timer_rows[] = {
    ROW(mjTimerStat, duration, "d"), ROW(mjTimerStat, number, "i"), {NULL, 0, NULL, 0}};

static const layoutRow solver_rows[] = {
    ROW(mjSolverStat, improvement, "d"), ROW(mjSolverStat, gradient, "d"),
    ROW(mjSolverStat, lineslope, "d"),   ROW(mjSolverStat, nactive, "i"),
    ROW(mjSolverStat, nchange, "i"),     ROW(mjSolverStat, neval, "i"),
    ROW(mjSolverStat, nupdate, "i"),     {NULL, 0, NULL, 0}};

/* mjData's members that are not arrays of the X-macro table */
static const layoutRow data_rows[] = {ROW(mjData, narena, "q"),
                                      ROW(mjData, nbuffer, "q"),
                                      ROW(mjData, pstack, "Q"),
                                      ROW(mjData, pbase, "Q"),
                                      ROW(mjData, maxuse_stack, "q"),
                                      ROW(mjData, warning, "mjWarningStat"),
                                      ROW(mjData, timer, "mjTimerStat"),
                                      ROW(mjData, solver, "mjSolverStat"),
                                      ROW(mjData, solver_niter, "i"),
                                      ROW(mjData, nisland, "i"),
                                      ROW(mjData, nidof, "i"),
                                      ROW(mjData, time, "d"),
                                      ROW(mjData, energy, "d"),
                                      ROW(mjData, ncon, "i"),
                                      ROW(mjData, ne, "i"),
                                      ROW(mjData, nf, "i"),
                                      ROW(mjData, nl, "i"),
                                      ROW(mjData, nefc, "i"),
                                      ROW(mjData, nJ, "i"),
                                      ROW(mjData, nA, "i"),
                                      ROW(mjData, parena, "Q"),
                                      ROW(mjData, maxuse_arena, "q"),
                                      ROW(mjData, maxuse_efc, "i"),
                                      ROW(mjData, solver_nnz, "i"),
                                      ROW(mjData, solver_fwdinv, "d"),
                                      {NULL, 0, NULL, 0}};

#undef ROW

/* the structs with a layout, and their sizes */
static const struct {
  const char* name;
  const layoutRow* rows;
  size_t size;
} layouts[] = {
    {"mjOption", option_rows, sizeof(mjOption)},
    {"mjStatistic", statistic_rows, sizeof(mjStatistic)},
    {"mjContact", contact_rows, sizeof(mjContact)},
    {"mjWarningStat", warning_rows, sizeof(mjWarningStat)},
    {"mjTimerStat", timer_rows, sizeof(mjTimerStat)},
    {"mjSolverStat", solver_rows, sizeof(mjSolverStat)},
    {"mjData", data_rows, sizeof(mjData)},
};

/* layout(name) -> (sizeof, [(member, offset, kind, nbytes), ...]) */
static PyObject* py_layout(PyObject* self, PyObject* arg) {
  (void)self;
  const char* name = PyUnicode_AsUTF8(arg);
  if (!name) {
    return NULL;
  }
  for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
    if (strcmp(layouts[i].name, name) != 0) {
      continue;
    }
    PyObject* list = PyList_New(0);
    if (!list) {
      return NULL;
    }
    for (const layoutRow* r = layouts[i].rows; r->name; r++) {
      PyObject* row =
          Py_BuildValue("(snsn)", r->name, (Py_ssize_t)r->offset, r->kind, (Py_ssize_t)r->size);
      if (!row || PyList_Append(list, row) < 0) {
        Py_XDECREF(row);
        Py_DECREF(list);
        return NULL;
      }
      Py_DECREF(row);
    }
    return Py_BuildValue("(nN)", (Py_ssize_t)layouts[i].size, list);
  }
  PyErr_Format(PyExc_KeyError, "no layout for %s", name);
  return NULL;
}

/* ---- the module ------------------------------------------------------------------------ */

static PyMethodDef module_methods[] = {
    {"layout", py_layout, METH_O, "layout(struct_name) -> (size, rows)"}, {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "torsion._core",
    .m_doc = "Torsion's engine in process: models, data, engine functions, batches.",
    .m_size = -1,
    .m_methods = module_methods,
};

/* add every function of a method table to the module */
static int add_functions(PyObject* mod, PyMethodDef* defs) {
  return PyModule_AddFunctions(mod, defs);
}

/* add a type under its short name */
static int add_type(PyObject* mod, PyTypeObject* type, const char* name) {
  if (PyType_Ready(type) < 0) {
    return -1;
  }
  Py_INCREF(type);
  if (PyModule_AddObject(mod, name, (PyObject*)type) < 0) {
    Py_DECREF(type);
    return -1;
  }
  return 0;
}

PyMODINIT_FUNC PyInit__core(void) {
  PyObject* mod = PyModule_Create(&core_module);
  if (!mod) {
    return NULL;
  }
  tnpy_FatalError = PyErr_NewExceptionWithDoc("torsion.FatalError",
                                              "An engine error (mju_error) inside a Torsion call.",
                                              PyExc_Exception, NULL);
  if (!tnpy_FatalError || PyModule_AddObject(mod, "FatalError", tnpy_FatalError) < 0 ||
      add_type(mod, &tnpy_ViewType, "View") < 0 || add_type(mod, &tnpy_ModelType, "Model") < 0 ||
      add_type(mod, &tnpy_DataType, "Data") < 0 || add_type(mod, &tnpy_BatchType, "Batch") < 0 ||
      add_functions(mod, tnpy_function_methods) < 0 ||
      add_functions(mod, tnpy_rollout_methods) < 0) {
    Py_DECREF(mod);
    return NULL;
  }
  Py_INCREF(tnpy_FatalError);
  mju_user_error = on_engine_error;
  mju_user_warning = on_engine_warning;
  PyModule_AddIntConstant(mod, "mjNWARNING", mjNWARNING);
  PyModule_AddStringConstant(mod, "TORSION_VERSION", TORSION_VERSION);
  return mod;
}
