/* server/tls.h — TLS on the TCP listener's connections (OpenSSL through memory BIOs).
 *
 * The loop thread owns everything here. A connection's TLS state sits between libuv and the
 * framing: ciphertext read by libuv is fed in (td_tls_feed), plaintext comes out
 * (td_tls_read) into the connection's frame buffer; outgoing frames go in (td_tls_write) and
 * the ciphertext to hand to uv_write comes out (td_tls_take_output). No call blocks: the
 * socket is never touched by OpenSSL. Frames written before the handshake has finished
 * wait inside the TLS state and go out once it has. */
#ifndef TORSIOND_TLS_H
#define TORSIOND_TLS_H

#include <stddef.h>

/* ciphertext read granularity (one uv_read into the connection's TLS buffer) */
#define TD_TLS_READ_CHUNK (64 * 1024)

/* the server-wide context (certificate, key, protocol floor) and one connection's state */
typedef struct tdTlsCtx_ tdTlsCtx;
typedef struct tdTls_ tdTls;

/* load the PEM certificate chain and private key; NULL with the reason in err */
tdTlsCtx* td_tls_ctx_new(const char* cert_file, const char* key_file, char* err, size_t errsz);
void td_tls_ctx_free(tdTlsCtx* ctx);

/* the server side of one new connection; NULL when out of memory */
tdTls* td_tls_new(tdTlsCtx* ctx);
void td_tls_free(tdTls* t);

/* the buffer libuv reads ciphertext into (TD_TLS_READ_CHUNK bytes) */
char* td_tls_read_buffer(tdTls* t);

/* take n ciphertext bytes from the peer and advance the handshake; 0, or -1 when the
 * handshake or a record failed (td_tls_reason says why; the connection must close) */
int td_tls_feed(tdTls* t, const char* data, size_t n);

/* decrypted bytes into out (up to cap): the count, 0 when none are ready, -1 on failure */
long td_tls_read(tdTls* t, char* out, size_t cap);

/* encrypt a frame (queued as plaintext until the handshake is done); 0 or -1 */
int td_tls_write(tdTls* t, const char* data, size_t n);

/* the ciphertext waiting to go to the peer, in a malloc'd buffer the caller frees;
 * 0 bytes: *out is NULL */
size_t td_tls_take_output(tdTls* t, char** out);

/* queue the close_notify alert once (after the handshake); 1 when it was queued now */
int td_tls_close_notify(tdTls* t);

/* the handshake has finished */
int td_tls_established(const tdTls* t);

/* plaintext frames still waiting for the handshake */
int td_tls_holds_pending(const tdTls* t);

/* why the last failure happened */
const char* td_tls_reason(const tdTls* t);

/* the negotiated protocol version ("TLSv1.3") */
const char* td_tls_version(const tdTls* t);

#endif /* TORSIOND_TLS_H */
