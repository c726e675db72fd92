/* tools/cmd_run.c — `torsion-sim forward` and `torsion-sim rollout`: batched dynamics over
 * .npy inputs through the engine's OpenMP batch helpers.
 *
 * With --sensordata the commands also write the sensor values mj_forward computed:
 * [B, nsensordata] for forward, [B, N, nsensordata] for rollout (row t: the values of the
 * forward pass inside step t, as mujoco.rollout records them). The batch helpers return
 * states and qacc only, so these runs use the same per-item loops here, with sensors;
 * models with a sensor type the engine does not evaluate are refused. An item stopped by an
 * engine error (e.g. an arena too small for the model) gets NaN rows; the outputs are still
 * written, and the command fails with one line naming the item and the error. */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "batch/batch.h"
#include "sim.h"

/* 0 when sensordata can be produced for m, else an exit status after saying why */
static int check_sensors(const mjModel* m) {
  if (tn_sensorsEvaluated(m)) {
    return 0;
  }
  return sim_fail("--sensordata: the model has a sensor type Torsion does not evaluate yet "
                  "(camprojection, distance/normal/fromto, contact, tactile or plugin)");
}

/* write data [shape] to path; 0 or an exit status */
static int write_npy(const char* path, const mjtNum* data, int ndim, const size_t* shape) {
  char err[512];
  if (npy_write(path, data, ndim, shape, err, sizeof(err))) {
    return sim_fail("%s", err);
  }
  return 0;
}

/* one forward-with-sensors item's arguments, for tn_batchRunItem */
typedef struct fwdSensItem_ {
  const mjModel* m;
  mjData* d;
  int spec;
  const mjtNum *state, *ctrl;
  mjtNum *qacc, *sens;
} fwdSensItem;

/* reset, set, forward, copy qacc and sensordata */
static void forward_item(void* arg) {
  fwdSensItem* a = arg;
  const mjModel* m = a->m;
  mj_resetData(m, a->d);
  mj_setState(m, a->d, a->state, a->spec);
  if (a->ctrl && m->nu) {
    memcpy(a->d->ctrl, a->ctrl, sizeof(mjtNum) * m->nu);
  }
  mj_forward(m, a->d);
  memcpy(a->qacc, a->d->qacc, sizeof(mjtNum) * m->nv);
  memcpy(a->sens, a->d->sensordata, sizeof(mjtNum) * m->nsensordata);
}

/* mj_forward at each state: qacc [B, nv] and sensordata [B, nsensordata]; returns the
 * number of failed items (their rows are NaN) */
static int forward_with_sensors(const mjModel* m, mjData** datas, int nthread, long B,
                                int spec, const mjtNum* state, const mjtNum* ctrl,
                                mjtNum* qacc, mjtNum* sens, tnBatchStatus* status) {
  int nstate = mj_stateSize(m, spec), ns = m->nsensordata;
  tn_batchStatusClear(status);

  // each state independently, as tn_forwardBatch does
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (long b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    fwdSensItem a = {m,
                     d,
                     spec,
                     state + (size_t)b * nstate,
                     ctrl ? ctrl + (size_t)b * m->nu : NULL,
                     qacc + (size_t)b * m->nv,
                     sens + (size_t)b * ns};
    if (tn_batchRunItem(m, d, (int)b, forward_item, &a, status)) {
      tn_batchFillNaN(a.qacc, (size_t)m->nv);
      tn_batchFillNaN(a.sens, (size_t)ns);
    }
  }
  return tn_batchResult(status);
}

/* forward subcommand: qacc [B, nv] after mj_forward (and sensordata) */
int cmd_forward(const simArgs* args) {
  if (!args->out) {
    return sim_fail("missing --out");
  }
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  int rc = 1;
  npyArray st = {0}, ct = {0};
  mjtNum *qacc = NULL, *sens = NULL;
  mjData** datas = NULL;

  // inputs
  long B = sim_read_states(args->state, mj_stateSize(m, args->spec), &st);
  if (B < 0 || (args->ctrl && sim_read_ctrl2(args->ctrl, B, m->nu, &ct)) ||
      (args->sensordata && check_sensors(m))) {
    goto done;
  }

  // compute
  qacc = malloc(sizeof(mjtNum) * (size_t)(B * m->nv + 1));
  sens = args->sensordata ? malloc(sizeof(mjtNum) * (size_t)(B * m->nsensordata + 1)) : NULL;
  datas = sim_make_datas(m, args->threads);
  if (!qacc || (args->sensordata && !sens) || !datas) {
    goto done;
  }
  const mjtNum* ctrl = args->ctrl ? ct.data : NULL;
  tnBatchStatus status;
  int failed = sens ? forward_with_sensors(m, datas, args->threads, B, args->spec, st.data,
                                           ctrl, qacc, sens, &status)
                    : tn_forwardBatch(m, datas, args->threads, (int)B, args->spec, st.data,
                                      ctrl, qacc, &status);
  if (failed < 0) {
    goto done;
  }

  // write
  size_t shape[2] = {(size_t)B, (size_t)m->nv};
  size_t sshape[2] = {(size_t)B, (size_t)m->nsensordata};
  if (write_npy(args->out, qacc, 2, shape) ||
      (sens && write_npy(args->sensordata, sens, 2, sshape))) {
    goto done;
  }
  rc = sim_batch_failed("forward", failed, &status, B);

done:
  sim_free_datas(datas, args->threads);
  free(qacc);
  free(sens);
  npy_free(&st);
  npy_free(&ct);
  mj_deleteModel(m);
  return rc;
}

/* 1 if any warning counter of d is non-zero */
static int warned(const mjData* d) {
  for (int w = 0; w < mjNWARNING; w++) {
    if (d->warning[w].number > 0) {
      return 1;
    }
  }
  return 0;
}

/* one rollout recording states [N, nstate] and sensordata [N, ns]; after a warning the
 * remaining rows repeat the last ones (tn_rolloutBatch's semantics) */
static void rollout_one(const mjModel* m, mjData* d, int N, int spec, const mjtNum* s0,
                        const mjtNum* ctrl, int ctrl_nt, mjtNum* out, mjtNum* sens) {
  int nstate = mj_stateSize(m, spec), ns = m->nsensordata;
  mj_resetData(m, d);
  mj_setState(m, d, s0, spec);
  for (int t = 0; t < N; t++) {
    // this step's control, the step, the rows after it
    if (ctrl && m->nu) {
      memcpy(d->ctrl, ctrl + (size_t)(ctrl_nt == 1 ? 0 : t) * m->nu, sizeof(mjtNum) * m->nu);
    }
    mj_step(m, d);
    mj_getState(m, d, out + (size_t)t * nstate, spec);
    memcpy(sens + (size_t)t * ns, d->sensordata, sizeof(mjtNum) * ns);

    // stop after a divergence warning, repeating the last rows
    if (warned(d)) {
      for (int r = t + 1; r < N; r++) {
        memcpy(out + (size_t)r * nstate, out + (size_t)t * nstate, sizeof(mjtNum) * nstate);
        memcpy(sens + (size_t)r * ns, sens + (size_t)t * ns, sizeof(mjtNum) * ns);
      }
      break;
    }
  }
}

/* one rollout-with-sensors item's arguments, for tn_batchRunItem */
typedef struct rollSensItem_ {
  const mjModel* m;
  mjData* d;
  int N, spec, ctrl_nt;
  const mjtNum *s0, *ctrl;
  mjtNum *out, *sens;
} rollSensItem;

/* rollout_one on an item's arguments */
static void rollout_item(void* arg) {
  rollSensItem* a = arg;
  rollout_one(a->m, a->d, a->N, a->spec, a->s0, a->ctrl, a->ctrl_nt, a->out, a->sens);
}

/* rollouts with sensordata, one item per iteration; thread i uses datas[i]; returns the
 * number of failed items (their rows are NaN) */
static int rollout_with_sensors(const mjModel* m, mjData** datas, int nthread, long B, int N,
                                int spec, const mjtNum* s0, const mjtNum* ctrl, int ctrl_nt,
                                mjtNum* out, mjtNum* sens, tnBatchStatus* status) {
  int nstate = mj_stateSize(m, spec), ns = m->nsensordata;
  tn_batchStatusClear(status);
#pragma omp parallel for num_threads(nthread) schedule(static)
  for (long b = 0; b < B; b++) {
    mjData* d = datas[omp_get_thread_num()];
    rollSensItem a = {m,
                      d,
                      N,
                      spec,
                      ctrl_nt,
                      s0 + (size_t)b * nstate,
                      ctrl ? ctrl + (size_t)b * ctrl_nt * m->nu : NULL,
                      out + (size_t)b * N * nstate,
                      sens + (size_t)b * N * ns};
    if (tn_batchRunItem(m, d, (int)b, rollout_item, &a, status)) {
      tn_batchFillNaN(a.out, (size_t)N * nstate);
      tn_batchFillNaN(a.sens, (size_t)N * ns);
    }
  }
  return tn_batchResult(status);
}

/* rollout subcommand: states [B, N, nstate] (and sensordata [B, N, nsensordata]) */
int cmd_rollout(const simArgs* args) {
  if (!args->out) {
    return sim_fail("missing --out");
  }
  if (args->nstep < 0) {
    return sim_fail("missing --nstep");
  }
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  int rc = 1, N = args->nstep, ctrl_nt = 1;
  int nstate = mj_stateSize(m, args->spec);
  npyArray st = {0}, ct = {0};
  mjtNum *out = NULL, *sens = NULL;
  mjData** datas = NULL;
  char err[512];

  // states, and controls [B, N or 1, nu]
  long B = sim_read_states(args->state, nstate, &st);
  if (B < 0 || (args->sensordata && check_sensors(m))) {
    goto done;
  }
  if (args->ctrl) {
    if (npy_read(args->ctrl, &ct, err, sizeof(err))) {
      sim_fail("%s", err);
      goto done;
    }
    ctrl_nt = ct.ndim == 3 ? (int)ct.shape[1] : -1;
    if (ct.ndim != 3 || ct.shape[0] != (size_t)B || ct.shape[2] != (size_t)m->nu ||
        (ctrl_nt != N && ctrl_nt != 1)) {
      sim_fail("%s: controls must be [%ld, %d or 1, %d]", args->ctrl, B, N, m->nu);
      goto done;
    }
  }

  // run
  out = malloc(sizeof(mjtNum) * ((size_t)B * N * nstate + 1));
  sens = args->sensordata ? malloc(sizeof(mjtNum) * ((size_t)B * N * m->nsensordata + 1))
                          : NULL;
  datas = sim_make_datas(m, args->threads);
  if (!out || (args->sensordata && !sens) || !datas) {
    goto done;
  }
  const mjtNum* ctrl = args->ctrl ? ct.data : NULL;
  tnBatchStatus status;
  int failed = sens ? rollout_with_sensors(m, datas, args->threads, B, N, args->spec, st.data,
                                           ctrl, ctrl_nt, out, sens, &status)
                    : tn_rolloutBatch(m, datas, args->threads, (int)B, N, args->spec, st.data,
                                      ctrl, ctrl_nt, out, NULL, &status);
  if (failed < 0) {
    goto done;
  }

  // write
  size_t shape[3] = {(size_t)B, (size_t)N, (size_t)nstate};
  size_t sshape[3] = {(size_t)B, (size_t)N, (size_t)m->nsensordata};
  if (write_npy(args->out, out, 3, shape) ||
      (sens && write_npy(args->sensordata, sens, 3, sshape))) {
    goto done;
  }
  rc = sim_batch_failed("rollout", failed, &status, B);

done:
  sim_free_datas(datas, args->threads);
  free(out);
  free(sens);
  npy_free(&st);
  npy_free(&ct);
  mj_deleteModel(m);
  return rc;
}
