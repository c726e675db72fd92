/* batch/batch_rollout.c — batched rollouts and batched forward dynamics over OpenMP.
 *
 * Work is split by item with a static schedule; every item starts from mj_resetData plus
 * its own state, so an item's result never depends on which thread ran it or what that
 * thread ran before. As in mujoco.rollout, an item whose step raises a warning (divergence
 * and reset) stops there and its remaining rows repeat the state after that step. */
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

/* batched rollouts */
int tn_rolloutBatch(const mjModel* m, mjData** datas, int nthread, int B, int nstep,
                    int spec, const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt,
                    mjtNum* out, int* warnings) {
  if (nthread < 1 || B < 0 || nstep < 0 || (ctrl && ctrl_nt != 1 && ctrl_nt != nstep)) {
    mju_error("tn_rolloutBatch: invalid arguments");
    return -1;
  }
  int nstate = mj_stateSize(m, spec);

  // one item per iteration; thread i uses datas[i]
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    const mjtNum* c = ctrl ? ctrl + (size_t)b * ctrl_nt * m->nu : NULL;
    rollout_one(m, d, nstep, spec, nstate, state0 + (size_t)b * nstate, c, ctrl_nt,
                out + (size_t)b * nstep * nstate, warnings ? warnings + b : NULL);
  }
  return 0;
}

/* batched forward dynamics */
int tn_forwardBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* ctrl, mjtNum* qacc_out) {
  if (nthread < 1 || B < 0) {
    mju_error("tn_forwardBatch: invalid arguments");
    return -1;
  }
  int nstate = mj_stateSize(m, spec);

  // each state independently: reset, set, forward, copy qacc
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (int b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    mj_resetData(m, d);
    mj_setState(m, d, state + (size_t)b * nstate, spec);
    if (ctrl && m->nu) {
      memcpy(d->ctrl, ctrl + (size_t)b * m->nu, sizeof(mjtNum) * m->nu);
    }
    mj_forward(m, d);
    memcpy(qacc_out + (size_t)b * m->nv, d->qacc, sizeof(mjtNum) * m->nv);
  }
  return 0;
}
