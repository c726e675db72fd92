/* server/req_inverse.c — Inverse: mj_inverse on B states with given accelerations,
 * returning qfrc_inverse.
 *
 * Each item runs what `torsion-sim inverse` (tn_inverseBatch) runs per item: mj_resetData,
 * mj_setState with the request's spec, qacc copied in, mj_inverse, on the worker's own
 * mjData. Items are split into env-range chunks; each chunk streams back as one
 * InverseResult frame, and the stop flags (cancel, deadline) are checked after every item. */
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "requests.h"

/* what the workers need (inputs point into the request) */
typedef struct tdInverse_ {
  int spec, nstate, nv, B, f32;
  const double* state; /* [B, nstate] */
  const double* qacc;  /* [B, nv] */
} tdInverse;

/* encode a chunk's frame (the last chunk to finish carries the final flag) */
static void encode(tdJob* job, const tdInverse* p, int e0, int ne, void* qfrc, uint32_t* warnings,
                   tdCompletion* c) {
  uint64_t shape[2] = {(uint64_t)ne, (uint64_t)p->nv};
  Torsion__V1__Array qa = TORSION__V1__ARRAY__INIT;
  td_set_array(&qa, shape, 2, p->f32, qfrc, (size_t)ne * p->nv);
  Torsion__V1__InverseResult res = TORSION__V1__INVERSE_RESULT__INIT;
  res.env_offset = (uint32_t)e0;
  res.env_count = (uint32_t)ne;
  res.qfrc_inverse = &qa;
  res.n_warnings = (size_t)ne;
  res.warnings = warnings;
  res.batch = (uint32_t)p->B;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.body_case = TORSION__V1__RESPONSE__BODY_INVERSE;
  r.inverse = &res;
  td_job_pack_chunk(job, &r, c);
}

/* one item: reset, set, accelerations, inverse, copy out */
static void inverse_item(const tdJob* job, mjData* d, int b, int i, void* qfrc) {
  const tdInverse* p = job->payload;
  const mjModel* m = job->model->m;
  td_load_item(m, d, p->spec, p->state + (size_t)b * p->nstate, NULL, p->qacc + (size_t)b * p->nv);
  mj_inverse(m, d);
  td_store(qfrc, (size_t)i * p->nv, d->qfrc_inverse, p->nv, p->f32);
}

/* worker: one env range */
static void run_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  tdInverse* p = job->payload;
  mjData* d = job->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  void* qfrc = malloc((size_t)ne * p->nv * (p->f32 ? 4 : 8) + 8);
  uint32_t* warnings = calloc((size_t)ne, sizeof(uint32_t));
  if (!qfrc || !warnings) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
  } else if (!td_job_run_items(job, d, e0, ne, inverse_item, qfrc, warnings, 1, c)) {
    encode(job, p, e0, ne, qfrc, warnings, c);
  }
  free(qfrc);
  free(warnings);
}

/* free the payload */
static void release(tdJob* job) {
  free(job->payload);
}

static const tdJobOps inverse_ops = {run_chunk, NULL, release};

/* Inverse: validate, then queue */
void td_req_inverse(tdConn* c, tdReq* req, double t0) {
  int kind = TD_KIND_INVERSE;
  Torsion__V1__InverseRequest* ir = req->inverse;

  // model, spec, states [B, nstate]
  tdModelSpec ms;
  if (td_request_model_spec(c, req, kind, t0, ir->model, ir->state_spec, &ms)) {
    return;
  }
  const mjModel* m = ms.m;
  int64_t B = td_request_batch(c, req, kind, t0, ir->state, "state", ms.nstate);
  if (B < 0) {
    return;
  }

  // accelerations [B, nv]
  if (td_request_rows(c, req, kind, t0, ir->qacc, "qacc", B, m->nv)) {
    return;
  }

  // output size
  int f32 = ir->output_dtype == TD_F32;
  size_t per_item = (size_t)m->nv * (f32 ? 4 : 8);
  if (td_request_output(c, req, kind, t0, B, per_item)) {
    return;
  }

  // the job
  tdJob* job = td_request_job(c, req, kind, t0, &inverse_ops, ms.mod, sizeof(tdInverse), B);
  if (!job) {
    return;
  }
  *(tdInverse*)job->payload = (tdInverse){
      ms.spec, ms.nstate, m->nv, (int)B, f32, td_in_data(ir->state), td_in_data(ir->qacc)};
  td_job_submit(job, (int)B, td_request_chunk(c->srv, ms.mod, (int)B, ir->chunk_envs, per_item, 1),
                0);
}
