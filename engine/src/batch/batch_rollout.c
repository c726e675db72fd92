/* batch/batch_rollout.c — batched rollouts and batched forward dynamics over OpenMP.
 *
 * Work is split by item with a static schedule; each item runs the one per-item path of
 * batch_one.c (tn_rolloutItem, tn_forwardItem), which starts from mj_resetData plus the
 * item's own state, so an item's result never depends on which thread ran it or what that
 * thread ran before. As in mujoco.rollout, an item whose step raises a warning (divergence
 * and reset) stops there and its remaining rows repeat the state after that step. An item
 * whose step raises an engine error stops too (batch_item.c): its rows are NaN. */
#include <omp.h>

#include "batch/batch.h"

/* one rollout item on its thread's mjData, for tn__batchRunItem */
typedef struct rolloutArgs_ {
  const mjModel* m;
  mjData* d;
  tnRolloutItem item;
} rolloutArgs;

/* tn_rolloutItem on an item's arguments */
static void rollout_item(void* arg) {
  rolloutArgs* a = arg;
  tn_rolloutItem(a->m, a->d, &a->item);
}

/* batched rollouts, with optional sensordata */
int tn_rolloutBatchSensors(const mjModel* m, mjData** datas, int nthread, int B, int nstep,
                           int spec, const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt,
                           mjtNum* out, mjtNum* sens, int* warnings, tnBatchStatus* status) {
  if (!datas || nthread < 1 || B < 0 || nstep < 0 || (B > 0 && (!state0 || !out)) ||
      (ctrl && ctrl_nt != 1 && ctrl_nt != nstep)) {
    mju_error("tn_rolloutBatch: invalid arguments");
    return -1;
  }
  int nstate = mj_stateSize(m, spec), ns = m->nsensordata;
  tnBatchStatus local;
  status = status ? status : &local;
  tn__batchStatusClear(status);

  // one item per iteration; thread i uses datas[i]
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    rolloutArgs a = {m, datas[omp_get_thread_num()], {0}};
    a.item.spec = spec;
    a.item.state0 = state0 + (size_t)b * nstate;
    a.item.ctrl = ctrl ? ctrl + (size_t)b * ctrl_nt * m->nu : NULL;
    a.item.ctrl_nt = ctrl_nt;
    a.item.nstep = nstep;
    a.item.states = out + (size_t)b * nstep * nstate;
    a.item.sensordata = sens ? sens + (size_t)b * nstep * ns : NULL;
    int failed = tn__batchRunItem(m, a.d, b, rollout_item, &a, status);

    // a failed item's rows are NaN and it reports no warnings
    if (failed) {
      tn__batchFillNaN(a.item.states, (size_t)nstep * nstate);
      tn__batchFillNaN(a.item.sensordata, (size_t)nstep * ns);
    }
    if (warnings) {
      warnings[b] = failed ? 0 : a.item.warnings;
    }
  }
  return tn__batchResult(status);
}

/* batched rollouts */
int tn_rolloutBatch(const mjModel* m, mjData** datas, int nthread, int B, int nstep,
                    int spec, const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt,
                    mjtNum* out, int* warnings, tnBatchStatus* status) {
  return tn_rolloutBatchSensors(m, datas, nthread, B, nstep, spec, state0, ctrl, ctrl_nt, out,
                                NULL, warnings, status);
}

/* one forward item's arguments */
typedef struct forwardArgs_ {
  const mjModel* m;
  mjData* d;
  int spec;
  const mjtNum *state, *ctrl;
  mjtNum *qacc, *sens;
} forwardArgs;

/* tn_forwardItem on an item's arguments */
static void forward_item(void* arg) {
  forwardArgs* a = arg;
  tn_forwardItem(a->m, a->d, a->spec, a->state, a->ctrl, a->qacc, a->sens);
}

/* batched forward dynamics, with optional sensordata */
int tn_forwardBatchSensors(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                           const mjtNum* state, const mjtNum* ctrl, mjtNum* qacc_out,
                           mjtNum* sens, tnBatchStatus* status) {
  if (!datas || nthread < 1 || B < 0 || (B > 0 && (!state || !qacc_out))) {
    mju_error("tn_forwardBatch: invalid arguments");
    return -1;
  }
  int nstate = mj_stateSize(m, spec), ns = m->nsensordata;
  tnBatchStatus local;
  status = status ? status : &local;
  tn__batchStatusClear(status);

  // each state independently; thread i uses datas[i]
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    forwardArgs a = {m,
                     datas[omp_get_thread_num()],
                     spec,
                     state + (size_t)b * nstate,
                     ctrl ? ctrl + (size_t)b * m->nu : NULL,
                     qacc_out + (size_t)b * m->nv,
                     sens ? sens + (size_t)b * ns : NULL};
    if (tn__batchRunItem(m, a.d, b, forward_item, &a, status)) {
      tn__batchFillNaN(a.qacc, (size_t)m->nv);
      tn__batchFillNaN(a.sens, (size_t)ns);
    }
  }
  return tn__batchResult(status);
}

/* batched forward dynamics */
int tn_forwardBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* ctrl, mjtNum* qacc_out,
                    tnBatchStatus* status) {
  return tn_forwardBatchSensors(m, datas, nthread, B, spec, state, ctrl, qacc_out, NULL,
                                status);
}
