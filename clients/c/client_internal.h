/* clients/c/client_internal.h — what the client's two source files share: the connection
 * struct and small helpers for errors and arrays. Not installed. */
#ifndef TORSION_CLIENT_INTERNAL_H
#define TORSION_CLIENT_INTERNAL_H

#include "torsion_client.h"

/* one connection */
struct tnClient_ {
  int fd;
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

#endif /* TORSION_CLIENT_INTERNAL_H */
