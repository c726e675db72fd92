/* clients/examples/ilqr/main.c — `ilqr`: an iLQR trajectory optimizer on torsiond.
 *
 * Swings the dm_control cartpole or acrobot up from hanging rest and balances it upright.
 * Each iteration asks the daemon for the Jacobians of the whole trajectory in one
 * TransitionFD request, runs the backward passes locally (backward.c), and line-searches
 * every (regularization, step size) candidate at once through the daemon (dynamics.c,
 * solve.c). It prints the cost per iteration and the final state of the returned controls
 * (re-simulated open loop by one Rollout), writes the controls to an .npy file when asked,
 * and exits with status 0 when the goal is reached, 1 when it is not, 2 on errors.
 *
 *   ilqr --socket /tmp/torsiond.sock --task cartpole --model .../suite/cartpole.xml \
 *        [--horizon S] [--iters N] [--out-ctrl U.npy] [--out-states X.npy] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npy.h"
#include "ilqr.h"

/* command-line options */
typedef struct ilqrOpts_ {
  const char *address, *task, *model, *integrator, *out_ctrl, *out_states, *save_xml;
  const char* init_ctrl;
  int server_path, hold, starts;
  double horizon;
  ilqrSettings st;
} ilqrOpts;

static const char* usage =
    "usage: ilqr --task cartpole|acrobot --model MODEL.xml [options]\n"
    "  --socket PATH | --address ADDR  torsiond (default $TORSIOND_SOCKET or /tmp/torsiond.sock)\n"
    "  --server-path          MODEL is a path under the daemon's model_root\n"
    "  --horizon SECONDS      trajectory length (default: the task's)\n"
    "  --hold H               physics steps per control (default: the task's)\n"
    "  --starts N             the first N of the task's initial guesses (default: all)\n"
    "  --iters N              iteration limit (default 300)\n"
    "  --tol REL              a start stops when a step improves its cost by less (1e-4)\n"
    "  --alphas N             step sizes 1, 1/2, ... tried at once (default: the task's)\n"
    "  --mus N                regularization levels mu/10, mu, 10 mu, ... tried at once (3)\n"
    "  --mu MU                initial regularization (default 1)\n"
    "  --prune K              drop the worse half of the starts every K iterations\n"
    "                         (default: the task's; 0: never)\n"
    "  --line-search closed|open  closed-loop session steps (default) or open-loop Rollout\n"
    "  --integrator NAME      replaces integrator=\"RK4\" (no transitionFD for RK4; Euler)\n"
    "  --eps E                finite-difference step (default 1e-6)\n"
    "  --out-ctrl U.npy       the controls per physics step [N, nu]\n"
    "  --out-states X.npy     their open-loop trajectory [N+1, 2nv+na]\n"
    "  --save-xml FILE        the MJCF text sent to the daemon\n"
    "  --init-ctrl U.npy      initial controls per physics step [N, nu] (one start)\n"
    "  --quiet                only the summary\n";

/* a string option's value */
static int opt_str(const char* a, const char* v, ilqrOpts* o) {
  const char** slot = !strcmp(a, "--socket") || !strcmp(a, "--address") ? &o->address
                      : !strcmp(a, "--task")                            ? &o->task
                      : !strcmp(a, "--model")                           ? &o->model
                      : !strcmp(a, "--integrator")                      ? &o->integrator
                      : !strcmp(a, "--out-ctrl")                        ? &o->out_ctrl
                      : !strcmp(a, "--out-states")                      ? &o->out_states
                      : !strcmp(a, "--save-xml")                        ? &o->save_xml
                      : !strcmp(a, "--init-ctrl")                       ? &o->init_ctrl
                                                                        : NULL;
  if (slot) {
    *slot = v;
  }
  return slot != NULL;
}

/* a numeric option's value */
static int opt_num(const char* a, const char* v, ilqrOpts* o) {
  ilqrSettings* st = &o->st;
  int* islot = !strcmp(a, "--hold")     ? &o->hold
               : !strcmp(a, "--starts") ? &o->starts
               : !strcmp(a, "--iters")  ? &st->iters
               : !strcmp(a, "--alphas") ? &st->nalpha
               : !strcmp(a, "--mus")    ? &st->nmu
               : !strcmp(a, "--prune")  ? &st->prune
                                        : NULL;
  double* dslot = !strcmp(a, "--horizon") ? &o->horizon
                  : !strcmp(a, "--tol")   ? &st->tol
                  : !strcmp(a, "--eps")   ? &st->eps
                  : !strcmp(a, "--mu")    ? &st->mu0
                                          : NULL;
  if (islot) {
    *islot = atoi(v);
  }
  if (dslot) {
    *dslot = atof(v);
  }
  return islot || dslot;
}

/* parse argv; -1 on a bad option */
static int parse(int argc, char** argv, ilqrOpts* o) {
  const char* env = getenv("TORSIOND_SOCKET");
  *o = (ilqrOpts){.address = env ? env : "/tmp/torsiond.sock",
                  .integrator = "Euler",
                  .st = {.iters = 300,
                         .nalpha = 0,
                         .nmu = 3,
                         .prune = -1,
                         .verbose = 1,
                         .eps = 1e-6,
                         .tol = 1e-4,
                         .mu0 = 1}};
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--server-path")) {
      o->server_path = 1;
    } else if (!strcmp(a, "--quiet")) {
      o->st.verbose = 0;
    } else if (!strcmp(a, "--line-search") && v && (!strcmp(v, "open") || !strcmp(v, "closed"))) {
      o->st.open_loop = !strcmp(v, "open");
      i++;
    } else if (v && (opt_str(a, v, o) || opt_num(a, v, o))) {
      i++;
    } else {
      return -1;
    }
  }
  const ilqrSettings* st = &o->st;
  return o->task && o->model && st->nalpha >= 0 && st->nalpha <= ILQR_MAXALPHA && st->nmu >= 1 &&
                 st->nmu <= ILQR_MAXMU && st->iters >= 0 && st->mu0 >= 0 && st->eps > 0 &&
                 st->tol >= 0 && o->hold >= 0 && o->starts >= 0 && o->starts <= ILQR_MAXSTART
             ? 0
             : -1;
}

/* wall clock */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* the problem sizes from the model; -1 if the task does not fit it */
static int dims_of(const ilqrTask* task, const ilqrDaemon* dd, const ilqrOpts* o, ilqrDims* dm) {
  const tncModelInfo* mi = &dd->info;
  int hold = o->hold > 0 ? o->hold : task->hold;
  double horizon = o->horizon > 0 ? o->horizon : task->horizon;
  *dm = (ilqrDims){.nq = mi->nq,
                   .nv = mi->nv,
                   .na = mi->na,
                   .nu = mi->nu,
                   .nx = 2 * mi->nv + mi->na,
                   .dt = mi->timestep,
                   .hold = hold};
  dm->T = (int)lround(horizon / (dm->dt * hold));
  dm->N = dm->T * hold;
  if (mi->nq != task->nq || mi->nv != mi->nq || mi->nu != task->nu || mi->nu > ILQR_MAXQ) {
    fprintf(stderr, "ilqr: task %s wants nq = nv = %d, nu = %d; the model has nq %d nv %d nu %d\n",
            task->name, task->nq, task->nu, mi->nq, mi->nv, mi->nu);
    return -1;
  }
  if (strcmp(mi->name, task->model)) {
    fprintf(stderr, "ilqr: warning: task %s was written for model '%s', this one is '%s'\n",
            task->name, task->model, mi->name);
  }
  if (dd->nstate != 1 + dm->nx || dm->T < 1) {
    fprintf(stderr, "ilqr: unexpected state size %d or horizon %d stages\n", dd->nstate, dm->T);
    return -1;
  }
  return 0;
}

/* allocate one start's buffers; 0 or -1 */
static int work_alloc(ilqrWork* w, const ilqrDims* dm, int ngain, int ncand) {
  size_t T = (size_t)dm->T, N = (size_t)dm->N, nx = (size_t)dm->nx, nu = (size_t)dm->nu;
  memset(w, 0, sizeof(*w));
  w->x0 = calloc(nx, sizeof(double));
  w->X = calloc((T + 1) * nx, sizeof(double));
  w->U = calloc(T * nu, sizeof(double));
  w->Xf = calloc((N + 1) * nx, sizeof(double));
  w->Af = calloc(N * nx * nx, sizeof(double));
  w->Bf = calloc(N * nx * nu, sizeof(double));
  w->A = calloc(T * nx * nx, sizeof(double));
  w->Bm = calloc(T * nx * nu, sizeof(double));
  w->Xc = calloc(ncand * (T + 1) * nx, sizeof(double));
  w->Uc = calloc(ncand * T * nu, sizeof(double));
  int ok = w->x0 && w->X && w->U && w->Xf && w->Af && w->Bf && w->A && w->Bm && w->Xc && w->Uc;
  for (int g = 0; g < ngain; g++) {
    w->g[g].k = calloc(T * nu, sizeof(double));
    w->g[g].K = calloc(T * nu * nx, sizeof(double));
    ok = ok && w->g[g].k && w->g[g].K;
  }
  return ok ? 0 : -1;
}

static void work_free(ilqrWork* w) {
  free(w->x0), free(w->X), free(w->U), free(w->Xf), free(w->Af), free(w->Bf);
  free(w->A), free(w->Bm), free(w->Xc), free(w->Uc);
  for (int g = 0; g < ILQR_MAXMU; g++) {
    free(w->g[g].k), free(w->g[g].K);
  }
}

/* start i: hanging rest, controls uinit sin(2 pi t / period) (constant for period 0) */
static void work_init(const ilqrTask* task, const ilqrDims* dm, const ilqrSettings* st, int i,
                      ilqrWork* w) {
  double period = task->periods[i];
  memcpy(w->x0, task->q0, sizeof(double) * dm->nq);
  for (int t = 0; t < dm->T; t++) {
    double time = t * dm->hold * dm->dt;
    double v =
        period > 0 ? task->uinit * sin(2 * 3.14159265358979323846 * time / period) : task->uinit;
    for (int j = 0; j < dm->nu; j++) {
      w->U[t * dm->nu + j] = fmin(task->uhi[j], fmax(task->ulo[j], v));
    }
  }
  w->mu = st->mu0;
  w->active = 1;
}

/* initial controls from an .npy file [N, nu] (per physics step): the first of each stage */
static int load_controls(const char* path, const ilqrDims* dm, ilqrWork* w) {
  npyArray a;
  char err[256];
  if (npy_read(path, &a, err, sizeof(err))) {
    fprintf(stderr, "ilqr: %s: %s\n", path, err);
    return -1;
  }
  int ok = a.ndim == 2 && (int)a.shape[0] == dm->N && (int)a.shape[1] == dm->nu;
  for (int t = 0; ok && t < dm->T; t++) {
    memcpy(w->U + (size_t)t * dm->nu, a.data + (size_t)t * dm->hold * dm->nu,
           sizeof(double) * dm->nu);
  }
  if (!ok) {
    fprintf(stderr, "ilqr: %s: want [%d, %d] controls\n", path, dm->N, dm->nu);
  }
  npy_free(&a);
  return ok ? 0 : -1;
}

/* print a state as "qpos [..] qvel [..]" */
static void print_state(const char* label, const ilqrDims* dm, const double* x) {
  printf("%s qpos", label);
  for (int i = 0; i < dm->nq; i++) printf(" %.6f", x[i]);
  printf(" qvel");
  for (int i = 0; i < dm->nv; i++) printf(" %.6f", x[dm->nv + i]);
  printf("\n");
}

/* write the controls and states per physics step: [N, nu] and [N+1, nx] */
static int save_outputs(const ilqrOpts* o, const ilqrDims* dm, const ilqrWork* w) {
  char err[256] = "";
  size_t su[2] = {(size_t)dm->N, (size_t)dm->nu}, sx[2] = {(size_t)dm->N + 1, (size_t)dm->nx};
  double* Uf = malloc(sizeof(double) * dm->N * dm->nu);
  int rc = Uf ? 0 : -1;
  for (int t = 0; Uf && t < dm->N; t++) {
    memcpy(Uf + (size_t)t * dm->nu, w->U + (size_t)(t / dm->hold) * dm->nu,
           sizeof(double) * dm->nu);
  }
  if (!rc && o->out_ctrl) {
    rc = npy_write(o->out_ctrl, Uf, NPY_F64, 2, su, err, sizeof(err));
  }
  if (!rc && o->out_states) {
    rc = npy_write(o->out_states, w->Xf, NPY_F64, 2, sx, err, sizeof(err));
  }
  if (rc) {
    fprintf(stderr, "ilqr: cannot write the outputs %s\n", err);
  }
  free(Uf);
  return rc;
}

/* the summary of the best start: its open-loop final state and the goal test; exit status */
static int summarize(const ilqrOpts* o, const ilqrTask* task, const ilqrDims* dm, ilqrDaemon* dd,
                     ilqrWork** ws, int nstart, int iters, const ilqrTimes* times, double elapsed) {
  int b = 0;
  for (int i = 1; i < nstart; i++) {
    b = ws[i]->J < ws[b]->J ? i : b;
  }
  ilqrWork* w = ws[b];
  if (ilqr_rollout(dd, dm, &w, 1) || save_outputs(o, dm, w)) {
    return 2;
  }
  double err[3];
  const double* xf = w->Xf + (size_t)dm->N * dm->nx;
  int ok = ilqr_goal_reached(task, dm, xf, err);
  printf(
      "iterations %d, best start %d (%d steps), cost %.6f, %.2f s (TransitionFD %.2f s, "
      "line search %.2f s, rollouts %.2f s)\n",
      iters, b, w->iters, ilqr_total_cost(task, dm, w->X, w->U), elapsed, times->fd, times->forward,
      times->rollout);
  print_state("final", dm, xf);
  printf("goal %s: angle error %.4f, position error %.4f, speed %.4f\n", ok ? "reached" : "missed",
         err[0], err[1], err[2]);
  return ok ? 0 : 1;
}

/* initial guesses, optimization, summary; the exit status */
static int run(const ilqrOpts* o, const ilqrTask* task, ilqrDaemon* dd) {
  ilqrDims dm;
  ilqrWork work[ILQR_MAXSTART], *ws[ILQR_MAXSTART];
  int nstart = o->starts > 0 && o->starts < task->nstart ? o->starts : task->nstart;
  int nalloc = 0, status = 2;
  ilqrTimes times = {0};
  ilqrSettings st = o->st;  // the task's defaults where no option was given
  st.prune = st.prune >= 0 ? st.prune : task->prune;
  st.nalpha = st.nalpha > 0 ? st.nalpha : task->nalpha;
  double t0 = now_s();
  int ok = dims_of(task, dd, o, &dm) == 0;
  for (; ok && nalloc < nstart; nalloc++) {
    ws[nalloc] = &work[nalloc];
    ok = work_alloc(ws[nalloc], &dm, st.nmu, st.nmu * st.nalpha) == 0;
    if (ok) {
      work_init(task, &dm, &st, nalloc, ws[nalloc]);
    }
  }

  // initial trajectories, then the iterations
  if (ok && o->init_ctrl) {
    ok = load_controls(o->init_ctrl, &dm, ws[0]) == 0;
    nstart = 1;
  }
  if (ok && ilqr_rollout(dd, &dm, ws, nstart) == 0) {
    for (int i = 0; i < nstart; i++) {
      ws[i]->J = ilqr_total_cost(task, &dm, ws[i]->X, ws[i]->U);
    }
    printf(
        "ilqr: task %s, %d stages of %d x %g s, nx = %d, nu = %d, %d start%s, initial "
        "cost %.6f\n",
        task->name, dm.T, dm.hold, dm.dt, dm.nx, dm.nu, nstart, nstart > 1 ? "s" : "", ws[0]->J);
    int iters = ilqr_solve(&st, task, &dm, dd, ws, nstart, &times);
    if (iters >= 0) {
      status = summarize(o, task, &dm, dd, ws, nstart, iters, &times, now_s() - t0);
    }
  }
  for (int i = 0; i < nalloc; i++) {
    work_free(ws[i]);
  }
  return status;
}

int main(int argc, char** argv) {
  ilqrOpts o;
  if (parse(argc, argv, &o)) {
    fputs(usage, stderr);
    return 2;
  }
  const ilqrTask* task = ilqr_task(o.task);
  if (!task) {
    fprintf(stderr, "ilqr: unknown task %s (cartpole, acrobot)\n", o.task);
    return 2;
  }
  ilqrDaemon dd;
  int status = 2;
  if (ilqr_daemon_open(&dd, o.address, o.model, o.server_path, o.integrator, o.save_xml) == 0) {
    status = run(&o, task, &dd);
  }
  ilqr_daemon_close(&dd);
  return status;
}
