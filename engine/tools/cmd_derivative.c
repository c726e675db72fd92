/* tools/cmd_derivative.c — `torsion-sim inverse`, `transitionfd` and `inversefd`: batched
 * inverse dynamics and finite-difference derivatives over .npy inputs, through the engine's
 * OpenMP batch helpers (tn_inverseBatch, tn_transitionFDBatch, tn_inverseFDBatch).
 *
 * For a model with sensors the sensor matrices are written too (transitionfd: C and D;
 * inversefd: DsDq, DsDv, DsDa), unless the model has a sensor type the engine does not
 * evaluate, which a note on stderr names. */
#include <stdio.h>
#include <stdlib.h>

#include "sim.h"

/* inputs and outputs of one derivative command */
typedef struct derivJob_ {
  mjModel* m;
  mjData** datas;
  npyArray state, ctrl, qacc;
  long B;
} derivJob;

/* load the model, the states and (when given or required) controls and accelerations */
static int job_open(const simArgs* args, derivJob* job, int need_qacc) {
  char err[512];
  if (!args->out) {
    return sim_fail("missing --out");
  }
  if (need_qacc && !args->qacc) {
    return sim_fail("missing --qacc");
  }
  if (!(job->m = sim_load(args))) {
    return 1;
  }
  const mjModel* m = job->m;
  job->B = sim_read_states(args->state, mj_stateSize(m, args->spec), &job->state);
  if (job->B < 0) {
    return 1;
  }
  if (args->ctrl && sim_read_ctrl2(args->ctrl, job->B, m->nu, &job->ctrl)) {
    return 1;
  }

  // accelerations [B, nv]
  if (need_qacc) {
    if (npy_read(args->qacc, &job->qacc, err, sizeof(err))) {
      return sim_fail("%s", err);
    }
    const npyArray* a = &job->qacc;
    int ok = (a->ndim == 2 && a->shape[0] == (size_t)job->B && a->shape[1] == (size_t)m->nv) ||
             (a->ndim == 1 && job->B == 1 && a->shape[0] == (size_t)m->nv);
    if (!ok) {
      return sim_fail("%s: accelerations must be [%ld, %d]", args->qacc, job->B, (int)m->nv);
    }
  }
  if (!(job->datas = sim_make_datas(m, args->threads))) {
    return 1;
  }
  return 0;
}

/* release everything */
static void job_close(const simArgs* args, derivJob* job) {
  sim_free_datas(job->datas, args->threads);
  npy_free(&job->state);
  npy_free(&job->ctrl);
  npy_free(&job->qacc);
  if (job->m) {
    mj_deleteModel(job->m);
  }
}

/* allocate an output of B x rows x cols numbers (at least one) */
static mjtNum* alloc_out(long B, size_t rows, size_t cols) {
  return calloc((size_t)B * rows * cols + 1, sizeof(mjtNum));
}

/* write PREFIX_NAME.npy with shape [B, rows, cols]; 0 or an exit status */
static int write_out(const char* prefix, const char* name, const mjtNum* data, long B,
                     size_t rows, size_t cols) {
  char path[4096], err[512];
  snprintf(path, sizeof(path), "%s_%s.npy", prefix, name);
  size_t shape[3] = {(size_t)B, rows, cols};
  if (npy_write(path, data, NPY_F64, 3, shape, err, sizeof(err))) {
    return sim_fail("%s", err);
  }
  return 0;
}

/* inverse subcommand: qfrc_inverse [B, nv] */
int cmd_inverse(const simArgs* args) {
  derivJob job = {0};
  mjtNum* qfrc = NULL;
  char err[512];
  int rc = job_open(args, &job, 1);
  if (!rc) {
    rc = 1;
    const mjModel* m = job.m;
    qfrc = alloc_out(job.B, m->nv, 1);
    tnBatchStatus status;
    if (qfrc && !sim_batch_failed("inverse",
                                  tn_inverseBatch(m, job.datas, args->threads, (int)job.B,
                                                  args->spec, job.state.data, job.qacc.data,
                                                  qfrc, &status),
                                  &status, job.B)) {
      size_t shape[2] = {(size_t)job.B, (size_t)m->nv};
      int bad = npy_write(args->out, qfrc, NPY_F64, 2, shape, err, sizeof(err));
      rc = bad ? sim_fail("%s", err) : 0;
    }
  }
  free(qfrc);
  job_close(args, &job);
  return rc;
}

/* 1 if the sensor matrices can be computed for m (it has sensors, all evaluated); a note
 * on stderr when it has sensors the engine does not evaluate */
static int want_sensors(const mjModel* m, const char* files) {
  if (m->nsensordata == 0) {
    return 0;
  }
  if (!tn_sensorsEvaluated(m)) {
    fprintf(stderr, "torsion-sim: note: the model has a sensor type Torsion does not evaluate "
            "yet: %s are not written\n", files);
    return 0;
  }
  return 1;
}

/* transitionfd subcommand: PREFIX_A [B, ndx, ndx], PREFIX_B [B, ndx, nu], with sensors
 * PREFIX_C [B, ns, ndx], PREFIX_D [B, ns, nu] */
int cmd_transitionfd(const simArgs* args) {
  derivJob job = {0};
  mjtNum *A = NULL, *Bm = NULL, *C = NULL, *D = NULL;
  int rc = job_open(args, &job, 0);
  if (!rc) {
    rc = 1;
    const mjModel* m = job.m;
    size_t ndx = 2 * (size_t)m->nv + m->na, ns = m->nsensordata;
    int sensors = want_sensors(m, "PREFIX_C.npy and PREFIX_D.npy");
    A = alloc_out(job.B, ndx, ndx);
    Bm = alloc_out(job.B, ndx, m->nu);
    C = sensors ? alloc_out(job.B, ns, ndx) : NULL;
    D = sensors ? alloc_out(job.B, ns, m->nu) : NULL;
    tnBatchStatus status;
    if (A && Bm && (!sensors || (C && D)) &&
        !sim_batch_failed("transitionfd",
                          tn_transitionFDBatch(m, job.datas, args->threads, (int)job.B,
                                               args->spec, job.state.data,
                                               args->ctrl ? job.ctrl.data : NULL, args->eps,
                                               args->centered, A, Bm, C, D, &status),
                          &status, job.B)) {
      rc = write_out(args->out, "A", A, job.B, ndx, ndx);
      rc = rc ? rc : write_out(args->out, "B", Bm, job.B, ndx, m->nu);
      if (sensors) {
        rc = rc ? rc : write_out(args->out, "C", C, job.B, ns, ndx);
        rc = rc ? rc : write_out(args->out, "D", D, job.B, ns, m->nu);
      }
    }
  }
  free(A);
  free(Bm);
  free(C);
  free(D);
  job_close(args, &job);
  return rc;
}

/* inversefd subcommand: PREFIX_DfDq, _DfDv, _DfDa [B, nv, nv], PREFIX_DmDq [B, nv, nC],
 * with sensors PREFIX_DsDq, _DsDv, _DsDa [B, nv, nsensordata] */
int cmd_inversefd(const simArgs* args) {
  if (args->centered) {
    return sim_fail("inversefd: only forward differences are supported (no --centered)");
  }
  derivJob job = {0};
  enum { NOUT = 7 };
  mjtNum* out[NOUT] = {NULL};
  static const char* names[NOUT] = {"DfDq", "DfDv", "DfDa", "DmDq", "DsDq", "DsDv", "DsDa"};
  int rc = job_open(args, &job, 1);
  if (!rc) {
    rc = 1;
    const mjModel* m = job.m;
    size_t nv = m->nv, ns = m->nsensordata;
    size_t cols[NOUT] = {nv, nv, nv, (size_t)m->nC, ns, ns, ns};
    int nout = want_sensors(m, "PREFIX_DsDq/DsDv/DsDa.npy") ? NOUT : 4;
    int ok = 1;
    for (int k = 0; k < nout; k++) {
      ok = ok && (out[k] = alloc_out(job.B, nv, cols[k]));
    }
    tnBatchStatus status;
    if (ok && !sim_batch_failed("inversefd",
                                tn_inverseFDBatch(m, job.datas, args->threads, (int)job.B,
                                                  args->spec, job.state.data, job.qacc.data,
                                                  args->eps, args->actuation, out[0], out[1],
                                                  out[2], out[4], out[5], out[6], out[3],
                                                  &status),
                                &status, job.B)) {
      rc = 0;
      for (int k = 0; k < nout && !rc; k++) {
        rc = write_out(args->out, names[k], out[k], job.B, nv, cols[k]);
      }
    }
  }
  for (int k = 0; k < NOUT; k++) {
    free(out[k]);
  }
  job_close(args, &job);
  return rc;
}
