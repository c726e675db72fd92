/* tools/cmd_run.c — `torsion-sim forward` and `torsion-sim rollout`: batched dynamics over
 * .npy inputs through the engine's OpenMP batch helpers. */
#include <stdlib.h>

#include "batch/batch.h"
#include "sim.h"

/* forward subcommand: qacc [B, nv] after mj_forward */
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
  mjtNum* qacc = NULL;
  mjData** datas = NULL;
  char err[512];

  // inputs
  long B = sim_read_states(args->state, mj_stateSize(m, args->spec), &st);
  if (B < 0 || (args->ctrl && sim_read_ctrl2(args->ctrl, B, m->nu, &ct))) {
    goto done;
  }

  // compute and write
  qacc = malloc(sizeof(mjtNum) * (size_t)(B * m->nv + 1));
  datas = sim_make_datas(m, args->threads);
  if (!qacc || !datas) {
    goto done;
  }
  if (tn_forwardBatch(m, datas, args->threads, (int)B, args->spec, st.data,
                      args->ctrl ? ct.data : NULL, qacc)) {
    goto done;
  }
  size_t shape[2] = {(size_t)B, (size_t)m->nv};
  if (npy_write(args->out, qacc, 2, shape, err, sizeof(err))) {
    sim_fail("%s", err);
    goto done;
  }
  rc = 0;

done:
  sim_free_datas(datas, args->threads);
  free(qacc);
  npy_free(&st);
  npy_free(&ct);
  mj_deleteModel(m);
  return rc;
}

/* rollout subcommand: states [B, N, nstate] */
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
  mjtNum* out = NULL;
  mjData** datas = NULL;
  char err[512];

  // states, and controls [B, N or 1, nu]
  long B = sim_read_states(args->state, nstate, &st);
  if (B < 0) {
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

  // run and write
  out = malloc(sizeof(mjtNum) * ((size_t)B * N * nstate + 1));
  datas = sim_make_datas(m, args->threads);
  if (!out || !datas) {
    goto done;
  }
  if (tn_rolloutBatch(m, datas, args->threads, (int)B, N, args->spec, st.data,
                      args->ctrl ? ct.data : NULL, ctrl_nt, out, NULL)) {
    goto done;
  }
  size_t shape[3] = {(size_t)B, (size_t)N, (size_t)nstate};
  if (npy_write(args->out, out, 3, shape, err, sizeof(err))) {
    sim_fail("%s", err);
    goto done;
  }
  rc = 0;

done:
  sim_free_datas(datas, args->threads);
  free(out);
  npy_free(&st);
  npy_free(&ct);
  mj_deleteModel(m);
  return rc;
}
