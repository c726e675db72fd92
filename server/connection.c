/* server/connection.c — one client connection: reading, framing, writing, back-pressure.
 *
 * Frames are a 4-byte big-endian length and a payload. Bytes accumulate in a per-connection
 * buffer grown to hold the frame being read; complete frames are dispatched in order. A
 * frame longer than max_frame_bytes breaks the framing: the client gets one BAD_FRAME error
 * and the connection closes once it is written. Back-pressure: when the connection (or the
 * server as a whole) is over its limits on unfinished requests, queued work or unsent
 * bytes, the connection stops reading and stops dispatching buffered frames until it is
 * back under them. A TLS connection (tls.c) reads ciphertext into its TLS buffer and gets
 * the decrypted bytes appended to the frame buffer; its frames are encrypted on the way out,
 * so the framing above sees plaintext either way. */
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "log.h"
#include "quota.h"
#include "server.h"
#include "session.h"

/* read granularity and the buffer size kept while idle */
#define TD_READ_CHUNK (64 * 1024)

/* one uv_write in flight */
typedef struct tdWrite_ {
  uv_write_t req;
  tdConn* c;
  char* buf;
  size_t len;
} tdWrite;

static void process_frames(tdConn* c);

/* ---------------------------------------------------------------------------------------
 * lifetime
 * ------------------------------------------------------------------------------------- */

/* allocate and link */
tdConn* td_conn_new(tdServer* srv) {
  tdConn* c = calloc(1, sizeof(tdConn));
  if (!c) {
    return NULL;
  }
  c->srv = srv;
  c->cid = ++srv->next_cid;
  c->connect_ns = c->last_io_ns = td_now_ns();
  c->principal = -1;
  c->h.handle.data = c;
  c->next = srv->conns;
  if (srv->conns) {
    srv->conns->prev = c;
  }
  srv->conns = c;
  srv->nconn++;
  return c;
}

/* unlink from the server's list */
static void unlink_conn(tdConn* c) {
  tdServer* srv = c->srv;
  if (c->prev)
    c->prev->next = c->next;
  else if (srv->conns == c)
    srv->conns = c->next;
  if (c->next)
    c->next->prev = c->prev;
  c->prev = c->next = NULL;
}

/* the handle is closed: free */
static void on_closed(uv_handle_t* h) {
  tdConn* c = h->data;
  td_tls_free(c->tls);
  free(c->rbuf);
  free(c);
}

/* close the handle (once) and leave the server's list */
static void close_handle(tdConn* c) {
  if (!c->handle_closed) {
    c->handle_closed = 1;
    unlink_conn(c);
    uv_close(&c->h.handle, on_closed);
  }
}

static void tls_flush(tdConn* c);

/* half-close once everything queued is written (lingering connections); TLS: frames waiting
 * for the handshake hold it off (the linger time bounds that), and close_notify goes first */
static void maybe_shutdown(tdConn* c) {
  if (c->lingering && !c->shut && !c->handle_closed && c->unsent == 0) {
    if (c->tls && td_tls_holds_pending(c->tls)) {
      return;
    }
    if (c->tls && td_tls_close_notify(c->tls)) {
      tls_flush(c);
      if (c->unsent > 0 || c->handle_closed) {
        return;
      }
    }
    c->shut = 1;
    if (uv_shutdown(&c->shutdown_req, &c->h.stream, NULL)) {
      close_handle(c);
    }
  }
}

/* leave the paused state (reading is managed by the caller) */
static void unpause(tdConn* c) {
  if (c->paused) {
    c->paused = 0;
    c->srv->npaused--;
  }
}

static void on_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf);
static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf);

/* close: cancel the jobs, close the sessions, then close (or linger) */
void td_conn_close(tdConn* c, int graceful) {
  tdServer* srv = c->srv;
  if (!c->closing) {
    c->closing = 1;
    unpause(c);
    srv->nconn--;
    td_log(TD_LOG_DEBUG, "disconnect", "conn=%llu peer=%s", (unsigned long long)c->cid, c->peer);

    // sessions first (their waiting calls are cancelled), then every job; both outlive
    // the connection until the workers let go of them
    td_session_conn_closed(c);
    tdJob* next;
    for (tdJob* j = c->jobs; j; j = next) {
      next = j->jnext;
      td_job_detach(j);
    }
    c->jobs = NULL;

    // its model references (the last holder unloads a model)
    td_quota_conn_closed(c);
  }

  // graceful: keep reading (to drop) until the peer closes or the linger time is over
  if (graceful && !c->lingering && !c->handle_closed && !srv->stopping) {
    c->lingering = 1;
    c->linger_deadline_ns = td_now_ns() + 1000000000ull;
    c->rpos = c->rlen = 0;
    if (!c->reading && uv_read_start(&c->h.stream, on_alloc, on_read) == 0) {
      c->reading = 1;
    }
    maybe_shutdown(c);
  } else if (!graceful || srv->stopping) {
    close_handle(c);
  }
  td_server_check_drain(srv);
}

/* close the lingering connections whose time is over */
void td_conn_reap_lingering(tdServer* srv) {
  uint64_t now = td_now_ns();
  tdConn* next;
  for (tdConn* c = srv->conns; c; c = next) {
    next = c->next;
    if (c->lingering && now >= c->linger_deadline_ns) {
      close_handle(c);
    }
  }
}

/* an accepted handle that failed to start */
void td_conn_discard(tdConn* c) {
  c->closing = 1;
  c->srv->nconn--;
  close_handle(c);
}

/* ---------------------------------------------------------------------------------------
 * reading and framing
 * ------------------------------------------------------------------------------------- */

/* make room for `want` more bytes at rlen (compact, then grow); 0 when there is none */
static int reserve(tdConn* c, size_t want) {
  size_t avail = c->rlen - c->rpos;
  if (c->rpos > 0 && c->rcap - c->rlen < want) {
    memmove(c->rbuf, c->rbuf + c->rpos, avail);
    c->rlen = avail;
    c->rpos = 0;
  }
  if (c->rcap - c->rlen < want) {
    char* grown = realloc(c->rbuf, c->rlen + want);
    if (grown) {
      c->rbuf = grown;
      c->rcap = c->rlen + want;
    }
  }
  return c->rbuf && c->rcap > c->rlen;
}

/* give libuv room for the rest of the current frame (at least one read chunk); a TLS
 * connection reads ciphertext into its own buffer */
static void on_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  (void)suggested;
  tdConn* c = h->data;
  if (c->tls) {
    *buf = uv_buf_init(td_tls_read_buffer(c->tls), TD_TLS_READ_CHUNK);
    return;
  }
  if (c->lingering) {
    c->rpos = c->rlen = 0;
  }
  size_t avail = c->rlen - c->rpos;

  // room for the rest of the frame being read (when its length is known and legal), grown
  // at most by doubling so a client announcing a large frame does not get the memory before
  // it sends the bytes
  size_t want = TD_READ_CHUNK;
  if (avail >= 4) {
    uint64_t flen = td_frame_len((const uint8_t*)c->rbuf + c->rpos);
    if (flen <= (uint64_t)c->srv->cfg.max_frame_bytes && 4 + flen > avail &&
        4 + flen - avail > want) {
      size_t missing = (size_t)(4 + flen - avail);
      want = missing < avail ? missing : (avail > want ? avail : want);
    }
  }

  reserve(c, want);
  *buf =
      uv_buf_init(c->rbuf ? c->rbuf + c->rlen : NULL, c->rbuf ? (unsigned)(c->rcap - c->rlen) : 0);
}

/* ciphertext arrived on a TLS connection: advance the handshake, append the plaintext to the
 * frame buffer (or drop it while lingering), send what TLS produced, then the frames */
static void tls_received(tdConn* c, const char* data, size_t n) {
  tdTls* t = c->tls;
  int was_established = td_tls_established(t);
  int rc = td_tls_feed(t, data, n);
  size_t got = 0;
  while (rc == 0) {
    long k;
    if (c->lingering) {
      char scratch[4096];
      k = td_tls_read(t, scratch, sizeof(scratch));
    } else if (reserve(c, TD_READ_CHUNK)) {
      k = td_tls_read(t, c->rbuf + c->rlen, c->rcap - c->rlen);
      c->rlen += k > 0 ? (size_t)k : 0;
    } else {
      k = -1;
    }
    rc = k < 0 ? -1 : 0;
    if (k <= 0) {
      break;
    }
    got += (size_t)k;
  }
  if (!was_established && td_tls_established(t)) {
    td_log(TD_LOG_DEBUG, "tls", "conn=%llu peer=%s version=%s", (unsigned long long)c->cid, c->peer,
           td_tls_version(t));
  }
  tls_flush(c);

  // a failed handshake or record closes this connection only (its alert goes out first)
  if (rc) {
    if (!c->closing) {
      char q[300];
      td_log(TD_LOG_INFO, "tls_failed", "conn=%llu peer=%s why=%s", (unsigned long long)c->cid,
             c->peer, td_log_quote(q, sizeof(q), td_tls_reason(t)));
      td_conn_close(c, 1);
    }
    return;
  }
  if (got == 0 || c->lingering || c->handle_closed) {
    return;
  }
  if (!c->frame_start_ns) {
    c->frame_start_ns = c->last_io_ns;
  }
  process_frames(c);
}

/* bytes arrived (or the peer went away) */
static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  tdConn* c = s->data;
  if (nread < 0) {
    if (nread != UV_EOF) {
      td_log(TD_LOG_DEBUG, "read_error", "conn=%llu err=%s", (unsigned long long)c->cid,
             uv_err_name((int)nread));
    }
    td_conn_close(c, 0);
    return;
  }
  if (nread == 0) {
    return;
  }

  // a lingering connection drops what it reads (up to a bound)
  if (c->lingering) {
    c->discarded += (size_t)nread;
    if (c->discarded > (16u << 20)) {
      close_handle(c);
      return;
    }
    if (c->tls) {
      tls_received(c, buf->base, (size_t)nread);
    }
    return;
  }
  if (c->tls) {
    c->last_io_ns = td_now_ns();
    c->srv->metrics.bytes_in += (uint64_t)nread;
    tls_received(c, buf->base, (size_t)nread);
    return;
  }
  c->rlen += (size_t)nread;
  c->last_io_ns = td_now_ns();
  if (!c->frame_start_ns) {
    c->frame_start_ns = c->last_io_ns;
  }
  c->srv->metrics.bytes_in += (uint64_t)nread;
  process_frames(c);
}

/* over any limit that stops reading: the connection's own quotas, or a global limit while
 * the connection itself has work queued or output unsent (a global limit never pauses a
 * connection that holds nothing, so a bystander's request is always read) */
static int over_limits(const tdConn* c) {
  const tdServer* srv = c->srv;
  const tdConfig* cfg = &srv->cfg;
  return c->ninflight >= cfg->max_inflight_per_connection ||
         (int64_t)c->unsent >= cfg->max_unsent_bytes_per_connection ||
         c->queued_steps >= cfg->max_queued_steps_per_connection ||
         (c->principal >= 0 &&
          srv->principals[c->principal].queued_steps >= cfg->max_queued_steps_per_connection) ||
         (c->queued_steps > 0 && srv->queued_steps >= cfg->max_queued_steps) ||
         (c->unsent > 0 && srv->unsent >= cfg->max_unsent_bytes);
}

/* the scheduler starts no chunk of a connection whose unsent output is over its limit */
static void update_blocked(tdConn* c) {
  if (!c->handle_closed) {
    td_sched_set_blocked(&c->srv->sched, &c->sq,
                         (int64_t)c->unsent >= c->srv->cfg.max_unsent_bytes_per_connection);
  }
}

/* stop reading until the limits allow */
static void pause_conn(tdConn* c) {
  if (!c->paused) {
    if (c->reading) {
      uv_read_stop(&c->h.stream);
      c->reading = 0;
    }
    c->paused = 1;
    c->srv->npaused++;
  }
}

/* dispatch every complete frame in the buffer while allowed */
static void process_frames(tdConn* c) {
  if (c->processing) {
    return;
  }
  c->processing = 1;
  while (!c->closing && !c->paused && c->rlen - c->rpos >= 4) {
    size_t avail = c->rlen - c->rpos;
    const uint8_t* p = (const uint8_t*)c->rbuf + c->rpos;
    uint32_t flen = 0;
    int state = td_frame_split(p, avail, c->srv->cfg.max_frame_bytes, &flen);

    // a length beyond the limit breaks the framing: answer once and close
    if (state == TD_FRAME_TOO_LONG) {
      td_conn_send_error(c, td_peek_id(p + 4, avail - 4), TD_E_BAD_FRAME,
                         "frame of %u bytes exceeds max_frame_bytes %lld", flen,
                         (long long)c->srv->cfg.max_frame_bytes);
      td_conn_close(c, 1);
      break;
    }
    if (state == TD_FRAME_MORE) {
      break;
    }
    c->rpos += 4 + (size_t)flen;
    c->got_frame = 1;
    c->frame_start_ns = c->rlen > c->rpos ? td_now_ns() : 0;
    td_dispatch_frame(c, (const uint8_t*)c->rbuf + c->rpos - flen, flen);
    if (!c->closing && over_limits(c)) {
      pause_conn(c);
    }
  }

  // reset (and shrink a large idle buffer)
  if (c->rpos == c->rlen) {
    c->rpos = c->rlen = 0;
    if (c->rcap > 4 * TD_READ_CHUNK) {
      free(c->rbuf);
      c->rbuf = NULL;
      c->rcap = 0;
    }
  }
  c->processing = 0;
}

/* start reading an accepted connection */
void td_conn_start(tdConn* c) {
  if (uv_read_start(&c->h.stream, on_alloc, on_read) == 0) {
    c->reading = 1;
  } else {
    td_conn_close(c, 0);
  }
}

/* resume when back under the limits */
void td_conn_maybe_resume(tdConn* c) {
  if (!c->paused || c->closing || over_limits(c)) {
    return;
  }
  c->paused = 0;
  c->srv->npaused--;
  if (c->frame_start_ns) {
    c->frame_start_ns = td_now_ns();  // the read timeout runs only while reading
  }

  // buffered frames first; reading restarts unless that paused the connection again
  process_frames(c);
  if (!c->closing && !c->paused && !c->reading &&
      uv_read_start(&c->h.stream, on_alloc, on_read) == 0) {
    c->reading = 1;
  }
}

/* the header, read and idle timeouts */
void td_conn_check_timeouts(tdServer* srv) {
  const tdConfig* cfg = &srv->cfg;
  uint64_t now = td_now_ns(), ms = 1000000ull;
  tdConn* next;
  for (tdConn* c = srv->conns; c; c = next) {
    next = c->next;
    if (c->closing) {
      continue;
    }
    const char* why = NULL;
    if (cfg->header_timeout_ms > 0 && !c->got_frame &&
        now - c->connect_ns > (uint64_t)cfg->header_timeout_ms * ms) {
      why = "header_timeout_ms";
    } else if (cfg->read_timeout_ms > 0 && c->frame_start_ns && !c->paused &&
               now - c->frame_start_ns > (uint64_t)cfg->read_timeout_ms * ms) {
      why = "read_timeout_ms";
    } else if (cfg->idle_timeout_ms > 0 && c->ninflight == 0 && c->unsent == 0 &&
               now - c->last_io_ns > (uint64_t)cfg->idle_timeout_ms * ms) {
      why = "idle_timeout_ms";
    }
    if (why) {
      td_log(TD_LOG_INFO, "timeout", "conn=%llu peer=%s which=%s", (unsigned long long)c->cid,
             c->peer, why);
      td_conn_send_error(c, 0, TD_E_DEADLINE_EXCEEDED, "connection closed: %s passed", why);
      td_conn_close(c, 1);
    }
  }
}

/* a paused connection is not read, so its peer's close would go unseen (and its queued work
 * would run for nobody): ask the socket whether the peer has hung up */
void td_conn_check_hangups(tdServer* srv) {
  tdConn* next;
  for (tdConn* c = srv->conns; c; c = next) {
    next = c->next;
    uv_os_fd_t fd;
    if (!c->paused || c->closing || uv_fileno(&c->h.handle, &fd) != 0) {
      continue;
    }
    struct pollfd p = {.fd = fd, .events = POLLRDHUP};
    if (poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR))) {
      td_log(TD_LOG_DEBUG, "hangup", "conn=%llu peer=%s", (unsigned long long)c->cid, c->peer);
      td_conn_close(c, 0);
    }
  }
}

/* try every paused connection */
void td_server_resume_paused(tdServer* srv) {
  if (srv->npaused == 0) {
    return;
  }
  tdConn* next;
  for (tdConn* c = srv->conns; c; c = next) {
    next = c->next;
    td_conn_maybe_resume(c);
  }
}

/* ---------------------------------------------------------------------------------------
 * writing
 * ------------------------------------------------------------------------------------- */

/* a write completed (or was cancelled by the close) */
static void on_write(uv_write_t* req, int status) {
  tdWrite* w = (tdWrite*)req;
  tdConn* c = w->c;
  tdServer* srv = c->srv;
  c->unsent -= w->len;
  srv->unsent -= (int64_t)w->len;
  free(w->buf);
  free(w);
  update_blocked(c);

  // a failed write ends the connection; a lingering one half-closes once everything is out
  if (status < 0) {
    td_conn_close(c, 0);
  } else {
    maybe_shutdown(c);
  }
  if (!c->closing) {
    td_conn_maybe_resume(c);
  }
  td_server_resume_paused(srv);
  td_server_check_drain(srv);
}

/* queue bytes for the socket as they are */
static void write_raw(tdConn* c, char* frame, size_t len) {
  if (c->handle_closed || c->shut) {
    free(frame);
    return;
  }
  tdWrite* w = malloc(sizeof(tdWrite));
  if (!w) {
    free(frame);
    td_conn_close(c, 0);
    return;
  }
  w->c = c;
  w->buf = frame;
  w->len = len;
  uv_buf_t b = uv_buf_init(frame, (unsigned)len);
  c->unsent += len;
  c->srv->unsent += (int64_t)len;
  c->srv->metrics.bytes_out += len;
  update_blocked(c);
  int rc = uv_write(&w->req, &c->h.stream, &b, 1, on_write);
  if (rc) {
    c->unsent -= len;
    c->srv->unsent -= (int64_t)len;
    free(frame);
    free(w);
    td_conn_close(c, 0);
  }
}

/* hand what TLS produced (handshake messages, records, alerts) to the socket */
static void tls_flush(tdConn* c) {
  char* out;
  size_t n = td_tls_take_output(c->tls, &out);
  if (n > 0) {
    write_raw(c, out, n);
  }
}

/* queue a frame (encrypted first on a TLS connection) */
void td_conn_write(tdConn* c, char* frame, size_t len) {
  if (!c->tls || c->handle_closed || c->shut) {
    write_raw(c, frame, len);
    return;
  }
  int rc = td_tls_write(c->tls, frame, len);
  free(frame);
  if (rc) {
    char q[300];
    td_log(TD_LOG_WARN, "tls_failed", "conn=%llu peer=%s why=%s", (unsigned long long)c->cid,
           c->peer, td_log_quote(q, sizeof(q), td_tls_reason(c->tls)));
    td_conn_close(c, 0);
    return;
  }
  tls_flush(c);
}

/* an error frame */
void td_conn_send_error(tdConn* c, uint64_t id, int code, const char* fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  char* frame;
  size_t len;
  if (td_pack_error(id, code, msg, &frame, &len) == 0) {
    td_conn_write(c, frame, len);
  }
  if (td_log_enabled(TD_LOG_DEBUG)) {
    char q[600];
    td_log(TD_LOG_DEBUG, "request_error", "conn=%llu id=%llu code=%d msg=%s",
           (unsigned long long)c->cid, (unsigned long long)id, code,
           td_log_quote(q, sizeof(q), msg));
  }
}
