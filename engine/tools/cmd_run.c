/* tools/cmd_run.c — `torsion-sim forward` and `torsion-sim rollout`: batched dynamics over
 * .npy inputs through the engine's OpenMP batch helpers.
 *
 * With --sensordata the commands also write the sensor values mj_forward computed:
 * [B, nsensordata] for forward, [B, N, nsensordata] for rollout (row t: the values of the
 * forward pass inside step t, as mujoco.rollout records them). Both commands run through
 * the batch helpers (tn_rolloutBatchSensors, tn_forwardBatchSensors), so every item takes the
 * engine's one per-item path; models with a sensor type the engine does not evaluate are
 * refused for --sensordata. An item stopped by an
 * engine error (e.g. an arena too small for the model) gets NaN rows; the outputs are still
 * written, and the command fails with one line naming the item and the error. */
#include <stdlib.h>
#include <string.h>

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
  if (npy_write(path, data, NPY_F64, ndim, shape, err, sizeof(err))) {
    return sim_fail("%s", err);
  }
  return 0;
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
  int failed = tn_forwardBatchSensors(m, datas, args->threads, (int)B, args->spec, st.data,
                                      ctrl, qacc, sens, &status);
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
      sim_fail("%s: controls must be [%ld, %d or 1, %d]", args->ctrl, B, N, (int)m->nu);
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
  int failed = tn_rolloutBatchSensors(m, datas, args->threads, (int)B, N, args->spec, st.data,
                                      ctrl, ctrl_nt, out, sens, NULL, &status);
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
