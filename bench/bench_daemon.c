/* bench/bench_daemon.c — the daemon benchmark: torsiond against the in-process engine in
 * the same run.
 *
 * 1. Throughput: B rollouts of N steps (default humanoid, 64 x 1000) with T threads —
 *    in process through tn_rolloutBatch (OpenMP, T threads) and through torsiond (T workers)
 *    over its Unix socket, alternately, --reps times; the ratio of the medians
 *    (in-process time / daemon time) should be >= 0.95. The daemon's result is checked bit
 *    for bit against the in-process one.
 * 2. Latency: the round trip of a one-environment SessionStep (default model:
 *    tests/models/pendulum_chain.xml) over TCP loopback and over the Unix socket:
 *    p50 < 50 us and p99 < 200 us on loopback are the targets.
 * The program starts its own torsiond (--torsiond PATH) on a temporary socket and port and
 * prints one JSON object; --md FILE also writes the Markdown table, and --update-docs FILE
 * puts it between the bench_daemon markers of FILE (docs/benchmarks.md). */
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <torsion/torsion.h>

#include "bench_common.h"
#include "torsion_client.h"

/* options */
typedef struct benchOpts_ {
  const char* model;
  const char* latency_model;
  const char* torsiond;
  const char* json;
  const char* md;
  const char* docs;
  int batch, nstep, threads, reps, latency_steps;
} benchOpts;

/* nearest-rank percentile of a sorted array */
static double pct(const double* v, int n, double q) {
  int k = (int)ceil(q * n);
  return v[k > 0 ? k - 1 : 0];
}

/* an unused loopback port */
static int free_port(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof(a);
  int port = 0;
  if (fd >= 0 && !bind(fd, (struct sockaddr*)&a, sizeof(a)) &&
      !getsockname(fd, (struct sockaddr*)&a, &len)) {
    port = ntohs(a.sin_port);
  }
  if (fd >= 0)
    close(fd);
  return port;
}

/* deterministic uniform numbers in [-1, 1] */
static double unit_noise(unsigned long long* s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*s >> 11) / 4503599627370496.0 - 1.0;
}

/* ---------------------------------------------------------------------------------------
 * throughput
 * ------------------------------------------------------------------------------------- */

/* in-process and daemon rollout times; returns 0 and fills the medians and the equality */
static int throughput(const benchOpts* o, tnClient* c, double* t_in, double* t_d, int* equal,
                      int* nstate_out) {
  char err[1024] = "";
  mjModel* m = mj_loadXML(o->model, NULL, err, sizeof(err));
  char* xml = tnc_read_file(o->model, NULL);
  if (!m || !xml) {
    fprintf(stderr, "bench_daemon: cannot load %s: %s\n", o->model, err);
    return -1;
  }
  int B = o->batch, N = o->nstep, T = o->threads, nu = m->nu;
  int nstate = mj_stateSize(m, mjSTATE_FULLPHYSICS);
  *nstate_out = nstate;

  // inputs: the initial state with a little velocity noise, small random controls
  mjData** datas = malloc(sizeof(mjData*) * (size_t)T);
  for (int i = 0; i < T; i++) datas[i] = mj_makeData(m);
  mj_resetDataKeyframe(m, datas[0], m->nkey > 0 ? 0 : -1);
  double* state0 = malloc(sizeof(double) * (size_t)B * nstate);
  double* ctrl = malloc(sizeof(double) * ((size_t)B * N * nu + 1));
  double* out = malloc(sizeof(double) * (size_t)B * N * nstate);
  unsigned long long seed = 12345;
  for (int b = 0; b < B; b++) {
    mj_getState(m, datas[0], state0 + (size_t)b * nstate, mjSTATE_FULLPHYSICS);
    for (int k = 0; k < m->nv; k++)
      state0[(size_t)b * nstate + 1 + m->nq + k] = 0.05 * unit_noise(&seed);
  }
  for (size_t i = 0; i < (size_t)B * N * nu; i++) ctrl[i] = 0.2 * unit_noise(&seed);

  // the daemon's copy of the model
  char handle[65];
  if (tnc_load_xml(c, xml, NULL, 0, handle, NULL)) {
    fprintf(stderr, "bench_daemon: daemon load: %s\n", tnc_error(c));
    return -1;
  }
  tncRollout q = {handle, 0, B, nstate, nu, N, state0, nu ? ctrl : NULL, B, N, 0, 0, 0, 0, 0, 0};

  // alternate the two, reps times
  double* tin = malloc(sizeof(double) * (size_t)o->reps);
  double* td = malloc(sizeof(double) * (size_t)o->reps);
  *equal = 1;
  for (int r = 0; r < o->reps; r++) {
    double t0 = bench_now_s();
    tn_rolloutBatch(m, datas, T, B, N, mjSTATE_FULLPHYSICS, state0, nu ? ctrl : NULL, N, out, NULL,
                    NULL);
    tin[r] = bench_now_s() - t0;
    tncRolloutResult res;
    t0 = bench_now_s();
    if (tnc_rollout(c, &q, &res)) {
      fprintf(stderr, "bench_daemon: daemon rollout: %s\n", tnc_error(c));
      return -1;
    }
    td[r] = bench_now_s() - t0;
    if (memcmp(res.states, out, sizeof(double) * (size_t)B * N * nstate) != 0)
      *equal = 0;
    tnc_rollout_free(&res);
    fprintf(stderr, "  rep %d: in-process %.3f s, daemon %.3f s\n", r + 1, tin[r], td[r]);
  }
  *t_in = bench_median(tin, o->reps);
  *t_d = bench_median(td, o->reps);
  for (int i = 0; i < T; i++) mj_deleteData(datas[i]);
  free(datas);
  free(tin);
  free(td);
  free(state0);
  free(ctrl);
  free(out);
  free(xml);
  mj_deleteModel(m);
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * latency
 * ------------------------------------------------------------------------------------- */

/* one-environment SessionStep round trips over an address; fills p50/p99/max (us) */
static int latency(const benchOpts* o, const char* addr, double* p50, double* p99, double* pmax) {
  char err[256];
  tnClient* c = tnc_connect(addr, err, sizeof(err));
  char* xml = tnc_read_file(o->latency_model, NULL);
  if (!c || !xml) {
    fprintf(stderr, "bench_daemon: latency: %s\n", c ? "cannot read the model" : err);
    return -1;
  }
  char handle[65];
  tncSession s;
  int n = o->latency_steps;
  double* lat = malloc(sizeof(double) * (size_t)n);
  double state[4096], ctrl[256] = {0};
  if (tnc_hello(c, NULL, NULL) || tnc_load_xml(c, xml, NULL, 0, handle, NULL) ||
      tnc_session_create(c, handle, 1, 0, 0.0, 0, 0, 0, &s, NULL) || s.nstate > 4096 ||
      s.nu > 256) {
    fprintf(stderr, "bench_daemon: latency setup: %s\n", tnc_error(c));
    return -1;
  }
  unsigned long long seed = 7;
  for (int i = 0; i < n / 10 + n; i++) {
    for (int k = 0; k < s.nu; k++) ctrl[k] = 0.1 * unit_noise(&seed);
    double t0 = bench_now_s();
    if (tnc_session_step(c, &s, ctrl, 1, state, NULL, NULL)) {
      fprintf(stderr, "bench_daemon: step: %s\n", tnc_error(c));
      return -1;
    }
    if (i >= n / 10)
      lat[i - n / 10] = (bench_now_s() - t0) * 1e6;  // the first tenth warms up
  }
  bench_sort(lat, n);
  *p50 = pct(lat, n, 0.5);
  *p99 = pct(lat, n, 0.99);
  *pmax = lat[n - 1];
  free(lat);
  free(xml);
  tnc_close(c);
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------------------- */

/* replace the text between the bench_daemon markers of a Markdown file */
static int update_docs(const char* path, const char* table) {
  static const char* begin = "<!-- bench_daemon:begin -->\n";
  static const char* end = "<!-- bench_daemon:end -->";
  char* doc = tnc_read_file(path, NULL);
  char* b = doc ? strstr(doc, begin) : NULL;
  char* e = b ? strstr(b, end) : NULL;
  FILE* f = e ? fopen(path, "w") : NULL;
  if (!f) {
    free(doc);
    return -1;
  }
  fwrite(doc, 1, (size_t)(b - doc) + strlen(begin), f);
  fputs(table, f);
  fputs(e, f);
  fclose(f);
  free(doc);
  return 0;
}

/* usage text */
static const char* usage =
    "usage: bench_daemon --model MODEL.xml [--torsiond PATH] [--batch 64] [--nstep 1000]\n"
    "       [--threads T] [--reps 5] [--latency-model XML] [--latency-steps 20000]\n"
    "       [--json OUT] [--md OUT] [--update-docs MD]\n";

/* the options */
enum {
  D_MODEL = 256,
  D_LATENCY_MODEL,
  D_TORSIOND,
  D_JSON,
  D_MD,
  D_DOCS,
  D_BATCH,
  D_NSTEP,
  D_THREADS,
  D_REPS,
  D_LATENCY_STEPS
};
static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                        {"model", required_argument, NULL, D_MODEL},
                                        {"latency-model", required_argument, NULL, D_LATENCY_MODEL},
                                        {"torsiond", required_argument, NULL, D_TORSIOND},
                                        {"json", required_argument, NULL, D_JSON},
                                        {"md", required_argument, NULL, D_MD},
                                        {"update-docs", required_argument, NULL, D_DOCS},
                                        {"batch", required_argument, NULL, D_BATCH},
                                        {"nstep", required_argument, NULL, D_NSTEP},
                                        {"threads", required_argument, NULL, D_THREADS},
                                        {"reps", required_argument, NULL, D_REPS},
                                        {"latency-steps", required_argument, NULL, D_LATENCY_STEPS},
                                        {NULL, 0, NULL, 0}};

/* one option; 0, or 1 after printing why */
static int take(void* ctx, int opt, const char* v) {
  benchOpts* o = ctx;
  const char* p = "bench_daemon";
  switch (opt) {
    case D_MODEL: o->model = v; return 0;
    case D_LATENCY_MODEL: o->latency_model = v; return 0;
    case D_TORSIOND: o->torsiond = v; return 0;
    case D_JSON: o->json = v; return 0;
    case D_MD: o->md = v; return 0;
    case D_DOCS: o->docs = v; return 0;
    case D_BATCH: return bench_int(p, "--batch", v, 1, 1 << 24, &o->batch);
    case D_NSTEP: return bench_int(p, "--nstep", v, 1, 1 << 30, &o->nstep);
    case D_THREADS: return bench_int(p, "--threads", v, 1, 1024, &o->threads);
    case D_REPS: return bench_int(p, "--reps", v, 1, 1000, &o->reps);
    default: return bench_int(p, "--latency-steps", v, 100, 1 << 30, &o->latency_steps);
  }
}

/* parse argv; 0, -1 after --help, or 1 after printing why */
static int parse(int argc, char** argv, benchOpts* o) {
  *o = (benchOpts){NULL,
                   "tests/models/pendulum_chain.xml",
                   "build/server/torsiond",
                   NULL,
                   NULL,
                   NULL,
                   64,
                   1000,
                   (int)sysconf(_SC_NPROCESSORS_ONLN),
                   5,
                   20000};
  int rc = bench_getopt(argc, argv, options, take, o, NULL, "bench_daemon", usage);
  if (!rc && !o->model) {
    fprintf(stderr, "bench_daemon: --model is required\n");
    rc = 1;
  }
  return rc;
}

/* start the daemon, measure, report */
int main(int argc, char** argv) {
  benchOpts o;
  bench_install_engine_handlers();
  int prc = parse(argc, argv, &o);
  if (prc) {
    if (prc > 0) {
      fputs(usage, stderr);
    }
    return prc > 0 ? 2 : 0;
  }

  // a private daemon on a temporary socket and a free loopback port
  char dir[] = "/tmp/bench-daemon-XXXXXX", sock[600], unix_addr[640], tcp_addr[64];
  if (!mkdtemp(dir))
    return 1;
  snprintf(sock, sizeof(sock), "%s/s", dir);
  snprintf(unix_addr, sizeof(unix_addr), "unix:%s", sock);
  int port = free_port();
  snprintf(tcp_addr, sizeof(tcp_addr), "tcp:127.0.0.1:%d", port);
  pid_t pid = bench_start_daemon(o.torsiond, sock, o.threads, port);
  if (pid < 0) {
    fprintf(stderr, "bench_daemon: torsiond did not start (%s)\n", o.torsiond);
    return 1;
  }
  char err[256];
  tnClient* c = tnc_connect(unix_addr, err, sizeof(err));

  // the two measurements
  double t_in = 0, t_d = 0, u50 = 0, u99 = 0, umax = 0, l50 = 0, l99 = 0, lmax = 0;
  int equal = 0, nstate = 0;
  fprintf(stderr, "throughput: %s, %d x %d steps, %d threads\n", o.model, o.batch, o.nstep,
          o.threads);
  int rc = c ? throughput(&o, c, &t_in, &t_d, &equal, &nstate) : -1;
  tnc_close(c);
  if (!rc)
    rc = latency(&o, tcp_addr, &l50, &l99, &lmax);
  if (!rc)
    rc = latency(&o, unix_addr, &u50, &u99, &umax);

  // stop the daemon
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  rmdir(dir);
  if (rc)
    return 1;

  // report
  double steps = (double)o.batch * o.nstep, ratio = t_d > 0 ? t_in / t_d : 0;
  json_t* doc = json_pack(
      "{s:s, s:i, s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:b, s:s, s:{s:o, s:o, s:o}, "
      "s:{s:o, s:o, s:o}, s:i}",
      "model", o.model, "batch", o.batch, "nstep", o.nstep, "threads", o.threads, "reps", o.reps,
      "inprocess_s", bench_json_real(t_in, 6), "daemon_s", bench_json_real(t_d, 6),
      "inprocess_steps_per_s", bench_json_real(steps / t_in, 1), "daemon_steps_per_s",
      bench_json_real(steps / t_d, 1), "ratio", bench_json_real(ratio, 4), "bitwise_equal", equal,
      "latency_model", o.latency_model, "session_step_tcp_us", "p50", bench_json_real(l50, 1),
      "p99", bench_json_real(l99, 1), "max", bench_json_real(lmax, 1), "session_step_unix_us",
      "p50", bench_json_real(u50, 1), "p99", bench_json_real(u99, 1), "max",
      bench_json_real(umax, 1), "daemon_exit_status", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  char* json = bench_json_text(doc);
  if (!json) {
    fprintf(stderr, "bench_daemon: out of memory printing JSON\n");
    return 1;
  }
  fputs(json, stdout);
  if (o.json) {
    FILE* f = fopen(o.json, "w");
    if (f) {
      fputs(json, f);
      fclose(f);
    }
  }
  free(json);
  const char* model_name = strrchr(o.model, '/') ? strrchr(o.model, '/') + 1 : o.model;
  char table[4096];
  int n = snprintf(table, sizeof(table),
                   "| measurement | in-process | torsiond | ratio / target |\n|---|---|---|---|\n");
  n += snprintf(table + n, sizeof(table) - (size_t)n,
                "| `%s` rollouts %d x %d, %d threads (median of %d) | %.3f s (%.0f steps/s) | "
                "%.3f s (%.0f steps/s) | **%.3f** (target >= 0.95); bitwise equal: %s |\n",
                model_name, o.batch, o.nstep, o.threads, o.reps, t_in, steps / t_in, t_d,
                steps / t_d, ratio, equal ? "yes" : "NO");
  n +=
      snprintf(table + n, sizeof(table) - (size_t)n,
               "| SessionStep round trip, 1 env, TCP loopback (`%s`) | | p50 %.1f us, p99 %.1f us, "
               "max %.1f us | target p50 < 50 us, p99 < 200 us |\n",
               o.latency_model, l50, l99, lmax);
  snprintf(table + n, sizeof(table) - (size_t)n,
           "| SessionStep round trip, 1 env, Unix socket | | p50 %.1f us, p99 %.1f us, max %.1f us "
           "| |\n",
           u50, u99, umax);
  if (o.md) {
    FILE* f = fopen(o.md, "w");
    if (f) {
      fputs(table, f);
      fclose(f);
    }
  }
  if (o.docs && update_docs(o.docs, table)) {
    fprintf(stderr, "bench_daemon: cannot update %s (markers missing?)\n", o.docs);
  }
  return equal ? 0 : 1;
}
