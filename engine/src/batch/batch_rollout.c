/* batch/batch_rollout.c — batched rollouts and batched forward dynamics over OpenMP.
 *
 * Work is split by item with a static schedule; every item starts from mj_resetData plus
 * its own state, so an item's result never depends on which thread ran it or what that
 * thread ran before. As in mujoco.rollout, an item whose step raises a warning (divergence
 * and reset) stops there and its remaining rows repeat the state after that step. An item
 * whose step raises an engine error stops too (batch_item.c): its rows are NaN. */
#include <string.h>

#include <omp.h>

#include "batch/batch.h"

/* bitmask of the warning kinds whose counters are non-zero */
static int warning_mask(const mjData* d) {
  int mask = 0;
  for (int w = 0; w < mjNWARNING; w++) {
    if (d->warning[w].number > 0) {
      mask |= 1 << w;
    }
  }
  return mask;
}

/* run one rollout on one mjData */
static void rollout_one(const mjModel* m, mjData* d, int nstep, int spec, int nstate,
                        const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt, mjtNum* out,
                        int* warning) {
  // start from a clean reset, then the item's own state
  mj_resetData(m, d);
  mj_setState(m, d, state0, spec);

  // step, applying this step's control, recording the state after the step
  for (int t = 0; t < nstep; t++) {
    if (ctrl && m->nu) {
      const mjtNum* c = ctrl + (size_t)(ctrl_nt == 1 ? 0 : t) * m->nu;
      memcpy(d->ctrl, c, sizeof(mjtNum) * m->nu);
    }
    mj_step(m, d);
    mjtNum* row = out + (size_t)t * nstate;
    mj_getState(m, d, row, spec);

    // after a divergence warning, mujoco.rollout stops and repeats the last state
    if (warning_mask(d)) {
      for (int r = t + 1; r < nstep; r++) {
        memcpy(out + (size_t)r * nstate, row, sizeof(mjtNum) * nstate);
      }
      break;
    }
  }
  if (warning) {
    *warning = warning_mask(d);
  }
}

/* one rollout item's arguments, for tn_batchRunItem */
typedef struct rolloutItem_ {
  const mjModel* m;
  mjData* d;
  int nstep, spec, nstate, ctrl_nt;
  const mjtNum* state0;
  const mjtNum* ctrl;
  mjtNum* out;
  int* warning;
} rolloutItem;

/* rollout_one on an item's arguments */
static void rollout_item(void* arg) {
  rolloutItem* a = arg;
  rollout_one(a->m, a->d, a->nstep, a->spec, a->nstate, a->state0, a->ctrl, a->ctrl_nt,
              a->out, a->warning);
}

/* batched rollouts */
int tn_rolloutBatch(const mjModel* m, mjData** datas, int nthread, int B, int nstep,
                    int spec, const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt,
                    mjtNum* out, int* warnings, tnBatchStatus* status) {
  if (!datas || nthread < 1 || B < 0 || nstep < 0 || (B > 0 && (!state0 || !out)) ||
      (ctrl && ctrl_nt != 1 && ctrl_nt != nstep)) {
    mju_error("tn_rolloutBatch: invalid arguments");
    return -1;
  }
  int nstate = mj_stateSize(m, spec);
  tnBatchStatus local;
  status = status ? status : &local;
  tn_batchStatusClear(status);

  // one item per iteration; thread i uses datas[i]
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    rolloutItem a = {m,
                     d,
                     nstep,
                     spec,
                     nstate,
                     ctrl_nt,
                     state0 + (size_t)b * nstate,
                     ctrl ? ctrl + (size_t)b * ctrl_nt * m->nu : NULL,
                     out + (size_t)b * nstep * nstate,
                     warnings ? warnings + b : NULL};
    if (tn_batchRunItem(m, d, b, rollout_item, &a, status)) {
      tn_batchFillNaN(a.out, (size_t)nstep * nstate);
      if (a.warning) {
        *a.warning = 0;
      }
    }
  }
  return tn_batchResult(status);
}

/* one forward item's arguments */
typedef struct forwardItem_ {
  const mjModel* m;
  mjData* d;
  int spec;
  const mjtNum* state;
  const mjtNum* ctrl;
  mjtNum* qacc;
} forwardItem;

/* reset, set, forward, copy qacc */
static void forward_item(void* arg) {
  forwardItem* a = arg;
  const mjModel* m = a->m;
  mj_resetData(m, a->d);
  mj_setState(m, a->d, a->state, a->spec);
  if (a->ctrl && m->nu) {
    memcpy(a->d->ctrl, a->ctrl, sizeof(mjtNum) * m->nu);
  }
  mj_forward(m, a->d);
  memcpy(a->qacc, a->d->qacc, sizeof(mjtNum) * m->nv);
}

/* batched forward dynamics */
int tn_forwardBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* ctrl, mjtNum* qacc_out,
                    tnBatchStatus* status) {
  if (!datas || nthread < 1 || B < 0 || (B > 0 && (!state || !qacc_out))) {
    mju_error("tn_forwardBatch: invalid arguments");
    return -1;
  }
  int nstate = mj_stateSize(m, spec);
  tnBatchStatus local;
  status = status ? status : &local;
  tn_batchStatusClear(status);

  // each state independently: reset, set, forward, copy qacc
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    forwardItem a = {m,
                     d,
                     spec,
                     state + (size_t)b * nstate,
                     ctrl ? ctrl + (size_t)b * m->nu : NULL,
                     qacc_out + (size_t)b * m->nv};
    if (tn_batchRunItem(m, d, b, forward_item, &a, status)) {
      tn_batchFillNaN(a.qacc, (size_t)m->nv);
    }
  }
  return tn_batchResult(status);
}
