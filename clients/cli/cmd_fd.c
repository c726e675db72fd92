/* clients/cli/cmd_fd.c — `torsion inverse`, `torsion transitionfd` and `torsion inversefd`:
 * .npy in, the daemon computes, .npy out. Same arguments and output files as
 * `torsion-sim inverse/transitionfd/inversefd`, so the two can be compared bit for bit:
 *   inverse      --state S --qacc A --out QFRC.npy               qfrc_inverse [B, nv]
 *   transitionfd --state S [--ctrl C] [--eps E] [--centered] --out PREFIX
 *                PREFIX_A [B, nx, nx], PREFIX_B [B, nx, nu] (+ PREFIX_C, PREFIX_D with sensors)
 *   inversefd    --state S --qacc A [--eps E] [--actuation] --out PREFIX
 *                PREFIX_DfDq/DfDv/DfDa [B, nv, nv], PREFIX_DmDq [B, nv, nC] (+ PREFIX_Ds*)
 * Sensor matrices are asked for when the model has sensors; when the daemon answers that it
 * does not evaluate them yet, a note is printed and the rest is computed without them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"

/* the options of the three commands */
typedef struct fdArgs_ {
  const char* model;
  const char* state;
  const char* ctrl;
  const char* qacc;
  const char* out;
  int spec, centered, actuation;
  double eps;
  long long chunk_envs, deadline_ms;
} fdArgs;

/* a state layout: a name torsion-sim knows or a bitmask */
static int parse_spec(const char* v, int* spec) {
  long long n;
  if (!strcmp(v, "fullphysics"))
    *spec = TNC_STATE_FULLPHYSICS;
  else if (!strcmp(v, "integration"))
    *spec = TNC_STATE_INTEGRATION;
  else if (!strcmp(v, "physics"))
    *spec = 0x1E; /* mjSTATE_PHYSICS: QPOS | QVEL | ACT | HISTORY */
  else if (!cli_int(v, &n) && n > 0 && n <= TNC_STATE_INTEGRATION)
    *spec = (int)n;
  else
    return -1;
  return 0;
}

/* the options of the three commands */
enum {
  F_STATE = 256,
  F_CTRL,
  F_QACC,
  F_OUT,
  F_EPS,
  F_SPEC,
  F_CHUNK,
  F_DEADLINE,
  F_CENTERED,
  F_ACTUATION
};
static const struct option fd_options[] = {{"help", no_argument, NULL, 'h'},
                                           {"state", required_argument, NULL, F_STATE},
                                           {"ctrl", required_argument, NULL, F_CTRL},
                                           {"qacc", required_argument, NULL, F_QACC},
                                           {"out", required_argument, NULL, F_OUT},
                                           {"eps", required_argument, NULL, F_EPS},
                                           {"spec", required_argument, NULL, F_SPEC},
                                           {"chunk-envs", required_argument, NULL, F_CHUNK},
                                           {"deadline-ms", required_argument, NULL, F_DEADLINE},
                                           {"centered", no_argument, NULL, F_CENTERED},
                                           {"actuation", no_argument, NULL, F_ACTUATION},
                                           {NULL, 0, NULL, 0}};

/* one option */
static int take(void* ctx, int opt, const char* v) {
  fdArgs* a = ctx;
  char* end = NULL;
  switch (opt) {
    case F_STATE: a->state = v; break;
    case F_CTRL: a->ctrl = v; break;
    case F_QACC: a->qacc = v; break;
    case F_OUT: a->out = v; break;
    case F_CENTERED: a->centered = 1; break;
    case F_ACTUATION: a->actuation = 1; break;
    case F_EPS:
      a->eps = strtod(v, &end);
      if (!*v || *end || !(a->eps > 0))
        return cli_fail("--eps must be a positive number, got '%s'", v);
      break;
    case F_SPEC:
      if (parse_spec(v, &a->spec))
        return cli_fail("--spec must be fullphysics, integration, physics or a bitmask, got '%s'",
                        v);
      break;
    case F_CHUNK:
      if (cli_int(v, &a->chunk_envs))
        return cli_fail("--chunk-envs must be a non-negative integer, got '%s'", v);
      break;
    default:
      if (cli_int(v, &a->deadline_ms))
        return cli_fail("--deadline-ms must be a non-negative integer, got '%s'", v);
      break;
  }
  return 0;
}

/* parse the options; 0, -1 after --help, or 1 after printing why */
static int parse(const cliOpts* o, fdArgs* a) {
  memset(a, 0, sizeof(*a));
  a->spec = TNC_STATE_FULLPHYSICS;
  a->eps = 1e-6;
  int rc = cli_getopt(o, fd_options, take, a, &a->model, NULL);
  if (rc) {
    return rc;
  }
  if (!a->model || !a->state || !a->out) {
    return cli_fail("%s: need MODEL, --state and --out", o->argv[0]);
  }
  return 0;
}

/* a [B, cols] input (1-D: one row when B == 1; `rows_any`: 1 row is accepted too); 0 or 1 */
static int read_rows(const char* path, long B, int cols, int rows_any, npyArray* arr,
                     const char* what) {
  char err[512];
  if (npy_read(path, arr, err, sizeof(err))) {
    return cli_fail("%s", err);
  }
  long rows = arr->ndim == 1 ? 1 : (long)arr->shape[0];
  size_t ncol = arr->ndim == 1 ? arr->shape[0] : (arr->ndim == 2 ? arr->shape[1] : 0);
  int rows_ok = rows == B || (rows_any && rows == 1);
  if (arr->ndim < 1 || arr->ndim > 2 || ncol != (size_t)cols || !rows_ok ||
      (arr->ndim == 1 && B != 1 && !rows_any)) {
    return cli_fail("%s: %s must be [%ld%s, %d]", path, what, B, rows_any ? " or 1" : "", cols);
  }
  return 0;
}

/* write PREFIX_NAME.npy [B, rows, cols]; 0 or 1 */
static int write_matrix(const char* prefix, const char* name, const double* data, long B, int rows,
                        int cols) {
  static const double none[1] = {0};
  char path[4096], err[512];
  snprintf(path, sizeof(path), "%s_%s.npy", prefix, name);
  size_t shape[3] = {(size_t)B, (size_t)rows, (size_t)cols};
  if (npy_write(path, data ? data : none, NPY_F64, 3, shape, err, sizeof(err))) {
    return cli_fail("%s", err);
  }
  return 0;
}

/* connect, resolve the model, read at least one state; 0 or 1 (the caller closes the job) */
static int open_job(const cliOpts* o, const fdArgs* a, cliJob* j) {
  if (cli_job_open(o, a->model, a->spec, a->state, j))
    return 1;
  if (j->B < 1)
    return cli_fail("%s: states must be [B, %d]", a->state, j->nstate);
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * the commands
 * ------------------------------------------------------------------------------------- */

/* inverse */
int cmd_inverse(const cliOpts* o) {
  fdArgs a;
  int prc = parse(o, &a);
  if (prc)
    return prc < 0 ? 0 : 1;
  if (!a.qacc)
    return cli_fail("inverse: missing --qacc");
  cliJob j;
  char err[512];
  double* qfrc = NULL;
  int rc = open_job(o, &a, &j);
  if (!rc)
    rc = read_rows(a.qacc, j.B, j.info.nv, 0, &j.in, "accelerations");
  if (!rc) {
    qfrc = malloc(sizeof(double) * (size_t)(j.B * j.info.nv + 1));
    if (!qfrc || tnc_inverse(j.c, j.handle, a.spec, (int)j.B, j.nstate, j.st.data, j.in.data,
                             j.info.nv, qfrc)) {
      rc = cli_fail("inverse: %s", qfrc ? tnc_error(j.c) : "out of memory");
    }
  }
  if (!rc) {
    size_t shape[2] = {(size_t)j.B, (size_t)j.info.nv};
    rc = npy_write(a.out, qfrc, NPY_F64, 2, shape, err, sizeof(err)) ? cli_fail("%s", err) : 0;
  }
  free(qfrc);
  cli_job_close(&j);
  return rc;
}

/* transitionfd */
int cmd_transitionfd(const cliOpts* o) {
  fdArgs a;
  int prc = parse(o, &a);
  if (prc)
    return prc < 0 ? 0 : 1;
  cliJob j;
  tncTransitionFDResult res = {0};
  const npyArray* ct = &j.in;
  int rc = open_job(o, &a, &j);
  if (!rc && a.ctrl)
    rc = read_rows(a.ctrl, j.B, j.info.nu, 1, &j.in, "controls");
  if (!rc) {
    // with sensors when the model has them; without when the daemon cannot evaluate them
    tncTransitionFD q = {j.handle,
                         a.spec,
                         (int)j.B,
                         j.nstate,
                         j.st.data,
                         a.ctrl ? ct->data : NULL,
                         a.ctrl && ct->ndim == 2 ? (int)ct->shape[0] : 1,
                         j.info.nu,
                         a.eps,
                         a.centered,
                         j.info.nsensordata > 0,
                         (int)a.chunk_envs,
                         (uint32_t)a.deadline_ms};
    rc = tnc_transition_fd(j.c, &q, &res);
    if (rc && q.sensors && tnc_error_code(j.c) == TORSION__V1__ERROR_CODE__ERROR_UNIMPLEMENTED) {
      fprintf(stderr, "torsion: note: %s: %s_C.npy and %s_D.npy are not written\n", tnc_error(j.c),
              a.out, a.out);
      q.sensors = 0;
      rc = tnc_transition_fd(j.c, &q, &res);
    }
    rc = rc ? cli_fail("transitionfd: %s", tnc_error(j.c)) : 0;
  }

  // PREFIX_A, PREFIX_B (empty without actuators), PREFIX_C and PREFIX_D
  if (!rc) {
    rc = write_matrix(a.out, "A", res.A, j.B, res.nx, res.nx) ||
         write_matrix(a.out, "B", res.Bm, j.B, res.nx, res.nu);
  }
  if (!rc && res.C) {
    rc = write_matrix(a.out, "C", res.C, j.B, res.ns, res.nx) ||
         write_matrix(a.out, "D", res.D, j.B, res.ns, res.nu);
  }
  tnc_transition_fd_free(&res);
  cli_job_close(&j);
  return rc;
}

/* inversefd */
int cmd_inversefd(const cliOpts* o) {
  fdArgs a;
  int prc = parse(o, &a);
  if (prc)
    return prc < 0 ? 0 : 1;
  if (a.centered)
    return cli_fail("inversefd: only forward differences are supported (no --centered)");
  if (!a.qacc)
    return cli_fail("inversefd: missing --qacc");
  cliJob j;
  tncInverseFDResult res = {0};
  int rc = open_job(o, &a, &j);
  if (!rc)
    rc = read_rows(a.qacc, j.B, j.info.nv, 0, &j.in, "accelerations");
  if (!rc) {
    // all seven when the model has sensors; without the sensor ones when they are unevaluated
    int sens = TNC_IFD_DSDQ | TNC_IFD_DSDV | TNC_IFD_DSDA;
    tncInverseFD q = {j.handle,          a.spec,
                      (int)j.B,          j.nstate,
                      j.st.data,         j.in.data,
                      j.info.nv,         a.eps,
                      a.actuation,       TNC_IFD_DEFAULT | (j.info.nsensordata > 0 ? sens : 0),
                      (int)a.chunk_envs, (uint32_t)a.deadline_ms};
    rc = tnc_inverse_fd(j.c, &q, &res);
    if (rc && (q.outputs & sens) &&
        tnc_error_code(j.c) == TORSION__V1__ERROR_CODE__ERROR_UNIMPLEMENTED) {
      fprintf(stderr, "torsion: note: %s: %s_DsDq/DsDv/DsDa.npy are not written\n", tnc_error(j.c),
              a.out);
      q.outputs = TNC_IFD_DEFAULT;
      rc = tnc_inverse_fd(j.c, &q, &res);
    }
    rc = rc ? cli_fail("inversefd: %s", tnc_error(j.c)) : 0;
  }

  // PREFIX_DfDq, _DfDv, _DfDa, _DmDq (and _DsDq, _DsDv, _DsDa)
  const char* names[7] = {"DfDq", "DfDv", "DfDa", "DsDq", "DsDv", "DsDa", "DmDq"};
  const double* mats[7] = {res.DfDq, res.DfDv, res.DfDa, res.DsDq, res.DsDv, res.DsDa, res.DmDq};
  int cols[7] = {res.nv, res.nv, res.nv, res.ns, res.ns, res.ns, res.nC};
  for (int k = 0; k < 7 && !rc; k++) {
    if (mats[k]) {
      rc = write_matrix(a.out, names[k], mats[k], j.B, res.nv, cols[k]);
    }
  }
  tnc_inverse_fd_free(&res);
  cli_job_close(&j);
  return rc;
}
