/* server/req_session.c — environment sessions: CreateSession, SessionStep, SessionReset,
 * SessionGetState, SessionSetState and CloseSession (see session.h).
 *
 * Every call but CloseSession becomes a job over the session's environments (a SessionStep
 * may address a subset, env_ids); each worker sets an environment's stored
 * mjSTATE_INTEGRATION vector into its own mjData, does the work (reset, steps, state
 * changes, or inside a step a reset to client-drawn qpos/qvel), stores the vector back and
 * writes the returned state and the asked mjData fields (readouts) in place into the job's
 * outputs; the worker finishing the last chunk encodes the single SessionResult frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "log.h"
#include "quota.h"
#include "requests.h"
#include "session.h"

/* most readouts one SessionStep may ask for */
#define TD_MAX_READOUTS 64

/* session call kinds */
enum { OP_CREATE = 0, OP_STEP, OP_RESET, OP_GET, OP_SET };

/* one mjData field returned after a step */
typedef struct tdReadout_ {
  const char* name; /* points into the request */
  int rows, cols;
  void* out; /* [nitem, rows * cols] */
} tdReadout;

/* one session call */
typedef struct tdSessOp_ {
  int op;
  tdSession* s;
  tdJob* pnext;        /* next waiting call of the session */
  int nitem;           /* environments addressed: nenv, or len(env_ids) of a step */
  uint32_t* ids;       /* [nitem] environment of each item (steps); NULL: item i is env i */
  int* reset_row;      /* step: [nitem] row of reset_qpos/qvel, -1 to step; NULL: no resets */
  const double* rqpos; /* [nreset, nq] or NULL (model defaults) */
  const double* rqvel; /* [nreset, nv] or NULL */
  tdReadout* reads;    /* [nread] */
  int nread;
  const double* ctrl; /* step: [nitem, nu] or NULL */
  int frame_skip;
  int rne_post;                   /* step: mj_rnePostConstraint after the steps */
  const protobuf_c_boolean* mask; /* reset: [nenv] or NULL (all) */
  int spec, nout;                 /* returned states */
  const double* states_in;        /* set: [nenv, nset] */
  int set_spec, nset;
  void* out;          /* [nitem, nout] */
  void* sens;         /* [nitem, nsensordata] after steps, when asked */
  uint32_t* warnings; /* [nitem] */
} tdSessOp;

/* ---------------------------------------------------------------------------------------
 * session lifetime
 * ------------------------------------------------------------------------------------- */

/* drop a reference; free at zero */
static void session_unref(tdSession* s) {
  if (--s->refs > 0) {
    return;
  }
  td_model_unref(s->model);
  free(s->state);
  free(s->nreset);
  free(s);
}

/* close: fail the waiting calls, unlink, drop the open reference (the running call keeps
 * its own) */
static void session_close(tdServer* srv, tdSession* s) {
  if (s->closed) {
    return;
  }
  s->closed = 1;
  while (s->pend_head) {
    tdJob* j = s->pend_head;
    tdSessOp* p = j->payload;
    s->pend_head = p->pnext;
    if (!s->pend_head)
      s->pend_tail = NULL;
    p->pnext = NULL;
    td_job_fail(j, TD_E_CANCELLED, "session %llu closed", (unsigned long long)s->id);
  }
  if (s->conn) {
    if (s->cprev)
      s->cprev->cnext = s->cnext;
    else
      s->conn->sessions = s->cnext;
    if (s->cnext)
      s->cnext->cprev = s->cprev;
    s->conn->nsessions--;
    s->conn = NULL;
  }
  srv->nsessions--;
  s->model->nsessions--;
  session_unref(s);
}

/* the connection is closing */
void td_session_conn_closed(tdConn* c) {
  while (c->sessions) {
    session_close(c->srv, c->sessions);
  }
}

/* an open session of this connection */
static tdSession* find_session(tdConn* c, uint64_t id) {
  for (tdSession* s = c->sessions; s; s = s->cnext) {
    if (s->id == id && !s->closed) {
      return s;
    }
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------
 * worker side
 * ------------------------------------------------------------------------------------- */

/* 64-bit mixer (splitmix64 finalizer) */
static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* reset environment e into d and store its state */
static void reset_env(tdSession* s, mjData* d, int e) {
  const mjModel* m = s->model->m;
  if (s->keyframe >= 0 && s->keyframe < m->nkey) {
    mj_resetDataKeyframe(m, d, s->keyframe);
  } else {
    mj_resetData(m, d);
  }

  // uniform noise on qpos and qvel from a stream keyed by (seed, env, reset count)
  if (s->noise > 0) {
    uint64_t st = mix64(s->seed ^ mix64((uint64_t)e ^ mix64(s->nreset[e])));
    for (int i = 0; i < m->nq + m->nv; i++) {
      st = mix64(st);
      double u = (double)(st >> 11) * (1.0 / 9007199254740992.0);
      double* x = i < m->nq ? d->qpos + i : d->qvel + (i - m->nq);
      *x += s->noise * (2 * u - 1);
    }
  }
  s->nreset[e]++;
  mj_getState(m, d, s->state + (size_t)e * s->nint, mjSTATE_INTEGRATION);
}

/* reset environment e inside a step to row `row` of the client's qpos/qvel: mj_resetData,
 * qpos and qvel set (model defaults when not sent), mj_forward */
static void reset_env_to(tdSessOp* p, mjData* d, int e, int row) {
  tdSession* s = p->s;
  const mjModel* m = s->model->m;
  mj_resetData(m, d);
  if (p->rqpos && m->nq) {
    memcpy(d->qpos, p->rqpos + (size_t)row * m->nq, sizeof(double) * m->nq);
  }
  if (p->rqvel && m->nv) {
    memcpy(d->qvel, p->rqvel + (size_t)row * m->nv, sizeof(double) * m->nv);
  }
  mj_forward(m, d);
  mj_getState(m, d, s->state + (size_t)e * s->nint, mjSTATE_INTEGRATION);
}

/* step item i (environment e) frame_skip times; -1 when stopped or failed */
static int step_env(tdJob* job, tdSessOp* p, mjData* d, int i, int e, tdCompletion* c) {
  tdSession* s = p->s;
  const mjModel* m = s->model->m;
  double* st = s->state + (size_t)e * s->nint;
  mj_setState(m, d, st, mjSTATE_INTEGRATION);
  memset(d->warning, 0, sizeof(d->warning));
  if (p->ctrl && m->nu) {
    memcpy(d->ctrl, p->ctrl + (size_t)i * m->nu, sizeof(double) * m->nu);
  }
  for (int k = 0; k < p->frame_skip; k++) {
    mj_step(m, d);
    c->steps++;
    if (td_engine_failed() || td_job_should_stop(job, c)) {
      return -1;
    }
  }
  if (p->rne_post) {
    mj_rnePostConstraint(m, d);
  }
  mj_getState(m, d, st, mjSTATE_INTEGRATION);
  return 0;
}

/* do the call's work for item i (environment e), leaving its state in d */
static int env_work(tdJob* job, tdSessOp* p, mjData* d, int i, int e, tdCompletion* c) {
  tdSession* s = p->s;
  const mjModel* m = s->model->m;
  double* st = s->state + (size_t)e * s->nint;
  switch (p->op) {
    case OP_CREATE:
    case OP_RESET:
      if (!p->mask || p->mask[e]) {
        reset_env(s, d, e);
      } else {
        mj_setState(m, d, st, mjSTATE_INTEGRATION);
      }
      return 0;
    case OP_STEP:
      if (p->reset_row && p->reset_row[i] >= 0) {
        reset_env_to(p, d, e, p->reset_row[i]);
        return 0;
      }
      return step_env(job, p, d, i, e, c);
    case OP_SET:
      mj_setState(m, d, st, mjSTATE_INTEGRATION);
      mj_setState(m, d, p->states_in + (size_t)e * p->nset, p->set_spec);
      mj_getState(m, d, st, mjSTATE_INTEGRATION);
      return 0;
    default: mj_setState(m, d, st, mjSTATE_INTEGRATION); return 0;
  }
}

/* one environment's work, for td_engine_run */
typedef struct envItem_ {
  tdJob* job;
  tdSessOp* p;
  mjData* d;
  int i, e;
  tdCompletion* c;
  int rc; /* env_work's result */
} envItem;

/* env_work on an item's arguments */
static void env_item(void* arg) {
  envItem* a = arg;
  a->rc = env_work(a->job, a->p, a->d, a->i, a->e, a->c);
}

/* copy the asked mjData fields of d into row i of the readout buffers */
static void store_readouts(tdSessOp* p, const mjModel* m, mjData* d, int i, double* tmp) {
  for (int r = 0; r < p->nread; r++) {
    tdReadout* rd = p->reads + r;
    tnField f;
    if (!tn_dataField(m, d, rd->name, &f)) {
      continue; /* validated on the loop: cannot happen */
    }
    size_t n = (size_t)rd->rows * rd->cols;
    const double* src = f.ptr;
    if (f.type != tnFIELD_NUM) {
      for (size_t k = 0; k < n; k++) {
        tmp[k] = tn_fieldValue(&f, (int)k);
      }
      src = tmp;
    }
    td_store(rd->out, (size_t)i * n, src, n, p->s->f32);
  }
}

/* encode the single result frame from the job's output buffers */
static void encode_result(tdJob* job, tdSessOp* p, tdCompletion* c) {
  tdSession* s = p->s;
  int nsens = s->model->m->nsensordata, k = p->nitem;
  uint64_t sshape[2] = {(uint64_t)k, (uint64_t)p->nout};
  uint64_t eshape[2] = {(uint64_t)k, (uint64_t)nsens};
  Torsion__V1__Array sa = TORSION__V1__ARRAY__INIT, ea = TORSION__V1__ARRAY__INIT;
  td_set_array(&sa, sshape, 2, s->f32, p->out, (size_t)k * p->nout);
  td_set_array(&ea, eshape, 2, s->f32, p->sens, (size_t)k * nsens);
  Torsion__V1__SessionResult res = TORSION__V1__SESSION_RESULT__INIT;
  res.session = s->id;
  res.nenv = (uint32_t)s->nenv;
  res.states = &sa;
  res.sensordata = p->sens ? &ea : NULL;
  res.n_warnings = p->op == OP_STEP ? (size_t)k : 0;
  res.warnings = p->warnings;

  // a step: the addressed environments and the readouts, [k, rows] or [k, rows, cols]
  Torsion__V1__Readout rmsg[TD_MAX_READOUTS], *rptr[TD_MAX_READOUTS];
  Torsion__V1__Array rarr[TD_MAX_READOUTS];
  uint64_t rshape[TD_MAX_READOUTS][3];
  if (p->op == OP_STEP) {
    res.n_env_ids = (size_t)k;
    res.env_ids = p->ids;
    for (int r = 0; r < p->nread; r++) {
      tdReadout* rd = p->reads + r;
      rshape[r][0] = (uint64_t)k;
      rshape[r][1] = (uint64_t)rd->rows;
      rshape[r][2] = (uint64_t)rd->cols;
      rarr[r] = (Torsion__V1__Array)TORSION__V1__ARRAY__INIT;
      td_set_array(&rarr[r], rshape[r], rd->cols == 1 ? 2 : 3, s->f32, rd->out,
                   (size_t)k * rd->rows * rd->cols);
      rmsg[r] = (Torsion__V1__Readout)TORSION__V1__READOUT__INIT;
      rmsg[r].name = (char*)rd->name;
      rmsg[r].value = &rarr[r];
      rptr[r] = &rmsg[r];
    }
    res.n_readouts = (size_t)p->nread;
    res.readouts = rptr;
  }
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = job->id;
  r.final = 1;
  r.body_case = (Torsion__V1__Response__BodyCase)td_req_kinds[job->kind].body;
  r.create_session = &res;  // every session body is a SessionResult (same union slot)
  c->final = 1;
  if (td_pack_frame(&r, &c->frame, &c->len)) {
    td_completion_error(c, TD_E_INTERNAL, "result frame too large");
  }
}

/* worker: one env range */
static void run_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  tdSessOp* p = job->payload;
  tdSession* s = p->s;
  const mjModel* m = s->model->m;
  mjData* d = s->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  size_t ntmp = (size_t)p->nout + 1;
  for (int r = 0; r < p->nread; r++) {
    size_t n = (size_t)p->reads[r].rows * p->reads[r].cols + 1;
    ntmp = n > ntmp ? n : ntmp;
  }
  double* tmp = malloc(sizeof(double) * ntmp);
  if (!tmp) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
    return;
  }

  // each environment: the work, then its returned state (and sensordata, warnings)
  uint64_t t0 = td_now_ns();
  for (int i = e0; i < e0 + ne; i++) {
    envItem a = {job, p, d, i, p->ids ? (int)p->ids[i] : i, c, 0};
    if (td_engine_run(m, d, env_item, &a) || a.rc) {
      free(tmp);
      return;
    }
    td_store_state(m, d, p->spec, p->nout, p->out, (size_t)i * p->nout, tmp, s->f32);
    if (p->sens) {
      td_store(p->sens, (size_t)i * m->nsensordata, d->sensordata, m->nsensordata, s->f32);
    }
    store_readouts(p, m, d, i, tmp);
    if (p->op == OP_STEP) {
      p->warnings[i] = td_warning_mask(d);
    }
  }
  free(tmp);
  if (p->op == OP_STEP) {
    td_model_note_cost(s->model, c->steps, td_now_ns() - t0);
  }

  // the last chunk to finish encodes the whole result
  if (td_job_chunk_done(job)) {
    encode_result(job, p, c);
  }
}

/* ---------------------------------------------------------------------------------------
 * loop side: ordering of calls and their lifetime
 * ------------------------------------------------------------------------------------- */

/* a create that failed leaves no session behind */
static void finished(tdJob* job, int code) {
  tdSessOp* p = job->payload;
  if (p->op == OP_CREATE && code) {
    session_close(job->srv, p->s);
  }
}

/* free a call's buffers and the call */
static void sessop_free(tdSessOp* p) {
  for (int r = 0; r < p->nread; r++) {
    free(p->reads[r].out);
  }
  free(p->reads);
  free(p->ids);
  free(p->reset_row);
  free(p->out);
  free(p->sens);
  free(p->warnings);
  free(p);
}

/* the workers are done with the call: start the next waiting one, free the call */
static void release(tdJob* job) {
  tdSessOp* p = job->payload;
  tdSession* s = p->s;
  if (s->active == job) {
    s->active = NULL;
  } else {
    for (tdJob** q = &s->pend_head; *q; q = &((tdSessOp*)(*q)->payload)->pnext) {
      if (*q == job) {
        *q = p->pnext;
        break;
      }
    }
    s->pend_tail = NULL;
    for (tdJob* j = s->pend_head; j; j = ((tdSessOp*)j->payload)->pnext) {
      s->pend_tail = j;
    }
  }
  if (!s->active && s->pend_head && !s->closed) {
    tdJob* next = s->pend_head;
    s->pend_head = ((tdSessOp*)next->payload)->pnext;
    if (!s->pend_head)
      s->pend_tail = NULL;
    s->active = next;
    td_job_push(next);
  }
  sessop_free(p);
  session_unref(s);
}

static const tdJobOps session_ops = {run_chunk, finished, release};

/* create the call's job, in line behind the session's earlier calls; -1 when rejected */
static int queue_call(tdConn* c, tdReq* req, int kind, double t0, tdSession* s, tdSessOp* p) {
  size_t es = s->f32 ? 4 : 8;
  int nsens = s->model->m->nsensordata, k = p->nitem;
  p->s = s;
  p->out = malloc((size_t)k * p->nout * es + 8);
  p->sens = (p->op == OP_STEP && s->sensordata) ? malloc((size_t)k * nsens * es + 8) : NULL;
  p->warnings = calloc((size_t)k + 1, sizeof(uint32_t));
  int ok = p->out && p->warnings && (p->sens || !(p->op == OP_STEP && s->sensordata));
  for (int r = 0; r < p->nread && ok; r++) {
    p->reads[r].out = malloc((size_t)k * p->reads[r].rows * p->reads[r].cols * es + 8);
    ok = p->reads[r].out != NULL;
  }
  tdJob* job = ok ? td_job_new(c, req, &session_ops, kind) : NULL;
  if (!job) {
    sessop_free(p);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return -1;
  }
  job->payload = p;
  job->model = s->model;
  td_model_ref(s->model);
  s->refs++;
  job->cost_steps = (int64_t)k * (p->frame_skip > 0 ? p->frame_skip : 1);

  // run now, or wait behind the running call
  int hold = s->active != NULL;
  if (hold) {
    if (s->pend_tail)
      ((tdSessOp*)s->pend_tail->payload)->pnext = job;
    else
      s->pend_head = job;
    s->pend_tail = job;
  } else {
    s->active = job;
  }
  size_t per_item = (size_t)p->nout * es;
  td_job_submit(job, k, td_chunk_items(c->srv, s->model, k, per_item, job->cost_steps / k), hold);
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * handlers
 * ------------------------------------------------------------------------------------- */

/* CreateSession */
static void create_session(tdConn* c, tdReq* req, double t0, int kind) {
  tdServer* srv = c->srv;
  Torsion__V1__CreateSessionRequest* cr = req->create_session;
  tdModel* mod = td_lookup_model(c, req, kind, t0, cr->model);
  if (!mod) {
    return;
  }
  const mjModel* m = mod->m;
  int spec = td_state_spec(cr->state_spec, mjSTATE_FULLPHYSICS);

  // arguments and limits
  const char* bad = NULL;
  if (cr->nenv < 1 || cr->nenv > (uint32_t)srv->cfg.max_envs_per_session)
    bad = "nenv outside [1, max_envs_per_session]";
  else if (cr->keyframe < -1 || (cr->keyframe > 0 && cr->keyframe >= m->nkey))
    bad = "keyframe out of range";
  else if (!isfinite(cr->reset_noise) || cr->reset_noise < 0)
    bad = "reset_noise must be finite and >= 0";
  else if (spec < 0)
    bad = "state_spec has bits beyond mjNSTATE";
  if (bad) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT, "%s", bad);
    return;
  }
  if (c->nsessions >= srv->cfg.max_sessions_per_connection ||
      (double)cr->nenv * mod->nstate_int * 8 > (double)srv->cfg.max_output_bytes) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED,
              "max_sessions_per_connection (%d) or the session's memory limit reached",
              srv->cfg.max_sessions_per_connection);
    return;
  }

  char why[512];
  if (td_quota_envs_admit(c, cr->nenv, why, sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED, "%s", why);
    return;
  }

  // sensordata only where the engine evaluates sensors
  if (td_check_sensordata(c, req, kind, t0, m, cr->sensordata)) {
    return;
  }

  // the session
  tdSession* s = calloc(1, sizeof(tdSession));
  tdSessOp* p = calloc(1, sizeof(tdSessOp));
  double* state = calloc((size_t)cr->nenv * mod->nstate_int + 1, sizeof(double));
  uint64_t* nreset = calloc(cr->nenv, sizeof(uint64_t));
  if (!s || !p || !state || !nreset) {
    free(s);
    free(p);
    free(state);
    free(nreset);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return;
  }
  *s = (tdSession){.id = ++srv->next_session_id,
                   .conn = c,
                   .model = mod,
                   .nenv = (int)cr->nenv,
                   .spec = spec,
                   .nout = mj_stateSize(m, spec),
                   .nint = mod->nstate_int,
                   .sensordata = cr->sensordata,
                   .f32 = cr->output_dtype == TD_F32,
                   .keyframe = (cr->keyframe == 0 && m->nkey == 0) ? -1 : cr->keyframe,
                   .noise = cr->reset_noise,
                   .seed = cr->seed,
                   .state = state,
                   .nreset = nreset,
                   .refs = 1};
  td_model_ref(mod);
  s->cnext = c->sessions;
  if (c->sessions)
    c->sessions->cprev = s;
  c->sessions = s;
  c->nsessions++;
  srv->nsessions++;
  mod->nsessions++;

  // its first call: reset every environment
  p->op = OP_CREATE;
  p->nitem = s->nenv;
  p->spec = spec;
  p->nout = s->nout;
  if (queue_call(c, req, kind, t0, s, p)) {
    session_close(srv, s);
  }
}

/* reject a SessionStep whose arguments are wrong, freeing what step_args built so far */
#define STEP_FAIL(code, ...)                        \
  do {                                              \
    free(op->ids);                                  \
    free(op->reset_row);                            \
    free(op->reads);                                \
    op->ids = NULL;                                 \
    op->reset_row = NULL;                           \
    op->reads = NULL;                               \
    td_reject(c, req, kind, t0, code, __VA_ARGS__); \
    return -1;                                      \
  } while (0)

/* a SessionStep's addressed environments, in-step resets, controls and readouts into op;
 * 0, or -1 after rejecting the request (nothing is changed by a rejected step) */
static int step_args(tdConn* c, tdReq* req, int kind, double t0, tdSession* s,
                     Torsion__V1__SessionStepRequest* sr, tdSessOp* op) {
  const mjModel* m = s->model->m;
  char why[512];
  int k = sr->n_env_ids ? (int)sr->n_env_ids : s->nenv;
  op->nitem = k;
  op->ids = malloc(sizeof(uint32_t) * (size_t)k);
  int* item_of = malloc(sizeof(int) * (size_t)s->nenv); /* environment -> item, -1 */
  if (!op->ids || !item_of) {
    free(item_of);
    STEP_FAIL(TD_E_INTERNAL, "out of memory");
  }
  for (int e = 0; e < s->nenv; e++) {
    item_of[e] = -1;
  }

  // the addressed environments: in range, each once
  for (int i = 0; i < k; i++) {
    uint32_t e = sr->n_env_ids ? sr->env_ids[i] : (uint32_t)i;
    if (e >= (uint32_t)s->nenv || item_of[e] >= 0) {
      free(item_of);
      STEP_FAIL(TD_E_INVALID_ARGUMENT, "env_ids[%d] = %u is %s (the session has %d environments)",
                i, e, e >= (uint32_t)s->nenv ? "out of range" : "repeated", s->nenv);
    }
    item_of[e] = i;
    op->ids[i] = e;
  }

  // resets inside the step: addressed environments, each once, with [r, nq] / [r, nv] rows
  if (sr->n_reset_env_ids) {
    op->reset_row = malloc(sizeof(int) * (size_t)k);
    if (!op->reset_row) {
      free(item_of);
      STEP_FAIL(TD_E_INTERNAL, "out of memory");
    }
    for (int i = 0; i < k; i++) {
      op->reset_row[i] = -1;
    }
    for (size_t j = 0; j < sr->n_reset_env_ids; j++) {
      uint32_t e = sr->reset_env_ids[j];
      int i = e < (uint32_t)s->nenv ? item_of[e] : -1;
      if (i < 0 || op->reset_row[i] >= 0) {
        free(item_of);
        STEP_FAIL(TD_E_INVALID_ARGUMENT, "reset_env_ids[%zu] = %u is %s", j, e,
                  i < 0 ? "not an addressed environment of the session" : "repeated");
      }
      op->reset_row[i] = (int)j;
    }
  }
  free(item_of);
  int64_t nr = (int64_t)sr->n_reset_env_ids, got[2];
  int64_t qshape[2] = {nr, m->nq}, vshape[2] = {nr, m->nv};
  if ((sr->reset_qpos || sr->reset_qvel) && !nr) {
    STEP_FAIL(TD_E_INVALID_ARGUMENT, "reset_qpos/reset_qvel given without reset_env_ids");
  }
  if (sr->reset_qpos &&
      td_check_array(sr->reset_qpos, "reset_qpos", 2, qshape, got, why, sizeof(why))) {
    STEP_FAIL(TD_E_BAD_SHAPE, "%s", why);
  }
  if (sr->reset_qvel &&
      td_check_array(sr->reset_qvel, "reset_qvel", 2, vshape, got, why, sizeof(why))) {
    STEP_FAIL(TD_E_BAD_SHAPE, "%s", why);
  }
  op->rqpos = sr->reset_qpos ? td_in_data(sr->reset_qpos) : NULL;
  op->rqvel = sr->reset_qvel ? td_in_data(sr->reset_qvel) : NULL;

  // controls: one row per addressed environment
  int64_t cshape[2] = {k, m->nu};
  if (sr->ctrl && td_check_array(sr->ctrl, "ctrl", 2, cshape, got, why, sizeof(why))) {
    STEP_FAIL(TD_E_BAD_SHAPE, "%s", why);
  }
  op->ctrl = sr->ctrl ? td_in_data(sr->ctrl) : NULL;

  // readouts: registered mjData fields (sensordata only where sensors are evaluated)
  if (sr->n_readout > TD_MAX_READOUTS) {
    STEP_FAIL(TD_E_LIMIT_EXCEEDED, "%zu readouts asked (at most %d)", sr->n_readout,
              TD_MAX_READOUTS);
  }
  op->reads = calloc(sr->n_readout + 1, sizeof(tdReadout));
  if (!op->reads) {
    STEP_FAIL(TD_E_INTERNAL, "out of memory");
  }
  double bytes = (double)k * (s->nout + (s->sensordata ? m->nsensordata : 0));
  for (size_t r = 0; r < sr->n_readout; r++) {
    tnField f;
    if (!tn_dataField(m, s->model->datas[0], sr->readout[r], &f)) {
      STEP_FAIL(TD_E_INVALID_ARGUMENT,
                "readout[%zu] '%.64s' is not an mjData field (MuJoCo names: qpos, qvel, xpos, "
                "cinert, cvel, qfrc_actuator, cfrc_ext, sensordata, ...)",
                r, sr->readout[r]);
    }
    if (!strcmp(sr->readout[r], "sensordata") && m->nsensordata && !tn_sensorsEvaluated(m)) {
      STEP_FAIL(TD_E_UNIMPLEMENTED,
                "readout 'sensordata': the engine does not evaluate this model's sensors yet");
    }
    op->reads[r] = (tdReadout){f.name, f.rows, f.cols, NULL};
    bytes += (double)k * f.rows * f.cols;
  }
  op->nread = (int)sr->n_readout;
  if (bytes * (s->f32 ? 4 : 8) > (double)c->srv->cfg.max_output_bytes) {
    STEP_FAIL(TD_E_LIMIT_EXCEEDED, "the step's output of %.0f bytes exceeds max_output_bytes",
              bytes * (s->f32 ? 4 : 8));
  }
  return 0;
}

/* the four calls on an existing session */
static void session_call(tdConn* c, tdReq* req, double t0, int kind, uint64_t id) {
  tdSession* s = find_session(c, id);
  if (!s) {
    td_reject(c, req, kind, t0, TD_E_SESSION_NOT_FOUND, "no open session %llu on this connection",
              (unsigned long long)id);
    return;
  }
  const mjModel* m = s->model->m;
  char why[512];
  tdSessOp op = {.s = s, .nitem = s->nenv, .spec = s->spec, .nout = s->nout, .frame_skip = 0};

  // arguments of each call
  switch (req->body_case) {
    case TORSION__V1__REQUEST__BODY_SESSION_STEP: {
      Torsion__V1__SessionStepRequest* sr = req->session_step;
      if (sr->frame_skip > (uint32_t)c->srv->cfg.max_frame_skip) {
        td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED, "frame_skip above max_frame_skip %d",
                  c->srv->cfg.max_frame_skip);
        return;
      }
      if ((int64_t)s->nenv * (sr->frame_skip ? sr->frame_skip : 1) > c->srv->cfg.max_batch_steps) {
        td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED,
                  "nenv %d x frame_skip %u exceeds max_batch_steps %lld", s->nenv, sr->frame_skip,
                  (long long)c->srv->cfg.max_batch_steps);
        return;
      }
      op.op = OP_STEP;
      op.frame_skip = sr->frame_skip ? (int)sr->frame_skip : 1;
      op.rne_post = sr->rne_post_constraint;
      if (step_args(c, req, kind, t0, s, sr, &op)) {
        return;
      }
      break;
    }
    case TORSION__V1__REQUEST__BODY_SESSION_RESET: {
      Torsion__V1__SessionResetRequest* rr = req->session_reset;
      if (rr->n_mask && rr->n_mask != (size_t)s->nenv) {
        td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "mask has %zu entries for %d environments",
                  rr->n_mask, s->nenv);
        return;
      }
      op.op = OP_RESET;
      op.mask = rr->n_mask ? rr->mask : NULL;
      break;
    }
    case TORSION__V1__REQUEST__BODY_SESSION_GET_STATE: {
      int spec = td_request_spec(c, req, kind, t0, req->session_get_state->state_spec, s->spec);
      if (spec < 0) {
        return;
      }
      op.op = OP_GET;
      op.spec = spec;
      op.nout = mj_stateSize(m, spec);
      break;
    }
    default: {
      Torsion__V1__SessionSetStateRequest* ss = req->session_set_state;
      int spec = td_request_spec(c, req, kind, t0, ss->state_spec, s->spec);
      if (spec < 0) {
        return;
      }
      int64_t shape[2] = {s->nenv, mj_stateSize(m, spec)}, got[2];
      if (td_check_array(ss->states, "states", 2, shape, got, why, sizeof(why))) {
        td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s", why);
        return;
      }
      op.op = OP_SET;
      op.set_spec = spec;
      op.nset = (int)shape[1];
      op.states_in = (const double*)ss->states->data.data;
      break;
    }
  }
  tdSessOp* p = malloc(sizeof(tdSessOp));
  if (!p) {
    free(op.ids);
    free(op.reset_row);
    free(op.reads);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return;
  }
  *p = op;
  queue_call(c, req, kind, t0, s, p);
}

/* CloseSession: immediate; waiting calls are cancelled, a running one completes */
static void close_session(tdConn* c, tdReq* req, double t0, int kind) {
  tdSession* s = find_session(c, req->close_session->session);
  if (!s) {
    td_reject(c, req, kind, t0, TD_E_SESSION_NOT_FOUND, "no open session %llu on this connection",
              (unsigned long long)req->close_session->session);
    return;
  }
  session_close(c->srv, s);
  Torsion__V1__CloseSessionResult res = TORSION__V1__CLOSE_SESSION_RESULT__INIT;
  res.closed = 1;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = req->id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_CLOSE_SESSION;
  r.close_session = &res;
  td_reply(c, &r, kind, t0);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}

/* CreateSession */
void td_req_create_session(tdConn* c, tdReq* req, double t0) {
  create_session(c, req, t0, TD_KIND_CREATE_SESSION);
}

/* SessionStep */
void td_req_session_step(tdConn* c, tdReq* req, double t0) {
  session_call(c, req, t0, TD_KIND_SESSION_STEP, req->session_step->session);
}

/* SessionReset */
void td_req_session_reset(tdConn* c, tdReq* req, double t0) {
  session_call(c, req, t0, TD_KIND_SESSION_RESET, req->session_reset->session);
}

/* SessionGetState */
void td_req_session_get_state(tdConn* c, tdReq* req, double t0) {
  session_call(c, req, t0, TD_KIND_SESSION_GET_STATE, req->session_get_state->session);
}

/* SessionSetState */
void td_req_session_set_state(tdConn* c, tdReq* req, double t0) {
  session_call(c, req, t0, TD_KIND_SESSION_SET_STATE, req->session_set_state->session);
}

/* CloseSession */
void td_req_close_session(tdConn* c, tdReq* req, double t0) {
  close_session(c, req, t0, TD_KIND_CLOSE_SESSION);
}
