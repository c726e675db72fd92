/* clients/c/torsion_client.c — the blocking torsiond client (see torsion_client.h). */
#include "torsion_client.h"
#include "client_internal.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
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

/* a TCP connection to host:port */
static int connect_tcp(const char* hostport, char* err, size_t errsz) {
  char host[256];
  const char* colon = strrchr(hostport, ':');
  if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof(host)) {
    snprintf(err, errsz, "expected HOST:PORT, got '%s'", hostport);
    return -1;
  }
  memcpy(host, hostport, (size_t)(colon - hostport));
  host[colon - hostport] = '\0';
  if (host[0] == '[' && host[strlen(host) - 1] == ']') {
    memmove(host, host + 1, strlen(host));
    host[strlen(host) - 1] = '\0';
  }
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof(hints));
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host, colon + 1, &hints, &res);
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

/* connect by address form */
tnClient* tnc_connect(const char* address, char* err, size_t errsz) {
  int fd;
  if (!strncmp(address, "unix:", 5)) {
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
  return c;
}

/* close */
void tnc_close(tnClient* c) {
  if (c) {
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

/* write everything */
int tnc_send_bytes(tnClient* c, const void* data, size_t len) {
  const char* p = data;
  while (len > 0) {
    ssize_t k = send(c->fd, p, len, MSG_NOSIGNAL);
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
    ssize_t k = recv(c->fd, p, len, 0);
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
