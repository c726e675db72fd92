/* server/metrics.h — counters and latency histograms served by the Stats request.
 *
 * Everything here is touched only by the loop thread (completions are counted when the
 * loop sends the final frame), so no locking is needed. Histograms have ten log-spaced
 * buckets per decade from 1 us to 100 s; percentiles interpolate inside a bucket.
 * metrics_http.c serves the same numbers in Prometheus' text format. */
#ifndef TORSIOND_METRICS_H
#define TORSIOND_METRICS_H

#include <stdint.h>

#include "kinds.h"

#define TD_HIST_NBOUND 81

/* one latency histogram */
typedef struct tdHist_ {
  uint64_t counts[TD_HIST_NBOUND + 1];
  uint64_t count;
  double max_us;
  double sum_us; /* sum of every sample (Prometheus' _sum) */
} tdHist;

/* error codes counted per kind (the protocol's ErrorCode values are below this) */
#define TD_NCODE 32

/* all counters */
typedef struct tdMetrics_ {
  double start_s;
  double start_wall_s; /* the start as seconds since the Unix epoch */
  uint64_t requests_total;
  uint64_t requests_failed;
  uint64_t steps_total;
  uint64_t bytes_in;
  uint64_t bytes_out;
  uint64_t errors_by_code[TD_NCODE];
  tdHist latency[TD_NKIND]; /* per request kind (kinds.h) */
  /* finished requests per kind (row TD_NKIND: kind unknown) and error code (0 = ok) */
  uint64_t by_kind_code[TD_NKIND + 1][TD_NCODE];
} tdMetrics;

/* upper bound (us) of histogram bucket i */
double td_hist_bound(int i);

/* record one latency */
void td_hist_add(tdHist* h, double us);

/* the q-quantile (0..1) in microseconds; 0 when empty */
double td_hist_quantile(const tdHist* h, double q);

/* record a finished request of `kind` (-1 when unknown) with its error code (0 = ok) */
void td_metrics_request(tdMetrics* m, int kind, int code, double us);

#endif /* TORSIOND_METRICS_H */
