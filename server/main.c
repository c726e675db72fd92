/* server/main.c — torsiond: configuration, startup, the loop's callbacks (completions,
 * signals, the periodic tick) and graceful shutdown.
 *
 * Shutdown: the first SIGTERM/SIGINT starts a drain — listeners close, new work is refused,
 * in-flight requests get up to drain_timeout_ms to finish and be written; work still running
 * then ends with an ERROR_SHUTTING_DOWN frame (given a second to be written); then every
 * connection closes, the workers are joined and everything is freed. A second signal ends
 * the drain at once (in-flight work is cancelled). SIGHUP re-reads the configuration: the
 * new limits apply to work that arrives afterwards; listeners and workers stay as they are. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "job.h"
#include "log.h"
#include "metrics_http.h"
#include "server.h"

/* the tick that checks deadlines and the drain (ms) */
#define TD_TICK_MS 20

/* ---------------------------------------------------------------------------------------
 * loop callbacks
 * ------------------------------------------------------------------------------------- */

/* completions from the workers */
static void on_async(uv_async_t* a) {
  tdServer* srv = a->data;
  tdCompletion* c = td_completions_take(&srv->cq);
  while (c) {
    tdCompletion* next = c->next;
    td_job_on_completion(srv, c);
    c = next;
  }
  td_server_resume_paused(srv);
  td_server_check_drain(srv);
}

/* deadlines and the drain timeout */
static void on_tick(uv_timer_t* t) {
  tdServer* srv = t->data;
  td_job_check_deadlines(srv);
  td_conn_check_timeouts(srv);
  if (srv->npaused > 0) {
    td_conn_check_hangups(srv);
  }
  td_conn_reap_lingering(srv);
  td_server_resume_paused(srv);
  td_server_check_drain(srv);
}

/* SIGTERM / SIGINT */
static void on_signal(uv_signal_t* s, int signum) {
  tdServer* srv = s->data;
  td_server_drain(srv, signum == SIGINT ? "SIGINT" : "SIGTERM");
}

/* SIGHUP: re-read the file and flags; what cannot change while running is kept */
static void on_hup(uv_signal_t* s, int signum) {
  (void)signum;
  tdServer* srv = s->data;
  tdConfig* next = malloc(sizeof(tdConfig));
  if (!next || td_config_load(next, srv->argc, srv->argv) != 0 || td_config_finish(next)) {
    td_log(TD_LOG_WARN, "reload_failed",
           "why=\"the configuration does not load; kept the old one\"");
    free(next);
    return;
  }
  const tdConfig* old = &srv->cfg;
  memcpy(next->socket, old->socket, sizeof(next->socket));
  memcpy(next->tcp_address, old->tcp_address, sizeof(next->tcp_address));
  next->tcp_port = old->tcp_port;
  memcpy(next->metrics_listen, old->metrics_listen, sizeof(next->metrics_listen));
  memcpy(next->metrics_host, old->metrics_host, sizeof(next->metrics_host));
  next->metrics_port = old->metrics_port;
  next->workers = old->workers;
  srv->cfg = *next;
  free(next);
  td_log_set_level((tdLogLevel)td_log_parse_level(srv->cfg.log_level));
  td_log(TD_LOG_INFO, "reload", "max_queued_steps_per_connection=%lld max_models_per_connection=%d",
         (long long)srv->cfg.max_queued_steps_per_connection, srv->cfg.max_models_per_connection);
  td_server_resume_paused(srv);
}

/* ---------------------------------------------------------------------------------------
 * drain and stop
 * ------------------------------------------------------------------------------------- */

/* begin (or, the second time, hurry) the drain */
void td_server_drain(tdServer* srv, const char* why) {
  if (srv->draining) {
    td_log(TD_LOG_WARN, "drain_forced", "why=%s", why);
    srv->drain_deadline_ns = 1;
    srv->drain_forced = 1;
  } else {
    srv->draining = 1;
    srv->drain_deadline_ns = td_now_ns() + (uint64_t)srv->cfg.drain_timeout_ms * 1000000ull;
    td_log(TD_LOG_INFO, "drain", "why=%s inflight=%lld connections=%d", why,
           (long long)srv->inflight, srv->nconn);
    td_listen_stop(srv);
  }
  td_server_check_drain(srv);
}

/* SIGTERM, SIGINT and SIGHUP: only the loop thread takes them (every other thread is
 * started with them blocked) */
static sigset_t stop_signals;

/* libuv's threadpool (model loads) starts on its first job: a job doing nothing, queued
 * while the signals are blocked, starts its threads blocking them too */
static uv_work_t pool_start;
static void pool_noop(uv_work_t* w) {
  (void)w;
}

/* close a handle unless it is closing already */
static void close_if_open(uv_handle_t* h) {
  if (!uv_is_closing(h)) {
    uv_close(h, NULL);
  }
}

/* stop: close every connection, join the workers, collect their last completions, close
 * the loop's own handles so uv_run returns */
static void stop_server(tdServer* srv) {
  srv->stopping = 1;
  while (srv->conns) {
    td_conn_close(srv->conns, 0);
  }
  td_workers_join(srv);
  on_async(&srv->async);

  // closing its last handle of a signal, libuv restores the signal's default action (for a
  // SIGTERM: death) until the ignoring below; only this thread takes these signals, so
  // they wait blocked here
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
  close_if_open((uv_handle_t*)&srv->async);
  close_if_open((uv_handle_t*)&srv->tick);
  close_if_open((uv_handle_t*)&srv->sig_term);
  close_if_open((uv_handle_t*)&srv->sig_int);
  close_if_open((uv_handle_t*)&srv->sig_hup);
  td_listen_stop(srv);
  td_metrics_http_stop(srv);

  // the stop is under way: later signals must not kill the process mid-cleanup (ignored;
  // those that came while libuv gave them back their default action, blocked meanwhile in
  // the only thread that takes them, are dropped as ignored ones)
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
}

/* the drain timeout passed: every unfinished request gets an ERROR_SHUTTING_DOWN frame */
static void fail_remaining(tdServer* srv) {
  for (tdConn* c = srv->conns; c; c = c->next) {
    while (!c->closing) {
      tdJob* j = c->jobs;
      while (j && j->finished) {
        j = j->jnext;
      }
      if (!j) {
        break;
      }
      td_job_fail(j, TD_E_SHUTTING_DOWN, "the server is stopping: drain_timeout_ms passed");
    }
  }
}

/* stop once nothing is in flight and everything is written, or at the deadline */
void td_server_check_drain(tdServer* srv) {
  if (!srv->draining || srv->stopping) {
    return;
  }
  int idle = srv->inflight == 0 && srv->unsent == 0;
  if (!idle && !srv->drain_expired && !srv->drain_forced && td_now_ns() >= srv->drain_deadline_ns) {
    // past the timeout: tell the clients, and give the frames a second to go out
    srv->drain_expired = 1;
    srv->drain_deadline_ns = td_now_ns() + 1000000000ull;
    td_log(TD_LOG_WARN, "drain_timeout", "inflight=%lld", (long long)srv->inflight);
    fail_remaining(srv);
    if (srv->stopping) {
      return;
    }
    idle = srv->inflight == 0 && srv->unsent == 0;
  }
  if (idle || td_now_ns() >= srv->drain_deadline_ns) {
    td_log(idle ? TD_LOG_INFO : TD_LOG_WARN, "stop", "inflight=%lld unsent=%lld",
           (long long)srv->inflight, (long long)srv->unsent);
    stop_server(srv);
  }
}

/* ---------------------------------------------------------------------------------------
 * startup
 * ------------------------------------------------------------------------------------- */

/* set up the loop's handles, the scheduler, the workers and the listeners */
static int start(tdServer* srv) {
  uv_async_init(srv->loop, &srv->async, on_async);
  srv->async.data = srv;
  uv_timer_init(srv->loop, &srv->tick);
  srv->tick.data = srv;
  uv_timer_start(&srv->tick, on_tick, TD_TICK_MS, TD_TICK_MS);
  uv_signal_init(srv->loop, &srv->sig_term);
  uv_signal_init(srv->loop, &srv->sig_int);
  srv->sig_term.data = srv->sig_int.data = srv;
  uv_signal_start(&srv->sig_term, on_signal, SIGTERM);
  uv_signal_start(&srv->sig_int, on_signal, SIGINT);
  uv_signal_init(srv->loop, &srv->sig_hup);
  srv->sig_hup.data = srv;
  uv_signal_start(&srv->sig_hup, on_hup, SIGHUP);
  if (td_workers_start(srv, srv->nworkers)) {
    td_log(TD_LOG_ERROR, "workers_failed", "n=%d", srv->nworkers);
    return -1;
  }
  return td_listen_start(srv) || td_metrics_http_start(srv) ? -1 : 0;
}

/* entry point */
int main(int argc, char** argv) {
  tdServer* srv = calloc(1, sizeof(tdServer));
  if (!srv) {
    return 1;
  }

  // configuration: file, flags, checks
  int rc = td_config_load(&srv->cfg, argc, argv);
  if (rc != 0 || td_config_finish(&srv->cfg)) {
    free(srv);
    return rc > 0 ? 0 : 2;
  }
  td_log_set_level((tdLogLevel)td_log_parse_level(srv->cfg.log_level));
#ifdef __GLIBC__
  // large blocks (mjData arenas, result frames) map and unmap their own pages: glibc would
  // otherwise raise its mmap threshold after the first frees and keep serving them from
  // per-thread heaps, whose fragments the process never gives back (RSS grew about 5 MB/s
  // under the soak's churn of models and sessions, and stays flat this way)
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  srv->argc = argc;
  srv->argv = argv;
  signal(SIGPIPE, SIG_IGN);
  td_engine_install_handlers();
  srv->nworkers = srv->cfg.workers > 0 ? srv->cfg.workers : (int)uv_available_parallelism();
  srv->start_s = td_now_s();
  srv->metrics.start_s = srv->start_s;
  uv_loop_t loop;
  if (uv_loop_init(&loop) || td_sched_init(&srv->sched) || td_cq_init(&srv->cq)) {
    free(srv);
    return 1;
  }
  srv->loop = &loop;

  // run until drained; the workers and libuv's threads are started blocking the stop
  // signals, which the loop thread then takes alone
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
  uv_queue_work(&loop, &pool_start, pool_noop, NULL);
  int started = start(srv);
  pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
  if (started == 0) {
    td_log(TD_LOG_INFO, "ready", "version=%s workers=%d pid=%d", TORSION_VERSION, srv->nworkers,
           (int)getpid());
    uv_run(&loop, UV_RUN_DEFAULT);
  } else {
    srv->exit_code = 1;
    srv->draining = 1;
    stop_server(srv);
    uv_run(&loop, UV_RUN_DEFAULT);
  }

  // free what is left
  td_registry_clear(&srv->reg);
  uv_loop_close(&loop);
  td_sched_destroy(&srv->sched);
  td_cq_destroy(&srv->cq);
  td_log(TD_LOG_INFO, "exit", "code=%d", srv->exit_code);
  rc = srv->exit_code;
  free(srv);
  return rc;
}
