/* server/req_forward.c — Forward: mj_forward on B states, returning qacc (and sensordata).
 *
 * Each item runs the engine's one forward path, tn_forwardItem, the same function behind
 * tn_forwardBatch and `torsion-sim forward`: mj_resetData, mj_setState, the control row,
 * mj_forward; qacc (and sensordata) are stored from d. Results stream per env-range chunk. */
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "requests.h"

/* what the workers need */
typedef struct tdForward_ {
  int spec, nstate, nv, nu, nsens, B;
  int f32, sensordata;
  const double* state; /* [B, nstate] */
  const double* ctrl;  /* [B or 1, nu] or NULL */
  int ctrl_per_item;
} tdForward;

/* a chunk's outputs */
typedef struct tdForwardOut_ {
  void* qacc; /* [ne, nv] */
  void* sens; /* [ne, nsens] or NULL */
} tdForwardOut;

/* one item: the engine's forward path, then its results stored (narrowed when float32) */
static void forward_item(const tdJob* job, mjData* d, int b, int i, void* out) {
  const tdForward* p = job->payload;
  const mjModel* m = job->model->m;
  tdForwardOut* o = out;
  const double* ctrl = p->ctrl ? p->ctrl + (size_t)(p->ctrl_per_item ? b : 0) * p->nu : NULL;
  tn_forwardItem(m, d, p->spec, p->state + (size_t)b * p->nstate, ctrl, NULL, NULL);
  td_store(o->qacc, (size_t)i * p->nv, d->qacc, p->nv, p->f32);
  if (p->sensordata) {
    td_store(o->sens, (size_t)i * p->nsens, d->sensordata, p->nsens, p->f32);
  }
}

/* encode a chunk's frame (the last chunk to finish carries the final flag) */
static void encode(tdJob* job, const tdForward* p, int e0, int ne, tdForwardOut* o,
                   uint32_t* warnings, tdCompletion* c) {
  uint64_t qshape[2] = {(uint64_t)ne, (uint64_t)p->nv};
  uint64_t eshape[2] = {(uint64_t)ne, (uint64_t)p->nsens};
  Torsion__V1__Array qa = TORSION__V1__ARRAY__INIT, ea = TORSION__V1__ARRAY__INIT;
  td_set_array(&qa, qshape, 2, p->f32, o->qacc, (size_t)ne * p->nv);
  td_set_array(&ea, eshape, 2, p->f32, o->sens, (size_t)ne * p->nsens);
  Torsion__V1__ForwardResult res = TORSION__V1__FORWARD_RESULT__INIT;
  res.env_offset = (uint32_t)e0;
  res.env_count = (uint32_t)ne;
  res.qacc = &qa;
  res.sensordata = p->sensordata ? &ea : NULL;
  res.n_warnings = (size_t)ne;
  res.warnings = warnings;
  res.batch = (uint32_t)p->B;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.body_case = TORSION__V1__RESPONSE__BODY_FORWARD;
  r.forward = &res;
  td_job_pack_chunk(job, &r, c);
}

/* worker: one env range */
static void run_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  tdForward* p = job->payload;
  mjData* d = job->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  size_t es = p->f32 ? 4 : 8;
  tdForwardOut o = {malloc((size_t)ne * p->nv * es + 8),
                    p->sensordata ? malloc((size_t)ne * p->nsens * es + 8) : NULL};
  uint32_t* warnings = calloc((size_t)ne, sizeof(uint32_t));
  if (!o.qacc || (p->sensordata && !o.sens) || !warnings) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
  } else if (!td_job_run_items(job, d, e0, ne, forward_item, &o, warnings, 1, c)) {
    encode(job, p, e0, ne, &o, warnings, c);
  }
  free(o.qacc);
  free(o.sens);
  free(warnings);
}

/* free the payload */
static void release(tdJob* job) {
  free(job->payload);
}

static const tdJobOps forward_ops = {run_chunk, NULL, release};

/* Forward: validate, then queue */
void td_req_forward(tdConn* c, tdReq* req, double t0) {
  int kind = TD_KIND_FORWARD;
  Torsion__V1__ForwardRequest* fr = req->forward;

  // model, spec, states [B, nstate]
  tdModelSpec ms;
  if (td_request_model_spec(c, req, kind, t0, fr->model, fr->state_spec, &ms)) {
    return;
  }
  const mjModel* m = ms.m;
  int64_t B = td_request_batch(c, req, kind, t0, fr->state, "state", ms.nstate);
  if (B < 0) {
    return;
  }

  // controls [B or 1, nu]
  int ctrl_per_item;
  if (td_request_ctrl(c, req, kind, t0, fr->ctrl, B, m->nu, &ctrl_per_item)) {
    return;
  }

  // sensordata only where the engine evaluates sensors
  if (td_check_sensordata(c, req, kind, t0, m, fr->sensordata)) {
    return;
  }

  // output size
  int f32 = fr->output_dtype == TD_F32;
  size_t per_item = (size_t)(m->nv + (fr->sensordata ? m->nsensordata : 0)) * (f32 ? 4 : 8);
  if (td_request_output(c, req, kind, t0, B, per_item)) {
    return;
  }

  // the job
  tdJob* job = td_request_job(c, req, kind, t0, &forward_ops, ms.mod, sizeof(tdForward), B);
  if (!job) {
    return;
  }
  *(tdForward*)job->payload = (tdForward){ms.spec,
                                          ms.nstate,
                                          m->nv,
                                          m->nu,
                                          m->nsensordata,
                                          (int)B,
                                          f32,
                                          fr->sensordata,
                                          td_in_data(fr->state),
                                          fr->ctrl ? td_in_data(fr->ctrl) : NULL,
                                          ctrl_per_item};
  td_job_submit(job, (int)B, td_chunk_items(c->srv, ms.mod, (int)B, per_item, 1), 0);
}
