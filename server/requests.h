/* server/requests.h — the request handlers, one file per request family.
 *
 * Each handler runs on the loop thread, validates its request fully and either answers at
 * once (td_reply) or creates a job for the workers. A handler owns `req`: it frees it, or
 * hands it to the job it creates. */
#ifndef TORSIOND_REQUESTS_H
#define TORSIOND_REQUESTS_H

#include "job.h"
#include "server.h"

/* where a request kind's answer is computed, which bounds its latency */
typedef enum tdLatency_ {
  TD_LAT_LOOP,    /* answered at once on the loop thread */
  TD_LAT_COMPILE, /* a model compile on libuv's thread pool */
  TD_LAT_WORKERS  /* a job of env-range chunks on the worker threads */
} tdLatency;

/* a request handler: runs on the loop, owns req (frees it or hands it to a job) */
typedef void (*tdHandler)(tdConn* c, tdReq* req, double t0);

/* one row of the request table */
typedef struct tdReqKind_ {
  int body;          /* the Request.body message case (TORSION__V1__REQUEST__BODY_*) */
  const char* name;  /* protocol name, as Stats reports it */
  tdHandler handler; /* what answers it */
  int creates_work;  /* refused while the server drains */
  tdLatency latency; /* where it is computed */
} tdReqKind;

/* the request table, index = kind (kinds.h); dispatch.c routes every frame through it */
extern const tdReqKind td_req_kinds[TD_NKIND];

/* the kind of a Request.body message case, or -1 when the server does not serve it */
int td_kind_of(int body);

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

/* the same, among the models the connection holds (ModelInfo, UnloadModel) */
tdModel* td_lookup_held_model(tdConn* c, tdReq* req, int kind, double t0, const char* handle);

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
void td_req_create_session(tdConn* c, tdReq* req, double t0);
void td_req_session_step(tdConn* c, tdReq* req, double t0);
void td_req_session_reset(tdConn* c, tdReq* req, double t0);
void td_req_session_get_state(tdConn* c, tdReq* req, double t0);
void td_req_session_set_state(tdConn* c, tdReq* req, double t0);
void td_req_close_session(tdConn* c, tdReq* req, double t0);

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

/* what a batch request names first: its model and the layout of its states */
typedef struct tdModelSpec_ {
  tdModel* mod;
  const mjModel* m;
  int spec;   /* the request's mjtState spec (0 asked: mjSTATE_FULLPHYSICS) */
  int nstate; /* mj_stateSize(m, spec) */
} tdModelSpec;

/* the model named by `handle` and the state spec of a request into ms; 0, or -1 after
 * rejecting the request (ERROR_MODEL_NOT_FOUND, ERROR_INVALID_ARGUMENT) */
int td_request_model_spec(tdConn* c, tdReq* req, int kind, double t0, const char* handle,
                          uint32_t spec, tdModelSpec* ms);

/* B of a [B, ncol] float64 input `a` named `what`, within [1, max_batch]; -1 after rejecting
 * the request (ERROR_BAD_SHAPE, ERROR_INVALID_ARGUMENT for B = 0, ERROR_LIMIT_EXCEEDED) */
int64_t td_request_batch(tdConn* c, tdReq* req, int kind, double t0, const tdArray* a,
                         const char* what, int ncol);

/* 0 when `a` is a [B, ncol] float64 input named `what`, else -1 after rejecting the request
 * (ERROR_BAD_SHAPE) */
int td_request_rows(tdConn* c, tdReq* req, int kind, double t0, const tdArray* a, const char* what,
                    int64_t B, int ncol);

/* optional controls [B or 1, nu]: 0 (with *per_item set when there is a row per item), or
 * -1 after rejecting the request (ERROR_BAD_SHAPE) */
int td_request_ctrl(tdConn* c, tdReq* req, int kind, double t0, const tdArray* ctrl, int64_t B,
                    int nu, int* per_item);

/* 0 when B items of bytes_per_item output stay within max_output_bytes, else -1 after
 * rejecting the request (ERROR_LIMIT_EXCEEDED) */
int td_request_output(tdConn* c, tdReq* req, int kind, double t0, int64_t B, size_t bytes_per_item);

/* a job of `ops` for the request on model mod: a zeroed payload of payload_size bytes (ops
 * frees it), a reference to mod, cost_steps counted against the limits; NULL after rejecting
 * the request when out of memory */
tdJob* td_request_job(tdConn* c, tdReq* req, int kind, double t0, const tdJobOps* ops, tdModel* mod,
                      size_t payload_size, int64_t cost_steps);

/* reset d and load one item: mj_resetData, mj_setState(state, spec), then the control row
 * and the accelerations when not NULL — what the engine's tn_*Batch helpers do per item */
void td_load_item(const mjModel* m, mjData* d, int spec, const double* state, const double* ctrl,
                  const double* qacc);

/* store d's state (spec, nstate numbers) at element `offset` of an output buffer, as float64
 * or (through tmp [nstate]) as float32 */
void td_store_state(const mjModel* m, const mjData* d, int spec, int nstate, void* out,
                    size_t offset, double* tmp, int f32);

/* the float64 elements of a validated input array; never NULL (an empty one points at a
 * zero), as the engine's batch helpers want */
const double* td_in_data(const tdArray* a);

/* items per chunk for nitems items: chunk_envs when the client set it (else the server's
 * choice, td_chunk_items), bounded so there are at most TD_MAX_CHUNKS chunks and a chunk's
 * output stays encodable */
int td_request_chunk(const tdServer* srv, const tdModel* mod, int nitems, uint32_t chunk_envs,
                     size_t bytes_per_item, int64_t steps_per_item);

#endif /* TORSIOND_REQUESTS_H */
