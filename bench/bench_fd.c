/* bench/bench_fd.c — Torsion's side of the finite-difference benchmark (bench/bench_fd.py
 * runs it beside MuJoCo's mujoco.mjd_transitionFD on the same states).
 *
 * Three measurements of mjd_transitionFD (A and B only, forward or centered differences)
 * on the states [B, nstate] (mjSTATE_FULLPHYSICS) and controls [B, nu] of .npy files:
 *   single  — one thread, one mjData: mj_setState, the controls, mjd_transitionFD, state
 *             after state, repeated until --min-time has passed; microseconds per state;
 *   batch   — tn_transitionFDBatch over all B states with each thread count of --threads;
 *             states per second (median of --reps);
 *   daemon  — a torsiond started here (--torsiond, workers = --daemon-threads) answering one
 *             TransitionFD request of the B states over its Unix socket, alternated with
 *             the in-process tn_transitionFDBatch with the same thread count; the ratio
 *             in-process time / daemon time (target >= 0.95) and whether the matrices are
 *             bitwise equal.
 * The model is compiled from its text with <option integrator="RK4"> set to Euler when
 * --integrator euler is given (transitionFD is not defined for RK4), identically in process
 * and in the daemon (which receives the same text with the files it references). One JSON
 * object goes to stdout. */
#include <math.h>
#include <mxml.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <torsion/torsion.h>

#include "npy.h"
#include "bench_common.h"
#include "torsion_client.h"

#define MAXTHREADS 16

/* options */
typedef struct fdOpts_ {
  const char *model, *states, *ctrl, *torsiond, *integrator;
  int single, batch, daemon, centered, reps, daemon_threads;
  int threads[MAXTHREADS], nthreads;
  double eps, min_time;
} fdOpts;

/* the model and its inputs */
typedef struct fdCase_ {
  mjModel* m;
  char* text;     /* the MJCF text compiled (after the integrator edit) */
  char dir[4096]; /* the model's directory (includes) */
  int B, nstate, nx, nu;
  double *state, *ctrl; /* [B, nstate], [B, nu] or NULL */
} fdCase;

/* the model text with every <option integrator="RK4"> set to Euler (read and written with
 * mxml; the daemon's finite differences need a one-stage integrator); NULL when the text is
 * not XML */
static char* to_euler(const char* text) {
  // under a node of its own, so that comments before the root element stay in the text
  mxml_node_t* top = mxmlNewElement(MXML_NO_PARENT, "bench-document");
  if (!top || !mxmlLoadString(top, text, MXML_OPAQUE_CALLBACK)) {
    mxmlDelete(top);
    return NULL;
  }
  for (mxml_node_t* n = mxmlFindElement(top, top, "option", NULL, NULL, MXML_DESCEND); n;
       n = mxmlFindElement(n, top, "option", NULL, NULL, MXML_DESCEND)) {
    const char* integrator = mxmlElementGetAttr(n, "integrator");
    if (integrator && !strcmp(integrator, "RK4")) {
      mxmlElementSetAttr(n, "integrator", "Euler");
    }
  }

  // the document's children, in order, without the wrapper
  size_t len = 0, cap = strlen(text) + 256;
  char* out = malloc(cap);
  for (mxml_node_t* c = mxmlGetFirstChild(top); out && c; c = mxmlGetNextSibling(c)) {
    char* part = mxmlSaveAllocString(c, MXML_NO_CALLBACK);
    size_t n = part ? strlen(part) : 0;
    if (part && len + n + 1 > cap) {
      cap = 2 * (len + n + 1);
      char* grown = realloc(out, cap);
      if (!grown) {
        free(out);
      }
      out = grown;
    }
    if (part && out) {
      memcpy(out + len, part, n);
      len += n;
      out[len] = 0;
    }
    free(part);
  }
  mxmlDelete(top);
  return out;
}

/* ---------------------------------------------------------------------------------------
 * setup
 * ------------------------------------------------------------------------------------- */

/* load the model text (edited), compile it, read the states and controls */
static int load_case(const fdOpts* o, fdCase* fc) {
  char err[1024] = "";
  memset(fc, 0, sizeof(*fc));
  char* raw = tnc_read_file(o->model, NULL);
  if (!raw) {
    fprintf(stderr, "bench_fd: cannot read %s\n", o->model);
    return -1;
  }
  int euler = o->integrator && !strcmp(o->integrator, "euler");
  fc->text = euler ? to_euler(raw) : raw;
  if (euler) {
    free(raw);
  }
  snprintf(fc->dir, sizeof(fc->dir), "%s", o->model);
  char* slash = strrchr(fc->dir, '/');
  strcpy(slash ? slash : fc->dir, slash ? "" : ".");
  fc->m = fc->text ? tn_loadXMLString(fc->text, fc->dir, err, sizeof(err)) : NULL;
  if (!fc->m) {
    fprintf(stderr, "bench_fd: cannot compile %s: %s\n", o->model, err);
    return -1;
  }

  // inputs
  npyArray s = {0}, c = {0};
  if (npy_read(o->states, &s, err, sizeof(err)) || s.ndim != 2 ||
      (int)s.shape[1] != mj_stateSize(fc->m, mjSTATE_FULLPHYSICS)) {
    fprintf(stderr, "bench_fd: %s: %s (want [B, %d] FULLPHYSICS states)\n", o->states, err,
            mj_stateSize(fc->m, mjSTATE_FULLPHYSICS));
    return -1;
  }
  fc->B = (int)s.shape[0];
  fc->nstate = (int)s.shape[1];
  fc->state = s.data;
  fc->nu = fc->m->nu;
  fc->nx = 2 * fc->m->nv + fc->m->na;
  if (o->ctrl) {
    if (npy_read(o->ctrl, &c, err, sizeof(err)) || c.ndim != 2 || (int)c.shape[0] != fc->B ||
        (int)c.shape[1] != fc->nu) {
      fprintf(stderr, "bench_fd: %s: %s (want [%d, %d] controls)\n", o->ctrl, err, fc->B, fc->nu);
      return -1;
    }
    fc->ctrl = c.data;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * measurements
 * ------------------------------------------------------------------------------------- */

/* single thread: microseconds per state (all states, repeated for at least min_time) */
static double time_single(const fdOpts* o, const fdCase* fc) {
  mjData* d = mj_makeData(fc->m);
  double* A = malloc(sizeof(double) * fc->nx * fc->nx);
  double* Bm = malloc(sizeof(double) * (fc->nx * fc->nu + 1));
  long count = 0;
  double t0 = bench_now_s(), elapsed = 0;
  do {
    for (int b = 0; b < fc->B; b++) {
      mj_setState(fc->m, d, fc->state + (size_t)b * fc->nstate, mjSTATE_FULLPHYSICS);
      if (fc->ctrl) {
        memcpy(d->ctrl, fc->ctrl + (size_t)b * fc->nu, sizeof(double) * fc->nu);
      }
      mjd_transitionFD(fc->m, d, o->eps, (mjtByte)o->centered, A, fc->nu ? Bm : NULL, NULL, NULL);
    }
    count += fc->B;
    elapsed = bench_now_s() - t0;
  } while (elapsed < o->min_time);
  free(A);
  free(Bm);
  mj_deleteData(d);
  return 1e6 * elapsed / (double)count;
}

/* tn_transitionFDBatch over all states with T threads; seconds, outputs into A and Bm */
static double time_batch(const fdOpts* o, const fdCase* fc, mjData** datas, int T, double* A,
                         double* Bm) {
  double t0 = bench_now_s();
  if (tn_transitionFDBatch(fc->m, datas, T, fc->B, mjSTATE_FULLPHYSICS, fc->state, fc->ctrl, o->eps,
                           o->centered, A, fc->nu ? Bm : NULL, NULL, NULL, NULL)) {
    return -1;
  }
  return bench_now_s() - t0;
}

/* batch throughput for each thread count: states per second (median of reps) */
static int measure_batch(const fdOpts* o, const fdCase* fc, double* rate) {
  mjData* datas[MAXTHREADS];
  double* A = malloc(sizeof(double) * fc->B * fc->nx * fc->nx);
  double* Bm = malloc(sizeof(double) * (fc->B * fc->nx * fc->nu + 1));
  double t[64];
  for (int i = 0; i < MAXTHREADS; i++) datas[i] = mj_makeData(fc->m);
  int rc = 0;
  for (int k = 0; k < o->nthreads && !rc; k++) {
    time_batch(o, fc, datas, o->threads[k], A, Bm);  // warm-up
    for (int r = 0; r < o->reps && !rc; r++) {
      t[r] = time_batch(o, fc, datas, o->threads[k], A, Bm);
      rc = t[r] < 0;
    }
    rate[k] = rc ? 0 : fc->B / bench_median(t, o->reps);
  }
  for (int i = 0; i < MAXTHREADS; i++) mj_deleteData(datas[i]);
  free(A);
  free(Bm);
  return rc;
}

/* ---------------------------------------------------------------------------------------
 * the daemon row
 * ------------------------------------------------------------------------------------- */

/* one TransitionFD request of all states; seconds, or -1 */
static double time_daemon(const fdOpts* o, const fdCase* fc, tnClient* c, const char* handle,
                          tncTransitionFDResult* res) {
  tncTransitionFD q = {.model = handle,
                       .spec = mjSTATE_FULLPHYSICS,
                       .B = fc->B,
                       .nstate = fc->nstate,
                       .state = fc->state,
                       .ctrl = fc->ctrl,
                       .ctrl_b = fc->ctrl ? fc->B : 0,
                       .nu = fc->nu,
                       .eps = o->eps,
                       .centered = o->centered};
  double t0 = bench_now_s();
  if (tnc_transition_fd(c, &q, res)) {
    fprintf(stderr, "bench_fd: TransitionFD: %s\n", tnc_error(c));
    return -1;
  }
  return bench_now_s() - t0;
}

/* load the model into the daemon with the files it references; 0 and the handle */
static int daemon_load(const fdOpts* o, const fdCase* fc, tnClient* c, char handle[65]) {
  tncAssets as = {0};
  char err[1024] = "";
  int rc = tnc_assets_collect(o->model, fc->text, &as, err, sizeof(err));
  if (rc) {
    fprintf(stderr, "bench_fd: %s\n", err);
  } else if ((rc = tnc_load_xml(c, fc->text, as.a, as.n, handle, NULL))) {
    fprintf(stderr, "bench_fd: LoadModel: %s\n", tnc_error(c));
  }
  tnc_assets_free(&as);
  return rc ? -1 : 0;
}

/* in-process batch and daemon request alternately, reps times (medians) */
static int measure_daemon(const fdOpts* o, const fdCase* fc, tnClient* c, double* t_in, double* t_d,
                          int* equal) {
  int T = o->daemon_threads;
  char handle[65];
  if (daemon_load(o, fc, c, handle)) {
    return -1;
  }
  mjData* datas[MAXTHREADS];
  for (int i = 0; i < T; i++) datas[i] = mj_makeData(fc->m);
  size_t na = (size_t)fc->B * fc->nx * fc->nx, nb = (size_t)fc->B * fc->nx * fc->nu;
  double* A = malloc(sizeof(double) * na);
  double* Bm = malloc(sizeof(double) * (nb + 1));
  double tin[64], td[64];
  int rc = 0;
  *equal = 1;
  for (int r = -1; r < o->reps && !rc; r++) {  // r = -1: warm-up
    tncTransitionFDResult res;
    double a = time_batch(o, fc, datas, T, A, Bm);
    double b = time_daemon(o, fc, c, handle, &res);
    rc = a < 0 || b < 0;
    if (!rc) {
      *equal &= !memcmp(res.A, A, sizeof(double) * na) &&
                (!nb || !memcmp(res.Bm, Bm, sizeof(double) * nb));
      tnc_transition_fd_free(&res);
    }
    if (r >= 0) {
      tin[r] = a;
      td[r] = b;
    }
  }
  for (int i = 0; i < T; i++) mj_deleteData(datas[i]);
  free(A);
  free(Bm);
  if (!rc) {
    *t_in = bench_median(tin, o->reps);
    *t_d = bench_median(td, o->reps);
  }
  return rc;
}

/* start a daemon, measure, stop it */
static int daemon_row(const fdOpts* o, const fdCase* fc, double* t_in, double* t_d, int* equal) {
  char dir[] = "/tmp/bench-fd-XXXXXX", sock[600], addr[640], err[256];
  if (!mkdtemp(dir)) {
    return -1;
  }
  snprintf(sock, sizeof(sock), "%s/s", dir);
  snprintf(addr, sizeof(addr), "unix:%s", sock);
  pid_t pid = bench_start_daemon(o->torsiond, sock, o->daemon_threads, 0);
  tnClient* c = pid > 0 ? tnc_connect(addr, err, sizeof(err)) : NULL;
  int rc = c ? measure_daemon(o, fc, c, t_in, t_d, equal) : -1;
  if (!c) {
    fprintf(stderr, "bench_fd: torsiond (%s) did not start\n", o->torsiond);
  }
  tnc_close(c);
  if (pid > 0) {
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
  }
  unlink(sock);
  rmdir(dir);
  return rc;
}

/* ---------------------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------------------- */

static const char* usage =
    "usage: bench_fd MODEL.xml --states S.npy [--ctrl C.npy] [--integrator euler] [--eps 1e-6]\n"
    "       [--centered] [--single] [--batch] [--daemon] [--min-time 0.2] [--reps 5]\n"
    "       [--threads 1,2,4] [--torsiond PATH] [--daemon-threads T]\n"
    "(no measurement flag: all three; --daemon needs --torsiond)\n";

/* "1,2,4" -> thread counts */
static int parse_threads(const char* s, fdOpts* o) {
  o->nthreads = 0;
  for (const char* p = s; *p && o->nthreads < MAXTHREADS;) {
    char* end;
    long t = strtol(p, &end, 10);
    if (end == p || t < 1 || t > MAXTHREADS) {
      return -1;
    }
    o->threads[o->nthreads++] = (int)t;
    p = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') {
      return -1;
    }
  }
  return o->nthreads ? 0 : -1;
}

/* the options */
enum {
  O_STATES = 256,
  O_CTRL,
  O_INTEGRATOR,
  O_TORSIOND,
  O_EPS,
  O_MIN_TIME,
  O_REPS,
  O_DAEMON_THREADS,
  O_THREADS,
  O_SINGLE,
  O_BATCH,
  O_DAEMON,
  O_CENTERED
};
static const struct option options[] = {
    {"help", no_argument, NULL, 'h'},
    {"states", required_argument, NULL, O_STATES},
    {"ctrl", required_argument, NULL, O_CTRL},
    {"integrator", required_argument, NULL, O_INTEGRATOR},
    {"torsiond", required_argument, NULL, O_TORSIOND},
    {"eps", required_argument, NULL, O_EPS},
    {"min-time", required_argument, NULL, O_MIN_TIME},
    {"reps", required_argument, NULL, O_REPS},
    {"daemon-threads", required_argument, NULL, O_DAEMON_THREADS},
    {"threads", required_argument, NULL, O_THREADS},
    {"single", no_argument, NULL, O_SINGLE},
    {"batch", no_argument, NULL, O_BATCH},
    {"daemon", no_argument, NULL, O_DAEMON},
    {"centered", no_argument, NULL, O_CENTERED},
    {NULL, 0, NULL, 0}};

/* one option; 0, or 1 after printing why */
static int take(void* ctx, int opt, const char* v) {
  fdOpts* o = ctx;
  const char* p = "bench_fd";
  switch (opt) {
    case O_STATES: o->states = v; return 0;
    case O_CTRL: o->ctrl = v; return 0;
    case O_INTEGRATOR: o->integrator = v; return 0;
    case O_TORSIOND: o->torsiond = v; return 0;
    case O_SINGLE: o->single = 1; return 0;
    case O_BATCH: o->batch = 1; return 0;
    case O_DAEMON: o->daemon = 1; return 0;
    case O_CENTERED: o->centered = 1; return 0;
    case O_EPS: return bench_real(p, "--eps", v, 0, 0, &o->eps);
    case O_MIN_TIME: return bench_real(p, "--min-time", v, 0, 1, &o->min_time);
    case O_REPS: return bench_int(p, "--reps", v, 1, 64, &o->reps);
    case O_DAEMON_THREADS:
      return bench_int(p, "--daemon-threads", v, 1, MAXTHREADS, &o->daemon_threads);
    default:
      if (parse_threads(v, o)) {
        fprintf(stderr, "%s: --threads takes a comma list of counts in [1, %d], got '%s'\n", p,
                MAXTHREADS, v);
        return 1;
      }
      return 0;
  }
}

/* parse argv; 0, -1 after --help, or 1 after printing why */
static int parse(int argc, char** argv, fdOpts* o) {
  *o = (fdOpts){.eps = 1e-6,
                .min_time = 0.2,
                .reps = 5,
                .daemon_threads = 2,
                .threads = {1, 2, 4},
                .nthreads = 3};
  int rc = bench_getopt(argc, argv, options, take, o, &o->model, "bench_fd", usage);
  if (rc) {
    return rc;
  }
  if (!o->single && !o->batch && !o->daemon) {
    o->single = o->batch = 1;
    o->daemon = o->torsiond != NULL;
  }
  if (!o->model || !o->states || (o->daemon && !o->torsiond)) {
    fprintf(stderr, "bench_fd: %s\n",
            !o->model ? "missing MODEL.xml"
                      : (!o->states ? "missing --states" : "--daemon needs --torsiond"));
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  fdOpts o;
  fdCase fc;
  bench_install_engine_handlers();
  int prc = parse(argc, argv, &o);
  if (prc) {
    if (prc > 0) {
      fputs(usage, stderr);
    }
    return prc > 0 ? 2 : 0;
  }
  if (load_case(&o, &fc)) {
    return 1;
  }

  // the measurements asked for
  double single_us = 0, rate[MAXTHREADS] = {0}, t_in = 0, t_d = 0;
  int equal = 0, rc = 0;
  if (o.single) {
    time_single(&o, &fc);  // warm-up
    single_us = time_single(&o, &fc);
  }
  if (o.batch) {
    rc = measure_batch(&o, &fc, rate);
  }
  if (!rc && o.daemon) {
    rc = daemon_row(&o, &fc, &t_in, &t_d, &equal);
  }
  if (rc) {
    return 1;
  }

  // one JSON object
  json_t* doc = json_pack("{s:s, s:i, s:i, s:i, s:i, s:f, s:b, s:i}", "model", o.model, "nv",
                          (int)fc.m->nv, "nu", fc.nu, "na", (int)fc.m->na, "states", fc.B, "eps",
                          o.eps, "centered", o.centered, "integrator", fc.m->opt.integrator);
  if (doc && o.single) {
    json_object_set_new(doc, "single_us_per_state", bench_json_real(single_us, 4));
  }
  if (doc && o.batch) {
    json_t* batch = json_array();
    for (int k = 0; k < o.nthreads; k++) {
      json_array_append_new(batch, json_pack("{s:i, s:o}", "threads", o.threads[k], "states_per_s",
                                             bench_json_real(rate[k], 2)));
    }
    json_object_set_new(doc, "batch", batch);
  }
  if (doc && o.daemon) {
    json_object_set_new(
        doc, "daemon",
        json_pack("{s:i, s:i, s:o, s:o, s:o, s:b}", "threads", o.daemon_threads, "reps", o.reps,
                  "inprocess_s", bench_json_real(t_in, 6), "daemon_s", bench_json_real(t_d, 6),
                  "ratio", bench_json_real(t_d > 0 ? t_in / t_d : 0, 4), "bitwise_equal", equal));
  }
  char* json = bench_json_text(doc);
  if (!json) {
    fprintf(stderr, "bench_fd: out of memory printing JSON\n");
    return 1;
  }
  fputs(json, stdout);
  free(json);
  mj_deleteModel(fc.m);
  free(fc.text);
  free(fc.state);
  free(fc.ctrl);
  return 0;
}
