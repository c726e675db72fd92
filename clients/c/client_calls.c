/* clients/c/client_calls.c — the typed calls of the torsiond client: Hello, models,
 * Rollout (streamed frames assembled in place), Forward, sessions, Stats and Health. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_internal.h"
#include "file_read.h"

/* ---------------------------------------------------------------------------------------
 * Hello and models
 * ------------------------------------------------------------------------------------- */

int tnc_hello(tnClient* c, const char* token, tncHello* out) {
  Torsion__V1__HelloRequest h = TORSION__V1__HELLO_REQUEST__INIT;
  h.protocol_version = 1;
  h.token = (char*)(token ? token : "");
  h.client_name = (char*)"torsion-c";
  REQUEST(req, hello, HELLO, h);
  Torsion__V1__Response* r = tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_HELLO);
  if (!r) {
    return -1;
  }
  if (out) {
    memset(out, 0, sizeof(*out));
    out->protocol_version = r->hello->protocol_version;
    out->workers = r->hello->workers;
    out->mujoco_version = r->hello->mujoco_version;
    out->max_frame_bytes = r->hello->limits ? r->hello->limits->max_frame_bytes : 0;
    snprintf(out->server_version, sizeof(out->server_version), "%s",
             r->hello->server_version ? r->hello->server_version : "");
  }
  tnc_free(r);
  return 0;
}

/* read a whole file (the host programs' one reader) */
char* tnc_read_file(const char* path, size_t* len) {
  return host_read_file(path, len);
}

/* shared by the two load forms */
static int load(tnClient* c, Torsion__V1__LoadModelRequest* lm, char handle[65], int* cached) {
  REQUEST(req, load_model, LOAD_MODEL, *lm);
  Torsion__V1__Response* r = tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_LOAD_MODEL);
  if (!r) {
    return -1;
  }
  snprintf(handle, 65, "%s", r->load_model->model ? r->load_model->model : "");
  if (cached) {
    *cached = r->load_model->cached;
  }
  tnc_free(r);
  return 0;
}

int tnc_load_xml(tnClient* c, const char* xml, const tncAsset* assets, int nasset, char handle[65],
                 int* cached) {
  Torsion__V1__LoadModelRequest lm = TORSION__V1__LOAD_MODEL_REQUEST__INIT;
  lm.source_case = TORSION__V1__LOAD_MODEL_REQUEST__SOURCE_XML;
  lm.xml = (char*)xml;

  // asset messages over the caller's blobs
  Torsion__V1__Asset* a = calloc((size_t)nasset + 1, sizeof(*a));
  Torsion__V1__Asset** ap = calloc((size_t)nasset + 1, sizeof(*ap));
  if (!a || !ap) {
    free(a);
    free(ap);
    return tnc__fail(c, TNC_E_MEMORY, "out of memory");
  }
  for (int i = 0; i < nasset; i++) {
    torsion__v1__asset__init(&a[i]);
    a[i].name = (char*)assets[i].name;
    a[i].data.data = (uint8_t*)assets[i].data;
    a[i].data.len = assets[i].len;
    ap[i] = &a[i];
  }
  lm.n_assets = (size_t)nasset;
  lm.assets = ap;
  int rc = load(c, &lm, handle, cached);
  free(a);
  free(ap);
  return rc;
}

/* LoadModel from a path under the server's model root */
int tnc_load_path(tnClient* c, const char* path, char handle[65], int* cached) {
  Torsion__V1__LoadModelRequest lm = TORSION__V1__LOAD_MODEL_REQUEST__INIT;
  lm.source_case = TORSION__V1__LOAD_MODEL_REQUEST__SOURCE_PATH;
  lm.path = (char*)path;
  return load(c, &lm, handle, cached);
}

/* ModelInfo into the plain struct */
int tnc_model_info(tnClient* c, const char* handle, tncModelInfo* info) {
  Torsion__V1__ModelInfoRequest mi = TORSION__V1__MODEL_INFO_REQUEST__INIT;
  mi.model = (char*)handle;
  REQUEST(req, model_info, MODEL_INFO, mi);
  Torsion__V1__Response* r = tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_MODEL_INFO);
  if (!r) {
    return -1;
  }
  const Torsion__V1__ModelInfo* m = r->model_info;
  memset(info, 0, sizeof(*info));
  info->nq = (int)m->nq;
  info->nv = (int)m->nv;
  info->nu = (int)m->nu;
  info->na = (int)m->na;
  info->nbody = (int)m->nbody;
  info->nsensordata = (int)m->nsensordata;
  info->nkey = (int)m->nkey;
  info->nmocap = (int)m->nmocap;
  info->timestep = m->timestep;
  info->nstate_full = (int)m->nstate_fullphysics;
  for (size_t i = 0; i < m->n_state_component_sizes && i < 16; i++) {
    info->state_sizes[i] = (int)m->state_component_sizes[i];
  }
  snprintf(info->name, sizeof(info->name), "%s", m->name ? m->name : "");
  tnc_free(r);
  return 0;
}

/* the size of a spec: the sum of its components' sizes */
int tnc_state_size(const tncModelInfo* info, int spec) {
  int n = 0;
  for (int i = 0; i < 16; i++) {
    if (spec & (1 << i)) {
      n += info->state_sizes[i];
    }
  }
  return n;
}

/* UnloadModel */
int tnc_unload(tnClient* c, const char* handle) {
  Torsion__V1__UnloadModelRequest um = TORSION__V1__UNLOAD_MODEL_REQUEST__INIT;
  um.model = (char*)handle;
  REQUEST(req, unload_model, UNLOAD_MODEL, um);
  Torsion__V1__Response* r = tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_UNLOAD_MODEL);
  tnc_free(r);
  return r ? 0 : -1;
}

/* ---------------------------------------------------------------------------------------
 * Rollout and Forward
 * ------------------------------------------------------------------------------------- */

void tnc_rollout_free(tncRolloutResult* r) {
  free(r->states);
  free(r->sensordata);
  free(r->warnings);
  free(r->steps);
  memset(r, 0, sizeof(*r));
}

/* copy one streamed part into the assembled result */
static int take_part(tnClient* c, const Torsion__V1__RolloutResult* p, tncRolloutResult* out) {
  size_t es = out->float32 ? 4 : 8;
  if (!p->states || p->env_offset + (uint64_t)p->env_count > (uint64_t)out->B ||
      p->n_warnings != p->env_count) {
    return tnc__fail(c, TNC_E_PROTOCOL, "rollout part out of range");
  }

  // the first part fixes nrec and the recorded steps
  if (!out->states) {
    out->nrec = (int)p->nrec;
    out->states = malloc((size_t)out->B * out->nrec * out->nstate * es + 8);
    out->sensordata =
        p->sensordata ? malloc((size_t)out->B * out->nrec * out->nsens * es + 8) : NULL;
    if (!out->states || (p->sensordata && !out->sensordata)) {
      return tnc__fail(c, TNC_E_MEMORY, "out of memory");
    }
  }
  size_t row = (size_t)out->nrec * out->nstate * es;
  if ((int)p->nrec != out->nrec || p->states->data.len != p->env_count * row) {
    return tnc__fail(c, TNC_E_PROTOCOL, "rollout part of unexpected size");
  }
  memcpy((char*)out->states + p->env_offset * row, p->states->data.data, p->states->data.len);
  if (p->sensordata && out->sensordata) {
    size_t srow = (size_t)out->nrec * out->nsens * es;
    if (p->sensordata->data.len != p->env_count * srow) {
      return tnc__fail(c, TNC_E_PROTOCOL, "sensordata part of unexpected size");
    }
    memcpy((char*)out->sensordata + p->env_offset * srow, p->sensordata->data.data,
           p->sensordata->data.len);
  }
  memcpy(out->warnings + p->env_offset, p->warnings, sizeof(uint32_t) * p->env_count);
  if (p->n_steps && !out->steps) {
    out->steps = malloc(sizeof(uint32_t) * p->n_steps);
    if (out->steps)
      memcpy(out->steps, p->steps, sizeof(uint32_t) * p->n_steps);
  }
  out->nframes++;
  return 0;
}

/* take a Rollout frame (the first fixes the sensordata width) */
static int take_rollout(tnClient* c, const Torsion__V1__Response* r, void* ctx, int* items) {
  tncRolloutResult* out = ctx;
  const Torsion__V1__RolloutResult* p = r->rollout;
  if (!out->states) {
    out->nsens = p->sensordata && p->sensordata->n_shape == 3 ? (int)p->sensordata->shape[2] : 0;
  }
  if (take_part(c, p, out)) {
    return -1;
  }
  *items += (int)p->env_count;
  return 0;
}

/* Rollout: send, then assemble the streamed parts until the final frame */
int tnc_rollout(tnClient* c, const tncRollout* q, tncRolloutResult* out) {
  memset(out, 0, sizeof(*out));
  if (q->B < 1 || q->nstate < 0 || (q->ctrl && (q->ctrl_b < 1 || q->ctrl_t < 1))) {
    return tnc__fail(c, TNC_E_ARGUMENT, "bad rollout arguments");
  }

  // the request over the caller's arrays
  uint64_t sshape[2] = {(uint64_t)q->B, (uint64_t)q->nstate};
  uint64_t cshape[3] = {(uint64_t)q->ctrl_b, (uint64_t)q->ctrl_t, (uint64_t)q->nu};
  Torsion__V1__Array sa, ca;
  tnc__in_array(&sa, sshape, 2, q->state0, (size_t)q->B * q->nstate);
  tnc__in_array(&ca, cshape, 3, q->ctrl, (size_t)q->ctrl_b * q->ctrl_t * q->nu);
  Torsion__V1__RolloutRequest rr = TORSION__V1__ROLLOUT_REQUEST__INIT;
  rr.model = (char*)q->model;
  rr.state_spec = (uint32_t)q->spec;
  rr.initial_state = &sa;
  rr.ctrl = q->ctrl ? &ca : NULL;
  rr.nstep = (uint32_t)q->nstep;
  rr.record_every = (uint32_t)q->record_every;
  rr.final_only = q->final_only;
  rr.sensordata = q->sensordata;
  rr.output_dtype =
      q->float32 ? TORSION__V1__DTYPE__DTYPE_FLOAT32 : TORSION__V1__DTYPE__DTYPE_FLOAT64;
  rr.chunk_envs = (uint32_t)q->chunk_envs;
  REQUEST(req, rollout, ROLLOUT, rr);
  req.deadline_ms = q->deadline_ms;

  // collect parts until the final one
  out->B = q->B;
  out->nstate = q->nstate;
  out->float32 = q->float32;
  out->warnings = calloc((size_t)q->B, sizeof(uint32_t));
  if (!out->warnings) {
    return tnc__fail(c, TNC_E_MEMORY, "out of memory");
  }
  if (tnc__collect(c, &req, TORSION__V1__RESPONSE__BODY_ROLLOUT, q->B, take_rollout, out)) {
    tnc_rollout_free(out);
    return -1;
  }
  return 0;
}

/* take a Forward part into qacc [B, nv] */
static int take_forward(tnClient* c, const Torsion__V1__Response* r, void* ctx, int* items) {
  const Torsion__V1__ForwardResult* p = r->forward;
  return tnc__take_rows(c, p->qacc, p->env_offset, p->env_count, ctx, items);
}

int tnc_forward(tnClient* c, const char* model, int spec, int B, int nstate, const double* state,
                const double* ctrl, int ctrl_b, int nu, int nv, double* qacc) {
  uint64_t sshape[2] = {(uint64_t)B, (uint64_t)nstate};
  uint64_t cshape[2] = {(uint64_t)ctrl_b, (uint64_t)nu};
  Torsion__V1__Array sa, ca;
  tnc__in_array(&sa, sshape, 2, state, (size_t)B * nstate);
  tnc__in_array(&ca, cshape, 2, ctrl, (size_t)ctrl_b * nu);
  Torsion__V1__ForwardRequest fr = TORSION__V1__FORWARD_REQUEST__INIT;
  fr.model = (char*)model;
  fr.state_spec = (uint32_t)spec;
  fr.state = &sa;
  fr.ctrl = ctrl ? &ca : NULL;
  REQUEST(req, forward, FORWARD, fr);
  tncRows x = {B, nv, qacc};
  return tnc__collect(c, &req, TORSION__V1__RESPONSE__BODY_FORWARD, B, take_forward, &x);
}

/* ---------------------------------------------------------------------------------------
 * sessions
 * ------------------------------------------------------------------------------------- */

/* copy a SessionResult's arrays out */
static int session_out(tnClient* c, const tncSession* s, const Torsion__V1__SessionResult* res,
                       int nstate, double* states, double* sens, uint32_t* warnings) {
  if (states && tnc__out_doubles(c, res->states, (size_t)s->nenv * nstate, states)) {
    return -1;
  }
  if (sens && res->sensordata &&
      tnc__out_doubles(c, res->sensordata, (size_t)s->nenv * s->nsens, sens)) {
    return -1;
  }
  if (warnings) {
    for (int i = 0; i < s->nenv; i++) {
      warnings[i] = i < (int)res->n_warnings ? res->warnings[i] : 0;
    }
  }
  return 0;
}

/* send a session request and unpack its SessionResult */
static int session_call(tnClient* c, Torsion__V1__Request* req, int body, const tncSession* s,
                        int nstate, double* states, double* sens, uint32_t* warnings) {
  Torsion__V1__Response* r = tnc__call_expect(c, req, body);
  if (!r) {
    return -1;
  }
  int rc = session_out(c, s, r->create_session, nstate, states, sens, warnings);
  tnc_free(r);
  return rc;
}

int tnc_session_create(tnClient* c, const char* model, int nenv, int keyframe, double noise,
                       uint64_t seed, int spec, int sensordata, tncSession* s, double* states_out) {
  Torsion__V1__CreateSessionRequest cr = TORSION__V1__CREATE_SESSION_REQUEST__INIT;
  cr.model = (char*)model;
  cr.nenv = (uint32_t)nenv;
  cr.keyframe = keyframe;
  cr.reset_noise = noise;
  cr.seed = seed;
  cr.state_spec = (uint32_t)spec;
  cr.sensordata = sensordata;
  REQUEST(req, create_session, CREATE_SESSION, cr);
  Torsion__V1__Response* r = tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_CREATE_SESSION);
  if (!r) {
    return -1;
  }
  const Torsion__V1__SessionResult* res = r->create_session;
  tncModelInfo info;
  memset(s, 0, sizeof(*s));
  if (tnc_model_info(c, model, &info)) {
    tnc_free(r);
    return -1;
  }
  s->nu = info.nu;
  s->nsens = info.nsensordata;
  s->id = res->session;
  s->nenv = (int)res->nenv;
  s->nstate = res->states && res->states->n_shape == 2 ? (int)res->states->shape[1] : 0;
  s->sensordata = sensordata;
  int rc = session_out(c, s, res, s->nstate, states_out, NULL, NULL);
  tnc_free(r);
  return rc;
}

int tnc_session_step(tnClient* c, const tncSession* s, const double* ctrl, int frame_skip,
                     double* states_out, double* sens_out, uint32_t* warnings) {
  uint64_t shape[2] = {(uint64_t)s->nenv, (uint64_t)s->nu};
  Torsion__V1__Array ca;
  tnc__in_array(&ca, shape, 2, ctrl, (size_t)s->nenv * s->nu);
  Torsion__V1__SessionStepRequest sr = TORSION__V1__SESSION_STEP_REQUEST__INIT;
  sr.session = s->id;
  sr.ctrl = ctrl ? &ca : NULL;
  sr.frame_skip = (uint32_t)frame_skip;
  REQUEST(req, session_step, SESSION_STEP, sr);
  return session_call(c, &req, TORSION__V1__RESPONSE__BODY_SESSION_STEP, s, s->nstate, states_out,
                      sens_out, warnings);
}

int tnc_session_reset(tnClient* c, const tncSession* s, const unsigned char* mask,
                      double* states_out) {
  protobuf_c_boolean* m = NULL;
  Torsion__V1__SessionResetRequest rr = TORSION__V1__SESSION_RESET_REQUEST__INIT;
  rr.session = s->id;
  if (mask) {
    m = malloc(sizeof(protobuf_c_boolean) * (size_t)s->nenv);
    if (!m)
      return tnc__fail(c, TNC_E_MEMORY, "out of memory");
    for (int i = 0; i < s->nenv; i++) m[i] = mask[i] != 0;
    rr.n_mask = (size_t)s->nenv;
    rr.mask = m;
  }
  REQUEST(req, session_reset, SESSION_RESET, rr);
  int rc = session_call(c, &req, TORSION__V1__RESPONSE__BODY_SESSION_RESET, s, s->nstate,
                        states_out, NULL, NULL);
  free(m);
  return rc;
}

/* SessionGetState */
int tnc_session_get_state(tnClient* c, const tncSession* s, int spec, int nstate, double* out) {
  Torsion__V1__SessionGetStateRequest gr = TORSION__V1__SESSION_GET_STATE_REQUEST__INIT;
  gr.session = s->id;
  gr.state_spec = (uint32_t)spec;
  REQUEST(req, session_get_state, SESSION_GET_STATE, gr);
  return session_call(c, &req, TORSION__V1__RESPONSE__BODY_SESSION_GET_STATE, s, nstate, out, NULL,
                      NULL);
}

int tnc_session_set_state(tnClient* c, const tncSession* s, int spec, int nstate,
                          const double* states) {
  uint64_t shape[2] = {(uint64_t)s->nenv, (uint64_t)nstate};
  Torsion__V1__Array sa;
  tnc__in_array(&sa, shape, 2, states, (size_t)s->nenv * nstate);
  Torsion__V1__SessionSetStateRequest sr = TORSION__V1__SESSION_SET_STATE_REQUEST__INIT;
  sr.session = s->id;
  sr.state_spec = (uint32_t)spec;
  sr.states = &sa;
  REQUEST(req, session_set_state, SESSION_SET_STATE, sr);
  return session_call(c, &req, TORSION__V1__RESPONSE__BODY_SESSION_SET_STATE, s, s->nstate, NULL,
                      NULL, NULL);
}

/* CloseSession */
int tnc_session_close(tnClient* c, const tncSession* s) {
  Torsion__V1__CloseSessionRequest cr = TORSION__V1__CLOSE_SESSION_REQUEST__INIT;
  cr.session = s->id;
  REQUEST(req, close_session, CLOSE_SESSION, cr);
  Torsion__V1__Response* r = tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_CLOSE_SESSION);
  tnc_free(r);
  return r ? 0 : -1;
}

/* ---------------------------------------------------------------------------------------
 * Stats and Health
 * ------------------------------------------------------------------------------------- */

Torsion__V1__Response* tnc_stats(tnClient* c) {
  Torsion__V1__StatsRequest sr = TORSION__V1__STATS_REQUEST__INIT;
  REQUEST(req, stats, STATS, sr);
  return tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_STATS);
}

Torsion__V1__Response* tnc_health(tnClient* c) {
  Torsion__V1__HealthRequest hr = TORSION__V1__HEALTH_REQUEST__INIT;
  REQUEST(req, health, HEALTH, hr);
  return tnc__call_expect(c, &req, TORSION__V1__RESPONSE__BODY_HEALTH);
}
