/* clients/c/client_stream.c — assembling streamed answers: Rollout, Forward, Inverse,
 * TransitionFD and InverseFD results arrive as env-range frames in any order; the calls feed
 * each frame of theirs to a take function and check that the frames covered the batch. */
#include <string.h>

#include "client_internal.h"

/* send, then take every frame of the answer until the final one */
int tnc__collect(tnClient* c, Torsion__V1__Request* req, int body, int B, tncTakeFn take,
                 void* ctx) {
  req->id = tnc_next_id(c);
  if (tnc_send(c, req)) {
    return -1;
  }
  int items = 0;
  for (int done = 0; !done;) {
    Torsion__V1__Response* r = tnc_recv(c);
    if (!r) {
      return -1;
    }
    int rc = 0;
    if (r->id != req->id) {
      rc = 0;  // another request's frame: not ours
    } else if (r->body_case == TORSION__V1__RESPONSE__BODY_ERROR) {
      rc = tnc__fail(c, r->error->code, "%s", r->error->message ? r->error->message : "error");
    } else if ((int)r->body_case != body) {
      rc = tnc__fail(c, TNC_E_PROTOCOL, "unexpected response body %d", (int)r->body_case);
    } else {
      rc = take(c, r, ctx, &items);
      done = r->final;
    }
    tnc_free(r);
    if (rc) {
      return -1;
    }
  }
  if (items != B) {
    return tnc__fail(c, TNC_E_PROTOCOL, "the frames held %d items, expected %d", items, B);
  }
  return 0;
}

/* check a part's item range against the batch and count it */
int tnc__take_range(tnClient* c, uint32_t off, uint32_t cnt, int B, int* items) {
  if ((uint64_t)off + cnt > (uint64_t)B) {
    return tnc__fail(c, TNC_E_PROTOCOL, "result part [%u, %u) outside the batch of %d", off,
                     off + cnt, B);
  }
  *items += (int)cnt;
  return 0;
}

/* copy a part's [cnt, n] rows into the batch array */
int tnc__take_rows(tnClient* c, const Torsion__V1__Array* a, uint32_t off, uint32_t cnt,
                   tncRows* dst, int* items) {
  if (tnc__take_range(c, off, cnt, dst->B, items)) {
    return -1;
  }
  return tnc__out_doubles(c, a, (size_t)cnt * dst->n, dst->out + (size_t)off * dst->n);
}
