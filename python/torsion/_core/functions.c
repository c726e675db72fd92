/* _core/functions.c — engine functions with MuJoCo's Python names and argument orders:
 * mj_step, mj_forward, the pipeline stages, state get/set, Jacobians, finite-difference
 * derivatives, names. Every engine call runs under tn_run with the GIL released, so an
 * mju_error becomes torsion.FatalError; array arguments are float64 C-contiguous buffers
 * of the exact size MuJoCo expects. */
#include <string.h>

#include "core.h"

/* arguments of one engine call, shared by the trampolines below */
typedef struct callArgs_ {
  const mjModel* m;
  mjData* d;
  mjtNum* p[8];
  int i[4];
  mjtNum x;
  mjtNum result;
  void (*md)(const mjModel*, mjData*);
} callArgs;

/* ---- (m, d) stages ---------------------------------------------------------------------- */

/* the stage, i[0] times */
static void t_md(void* p) {
  callArgs* a = p;
  for (int k = 0; k < a->i[0]; k++) {
    a->md(a->m, a->d);
  }
}

/* parse model and data objects, check them, fill a */
static int take_md(PyObject* mo, PyObject* da, callArgs* a) {
  if (!PyObject_TypeCheck(mo, &tnpy_ModelType)) {
    PyErr_SetString(PyExc_TypeError, "m must be an MjModel");
    return -1;
  }
  if (!PyObject_TypeCheck(da, &tnpy_DataType)) {
    PyErr_SetString(PyExc_TypeError, "d must be an MjData");
    return -1;
  }
  if (tnpy_check_pair((tnpyModel*)mo, (tnpyData*)da) < 0) {
    return -1;
  }
  a->m = ((tnpyModel*)mo)->m;
  a->d = ((tnpyData*)da)->d;
  return 0;
}

/* a stage function fn(m, d) */
static PyObject* call_md(PyObject* args, PyObject* kw, void (*fn)(const mjModel*, mjData*)) {
  static char* kwlist[] = {"m", "d", NULL};
  PyObject *mo, *da;
  callArgs a = {0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO", kwlist, &mo, &da) || take_md(mo, da, &a) < 0) {
    return NULL;
  }
  a.md = fn;
  a.i[0] = 1;
  if (tnpy_run(a.d, t_md, &a) < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

#define STAGE(NAME)                                                          \
  static PyObject* py_##NAME(PyObject* self, PyObject* args, PyObject* kw) { \
    (void)self;                                                              \
    return call_md(args, kw, NAME);                                          \
  }
STAGE(mj_forward)
STAGE(mj_inverse)
STAGE(mj_step1)
STAGE(mj_step2)
STAGE(mj_resetData)
STAGE(mj_kinematics)
STAGE(mj_comPos)
STAGE(mj_comVel)
STAGE(mj_subtreeVel)
STAGE(mj_camlight)
STAGE(mj_tendon)
STAGE(mj_transmission)
STAGE(mj_crb)
STAGE(mj_factorM)
STAGE(mj_collision)
STAGE(mj_makeConstraint)
STAGE(mj_projectConstraint)
STAGE(mj_referenceConstraint)
STAGE(mj_fwdPosition)
STAGE(mj_fwdVelocity)
STAGE(mj_fwdActuation)
STAGE(mj_fwdAcceleration)
STAGE(mj_fwdConstraint)
STAGE(mj_passive)
STAGE(mj_sensorPos)
STAGE(mj_sensorVel)
STAGE(mj_sensorAcc)
STAGE(mj_energyPos)
STAGE(mj_energyVel)
STAGE(mj_rnePostConstraint)
STAGE(mj_Euler)
STAGE(mj_implicit)
STAGE(mj_checkPos)
STAGE(mj_checkVel)
STAGE(mj_checkAcc)
STAGE(mj_invPosition)
STAGE(mj_invVelocity)
STAGE(mj_invConstraint)
STAGE(mj_compareFwdInv)
#undef STAGE

/* mj_step(m, d, nstep=1) */
static PyObject* py_mj_step(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "nstep", NULL};
  PyObject *mo, *da;
  int nstep = 1;
  callArgs a = {0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|i", kwlist, &mo, &da, &nstep) ||
      take_md(mo, da, &a) < 0) {
    return NULL;
  }
  if (nstep < 0) {
    PyErr_SetString(PyExc_ValueError, "nstep must be non-negative");
    return NULL;
  }
  a.md = mj_step;
  a.i[0] = nstep;
  if (tnpy_run(a.d, t_md, &a) < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* mj_RungeKutta(m, d, N) */
static void t_rk(void* p) {
  callArgs* a = p;
  mj_RungeKutta(a->m, a->d, a->i[0]);
}
static PyObject* py_mj_RungeKutta(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "N", NULL};
  PyObject *mo, *da;
  callArgs a = {0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOi", kwlist, &mo, &da, &a.i[0]) ||
      take_md(mo, da, &a) < 0 || tnpy_run(a.d, t_rk, &a) < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* mj_resetDataKeyframe(m, d, key) */
static void t_reset_key(void* p) {
  callArgs* a = p;
  mj_resetDataKeyframe(a->m, a->d, a->i[0]);
}
static PyObject* py_mj_resetDataKeyframe(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "key", NULL};
  PyObject *mo, *da;
  callArgs a = {0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOi", kwlist, &mo, &da, &a.i[0]) ||
      take_md(mo, da, &a) < 0) {
    return NULL;
  }
  if (a.i[0] < 0 || a.i[0] >= a.m->nkey) {
    PyErr_Format(PyExc_ValueError, "keyframe %d out of range [0, %d)", a.i[0], a.m->nkey);
    return NULL;
  }
  if (tnpy_run(a.d, t_reset_key, &a) < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* ---- state ------------------------------------------------------------------------------ */

/* the model of an MjModel argument, or NULL with TypeError */
static const mjModel* take_m(PyObject* mo) {
  if (!PyObject_TypeCheck(mo, &tnpy_ModelType) || !((tnpyModel*)mo)->m) {
    PyErr_SetString(PyExc_TypeError, "m must be an MjModel");
    return NULL;
  }
  return ((tnpyModel*)mo)->m;
}

/* every bit a state spec may hold */
#define TNPY_STATE_ALL ((1 << 14) - 1)

/* 0 when spec holds only known bits, else -1 with ValueError */
static int check_spec(unsigned int spec) {
  if (spec & ~(unsigned int)TNPY_STATE_ALL) {
    PyErr_Format(PyExc_ValueError, "invalid state spec %u", spec);
    return -1;
  }
  return 0;
}

/* mj_stateSize(m, spec) */
static PyObject* py_mj_stateSize(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "spec", NULL};
  PyObject* mo;
  unsigned int spec;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OI", kwlist, &mo, &spec)) {
    return NULL;
  }
  const mjModel* m = take_m(mo);
  if (!m || check_spec(spec) < 0) {
    return NULL;
  }
  return PyLong_FromLong(mj_stateSize(m, (int)spec));
}

static void t_get_state(void* p) {
  callArgs* a = p;
  mj_getState(a->m, a->d, a->p[0], a->i[0]);
}
static void t_set_state(void* p) {
  callArgs* a = p;
  mj_setState(a->m, a->d, a->p[0], a->i[0]);
}

/* mj_getState(m, d, state, spec) and mj_setState(m, d, state, spec) */
static PyObject* state_call(PyObject* args, PyObject* kw, int set) {
  static char* kwlist[] = {"m", "d", "state", "spec", NULL};
  PyObject *mo, *da, *st;
  unsigned int spec;
  callArgs a = {0};
  Py_buffer b;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOI", kwlist, &mo, &da, &st, &spec) ||
      take_md(mo, da, &a) < 0 || check_spec(spec) < 0 ||
      tnpy_numbuf(st, &b, mj_stateSize(a.m, (int)spec), !set, 0, "state") < 0) {
    return NULL;
  }
  a.p[0] = b.buf;
  a.i[0] = (int)spec;
  int rc = tnpy_run(a.d, set ? t_set_state : t_get_state, &a);
  tnpy_release(&b);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}
static PyObject* py_mj_getState(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  return state_call(args, kw, 0);
}
static PyObject* py_mj_setState(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  return state_call(args, kw, 1);
}

/* ---- derivatives ------------------------------------------------------------------------ */

static void t_transition_fd(void* p) {
  callArgs* a = p;
  mjd_transitionFD(a->m, a->d, a->x, (mjtByte)a->i[0], a->p[0], a->p[1], a->p[2], a->p[3]);
}

/* mjd_transitionFD(m, d, eps, flg_centered, A, B, C, D) */
static PyObject* py_mjd_transitionFD(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "eps", "flg_centered", "A", "B", "C", "D", NULL};
  PyObject *mo, *da, *o[4] = {Py_None, Py_None, Py_None, Py_None};
  int centered;
  callArgs a = {0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOdp|OOOO", kwlist, &mo, &da, &a.x, &centered, &o[0],
                                   &o[1], &o[2], &o[3]) ||
      take_md(mo, da, &a) < 0) {
    return NULL;
  }
  const mjModel* m = a.m;
  Py_ssize_t nx = 2 * m->nv + m->na, ns = m->nsensordata;
  Py_ssize_t sizes[4] = {nx * nx, nx * m->nu, ns * nx, ns * m->nu};
  const char* names[4] = {"A", "B", "C", "D"};
  Py_buffer b[4];
  int k = 0, rc = -1;
  for (; k < 4; k++) {
    if (tnpy_numbuf(o[k], &b[k], sizes[k], 1, 1, names[k]) < 0) {
      break;
    }
    a.p[k] = b[k].buf;
  }
  if (k == 4) {
    a.i[0] = centered;
    rc = tnpy_run(a.d, t_transition_fd, &a);
  }
  while (k-- > 0) {
    tnpy_release(&b[k]);
  }
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

static void t_inverse_fd(void* p) {
  callArgs* a = p;
  mjd_inverseFD(a->m, a->d, a->x, (mjtByte)a->i[0], a->p[0], a->p[1], a->p[2], a->p[3], a->p[4],
                a->p[5], a->p[6]);
}

/* mjd_inverseFD(m, d, eps, flg_actuation, DfDq, DfDv, DfDa, DsDq, DsDv, DsDa, DmDq) */
static PyObject* py_mjd_inverseFD(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m",    "d",    "eps",  "flg_actuation", "DfDq", "DfDv",
                           "DfDa", "DsDq", "DsDv", "DsDa",          "DmDq", NULL};
  PyObject *mo, *da, *o[7];
  int actuation;
  callArgs a = {0};
  for (int k = 0; k < 7; k++) {
    o[k] = Py_None;
  }
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOdp|OOOOOOO", kwlist, &mo, &da, &a.x, &actuation,
                                   &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6]) ||
      take_md(mo, da, &a) < 0) {
    return NULL;
  }
  const mjModel* m = a.m;
  Py_ssize_t nv = m->nv, ns = m->nsensordata;
  Py_ssize_t sizes[7] = {nv * nv, nv * nv, nv * nv, nv * ns, nv * ns, nv * ns, nv * m->nC};
  const char* names[7] = {"DfDq", "DfDv", "DfDa", "DsDq", "DsDv", "DsDa", "DmDq"};
  Py_buffer b[7];
  int k = 0, rc = -1;
  for (; k < 7; k++) {
    if (tnpy_numbuf(o[k], &b[k], sizes[k], 1, 1, names[k]) < 0) {
      break;
    }
    a.p[k] = b[k].buf;
  }
  if (k == 7) {
    a.i[0] = actuation;
    rc = tnpy_run(a.d, t_inverse_fd, &a);
  }
  while (k-- > 0) {
    tnpy_release(&b[k]);
  }
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* ---- Jacobians and inertia ---------------------------------------------------------------- */

/* which Jacobian: 0 point, 1 body, 2 body com, 3 site, 4 geom */
static void t_jac(void* p) {
  callArgs* a = p;
  switch (a->i[1]) {
    case 0: mj_jac(a->m, a->d, a->p[0], a->p[1], a->p[2], a->i[0]); break;
    case 1: mj_jacBody(a->m, a->d, a->p[0], a->p[1], a->i[0]); break;
    case 2: mj_jacBodyCom(a->m, a->d, a->p[0], a->p[1], a->i[0]); break;
    case 3: mj_jacSite(a->m, a->d, a->p[0], a->p[1], a->i[0]); break;
    default: mj_jacGeom(a->m, a->d, a->p[0], a->p[1], a->i[0]); break;
  }
}

/* the five Jacobian functions: (m, d, jacp, jacr, [point,] id) */
static PyObject* jac_call(PyObject* args, PyObject* kw, int which, const char* idname,
                          int count_of_id) {
  static char* kw_point[] = {"m", "d", "jacp", "jacr", "point", "body", NULL};
  char* kw_id[] = {"m", "d", "jacp", "jacr", (char*)idname, NULL};
  PyObject *mo, *da, *jp, *jr, *pt = NULL;
  int id;
  callArgs a = {0};
  int ok =
      which == 0
          ? PyArg_ParseTupleAndKeywords(args, kw, "OOOOOi", kw_point, &mo, &da, &jp, &jr, &pt, &id)
          : PyArg_ParseTupleAndKeywords(args, kw, "OOOOi", kw_id, &mo, &da, &jp, &jr, &id);
  if (!ok || take_md(mo, da, &a) < 0) {
    return NULL;
  }
  if (id < 0 || id >= count_of_id) {
    PyErr_Format(PyExc_ValueError, "%s id %d out of range", which == 0 ? "body" : idname, id);
    return NULL;
  }
  Py_buffer b[3];
  int k = 0, rc = -1;
  PyObject* objs[3] = {jp, jr, pt};
  Py_ssize_t sizes[3] = {3 * (Py_ssize_t)a.m->nv, 3 * (Py_ssize_t)a.m->nv, 3};
  const char* names[3] = {"jacp", "jacr", "point"};
  int nbuf = which == 0 ? 3 : 2;
  for (; k < nbuf; k++) {
    if (tnpy_numbuf(objs[k], &b[k], sizes[k], k < 2, k < 2, names[k]) < 0) {
      break;
    }
    a.p[k] = b[k].buf;
  }
  if (k == nbuf) {
    a.i[0] = id;
    a.i[1] = which;
    rc = tnpy_run(a.d, t_jac, &a);
  }
  while (k-- > 0) {
    tnpy_release(&b[k]);
  }
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* the model of the first positional/keyword argument, for id range checks */
static const mjModel* peek_model(PyObject* args, PyObject* kw) {
  PyObject* mo = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0)
                 : kw                       ? PyDict_GetItemString(kw, "m")
                                            : NULL;
  if (mo && PyObject_TypeCheck(mo, &tnpy_ModelType) && ((tnpyModel*)mo)->m) {
    return ((tnpyModel*)mo)->m;
  }
  return NULL;
}

static PyObject* py_mj_jac(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  const mjModel* m = peek_model(args, kw);
  return jac_call(args, kw, 0, "body", m ? m->nbody : 0);
}
static PyObject* py_mj_jacBody(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  const mjModel* m = peek_model(args, kw);
  return jac_call(args, kw, 1, "body", m ? m->nbody : 0);
}
static PyObject* py_mj_jacBodyCom(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  const mjModel* m = peek_model(args, kw);
  return jac_call(args, kw, 2, "body", m ? m->nbody : 0);
}
static PyObject* py_mj_jacSite(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  const mjModel* m = peek_model(args, kw);
  return jac_call(args, kw, 3, "site", m ? m->nsite : 0);
}
static PyObject* py_mj_jacGeom(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  const mjModel* m = peek_model(args, kw);
  return jac_call(args, kw, 4, "geom", m ? m->ngeom : 0);
}

static void t_full_m(void* p) {
  callArgs* a = p;
  mj_fullM(a->m, a->d, a->p[0]);
}

/* mj_fullM(m, d, dst): the dense inertia of d->M (MuJoCo 3.14's Python signature) */
static PyObject* py_mj_fullM(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "dst", NULL};
  PyObject *mo, *da, *dst;
  callArgs a = {0};
  Py_buffer b0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO", kwlist, &mo, &da, &dst) ||
      take_md(mo, da, &a) < 0 ||
      tnpy_numbuf(dst, &b0, (Py_ssize_t)a.m->nv * a.m->nv, 1, 0, "dst") < 0) {
    return NULL;
  }
  a.p[0] = b0.buf;
  int rc = tnpy_run(a.d, t_full_m, &a);
  tnpy_release(&b0);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

static void t_mul_m(void* p) {
  callArgs* a = p;
  mj_mulM(a->m, a->d, a->p[0], a->p[1]);
}
static void t_rne(void* p) {
  callArgs* a = p;
  mj_rne(a->m, a->d, a->i[0], a->p[0]);
}

/* mj_mulM(m, d, res, vec) */
static PyObject* py_mj_mulM(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "res", "vec", NULL};
  PyObject *mo, *da, *res, *vec;
  callArgs a = {0};
  Py_buffer b0, b1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO", kwlist, &mo, &da, &res, &vec) ||
      take_md(mo, da, &a) < 0 || tnpy_numbuf(res, &b0, a.m->nv, 1, 0, "res") < 0) {
    return NULL;
  }
  if (tnpy_numbuf(vec, &b1, a.m->nv, 0, 0, "vec") < 0) {
    tnpy_release(&b0);
    return NULL;
  }
  a.p[0] = b0.buf;
  a.p[1] = b1.buf;
  int rc = tnpy_run(a.d, t_mul_m, &a);
  tnpy_release(&b0);
  tnpy_release(&b1);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* mj_rne(m, d, flg_acc, result) */
static PyObject* py_mj_rne(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "flg_acc", "result", NULL};
  PyObject *mo, *da, *res;
  callArgs a = {0};
  Py_buffer b;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOiO", kwlist, &mo, &da, &a.i[0], &res) ||
      take_md(mo, da, &a) < 0 || tnpy_numbuf(res, &b, a.m->nv, 1, 0, "result") < 0) {
    return NULL;
  }
  a.p[0] = b.buf;
  int rc = tnpy_run(a.d, t_rne, &a);
  tnpy_release(&b);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

static void t_contact_force(void* p) {
  callArgs* a = p;
  mj_contactForce(a->m, a->d, a->i[0], a->p[0]);
}

/* mj_contactForce(m, d, id, result) */
static PyObject* py_mj_contactForce(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "d", "id", "result", NULL};
  PyObject *mo, *da, *res;
  callArgs a = {0};
  Py_buffer b;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOiO", kwlist, &mo, &da, &a.i[0], &res) ||
      take_md(mo, da, &a) < 0) {
    return NULL;
  }
  if (a.i[0] < 0 || a.i[0] >= a.d->ncon) {
    PyErr_Format(PyExc_ValueError, "contact id %d out of range [0, %d)", a.i[0], a.d->ncon);
    return NULL;
  }
  if (tnpy_numbuf(res, &b, 6, 1, 0, "result") < 0) {
    return NULL;
  }
  a.p[0] = b.buf;
  int rc = tnpy_run(a.d, t_contact_force, &a);
  tnpy_release(&b);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

static void t_object_vel(void* p) {
  callArgs* a = p;
  if (a->i[3]) {
    mj_objectAcceleration(a->m, a->d, a->i[0], a->i[1], a->p[0], a->i[2]);
  } else {
    mj_objectVelocity(a->m, a->d, a->i[0], a->i[1], a->p[0], a->i[2]);
  }
}

/* mj_objectVelocity / mj_objectAcceleration(m, d, objtype, objid, res, flg_local) */
static PyObject* object_motion(PyObject* args, PyObject* kw, int acc) {
  static char* kwlist[] = {"m", "d", "objtype", "objid", "res", "flg_local", NULL};
  PyObject *mo, *da, *res;
  callArgs a = {0};
  Py_buffer b;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOiiOi", kwlist, &mo, &da, &a.i[0], &a.i[1], &res,
                                   &a.i[2]) ||
      take_md(mo, da, &a) < 0 || tnpy_numbuf(res, &b, 6, 1, 0, "res") < 0) {
    return NULL;
  }
  a.p[0] = b.buf;
  a.i[3] = acc;
  int rc = tnpy_run(a.d, t_object_vel, &a);
  tnpy_release(&b);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}
static PyObject* py_mj_objectVelocity(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  return object_motion(args, kw, 0);
}
static PyObject* py_mj_objectAcceleration(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  return object_motion(args, kw, 1);
}

/* ---- positions ---------------------------------------------------------------------------- */

static void t_integrate_pos(void* p) {
  callArgs* a = p;
  mj_integratePos(a->m, a->p[0], a->p[1], a->x);
}
static void t_differentiate_pos(void* p) {
  callArgs* a = p;
  mj_differentiatePos(a->m, a->p[0], a->x, a->p[1], a->p[2]);
}
static void t_normalize_quat(void* p) {
  callArgs* a = p;
  mj_normalizeQuat(a->m, a->p[0]);
}

/* mj_integratePos(m, qpos, qvel, dt) */
static PyObject* py_mj_integratePos(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "qpos", "qvel", "dt", NULL};
  PyObject *mo, *q, *v;
  callArgs a = {0};
  Py_buffer b0, b1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOd", kwlist, &mo, &q, &v, &a.x) ||
      !(a.m = take_m(mo)) || tnpy_numbuf(q, &b0, a.m->nq, 1, 0, "qpos") < 0) {
    return NULL;
  }
  if (tnpy_numbuf(v, &b1, a.m->nv, 0, 0, "qvel") < 0) {
    tnpy_release(&b0);
    return NULL;
  }
  a.p[0] = b0.buf;
  a.p[1] = b1.buf;
  int rc = tnpy_run(NULL, t_integrate_pos, &a);
  tnpy_release(&b0);
  tnpy_release(&b1);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* mj_differentiatePos(m, qvel, dt, qpos1, qpos2) */
static PyObject* py_mj_differentiatePos(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "qvel", "dt", "qpos1", "qpos2", NULL};
  PyObject *mo, *v, *q1, *q2;
  callArgs a = {0};
  Py_buffer b0, b1, b2;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOdOO", kwlist, &mo, &v, &a.x, &q1, &q2) ||
      !(a.m = take_m(mo)) || tnpy_numbuf(v, &b0, a.m->nv, 1, 0, "qvel") < 0) {
    return NULL;
  }
  if (tnpy_numbuf(q1, &b1, a.m->nq, 0, 0, "qpos1") < 0) {
    tnpy_release(&b0);
    return NULL;
  }
  if (tnpy_numbuf(q2, &b2, a.m->nq, 0, 0, "qpos2") < 0) {
    tnpy_release(&b0);
    tnpy_release(&b1);
    return NULL;
  }
  a.p[0] = b0.buf;
  a.p[1] = b1.buf;
  a.p[2] = b2.buf;
  int rc = tnpy_run(NULL, t_differentiate_pos, &a);
  tnpy_release(&b0);
  tnpy_release(&b1);
  tnpy_release(&b2);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* mj_normalizeQuat(m, qpos) */
static PyObject* py_mj_normalizeQuat(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "qpos", NULL};
  PyObject *mo, *q;
  callArgs a = {0};
  Py_buffer b;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO", kwlist, &mo, &q) || !(a.m = take_m(mo)) ||
      tnpy_numbuf(q, &b, a.m->nq, 1, 0, "qpos") < 0) {
    return NULL;
  }
  a.p[0] = b.buf;
  int rc = tnpy_run(NULL, t_normalize_quat, &a);
  tnpy_release(&b);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* ---- names -------------------------------------------------------------------------------- */

/* mj_name2id(m, type, name) */
static PyObject* py_mj_name2id(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "type", "name", NULL};
  PyObject* mo;
  int type;
  const char* name;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "Ois", kwlist, &mo, &type, &name)) {
    return NULL;
  }
  const mjModel* m = take_m(mo);
  if (!m) {
    return NULL;
  }
  return PyLong_FromLong(mj_name2id(m, type, name));
}

/* mj_id2name(m, type, id) -> str or None */
static PyObject* py_mj_id2name(PyObject* self, PyObject* args, PyObject* kw) {
  (void)self;
  static char* kwlist[] = {"m", "type", "id", NULL};
  PyObject* mo;
  int type, id;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "Oii", kwlist, &mo, &type, &id)) {
    return NULL;
  }
  const mjModel* m = take_m(mo);
  if (!m) {
    return NULL;
  }
  const char* name = mj_id2name(m, type, id);
  if (!name) {
    Py_RETURN_NONE;
  }
  return PyUnicode_FromString(name);
}

/* 1 when every sensor of the model is evaluated by the engine */
static PyObject* py_sensors_evaluated(PyObject* self, PyObject* arg) {
  (void)self;
  const mjModel* m = take_m(arg);
  if (!m) {
    return NULL;
  }
  return PyBool_FromLong(tn_sensorsEvaluated(m));
}

#define FN(NAME, DOC) \
  { #NAME, (PyCFunction)(void (*)(void))py_##NAME, METH_VARARGS | METH_KEYWORDS, DOC }
PyMethodDef tnpy_function_methods[] = {
    FN(mj_step, "mj_step(m, d, nstep=1): advance nstep timesteps."),
    FN(mj_forward, "mj_forward(m, d): forward dynamics."),
    FN(mj_inverse, "mj_inverse(m, d): inverse dynamics."),
    FN(mj_step1, "mj_step1(m, d)"),
    FN(mj_step2, "mj_step2(m, d)"),
    FN(mj_resetData, "mj_resetData(m, d)"),
    FN(mj_resetDataKeyframe, "mj_resetDataKeyframe(m, d, key)"),
    FN(mj_RungeKutta, "mj_RungeKutta(m, d, N)"),
    FN(mj_kinematics, "mj_kinematics(m, d)"),
    FN(mj_comPos, "mj_comPos(m, d)"),
    FN(mj_comVel, "mj_comVel(m, d)"),
    FN(mj_subtreeVel, "mj_subtreeVel(m, d)"),
    FN(mj_camlight, "mj_camlight(m, d)"),
    FN(mj_tendon, "mj_tendon(m, d)"),
    FN(mj_transmission, "mj_transmission(m, d)"),
    FN(mj_crb, "mj_crb(m, d)"),
    FN(mj_factorM, "mj_factorM(m, d)"),
    FN(mj_collision, "mj_collision(m, d)"),
    FN(mj_makeConstraint, "mj_makeConstraint(m, d)"),
    FN(mj_projectConstraint, "mj_projectConstraint(m, d)"),
    FN(mj_referenceConstraint, "mj_referenceConstraint(m, d)"),
    FN(mj_fwdPosition, "mj_fwdPosition(m, d)"),
    FN(mj_fwdVelocity, "mj_fwdVelocity(m, d)"),
    FN(mj_fwdActuation, "mj_fwdActuation(m, d)"),
    FN(mj_fwdAcceleration, "mj_fwdAcceleration(m, d)"),
    FN(mj_fwdConstraint, "mj_fwdConstraint(m, d)"),
    FN(mj_passive, "mj_passive(m, d)"),
    FN(mj_sensorPos, "mj_sensorPos(m, d)"),
    FN(mj_sensorVel, "mj_sensorVel(m, d)"),
    FN(mj_sensorAcc, "mj_sensorAcc(m, d)"),
    FN(mj_energyPos, "mj_energyPos(m, d)"),
    FN(mj_energyVel, "mj_energyVel(m, d)"),
    FN(mj_rnePostConstraint, "mj_rnePostConstraint(m, d)"),
    FN(mj_Euler, "mj_Euler(m, d)"),
    FN(mj_implicit, "mj_implicit(m, d)"),
    FN(mj_checkPos, "mj_checkPos(m, d)"),
    FN(mj_checkVel, "mj_checkVel(m, d)"),
    FN(mj_checkAcc, "mj_checkAcc(m, d)"),
    FN(mj_invPosition, "mj_invPosition(m, d)"),
    FN(mj_invVelocity, "mj_invVelocity(m, d)"),
    FN(mj_invConstraint, "mj_invConstraint(m, d)"),
    FN(mj_compareFwdInv, "mj_compareFwdInv(m, d)"),
    FN(mj_stateSize, "mj_stateSize(m, spec) -> int"),
    FN(mj_getState, "mj_getState(m, d, state, spec)"),
    FN(mj_setState, "mj_setState(m, d, state, spec)"),
    FN(mjd_transitionFD, "mjd_transitionFD(m, d, eps, flg_centered, A, B, C, D)"),
    FN(mjd_inverseFD,
       "mjd_inverseFD(m, d, eps, flg_actuation, DfDq, DfDv, DfDa, DsDq, DsDv, DsDa, DmDq)"),
    FN(mj_jac, "mj_jac(m, d, jacp, jacr, point, body)"),
    FN(mj_jacBody, "mj_jacBody(m, d, jacp, jacr, body)"),
    FN(mj_jacBodyCom, "mj_jacBodyCom(m, d, jacp, jacr, body)"),
    FN(mj_jacSite, "mj_jacSite(m, d, jacp, jacr, site)"),
    FN(mj_jacGeom, "mj_jacGeom(m, d, jacp, jacr, geom)"),
    FN(mj_fullM, "mj_fullM(m, d, dst)"),
    FN(mj_mulM, "mj_mulM(m, d, res, vec)"),
    FN(mj_rne, "mj_rne(m, d, flg_acc, result)"),
    FN(mj_contactForce, "mj_contactForce(m, d, id, result)"),
    FN(mj_objectVelocity, "mj_objectVelocity(m, d, objtype, objid, res, flg_local)"),
    FN(mj_objectAcceleration, "mj_objectAcceleration(m, d, objtype, objid, res, flg_local)"),
    FN(mj_integratePos, "mj_integratePos(m, qpos, qvel, dt)"),
    FN(mj_differentiatePos, "mj_differentiatePos(m, qvel, dt, qpos1, qpos2)"),
    FN(mj_normalizeQuat, "mj_normalizeQuat(m, qpos)"),
    FN(mj_name2id, "mj_name2id(m, type, name) -> int"),
    FN(mj_id2name, "mj_id2name(m, type, id) -> str or None"),
    {"tn_sensorsEvaluated", py_sensors_evaluated, METH_O,
     "tn_sensorsEvaluated(m) -> bool: every sensor of m is evaluated by the engine."},
    {NULL, NULL, 0, NULL}};
#undef FN
