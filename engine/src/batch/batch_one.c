/* batch/batch_one.c — the one path for a single rollout item and a single forward item.
 *
 * Every host runs its items through these two functions: the OpenMP batch helpers
 * (batch_rollout.c), torsion-sim's rollout and forward commands (through the batch helpers)
 * and torsiond's Rollout and Forward requests (one item at a time on a worker's mjData). The
 * sequence inside an item (reset, state, control, step, record, the warning stop) is written
 * once here, so the three hosts produce the same bits; torsiond runs a long item as several
 * step ranges (tn_rolloutItemSteps), which take the same steps in the same order. Neither function
 * sets up an unwinding point: callers run them under tn_run, which is where engine errors land. */
#include <string.h>

#include <torsion/torsion.h>

/* bitmask of the warning kinds whose counters are non-zero */
int tn_warningMask(const mjData* d) {
  int mask = 0;
  for (int w = 0; w < mjNWARNING; w++) {
    if (d->warning[w].number > 0) {
      mask |= 1 << w;
    }
  }
  return mask;
}

/* rows recorded by a rollout of nstep steps, one after every k-th step and the last */
int tn_rolloutRows(int nstep, int record_every) {
  int k = record_every < 1 ? 1 : record_every;
  return nstep < 1 ? 0 : nstep / k + (nstep % k != 0);
}

/* write d's state and sensordata into row `row` of the item's outputs */
static void record_row(const mjModel* m, const mjData* d, tnRolloutItem* item, int nstate,
                       int row) {
  if (item->states) {
    mj_getState(m, d, item->states + (size_t)row * nstate, item->spec);
  }
  if (item->sensordata && m->nsensordata) {
    memcpy(item->sensordata + (size_t)row * m->nsensordata, d->sensordata,
           sizeof(mjtNum) * m->nsensordata);
  }
}

/* write the current state and sensors into every row from `row` on (a warning stopped the item) */
static void fill_rows(const mjModel* m, const mjData* d, tnRolloutItem* item, int nstate, int row,
                      int nrow) {
  for (; row < nrow; row++) {
    record_row(m, d, item, nstate, row);
  }
}

/* steps [t0, t1) of one rollout item: reset and set first when t0 is 0, else continue from
 * what d holds; step and record until t1, the end or a warning */
int tn_rolloutItemSteps(const mjModel* m, mjData* d, tnRolloutItem* item, int t0, int t1) {
  if (!item || item->nstep < 0 || !item->state0 || t0 < 0 || t1 < t0 || t1 > item->nstep ||
      (item->ctrl && item->ctrl_nt != 1 && item->ctrl_nt != item->nstep) ||
      (item->ctrl_spec & ~mjSTATE_USER)) {
    mju_error("tn_rolloutItem: invalid arguments");
    return -1;
  }
  // a control row: nu controls copied, or other mjSTATE_USER components set as a state
  int set_controls = item->ctrl_spec && item->ctrl_spec != mjSTATE_CTRL;
  int ncontrol = set_controls ? mj_stateSize(m, item->ctrl_spec) : (int)m->nu;
  int k = item->record_every < 1 ? 1 : item->record_every;
  int nrow = tn_rolloutRows(item->nstep, k), row = t0 / k;
  int nstate = mj_stateSize(m, item->spec);

  // the first range starts from a clean reset, then the item's own state
  if (t0 == 0) {
    item->nstep_run = 0;
    mj_resetData(m, d);
    mj_setState(m, d, item->state0, item->spec);
    if (item->warmstart0) {
      memcpy(d->qacc_warmstart, item->warmstart0, sizeof(mjtNum) * m->nv);
    }
  }

  for (int t = t0; t < t1; t++) {
    // a warning stops the item: the remaining rows get the current state and sensors
    if (tn_warningMask(d)) {
      fill_rows(m, d, item, nstate, row, nrow);
      item->warnings = tn_warningMask(d);
      return 2;
    }

    // this step's control, then the step
    if (item->ctrl && ncontrol) {
      const mjtNum* c = item->ctrl + (size_t)(item->ctrl_nt == 1 ? 0 : t) * ncontrol;
      if (set_controls) {
        mj_setState(m, d, c, item->ctrl_spec);
      } else {
        memcpy(d->ctrl, c, sizeof(mjtNum) * m->nu);
      }
    }
    mj_step(m, d);
    item->nstep_run++;

    // record after every k-th step and after the last
    if ((t + 1) % k == 0 || t + 1 == item->nstep) {
      record_row(m, d, item, nstate, row++);
    }

    // the host may stop the item (cancelled, deadline passed)
    if (item->after_step && item->after_step(item->after_step_arg, t)) {
      item->warnings = tn_warningMask(d);
      return 1;
    }
  }

  // a warning of the range's last step stops the item here, as the next step's check would
  item->warnings = tn_warningMask(d);
  if (item->warnings && t1 < item->nstep) {
    fill_rows(m, d, item, nstate, row, nrow);
    return 2;
  }
  return 0;
}

/* one rollout item: reset, set, then step and record until the end or a warning */
int tn_rolloutItem(const mjModel* m, mjData* d, tnRolloutItem* item) {
  int rc = tn_rolloutItemSteps(m, d, item, 0, item ? item->nstep : 0);
  return rc == 2 ? 0 : rc;
}

/* one forward item: reset, set, control, forward, copy out */
void tn_forwardItem(const mjModel* m, mjData* d, int spec, const mjtNum* state,
                    const mjtNum* ctrl, mjtNum* qacc, mjtNum* sensordata) {
  if (!state) {
    mju_error("tn_forwardItem: invalid arguments");
    return;
  }
  mj_resetData(m, d);
  mj_setState(m, d, state, spec);
  if (ctrl && m->nu) {
    memcpy(d->ctrl, ctrl, sizeof(mjtNum) * m->nu);
  }
  mj_forward(m, d);
  if (qacc && m->nv) {
    memcpy(qacc, d->qacc, sizeof(mjtNum) * m->nv);
  }
  if (sensordata && m->nsensordata) {
    memcpy(sensordata, d->sensordata, sizeof(mjtNum) * m->nsensordata);
  }
}
