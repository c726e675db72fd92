/* server/req_fd.c — TransitionFD and InverseFD: finite-difference derivatives of B states.
 *
 * Each item runs what `torsion-sim transitionfd` / `inversefd` (tn_transitionFDBatch /
 * tn_inverseFDBatch) run per item: mj_resetData, mj_setState with the request's spec, the
 * control row or qacc copied in, then mjd_transitionFD or mjd_inverseFD, on the worker's own
 * mjData, so results are bit for bit the in-process ones. The request is checked first for
 * what the engine would refuse (eps, RK4, sensors), so those are clear errors.
 * Items are split into env-range chunks; each chunk's matrices stream back as one frame, and
 * the stop flags (cancel, deadline) are checked after every item. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "requests.h"

/* most output matrices of one kind (InverseFD has seven) */
#define TD_FD_NOUT 7

/* ---------------------------------------------------------------------------------------
 * the chunk's output matrices, shared by both kinds
 * ------------------------------------------------------------------------------------- */

/* K matrices per item, each rows x cols; a chunk holds ne items of each wanted one */
typedef struct tdFdOut_ {
  int K, ne, f32;
  int want[TD_FD_NOUT];
  int rows[TD_FD_NOUT], cols[TD_FD_NOUT];
  void* out[TD_FD_NOUT];   /* [ne, rows, cols] float64 or float32 (NULL: not wanted) */
  double* tmp[TD_FD_NOUT]; /* one item's float64 result, when the output is float32 */
  uint64_t shape[TD_FD_NOUT][3];
  Torsion__V1__Array arr[TD_FD_NOUT];
} tdFdOut;

/* numbers in one item's matrix k */
static size_t fd_size(const tdFdOut* o, int k) {
  return (size_t)o->rows[k] * (size_t)o->cols[k];
}

/* bytes of one item's wanted matrices */
static size_t fd_item_bytes(const tdFdOut* o) {
  size_t n = 0;
  for (int k = 0; k < o->K; k++) {
    n += o->want[k] ? fd_size(o, k) : 0;
  }
  return n * (o->f32 ? 4 : 8);
}

/* allocate the chunk's buffers; 0 or -1 */
static int fd_alloc(tdFdOut* o, int ne) {
  o->ne = ne;
  for (int k = 0; k < o->K; k++) {
    if (!o->want[k]) {
      continue;
    }
    o->out[k] = malloc((size_t)ne * fd_size(o, k) * (o->f32 ? 4 : 8) + 8);
    o->tmp[k] = o->f32 ? malloc(sizeof(double) * (fd_size(o, k) + 1)) : NULL;
    if (!o->out[k] || (o->f32 && !o->tmp[k])) {
      return -1;
    }
  }
  return 0;
}

/* free the chunk's buffers */
static void fd_free(tdFdOut* o) {
  for (int k = 0; k < o->K; k++) {
    free(o->out[k]);
    free(o->tmp[k]);
    o->out[k] = NULL;
    o->tmp[k] = NULL;
  }
}

/* where the engine writes item i's matrices: the output itself (float64) or the item's
 * scratch (float32, narrowed afterwards); NULL for matrices not wanted */
static void fd_targets(tdFdOut* o, int i, double* mats[TD_FD_NOUT]) {
  for (int k = 0; k < TD_FD_NOUT; k++) {
    mats[k] = NULL;
    if (k < o->K && o->want[k]) {
      mats[k] = o->f32 ? o->tmp[k] : (double*)o->out[k] + (size_t)i * fd_size(o, k);
    }
  }
}

/* narrow item i's scratch into the float32 outputs */
static void fd_narrow(tdFdOut* o, int i) {
  for (int k = 0; o->f32 && k < o->K; k++) {
    if (o->want[k]) {
      td_store(o->out[k], (size_t)i * fd_size(o, k), o->tmp[k], fd_size(o, k), 1);
    }
  }
}

/* output Array k of the chunk, or NULL when not wanted */
static Torsion__V1__Array* fd_array(tdFdOut* o, int k) {
  if (!o->want[k]) {
    return NULL;
  }
  torsion__v1__array__init(&o->arr[k]);
  o->shape[k][0] = (uint64_t)o->ne;
  o->shape[k][1] = (uint64_t)o->rows[k];
  o->shape[k][2] = (uint64_t)o->cols[k];
  td_set_array(&o->arr[k], o->shape[k], 3, o->f32, o->out[k], (size_t)o->ne * fd_size(o, k));
  return &o->arr[k];
}

/* one item's engine call */
typedef void (*tdFdItem)(const tdJob* job, mjData* d, int b, double* mats[TD_FD_NOUT]);

/* run the chunk's items; 0, or -1 when the chunk must stop (engine error, cancel, deadline) */
static int fd_run_items(tdJob* job, mjData* d, int e0, tdFdOut* o, uint32_t* warnings,
                        int64_t evals, tdFdItem item, tdCompletion* c) {
  double* mats[TD_FD_NOUT];
  for (int i = 0; i < o->ne; i++) {
    fd_targets(o, i, mats);
    item(job, d, e0 + i, mats);
    if (td_engine_failed() || td_job_should_stop(job, c)) {
      return -1;
    }
    fd_narrow(o, i);
    warnings[i] = td_warning_mask(d);
    c->steps += (uint64_t)evals;
  }
  return 0;
}

/* pack a response frame; the last chunk to finish carries the final flag */
static void fd_pack(tdJob* job, tdResp* r, tdCompletion* c) {
  r->id = job->id;
  r->final = td_job_chunk_done(job);
  c->final = r->final;
  if (td_pack_frame(r, &c->frame, &c->len)) {
    td_completion_error(c, TD_E_INTERNAL, "result frame too large");
  }
}

/* eps must be positive and finite; 0, or -1 after rejecting */
static int check_eps(tdConn* c, tdReq* req, int kind, double t0, double eps) {
  if (eps > 0 && isfinite(eps)) {
    return 0;
  }
  td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT, "eps must be a positive finite number, got %g",
            eps);
  return -1;
}

/* finite differences do not support RK4 (as in MuJoCo); 0, or -1 after rejecting */
static int check_integrator(tdConn* c, tdReq* req, int kind, double t0, const mjModel* m) {
  if (m->opt.integrator != mjINT_RK4) {
    return 0;
  }
  td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT,
            "finite differences do not support the RK4 integrator (neither does MuJoCo)");
  return -1;
}

/* sensor derivatives need a model with sensors that the engine evaluates; 0, or -1 after
 * rejecting (ERROR_INVALID_ARGUMENT without sensors, ERROR_UNIMPLEMENTED when unevaluated) */
static int check_sensors(tdConn* c, tdReq* req, int kind, double t0, const mjModel* m,
                         const char* what) {
  if (m->nsensordata == 0) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT, "%s asked, but the model has no sensors",
              what);
    return -1;
  }
  if (!tn_sensorsEvaluated(m)) {
    td_reject(c, req, kind, t0, TD_E_UNIMPLEMENTED,
              "%s asked, but the engine does not evaluate this model's sensors yet (%d sensors); "
              "ask without them",
              what, m->nsensor);
    return -1;
  }
  return 0;
}

/* evaluation count and output size against the limits; 0, or -1 after rejecting */
static int check_size(tdConn* c, tdReq* req, int kind, double t0, int64_t B, int64_t evals,
                      size_t per_item) {
  const tdConfig* cfg = &c->srv->cfg;
  if ((double)B * evals > (double)cfg->max_batch_steps) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED,
              "B=%lld items x %lld evaluations each exceeds max_batch_steps %lld", (long long)B,
              (long long)evals, (long long)cfg->max_batch_steps);
    return -1;
  }
  if ((double)per_item * B > (double)cfg->max_output_bytes) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED,
              "output of %.0f bytes exceeds max_output_bytes", (double)per_item * B);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * TransitionFD
 * ------------------------------------------------------------------------------------- */

/* what the workers need (inputs point into the request) */
typedef struct tdTransition_ {
  int spec, nstate, nu, B, centered;
  double eps;
  int64_t evals;       /* engine evaluations per item */
  const double* state; /* [B, nstate] */
  const double* ctrl;  /* [B or 1, nu] or NULL */
  int ctrl_per_item;
  tdFdOut shape; /* the matrices' layout (buffers are per chunk) */
} tdTransition;

/* one item: A, B (and C, D) */
static void transition_item(const tdJob* job, mjData* d, int b, double* mats[TD_FD_NOUT]) {
  const tdTransition* p = job->payload;
  const double* ctrl = p->ctrl ? p->ctrl + (size_t)(p->ctrl_per_item ? b : 0) * p->nu : NULL;
  td_load_item(job->model->m, d, p->spec, p->state + (size_t)b * p->nstate, ctrl, NULL);
  mjd_transitionFD(job->model->m, d, p->eps, (mjtByte)p->centered, mats[0], mats[1], mats[2],
                   mats[3]);
}

/* worker: one env range */
static void transition_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  tdTransition* p = job->payload;
  mjData* d = job->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  tdFdOut o = p->shape;
  uint32_t* warnings = calloc((size_t)ne, sizeof(uint32_t));
  if (fd_alloc(&o, ne) || !warnings) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
  } else if (!fd_run_items(job, d, e0, &o, warnings, p->evals, transition_item, c)) {
    // encode
    Torsion__V1__TransitionFDResult res = TORSION__V1__TRANSITION_FDRESULT__INIT;
    res.env_offset = (uint32_t)e0;
    res.env_count = (uint32_t)ne;
    res.a = fd_array(&o, 0);
    res.b = fd_array(&o, 1);
    res.c = fd_array(&o, 2);
    res.d = fd_array(&o, 3);
    res.n_warnings = (size_t)ne;
    res.warnings = warnings;
    res.batch = (uint32_t)p->B;
    tdResp r = TORSION__V1__RESPONSE__INIT;
    r.body_case = TORSION__V1__RESPONSE__BODY_TRANSITION_FD;
    r.transition_fd = &res;
    fd_pack(job, &r, c);
  }
  fd_free(&o);
  free(warnings);
}

/* free the payload */
static void release(tdJob* job) {
  free(job->payload);
}

static const tdJobOps transition_ops = {transition_chunk, NULL, release};

/* TransitionFD: validate, then queue */
void td_req_transition_fd(tdConn* c, tdReq* req, double t0) {
  int kind = TORSION__V1__REQUEST__BODY_TRANSITION_FD - 10;
  Torsion__V1__TransitionFDRequest* tr = req->transition_fd;
  char why[512];

  // model, spec, states [B, nstate]
  tdModel* mod = td_lookup_model(c, req, kind, t0, tr->model);
  if (!mod) {
    return;
  }
  const mjModel* m = mod->m;
  int spec = td_request_spec(c, req, kind, t0, tr->state_spec, mjSTATE_FULLPHYSICS);
  if (spec < 0) {
    return;
  }
  int nstate = mj_stateSize(m, spec);
  int64_t B = td_request_batch(c, req, kind, t0, tr->state, "state", nstate);
  if (B < 0) {
    return;
  }

  // controls [B or 1, nu]
  int64_t cshape[2] = {-1, m->nu}, cgot[2] = {0, 0};
  if (tr->ctrl && (td_check_array(tr->ctrl, "ctrl", 2, cshape, cgot, why, sizeof(why)) ||
                   (cgot[0] != B && cgot[0] != 1))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "ctrl must be [%lld or 1, %d] float64",
              (long long)B, m->nu);
    return;
  }

  // eps, integrator, sensors
  if (check_eps(c, req, kind, t0, tr->eps) || check_integrator(c, req, kind, t0, m) ||
      (tr->sensors && check_sensors(c, req, kind, t0, m, "C and D (sensors)"))) {
    return;
  }

  // the matrices: A [nx, nx], B [nx, nu], C [ns, nx], D [ns, nu]
  int nx = 2 * m->nv + m->na, ns = m->nsensordata, sens = tr->sensors != 0;
  tdFdOut shape = {.K = 4, .f32 = tr->output_dtype == TD_F32};
  int rows[4] = {nx, nx, ns, ns}, cols[4] = {nx, m->nu, nx, m->nu}, want[4] = {1, 1, sens, sens};
  for (int k = 0; k < 4; k++) {
    shape.rows[k] = rows[k];
    shape.cols[k] = cols[k];
    shape.want[k] = want[k];
  }

  // limits: one nominal step plus one (two when centered) per input dimension
  int64_t evals = 1 + (int64_t)(nx + m->nu) * (tr->centered ? 2 : 1);
  size_t per_item = fd_item_bytes(&shape);
  if (check_size(c, req, kind, t0, B, evals, per_item)) {
    return;
  }

  // the job
  tdTransition* p = calloc(1, sizeof(tdTransition));
  tdJob* job = p ? td_job_new(c, req, &transition_ops, kind) : NULL;
  if (!job) {
    free(p);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return;
  }
  *p = (tdTransition){spec,
                      nstate,
                      m->nu,
                      (int)B,
                      tr->centered != 0,
                      tr->eps,
                      evals,
                      td_in_data(tr->state),
                      tr->ctrl ? td_in_data(tr->ctrl) : NULL,
                      tr->ctrl && cgot[0] == B,
                      shape};
  job->payload = p;
  job->model = mod;
  td_model_ref(mod);
  job->cost_steps = B * evals;
  td_job_submit(job, (int)B, td_request_chunk(c->srv, mod, (int)B, tr->chunk_envs, per_item, evals),
                0);
}

/* ---------------------------------------------------------------------------------------
 * InverseFD
 * ------------------------------------------------------------------------------------- */

/* the output bits of InverseFDRequest.outputs, in the engine's argument order */
#define TD_IFD_ALL 0x7Fu
#define TD_IFD_SENSORS 0x38u
#define TD_IFD_DEFAULT 0x47u

/* what the workers need (inputs point into the request) */
typedef struct tdInverseFD_ {
  int spec, nstate, nv, B, actuation;
  double eps;
  int64_t evals;       /* engine evaluations per item */
  const double* state; /* [B, nstate] */
  const double* qacc;  /* [B, nv] */
  tdFdOut shape;
} tdInverseFD;

/* one item: the seven optional Jacobians */
static void inverse_fd_item(const tdJob* job, mjData* d, int b, double* mats[TD_FD_NOUT]) {
  const tdInverseFD* p = job->payload;
  td_load_item(job->model->m, d, p->spec, p->state + (size_t)b * p->nstate, NULL,
               p->qacc + (size_t)b * p->nv);
  mjd_inverseFD(job->model->m, d, p->eps, (mjtByte)p->actuation, mats[0], mats[1], mats[2], mats[3],
                mats[4], mats[5], mats[6]);
}

/* worker: one env range */
static void inverse_fd_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  tdInverseFD* p = job->payload;
  mjData* d = job->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  tdFdOut o = p->shape;
  uint32_t* warnings = calloc((size_t)ne, sizeof(uint32_t));
  if (fd_alloc(&o, ne) || !warnings) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
  } else if (!fd_run_items(job, d, e0, &o, warnings, p->evals, inverse_fd_item, c)) {
    // encode
    Torsion__V1__InverseFDResult res = TORSION__V1__INVERSE_FDRESULT__INIT;
    res.env_offset = (uint32_t)e0;
    res.env_count = (uint32_t)ne;
    res.dfdq = fd_array(&o, 0);
    res.dfdv = fd_array(&o, 1);
    res.dfda = fd_array(&o, 2);
    res.dsdq = fd_array(&o, 3);
    res.dsdv = fd_array(&o, 4);
    res.dsda = fd_array(&o, 5);
    res.dmdq = fd_array(&o, 6);
    res.n_warnings = (size_t)ne;
    res.warnings = warnings;
    res.batch = (uint32_t)p->B;
    tdResp r = TORSION__V1__RESPONSE__INIT;
    r.body_case = TORSION__V1__RESPONSE__BODY_INVERSE_FD;
    r.inverse_fd = &res;
    fd_pack(job, &r, c);
  }
  fd_free(&o);
  free(warnings);
}

static const tdJobOps inverse_fd_ops = {inverse_fd_chunk, NULL, release};

/* InverseFD: validate, then queue */
void td_req_inverse_fd(tdConn* c, tdReq* req, double t0) {
  int kind = TORSION__V1__REQUEST__BODY_INVERSE_FD - 10;
  Torsion__V1__InverseFDRequest* ir = req->inverse_fd;
  char why[512];

  // model, spec, states [B, nstate], accelerations [B, nv]
  tdModel* mod = td_lookup_model(c, req, kind, t0, ir->model);
  if (!mod) {
    return;
  }
  const mjModel* m = mod->m;
  int spec = td_request_spec(c, req, kind, t0, ir->state_spec, mjSTATE_FULLPHYSICS);
  if (spec < 0) {
    return;
  }
  int nstate = mj_stateSize(m, spec);
  int64_t B = td_request_batch(c, req, kind, t0, ir->state, "state", nstate);
  if (B < 0) {
    return;
  }
  int64_t qshape[2] = {B, m->nv}, qgot[2];
  if (td_check_array(ir->qacc, "qacc", 2, qshape, qgot, why, sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s (qacc must be [%lld, %d] float64)", why,
              (long long)B, m->nv);
    return;
  }

  // outputs, eps, integrator, sensors
  uint32_t outputs = ir->outputs ? ir->outputs : TD_IFD_DEFAULT;
  if (outputs & ~TD_IFD_ALL) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT,
              "outputs 0x%x has bits beyond the seven Jacobians (0x7f)", ir->outputs);
    return;
  }
  if (check_eps(c, req, kind, t0, ir->eps) || check_integrator(c, req, kind, t0, m) ||
      ((outputs & TD_IFD_SENSORS) &&
       check_sensors(c, req, kind, t0, m, "DsDq/DsDv/DsDa (sensors)"))) {
    return;
  }

  // the matrices: DfDq, DfDv, DfDa [nv, nv], DsDq, DsDv, DsDa [nv, ns], DmDq [nv, nC]
  int nv = m->nv, ns = m->nsensordata;
  tdFdOut shape = {.K = 7, .f32 = ir->output_dtype == TD_F32};
  int cols[7] = {nv, nv, nv, ns, ns, ns, m->nC};
  for (int k = 0; k < 7; k++) {
    shape.rows[k] = nv;
    shape.cols[k] = cols[k];
    shape.want[k] = (outputs >> k) & 1;
  }

  // limits: one nominal evaluation plus one per position, velocity and acceleration
  int64_t evals = 1 + 3 * (int64_t)nv;
  size_t per_item = fd_item_bytes(&shape);
  if (check_size(c, req, kind, t0, B, evals, per_item)) {
    return;
  }

  // the job
  tdInverseFD* p = calloc(1, sizeof(tdInverseFD));
  tdJob* job = p ? td_job_new(c, req, &inverse_fd_ops, kind) : NULL;
  if (!job) {
    free(p);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return;
  }
  *p = (tdInverseFD){spec,
                     nstate,
                     nv,
                     (int)B,
                     ir->actuation != 0,
                     ir->eps,
                     evals,
                     td_in_data(ir->state),
                     td_in_data(ir->qacc),
                     shape};
  job->payload = p;
  job->model = mod;
  td_model_ref(mod);
  job->cost_steps = B * evals;
  td_job_submit(job, (int)B, td_request_chunk(c->srv, mod, (int)B, ir->chunk_envs, per_item, evals),
                0);
}
