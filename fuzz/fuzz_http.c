/* fuzz/fuzz_http.c — libFuzzer target: the /metrics listener's request reading
 * (server/http_request.c: http-parser with the listener's bounds) and its choice of answer.
 *
 * Input: byte 0 sets the size of the pieces the rest is fed in (1..256, as TCP may split a
 * request anywhere), byte 1 whether a bearer token is configured; the rest is what a client
 * sent. Checks the promises the listener relies on: the state only moves forward, a head
 * never grows past TD_HTTP_MAX_HEAD, the stored strings stay terminated inside their
 * buffers, and only GET /metrics (with the token, when one is set) is answered 200. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http_request.h"

/* the token of inputs whose byte 1 is odd */
static const char fuzz_token[] = "fuzz-token-0123456789";

/* one input */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) {
    return 0;
  }
  size_t piece = (size_t)data[0] + 1;
  const char* token = (data[1] & 1) ? fuzz_token : "";
  const char* body = (const char*)data + 2;
  size_t n = size - 2;

  // feed in pieces; the state never goes back to reading
  tdHttpRequest req;
  td_http_request_init(&req);
  tdHttpState st = TD_HTTP_READING;
  for (size_t off = 0; off < n; off += piece) {
    size_t k = n - off < piece ? n - off : piece;
    tdHttpState next = td_http_request_feed(&req, body + off, k);
    if (st != TD_HTTP_READING && next != st) {
      abort();
    }
    st = next;
  }
  if (req.received > TD_HTTP_MAX_HEAD || strlen(req.url) >= sizeof(req.url) ||
      strlen(req.auth) >= sizeof(req.auth) || strlen(req.field) >= sizeof(req.field)) {
    abort();
  }

  // the answer: 200 only for GET /metrics with the token
  if (st == TD_HTTP_READING) {
    return 0;
  }
  int status = td_http_request_status(&req, token);
  if (status == 200 && (req.method != HTTP_GET || strncmp(req.url, "/metrics", 8) != 0 ||
                        (token[0] && !strstr(req.auth, token)))) {
    abort();
  }
  if (!td_http_reason(status)[0]) {
    abort();
  }
  return 0;
}
