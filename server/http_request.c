/* server/http_request.c — reading one bounded HTTP request with http-parser and choosing
 * the /metrics listener's answer (see http_request.h). */
#include "http_request.h"

#include <string.h>
#include <strings.h>

#include "wire.h"

/* append to a bounded buffer, flagging what does not fit (one byte kept for the NUL) */
static void append(char* buf, size_t cap, size_t* len, int* too_long, const char* at, size_t n) {
  if (*len + n >= cap) {
    *too_long = 1;
    n = *len + 1 < cap ? cap - 1 - *len : 0;
  }
  memcpy(buf + *len, at, n);
  *len += n;
  buf[*len] = '\0';
}

/* the request target (may come in pieces) */
static int on_url(http_parser* p, const char* at, size_t n) {
  tdHttpRequest* r = p->data;
  append(r->url, sizeof(r->url), &r->url_len, &r->url_long, at, n);
  return 0;
}

/* a header name (a new header starts when a name follows a value) */
static int on_field(http_parser* p, const char* at, size_t n) {
  tdHttpRequest* r = p->data;
  if (r->in_value) {
    r->in_value = 0;
    r->field_len = 0;
    r->field_long = 0;
    r->field[0] = '\0';
  }
  append(r->field, sizeof(r->field), &r->field_len, &r->field_long, at, n);
  return 0;
}

/* a header value: kept only for Authorization (the last one wins) */
static int on_value(http_parser* p, const char* at, size_t n) {
  tdHttpRequest* r = p->data;
  if (!r->in_value) {
    r->in_value = 1;
    r->in_auth = !r->field_long && !strcasecmp(r->field, "authorization");
    if (r->in_auth) {
      r->auth_len = 0;
      r->auth_long = 0;
      r->auth[0] = '\0';
    }
  }
  if (r->in_auth) {
    append(r->auth, sizeof(r->auth), &r->auth_len, &r->auth_long, at, n);
  }
  return 0;
}

/* the head is complete: stop here (a body, if any, is never read) */
static int on_headers_complete(http_parser* p) {
  tdHttpRequest* r = p->data;
  r->state = TD_HTTP_DONE;
  r->method = (int)p->method;
  http_parser_pause(p, 1);
  return 0;
}

/* the callbacks (the same for every request) */
static const http_parser_settings settings = {
    .on_url = on_url,
    .on_header_field = on_field,
    .on_header_value = on_value,
    .on_headers_complete = on_headers_complete,
};

/* a fresh request */
void td_http_request_init(tdHttpRequest* r) {
  memset(r, 0, sizeof(*r));
  http_parser_init(&r->parser, HTTP_REQUEST);
  r->parser.data = r;
  r->in_value = 1; /* the first name starts a header */
}

/* feed bytes */
tdHttpState td_http_request_feed(tdHttpRequest* r, const char* data, size_t n) {
  if (r->state != TD_HTTP_READING) {
    return r->state;
  }

  // never parse past the head's bound
  size_t room = TD_HTTP_MAX_HEAD - r->received;
  size_t take = n < room ? n : room;
  r->received += take;
  size_t used = http_parser_execute(&r->parser, &settings, data, take);
  enum http_errno err = HTTP_PARSER_ERRNO(&r->parser);
  if (r->state == TD_HTTP_DONE) {
    return r->state;
  }
  if (err != HPE_OK || used != take) {
    r->state = TD_HTTP_BAD;
  } else if (r->received >= TD_HTTP_MAX_HEAD) {
    r->state = TD_HTTP_TOO_BIG;
  }
  return r->state;
}

/* the answer to a complete request */
int td_http_request_status(const tdHttpRequest* r, const char* token) {
  if (r->state == TD_HTTP_TOO_BIG) {
    return 431;
  }
  if (r->state != TD_HTTP_DONE) {
    return 400;
  }
  if (r->url_long) {
    return 414;
  }

  // the path is the target up to a query string
  size_t plen = strcspn(r->url, "?#");
  int is_metrics = plen == 8 && !memcmp(r->url, "/metrics", 8);
  if (!is_metrics) {
    return 404;
  }
  if (r->method != HTTP_GET) {
    return 405;
  }

  // bearer token, compared in constant time
  if (token && token[0]) {
    if (r->auth_long || r->auth_len < 7 || strncasecmp(r->auth, "Bearer ", 7) != 0) {
      return 401;
    }
    const char* given = r->auth + 7;
    while (*given == ' ') {
      given++;
    }
    if (!td_secret_equal(given, token)) {
      return 401;
    }
  }
  return 200;
}

/* reason phrases of the statuses used */
const char* td_http_reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}
