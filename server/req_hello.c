/* server/req_hello.c — Hello: protocol version, server limits, worker count, host name, and
 * the token check on listeners that require one (compared in constant time). */
#include <string.h>
#include <unistd.h>

#include <torsion/torsion.h>

#include "requests.h"

/* answer a Hello */
void td_req_hello(tdConn* c, tdReq* req, double t0) {
  const tdConfig* cfg = &c->srv->cfg;
  int kind = TD_KIND_HELLO;

  // the token was checked on its raw bytes before routing (dispatch.c); a connection that
  // needs one and is still not authenticated here is refused all the same
  if (c->auth_required && !c->authenticated) {
    td_reject(c, req, kind, t0, TD_E_UNAUTHENTICATED, "wrong or missing token");
    td_conn_close(c, 1);
    return;
  }

  // limits
  Torsion__V1__Limits lim = TORSION__V1__LIMITS__INIT;
  lim.max_frame_bytes = (uint64_t)cfg->max_frame_bytes;
  lim.max_model_bytes = (uint64_t)cfg->max_model_bytes;
  lim.max_batch = (uint64_t)cfg->max_batch;
  lim.max_nstep = (uint64_t)cfg->max_nstep;
  lim.max_batch_steps = (uint64_t)cfg->max_batch_steps;
  lim.max_output_bytes = (uint64_t)cfg->max_output_bytes;
  lim.max_sessions_per_connection = (uint32_t)cfg->max_sessions_per_connection;
  lim.max_envs_per_session = (uint32_t)cfg->max_envs_per_session;
  lim.max_inflight_per_connection = (uint32_t)cfg->max_inflight_per_connection;
  lim.max_models = (uint32_t)cfg->max_models;
  lim.default_deadline_ms = (uint32_t)cfg->default_deadline_ms;
  lim.max_deadline_ms = (uint32_t)cfg->max_deadline_ms;
  lim.max_unsent_bytes_per_connection = (uint64_t)cfg->max_unsent_bytes_per_connection;
  lim.max_frame_skip = (uint32_t)cfg->max_frame_skip;

  // versions and workers
  Torsion__V1__HelloResult res = TORSION__V1__HELLO_RESULT__INIT;
  res.protocol_version = TD_PROTOCOL_VERSION;
  res.server_version = (char*)TORSION_VERSION;
  res.engine_version = (char*)TORSION_VERSION;
  res.mujoco_version = mjVERSION_HEADER / 1000; /* the protocol reports 3014 for 3.14 */
  res.workers = (uint32_t)c->srv->nworkers;
  res.limits = &lim;
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  res.hostname = host;

  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = req->id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_HELLO;
  r.hello = &res;
  td_reply(c, &r, kind, t0);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}
