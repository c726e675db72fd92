/* server/server.h — the daemon's central structures: the server and its connections.
 *
 * Ownership: the loop thread owns every tdServer and tdConn field except those marked
 * (locked), which workers reach through the scheduler's or the completion queue's mutex.
 * A connection owns its in-flight jobs and its sessions; when it closes, its jobs are
 * cancelled and freed once the workers have let go of them. */
#ifndef TORSIOND_SERVER_H
#define TORSIOND_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "config.h"
#include "metrics.h"
#include "tls.h"
#include "wire.h"

typedef struct tdServer_ tdServer;
typedef struct tdConn_ tdConn;
typedef struct tdJob_ tdJob;
typedef struct tdModel_ tdModel;
typedef struct tdSession_ tdSession;
typedef struct tdWorker_ tdWorker;
typedef struct tdCompletion_ tdCompletion;
typedef struct tdConnModel_ tdConnModel;
typedef struct tdMetricsHttp_ tdMetricsHttp;

#include "registry.h"
#include "scheduler.h"
#include "workers.h"

/* what every connection authenticated with one token holds together: the per-connection
 * quotas apply to this sum too, so a client does not get more by opening more connections */
typedef struct tdPrincipal_ {
  int64_t queued_steps;
  int nmodels;
  int64_t model_mem;
} tdPrincipal;

/* one client connection */
struct tdConn_ {
  union {
    uv_handle_t handle;
    uv_stream_t stream;
    uv_tcp_t tcp;
    uv_pipe_t pipe;
  } h;
  tdServer* srv;
  tdConn* prev;
  tdConn* next;
  uint64_t cid; /* connection number for the logs */
  char peer[80];

  /* read buffer: bytes [rpos, rlen) are received and not yet processed */
  char* rbuf;
  size_t rpos, rlen, rcap;

  /* state */
  int reading;       /* uv_read_start is active */
  int paused;        /* reading stopped by back-pressure */
  int processing;    /* inside the frame loop (no re-entry) */
  int closing;       /* closed for requests: no new frames are dispatched */
  int lingering;     /* closing gracefully: flush, half-close, discard input */
  int shut;          /* uv_shutdown issued */
  int handle_closed; /* uv_close called */
  uint64_t linger_deadline_ns;
  size_t discarded; /* bytes read and dropped while lingering */
  uv_shutdown_t shutdown_req;
  int auth_required;
  int authenticated;
  int principal; /* index of the token it showed (srv->principals), -1: none */
  tdTls* tls;    /* TLS state of a TCP connection when tls_cert is set (tls.c); else NULL */

  /* timeouts: when the connection started, last received bytes, the frame being read */
  uint64_t connect_ns;
  uint64_t last_io_ns;
  uint64_t frame_start_ns; /* 0: no partial frame */
  int got_frame;           /* a complete frame has arrived */

  /* work and output of this connection */
  tdJob* jobs;         /* jobs not yet freed (linked by jprev/jnext) */
  int ninflight;       /* jobs whose final frame is not sent yet */
  size_t unsent;       /* bytes handed to uv_write and not yet completed */
  tdSession* sessions; /* open sessions (linked by cnext) */
  int nsessions;

  /* quotas (quota.c) and the connection's place in the scheduler */
  int64_t queued_steps; /* env-steps of its unfinished jobs */
  tdConnModel* models;  /* models it holds a reference to */
  int nmodels;
  int64_t model_mem; /* estimated bytes of those models */
  tdSchedQueue sq;   /* its jobs with chunks left (scheduler.c) */
};

/* the server */
struct tdServer_ {
  uv_loop_t* loop;
  tdConfig cfg;
  int nworkers;
  double start_s;

  /* listeners, signals and the periodic tick */
  uv_pipe_t unix_listener;
  uv_tcp_t tcp_listener;
  int unix_on, tcp_on;
  int unix_bound;    /* the socket file is ours to unlink */
  tdTlsCtx* tls_ctx; /* certificate and key of the TCP listener when TLS is on */
  uv_signal_t sig_term, sig_int, sig_hup;
  int argc; /* the command line, re-read on SIGHUP */
  char** argv;
  uv_timer_t tick;
  uv_async_t async; /* workers: "completions are waiting" */

  /* connections */
  tdConn* conns;
  int nconn;
  uint64_t next_cid;

  /* models, work and workers */
  tdRegistry reg;
  tdPrincipal principals[TD_MAX_TOKENS];
  tdScheduler sched;
  tdWorkerPool pool;
  tdCompletionQueue cq;

  /* global accounting for limits and back-pressure */
  int64_t queued_steps; /* env-steps of unfinished jobs */
  int64_t unsent;       /* bytes written but not completed, all connections */
  int64_t inflight;     /* unfinished jobs, all connections */
  int npaused;          /* connections paused by back-pressure */
  int nsessions;
  uint64_t next_session_id;
  tdMetrics metrics;
  tdMetricsHttp* mhttp; /* the Prometheus listener when metrics_listen is set */

  /* shutdown */
  int draining;
  uint64_t drain_deadline_ns;
  int drain_expired; /* the drain timeout failed the remaining work */
  int drain_forced;  /* a second signal: stop without waiting */
  int stopping;
  int exit_code;
};

/* ---------------------------------------------------------------------------------------
 * listeners (listen.c)
 * ------------------------------------------------------------------------------------- */

/* open the configured listeners; 0 or -1 after logging why */
int td_listen_start(tdServer* srv);

/* close the listeners (and unlink the Unix socket) */
void td_listen_stop(tdServer* srv);

/* ---------------------------------------------------------------------------------------
 * connections (connection.c)
 * ------------------------------------------------------------------------------------- */

/* allocate a connection whose handle the caller initializes and accepts into */
tdConn* td_conn_new(tdServer* srv);

/* the handle is accepted: start reading */
void td_conn_start(tdConn* c);

/* free a connection that never started (accept failed) */
void td_conn_discard(tdConn* c);

/* queue a frame for writing (takes ownership of frame); drops it if the connection is
 * closing. Updates the unsent counters. */
void td_conn_write(tdConn* c, char* frame, size_t len);

/* send an error frame for request `id` */
void td_conn_send_error(tdConn* c, uint64_t id, int code, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* close the connection. `graceful`: flush what is queued, half-close, and read (and drop)
 * until the peer closes or a short linger time passes, so the peer sees the last frames */
void td_conn_close(tdConn* c, int graceful);

/* close lingering connections whose linger time is over (called by the tick) */
void td_conn_reap_lingering(tdServer* srv);

/* re-evaluate back-pressure: resume reading when the limits allow */
void td_conn_maybe_resume(tdConn* c);

/* resume every paused connection whose limits allow */
void td_server_resume_paused(tdServer* srv);

/* close paused connections whose peer has hung up (called by the tick) */
void td_conn_check_hangups(tdServer* srv);

/* close connections past their header, read or idle timeout (called by the tick) */
void td_conn_check_timeouts(tdServer* srv);

/* ---------------------------------------------------------------------------------------
 * requests (dispatch.c)
 * ------------------------------------------------------------------------------------- */

/* handle one complete frame's payload */
void td_dispatch_frame(tdConn* c, const uint8_t* data, size_t len);

/* the request id at the start of a (possibly partial) payload, or 0 */
uint64_t td_peek_id(const uint8_t* p, size_t len);

/* ---------------------------------------------------------------------------------------
 * lifecycle (main.c)
 * ------------------------------------------------------------------------------------- */

/* begin a graceful drain (signal or fatal condition) */
void td_server_drain(tdServer* srv, const char* why);

/* check whether a drain is complete and stop the loop when it is */
void td_server_check_drain(tdServer* srv);

#endif /* TORSIOND_SERVER_H */
