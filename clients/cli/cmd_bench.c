/* clients/cli/cmd_bench.c — `torsion bench`: run a described workload against torsiond
 * and report steps/s, requests/s, latency percentiles and bytes moved.
 *
 * Each connection is a thread with its own client. Requests follow the mix as a weighted
 * round-robin (rollout, session step, forward, inverse, transitionFD, inverseFD; the last
 * three over --fd-batch states). The run lasts --duration seconds or until
 * --requests have been sent; a progress bar is drawn on a terminal; --json prints one JSON
 * object for scripts.
 *
 * A run that cannot succeed stops early instead of firing failing requests for the whole
 * duration: at the first error that every later request would repeat (an unknown model, a
 * bad request, a refused token or limit, a lost connection, a draining server), or after
 * --max-errors failures in a row with no success between them. The report names the
 * server (version, host, workers, from Stats) and marks a percentile that rests on fewer
 * samples than it needs (p99 on fewer than 100: it is then about the maximum seen). */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* request kinds of the mix */
enum { K_ROLLOUT = 0, K_STEP, K_FORWARD, K_INVERSE, K_TRANSFD, K_INVFD, K_N };
static const char* kind_names[K_N] = {"rollout", "session_step",  "forward",
                                      "inverse", "transition_fd", "inverse_fd"};

/* the workload */
typedef struct benchCfg_ {
  const cliOpts* o;
  const char* model;
  int batch, nstep, connections, envs, frame_skip, warmup, float32, final_only, json, progress;
  int fd_batch;
  int max_errors; /* failures in a row that stop the run (0: never) */
  double duration;
  double rate; /* requests per second per connection (0: back to back) */
  long long requests;
  int mix[K_N];
  char handle[65];
} benchCfg;

/* latencies of one kind (microseconds) */
typedef struct latList_ {
  double* v;
  size_t n, cap;
} latList;

/* one connection's results */
typedef struct benchThread_ {
  benchCfg* cfg;
  int index;
  pthread_t th;
  latList lat[K_N];
  uint64_t steps, errors, sent, received;
  char error[512];
} benchThread;

/* shared progress */
static atomic_llong done_requests;
static atomic_llong done_steps;
static atomic_int stop_flag;
static atomic_int live_threads;

/* the early stop: why (empty while running on), failures in a row, the last one's code */
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;
static char stop_reason[768];
static long long fails_in_row;

/* wall clock */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* sleep until wall-clock time t (now_s's clock); returns at once when t has passed */
static void pace_until(double t) {
  double wait = t - now_s();
  if (wait > 0) {
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

/* the name of a server error code (ERROR_*) or of a client-side failure */
static const char* code_name(int code) {
  if (code == TNC_E_IO)
    return "connection lost";
  if (code == TNC_E_PROTOCOL)
    return "protocol error";
  if (code == TNC_E_ARGUMENT)
    return "bad client argument";
  if (code == TNC_E_MEMORY)
    return "out of memory";
  const ProtobufCEnumValue* v =
      protobuf_c_enum_descriptor_get_value(&torsion__v1__error_code__descriptor, code);
  return v ? v->name : "unknown error";
}

/* errors every later request of the run would get again: the same request goes out each
 * time, so a refusal of its arguments, its model, its token or a limit cannot clear up */
static int permanent_error(int code) {
  switch (code) {
    case TNC_E_IO:
    case TNC_E_PROTOCOL:
    case TNC_E_ARGUMENT:
    case TORSION__V1__ERROR_CODE__ERROR_BAD_FRAME:
    case TORSION__V1__ERROR_CODE__ERROR_BAD_MESSAGE:
    case TORSION__V1__ERROR_CODE__ERROR_UNKNOWN_REQUEST:
    case TORSION__V1__ERROR_CODE__ERROR_UNAUTHENTICATED:
    case TORSION__V1__ERROR_CODE__ERROR_INVALID_ARGUMENT:
    case TORSION__V1__ERROR_CODE__ERROR_BAD_SHAPE:
    case TORSION__V1__ERROR_CODE__ERROR_MODEL_NOT_FOUND:
    case TORSION__V1__ERROR_CODE__ERROR_MODEL_LOAD_FAILED:
    case TORSION__V1__ERROR_CODE__ERROR_PATH_FORBIDDEN:
    case TORSION__V1__ERROR_CODE__ERROR_LIMIT_EXCEEDED:
    case TORSION__V1__ERROR_CODE__ERROR_SESSION_NOT_FOUND:
    case TORSION__V1__ERROR_CODE__ERROR_SHUTTING_DOWN:
    case TORSION__V1__ERROR_CODE__ERROR_UNIMPLEMENTED: return 1;
    default: return 0;
  }
}

/* stop the run (the first reason given is kept) */
static void stop_run(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void stop_run(const char* fmt, ...) {
  if (!stop_reason[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(stop_reason, sizeof(stop_reason), fmt, ap);
    va_end(ap);
  }
  atomic_store(&stop_flag, 1);
}

/* a request failed (`what`: the kind or the step that failed): stop the run when the error
 * is permanent or failures have come max_errors times in a row */
static void note_failure(const benchCfg* cfg, const char* what, int code, const char* msg) {
  pthread_mutex_lock(&fail_mu);
  fails_in_row++;
  if (permanent_error(code)) {
    stop_run("%s failed with %s, which every later request would get again: %s", what,
             code_name(code), msg);
  } else if (cfg->max_errors > 0 && fails_in_row >= cfg->max_errors) {
    stop_run("%lld requests failed in a row (--max-errors %d), the last with %s: %s", fails_in_row,
             cfg->max_errors, code_name(code), msg);
  }
  pthread_mutex_unlock(&fail_mu);
}

/* a request succeeded: failures are no longer in a row */
static void note_success(void) {
  pthread_mutex_lock(&fail_mu);
  fails_in_row = 0;
  pthread_mutex_unlock(&fail_mu);
}

/* append a latency */
static void lat_add(latList* l, double us) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 1024;
    double* g = realloc(l->v, cap * sizeof(double));
    if (!g)
      return;
    l->v = g;
    l->cap = cap;
  }
  l->v[l->n++] = us;
}

/* ---------------------------------------------------------------------------------------
 * one connection
 * ------------------------------------------------------------------------------------- */

/* the inputs a connection reuses for every request */
typedef struct benchInputs_ {
  tncModelInfo info;
  tncSession sess;
  int have_session;
  double* state0;    /* [rows, nstate], rows = max(batch, fd_batch) */
  double* ctrl_roll; /* [rows, 1, nu] */
  double* ctrl_step; /* [envs, nu] */
  double* qacc;      /* [rows, nv]: Forward's output, Inverse's output */
  double* qacc_in;   /* [rows, nv]: zero accelerations for Inverse and InverseFD */
  double* step_out;  /* [envs, nstate] */
} benchInputs;

/* deterministic controls in [-0.5, 0.5] */
static void fill_ctrl(double* c, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    c[i] = ((seed >> 8) & 0xffff) / 65535.0 - 0.5;
  }
}

/* model info, a reset state (from a session) and the control arrays */
static int prepare(tnClient* c, benchCfg* cfg, benchInputs* in, int tid) {
  memset(in, 0, sizeof(*in));
  char held[65];  // every connection loads (a cached load) so that it holds the model
  if (cli_model(c, cfg->model, held) || tnc_model_info(c, cfg->handle, &in->info))
    return -1;
  int nstate = in->info.nstate_full, nu = in->info.nu, envs = cfg->envs;
  int rows = cfg->batch > cfg->fd_batch ? cfg->batch : cfg->fd_batch;
  double* reset = malloc(sizeof(double) * (size_t)nstate * envs + 8);
  in->state0 = malloc(sizeof(double) * (size_t)nstate * rows + 8);
  in->ctrl_roll = malloc(sizeof(double) * (size_t)nu * rows + 8);
  in->ctrl_step = malloc(sizeof(double) * (size_t)nu * envs + 8);
  in->qacc = malloc(sizeof(double) * (size_t)in->info.nv * rows + 8);
  in->qacc_in = calloc((size_t)in->info.nv * rows + 1, sizeof(double));
  in->step_out = malloc(sizeof(double) * (size_t)nstate * envs + 8);
  if (!reset || !in->state0 || !in->ctrl_roll || !in->ctrl_step || !in->qacc || !in->qacc_in ||
      !in->step_out) {
    free(reset);
    return -1;
  }
  if (tnc_session_create(c, cfg->handle, envs, 0, 0.0, (uint64_t)tid, 0, 0, &in->sess, reset)) {
    free(reset);
    return -1;
  }
  in->have_session = 1;
  for (int b = 0; b < rows; b++) {
    memcpy(in->state0 + (size_t)b * nstate, reset, sizeof(double) * nstate);
  }
  free(reset);
  fill_ctrl(in->ctrl_roll, (size_t)nu * rows, 17u + (unsigned)tid);
  fill_ctrl(in->ctrl_step, (size_t)nu * envs, 29u + (unsigned)tid);
  return 0;
}

/* one Inverse, TransitionFD or InverseFD request over fd_batch states; returns the items
 * computed, or -1 */
static long long one_fd_request(tnClient* c, benchCfg* cfg, benchInputs* in, int kind) {
  int nstate = in->info.nstate_full, B = cfg->fd_batch, nv = in->info.nv, nu = in->info.nu;
  if (kind == K_INVERSE) {
    int rc = tnc_inverse(c, cfg->handle, 0, B, nstate, in->state0, in->qacc_in, nv, in->qacc);
    return rc ? -1 : B;
  }
  if (kind == K_TRANSFD) {
    tncTransitionFD q = {.model = cfg->handle,
                         .B = B,
                         .nstate = nstate,
                         .state = in->state0,
                         .ctrl = nu ? in->ctrl_roll : NULL,
                         .ctrl_b = B,
                         .nu = nu,
                         .eps = 1e-6};
    tncTransitionFDResult r;
    if (tnc_transition_fd(c, &q, &r))
      return -1;
    tnc_transition_fd_free(&r);
    return B;
  }
  tncInverseFD q = {.model = cfg->handle,
                    .B = B,
                    .nstate = nstate,
                    .state = in->state0,
                    .qacc = in->qacc_in,
                    .nv = nv,
                    .eps = 1e-6};
  tncInverseFDResult r;
  if (tnc_inverse_fd(c, &q, &r))
    return -1;
  tnc_inverse_fd_free(&r);
  return B;
}

/* one request of a kind; returns env-steps (Rollout, SessionStep) or items (the others)
 * computed, or -1 */
static long long one_request(tnClient* c, benchCfg* cfg, benchInputs* in, int kind) {
  int nstate = in->info.nstate_full;
  if (kind == K_ROLLOUT) {
    tncRollout q = {cfg->handle, 0,
                    cfg->batch,  nstate,
                    in->info.nu, cfg->nstep,
                    in->state0,  in->info.nu ? in->ctrl_roll : NULL,
                    cfg->batch,  1,
                    0,           cfg->final_only,
                    0,           cfg->float32,
                    0,           0};
    tncRolloutResult r;
    if (tnc_rollout(c, &q, &r))
      return -1;
    tnc_rollout_free(&r);
    return (long long)cfg->batch * cfg->nstep;
  }
  if (kind == K_STEP) {
    if (tnc_session_step(c, &in->sess, in->info.nu ? in->ctrl_step : NULL, cfg->frame_skip,
                         in->step_out, NULL, NULL)) {
      return -1;
    }
    return (long long)cfg->envs * cfg->frame_skip;
  }
  if (kind == K_FORWARD) {
    if (tnc_forward(c, cfg->handle, 0, cfg->batch, nstate, in->state0, NULL, 0, in->info.nu,
                    in->info.nv, in->qacc)) {
      return -1;
    }
    return cfg->batch;
  }
  return one_fd_request(c, cfg, in, kind);
}

/* the thread: connect, prepare, warm up, then run the mix until told to stop */
static void* bench_main(void* arg) {
  benchThread* t = arg;
  benchCfg* cfg = t->cfg;
  tnClient* c = cli_connect(cfg->o);
  benchInputs in;
  memset(&in, 0, sizeof(in));
  int tid = t->index;
  if (!c || prepare(c, cfg, &in, tid)) {
    snprintf(t->error, sizeof(t->error), "%s", c ? tnc_error(c) : "cannot connect");
    t->errors++;
    note_failure(cfg, c ? "preparing a connection" : "connecting", c ? tnc_error_code(c) : TNC_E_IO,
                 t->error);
    goto done;
  }

  // the weighted round-robin pattern
  int pattern[64], np = 0;
  for (int k = 0; k < K_N; k++) {
    for (int w = 0; w < cfg->mix[k] && np < 64; w++) pattern[np++] = k;
  }
  for (int i = 0; i < cfg->warmup * np && !atomic_load(&stop_flag); i++) {
    if (one_request(c, cfg, &in, pattern[i % np]) < 0 && permanent_error(tnc_error_code(c))) {
      snprintf(t->error, sizeof(t->error), "%s", tnc_error(c));
      t->errors++;
      note_failure(cfg, kind_names[pattern[i % np]], tnc_error_code(c), t->error);
    }
  }

  // timed requests (paced at --rate: request i is due at start + i / rate, sent at once
  // when late, as a controller on a fixed clock would)
  double start = now_s();
  for (long long i = 0; !atomic_load(&stop_flag); i++) {
    if (cfg->rate > 0) {
      pace_until(start + (double)i / cfg->rate);
    }
    if (cfg->requests > 0 && atomic_fetch_add(&done_requests, 0) >= cfg->requests)
      break;
    int kind = pattern[i % np];
    double t0 = now_s();
    long long steps = one_request(c, cfg, &in, kind);
    double us = (now_s() - t0) * 1e6;
    if (steps < 0) {
      snprintf(t->error, sizeof(t->error), "%s", tnc_error(c));
      t->errors++;
      note_failure(cfg, kind_names[kind], tnc_error_code(c), t->error);
      if (tnc_error_code(c) == TNC_E_IO)
        break;
      continue;
    }
    note_success();
    lat_add(&t->lat[kind], us);
    t->steps += (uint64_t)steps;
    atomic_fetch_add(&done_requests, 1);
    atomic_fetch_add(&done_steps, steps);
  }
  if (in.have_session)
    tnc_session_close(c, &in.sess);

done:
  if (c) {
    t->sent = tnc_bytes_sent(c);
    t->received = tnc_bytes_received(c);
  }
  free(in.state0);
  free(in.ctrl_roll);
  free(in.ctrl_step);
  free(in.qacc);
  free(in.qacc_in);
  free(in.step_out);
  tnc_close(c);
  atomic_fetch_sub(&live_threads, 1);
  return NULL;
}

/* ---------------------------------------------------------------------------------------
 * options, the run and the report
 * ------------------------------------------------------------------------------------- */

/* usage of the subcommand */
static const char* bench_usage =
    "usage: torsion bench --model MODEL.xml|HANDLE [options]\n"
    "  --batch B          items per Rollout/Forward (default 64)\n"
    "  --nstep N          steps per Rollout (default 100)\n"
    "  --connections C    concurrent connections, one thread each (default 1)\n"
    "  --duration S       seconds to run (default 10)\n"
    "  --requests R       stop after R requests in total (default: by duration)\n"
    "  --mix SPEC         weights, e.g. rollout=1,step=4,forward=1 (default rollout=1); kinds:\n"
    "                     rollout, step, forward, inverse, transitionfd, inversefd\n"
    "  --fd-batch B       states per Inverse/TransitionFD/InverseFD (default 16)\n"
    "  --envs E           environments of each connection's session (default 1)\n"
    "  --frame-skip K     steps per SessionStep (default 1)\n"
    "  --warmup W         untimed rounds of the mix per connection (default 1)\n"
    "  --max-errors N     stop after N failed requests in a row (default 20; 0: never);\n"
    "                     an error every request would repeat (unknown model, bad\n"
    "                     request, token, limit, lost connection) stops at once\n"
    "  --float32          float32 rollout outputs\n"
    "  --final-only       rollouts return only the final state\n"
    "  --json             one JSON object on stdout instead of the table\n"
    "  --no-progress      no progress bar\n"
    "  --rate HZ          requests per second per connection, on a fixed clock (default: back\n"
    "                     to back), e.g. a controller stepping its session at 500 Hz\n"
    "\"steps\" counts env-steps of Rollout and SessionStep, items of the other kinds.\n";

/* the mix kind of a name (both the CLI's and the protocol's spellings), or -1 */
static int mix_kind(const char* name) {
  static const char* alias[K_N] = {"rollout", "step",         "forward",
                                   "inverse", "transitionfd", "inversefd"};
  for (int k = 0; k < K_N; k++) {
    if (!strcmp(name, alias[k]) || !strcmp(name, kind_names[k]))
      return k;
  }
  return -1;
}

/* parse "rollout=1,step=2,forward=0,transitionfd=1" */
static int parse_mix(const char* s, int mix[K_N]) {
  memset(mix, 0, sizeof(int) * K_N);
  char buf[256];
  snprintf(buf, sizeof(buf), "%s", s);
  for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    char* eq = strchr(tok, '=');
    long long w = 1;
    if (eq) {
      *eq = '\0';
      if (cli_int(eq + 1, &w) || w > 32)
        return -1;
    }
    int k = mix_kind(tok);
    if (k < 0)
      return -1;
    mix[k] = (int)w;
  }
  int total = 0;
  for (int k = 0; k < K_N; k++) total += mix[k];
  return total > 0 ? 0 : -1;
}

/* the options of bench */
enum {
  B_MODEL = 256,
  B_MIX,
  B_DURATION,
  B_BATCH,
  B_FD_BATCH,
  B_NSTEP,
  B_CONNECTIONS,
  B_REQUESTS,
  B_ENVS,
  B_FRAME_SKIP,
  B_WARMUP,
  B_MAX_ERRORS,
  B_FLOAT32,
  B_FINAL_ONLY,
  B_JSON,
  B_NO_PROGRESS,
  B_RATE
};
static const struct option bench_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"model", required_argument, NULL, B_MODEL},
    {"mix", required_argument, NULL, B_MIX},
    {"duration", required_argument, NULL, B_DURATION},
    {"batch", required_argument, NULL, B_BATCH},
    {"fd-batch", required_argument, NULL, B_FD_BATCH},
    {"nstep", required_argument, NULL, B_NSTEP},
    {"connections", required_argument, NULL, B_CONNECTIONS},
    {"requests", required_argument, NULL, B_REQUESTS},
    {"envs", required_argument, NULL, B_ENVS},
    {"frame-skip", required_argument, NULL, B_FRAME_SKIP},
    {"warmup", required_argument, NULL, B_WARMUP},
    {"max-errors", required_argument, NULL, B_MAX_ERRORS},
    {"float32", no_argument, NULL, B_FLOAT32},
    {"final-only", no_argument, NULL, B_FINAL_ONLY},
    {"json", no_argument, NULL, B_JSON},
    {"no-progress", no_argument, NULL, B_NO_PROGRESS},
    {"rate", required_argument, NULL, B_RATE},
    {NULL, 0, NULL, 0}};

/* one option of bench; 0, or 1 after printing why */
static int take_bench(void* ctx, int opt, const char* v) {
  benchCfg* b = ctx;
  long long n = 0;
  int isnum = v && !cli_int(v, &n) && n <= 1000000000;
  char* end = NULL;
  switch (opt) {
    case B_FLOAT32: b->float32 = 1; return 0;
    case B_FINAL_ONLY: b->final_only = 1; return 0;
    case B_JSON: b->json = 1, b->progress = 0; return 0;
    case B_NO_PROGRESS: b->progress = 0; return 0;
    case B_MODEL: b->model = v; return 0;
    case B_MIX: return parse_mix(v, b->mix) ? cli_fail("bench: bad --mix %s", v) : 0;
    case B_DURATION:
      b->duration = strtod(v, &end);
      return !*v || *end || !(b->duration >= 0)
                 ? cli_fail("bench: --duration must be a number of seconds, got '%s'", v)
                 : 0;
    case B_RATE:
      b->rate = strtod(v, &end);
      return !*v || *end || !(b->rate >= 0 && b->rate <= 1e6)
                 ? cli_fail("bench: --rate must be requests per second (0-1e6), got '%s'", v)
                 : 0;
    case B_NSTEP: isnum = isnum ? (b->nstep = (int)n, 1) : 0; break;
    case B_REQUESTS: isnum = isnum ? (b->requests = n, 1) : 0; break;
    case B_WARMUP: isnum = isnum ? (b->warmup = (int)n, 1) : 0; break;
    case B_MAX_ERRORS: isnum = isnum ? (b->max_errors = (int)n, 1) : 0; break;
    default:
      // the positive counts
      isnum = isnum && n > 0 && (opt != B_CONNECTIONS || n <= 4096);
      if (isnum) {
        *(opt == B_BATCH         ? &b->batch
          : opt == B_FD_BATCH    ? &b->fd_batch
          : opt == B_CONNECTIONS ? &b->connections
          : opt == B_ENVS        ? &b->envs
                                 : &b->frame_skip) = (int)n;
      }
      break;
  }
  if (!isnum) {
    for (const struct option* p = bench_options; p->name; p++) {
      if (p->val == opt) {
        return cli_fail("bench: bad --%s %s", p->name, v);
      }
    }
  }
  return 0;
}

/* parse every option */
static int parse_bench(const cliOpts* o, benchCfg* b) {
  memset(b, 0, sizeof(*b));
  *b = (benchCfg){.o = o,
                  .batch = 64,
                  .fd_batch = 16,
                  .nstep = 100,
                  .connections = 1,
                  .envs = 1,
                  .frame_skip = 1,
                  .warmup = 1,
                  .max_errors = 20,
                  .duration = 10,
                  .progress = isatty(2)};
  b->mix[K_ROLLOUT] = 1;
  int rc = cli_getopt(o, bench_options, take_bench, b, NULL, bench_usage);
  if (rc) {
    return rc < 0 ? 1 : 2;
  }
  if (!b->model)
    return cli_fail("bench: --model is required") + 1;
  if (!(b->duration > 0) && b->requests <= 0)
    return cli_fail("bench: need --duration or --requests") + 1;
  return 0;
}

/* draw the progress bar on stderr */
static void draw_progress(const benchCfg* b, double elapsed) {
  double frac = b->requests > 0 ? (double)atomic_load(&done_requests) / (double)b->requests
                                : elapsed / b->duration;
  frac = frac > 1 ? 1 : frac;
  char bar[31];
  int fill = (int)(frac * 30);
  for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
  bar[30] = '\0';
  double steps = (double)atomic_load(&done_steps);
  fprintf(stderr, "\r[%s] %3.0f%%  %lld requests  %.3g steps/s ", bar, 100 * frac,
          (long long)atomic_load(&done_requests), elapsed > 0 ? steps / elapsed : 0.0);
  fflush(stderr);
}

/* sort helper */
static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* percentile of a sorted list (nearest rank) */
static double pct(const latList* l, double q) {
  if (!l->n)
    return 0;
  size_t k = (size_t)ceil(q * (double)l->n);
  return l->v[k ? k - 1 : 0];
}

/* the server the run measured (from Stats) */
typedef struct benchServer_ {
  char version[64];
  char hostname[256];
  unsigned workers;
  unsigned protocol;
} benchServer;

/* ask the server's version, host and workers; fields stay empty when it does not say */
static void server_facts(tnClient* c, benchServer* out) {
  memset(out, 0, sizeof(*out));
  Torsion__V1__Response* r = tnc_stats(c);
  if (r && r->body_case == TORSION__V1__RESPONSE__BODY_STATS && r->stats) {
    snprintf(out->version, sizeof(out->version), "%s", r->stats->server_version);
    snprintf(out->hostname, sizeof(out->hostname), "%s", r->stats->hostname);
    out->workers = r->stats->workers;
    out->protocol = r->stats->protocol_version;
  }
  tnc_free(r);
}

/* the reported percentiles */
static const double pct_q[3] = {0.5, 0.9, 0.99};
static const char* pct_name[3] = {"p50", "p90", "p99"};

/* samples a percentile needs before it says more than the maximum: 1 / (1 - q)
 * (p99: 100, p90: 10, p50: 2) */
static size_t pct_needs(double q) {
  return (size_t)lround(1.0 / (1.0 - q));
}

/* the JSON object of the server */
static json_t* server_json(const benchServer* srv, const cliOpts* o) {
  return json_pack("{s:s?, s:s?, s:s?, s:i, s:i}", "address", o->address, "version",
                   srv->version[0] ? srv->version : NULL, "hostname",
                   srv->hostname[0] ? srv->hostname : NULL, "workers", (int)srv->workers,
                   "protocol_version", (int)srv->protocol);
}

/* print the table or the JSON object */
static void report(const benchCfg* b, const benchServer* srv, benchThread* th, double elapsed) {
  latList all = {0}, merged[K_N];
  memset(merged, 0, sizeof(merged));
  uint64_t steps = 0, errors = 0, sent = 0, recv = 0;
  for (int i = 0; i < b->connections; i++) {
    steps += th[i].steps;
    errors += th[i].errors;
    sent += th[i].sent;
    recv += th[i].received;
    for (int k = 0; k < K_N; k++) {
      for (size_t j = 0; j < th[i].lat[k].n; j++) {
        lat_add(&merged[k], th[i].lat[k].v[j]);
        lat_add(&all, th[i].lat[k].v[j]);
      }
    }
  }
  for (int k = 0; k < K_N; k++) qsort(merged[k].v, merged[k].n, sizeof(double), cmp_double);
  qsort(all.v, all.n, sizeof(double), cmp_double);
  double rps = all.n / elapsed, sps = steps / elapsed;

  // the percentiles that rest on too few samples, as one sentence per kind
  char warn[K_N + 1][200];
  for (int k = 0; k <= K_N; k++) {
    const latList* l = k < K_N ? &merged[k] : &all;
    char which[40] = "", needs[80] = "";
    int nfew = 0;
    for (int p = 0; p < 3; p++) {
      if (l->n && l->n < pct_needs(pct_q[p])) {
        size_t w = strlen(which), m = strlen(needs);
        snprintf(which + w, sizeof(which) - w, "%s%s", nfew ? " and " : "", pct_name[p]);
        snprintf(needs + m, sizeof(needs) - m, "%s%s needs %zu", nfew ? ", " : "", pct_name[p],
                 pct_needs(pct_q[p]));
        nfew++;
      }
    }
    warn[k][0] = '\0';
    if (nfew) {
      snprintf(warn[k], sizeof(warn[k]),
               "%s of %s rest%s on %zu sample%s (%s): read %s as the "
               "largest latency seen, not a percentile",
               which, k < K_N ? kind_names[k] : "all", nfew > 1 ? "" : "s", l->n,
               l->n == 1 ? "" : "s", needs, nfew > 1 ? "them" : "it");
    }
  }

  if (b->json) {
    json_t* mix =
        json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}", "rollout", b->mix[K_ROLLOUT], "step",
                  b->mix[K_STEP], "forward", b->mix[K_FORWARD], "inverse", b->mix[K_INVERSE],
                  "transitionfd", b->mix[K_TRANSFD], "inversefd", b->mix[K_INVFD]);
    json_t* latency = json_object();
    json_t* warnings = json_array();
    for (int k = 0; k <= K_N; k++) {
      const latList* l = k < K_N ? &merged[k] : &all;
      if (!l->n)
        continue;
      json_t* few = json_array();
      for (int p = 0; p < 3; p++) {
        if (l->n < pct_needs(pct_q[p]))
          json_array_append_new(few, json_string(pct_name[p]));
      }
      if (warn[k][0])
        json_array_append_new(warnings, json_string(warn[k]));
      json_object_set_new(
          latency, k < K_N ? kind_names[k] : "all",
          json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "count", (json_int_t)l->n, "p50",
                    cli_json_real(pct(l, 0.5), 1), "p90", cli_json_real(pct(l, 0.9), 1), "p99",
                    cli_json_real(pct(l, 0.99), 1), "max", cli_json_real(l->v[l->n - 1], 1),
                    "few_samples", few));
    }
    json_t* doc = json_pack(
        "{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:I, s:o, s:I, s:o, s:I, s:I, s:I, "
        "s:o, s:o, s:o, s:s?}",
        "model", b->model, "handle", b->handle, "connections", b->connections, "batch", b->batch,
        "nstep", b->nstep, "envs", b->envs, "frame_skip", b->frame_skip, "fd_batch", b->fd_batch,
        "mix", mix, "seconds", cli_json_real(elapsed, 6), "requests", (json_int_t)all.n,
        "requests_per_s", cli_json_real(rps, 3), "steps", (json_int_t)steps, "steps_per_s",
        cli_json_real(sps, 1), "bytes_sent", (json_int_t)sent, "bytes_received", (json_int_t)recv,
        "errors", (json_int_t)errors, "latency_us", latency, "warnings", warnings, "server",
        server_json(srv, b->o), "stopped_early", stop_reason[0] ? stop_reason : NULL);
    cli_json_print(doc, 15);
  } else {
    printf("torsion bench: %s, %d connection(s), %.2f s\n", b->model, b->connections, elapsed);
    printf("  server    torsiond %s on %s, %u worker(s), protocol %u\n",
           srv->version[0] ? srv->version : "(version not reported)",
           srv->hostname[0] ? srv->hostname : "(host not reported)", srv->workers, srv->protocol);
    printf("  requests  %10zu  (%.1f/s)   errors %llu\n", all.n, rps, (unsigned long long)errors);
    printf("  steps     %10llu  (%.4g steps/s)\n", (unsigned long long)steps, sps);
    printf("  bytes     sent %.3g MB, received %.3g MB\n", sent / 1e6, recv / 1e6);
    printf("  %-15s %10s  %10s  %10s  %10s %10s\n", "latency (us)", "p50", "p90", "p99", "max",
           "count");
    for (int k = 0; k <= K_N; k++) {
      const latList* l = k < K_N ? &merged[k] : &all;
      if (!l->n)
        continue;
      printf("    %-13s", k < K_N ? kind_names[k] : "all");
      for (int p = 0; p < 3; p++) {
        printf(" %10.1f%c", pct(l, pct_q[p]), l->n < pct_needs(pct_q[p]) ? '*' : ' ');
      }
      printf("%10.1f %10zu\n", l->v[l->n - 1], l->n);
    }
    for (int k = 0; k <= K_N; k++) {
      if (warn[k][0])
        printf("  * %s\n", warn[k]);
    }
  }
  for (int k = 0; k < K_N; k++) free(merged[k].v);
  free(all.v);
}

/* bench */
int cmd_bench(const cliOpts* o) {
  benchCfg b;
  int prc = parse_bench(o, &b);
  if (prc)
    return prc == 1 ? 0 : 1;

  // load once up front so every connection finds the model; this connection stays open
  // while the bench runs (the server keeps a model while a connection holds it)
  tnClient* c = cli_connect(o);
  if (!c || cli_model(c, b.model, b.handle)) {
    tnc_close(c);
    return 1;
  }
  benchServer srv;
  server_facts(c, &srv);

  // the connections
  benchThread* th = calloc((size_t)b.connections, sizeof(benchThread));
  if (!th) {
    tnc_close(c);
    return cli_fail("out of memory");
  }
  atomic_store(&done_requests, 0);
  atomic_store(&done_steps, 0);
  atomic_store(&stop_flag, 0);
  atomic_store(&live_threads, 0);
  stop_reason[0] = '\0';
  fails_in_row = 0;
  double t0 = now_s();
  int started = 0;
  for (int i = 0; i < b.connections; i++, started++) {
    th[i].cfg = &b;
    th[i].index = i;
    atomic_fetch_add(&live_threads, 1);
    if (pthread_create(&th[i].th, NULL, bench_main, &th[i])) {
      atomic_fetch_sub(&live_threads, 1);
      break;
    }
  }

  // wait for the duration (or the request count), drawing progress; an early stop or the
  // end of every connection ends the wait too
  for (;;) {
    double el = now_s() - t0;
    if (b.progress)
      draw_progress(&b, el);
    if ((b.requests <= 0 && el >= b.duration) ||
        (b.requests > 0 && atomic_load(&done_requests) >= b.requests) ||
        (b.duration > 0 && b.requests > 0 && el >= b.duration) || atomic_load(&stop_flag) ||
        atomic_load(&live_threads) == 0) {
      break;
    }
    usleep(b.progress ? 100000 : 20000);
  }
  atomic_store(&stop_flag, 1);
  for (int i = 0; i < started; i++) pthread_join(th[i].th, NULL);
  double elapsed = now_s() - t0;
  tnc_close(c);
  if (b.progress) {
    draw_progress(&b, elapsed);
    fputc('\n', stderr);
  }

  // report, and the first error if any
  report(&b, &srv, th, elapsed);
  int rc = 0;
  if (stop_reason[0]) {
    cli_fail("bench stopped early: %s", stop_reason);
    rc = 1;
  }
  for (int i = 0; i < started; i++) {
    if (th[i].errors && th[i].error[0]) {
      cli_fail("connection %d: %llu error(s), last: %s", i, (unsigned long long)th[i].errors,
               th[i].error);
      rc = 1;
    }
    for (int k = 0; k < K_N; k++) free(th[i].lat[k].v);
  }
  free(th);
  return rc;
}
