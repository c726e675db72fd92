/* clients/c/torsion_client.c — the blocking torsiond client (see torsion_client.h): connecting
 * (Unix socket, TCP, or TCP with TLS through OpenSSL), raw frames, and calls. */
#include "torsion_client.h"
#include "client_internal.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* largest response frame accepted */
#define TNC_MAX_FRAME (0xFFFFFFFFull)

/* ---------------------------------------------------------------------------------------
 * errors and connection
 * ------------------------------------------------------------------------------------- */

/* record a failure and return -1 */
int tnc__fail(tnClient* c, int code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->error, sizeof(c->error), fmt, ap);
  va_end(ap);
  c->code = code;
  return -1;
}

/* the last failure's message and code */
const char* tnc_error(const tnClient* c) {
  return c->error;
}

int tnc_error_code(const tnClient* c) {
  return c->code;
}

/* traffic counters */
uint64_t tnc_bytes_sent(const tnClient* c) {
  return c->sent;
}

uint64_t tnc_bytes_received(const tnClient* c) {
  return c->received;
}

/* a Unix socket */
static int connect_unix(const char* path, char* err, size_t errsz) {
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof(sa));
  sa.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof(sa.sun_path)) {
    snprintf(err, errsz, "socket path too long: %s", path);
    return -1;
  }
  memcpy(sa.sun_path, path, strlen(path) + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect(fd, (struct sockaddr*)&sa, sizeof(sa)) != 0) {
    snprintf(err, errsz, "cannot connect to %s: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return -1;
  }
  return fd;
}

/* split HOST:PORT (HOST may be [v6]) into host[256]; the port text or NULL */
static const char* split_hostport(const char* hostport, char* host, char* err, size_t errsz) {
  const char* colon = strrchr(hostport, ':');
  if (!colon || colon == hostport || (size_t)(colon - hostport) >= 256) {
    snprintf(err, errsz, "expected HOST:PORT, got '%s'", hostport);
    return NULL;
  }
  memcpy(host, hostport, (size_t)(colon - hostport));
  host[colon - hostport] = '\0';
  if (host[0] == '[' && host[strlen(host) - 1] == ']') {
    memmove(host, host + 1, strlen(host));
    host[strlen(host) - 1] = '\0';
  }
  return colon + 1;
}

/* a TCP connection to host:port */
static int connect_tcp(const char* hostport, char* err, size_t errsz) {
  char host[256];
  const char* port = split_hostport(hostport, host, err, errsz);
  if (!port) {
    return -1;
  }
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof(hints));
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host, port, &hints, &res);
  if (rc) {
    snprintf(err, errsz, "cannot resolve %s: %s", hostport, gai_strerror(rc));
    return -1;
  }
  int fd = -1;
  for (struct addrinfo* a = res; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) {
    snprintf(err, errsz, "cannot connect to %s: %s", hostport, strerror(errno));
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

/* OpenSSL's oldest queued error as text (or `fallback`), clearing the queue */
static void ssl_reason(char* out, size_t size, const char* fallback) {
  unsigned long e = ERR_get_error();
  if (e) {
    ERR_error_string_n(e, out, size);
  } else {
    snprintf(out, size, "%s", fallback);
  }
  ERR_clear_error();
}

/* TLS over the connected fd: trust tls_ca (or $TORSION_TLS_CA, or the system's CAs), check
 * that the certificate names host, handshake; 0 or -1 with the reason in err */
static int start_tls(tnClient* c, const char* hostport, const char* tls_ca, char* err,
                     size_t errsz) {
  char host[256], why[256];
  if (!split_hostport(hostport, host, err, errsz)) {
    return -1;
  }
  if (!tls_ca || !tls_ca[0]) {
    tls_ca = getenv("TORSION_TLS_CA");
  }
  ERR_clear_error();
  c->ssl_ctx = SSL_CTX_new(TLS_client_method());
  if (!c->ssl_ctx) {
    ssl_reason(why, sizeof(why), "out of memory");
    snprintf(err, errsz, "TLS: %s", why);
    return -1;
  }
  SSL_CTX_set_min_proto_version(c->ssl_ctx, TLS1_2_VERSION);
  SSL_CTX_set_verify(c->ssl_ctx, SSL_VERIFY_PEER, NULL);
  int trusted = tls_ca && tls_ca[0] ? SSL_CTX_load_verify_locations(c->ssl_ctx, tls_ca, NULL)
                                    : SSL_CTX_set_default_verify_paths(c->ssl_ctx);
  if (trusted != 1) {
    ssl_reason(why, sizeof(why), "unreadable");
    snprintf(err, errsz, "TLS: cannot load CA certificates %s: %s",
             tls_ca && tls_ca[0] ? tls_ca : "(system default)", why);
    return -1;
  }

  // the certificate must name the host: an IP address literal or a DNS name (also SNI)
  c->ssl = SSL_new(c->ssl_ctx);
  if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1) {
    ssl_reason(why, sizeof(why), "out of memory");
    snprintf(err, errsz, "TLS: %s", why);
    return -1;
  }
  unsigned char addr[16];
  int is_ip = inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1;
  int named = is_ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl), host)
                    : SSL_set1_host(c->ssl, host) && SSL_set_tlsext_host_name(c->ssl, host);
  if (named != 1) {
    ssl_reason(why, sizeof(why), "bad host name");
    snprintf(err, errsz, "TLS: cannot check the certificate against '%s': %s", host, why);
    return -1;
  }

  // the handshake (blocking, like every call of this client)
  int rc;
  do {
    ERR_clear_error();
    rc = SSL_connect(c->ssl);
  } while (rc != 1 && SSL_get_error(c->ssl, rc) == SSL_ERROR_SYSCALL && errno == EINTR);
  if (rc != 1) {
    long verify = SSL_get_verify_result(c->ssl);
    if (verify != X509_V_OK) {
      snprintf(err, errsz, "TLS: certificate verification failed for %s: %s", hostport,
               X509_verify_cert_error_string(verify));
      ERR_clear_error();
    } else {
      ssl_reason(why, sizeof(why), "the server closed the connection");
      snprintf(err, errsz, "TLS: handshake with %s failed: %s", hostport, why);
    }
    return -1;
  }
  return 0;
}

/* connect by address form (TLS with the default CAs) */
tnClient* tnc_connect(const char* address, char* err, size_t errsz) {
  return tnc_connect_ca(address, NULL, err, errsz);
}

/* connect by address form; tls_ca for "tls:" */
tnClient* tnc_connect_ca(const char* address, const char* tls_ca, char* err, size_t errsz) {
  int fd;
  int tls = !strncmp(address, "tls:", 4);
  if (tls) {
    fd = connect_tcp(address + 4, err, errsz);
  } else if (!strncmp(address, "unix:", 5)) {
    fd = connect_unix(address + 5, err, errsz);
  } else if (!strncmp(address, "tcp:", 4)) {
    fd = connect_tcp(address + 4, err, errsz);
  } else if (strchr(address, '/') || !strchr(address, ':')) {
    fd = connect_unix(address, err, errsz);
  } else {
    fd = connect_tcp(address, err, errsz);
  }
  if (fd < 0) {
    return NULL;
  }
  tnClient* c = calloc(1, sizeof(tnClient));
  if (!c) {
    close(fd);
    snprintf(err, errsz, "out of memory");
    return NULL;
  }
  c->fd = fd;
  c->next_id = 1;
  if (tls && start_tls(c, address + 4, tls_ca, err, errsz)) {
    tnc_close(c);
    return NULL;
  }
  return c;
}

/* close */
void tnc_close(tnClient* c) {
  if (c) {
    SSL_free(c->ssl);
    SSL_CTX_free(c->ssl_ctx);
    close(c->fd);
    free(c->sbuf);
    free(c);
  }
}

/* ---------------------------------------------------------------------------------------
 * raw frames
 * ------------------------------------------------------------------------------------- */

uint64_t tnc_next_id(tnClient* c) {
  return c->next_id++;
}

/* SSL_write with SIGPIPE held back: OpenSSL writes to the socket without MSG_NOSIGNAL, and a
 * server that went away must give an error here, not kill the process */
static ssize_t tls_send(tnClient* c, const void* p, size_t len) {
  sigset_t pipe_set, old, before;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  sigpending(&before);
  ERR_clear_error();
  int k = SSL_write(c->ssl, p, len > (1u << 30) ? (1 << 30) : (int)len);
  int saved = errno;
  if (k <= 0 && !sigismember(&before, SIGPIPE)) {
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (k <= 0) {
    int e = SSL_get_error(c->ssl, k);
    errno = e == SSL_ERROR_SYSCALL ? (saved ? saved : EPIPE) : EPROTO;
    ERR_clear_error();
    return -1;
  }
  return k;
}

/* SSL_read as recv: bytes, 0 at the end of the stream, -1 with errno */
static ssize_t tls_recv(tnClient* c, void* p, size_t len) {
  ERR_clear_error();
  int k = SSL_read(c->ssl, p, len > (1u << 30) ? (1 << 30) : (int)len);
  if (k > 0) {
    return k;
  }
  int e = SSL_get_error(c->ssl, k), saved = errno;
  ERR_clear_error();
  if (e == SSL_ERROR_ZERO_RETURN || (e == SSL_ERROR_SYSCALL && saved == 0)) {
    return 0;
  }
  errno = e == SSL_ERROR_SYSCALL ? saved : EPROTO;
  return -1;
}

/* write everything */
int tnc_send_bytes(tnClient* c, const void* data, size_t len) {
  const char* p = data;
  while (len > 0) {
    ssize_t k = c->ssl ? tls_send(c, p, len) : send(c->fd, p, len, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) {
      continue;
    }
    if (k <= 0) {
      return tnc__fail(c, TNC_E_IO, "send failed: %s", strerror(errno));
    }
    p += k;
    len -= (size_t)k;
    c->sent += (uint64_t)k;
  }
  return 0;
}

/* read exactly len bytes */
static int read_all(tnClient* c, void* data, size_t len) {
  char* p = data;
  while (len > 0) {
    ssize_t k = c->ssl ? tls_recv(c, p, len) : recv(c->fd, p, len, 0);
    if (k < 0 && errno == EINTR) {
      continue;
    }
    if (k <= 0) {
      return tnc__fail(c, TNC_E_IO, k == 0 ? "connection closed by the server" : "recv failed: %s",
                       strerror(errno));
    }
    p += k;
    len -= (size_t)k;
    c->received += (uint64_t)k;
  }
  return 0;
}

/* pack and send one request */
int tnc_send(tnClient* c, const Torsion__V1__Request* req) {
  size_t n = protobuf_c_message_get_packed_size(&req->base);
  if (n > TNC_MAX_FRAME) {
    return tnc__fail(c, TNC_E_ARGUMENT, "request too large for one frame");
  }
  if (c->scap < n + 4) {
    char* grown = realloc(c->sbuf, n + 4);
    if (!grown) {
      return tnc__fail(c, TNC_E_MEMORY, "out of memory");
    }
    c->sbuf = grown;
    c->scap = n + 4;
  }
  c->sbuf[0] = (char)(n >> 24);
  c->sbuf[1] = (char)(n >> 16);
  c->sbuf[2] = (char)(n >> 8);
  c->sbuf[3] = (char)n;
  protobuf_c_message_pack(&req->base, (uint8_t*)c->sbuf + 4);
  int rc = tnc_send_bytes(c, c->sbuf, n + 4);

  // do not keep a huge buffer around
  if (c->scap > (16u << 20)) {
    free(c->sbuf);
    c->sbuf = NULL;
    c->scap = 0;
  }
  return rc;
}

/* receive and decode one frame */
Torsion__V1__Response* tnc_recv(tnClient* c) {
  unsigned char hdr[4];
  if (read_all(c, hdr, 4)) {
    return NULL;
  }
  size_t n = (size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 | (size_t)hdr[2] << 8 | hdr[3];
  uint8_t* buf = malloc(n + 1);
  if (!buf) {
    tnc__fail(c, TNC_E_MEMORY, "out of memory for a %zu-byte frame", n);
    return NULL;
  }
  if (read_all(c, buf, n)) {
    free(buf);
    return NULL;
  }
  Torsion__V1__Response* r = torsion__v1__response__unpack(NULL, n, buf);
  free(buf);
  if (!r) {
    tnc__fail(c, TNC_E_PROTOCOL, "undecodable response frame");
  }
  return r;
}

/* free a received response */
void tnc_free(Torsion__V1__Response* r) {
  if (r) {
    torsion__v1__response__free_unpacked(r, NULL);
  }
}

/* note an Error response as the last failure */
static int note_error(tnClient* c, const Torsion__V1__Response* r) {
  if (r->body_case == TORSION__V1__RESPONSE__BODY_ERROR) {
    return tnc__fail(c, r->error->code, "%s", r->error->message ? r->error->message : "error");
  }
  return 0;
}

/* one request, one final response */
Torsion__V1__Response* tnc_call(tnClient* c, Torsion__V1__Request* req) {
  req->id = tnc_next_id(c);
  if (tnc_send(c, req)) {
    return NULL;
  }
  for (;;) {
    Torsion__V1__Response* r = tnc_recv(c);
    if (!r) {
      return NULL;
    }
    if (r->id == req->id && (r->final || r->body_case == TORSION__V1__RESPONSE__BODY_ERROR)) {
      note_error(c, r);
      return r;
    }
    tnc_free(r);
  }
}

/* call and demand a body of the expected kind; NULL (error recorded) otherwise */
Torsion__V1__Response* tnc__call_expect(tnClient* c, Torsion__V1__Request* req, int body) {
  Torsion__V1__Response* r = tnc_call(c, req);
  if (r && (int)r->body_case != body) {
    if (r->body_case != TORSION__V1__RESPONSE__BODY_ERROR) {
      tnc__fail(c, TNC_E_PROTOCOL, "unexpected response body %d", (int)r->body_case);
    }
    tnc_free(r);
    return NULL;
  }
  return r;
}

/* an input Array over caller memory */
void tnc__in_array(Torsion__V1__Array* a, uint64_t* shape, int ndim, const double* data,
                   size_t nelem) {
  torsion__v1__array__init(a);
  a->n_shape = (size_t)ndim;
  a->shape = shape;
  a->data.data = (uint8_t*)data;
  a->data.len = nelem * sizeof(double);
}

/* copy an output Array of the expected element count into doubles */
int tnc__out_doubles(tnClient* c, const Torsion__V1__Array* a, size_t nelem, double* out) {
  if (!a || a->data.len != nelem * (a->dtype == TORSION__V1__DTYPE__DTYPE_FLOAT32 ? 4 : 8)) {
    return tnc__fail(c, TNC_E_PROTOCOL, "response array of unexpected size");
  }
  if (a->dtype == TORSION__V1__DTYPE__DTYPE_FLOAT32) {
    const float* f = (const float*)a->data.data;
    for (size_t i = 0; i < nelem; i++) out[i] = f[i];
  } else if (nelem) {
    memcpy(out, a->data.data, nelem * sizeof(double));
  }
  return 0;
}
