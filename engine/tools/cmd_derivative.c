/* tools/cmd_derivative.c — `torsion-sim inverse`, `transitionfd` and `inversefd`: batched
 * inverse dynamics and finite-difference derivatives over .npy inputs, through the engine's
 * OpenMP batch helpers (tn_inverseBatch, tn_transitionFDBatch, tn_inverseFDBatch). */
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
      return sim_fail("%s: accelerations must be [%ld, %d]", args->qacc, job->B, m->nv);
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
  if (npy_write(path, data, 3, shape, err, sizeof(err))) {
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
    if (qfrc && !tn_inverseBatch(m, job.datas, args->threads, (int)job.B, args->spec,
                                 job.state.data, job.qacc.data, qfrc)) {
      size_t shape[2] = {(size_t)job.B, (size_t)m->nv};
      rc = npy_write(args->out, qfrc, 2, shape, err, sizeof(err)) ? sim_fail("%s", err) : 0;
    }
  }
  free(qfrc);
  job_close(args, &job);
  return rc;
}

/* transitionfd subcommand: PREFIX_A [B, ndx, ndx], PREFIX_B [B, ndx, nu] */
int cmd_transitionfd(const simArgs* args) {
  derivJob job = {0};
  mjtNum *A = NULL, *Bm = NULL;
  int rc = job_open(args, &job, 0);
  if (!rc) {
    rc = 1;
    const mjModel* m = job.m;
    size_t ndx = 2 * (size_t)m->nv + m->na;
    A = alloc_out(job.B, ndx, ndx);
    Bm = alloc_out(job.B, ndx, m->nu);
    if (m->nsensordata > 0) {
      fprintf(stderr, "torsion-sim: note: the model has %d sensor values, but sensors are not "
              "evaluated yet: %s_C.npy and %s_D.npy are not written\n", m->nsensordata,
              args->out, args->out);
    }
    if (A && Bm &&
        !tn_transitionFDBatch(m, job.datas, args->threads, (int)job.B, args->spec,
                              job.state.data, args->ctrl ? job.ctrl.data : NULL, args->eps,
                              args->centered, A, Bm, NULL, NULL)) {
      rc = write_out(args->out, "A", A, job.B, ndx, ndx);
      rc = rc ? rc : write_out(args->out, "B", Bm, job.B, ndx, m->nu);
    }
  }
  free(A);
  free(Bm);
  job_close(args, &job);
  return rc;
}

/* inversefd subcommand: PREFIX_DfDq, _DfDv, _DfDa [B, nv, nv], PREFIX_DmDq [B, nv, nC] */
int cmd_inversefd(const simArgs* args) {
  if (args->centered) {
    return sim_fail("inversefd: only forward differences are supported (no --centered)");
  }
  derivJob job = {0};
  mjtNum* out[4] = {NULL, NULL, NULL, NULL};
  static const char* names[4] = {"DfDq", "DfDv", "DfDa", "DmDq"};
  int rc = job_open(args, &job, 1);
  if (!rc) {
    rc = 1;
    const mjModel* m = job.m;
    size_t nv = m->nv, cols[4] = {nv, nv, nv, (size_t)m->nC};
    int ok = 1;
    for (int k = 0; k < 4; k++) {
      ok = ok && (out[k] = alloc_out(job.B, nv, cols[k]));
    }
    if (m->nsensordata > 0) {
      fprintf(stderr, "torsion-sim: note: the model has %d sensor values, but sensors are not "
              "evaluated yet: %s_DsDq/DsDv/DsDa.npy are not written\n", m->nsensordata,
              args->out);
    }
    if (ok && !tn_inverseFDBatch(m, job.datas, args->threads, (int)job.B, args->spec,
                                 job.state.data, job.qacc.data, args->eps, args->actuation,
                                 out[0], out[1], out[2], NULL, NULL, NULL, out[3])) {
      rc = 0;
      for (int k = 0; k < 4 && !rc; k++) {
        rc = write_out(args->out, names[k], out[k], job.B, nv, cols[k]);
      }
    }
  }
  for (int k = 0; k < 4; k++) {
    free(out[k]);
  }
  job_close(args, &job);
  return rc;
}
