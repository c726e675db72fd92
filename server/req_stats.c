/* server/req_stats.c — Stats (counters, per-model queues, latency histograms, the server's
 * version and host name) and Health. */
#include <stdlib.h>
#include <unistd.h>

#include <torsion/torsion.h>

#include "quota.h"
#include "requests.h"

/* one histogram message (arrays malloc'ed; freed by free_hist) */
static void fill_hist(Torsion__V1__Histogram* out, const tdHist* h, const char* name) {
  torsion__v1__histogram__init(out);
  out->request = (char*)name;
  out->bounds_us = malloc(sizeof(double) * TD_HIST_NBOUND);
  out->counts = malloc(sizeof(uint64_t) * (TD_HIST_NBOUND + 1));
  if (out->bounds_us && out->counts) {
    for (int i = 0; i < TD_HIST_NBOUND; i++) {
      out->bounds_us[i] = td_hist_bound(i);
    }
    for (int i = 0; i <= TD_HIST_NBOUND; i++) {
      out->counts[i] = h->counts[i];
    }
    out->n_bounds_us = TD_HIST_NBOUND;
    out->n_counts = TD_HIST_NBOUND + 1;
  }
  out->count = h->count;
  out->p50_us = td_hist_quantile(h, 0.50);
  out->p90_us = td_hist_quantile(h, 0.90);
  out->p99_us = td_hist_quantile(h, 0.99);
  out->max_us = h->max_us;
}

/* Stats */
void td_req_stats(tdConn* c, tdReq* req, double t0) {
  tdServer* srv = c->srv;
  tdMetrics* mt = &srv->metrics;
  Torsion__V1__StatsResult res = TORSION__V1__STATS_RESULT__INIT;
  uint64_t queued;
  int running;
  td_sched_counts(&srv->sched, &queued, &running);

  // totals
  res.uptime_s = td_now_s() - srv->start_s;
  res.workers = (uint32_t)srv->nworkers;
  res.connections = (uint32_t)srv->nconn;
  res.requests_total = mt->requests_total;
  res.requests_failed = mt->requests_failed;
  res.steps_total = mt->steps_total;
  res.bytes_in = mt->bytes_in;
  res.bytes_out = mt->bytes_out;
  res.queued_chunks = queued;
  res.inflight_requests = (uint64_t)srv->inflight;
  res.sessions = (uint32_t)srv->nsessions;
  res.unsent_bytes = (uint64_t)srv->unsent;
  res.paused_connections = (uint32_t)srv->npaused;
  res.errors_by_code = mt->errors_by_code;
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  res.hostname = host;
  res.server_version = (char*)TORSION_VERSION;
  res.protocol_version = TD_PROTOCOL_VERSION;
  res.n_errors_by_code = TORSION__V1__ERROR_CODE__ERROR_UNIMPLEMENTED + 1;

  // per model this connection holds (others' models are not shown); queue counters are
  // read under the scheduler's lock
  int nm = srv->reg.count;
  Torsion__V1__ModelStats* ms = calloc((size_t)nm + 1, sizeof(*ms));
  Torsion__V1__ModelStats** msp = calloc((size_t)nm + 1, sizeof(*msp));
  int k = 0;
  pthread_mutex_lock(&srv->sched.mu);
  for (tdModel* mod = srv->reg.head; mod && ms && msp; mod = mod->next) {
    if (!td_quota_holds(c, mod)) {
      continue;
    }
    torsion__v1__model_stats__init(&ms[k]);
    ms[k].model = mod->handle;
    ms[k].name = mod->name;
    ms[k].queued_chunks = mod->queued_chunks;
    ms[k].running_chunks = mod->running_chunks;
    ms[k].steps_served = mod->steps_served;
    ms[k].requests_served = mod->requests_served;
    ms[k].sessions = (uint32_t)mod->nsessions;
    ms[k].content_loads = mod->content_loads;
    ms[k].attaches = mod->attaches;
    msp[k] = &ms[k];
    k++;
  }
  pthread_mutex_unlock(&srv->sched.mu);
  res.models = msp;
  res.n_models = (ms && msp) ? (size_t)k : 0;

  // latency per request kind that has been seen
  Torsion__V1__Histogram hs[TD_NKIND];
  Torsion__V1__Histogram* hsp[TD_NKIND];
  size_t nh = 0;
  for (int i = 0; i < TD_NKIND; i++) {
    if (mt->latency[i].count) {
      fill_hist(&hs[nh], &mt->latency[i], td_req_kinds[i].name);
      hsp[nh] = &hs[nh];
      nh++;
    }
  }
  res.latency = hsp;
  res.n_latency = nh;

  // send and free
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = req->id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_STATS;
  r.stats = &res;
  td_reply(c, &r, TD_KIND_STATS, t0);
  for (size_t i = 0; i < nh; i++) {
    free(hs[i].bounds_us);
    free(hs[i].counts);
  }
  free(ms);
  free(msp);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}

/* Health */
void td_req_health(tdConn* c, tdReq* req, double t0) {
  tdServer* srv = c->srv;
  uint64_t queued;
  int running;
  td_sched_counts(&srv->sched, &queued, &running);
  Torsion__V1__HealthResult res = TORSION__V1__HEALTH_RESULT__INIT;
  res.serving = !srv->draining;
  res.uptime_s = td_now_s() - srv->start_s;
  res.queued_chunks = queued;
  res.busy_workers = (uint32_t)running;
  res.workers = (uint32_t)srv->nworkers;
  res.models = (uint32_t)srv->reg.count;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = req->id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_HEALTH;
  r.health = &res;
  td_reply(c, &r, TD_KIND_HEALTH, t0);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}
