/* server/req_session.c — environment sessions: CreateSession, SessionStep, SessionReset,
 * SessionGetState, SessionSetState and CloseSession (see session.h).
 *
 * Every call but CloseSession becomes a job over the session's environments; each worker
 * sets an environment's stored mjSTATE_INTEGRATION vector into its own mjData, does the
 * work (reset, steps, state changes), stores the vector back and writes the returned state
 * in place into the job's output; the worker finishing the last chunk encodes the single
 * SessionResult frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "log.h"
#include "quota.h"
#include "requests.h"
#include "session.h"

/* session call kinds */
enum { OP_CREATE = 0, OP_STEP, OP_RESET, OP_GET, OP_SET };

/* one session call */
typedef struct tdSessOp_ {
  int op;
  tdSession* s;
  tdJob* pnext;       /* next waiting call of the session */
  const double* ctrl; /* step: [nenv, nu] or NULL */
  int frame_skip;
  const protobuf_c_boolean* mask; /* reset: [nenv] or NULL (all) */
  int spec, nout;                 /* returned states */
  const double* states_in;        /* set: [nenv, nset] */
  int set_spec, nset;
  void* out;          /* [nenv, nout] */
  void* sens;         /* [nenv, nsensordata] after steps, when asked */
  uint32_t* warnings; /* [nenv] */
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

/* step environment e frame_skip times; -1 when stopped or failed */
static int step_env(tdJob* job, tdSessOp* p, mjData* d, int e, tdCompletion* c) {
  tdSession* s = p->s;
  const mjModel* m = s->model->m;
  double* st = s->state + (size_t)e * s->nint;
  mj_setState(m, d, st, mjSTATE_INTEGRATION);
  memset(d->warning, 0, sizeof(d->warning));
  if (p->ctrl && m->nu) {
    memcpy(d->ctrl, p->ctrl + (size_t)e * m->nu, sizeof(double) * m->nu);
  }
  for (int k = 0; k < p->frame_skip; k++) {
    mj_step(m, d);
    c->steps++;
    if (td_engine_failed() || td_job_should_stop(job, c)) {
      return -1;
    }
  }
  mj_getState(m, d, st, mjSTATE_INTEGRATION);
  return 0;
}

/* do the call's work for environment e, leaving its state in d */
static int env_work(tdJob* job, tdSessOp* p, mjData* d, int e, tdCompletion* c) {
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
    case OP_STEP: return step_env(job, p, d, e, c);
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
  int e;
  tdCompletion* c;
  int rc; /* env_work's result */
} envItem;

/* env_work on an item's arguments */
static void env_item(void* arg) {
  envItem* a = arg;
  a->rc = env_work(a->job, a->p, a->d, a->e, a->c);
}

/* encode the single result frame from the job's output buffers */
static void encode_result(tdJob* job, tdSessOp* p, tdCompletion* c) {
  tdSession* s = p->s;
  int nsens = s->model->m->nsensordata;
  uint64_t sshape[2] = {(uint64_t)s->nenv, (uint64_t)p->nout};
  uint64_t eshape[2] = {(uint64_t)s->nenv, (uint64_t)nsens};
  Torsion__V1__Array sa = TORSION__V1__ARRAY__INIT, ea = TORSION__V1__ARRAY__INIT;
  td_set_array(&sa, sshape, 2, s->f32, p->out, (size_t)s->nenv * p->nout);
  td_set_array(&ea, eshape, 2, s->f32, p->sens, (size_t)s->nenv * nsens);
  Torsion__V1__SessionResult res = TORSION__V1__SESSION_RESULT__INIT;
  res.session = s->id;
  res.nenv = (uint32_t)s->nenv;
  res.states = &sa;
  res.sensordata = p->sens ? &ea : NULL;
  res.n_warnings = p->op == OP_STEP ? (size_t)s->nenv : 0;
  res.warnings = p->warnings;
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
  double* tmp = p->s->f32 ? malloc(sizeof(double) * (size_t)(p->nout + 1)) : NULL;
  if (p->s->f32 && !tmp) {
    td_completion_error(c, TD_E_INTERNAL, "out of memory");
    return;
  }

  // each environment: the work, then its returned state (and sensordata, warnings)
  uint64_t t0 = td_now_ns();
  for (int e = e0; e < e0 + ne; e++) {
    envItem a = {job, p, d, e, c, 0};
    if (td_engine_run(m, d, env_item, &a) || a.rc) {
      free(tmp);
      return;
    }
    td_store_state(m, d, p->spec, p->nout, p->out, (size_t)e * p->nout, tmp, s->f32);
    if (p->sens) {
      td_store(p->sens, (size_t)e * m->nsensordata, d->sensordata, m->nsensordata, s->f32);
    }
    if (p->op == OP_STEP) {
      p->warnings[e] = td_warning_mask(d);
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
  free(p->out);
  free(p->sens);
  free(p->warnings);
  free(p);
  session_unref(s);
}

static const tdJobOps session_ops = {run_chunk, finished, release};

/* create the call's job, in line behind the session's earlier calls; -1 when rejected */
static int queue_call(tdConn* c, tdReq* req, int kind, double t0, tdSession* s, tdSessOp* p) {
  size_t es = s->f32 ? 4 : 8;
  int nsens = s->model->m->nsensordata;
  p->s = s;
  p->out = malloc((size_t)s->nenv * p->nout * es + 8);
  p->sens = (p->op == OP_STEP && s->sensordata) ? malloc((size_t)s->nenv * nsens * es + 8) : NULL;
  p->warnings = calloc((size_t)s->nenv, sizeof(uint32_t));
  tdJob* job = NULL;
  if (p->out && p->warnings && (p->sens || !(p->op == OP_STEP && s->sensordata))) {
    job = td_job_new(c, req, &session_ops, kind);
  }
  if (!job) {
    free(p->out);
    free(p->sens);
    free(p->warnings);
    free(p);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return -1;
  }
  job->payload = p;
  job->model = s->model;
  td_model_ref(s->model);
  s->refs++;
  job->cost_steps = (int64_t)s->nenv * (p->frame_skip > 0 ? p->frame_skip : 1);

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
  td_job_submit(job, s->nenv,
                td_chunk_items(c->srv, s->model, s->nenv, per_item, job->cost_steps / s->nenv),
                hold);
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
  p->spec = spec;
  p->nout = s->nout;
  if (queue_call(c, req, kind, t0, s, p)) {
    session_close(srv, s);
  }
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
  tdSessOp op = {.s = s, .spec = s->spec, .nout = s->nout, .frame_skip = 0};

  // arguments of each call
  switch (req->body_case) {
    case TORSION__V1__REQUEST__BODY_SESSION_STEP: {
      Torsion__V1__SessionStepRequest* sr = req->session_step;
      int64_t shape[2] = {s->nenv, m->nu}, got[2];
      if (sr->ctrl && td_check_array(sr->ctrl, "ctrl", 2, shape, got, why, sizeof(why))) {
        td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s", why);
        return;
      }
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
      op.ctrl = sr->ctrl ? (const double*)sr->ctrl->data.data : NULL;
      op.frame_skip = sr->frame_skip ? (int)sr->frame_skip : 1;
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
