/* server/tls.c — TLS for TCP connections with OpenSSL over two memory BIOs per connection.
 *
 * The read BIO holds ciphertext received by libuv and not yet consumed by OpenSSL; the write
 * BIO collects what OpenSSL produces (handshake messages, records, alerts) until the
 * connection hands it to uv_write. Both are memory BIOs, so no OpenSSL call ever touches
 * the socket or blocks the loop. TLS 1.2 is the minimum; renegotiation and session tickets
 * are off (clients make long-lived connections and do not resume). */
#include "tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the server-wide context */
struct tdTlsCtx_ {
  SSL_CTX* ssl_ctx;
};

/* one connection */
struct tdTls_ {
  SSL* ssl;
  BIO* rbio; /* ciphertext from the peer, read by OpenSSL */
  BIO* wbio; /* ciphertext for the peer, written by OpenSSL */
  int established;
  int dead;      /* a handshake or record failed: nothing more is processed */
  int notified;  /* close_notify queued */
  char* pending; /* plaintext written before the handshake finished */
  size_t npending, cpending;
  char reason[256];
  char inbuf[TD_TLS_READ_CHUNK];
};

/* OpenSSL's oldest queued error as text (or `fallback`), clearing the queue */
static void take_reason(char* out, size_t size, const char* fallback) {
  unsigned long e = ERR_get_error();
  if (e) {
    ERR_error_string_n(e, out, size);
  } else {
    snprintf(out, size, "%s", fallback);
  }
  ERR_clear_error();
}

/* ---------------------------------------------------------------------------------------
 * the server context
 * ------------------------------------------------------------------------------------- */

/* certificate chain, key, and the protocol floor */
tdTlsCtx* td_tls_ctx_new(const char* cert_file, const char* key_file, char* err, size_t errsz) {
  ERR_clear_error();
  tdTlsCtx* ctx = calloc(1, sizeof(tdTlsCtx));
  SSL_CTX* s = SSL_CTX_new(TLS_server_method());
  if (!ctx || !s) {
    take_reason(err, errsz, "out of memory");
    free(ctx);
    SSL_CTX_free(s);
    return NULL;
  }
  ctx->ssl_ctx = s;

  // TLS 1.2 at least; no renegotiation, no compression, no tickets
  SSL_CTX_set_min_proto_version(s, TLS1_2_VERSION);
  SSL_CTX_set_options(s, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_NO_TICKET);
  SSL_CTX_set_num_tickets(s, 0);
  SSL_CTX_set_mode(s, SSL_MODE_RELEASE_BUFFERS);

  // the certificate (with any intermediates after it) and its key
  char why[200];
  if (SSL_CTX_use_certificate_chain_file(s, cert_file) != 1) {
    take_reason(why, sizeof(why), "unreadable");
    snprintf(err, errsz, "tls_cert %s: %s", cert_file, why);
  } else if (SSL_CTX_use_PrivateKey_file(s, key_file, SSL_FILETYPE_PEM) != 1) {
    take_reason(why, sizeof(why), "unreadable");
    snprintf(err, errsz, "tls_key %s: %s", key_file, why);
  } else if (SSL_CTX_check_private_key(s) != 1) {
    take_reason(why, sizeof(why), "mismatch");
    snprintf(err, errsz, "tls_key %s does not match tls_cert %s: %s", key_file, cert_file, why);
  } else {
    return ctx;
  }
  td_tls_ctx_free(ctx);
  return NULL;
}

void td_tls_ctx_free(tdTlsCtx* ctx) {
  if (ctx) {
    SSL_CTX_free(ctx->ssl_ctx);
    free(ctx);
  }
}

/* ---------------------------------------------------------------------------------------
 * one connection
 * ------------------------------------------------------------------------------------- */

/* an SSL in the accept state between two memory BIOs */
tdTls* td_tls_new(tdTlsCtx* ctx) {
  tdTls* t = calloc(1, sizeof(tdTls));
  if (!t) {
    return NULL;
  }
  t->ssl = SSL_new(ctx->ssl_ctx);
  t->rbio = BIO_new(BIO_s_mem());
  t->wbio = BIO_new(BIO_s_mem());
  if (!t->ssl || !t->rbio || !t->wbio) {
    BIO_free(t->rbio);
    BIO_free(t->wbio);
    SSL_free(t->ssl);
    free(t);
    ERR_clear_error();
    return NULL;
  }

  // an empty read BIO means "wait for more", not end of stream
  BIO_set_mem_eof_return(t->rbio, -1);
  BIO_set_mem_eof_return(t->wbio, -1);
  SSL_set_bio(t->ssl, t->rbio, t->wbio);  // the SSL owns both BIOs from here
  SSL_set_accept_state(t->ssl);
  return t;
}

void td_tls_free(tdTls* t) {
  if (t) {
    SSL_free(t->ssl);
    free(t->pending);
    free(t);
  }
}

char* td_tls_read_buffer(tdTls* t) {
  return t->inbuf;
}

/* an SSL call's result that is not "wait for more bytes": record why; -1 */
static int failed(tdTls* t, int rc, const char* what) {
  int e = SSL_get_error(t->ssl, rc);
  char why[200];
  if (e == SSL_ERROR_SSL) {
    take_reason(why, sizeof(why), "protocol error");
  } else {
    snprintf(why, sizeof(why), "SSL error %d", e);
    ERR_clear_error();
  }
  long verify = SSL_get_verify_result(t->ssl);
  t->dead = 1;
  snprintf(t->reason, sizeof(t->reason), "%s: %s%s%s", what, why, verify != X509_V_OK ? "; " : "",
           verify != X509_V_OK ? X509_verify_cert_error_string(verify) : "");
  return -1;
}

/* is this result only "more bytes needed" */
static int would_block(tdTls* t, int rc) {
  int e = SSL_get_error(t->ssl, rc);
  return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
}

/* encrypt plaintext (the memory BIO takes any amount, so a write is never partial) */
static int encrypt(tdTls* t, const char* data, size_t n) {
  while (n > 0) {
    int k = n > (1u << 30) ? (1 << 30) : (int)n;
    ERR_clear_error();
    int rc = SSL_write(t->ssl, data, k);
    if (rc <= 0) {
      return failed(t, rc, "write");
    }
    data += rc;
    n -= (size_t)rc;
  }
  return 0;
}

/* ciphertext in; the handshake advances (and queued frames go out when it completes) */
int td_tls_feed(tdTls* t, const char* data, size_t n) {
  if (t->dead) {
    return -1;
  }
  if (n > 0 && BIO_write(t->rbio, data, (int)n) != (int)n) {
    snprintf(t->reason, sizeof(t->reason), "out of memory");
    return -1;
  }
  if (t->established) {
    return 0;
  }
  ERR_clear_error();
  int rc = SSL_do_handshake(t->ssl);
  if (rc != 1) {
    return would_block(t, rc) ? 0 : failed(t, rc, "handshake");
  }
  t->established = 1;
  int out = t->npending ? encrypt(t, t->pending, t->npending) : 0;
  free(t->pending);
  t->pending = NULL;
  t->npending = t->cpending = 0;
  return out;
}

/* decrypted bytes out */
long td_tls_read(tdTls* t, char* out, size_t cap) {
  if (t->dead) {
    return -1;
  }
  if (!t->established || cap == 0) {
    return 0;
  }
  ERR_clear_error();
  int rc = SSL_read(t->ssl, out, cap > (1u << 30) ? (1 << 30) : (int)cap);
  if (rc > 0) {
    return rc;
  }
  if (would_block(t, rc) || SSL_get_error(t->ssl, rc) == SSL_ERROR_ZERO_RETURN) {
    return 0;  // nothing more yet, or the peer's close_notify (its EOF follows)
  }
  return failed(t, rc, "read");
}

/* a frame in: encrypted now, or kept until the handshake is done */
int td_tls_write(tdTls* t, const char* data, size_t n) {
  if (t->established) {
    return encrypt(t, data, n);
  }
  if (t->npending + n > t->cpending) {
    size_t cap = t->cpending ? t->cpending : 4096;
    while (cap < t->npending + n) {
      cap *= 2;
    }
    char* grown = realloc(t->pending, cap);
    if (!grown) {
      snprintf(t->reason, sizeof(t->reason), "out of memory");
      return -1;
    }
    t->pending = grown;
    t->cpending = cap;
  }
  memcpy(t->pending + t->npending, data, n);
  t->npending += n;
  return 0;
}

/* what OpenSSL wrote for the peer */
size_t td_tls_take_output(tdTls* t, char** out) {
  *out = NULL;
  size_t n = (size_t)BIO_ctrl_pending(t->wbio);
  if (n == 0) {
    return 0;
  }
  char* buf = malloc(n);
  if (!buf || BIO_read(t->wbio, buf, (int)n) != (int)n) {
    free(buf);
    return 0;
  }
  *out = buf;
  return n;
}

/* the close_notify alert, once and only on an established session */
int td_tls_close_notify(tdTls* t) {
  if (t->notified || !t->established) {
    return 0;
  }
  t->notified = 1;
  ERR_clear_error();
  SSL_shutdown(t->ssl);
  ERR_clear_error();
  return 1;
}

int td_tls_established(const tdTls* t) {
  return t->established;
}

int td_tls_holds_pending(const tdTls* t) {
  return t->npending > 0;
}

const char* td_tls_reason(const tdTls* t) {
  return t->reason[0] ? t->reason : "unknown";
}

const char* td_tls_version(const tdTls* t) {
  return SSL_get_version(t->ssl);
}
