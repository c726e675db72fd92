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

/* one item's engine call, writing the wanted matrices (NULL: not wanted) */
typedef void (*tdFdEval)(const tdJob* job, mjData* d, int b, double* mats[TD_FD_NOUT]);

/* K matrices per item, each rows x cols; a chunk holds ne items of each wanted one */
typedef struct tdFdOut_ {
  tdFdEval eval; /* the kind's engine call */
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

/* one item (row i of the chunk's outputs `out`, a tdFdOut): the kind's engine call into the
 * outputs, or into the scratch narrowed afterwards */
static void fd_item(const tdJob* job, mjData* d, int b, int i, void* out) {
  tdFdOut* o = out;
  double* mats[TD_FD_NOUT];
  fd_targets(o, i, mats);
  o->eval(job, d, b, mats);
  fd_narrow(o, i);
}

/* a kind's encoder: the result frame of the chunk's matrices o (items e0 .. e0 + o->ne - 1) */
typedef void (*tdFdEncode)(tdJob* job, tdFdOut* o, int e0, uint32_t* warnings, tdCompletion* c);

/* worker: one env range of either kind (evals: engine evaluations per item) */
static void fd_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c, const tdFdOut* shape,
                     int64_t evals, tdFdEncode encode) {
  mjData* d = job->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  tdFdOut o = *shape;
  uint32_t* warnings = calloc((size_t)ne, sizeof(uint32_t));
  if (fd_alloc(&o, ne) || !warnings) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
  } else if (!td_job_run_items(job, d, e0, ne, fd_item, &o, warnings, evals, c)) {
    encode(job, &o, e0, warnings, c);
  }
  fd_free(&o);
  free(warnings);
}

/* free the payload */
static void release(tdJob* job) {
  free(job->payload);
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
              what, (int)m->nsensor);
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
  return td_request_output(c, req, kind, t0, B, per_item);
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
static void transition_eval(const tdJob* job, mjData* d, int b, double* mats[TD_FD_NOUT]) {
  const tdTransition* p = job->payload;
  const double* ctrl = p->ctrl ? p->ctrl + (size_t)(p->ctrl_per_item ? b : 0) * p->nu : NULL;
  td_load_item(job->model->m, d, p->spec, p->state + (size_t)b * p->nstate, ctrl, NULL);
  mjd_transitionFD(job->model->m, d, p->eps, (mjtByte)p->centered, mats[0], mats[1], mats[2],
                   mats[3]);
}

/* encode a chunk's frame */
static void transition_encode(tdJob* job, tdFdOut* o, int e0, uint32_t* warnings, tdCompletion* c) {
  const tdTransition* p = job->payload;
  Torsion__V1__TransitionFDResult res = TORSION__V1__TRANSITION_FDRESULT__INIT;
  res.env_offset = (uint32_t)e0;
  res.env_count = (uint32_t)o->ne;
  res.a = fd_array(o, 0);
  res.b = fd_array(o, 1);
  res.c = fd_array(o, 2);
  res.d = fd_array(o, 3);
  res.n_warnings = (size_t)o->ne;
  res.warnings = warnings;
  res.batch = (uint32_t)p->B;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.body_case = TORSION__V1__RESPONSE__BODY_TRANSITION_FD;
  r.transition_fd = &res;
  td_job_pack_chunk(job, &r, c);
}

/* worker: one env range */
static void transition_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  const tdTransition* p = job->payload;
  fd_chunk(job, w, chunk, c, &p->shape, p->evals, transition_encode);
}

static const tdJobOps transition_ops = {transition_chunk, NULL, release};

/* TransitionFD: validate, then queue */
void td_req_transition_fd(tdConn* c, tdReq* req, double t0) {
  int kind = TD_KIND_TRANSITION_FD;
  Torsion__V1__TransitionFDRequest* tr = req->transition_fd;

  // model, spec, states [B, nstate]
  tdModelSpec ms;
  if (td_request_model_spec(c, req, kind, t0, tr->model, tr->state_spec, &ms)) {
    return;
  }
  const mjModel* m = ms.m;
  int64_t B = td_request_batch(c, req, kind, t0, tr->state, "state", ms.nstate);
  if (B < 0) {
    return;
  }

  // controls [B or 1, nu]
  int ctrl_per_item;
  if (td_request_ctrl(c, req, kind, t0, tr->ctrl, B, m->nu, &ctrl_per_item)) {
    return;
  }

  // eps, integrator, sensors
  if (check_eps(c, req, kind, t0, tr->eps) || check_integrator(c, req, kind, t0, m) ||
      (tr->sensors && check_sensors(c, req, kind, t0, m, "C and D (sensors)"))) {
    return;
  }

  // the matrices: A [nx, nx], B [nx, nu], C [ns, nx], D [ns, nu]
  int nx = 2 * m->nv + m->na, ns = m->nsensordata, sens = tr->sensors != 0;
  tdFdOut shape = {.eval = transition_eval, .K = 4, .f32 = tr->output_dtype == TD_F32};
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
  tdJob* job =
      td_request_job(c, req, kind, t0, &transition_ops, ms.mod, sizeof(tdTransition), B * evals);
  if (!job) {
    return;
  }
  *(tdTransition*)job->payload = (tdTransition){ms.spec,
                                                ms.nstate,
                                                m->nu,
                                                (int)B,
                                                tr->centered != 0,
                                                tr->eps,
                                                evals,
                                                td_in_data(tr->state),
                                                tr->ctrl ? td_in_data(tr->ctrl) : NULL,
                                                ctrl_per_item,
                                                shape};
  td_job_submit(job, (int)B,
                td_request_chunk(c->srv, ms.mod, (int)B, tr->chunk_envs, per_item, evals), 0);
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
static void inverse_fd_eval(const tdJob* job, mjData* d, int b, double* mats[TD_FD_NOUT]) {
  const tdInverseFD* p = job->payload;
  td_load_item(job->model->m, d, p->spec, p->state + (size_t)b * p->nstate, NULL,
               p->qacc + (size_t)b * p->nv);
  mjd_inverseFD(job->model->m, d, p->eps, (mjtByte)p->actuation, mats[0], mats[1], mats[2], mats[3],
                mats[4], mats[5], mats[6]);
}

/* encode a chunk's frame */
static void inverse_fd_encode(tdJob* job, tdFdOut* o, int e0, uint32_t* warnings, tdCompletion* c) {
  const tdInverseFD* p = job->payload;
  Torsion__V1__InverseFDResult res = TORSION__V1__INVERSE_FDRESULT__INIT;
  res.env_offset = (uint32_t)e0;
  res.env_count = (uint32_t)o->ne;
  res.dfdq = fd_array(o, 0);
  res.dfdv = fd_array(o, 1);
  res.dfda = fd_array(o, 2);
  res.dsdq = fd_array(o, 3);
  res.dsdv = fd_array(o, 4);
  res.dsda = fd_array(o, 5);
  res.dmdq = fd_array(o, 6);
  res.n_warnings = (size_t)o->ne;
  res.warnings = warnings;
  res.batch = (uint32_t)p->B;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.body_case = TORSION__V1__RESPONSE__BODY_INVERSE_FD;
  r.inverse_fd = &res;
  td_job_pack_chunk(job, &r, c);
}

/* worker: one env range */
static void inverse_fd_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  const tdInverseFD* p = job->payload;
  fd_chunk(job, w, chunk, c, &p->shape, p->evals, inverse_fd_encode);
}

static const tdJobOps inverse_fd_ops = {inverse_fd_chunk, NULL, release};

/* InverseFD: validate, then queue */
void td_req_inverse_fd(tdConn* c, tdReq* req, double t0) {
  int kind = TD_KIND_INVERSE_FD;
  Torsion__V1__InverseFDRequest* ir = req->inverse_fd;

  // model, spec, states [B, nstate], accelerations [B, nv]
  tdModelSpec ms;
  if (td_request_model_spec(c, req, kind, t0, ir->model, ir->state_spec, &ms)) {
    return;
  }
  const mjModel* m = ms.m;
  int64_t B = td_request_batch(c, req, kind, t0, ir->state, "state", ms.nstate);
  if (B < 0 || td_request_rows(c, req, kind, t0, ir->qacc, "qacc", B, m->nv)) {
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
  tdFdOut shape = {.eval = inverse_fd_eval, .K = 7, .f32 = ir->output_dtype == TD_F32};
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
  tdJob* job =
      td_request_job(c, req, kind, t0, &inverse_fd_ops, ms.mod, sizeof(tdInverseFD), B * evals);
  if (!job) {
    return;
  }
  *(tdInverseFD*)job->payload = (tdInverseFD){ms.spec,
                                              ms.nstate,
                                              nv,
                                              (int)B,
                                              ir->actuation != 0,
                                              ir->eps,
                                              evals,
                                              td_in_data(ir->state),
                                              td_in_data(ir->qacc),
                                              shape};
  td_job_submit(job, (int)B,
                td_request_chunk(c->srv, ms.mod, (int)B, ir->chunk_envs, per_item, evals), 0);
}
