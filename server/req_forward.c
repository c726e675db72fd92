/* server/req_forward.c — Forward: mj_forward on B states, returning qacc (and sensordata).
 *
 * Each item runs what tn_forwardBatch runs: mj_resetData, mj_setState, the control row
 * copied into ctrl, mj_forward; qacc is copied out. Results stream per env-range chunk. */
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

/* bitmask of the warnings raised in d */
static uint32_t warning_mask(const mjData* d) {
  uint32_t mask = 0;
  for (int w = 0; w < mjNWARNING; w++) {
    if (d->warning[w].number > 0) {
      mask |= 1u << w;
    }
  }
  return mask;
}

/* worker: one env range */
static void run_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  tdForward* p = job->payload;
  const mjModel* m = job->model->m;
  mjData* d = job->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  size_t es = p->f32 ? 4 : 8;
  void* qacc = malloc((size_t)ne * p->nv * es + 8);
  void* sens = p->sensordata ? malloc((size_t)ne * p->nsens * es + 8) : NULL;
  uint32_t* warnings = calloc((size_t)ne, sizeof(uint32_t));
  if (!qacc || (p->sensordata && !sens) || !warnings) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
    goto done;
  }

  // reset, set, control, forward, copy out
  for (int i = 0; i < ne; i++) {
    int b = e0 + i;
    mj_resetData(m, d);
    mj_setState(m, d, p->state + (size_t)b * p->nstate, p->spec);
    if (p->ctrl && p->nu) {
      memcpy(d->ctrl, p->ctrl + (size_t)(p->ctrl_per_item ? b : 0) * p->nu, sizeof(double) * p->nu);
    }
    mj_forward(m, d);
    if (td_engine_failed() || td_job_should_stop(job, c)) {
      goto done;
    }
    td_store(qacc, (size_t)i * p->nv, d->qacc, p->nv, p->f32);
    if (p->sensordata) {
      td_store(sens, (size_t)i * p->nsens, d->sensordata, p->nsens, p->f32);
    }
    warnings[i] = warning_mask(d);
    c->steps++;
  }

  // encode
  {
    uint64_t qshape[2] = {(uint64_t)ne, (uint64_t)p->nv};
    uint64_t eshape[2] = {(uint64_t)ne, (uint64_t)p->nsens};
    Torsion__V1__Array qa = TORSION__V1__ARRAY__INIT, ea = TORSION__V1__ARRAY__INIT;
    td_set_array(&qa, qshape, 2, p->f32, qacc, (size_t)ne * p->nv);
    td_set_array(&ea, eshape, 2, p->f32, sens, (size_t)ne * p->nsens);
    Torsion__V1__ForwardResult res = TORSION__V1__FORWARD_RESULT__INIT;
    res.env_offset = (uint32_t)e0;
    res.env_count = (uint32_t)ne;
    res.qacc = &qa;
    res.sensordata = p->sensordata ? &ea : NULL;
    res.n_warnings = (size_t)ne;
    res.warnings = warnings;
    res.batch = (uint32_t)p->B;
    tdResp r = TORSION__V1__RESPONSE__INIT;
    r.id = job->id;
    r.final = td_job_chunk_done(job);
    r.body_case = TORSION__V1__RESPONSE__BODY_FORWARD;
    r.forward = &res;
    c->final = r.final;
    if (td_pack_frame(&r, &c->frame, &c->len)) {
      td_completion_error(c, TD_E_INTERNAL, "result frame too large");
    }
  }

done:
  free(qacc);
  free(sens);
  free(warnings);
}

/* free the payload */
static void release(tdJob* job) {
  free(job->payload);
}

static const tdJobOps forward_ops = {run_chunk, NULL, release};

/* Forward: validate, then queue */
void td_req_forward(tdConn* c, tdReq* req, double t0) {
  const tdConfig* cfg = &c->srv->cfg;
  int kind = TORSION__V1__REQUEST__BODY_FORWARD - 10;
  Torsion__V1__ForwardRequest* fr = req->forward;
  char why[512];

  // model, spec, states [B, nstate]
  tdModel* mod = td_lookup_model(c, req, kind, t0, fr->model);
  if (!mod) {
    return;
  }
  const mjModel* m = mod->m;
  int spec = td_request_spec(c, req, kind, t0, fr->state_spec, mjSTATE_FULLPHYSICS);
  if (spec < 0) {
    return;
  }
  int nstate = mj_stateSize(m, spec);
  int64_t sshape[2] = {-1, nstate}, sgot[2];
  if (td_check_array(fr->state, "state", 2, sshape, sgot, why, sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s", why);
    return;
  }
  int64_t B = sgot[0];
  if (B < 1 || B > cfg->max_batch) {
    td_reject(c, req, kind, t0, B < 1 ? TD_E_INVALID_ARGUMENT : TD_E_LIMIT_EXCEEDED,
              "B=%lld outside [1, max_batch %lld]", (long long)B, (long long)cfg->max_batch);
    return;
  }

  // controls [B or 1, nu]
  int64_t cshape[2] = {-1, m->nu}, cgot[2] = {0, 0};
  if (fr->ctrl && (td_check_array(fr->ctrl, "ctrl", 2, cshape, cgot, why, sizeof(why)) ||
                   (cgot[0] != B && cgot[0] != 1))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "ctrl must be [%lld or 1, %d] float64",
              (long long)B, m->nu);
    return;
  }

  // sensordata only where the engine evaluates sensors
  if (td_check_sensordata(c, req, kind, t0, m, fr->sensordata)) {
    return;
  }

  // output size
  int f32 = fr->output_dtype == TD_F32;
  size_t per_item = (size_t)(m->nv + (fr->sensordata ? m->nsensordata : 0)) * (f32 ? 4 : 8);
  if ((double)per_item * B > (double)cfg->max_output_bytes) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED, "output exceeds max_output_bytes");
    return;
  }

  // the job
  tdForward* p = calloc(1, sizeof(tdForward));
  tdJob* job = p ? td_job_new(c, req, &forward_ops, kind) : NULL;
  if (!job) {
    free(p);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return;
  }
  *p = (tdForward){spec,
                   nstate,
                   m->nv,
                   m->nu,
                   m->nsensordata,
                   (int)B,
                   f32,
                   fr->sensordata,
                   (const double*)fr->state->data.data,
                   fr->ctrl ? (const double*)fr->ctrl->data.data : NULL,
                   fr->ctrl && cgot[0] == B};
  job->payload = p;
  job->model = mod;
  td_model_ref(mod);
  job->cost_steps = B;
  td_job_submit(job, (int)B, td_chunk_items(c->srv, mod, (int)B, per_item, 1), 0);
}
