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

/* MuJoCo's default arena for a model without <size memory>: a stack of nstack mjtNums when
 * <size nstack> is given, else of 5 (njmax + neq + nv)^2 + 20 (the sum of the main sizes)
 * mjtNums, at least 1000; plus room for nconmax contacts (100 when unset) and njmax
 * constraint rows (500 when unset) with dense Jacobian and AR blocks; rounded up to whole
 * MiB. Returns MuJoCo's byte count for the same model. */
size_t tn__mujocoArena(const mjModel* m, long long nstack) {
  size_t nconmax = m->nconmax < 0 ? 100 : (size_t)m->nconmax;
  size_t njmax = m->njmax < 0 ? 500 : (size_t)m->njmax;
  size_t nv = (size_t)m->nv, nrow = njmax + (size_t)m->neq + nv;
  size_t nsum = (size_t)m->nq + nv + (size_t)m->nu + (size_t)m->na + (size_t)m->nbody +
                (size_t)m->njnt + (size_t)m->ngeom + (size_t)m->nsite + (size_t)m->neq +
                (size_t)m->ntendon + (size_t)m->nwrap;
  size_t stack = nstack > 0 ? (size_t)nstack : 5 * nrow * nrow + 20 * nsum;
  if (stack < 1000) {
    stack = 1000;
  }
  size_t bytes = sizeof(mjtNum) * stack + nconmax * sizeof(mjContact) +
                 njmax * (8 * sizeof(int) + 14 * sizeof(mjtNum)) + nv * 3 * sizeof(int) +
                 njmax * nv * (2 * sizeof(int) + 2 * sizeof(mjtNum)) +
                 njmax * njmax * (sizeof(int) + sizeof(mjtNum));
  size_t mib = (size_t)1 << 20;
  return (bytes + mib - 1) / mib * mib;
}

/* Torsion's default arena: what is left of MuJoCo's (tn__mujocoArena) after the rest of
 * Torsion's mjData (its struct and array buffer), so that the whole mjData, contacts
 * included (mj_makeData carves them from the arena), is no larger than MuJoCo's arena
 * alone; never less than half of it. The pipeline's own use is a small fraction of either
 * (a step of 16 Gymnasium humanoids peaks below 1 MB of 37). */
size_t tn__defaultArena(const mjModel* m, long long nstack) {
  size_t mujoco = tn__mujocoArena(m, nstack);
  size_t rest = sizeof(mjData) + tn__dataBufferBytes(m);
  return rest < mujoco / 2 ? mujoco - rest : mujoco - mujoco / 2;
}
