/* batch/batch_fd.c — batched inverse dynamics and finite-difference derivatives over
 * OpenMP: tn_inverseBatch, tn_transitionFDBatch, tn_inverseFDBatch.
 *
 * Same contract as tn_rolloutBatch: thread i works on datas[i], items are split with a
 * static schedule, and every item starts from mj_resetData plus its own state, so an
 * item's result never depends on the thread that ran it or on what ran before. */
#include <math.h>
#include <string.h>

#include <omp.h>

#include "batch/batch.h"

/* offset of item b's block of `size` numbers in an optional output */
static mjtNum* item(mjtNum* out, int b, size_t size) {
  return out ? out + (size_t)b * size : NULL;
}

/* reset d and load item b's state (and control, and acceleration) */
static void load_item(const mjModel* m, mjData* d, int b, int spec, const mjtNum* state,
                      const mjtNum* ctrl, const mjtNum* qacc) {
  mj_resetData(m, d);
  mj_setState(m, d, state + (size_t)b * mj_stateSize(m, spec), spec);
  if (ctrl && m->nu) {
    memcpy(d->ctrl, ctrl + (size_t)b * m->nu, sizeof(mjtNum) * m->nu);
  }
  if (qacc && m->nv) {
    memcpy(d->qacc, qacc + (size_t)b * m->nv, sizeof(mjtNum) * m->nv);
  }
}

/* common argument checks; 1 if fine */
static int batch_ok(const char* who, mjData** datas, int nthread, int B, const mjtNum* state) {
  if (!datas || nthread < 1 || B < 0 || (B > 0 && !state)) {
    mju_error("%s: invalid arguments", who);
    return 0;
  }
  return 1;
}

/* eps must be positive and finite */
static int eps_ok(const char* who, mjtNum eps) {
  if (!(eps > 0) || !isfinite(eps)) {
    mju_error("%s: eps must be a positive finite number, got %g", who, (double)eps);
    return 0;
  }
  return 1;
}

/* batched mj_inverse */
int tn_inverseBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* qacc, mjtNum* qfrc_out) {
  if (!batch_ok("tn_inverseBatch", datas, nthread, B, state) || (B > 0 && !qacc)) {
    return -1;
  }
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    load_item(m, d, b, spec, state, NULL, qacc);
    mj_inverse(m, d);
    memcpy(qfrc_out + (size_t)b * m->nv, d->qfrc_inverse, sizeof(mjtNum) * m->nv);
  }
  return 0;
}

/* batched mjd_transitionFD */
int tn_transitionFDBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                         const mjtNum* state, const mjtNum* ctrl, mjtNum eps, int centered,
                         mjtNum* A, mjtNum* Bm, mjtNum* C, mjtNum* D) {
  if (!batch_ok("tn_transitionFDBatch", datas, nthread, B, state) ||
      !eps_ok("tn_transitionFDBatch", eps)) {
    return -1;
  }
  if (m->opt.integrator == mjINT_RK4) {
    mju_error("tn_transitionFDBatch: RK4 integrator is not supported");
    return -1;
  }
  if ((C || D) && !tn_sensorsEvaluated(m)) {
    mju_error("tn_transitionFDBatch: the model has a sensor type Torsion does not evaluate "
              "yet (C and D unavailable)");
    return -1;
  }
  size_t ndx = 2 * (size_t)m->nv + m->na, ns = m->nsensordata;
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    load_item(m, d, b, spec, state, ctrl, NULL);
    mjd_transitionFD(m, d, eps, (mjtByte)(centered != 0), item(A, b, ndx * ndx),
                     item(Bm, b, ndx * m->nu), item(C, b, ns * ndx), item(D, b, ns * m->nu));
  }
  return 0;
}

/* batched mjd_inverseFD */
int tn_inverseFDBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                      const mjtNum* state, const mjtNum* qacc, mjtNum eps, int flg_actuation,
                      mjtNum* DfDq, mjtNum* DfDv, mjtNum* DfDa, mjtNum* DsDq, mjtNum* DsDv,
                      mjtNum* DsDa, mjtNum* DmDq) {
  if (!batch_ok("tn_inverseFDBatch", datas, nthread, B, state) || (B > 0 && !qacc) ||
      !eps_ok("tn_inverseFDBatch", eps)) {
    return -1;
  }
  if (m->opt.integrator == mjINT_RK4) {
    mju_error("tn_inverseFDBatch: RK4 integrator is not supported");
    return -1;
  }
  if ((DsDq || DsDv || DsDa) && !tn_sensorsEvaluated(m)) {
    mju_error("tn_inverseFDBatch: the model has a sensor type Torsion does not evaluate yet "
              "(DsDq/DsDv/DsDa unavailable)");
    return -1;
  }
  size_t nv = m->nv, ns = m->nsensordata, nC = m->nC;
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    load_item(m, d, b, spec, state, NULL, qacc);
    mjd_inverseFD(m, d, eps, (mjtByte)(flg_actuation != 0), item(DfDq, b, nv * nv),
                  item(DfDv, b, nv * nv), item(DfDa, b, nv * nv), item(DsDq, b, nv * ns),
                  item(DsDv, b, nv * ns), item(DsDa, b, nv * ns), item(DmDq, b, nv * nC));
  }
  return 0;
}
