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

/* req_inverse.c: Inverse */
void td_req_inverse(tdConn* c, tdReq* req, double t0);

/* req_fd.c: TransitionFD, InverseFD */
void td_req_transition_fd(tdConn* c, tdReq* req, double t0);
void td_req_inverse_fd(tdConn* c, tdReq* req, double t0);

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

/* the warnings raised in d as a bitmask (1 << mjtWarning) */
uint32_t td_warning_mask(const mjData* d);

/* B of a [B, ncol] float64 input `a` named `what`, within [1, max_batch]; -1 after rejecting
 * the request (ERROR_BAD_SHAPE, ERROR_INVALID_ARGUMENT for B = 0, ERROR_LIMIT_EXCEEDED) */
int64_t td_request_batch(tdConn* c, tdReq* req, int kind, double t0, const tdArray* a,
                         const char* what, int ncol);

/* reset d and load one item: mj_resetData, mj_setState(state, spec), then the control row
 * and the accelerations when not NULL — what the engine's tn_*Batch helpers do per item */
void td_load_item(const mjModel* m, mjData* d, int spec, const double* state, const double* ctrl,
                  const double* qacc);

/* the float64 elements of a validated input array; never NULL (an empty one points at a
 * zero), as the engine's batch helpers want */
const double* td_in_data(const tdArray* a);

/* items per chunk for nitems items: chunk_envs when the client set it (else the server's
 * choice, td_chunk_items), bounded so there are at most TD_MAX_CHUNKS chunks and a chunk's
 * output stays encodable */
int td_request_chunk(const tdServer* srv, const tdModel* mod, int nitems, uint32_t chunk_envs,
                     size_t bytes_per_item, int64_t steps_per_item);

#endif /* TORSIOND_REQUESTS_H */
