/* server/http_request.h — one bounded HTTP/1.x request read with http-parser, and the
 * status the /metrics listener answers it with.
 *
 * The listener (metrics_http.c) feeds received bytes in; nothing here allocates or touches
 * libuv, so the fuzz target drives exactly the code the daemon runs. Only the request line
 * and the Authorization header are kept; everything else is parsed and dropped. */
#ifndef TORSIOND_HTTP_REQUEST_H
#define TORSIOND_HTTP_REQUEST_H

#include <http_parser.h>
#include <stddef.h>

/* most bytes of request line and headers accepted (431 beyond) */
#define TD_HTTP_MAX_HEAD 8192

/* the states of a request being read */
typedef enum tdHttpState_ {
  TD_HTTP_READING = 0, /* needs more bytes */
  TD_HTTP_DONE,        /* request line and headers are complete */
  TD_HTTP_BAD,         /* not HTTP/1.x: answer 400 */
  TD_HTTP_TOO_BIG      /* head over TD_HTTP_MAX_HEAD: answer 431 */
} tdHttpState;

/* one request */
typedef struct tdHttpRequest_ {
  http_parser parser;
  size_t received; /* bytes fed so far */
  tdHttpState state;
  int method;    /* http_method of the request line */
  char url[256]; /* request target (truncated flag below) */
  size_t url_len;
  int url_long;   /* the target did not fit: answered 414 */
  char field[16]; /* the header name being read (only short names matter) */
  size_t field_len;
  int field_long;
  int in_value;   /* the last callback was a header value */
  int in_auth;    /* the current header is Authorization */
  char auth[300]; /* the Authorization value */
  size_t auth_len;
  int auth_long;
} tdHttpRequest;

/* start reading a request */
void td_http_request_init(tdHttpRequest* r);

/* feed received bytes; returns the state afterwards (bytes after a complete head are
 * ignored: one request per connection) */
tdHttpState td_http_request_feed(tdHttpRequest* r, const char* data, size_t n);

/* the HTTP status for a finished request: 200 for GET /metrics with the right bearer
 * token (token "" = none needed), else 400, 401, 404, 405, 414 or 431 */
int td_http_request_status(const tdHttpRequest* r, const char* token);

/* the reason phrase of a status */
const char* td_http_reason(int status);

#endif /* TORSIOND_HTTP_REQUEST_H */
