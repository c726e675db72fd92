/* batch/batch_one.c — the one path for a single rollout item and a single forward item.
 *
 * Every host runs its items through these two functions: the OpenMP batch helpers
 * (batch_rollout.c), torsion-sim's rollout and forward commands (through the batch helpers)
 * and torsiond's Rollout and Forward requests (one item at a time on a worker's mjData). The
 * sequence inside an item (reset, state, control, step, record, the warning stop) is written
 * once here, so the three hosts produce the same bits; torsiond runs a long item as several
 * step ranges (tn_rolloutItemSteps), which take the same steps in the same order, and
 * tn_rolloutGroup takes the steps of up to four items together (tn_stepGroup) around the same
 * per-step sequence. None of them sets up an unwinding point: callers run them under tn_run,
 * which is where engine errors land. */
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

/* an item's sizes and control layout, shared by its steps */
typedef struct itemRun_ {
  int set_controls; /* control rows are mjSTATE_USER components set as a state */
  int ncontrol;     /* numbers per control row */
  int k;            /* record every k-th step */
  int nrow, row;    /* rows in all, the next row */
  int nstate;
} itemRun;

/* check the item's arguments and set up its run from step t0 (the item's reset, state and
 * warmstart when t0 is 0); -1 after mju_error on invalid arguments */
static int item_begin(const mjModel* m, mjData* d, tnRolloutItem* item, int t0, int t1,
                      itemRun* r) {
  if (!item || item->nstep < 0 || !item->state0 || t0 < 0 || t1 < t0 || t1 > item->nstep ||
      (item->ctrl && item->ctrl_nt != 1 && item->ctrl_nt != item->nstep) ||
      (item->ctrl_spec & ~mjSTATE_USER)) {
    mju_error("tn_rolloutItem: invalid arguments");
    return -1;
  }
  // a control row: nu controls copied, or other mjSTATE_USER components set as a state
  r->set_controls = item->ctrl_spec && item->ctrl_spec != mjSTATE_CTRL;
  r->ncontrol = r->set_controls ? mj_stateSize(m, item->ctrl_spec) : (int)m->nu;
  r->k = item->record_every < 1 ? 1 : item->record_every;
  r->nrow = tn_rolloutRows(item->nstep, r->k);
  r->row = t0 / r->k;
  r->nstate = mj_stateSize(m, item->spec);

  // the first range starts from a clean reset, then the item's own state
  if (t0 == 0) {
    item->nstep_run = 0;
    mj_resetData(m, d);
    mj_setState(m, d, item->state0, item->spec);
    if (item->warmstart0) {
      memcpy(d->qacc_warmstart, item->warmstart0, sizeof(mjtNum) * m->nv);
    }
  }
  return 0;
}

/* before step t: a warning ends the item (the remaining rows get the current state and
 * sensors; returns 2), else the step's control is set (returns 0) */
static int item_before_step(const mjModel* m, mjData* d, tnRolloutItem* item, itemRun* r,
                            int t) {
  if (tn_warningMask(d)) {
    fill_rows(m, d, item, r->nstate, r->row, r->nrow);
    item->warnings = tn_warningMask(d);
    return 2;
  }
  if (item->ctrl && r->ncontrol) {
    const mjtNum* c = item->ctrl + (size_t)(item->ctrl_nt == 1 ? 0 : t) * r->ncontrol;
    if (r->set_controls) {
      mj_setState(m, d, c, item->ctrl_spec);
    } else {
      memcpy(d->ctrl, c, sizeof(mjtNum) * m->nu);
    }
  }
  return 0;
}

/* after step t: counted, recorded after every k-th step and the last; the host may stop
 * the item (cancelled, deadline passed: returns 1) */
static int item_after_step(const mjModel* m, mjData* d, tnRolloutItem* item, itemRun* r,
                           int t) {
  item->nstep_run++;
  if ((t + 1) % r->k == 0 || t + 1 == item->nstep) {
    record_row(m, d, item, r->nstate, r->row++);
  }
  if (item->after_step && item->after_step(item->after_step_arg, t)) {
    item->warnings = tn_warningMask(d);
    return 1;
  }
  return 0;
}

/* the end of a range that ran to t1: a warning of its last step stops the item here, as the
 * next step's check would (returns 2), else 0 */
static int item_end(const mjModel* m, mjData* d, tnRolloutItem* item, itemRun* r, int t1) {
  item->warnings = tn_warningMask(d);
  if (item->warnings && t1 < item->nstep) {
    fill_rows(m, d, item, r->nstate, r->row, r->nrow);
    return 2;
  }
  return 0;
}

/* steps [t0, t1) of one rollout item: reset and set first when t0 is 0, else continue from
 * what d holds; step and record until t1, the end or a warning */
int tn_rolloutItemSteps(const mjModel* m, mjData* d, tnRolloutItem* item, int t0, int t1) {
  itemRun r;
  if (item_begin(m, d, item, t0, t1, &r)) {
    return -1;
  }
  for (int t = t0; t < t1; t++) {
    if (item_before_step(m, d, item, &r, t)) {
      return 2;
    }
    mj_step(m, d);
    if (item_after_step(m, d, item, &r, t)) {
      return 1;
    }
  }
  return item_end(m, d, item, &r, t1);
}

/* n rollout items of one model on the datas d[0..n), their steps taken together
 * (tn_stepGroup) while each runs: every item's results are tn_rolloutItem's */
int tn_rolloutGroup(const mjModel* m, mjData* const* d, tnRolloutItem* const* items, int n,
                    int* rc) {
  itemRun r[TN_ROLLOUT_GROUP];
  int running[TN_ROLLOUT_GROUP], nstep = 0;
  if (n < 1 || n > TN_ROLLOUT_GROUP) {
    mju_error("tn_rolloutGroup: invalid arguments");
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (item_begin(m, d[i], items[i], 0, items[i] ? items[i]->nstep : 0, r + i)) {
      return -1;
    }
    rc[i] = 0;
    running[i] = 1;
    nstep = items[i]->nstep > nstep ? items[i]->nstep : nstep;
  }

  // step t of every item still running: checks and controls, the steps, the records
  for (int t = 0; t < nstep; t++) {
    mjData* group[TN_ROLLOUT_GROUP];
    int member[TN_ROLLOUT_GROUP], k = 0;
    for (int i = 0; i < n; i++) {
      if (running[i] && t >= items[i]->nstep) {
        running[i] = 0;
        rc[i] = item_end(m, d[i], items[i], r + i, items[i]->nstep);
      }
      if (running[i] && item_before_step(m, d[i], items[i], r + i, t)) {
        running[i] = 0;  // a warning ended it (tn_rolloutItem reports 0)
      }
      if (running[i]) {
        member[k] = i;
        group[k++] = d[i];
      }
    }
    tn_stepGroup(m, group, k);
    for (int j = 0; j < k; j++) {
      int i = member[j];
      if (item_after_step(m, d[i], items[i], r + i, t)) {
        running[i] = 0;
        rc[i] = 1;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    if (running[i]) {
      item_end(m, d[i], items[i], r + i, items[i]->nstep);  // (at the end: always 0)
    }
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
