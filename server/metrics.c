/* server/metrics.c — latency histograms and request counters (see metrics.h). */
#include "metrics.h"

#include <math.h>

/* bucket bounds: 10^(i/10) microseconds */
double td_hist_bound(int i) {
  return pow(10.0, i / 10.0);
}

/* add one sample */
void td_hist_add(tdHist* h, double us) {
  int i = us <= 1.0 ? 0 : (int)ceil(10.0 * log10(us) - 1e-9);
  if (i > TD_HIST_NBOUND) {
    i = TD_HIST_NBOUND;
  }
  h->counts[i]++;
  h->count++;
  h->sum_us += us;
  if (us > h->max_us) {
    h->max_us = us;
  }
}

/* quantile by linear interpolation inside the bucket that holds it */
double td_hist_quantile(const tdHist* h, double q) {
  if (h->count == 0) {
    return 0;
  }
  double target = q * (double)h->count;
  uint64_t cum = 0;
  for (int i = 0; i <= TD_HIST_NBOUND; i++) {
    if (h->counts[i] == 0) {
      continue;
    }
    if ((double)(cum + h->counts[i]) >= target) {
      double lo = i == 0 ? 0.0 : td_hist_bound(i - 1);
      double hi = i == TD_HIST_NBOUND ? h->max_us : td_hist_bound(i);
      double frac = (target - (double)cum) / (double)h->counts[i];
      double v = lo + frac * (hi - lo);
      return v > h->max_us ? h->max_us : v;
    }
    cum += h->counts[i];
  }
  return h->max_us;
}

/* count a finished request */
void td_metrics_request(tdMetrics* m, int kind, int code, double us) {
  m->requests_total++;
  if (code) {
    m->requests_failed++;
    if (code > 0 && code < TD_NCODE) {
      m->errors_by_code[code]++;
    }
  }
  int row = kind >= 0 && kind < TD_NKIND ? kind : TD_NKIND;
  m->by_kind_code[row][code >= 0 && code < TD_NCODE ? code : 0]++;
  if (kind >= 0 && kind < TD_NKIND) {
    td_hist_add(&m->latency[kind], us);
  }
}
