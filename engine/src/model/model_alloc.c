/* model/model_alloc.c — mjModel lifetime: allocation from sizes, copy, delete.
 *
 * All arrays of a model share one buffer whose layout is generated from MJMODEL_POINTERS,
 * each array starting on a 64-byte boundary so hot arrays do not share cache lines. */
#include <stdlib.h>
#include <string.h>

#include "model/model_alloc.h"

/* alignment of each array inside the buffer */
#define TN_ALIGN 64

/* round n up to the next multiple of TN_ALIGN */
static size_t align_up(size_t n) {
  return (n + TN_ALIGN - 1) / TN_ALIGN * TN_ALIGN;
}

/* MuJoCo's default physics options */
void tn__defaultOption(mjOption* opt) {
  memset(opt, 0, sizeof(*opt));
  opt->timestep = 0.002;
  opt->impratio = 1;
  opt->tolerance = 1e-8;
  opt->ls_tolerance = 0.01;
  opt->noslip_tolerance = 1e-6;
  opt->ccd_tolerance = 1e-6;
  opt->sleep_tolerance = 1e-3;
  opt->gravity[2] = -9.81;
  opt->magnetic[1] = -0.5;
  opt->o_solref[0] = 0.02;
  opt->o_solref[1] = 1;
  opt->o_solimp[0] = 0.9;
  opt->o_solimp[1] = 0.95;
  opt->o_solimp[2] = 0.001;
  opt->o_solimp[3] = 0.5;
  opt->o_solimp[4] = 2;
  opt->o_friction[0] = 1;
  opt->o_friction[1] = 1;
  opt->o_friction[2] = 0.005;
  opt->o_friction[3] = 0.0001;
  opt->o_friction[4] = 0.0001;
  opt->integrator = mjINT_EULER;
  opt->cone = mjCONE_PYRAMIDAL;
  opt->jacobian = mjJAC_AUTO;
  opt->solver = mjSOL_NEWTON;
  opt->iterations = 100;
  opt->ls_iterations = 50;
  opt->noslip_iterations = 0;
  opt->ccd_iterations = 35;
  opt->sdf_initpoints = 40;
  opt->sdf_iterations = 10;
}

/* bytes needed by every array of a model with the given sizes */
static size_t model_bytes(const mjModel* m) {
  size_t total = 0;
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols) total += align_up(sizeof(type) * (size_t)m->rows * (cols));
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  return total;
}

/* point every array of m into m->buffer */
static void model_set_pointers(mjModel* m) {
  char* ptr = (char*)m->buffer;
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols)                                  \
  m->name = (type*)ptr;                                            \
  ptr += align_up(sizeof(type) * (size_t)m->rows * (cols));
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
}

/* allocate a model with the sizes of `sizes` */
mjModel* tn__allocModel(const mjModel* sizes) {
  mjModel* m = mju_malloc(sizeof(mjModel));
  if (!m) {
    return NULL;
  }
  memset(m, 0, sizeof(mjModel));

  // copy sizes and set defaults
#define X(name) m->name = sizes->name;
  MJMODEL_INTS(X)
#undef X
  tn__defaultOption(&m->opt);
  m->stat.meaninertia = 1;
  m->stat.meanmass = 1;
  m->stat.meansize = 0.2;
  m->stat.extent = 2;

  // one zeroed, aligned buffer for all arrays
  size_t nbytes = model_bytes(m);
  m->nbuffer = (int)nbytes;
  m->buffer = mju_malloc(nbytes ? align_up(nbytes) : TN_ALIGN);
  if (!m->buffer) {
    mju_free(m);
    return NULL;
  }
  memset(m->buffer, 0, nbytes);
  model_set_pointers(m);
  return m;
}

/* free a model */
void mj_deleteModel(mjModel* m) {
  if (!m) {
    return;
  }
  mju_free(m->buffer);
  mju_free(m);
}

/* deep copy */
mjModel* mj_copyModel(mjModel* dest, const mjModel* m) {
  if (!dest) {
    dest = tn__allocModel(m);
    if (!dest) {
      return NULL;
    }
  } else if (model_bytes(dest) != model_bytes(m)) {
    mju_error("mj_copyModel: destination has different sizes");
    return NULL;
  }

  // scalars, options and statistics, then the buffer
  void* buffer = dest->buffer;
  *dest = *m;
  dest->buffer = buffer;
  memcpy(dest->buffer, m->buffer, model_bytes(m));
  model_set_pointers(dest);
  return dest;
}

/* default arena: room for the stack of the smooth stages plus the constraint rows of many
 * contacts (efc_J, efc_AR, solver scratch), comparable to MuJoCo's defaults (~15 MB for a
 * humanoid, ~50 MB for a crowd of 22) */
size_t tn__defaultArena(const mjModel* m) {
  size_t nv = (size_t)m->nv;
  size_t need = ((size_t)16 << 20) + 64 * nv * nv + 2048 * (size_t)m->ngeom +
                sizeof(mjtNum) * (64 * nv + 64 * (size_t)m->nbody +
                                  16 * (size_t)m->ntendon * (nv + 8) + 32 * (size_t)m->nwrap);
  return need;
}
