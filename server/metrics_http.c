/* server/metrics_http.c — the optional Prometheus listener on the daemon's libuv loop.
 *
 * `metrics_listen = HOST:PORT` opens a TCP listener answering `GET /metrics` with the text
 * of metrics_text.c. Strict by design, since anyone who reaches the port can connect:
 * - one request per connection (`Connection: close`), parsed by http-parser
 *   (http_request.c) with at most TD_HTTP_MAX_HEAD bytes of head (431 beyond);
 * - anything but GET /metrics gets 404 or 405, a malformed request 400;
 * - with metrics_token_file, `Authorization: Bearer TOKEN` is required (401 otherwise);
 * - every connection is closed metrics_timeout_ms after it was accepted, whatever state it
 *   is in (a slow sender or a client that does not read its response holds nothing longer);
 * - at most metrics_max_connections at once: beyond, a 503 is tried once and the socket
 *   closed at once.
 * Everything runs on the loop thread; rendering reads counters and takes no time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http_request.h"
#include "log.h"
#include "metrics_http.h"

/* pending-connection backlog of the listener */
#define TD_MH_BACKLOG 64

typedef struct tdHttpConn_ tdHttpConn;

/* the listener and its connections */
struct tdMetricsHttp_ {
  tdServer* srv;
  uv_tcp_t listener;
  int on;
  tdHttpConn* conns; /* open connections (linked by prev/next) */
  int nconn;
};

/* one scrape connection */
struct tdHttpConn_ {
  uv_tcp_t tcp;
  uv_timer_t timer; /* closes the connection at its deadline */
  tdMetricsHttp* mh;
  tdHttpConn* prev;
  tdHttpConn* next;
  int counted;      /* counted in mh->nconn (not a refused one) */
  int closing;      /* uv_close issued on both handles */
  int open_handles; /* handles not yet closed */
  int answered;     /* a response is written or being written */
  tdHttpRequest req;
  char rbuf[2048];
  uv_write_t wreq;
  uv_shutdown_t sreq;
  char* resp; /* the response being written */
};

/* ---------------------------------------------------------------------------------------
 * closing
 * ------------------------------------------------------------------------------------- */

/* a handle closed: free the connection once both have */
static void on_handle_closed(uv_handle_t* h) {
  tdHttpConn* hc = h->data;
  if (--hc->open_handles > 0) {
    return;
  }
  free(hc->resp);
  free(hc);
}

/* close both handles (pending writes are cancelled) and unlink the connection */
static void conn_close(tdHttpConn* hc) {
  if (hc->closing) {
    return;
  }
  hc->closing = 1;
  tdMetricsHttp* mh = hc->mh;
  if (hc->counted) {
    if (hc->prev) {
      hc->prev->next = hc->next;
    } else {
      mh->conns = hc->next;
    }
    if (hc->next) {
      hc->next->prev = hc->prev;
    }
    mh->nconn--;
  }
  uv_close((uv_handle_t*)&hc->timer, on_handle_closed);
  uv_close((uv_handle_t*)&hc->tcp, on_handle_closed);
}

/* the deadline passed: close, whatever the connection was doing */
static void on_deadline(uv_timer_t* t) {
  tdHttpConn* hc = t->data;
  td_log(TD_LOG_DEBUG, "metrics_timeout", "received=%zu answered=%d", hc->req.received,
         hc->answered);
  conn_close(hc);
}

/* ---------------------------------------------------------------------------------------
 * the response
 * ------------------------------------------------------------------------------------- */

/* the response is sent: half-close, then close */
static void on_shutdown(uv_shutdown_t* s, int status) {
  (void)status;
  conn_close(s->data);
}

/* the response is written (or the write was cancelled) */
static void on_written(uv_write_t* w, int status) {
  tdHttpConn* hc = w->data;
  if (status < 0 || hc->closing || uv_shutdown(&hc->sreq, (uv_stream_t*)&hc->tcp, on_shutdown)) {
    conn_close(hc);
  }
}

/* write a complete response with the given status; the body is the exposition for 200 */
static void respond(tdHttpConn* hc, int status) {
  tdServer* srv = hc->mh->srv;
  hc->answered = 1;
  uv_read_stop((uv_stream_t*)&hc->tcp);
  tdTextBuf body = {0};
  const char* ctype = "text/plain; charset=utf-8";
  if (status == 200) {
    ctype = "text/plain; version=0.0.4; charset=utf-8";
    if (td_metrics_render(srv, &body)) {
      status = 503;
      body.len = 0;
    }
  }
  if (status != 200) {
    free(body.data);
    body = (tdTextBuf){0};
    body.data = malloc(64);
    body.len =
        body.data ? (size_t)snprintf(body.data, 64, "%d %s\n", status, td_http_reason(status)) : 0;
  }

  // status line and headers, then the body
  char head[512];
  int n = snprintf(head, sizeof(head),
                   "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                   "Connection: close\r\nCache-Control: no-store\r\n%s%s\r\n",
                   status, td_http_reason(status), ctype, body.len,
                   status == 405 ? "Allow: GET\r\n" : "",
                   status == 401 ? "WWW-Authenticate: Bearer\r\n" : "");
  hc->resp = malloc((size_t)n + body.len);
  if (!hc->resp) {
    free(body.data);
    conn_close(hc);
    return;
  }
  memcpy(hc->resp, head, (size_t)n);
  if (body.len) {
    memcpy(hc->resp + n, body.data, body.len);
  }
  free(body.data);
  uv_buf_t buf = uv_buf_init(hc->resp, (unsigned)((size_t)n + body.len));
  hc->wreq.data = hc;
  hc->sreq.data = hc;
  if (status != 200) {
    td_log(TD_LOG_DEBUG, "metrics_refused", "status=%d", status);
  }
  if (uv_write(&hc->wreq, (uv_stream_t*)&hc->tcp, &buf, 1, on_written)) {
    conn_close(hc);
  }
}

/* ---------------------------------------------------------------------------------------
 * reading the request
 * ------------------------------------------------------------------------------------- */

/* every read goes into the connection's own small buffer */
static void on_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  (void)suggested;
  tdHttpConn* hc = h->data;
  *buf = uv_buf_init(hc->rbuf, sizeof(hc->rbuf));
}

/* bytes arrived: parse; answer once the head is complete or broken */
static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  tdHttpConn* hc = s->data;
  if (nread < 0) {
    conn_close(hc);
    return;
  }
  if (nread == 0 || hc->answered) {
    return;
  }
  tdHttpState st = td_http_request_feed(&hc->req, buf->base, (size_t)nread);
  if (st != TD_HTTP_READING) {
    respond(hc, td_http_request_status(&hc->req, hc->mh->srv->cfg.metrics_token));
  }
}

/* a new scrape connection */
static void on_connection(uv_stream_t* server, int status) {
  tdMetricsHttp* mh = server->data;
  if (status < 0) {
    td_log(TD_LOG_WARN, "accept_error", "listener=metrics err=%s", uv_err_name(status));
    return;
  }
  tdHttpConn* hc = calloc(1, sizeof(*hc));
  if (!hc) {
    return;
  }
  hc->mh = mh;
  uv_tcp_init(mh->srv->loop, &hc->tcp);
  uv_timer_init(mh->srv->loop, &hc->timer);
  hc->tcp.data = hc->timer.data = hc;
  hc->open_handles = 2;
  if (uv_accept(server, (uv_stream_t*)&hc->tcp)) {
    conn_close(hc);
    return;
  }

  // over the cap (or stopping): one try at a 503 without waiting, then close
  if (mh->nconn >= mh->srv->cfg.metrics_max_connections || mh->srv->stopping) {
    static const char busy[] =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    uv_buf_t b = uv_buf_init((char*)busy, sizeof(busy) - 1);
    uv_try_write((uv_stream_t*)&hc->tcp, &b, 1);
    td_log(TD_LOG_DEBUG, "metrics_refused", "status=503 connections=%d", mh->nconn);
    conn_close(hc);
    return;
  }
  hc->counted = 1;
  hc->next = mh->conns;
  if (mh->conns) {
    mh->conns->prev = hc;
  }
  mh->conns = hc;
  mh->nconn++;
  td_http_request_init(&hc->req);
  uv_timer_start(&hc->timer, on_deadline, (uint64_t)mh->srv->cfg.metrics_timeout_ms, 0);
  if (uv_read_start((uv_stream_t*)&hc->tcp, on_alloc, on_read)) {
    conn_close(hc);
  }
}

/* ---------------------------------------------------------------------------------------
 * the listener
 * ------------------------------------------------------------------------------------- */

/* the listener closed: free it */
static void on_listener_closed(uv_handle_t* h) {
  free(h->data);
}

/* open it when configured */
int td_metrics_http_start(tdServer* srv) {
  // the start as wall-clock time, for process_start_time_seconds
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  srv->metrics.start_wall_s =
      (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - (td_now_s() - srv->start_s);
  const tdConfig* cfg = &srv->cfg;
  if (!cfg->metrics_host[0]) {
    return 0;
  }
  const char* host = strcmp(cfg->metrics_host, "localhost") ? cfg->metrics_host : "127.0.0.1";
  struct sockaddr_storage addr;
  int rc = strchr(host, ':') ? uv_ip6_addr(host, cfg->metrics_port, (struct sockaddr_in6*)&addr)
                             : uv_ip4_addr(host, cfg->metrics_port, (struct sockaddr_in*)&addr);
  tdMetricsHttp* mh = calloc(1, sizeof(*mh));
  if (!mh) {
    return -1;
  }
  mh->srv = srv;
  if (rc == 0) {
    uv_tcp_init(srv->loop, &mh->listener);
    mh->listener.data = mh;
    mh->on = 1;
    srv->mhttp = mh;
    rc = uv_tcp_bind(&mh->listener, (struct sockaddr*)&addr, 0);
  }
  if (rc == 0) {
    rc = uv_listen((uv_stream_t*)&mh->listener, TD_MH_BACKLOG, on_connection);
  }
  if (rc) {
    td_log(TD_LOG_ERROR, "listen_failed", "metrics=%s err=%s", cfg->metrics_listen,
           uv_err_name(rc));
    if (!mh->on) {
      free(mh);
    }
    return -1;
  }
  td_log(TD_LOG_INFO, "listen", "metrics=%s token=%s", cfg->metrics_listen,
         cfg->metrics_token[0] ? "required" : "none");
  return 0;
}

/* close the listener and every connection */
void td_metrics_http_stop(tdServer* srv) {
  tdMetricsHttp* mh = srv->mhttp;
  if (!mh) {
    return;
  }
  srv->mhttp = NULL;
  while (mh->conns) {
    conn_close(mh->conns);
  }
  uv_close((uv_handle_t*)&mh->listener, on_listener_closed);
}
