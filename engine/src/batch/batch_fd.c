/* batch/batch_fd.c — batched inverse dynamics and finite-difference derivatives over
 * OpenMP: tn_inverseBatch, tn_transitionFDBatch, tn_inverseFDBatch.
 *
 * Same contract as tn_rolloutBatch: thread i works on datas[i], items are split with a
 * static schedule, and every item starts from mj_resetData plus its own state, so an
 * item's result never depends on the thread that ran it or on what ran before. Each item
 * runs under its own unwinding point (batch_item.c): an engine error fills that item's
 * outputs with NaN and the others keep their results. */
#include <math.h>
#include <string.h>

#include <omp.h>

#include "batch/batch.h"

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
static int batch_ok(const char* who, mjData** datas, int nthread, int B, const mjtNum* state,
                    int inputs_ok) {
  if (!datas || nthread < 1 || B < 0 || (B > 0 && (!state || !inputs_ok))) {
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

/* one item of any of the three helpers: inputs, and which computation with which outputs */
typedef struct fdItem_ {
  const mjModel* m;
  mjData* d;
  int b, spec, kind;
  const mjtNum *state, *ctrl, *qacc;
  mjtNum eps;
  int flag; /* centered / flg_actuation */
  mjtNum* out[7];
  size_t size[7];
} fdItem;

/* which computation an fdItem runs */
enum { FD_INVERSE, FD_TRANSITION, FD_INVERSEFD };

/* load the item, run its computation into its output blocks */
static void fd_item(void* arg) {
  fdItem* a = arg;
  load_item(a->m, a->d, a->b, a->spec, a->state, a->ctrl, a->qacc);
  mjtNum** o = a->out;
  switch (a->kind) {
    case FD_INVERSE:
      mj_inverse(a->m, a->d);
      memcpy(o[0], a->d->qfrc_inverse, sizeof(mjtNum) * a->m->nv);
      break;
    case FD_TRANSITION:
      mjd_transitionFD(a->m, a->d, a->eps, (mjtByte)(a->flag != 0), o[0], o[1], o[2], o[3]);
      break;
    default:
      mjd_inverseFD(a->m, a->d, a->eps, (mjtByte)(a->flag != 0), o[0], o[1], o[2], o[3], o[4],
                    o[5], o[6]);
  }
}

/* run item b, or fill its outputs with NaN when it fails */
static void run_item(fdItem* a, tnBatchStatus* status) {
  for (int k = 0; k < 7; k++) {
    a->out[k] = a->size[k] ? a->out[k] + (size_t)a->b * a->size[k] : NULL;
  }
  if (tn__batchRunItem(a->m, a->d, a->b, fd_item, a, status)) {
    for (int k = 0; k < 7; k++) {
      tn__batchFillNaN(a->out[k], a->size[k]);
    }
  }
}

/* batched mj_inverse */
int tn_inverseBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* qacc, mjtNum* qfrc_out,
                    tnBatchStatus* status) {
  if (!batch_ok("tn_inverseBatch", datas, nthread, B, state, qacc && qfrc_out)) {
    return -1;
  }
  tnBatchStatus local;
  status = status ? status : &local;
  tn__batchStatusClear(status);
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    fdItem a = {m, datas[omp_get_thread_num()], b, spec, FD_INVERSE, state, NULL, qacc, 0, 0,
                {qfrc_out}, {(size_t)m->nv}};
    run_item(&a, status);
  }
  return tn__batchResult(status);
}

/* batched mjd_transitionFD */
int tn_transitionFDBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                         const mjtNum* state, const mjtNum* ctrl, mjtNum eps, int centered,
                         mjtNum* A, mjtNum* Bm, mjtNum* C, mjtNum* D, tnBatchStatus* status) {
  if (!batch_ok("tn_transitionFDBatch", datas, nthread, B, state, 1) ||
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
  size_t ndx = 2 * (size_t)m->nv + m->na, ns = m->nsensordata, nu = m->nu;
  tnBatchStatus local;
  status = status ? status : &local;
  tn__batchStatusClear(status);
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    fdItem a = {m, datas[omp_get_thread_num()], b, spec, FD_TRANSITION, state, ctrl, NULL,
                eps, centered, {A, Bm, C, D},
                {A ? ndx * ndx : 0, Bm ? ndx * nu : 0, C ? ns * ndx : 0, D ? ns * nu : 0}};
    run_item(&a, status);
  }
  return tn__batchResult(status);
}

/* batched mjd_inverseFD */
int tn_inverseFDBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                      const mjtNum* state, const mjtNum* qacc, mjtNum eps, int flg_actuation,
                      mjtNum* DfDq, mjtNum* DfDv, mjtNum* DfDa, mjtNum* DsDq, mjtNum* DsDv,
                      mjtNum* DsDa, mjtNum* DmDq, tnBatchStatus* status) {
  if (!batch_ok("tn_inverseFDBatch", datas, nthread, B, state, qacc != NULL) ||
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
  tnBatchStatus local;
  status = status ? status : &local;
  tn__batchStatusClear(status);
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    fdItem a = {m, datas[omp_get_thread_num()], b, spec, FD_INVERSEFD, state, NULL, qacc, eps,
                flg_actuation, {DfDq, DfDv, DfDa, DsDq, DsDv, DsDa, DmDq},
                {DfDq ? nv * nv : 0, DfDv ? nv * nv : 0, DfDa ? nv * nv : 0, DsDq ? nv * ns : 0,
                 DsDv ? nv * ns : 0, DsDa ? nv * ns : 0, DmDq ? nv * nC : 0}};
    run_item(&a, status);
  }
  return tn__batchResult(status);
}
