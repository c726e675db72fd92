/* clients/cli/cmd_rollout.c — `torsion rollout` and `torsion forward`: .npy in, the
 * daemon computes, .npy out. Same inputs and outputs as `torsion-sim rollout/forward`, so
 * the two can be compared bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"

/* options of both commands */
typedef struct runArgs_ {
  const char* model;
  const char* state;
  const char* ctrl;
  const char* out;
  const char* sens_out;
  long long nstep, spec, every, chunk_envs, deadline_ms;
  int final_only, float32;
} runArgs;

/* the options of both commands */
enum {
  R_STATE = 256,
  R_CTRL,
  R_OUT,
  R_SENS,
  R_NSTEP,
  R_SPEC,
  R_EVERY,
  R_CHUNK,
  R_DEADLINE,
  R_FINAL,
  R_FLOAT32
};
static const struct option run_options[] = {{"help", no_argument, NULL, 'h'},
                                            {"state", required_argument, NULL, R_STATE},
                                            {"ctrl", required_argument, NULL, R_CTRL},
                                            {"out", required_argument, NULL, R_OUT},
                                            {"sensordata", required_argument, NULL, R_SENS},
                                            {"nstep", required_argument, NULL, R_NSTEP},
                                            {"spec", required_argument, NULL, R_SPEC},
                                            {"every", required_argument, NULL, R_EVERY},
                                            {"chunk-envs", required_argument, NULL, R_CHUNK},
                                            {"deadline-ms", required_argument, NULL, R_DEADLINE},
                                            {"final-only", no_argument, NULL, R_FINAL},
                                            {"float32", no_argument, NULL, R_FLOAT32},
                                            {NULL, 0, NULL, 0}};

/* one option */
static int take(void* ctx, int opt, const char* v) {
  runArgs* a = ctx;
  long long* num = NULL;
  const char* name = NULL;
  switch (opt) {
    case R_STATE: a->state = v; return 0;
    case R_CTRL: a->ctrl = v; return 0;
    case R_OUT: a->out = v; return 0;
    case R_SENS: a->sens_out = v; return 0;
    case R_FINAL: a->final_only = 1; return 0;
    case R_FLOAT32: a->float32 = 1; return 0;
    case R_NSTEP: num = &a->nstep, name = "--nstep"; break;
    case R_SPEC: num = &a->spec, name = "--spec"; break;
    case R_EVERY: num = &a->every, name = "--every"; break;
    case R_CHUNK: num = &a->chunk_envs, name = "--chunk-envs"; break;
    default: num = &a->deadline_ms, name = "--deadline-ms"; break;
  }
  return cli_int(v, num) ? cli_fail("%s must be a non-negative integer, got '%s'", name, v) : 0;
}

/* parse the options */
static int parse(const cliOpts* o, runArgs* a) {
  memset(a, 0, sizeof(*a));
  a->nstep = -1;
  int rc = cli_getopt(o, run_options, take, a, &a->model, NULL);
  if (rc) {
    return rc;
  }
  if (!a->model || !a->state || !a->out) {
    return cli_fail("%s: need MODEL, --state and --out", o->argv[0]);
  }
  return 0;
}

/* rollout */
int cmd_rollout(const cliOpts* o) {
  runArgs a;
  int prc = parse(o, &a);
  if (prc)
    return prc < 0 ? 0 : 1;
  if (a.nstep < 0)
    return cli_fail("rollout: missing --nstep");
  cliJob j;
  char err[512];
  int rc = 1, spec = a.spec ? (int)a.spec : TNC_STATE_FULLPHYSICS;
  const npyArray* ct = &j.in;
  tncRolloutResult res = {0};

  // inputs
  if (cli_job_open(o, a.model, spec, a.state, &j))
    goto done;
  if (a.ctrl && npy_read(a.ctrl, &j.in, err, sizeof(err))) {
    cli_fail("%s", err);
    goto done;
  }
  if (a.ctrl && (ct->ndim != 3 || ct->shape[2] != (size_t)j.info.nu)) {
    cli_fail("%s: controls must be [B or 1, nstep or 1, %d]", a.ctrl, j.info.nu);
    goto done;
  }

  // the call
  tncRollout q = {j.handle,
                  spec,
                  (int)j.B,
                  j.nstate,
                  j.info.nu,
                  (int)a.nstep,
                  j.st.data,
                  a.ctrl ? ct->data : NULL,
                  a.ctrl ? (int)ct->shape[0] : 0,
                  a.ctrl ? (int)ct->shape[1] : 0,
                  (int)a.every,
                  a.final_only,
                  a.sens_out != NULL,
                  a.float32,
                  (int)a.chunk_envs,
                  (uint32_t)a.deadline_ms};
  if (tnc_rollout(j.c, &q, &res)) {
    cli_fail("rollout: %s", tnc_error(j.c));
    goto done;
  }

  // outputs [B, nrec, nstate] (and sensordata)
  size_t shape[3] = {(size_t)j.B, (size_t)res.nrec, (size_t)j.nstate};
  if (npy_write(a.out, res.states, a.float32 ? NPY_F32 : NPY_F64, 3, shape, err, sizeof(err))) {
    cli_fail("%s", err);
    goto done;
  }
  if (a.sens_out) {
    size_t sshape[3] = {(size_t)j.B, (size_t)res.nrec, (size_t)res.nsens};
    if (npy_write(a.sens_out, res.sensordata, a.float32 ? NPY_F32 : NPY_F64, 3, sshape, err,
                  sizeof(err))) {
      cli_fail("%s", err);
      goto done;
    }
  }
  for (long b = 0; b < j.B; b++) {
    if (res.warnings[b]) {
      fprintf(stderr, "torsion: item %ld raised warnings 0x%x\n", b, res.warnings[b]);
    }
  }
  rc = 0;

done:
  tnc_rollout_free(&res);
  cli_job_close(&j);
  return rc;
}

/* forward */
int cmd_forward(const cliOpts* o) {
  runArgs a;
  int prc = parse(o, &a);
  if (prc)
    return prc < 0 ? 0 : 1;
  cliJob j;
  char err[512];
  int rc = 1, spec = a.spec ? (int)a.spec : TNC_STATE_FULLPHYSICS;
  const npyArray* ct = &j.in;
  double* qacc = NULL;
  if (cli_job_open(o, a.model, spec, a.state, &j))
    goto done;
  if (a.ctrl && (npy_read(a.ctrl, &j.in, err, sizeof(err)) || ct->ndim != 2 ||
                 ct->shape[1] != (size_t)j.info.nu)) {
    cli_fail("%s: controls must be [B or 1, %d]", a.ctrl, j.info.nu);
    goto done;
  }
  qacc = malloc(sizeof(double) * (size_t)(j.B * j.info.nv + 1));
  if (!qacc ||
      tnc_forward(j.c, j.handle, spec, (int)j.B, j.nstate, j.st.data, a.ctrl ? ct->data : NULL,
                  a.ctrl ? (int)ct->shape[0] : 0, j.info.nu, j.info.nv, qacc)) {
    cli_fail("forward: %s", tnc_error(j.c));
    goto done;
  }
  size_t shape[2] = {(size_t)j.B, (size_t)j.info.nv};
  if (npy_write(a.out, qacc, NPY_F64, 2, shape, err, sizeof(err))) {
    cli_fail("%s", err);
    goto done;
  }
  rc = 0;

done:
  free(qacc);
  cli_job_close(&j);
  return rc;
}
