/* server/listen.c — the Unix and TCP listeners and accepting connections.
 *
 * The Unix socket is created with mode 0600 (umask during bind, then chmod); a stale socket
 * file left by a dead daemon is replaced, a live one is not. TCP listens only when a port
 * is configured, on the configured address (loopback by default); TCP connections must
 * present the token in Hello when one is configured. With tls_cert and tls_key set, every
 * TCP connection speaks TLS (tls.c) from its first byte; the Unix socket stays plain. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "job.h"
#include "log.h"
#include "server.h"

/* pending-connection backlog */
#define TD_BACKLOG 256

/* describe the peer of a TCP connection */
static void tcp_peer(tdConn* c) {
  struct sockaddr_storage ss;
  int len = sizeof(ss);
  char host[64] = "?";
  if (uv_tcp_getpeername(&c->h.tcp, (struct sockaddr*)&ss, &len) == 0) {
    if (ss.ss_family == AF_INET6) {
      uv_ip6_name((struct sockaddr_in6*)&ss, host, sizeof(host));
      snprintf(c->peer, sizeof(c->peer), "[%s]:%d", host,
               ntohs(((struct sockaddr_in6*)&ss)->sin6_port));
      return;
    }
    uv_ip4_name((struct sockaddr_in*)&ss, host, sizeof(host));
    snprintf(c->peer, sizeof(c->peer), "%s:%d", host, ntohs(((struct sockaddr_in*)&ss)->sin_port));
    return;
  }
  snprintf(c->peer, sizeof(c->peer), "tcp");
}

/* a new connection on either listener */
static void on_connection(uv_stream_t* server, int status) {
  tdServer* srv = server->data;
  int tcp = server == (uv_stream_t*)&srv->tcp_listener;
  if (status < 0) {
    td_log(TD_LOG_WARN, "accept_error", "err=%s", uv_err_name(status));
    return;
  }
  tdConn* c = td_conn_new(srv);
  if (!c) {
    return;
  }

  // accept into a handle of the listener's kind
  int rc = tcp ? uv_tcp_init(srv->loop, &c->h.tcp) : uv_pipe_init(srv->loop, &c->h.pipe, 0);
  if (rc == 0) {
    c->h.handle.data = c;
    rc = uv_accept(server, &c->h.stream);
  }
  if (rc) {
    td_conn_discard(c);
    return;
  }
  if (tcp && srv->tls_ctx && !(c->tls = td_tls_new(srv->tls_ctx))) {
    td_log(TD_LOG_WARN, "tls_failed", "conn=%llu why=\"out of memory\"",
           (unsigned long long)c->cid);
    td_conn_discard(c);
    return;
  }
  if (tcp) {
    uv_tcp_nodelay(&c->h.tcp, 1);
    tcp_peer(c);
    c->auth_required = srv->cfg.token[0] != '\0';
  } else {
    snprintf(c->peer, sizeof(c->peer), "unix");
  }
  td_log(TD_LOG_DEBUG, "connect", "conn=%llu peer=%s", (unsigned long long)c->cid, c->peer);

  // over the connection limit or draining: one error frame, then close
  if (srv->nconn > srv->cfg.max_connections || srv->draining) {
    td_conn_send_error(c, 0, srv->draining ? TD_E_SHUTTING_DOWN : TD_E_LIMIT_EXCEEDED,
                       srv->draining ? "the server is draining" : "max_connections reached");
    td_conn_close(c, 1);
    return;
  }
  td_conn_start(c);
}

/* a socket file exists: remove it only when it is a socket nobody listens on */
static int clear_stale_socket(const char* path) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    return 0;
  }
  if (!S_ISSOCK(st.st_mode)) {
    td_log(TD_LOG_ERROR, "listen_failed", "path=%s why=\"exists and is not a socket\"", path);
    return -1;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof(sa));
  sa.sun_family = AF_UNIX;
  snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
  int live = fd >= 0 && connect(fd, (struct sockaddr*)&sa, sizeof(sa)) == 0;
  if (fd >= 0) {
    close(fd);
  }
  if (live) {
    td_log(TD_LOG_ERROR, "listen_failed", "path=%s why=\"another daemon is listening\"", path);
    return -1;
  }
  unlink(path);
  return 0;
}

/* the Unix listener */
static int listen_unix(tdServer* srv) {
  const char* path = srv->cfg.socket;
  if (strlen(path) >= sizeof(((struct sockaddr_un*)0)->sun_path)) {
    td_log(TD_LOG_ERROR, "listen_failed", "path=%s why=\"socket path too long\"", path);
    return -1;
  }
  if (clear_stale_socket(path)) {
    return -1;
  }
  uv_pipe_init(srv->loop, &srv->unix_listener, 0);
  srv->unix_listener.data = srv;
  srv->unix_on = 1;

  // bind with a umask that leaves only the owner's bits, then make sure of 0600
  mode_t old = umask(0177);
  int rc = uv_pipe_bind(&srv->unix_listener, path);
  umask(old);
  srv->unix_bound = rc == 0;
  if (rc == 0 && chmod(path, 0600) != 0) {
    rc = UV_EPERM;
  }
  if (rc == 0) {
    rc = uv_listen((uv_stream_t*)&srv->unix_listener, TD_BACKLOG, on_connection);
  }
  if (rc) {
    td_log(TD_LOG_ERROR, "listen_failed", "path=%s err=%s", path, uv_err_name(rc));
    return -1;
  }
  td_log(TD_LOG_INFO, "listen", "unix=%s mode=0600", path);
  return 0;
}

/* the TCP listener (with its TLS context when a certificate is configured) */
static int listen_tcp(tdServer* srv) {
  const char* host = srv->cfg.tcp_address;
  if (srv->cfg.tls_cert[0]) {
    char err[512];
    srv->tls_ctx = td_tls_ctx_new(srv->cfg.tls_cert, srv->cfg.tls_key, err, sizeof(err));
    if (!srv->tls_ctx) {
      char q[600];
      td_log(TD_LOG_ERROR, "listen_failed", "tcp=%s:%d why=%s", host, srv->cfg.tcp_port,
             td_log_quote(q, sizeof(q), err));
      return -1;
    }
  }
  struct sockaddr_storage addr;
  int rc = strchr(host, ':') ? uv_ip6_addr(host, srv->cfg.tcp_port, (struct sockaddr_in6*)&addr)
                             : uv_ip4_addr(strcmp(host, "localhost") ? host : "127.0.0.1",
                                           srv->cfg.tcp_port, (struct sockaddr_in*)&addr);
  if (rc == 0) {
    uv_tcp_init(srv->loop, &srv->tcp_listener);
    srv->tcp_listener.data = srv;
    srv->tcp_on = 1;
    rc = uv_tcp_bind(&srv->tcp_listener, (struct sockaddr*)&addr, 0);
  }
  if (rc == 0) {
    rc = uv_listen((uv_stream_t*)&srv->tcp_listener, TD_BACKLOG, on_connection);
  }
  if (rc) {
    td_log(TD_LOG_ERROR, "listen_failed", "tcp=%s:%d err=%s", host, srv->cfg.tcp_port,
           uv_err_name(rc));
    return -1;
  }
  td_log(TD_LOG_INFO, "listen", "tcp=%s:%d token=%s tls=%s", host, srv->cfg.tcp_port,
         srv->cfg.token[0] ? "required" : "none", srv->tls_ctx ? "on" : "off");
  return 0;
}

/* open what is configured */
int td_listen_start(tdServer* srv) {
  if (srv->cfg.socket[0] && listen_unix(srv)) {
    return -1;
  }
  if (srv->cfg.tcp_port && listen_tcp(srv)) {
    return -1;
  }
  return 0;
}

/* close the listeners */
void td_listen_stop(tdServer* srv) {
  if (srv->unix_on) {
    srv->unix_on = 0;
    uv_close((uv_handle_t*)&srv->unix_listener, NULL);
    if (srv->unix_bound) {
      unlink(srv->cfg.socket);
      srv->unix_bound = 0;
    }
  }
  if (srv->tcp_on) {
    srv->tcp_on = 0;
    uv_close((uv_handle_t*)&srv->tcp_listener, NULL);
  }

  // open TLS connections keep their own reference to the context
  td_tls_ctx_free(srv->tls_ctx);
  srv->tls_ctx = NULL;
}
