/* server/quota.h — what one connection may hold: the models it references (count and
 * estimated memory), its environments, and the memory estimate of a model and its pool.
 *
 * Models are reference-counted by the connections using them: loading (or loading the same
 * content again) gives the connection a reference; UnloadModel and closing the connection
 * drop it; when the last connection lets go the model leaves the registry (unless
 * model_keep_warm is set). A connection sees, inspects and unloads only the models it holds.
 * Connections that showed the same token share one tdPrincipal: the per-connection limits
 * on queued steps, models, model memory and environments apply to its sum as well.
 * Queued steps, in-flight requests and unsent bytes are bounded in connection.c (reading
 * pauses) and scheduler.c (no chunk of a connection over its output limit is started). */
#ifndef TORSIOND_QUOTA_H
#define TORSIOND_QUOTA_H

#include <stddef.h>
#include <stdint.h>

#include "server.h"

/* one model a connection holds (linked from tdConn.models) */
typedef struct tdConnModel_ {
  struct tdConnModel_* next;
  tdModel* mod;
} tdConnModel;

/* estimated bytes of a compiled model plus ndata mjData (buffer and arena), computed from
 * the model's sizes before any mjData is allocated */
size_t td_model_memory_estimate(const mjModel* m, int ndata);

/* 0 when the estimate of m with ndata mjData fits `limit` (0: no limit), else -1 with why */
int td_model_check_memory(const mjModel* m, int ndata, int64_t limit, char* why, size_t whysz);

/* does connection c hold model mod */
int td_quota_holds(const tdConn* c, const tdModel* mod);

/* are a and b connections of one client: the same token, or both without a token on the
 * Unix socket with the same peer user; a TCP connection without a token (insecure_loopback)
 * is a client of its own */
int td_quota_same_client(const tdConn* a, const tdConn* b);

/* does c or another open connection of c's client hold mod (LoadModel by handle) */
int td_quota_client_holds(const tdConn* c, const tdModel* mod);

/* may c take a reference to a model not yet loaded (count quota)? 0, or -1 with why */
int td_quota_model_admit(const tdConn* c, char* why, size_t whysz);

/* give c a reference to mod (nothing when it holds one); checks the count and memory
 * quotas of c and the server's total; 0, or -1 with why (ERROR_LIMIT_EXCEEDED) */
int td_quota_model_acquire(tdConn* c, tdModel* mod, char* why, size_t whysz);

/* drop c's reference to mod; the last connection's release unloads it (unless kept warm);
 * 0 when c did not hold it */
int td_quota_model_release(tdConn* c, tdModel* mod);

/* the connection closes: drop every model reference it holds */
void td_quota_conn_closed(tdConn* c);

/* count delta env-steps of unfinished work for c (and its token) */
void td_quota_steps(tdConn* c, int64_t delta);

/* may c open a session of nenv environments (max_envs_per_connection)? 0, or -1 with why */
int td_quota_envs_admit(const tdConn* c, int64_t nenv, char* why, size_t whysz);

#endif /* TORSIOND_QUOTA_H */
