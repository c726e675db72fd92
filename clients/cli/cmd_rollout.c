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

/* parse the options */
static int parse(const cliOpts* o, runArgs* a) {
  memset(a, 0, sizeof(*a));
  a->nstep = -1;
  for (int i = 1; i < o->argc; i++) {
    const char* k = o->argv[i];
    const char* v = i + 1 < o->argc ? o->argv[i + 1] : NULL;
    if (!strcmp(k, "--final-only")) {
      a->final_only = 1;
      continue;
    }
    if (!strcmp(k, "--float32")) {
      a->float32 = 1;
      continue;
    }
    if (k[0] != '-') {
      if (a->model)
        return cli_fail("unexpected argument %s", k);
      a->model = k;
      continue;
    }
    if (!v)
      return cli_fail("%s needs a value", k);
    i++;
    if (!strcmp(k, "--state"))
      a->state = v;
    else if (!strcmp(k, "--ctrl"))
      a->ctrl = v;
    else if (!strcmp(k, "--out"))
      a->out = v;
    else if (!strcmp(k, "--sensordata"))
      a->sens_out = v;
    else if (!strcmp(k, "--nstep") && !cli_int(v, &a->nstep)) {
    } else if (!strcmp(k, "--spec") && !cli_int(v, &a->spec)) {
    } else if (!strcmp(k, "--every") && !cli_int(v, &a->every)) {
    } else if (!strcmp(k, "--chunk-envs") && !cli_int(v, &a->chunk_envs)) {
    } else if (!strcmp(k, "--deadline-ms") && !cli_int(v, &a->deadline_ms)) {
    } else
      return cli_fail("bad option %s %s", k, v);
  }
  if (!a->model || !a->state || !a->out) {
    return cli_fail("need MODEL, --state and --out");
  }
  return 0;
}

/* read states [B, nstate] (1-D: B = 1); B or -1 */
static long read_states(const char* path, int nstate, npyData* st) {
  char err[512];
  if (npy_load(path, st, err, sizeof(err))) {
    cli_fail("%s", err);
    return -1;
  }
  long B = st->ndim == 1 ? 1 : (long)st->shape[0];
  size_t cols = st->ndim == 1 ? st->shape[0] : (st->ndim == 2 ? st->shape[1] : 0);
  if (st->ndim < 1 || st->ndim > 2 || cols != (size_t)nstate) {
    cli_fail("%s: states must be [B, %d]", path, nstate);
    return -1;
  }
  return B;
}

/* rollout */
int cmd_rollout(const cliOpts* o) {
  runArgs a;
  if (parse(o, &a))
    return 1;
  if (a.nstep < 0)
    return cli_fail("rollout: missing --nstep");
  tnClient* c = cli_connect(o);
  if (!c)
    return 1;
  int rc = 1;
  char handle[65], err[512];
  tncModelInfo info;
  npyData st = {0}, ct = {0};
  tncRolloutResult res = {0};
  if (cli_model(c, a.model, handle) || tnc_model_info(c, handle, &info)) {
    if (tnc_error(c)[0])
      cli_fail("%s", tnc_error(c));
    goto done;
  }

  // inputs
  int spec = a.spec ? (int)a.spec : TNC_STATE_FULLPHYSICS;
  int nstate = tnc_state_size(&info, spec);
  long B = read_states(a.state, nstate, &st);
  if (B < 0)
    goto done;
  if (a.ctrl && npy_load(a.ctrl, &ct, err, sizeof(err))) {
    cli_fail("%s", err);
    goto done;
  }
  if (a.ctrl && (ct.ndim != 3 || ct.shape[2] != (size_t)info.nu)) {
    cli_fail("%s: controls must be [B or 1, nstep or 1, %d]", a.ctrl, info.nu);
    goto done;
  }

  // the call
  tncRollout q = {handle,
                  spec,
                  (int)B,
                  nstate,
                  info.nu,
                  (int)a.nstep,
                  st.data,
                  a.ctrl ? ct.data : NULL,
                  a.ctrl ? (int)ct.shape[0] : 0,
                  a.ctrl ? (int)ct.shape[1] : 0,
                  (int)a.every,
                  a.final_only,
                  a.sens_out != NULL,
                  a.float32,
                  (int)a.chunk_envs,
                  (uint32_t)a.deadline_ms};
  if (tnc_rollout(c, &q, &res)) {
    cli_fail("rollout: %s", tnc_error(c));
    goto done;
  }

  // outputs [B, nrec, nstate] (and sensordata)
  size_t shape[3] = {(size_t)B, (size_t)res.nrec, (size_t)nstate};
  if (npy_save(a.out, res.states, a.float32, 3, shape, err, sizeof(err))) {
    cli_fail("%s", err);
    goto done;
  }
  if (a.sens_out) {
    size_t sshape[3] = {(size_t)B, (size_t)res.nrec, (size_t)res.nsens};
    if (npy_save(a.sens_out, res.sensordata, a.float32, 3, sshape, err, sizeof(err))) {
      cli_fail("%s", err);
      goto done;
    }
  }
  for (long b = 0; b < B; b++) {
    if (res.warnings[b]) {
      fprintf(stderr, "torsion: item %ld raised warnings 0x%x\n", b, res.warnings[b]);
    }
  }
  rc = 0;

done:
  tnc_rollout_free(&res);
  npy_release(&st);
  npy_release(&ct);
  tnc_close(c);
  return rc;
}

/* forward */
int cmd_forward(const cliOpts* o) {
  runArgs a;
  if (parse(o, &a))
    return 1;
  tnClient* c = cli_connect(o);
  if (!c)
    return 1;
  int rc = 1;
  char handle[65], err[512];
  tncModelInfo info;
  npyData st = {0}, ct = {0};
  double* qacc = NULL;
  if (cli_model(c, a.model, handle) || tnc_model_info(c, handle, &info)) {
    if (tnc_error(c)[0])
      cli_fail("%s", tnc_error(c));
    goto done;
  }
  int spec = a.spec ? (int)a.spec : TNC_STATE_FULLPHYSICS;
  int nstate = tnc_state_size(&info, spec);
  long B = read_states(a.state, nstate, &st);
  if (B < 0)
    goto done;
  if (a.ctrl &&
      (npy_load(a.ctrl, &ct, err, sizeof(err)) || ct.ndim != 2 || ct.shape[1] != (size_t)info.nu)) {
    cli_fail("%s: controls must be [B or 1, %d]", a.ctrl, info.nu);
    goto done;
  }
  qacc = malloc(sizeof(double) * (size_t)(B * info.nv + 1));
  if (!qacc || tnc_forward(c, handle, spec, (int)B, nstate, st.data, a.ctrl ? ct.data : NULL,
                           a.ctrl ? (int)ct.shape[0] : 0, info.nu, info.nv, qacc)) {
    cli_fail("forward: %s", tnc_error(c));
    goto done;
  }
  size_t shape[2] = {(size_t)B, (size_t)info.nv};
  if (npy_save(a.out, qacc, 0, 2, shape, err, sizeof(err))) {
    cli_fail("%s", err);
    goto done;
  }
  rc = 0;

done:
  free(qacc);
  npy_release(&st);
  npy_release(&ct);
  tnc_close(c);
  return rc;
}
