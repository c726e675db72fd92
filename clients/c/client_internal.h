/* clients/c/client_internal.h — what the client's source files share: the connection
 * struct, small helpers for errors, arrays and request envelopes, and the assembly of
 * streamed answers (client_stream.c). Not installed. */
#ifndef TORSION_CLIENT_INTERNAL_H
#define TORSION_CLIENT_INTERNAL_H

#include "torsion_client.h"

struct ssl_st;
struct ssl_ctx_st;

/* one connection */
struct tnClient_ {
  int fd;
  struct ssl_st* ssl;         /* the TLS session of a "tls:" address, else NULL */
  struct ssl_ctx_st* ssl_ctx; /* its context (trusted CAs) */
  uint64_t next_id;
  uint64_t sent, received;
  char* sbuf;
  size_t scap;
  char error[1024];
  int code;
};

/* record a failure; returns -1 */
int tnc__fail(tnClient* c, int code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

/* call and demand a response body of kind `body` (NULL with the error recorded otherwise) */
Torsion__V1__Response* tnc__call_expect(tnClient* c, Torsion__V1__Request* req, int body);

/* an input Array over caller memory (float64) */
void tnc__in_array(Torsion__V1__Array* a, uint64_t* shape, int ndim, const double* data,
                   size_t nelem);

/* copy an output Array with nelem elements into doubles */
int tnc__out_doubles(tnClient* c, const Torsion__V1__Array* a, size_t nelem, double* out);

/* a request envelope with body `field` set to `msg` */
#define REQUEST(req, field, CASE, msg)                   \
  Torsion__V1__Request req = TORSION__V1__REQUEST__INIT; \
  req.body_case = TORSION__V1__REQUEST__BODY_##CASE;     \
  req.field = &msg

/* take one result frame of a streamed answer into the assembly ctx, adding its items to
 * *items; 0 or -1 (error recorded) */
typedef int (*tncTakeFn)(tnClient* c, const Torsion__V1__Response* r, void* ctx, int* items);

/* send req (its id is set) and feed every frame of its answer, of body `body`, to take until
 * the final one; the frames must cover exactly B items. 0 or -1 (error recorded) */
int tnc__collect(tnClient* c, Torsion__V1__Request* req, int body, int B, tncTakeFn take,
                 void* ctx);

/* check a part's item range [off, off + cnt) against a batch of B and count it in *items */
int tnc__take_range(tnClient* c, uint32_t off, uint32_t cnt, int B, int* items);

/* a [B, n] float64 array being assembled from streamed parts */
typedef struct tncRows_ {
  int B, n;
  double* out;
} tncRows;

/* take a part's [cnt, n] rows (items off .. off + cnt - 1) into dst */
int tnc__take_rows(tnClient* c, const Torsion__V1__Array* a, uint32_t off, uint32_t cnt,
                   tncRows* dst, int* items);

#endif /* TORSION_CLIENT_INTERNAL_H */
