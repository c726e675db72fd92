/* server/metrics_text.c — the daemon's counters in Prometheus' text exposition format
 * (version 0.0.4), as the /metrics listener (metrics_http.c) serves them.
 *
 * Runs on the loop thread: it reads the loop-owned counters directly and the scheduler's
 * queue counts under its lock, and does nothing that takes time (no physics, no I/O).
 * Latencies are in seconds, as Prometheus names them; the histogram buckets are those of
 * metrics.h (ten per decade, 1 us to 100 s), cumulative, plus +Inf. Only kinds that have
 * finished a request get series, so an idle daemon's scrape stays short. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <torsion/torsion.h>

#include "metrics_http.h"
#include "requests.h"

/* append printf-style text, growing the buffer; a failed allocation marks the buffer */
static void put(tdTextBuf* b, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(tdTextBuf* b, const char* fmt, ...) {
  if (b->failed) {
    return;
  }
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->cap ? b->data + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->failed = 1;
      return;
    }
    if ((size_t)n < room) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = b->cap ? 2 * b->cap : 16384;
    while (cap - b->len <= (size_t)n) {
      cap *= 2;
    }
    char* g = realloc(b->data, cap);
    if (!g) {
      b->failed = 1;
      return;
    }
    b->data = g;
    b->cap = cap;
  }
}

/* HELP and TYPE lines of one metric family */
static void family(tdTextBuf* b, const char* name, const char* type, const char* help) {
  put(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* a metric family with one sample and no labels */
static void single(tdTextBuf* b, const char* name, const char* type, const char* help, double v) {
  family(b, name, type, help);
  put(b, "%s %.17g\n", name, v);
}

/* the label value of an error code: "ok", or the ErrorCode's name without ERROR_, lower
 * case ("model_not_found"); a code the protocol does not name is its number */
static void code_label(int code, char* out, size_t cap) {
  const ProtobufCEnumValue* v =
      protobuf_c_enum_descriptor_get_value(&torsion__v1__error_code__descriptor, code);
  if (code == 0) {
    snprintf(out, cap, "ok");
    return;
  }
  if (!v) {
    snprintf(out, cap, "%d", code);
    return;
  }
  const char* name = strncmp(v->name, "ERROR_", 6) ? v->name : v->name + 6;
  size_t i = 0;
  for (; name[i] && i + 1 < cap; i++) {
    out[i] = (char)tolower((unsigned char)name[i]);
  }
  out[i] = '\0';
}

/* requests per kind and code */
static void put_requests(tdTextBuf* b, const tdMetrics* m) {
  family(b, "torsiond_requests_total", "counter",
         "Finished requests by kind and result code (ok, or the protocol's error name).");
  for (int k = 0; k <= TD_NKIND; k++) {
    const char* kind = k < TD_NKIND ? td_req_kinds[k].name : "unknown";
    for (int code = 0; code < TD_NCODE; code++) {
      if (!m->by_kind_code[k][code]) {
        continue;
      }
      char label[48];
      code_label(code, label, sizeof(label));
      put(b, "torsiond_requests_total{kind=\"%s\",code=\"%s\"} %llu\n", kind, label,
          (unsigned long long)m->by_kind_code[k][code]);
    }
  }
}

/* latency histograms per kind, in seconds */
static void put_latency(tdTextBuf* b, const tdMetrics* m) {
  family(b, "torsiond_request_duration_seconds", "histogram",
         "Time from a request's arrival to its final frame, by kind.");
  for (int k = 0; k < TD_NKIND; k++) {
    const tdHist* h = &m->latency[k];
    if (!h->count) {
      continue;
    }
    const char* kind = td_req_kinds[k].name;
    uint64_t cum = 0;
    for (int i = 0; i < TD_HIST_NBOUND; i++) {
      cum += h->counts[i];
      put(b, "torsiond_request_duration_seconds_bucket{kind=\"%s\",le=\"%.6g\"} %llu\n", kind,
          td_hist_bound(i) * 1e-6, (unsigned long long)cum);
    }
    put(b, "torsiond_request_duration_seconds_bucket{kind=\"%s\",le=\"+Inf\"} %llu\n", kind,
        (unsigned long long)h->count);
    put(b, "torsiond_request_duration_seconds_sum{kind=\"%s\"} %.17g\n", kind, h->sum_us * 1e-6);
    put(b, "torsiond_request_duration_seconds_count{kind=\"%s\"} %llu\n", kind,
        (unsigned long long)h->count);
  }
}

/* the whole exposition */
int td_metrics_render(tdServer* srv, tdTextBuf* b) {
  const tdMetrics* m = &srv->metrics;
  uint64_t queued;
  int running;
  td_sched_counts(&srv->sched, &queued, &running);

  // identity and process
  family(b, "torsiond_build_info", "gauge",
         "Always 1; the labels name the server's version, MuJoCo semantics and protocol.");
  put(b, "torsiond_build_info{version=\"%s\",mujoco=\"%d\",protocol=\"%d\"} 1\n", TORSION_VERSION,
      mjVERSION_HEADER / 1000, TD_PROTOCOL_VERSION);
  double uptime = td_now_s() - srv->start_s;
  single(b, "process_start_time_seconds", "gauge",
         "Start time of the process since the Unix epoch in seconds.", m->start_wall_s);
  single(b, "torsiond_uptime_seconds", "gauge", "Seconds since the daemon started.", uptime);

  // requests and their work
  put_requests(b, m);
  put_latency(b, m);
  single(b, "torsiond_env_steps_total", "counter",
         "Env-steps (rollout, session step) and items (the other kinds) computed.",
         (double)m->steps_total);
  single(b, "torsiond_received_bytes_total", "counter", "Bytes read from client connections.",
         (double)m->bytes_in);
  single(b, "torsiond_sent_bytes_total", "counter", "Bytes written to client connections.",
         (double)m->bytes_out);

  // what is happening now
  single(b, "torsiond_queued_chunks", "gauge", "Chunks of work waiting for a worker.",
         (double)queued);
  single(b, "torsiond_running_chunks", "gauge", "Chunks of work running on a worker.",
         (double)running);
  single(b, "torsiond_workers", "gauge", "Worker threads (not counting the express worker).",
         (double)srv->nworkers);
  single(b, "torsiond_connections", "gauge", "Open client connections.", (double)srv->nconn);
  single(b, "torsiond_paused_connections", "gauge",
         "Client connections whose reading is paused by back-pressure.", (double)srv->npaused);
  single(b, "torsiond_inflight_requests", "gauge", "Requests whose final frame is not sent.",
         (double)srv->inflight);
  single(b, "torsiond_unsent_bytes", "gauge", "Response bytes queued and not yet written.",
         (double)srv->unsent);
  single(b, "torsiond_models_loaded", "gauge", "Loaded models.", (double)srv->reg.count);
  single(b, "torsiond_model_memory_bytes", "gauge", "Estimated bytes of the loaded models.",
         (double)srv->reg.mem);
  single(b, "torsiond_sessions", "gauge", "Open environment sessions.", (double)srv->nsessions);
  single(b, "torsiond_draining", "gauge", "1 while the daemon drains before stopping.",
         (double)srv->draining);
  return b->failed ? -1 : 0;
}
