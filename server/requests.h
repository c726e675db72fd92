/* server/requests.h — the request handlers, one file per request family.
 *
 * Each handler runs on the loop thread, validates its request fully and either answers at
 * once (td_reply) or creates a job for the workers. A handler owns `req`: it frees it, or
 * hands it to the job it creates. */
#ifndef TORSIOND_REQUESTS_H
#define TORSIOND_REQUESTS_H

#include "server.h"

/* most chunks one request is split into */
#define TD_MAX_CHUNKS 4096

/* send a final (or streamed) response frame built on the loop; counts the metrics of
 * immediate answers when `kind` >= 0 */
void td_reply(tdConn* c, tdResp* r, int kind, double t0);

/* fail a request that has no job yet: error frame, metrics, free req */
void td_reject(tdConn* c, tdReq* req, int kind, double t0, int code, const char* fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* the model named by a request, or NULL after rejecting it */
tdModel* td_lookup_model(tdConn* c, tdReq* req, int kind, double t0, const char* handle);

/* req_hello.c */
void td_req_hello(tdConn* c, tdReq* req, double t0);

/* req_model.c: LoadModel, ModelInfo, UnloadModel */
void td_req_load_model(tdConn* c, tdReq* req, double t0);
void td_req_model_info(tdConn* c, tdReq* req, double t0);
void td_req_unload_model(tdConn* c, tdReq* req, double t0);
void td_fill_model_info(Torsion__V1__ModelInfo* info, const tdModel* mod);
void td_free_model_info(Torsion__V1__ModelInfo* info);

/* req_rollout.c */
void td_req_rollout(tdConn* c, tdReq* req, double t0);

/* req_forward.c */
void td_req_forward(tdConn* c, tdReq* req, double t0);

/* req_session.c: CreateSession, SessionStep, SessionReset, SessionGetState,
 * SessionSetState, CloseSession */
void td_req_session(tdConn* c, tdReq* req, double t0);

/* req_stats.c: Stats, Health */
void td_req_stats(tdConn* c, tdReq* req, double t0);
void td_req_health(tdConn* c, tdReq* req, double t0);

/* chunk size for nitems items of steps_per_item steps of model mod, whose output takes
 * bytes_per_item: about four chunks per worker, bounded by the target frame size and by
 * the time a chunk may hold a worker (so small requests are never stuck behind big ones) */
int td_chunk_items(const tdServer* srv, const tdModel* mod, int nitems, size_t bytes_per_item,
                   int64_t steps_per_item);

/* validate an mjtState spec (0 -> default); returns the spec or -1 */
int td_state_spec(uint32_t spec, int fallback);

/* a request's state spec (0: fallback), or -1 after rejecting the request */
int td_request_spec(tdConn* c, tdReq* req, int kind, double t0, uint32_t spec, int fallback);

/* 0 when sensordata can be served (not asked, or sensors are evaluated), else -1 after
 * rejecting the request with ERROR_UNIMPLEMENTED */
int td_check_sensordata(tdConn* c, tdReq* req, int kind, double t0, const mjModel* m,
                        int wanted);

#endif /* TORSIOND_REQUESTS_H */
