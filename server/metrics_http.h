/* server/metrics_http.h — the optional Prometheus listener: `GET /metrics` over HTTP/1.1 on
 * the daemon's libuv loop (metrics_http.c), and the text it serves (metrics_text.c). */
#ifndef TORSIOND_METRICS_HTTP_H
#define TORSIOND_METRICS_HTTP_H

#include <stddef.h>

#include "server.h"

/* a growing text buffer */
typedef struct tdTextBuf_ {
  char* data;
  size_t len, cap;
  int failed; /* an allocation failed: the text is incomplete */
} tdTextBuf;

/* append the Prometheus text exposition (format 0.0.4) of the server's counters to b;
 * 0, or -1 when memory ran out */
int td_metrics_render(tdServer* srv, tdTextBuf* b);

/* open the listener when metrics_listen is set; 0, or -1 after logging why */
int td_metrics_http_start(tdServer* srv);

/* close the listener and every scrape connection (the handles close on the loop) */
void td_metrics_http_stop(tdServer* srv);

#endif /* TORSIOND_METRICS_HTTP_H */
