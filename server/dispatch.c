/* server/dispatch.c — decoding a frame into a Request, the checks every request passes
 * (authentication, draining, duplicate ids) and routing to the request families; plus
 * Cancel and the small helpers the handlers share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "log.h"
#include "quota.h"
#include "requests.h"

/* time one chunk should hold a worker (the most a worker finishing last can trail the
 * others by: 1 ms keeps a 64-state TransitionFD of a humanoid, 0.7 ms per state, balanced
 * on two workers), and the step count used while a model's step cost is still unknown */
#define TD_CHUNK_TARGET_NS 1000000ull
#define TD_CHUNK_MAX_STEPS 20000

/* ---------------------------------------------------------------------------------------
 * helpers shared by the handlers
 * ------------------------------------------------------------------------------------- */

/* send a response built on the loop */
void td_reply(tdConn* c, tdResp* r, int kind, double t0) {
  char* frame;
  size_t len;
  if (td_pack_frame(r, &frame, &len)) {
    td_conn_send_error(c, r->id, TD_E_INTERNAL, "response too large or out of memory");
    if (kind >= 0)
      td_metrics_request(&c->srv->metrics, kind, TD_E_INTERNAL, 0);
    return;
  }
  td_conn_write(c, frame, len);
  if (kind >= 0 && r->final) {
    td_metrics_request(&c->srv->metrics, kind, 0, (td_now_s() - t0) * 1e6);
  }
}

/* reject before any job exists */
void td_reject(tdConn* c, tdReq* req, int kind, double t0, int code, const char* fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  td_conn_send_error(c, req->id, code, "%s", msg);
  td_metrics_request(&c->srv->metrics, kind, code, (td_now_s() - t0) * 1e6);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}

/* a model by handle (the handle, a hash of the content, is what lets a client use it) */
tdModel* td_lookup_model(tdConn* c, tdReq* req, int kind, double t0, const char* handle) {
  tdModel* mod = handle ? td_registry_find(&c->srv->reg, handle) : NULL;
  if (!mod) {
    td_reject(c, req, kind, t0, TD_E_MODEL_NOT_FOUND, "no loaded model has handle '%.80s'",
              handle ? handle : "");
  }
  return mod;
}

/* a model the connection holds (inspecting and unloading others' models is not allowed: for
 * this connection they do not exist) */
tdModel* td_lookup_held_model(tdConn* c, tdReq* req, int kind, double t0, const char* handle) {
  tdModel* mod = handle ? td_registry_find(&c->srv->reg, handle) : NULL;
  if (mod && !td_quota_holds(c, mod)) {
    mod = NULL;
  }
  if (!mod) {
    td_reject(c, req, kind, t0, TD_E_MODEL_NOT_FOUND, "no loaded model has handle '%.80s'",
              handle ? handle : "");
  }
  return mod;
}

/* chunk size: about four chunks per worker, bounded by frame size and by chunk time */
int td_chunk_items(const tdServer* srv, const tdModel* mod, int nitems, size_t bytes_per_item,
                   int64_t steps_per_item) {
  int64_t per = (nitems + 4 * srv->nworkers - 1) / (4 * srv->nworkers);
  if (bytes_per_item > 0) {
    int64_t by_bytes = srv->cfg.frame_target_bytes / (int64_t)bytes_per_item;
    per = per < by_bytes ? per : by_bytes;
  }
  if (steps_per_item > 0) {
    uint64_t ns = atomic_load_explicit(&mod->step_ns, memory_order_relaxed);
    int64_t by_time = ns ? (int64_t)(TD_CHUNK_TARGET_NS / (ns * (uint64_t)steps_per_item))
                         : TD_CHUNK_MAX_STEPS / steps_per_item;
    per = per < by_time ? per : by_time;
  }

  // but never more than TD_MAX_CHUNKS chunks (their bookkeeping is per chunk)
  int64_t fewest = (nitems + TD_MAX_CHUNKS - 1) / TD_MAX_CHUNKS;
  per = per > fewest ? per : fewest;
  return per < 1 ? 1 : (int)per;
}

/* a valid mjtState spec */
int td_state_spec(uint32_t spec, int fallback) {
  if (spec == 0) {
    return fallback;
  }
  return (spec & ~((1u << mjNSTATE) - 1)) ? -1 : (int)spec;
}

/* a request's state spec, or -1 after rejecting it */
int td_request_spec(tdConn* c, tdReq* req, int kind, double t0, uint32_t spec, int fallback) {
  int valid = td_state_spec(spec, fallback);
  if (valid < 0) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT, "state_spec %u has bits beyond mjNSTATE",
              spec);
  }
  return valid;
}

/* 0 when sensordata can be served (not asked, or the engine evaluates the model's
 * sensors), else -1 after rejecting the request with ERROR_UNIMPLEMENTED */
int td_check_sensordata(tdConn* c, tdReq* req, int kind, double t0, const mjModel* m,
                        int wanted) {
  if (!wanted || tn_sensorsEvaluated(m)) {
    return 0;
  }
  td_reject(c, req, kind, t0, TD_E_UNIMPLEMENTED,
            "sensordata was requested but the engine does not evaluate sensors yet (the model "
            "has %d); ask without sensordata", (int)m->nsensor);
  return -1;
}

/* the warnings raised in d as a bitmask (1 << mjtWarning) */
uint32_t td_warning_mask(const mjData* d) {
  uint32_t mask = 0;
  for (int w = 0; w < mjNWARNING; w++) {
    if (d->warning[w].number > 0) {
      mask |= 1u << w;
    }
  }
  return mask;
}

/* a request's model and state spec, or -1 after rejecting */
int td_request_model_spec(tdConn* c, tdReq* req, int kind, double t0, const char* handle,
                          uint32_t spec, tdModelSpec* ms) {
  ms->mod = td_lookup_model(c, req, kind, t0, handle);
  if (!ms->mod) {
    return -1;
  }
  ms->m = ms->mod->m;
  ms->spec = td_request_spec(c, req, kind, t0, spec, mjSTATE_FULLPHYSICS);
  if (ms->spec < 0) {
    return -1;
  }
  ms->nstate = mj_stateSize(ms->m, ms->spec);
  return 0;
}

/* B of a [B, ncol] float64 input within [1, max_batch], or -1 after rejecting */
int64_t td_request_batch(tdConn* c, tdReq* req, int kind, double t0, const tdArray* a,
                         const char* what, int ncol) {
  char why[512];
  int64_t shape[2] = {-1, ncol}, got[2];
  if (td_check_array(a, what, 2, shape, got, why, sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s", why);
    return -1;
  }
  int64_t B = got[0], max = c->srv->cfg.max_batch;
  if (B < 1 || B > max) {
    td_reject(c, req, kind, t0, B < 1 ? TD_E_INVALID_ARGUMENT : TD_E_LIMIT_EXCEEDED,
              "B=%lld outside [1, max_batch %lld]", (long long)B, (long long)max);
    return -1;
  }
  return B;
}

/* a [B, ncol] float64 input, or -1 after rejecting */
int td_request_rows(tdConn* c, tdReq* req, int kind, double t0, const tdArray* a, const char* what,
                    int64_t B, int ncol) {
  char why[512];
  int64_t shape[2] = {B, ncol}, got[2];
  if (td_check_array(a, what, 2, shape, got, why, sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s (%s must be [%lld, %d] float64)", why, what,
              (long long)B, ncol);
    return -1;
  }
  return 0;
}

/* optional controls [B or 1, nu], or -1 after rejecting */
int td_request_ctrl(tdConn* c, tdReq* req, int kind, double t0, const tdArray* ctrl, int64_t B,
                    int nu, int* per_item) {
  char why[512];
  int64_t shape[2] = {-1, nu}, got[2] = {0, 0};
  if (ctrl && (td_check_array(ctrl, "ctrl", 2, shape, got, why, sizeof(why)) ||
               (got[0] != B && got[0] != 1))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "ctrl must be [%lld or 1, %d] float64",
              (long long)B, nu);
    return -1;
  }
  *per_item = ctrl && got[0] == B;
  return 0;
}

/* the output size against max_output_bytes, or -1 after rejecting */
int td_request_output(tdConn* c, tdReq* req, int kind, double t0, int64_t B,
                      size_t bytes_per_item) {
  double bytes = (double)bytes_per_item * B;
  if (bytes > (double)c->srv->cfg.max_output_bytes) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED,
              "output of %.0f bytes exceeds max_output_bytes", bytes);
    return -1;
  }
  return 0;
}

/* a job with its payload and model, or NULL after rejecting */
tdJob* td_request_job(tdConn* c, tdReq* req, int kind, double t0, const tdJobOps* ops, tdModel* mod,
                      size_t payload_size, int64_t cost_steps) {
  void* payload = calloc(1, payload_size);
  tdJob* job = payload ? td_job_new(c, req, ops, kind) : NULL;
  if (!job) {
    free(payload);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return NULL;
  }
  job->payload = payload;
  job->model = mod;
  td_model_ref(mod);
  job->cost_steps = cost_steps;
  return job;
}

/* reset d and load one item: its state, then its control row and accelerations when given
 * (the per-item sequence of the engine's tn_*Batch helpers, so results match them bit for
 * bit without an OpenMP region per item) */
void td_load_item(const mjModel* m, mjData* d, int spec, const double* state, const double* ctrl,
                  const double* qacc) {
  mj_resetData(m, d);
  mj_setState(m, d, state, spec);
  if (ctrl && m->nu) {
    memcpy(d->ctrl, ctrl, sizeof(double) * m->nu);
  }
  if (qacc && m->nv) {
    memcpy(d->qacc, qacc, sizeof(double) * m->nv);
  }
}

/* store d's state, narrowed through tmp when float32 */
void td_store_state(const mjModel* m, const mjData* d, int spec, int nstate, void* out,
                    size_t offset, double* tmp, int f32) {
  if (f32) {
    mj_getState(m, d, tmp, spec);
    td_store(out, offset, tmp, (size_t)nstate, 1);
  } else {
    mj_getState(m, d, (double*)out + offset, spec);
  }
}

/* the float64 elements of a validated input (never NULL: empty arrays point at a zero) */
const double* td_in_data(const tdArray* a) {
  static const double none[1] = {0};
  return a && a->data.data ? (const double*)a->data.data : none;
}

/* items per chunk: the client's choice, else the server's; at most TD_MAX_CHUNKS chunks and
 * a frame's worth of output well below the protobuf limit */
int td_request_chunk(const tdServer* srv, const tdModel* mod, int nitems, uint32_t chunk_envs,
                     size_t bytes_per_item, int64_t steps_per_item) {
  int per = chunk_envs ? (int)(chunk_envs < (uint32_t)nitems ? chunk_envs : (uint32_t)nitems)
                       : td_chunk_items(srv, mod, nitems, bytes_per_item, steps_per_item);
  if ((int64_t)per * TD_MAX_CHUNKS < nitems) {
    per = (nitems + TD_MAX_CHUNKS - 1) / TD_MAX_CHUNKS;
  }
  if (bytes_per_item && (double)per * bytes_per_item > 2e9) {
    per = (int)(2e9 / bytes_per_item);
  }
  return per < 1 ? 1 : per;
}

/* ---------------------------------------------------------------------------------------
 * Cancel
 * ------------------------------------------------------------------------------------- */

/* cancel another request of this connection */
static void req_cancel(tdConn* c, tdReq* req, double t0) {
  tdJob* target = td_job_find(c, req->cancel->target_id);
  if (target) {
    td_job_fail(target, TD_E_CANCELLED, "cancelled by request %llu", (unsigned long long)req->id);
  }
  Torsion__V1__CancelResult res = TORSION__V1__CANCEL_RESULT__INIT;
  res.found = target != NULL;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = req->id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_CANCEL;
  r.cancel = &res;
  td_reply(c, &r, TD_KIND_CANCEL, t0);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}

/* ---------------------------------------------------------------------------------------
 * dispatch
 * ------------------------------------------------------------------------------------- */

/* the id of an undecodable frame, when its first field is a readable id */
uint64_t td_peek_id(const uint8_t* p, size_t len) {
  if (len < 2 || p[0] != 0x08) {
    return 0;
  }
  uint64_t v = 0;
  for (size_t i = 1; i < len && i <= 10; i++) {
    v |= (uint64_t)(p[i] & 0x7f) << (7 * (i - 1));
    if (!(p[i] & 0x80)) {
      return v;
    }
  }
  return 0;
}

/* the request table: every kind the server serves, in protocol order */
const tdReqKind td_req_kinds[TD_NKIND] = {
    [TD_KIND_HELLO] = {TORSION__V1__REQUEST__BODY_HELLO, "hello", td_req_hello, 0, TD_LAT_LOOP},
    [TD_KIND_LOAD_MODEL] = {TORSION__V1__REQUEST__BODY_LOAD_MODEL, "load_model",
                            td_req_load_model, 1, TD_LAT_COMPILE},
    [TD_KIND_MODEL_INFO] = {TORSION__V1__REQUEST__BODY_MODEL_INFO, "model_info",
                            td_req_model_info, 0, TD_LAT_LOOP},
    [TD_KIND_UNLOAD_MODEL] = {TORSION__V1__REQUEST__BODY_UNLOAD_MODEL, "unload_model",
                              td_req_unload_model, 0, TD_LAT_LOOP},
    [TD_KIND_ROLLOUT] = {TORSION__V1__REQUEST__BODY_ROLLOUT, "rollout", td_req_rollout, 1,
                         TD_LAT_WORKERS},
    [TD_KIND_FORWARD] = {TORSION__V1__REQUEST__BODY_FORWARD, "forward", td_req_forward, 1,
                         TD_LAT_WORKERS},
    [TD_KIND_CREATE_SESSION] = {TORSION__V1__REQUEST__BODY_CREATE_SESSION, "create_session",
                                td_req_create_session, 1, TD_LAT_WORKERS},
    [TD_KIND_SESSION_STEP] = {TORSION__V1__REQUEST__BODY_SESSION_STEP, "session_step",
                              td_req_session_step, 1, TD_LAT_WORKERS},
    [TD_KIND_SESSION_RESET] = {TORSION__V1__REQUEST__BODY_SESSION_RESET, "session_reset",
                               td_req_session_reset, 1, TD_LAT_WORKERS},
    [TD_KIND_SESSION_GET_STATE] = {TORSION__V1__REQUEST__BODY_SESSION_GET_STATE,
                                   "session_get_state", td_req_session_get_state, 1,
                                   TD_LAT_WORKERS},
    [TD_KIND_SESSION_SET_STATE] = {TORSION__V1__REQUEST__BODY_SESSION_SET_STATE,
                                   "session_set_state", td_req_session_set_state, 1,
                                   TD_LAT_WORKERS},
    [TD_KIND_CLOSE_SESSION] = {TORSION__V1__REQUEST__BODY_CLOSE_SESSION, "close_session",
                               td_req_close_session, 0, TD_LAT_LOOP},
    [TD_KIND_STATS] = {TORSION__V1__REQUEST__BODY_STATS, "stats", td_req_stats, 0, TD_LAT_LOOP},
    [TD_KIND_HEALTH] = {TORSION__V1__REQUEST__BODY_HEALTH, "health", td_req_health, 0,
                        TD_LAT_LOOP},
    [TD_KIND_CANCEL] = {TORSION__V1__REQUEST__BODY_CANCEL, "cancel", req_cancel, 0, TD_LAT_LOOP},
    [TD_KIND_INVERSE] = {TORSION__V1__REQUEST__BODY_INVERSE, "inverse", td_req_inverse, 1,
                         TD_LAT_WORKERS},
    [TD_KIND_TRANSITION_FD] = {TORSION__V1__REQUEST__BODY_TRANSITION_FD, "transition_fd",
                               td_req_transition_fd, 1, TD_LAT_WORKERS},
    [TD_KIND_INVERSE_FD] = {TORSION__V1__REQUEST__BODY_INVERSE_FD, "inverse_fd",
                            td_req_inverse_fd, 1, TD_LAT_WORKERS},
};

/* the kind of a message case, or -1 */
int td_kind_of(int body) {
  for (int k = 0; k < TD_NKIND; k++) {
    if (td_req_kinds[k].body == body) {
      return k;
    }
  }
  return -1;
}

/* the output_dtype of a request (TD_F64 for kinds without one) */
static int output_dtype_of(const tdReq* req) {
  switch (req->body_case) {
    case TORSION__V1__REQUEST__BODY_ROLLOUT: return (int)req->rollout->output_dtype;
    case TORSION__V1__REQUEST__BODY_FORWARD: return (int)req->forward->output_dtype;
    case TORSION__V1__REQUEST__BODY_CREATE_SESSION: return (int)req->create_session->output_dtype;
    case TORSION__V1__REQUEST__BODY_INVERSE: return (int)req->inverse->output_dtype;
    case TORSION__V1__REQUEST__BODY_TRANSITION_FD: return (int)req->transition_fd->output_dtype;
    case TORSION__V1__REQUEST__BODY_INVERSE_FD: return (int)req->inverse_fd->output_dtype;
    default: return TD_F64;
  }
}

/* a Hello on a connection that needs a token: compare the token's raw bytes (an embedded
 * NUL and junk is not the token) with every configured token, all of them every time; the
 * match is the connection's principal. 0, or -1 after refusing and closing */
static int check_hello_token(tdConn* c, tdReq* req, int kind, double t0, const uint8_t* data,
                             size_t len) {
  const tdConfig* cfg = &c->srv->cfg;
  const uint8_t* tok;
  size_t n;
  int match = -1;
  if (td_hello_token_raw(data, len, &tok, &n) == 0 && tok) {
    for (int i = 0; i < cfg->ntokens; i++) {
      int eq = td_secret_equal_n(tok, n, cfg->tokens[i]);
      match = eq && match < 0 ? i : match;
    }
  }
  if (match >= 0) {
    c->authenticated = 1;
    c->principal = match;
    return 0;
  }
  td_log(TD_LOG_INFO, "auth_failed", "conn=%llu peer=%s", (unsigned long long)c->cid, c->peer);
  td_reject(c, req, kind, t0, TD_E_UNAUTHENTICATED, "wrong or missing token");
  td_conn_close(c, 1);
  return -1;
}

/* decode, check and route one frame */
void td_dispatch_frame(tdConn* c, const uint8_t* data, size_t len) {
  tdServer* srv = c->srv;
  double t0 = td_now_s();
  tdReq* req =
      (tdReq*)protobuf_c_message_unpack(&torsion__v1__request__descriptor, NULL, len, data);
  if (!req) {
    td_conn_send_error(c, td_peek_id(data, len), TD_E_BAD_MESSAGE,
                       "frame of %zu bytes is not a torsion.v1.Request", len);
    td_metrics_request(&srv->metrics, -1, TD_E_BAD_MESSAGE, 0);
    return;
  }
  int body = (int)req->body_case;
  int kind = td_kind_of(body);

  // authentication: nothing but Hello until the token has been shown
  if (c->auth_required && !c->authenticated && body != TORSION__V1__REQUEST__BODY_HELLO) {
    td_reject(c, req, kind, t0, TD_E_UNAUTHENTICATED, "Hello with the token must come first");
    td_conn_close(c, 1);
    return;
  }

  if (c->auth_required && !c->authenticated && check_hello_token(c, req, kind, t0, data, len)) {
    return;
  }

  // common refusals
  if (kind < 0) {
    td_reject(c, req, kind, t0, TD_E_UNKNOWN_REQUEST,
              "request body not set or of a type this server does not know");
    return;
  }
  if (srv->draining && td_req_kinds[kind].creates_work) {
    td_reject(c, req, kind, t0, TD_E_SHUTTING_DOWN, "the server is draining");
    return;
  }
  if (td_job_find(c, req->id)) {
    td_reject(c, req, kind, t0, TD_E_DUPLICATE_ID, "request id %llu is still in flight",
              (unsigned long long)req->id);
    return;
  }

  // enums are closed: an unknown output dtype is an error, not float64
  int dtype = output_dtype_of(req);
  if (dtype != TD_F64 && dtype != TD_F32) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT,
              "output_dtype %d is neither DTYPE_FLOAT64 (0) nor DTYPE_FLOAT32 (1)", dtype);
    return;
  }

  // route through the request table
  td_req_kinds[kind].handler(c, req, t0);
}
