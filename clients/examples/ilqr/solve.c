/* clients/examples/ilqr/solve.c — the iLQR iteration, for several starts side by side.
 *
 * One iteration, for every start still active:
 *   1. the Jacobians of its trajectory (all starts in one TransitionFD request; skipped
 *      when the last iteration left the trajectory unchanged);
 *   2. backward passes at several Levenberg-Marquardt levels mu 10^(i-1) (local, cheap);
 *   3. the forward passes of every (level, step size) candidate of every start at once
 *      (closed loop through one session, or open loop through one Rollout request);
 *   4. per start, the candidate with the lowest cost among those that decrease it enough
 *      (Armijo, 1e-4 of the predicted decrease) is accepted and its level becomes the
 *      middle of the next ladder; when none does, the ladder moves up by its length;
 *   5. the accepted controls are re-simulated open loop (one Rollout request for all) to
 *      get the states at every physics step for the next Jacobians.
 * A start stops when an accepted step improves its cost by less than tol (relative); every
 * `prune` iterations the worse half of the active starts is dropped; the run ends when no
 * start is active, with the lowest cost found. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ilqr.h"

#define MU_MIN 1e-6
#define MU_MAX 1e10
#define ARMIJO 1e-4

/* wall clock */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* backward passes at the levels mu 10^(i-1) and the candidate list: every step size with
 * every level whose pass succeeded, padded to nmu * nalpha with copies of the first */
static void prepare(const ilqrSettings* st, const ilqrTask* task, const ilqrDims* dm, ilqrWork* w) {
  w->ngain = st->nmu;
  w->ncand = 0;
  for (int g = 0; g < st->nmu; g++) {
    double m = w->mu * pow(10.0, g - 1);
    w->g[g].mu = m < MU_MIN ? 0 : m;
    ilqr_backward(task, dm, w, &w->g[g]);
    for (int a = 0; a < st->nalpha && w->g[g].ok; a++) {
      w->cand[w->ncand++] = (ilqrCand){.gain = g, .alpha = ldexp(1.0, -a)};
    }
  }
  w->nreal = w->ncand;

  // a start with no usable gains runs its current controls (alpha 0 on level 0)
  if (!w->ncand) {
    w->cand[w->ncand++] = (ilqrCand){.gain = 0, .alpha = 0};
    memset(w->g[0].K, 0, sizeof(double) * dm->T * dm->nu * dm->nx);
  }
  while (w->ncand < st->nmu * st->nalpha) {
    w->cand[w->ncand++] = w->cand[0];
  }
}

/* the best candidate of start w (lowest cost with a sufficient decrease), or -1 */
static int pick(const ilqrTask* task, const ilqrDims* dm, const ilqrWork* w, double* Jbest) {
  int best = -1;
  for (int c = 0; c < w->nreal; c++) {
    const ilqrGains* g = &w->g[w->cand[c].gain];
    double a = w->cand[c].alpha;
    double Jc = ilqr_total_cost(task, dm, w->Xc + (size_t)c * (dm->T + 1) * dm->nx,
                                w->Uc + (size_t)c * dm->T * dm->nu);
    double expected = -(a * g->dV[0] + a * a * g->dV[1]);
    if (Jc < w->J && (expected <= 0 || w->J - Jc > ARMIJO * expected) &&
        (best < 0 || Jc < *Jbest)) {
      best = c;
      *Jbest = Jc;
      break;
    }
  }
  return best;
}

/* take candidate `best` of start w (or raise its regularization when -1); returns 1 when
 * the controls changed */
static int accept(const ilqrSettings* st, const ilqrDims* dm, ilqrWork* w, int best, double Jn) {
  if (best < 0) {
    w->mu = fmax(w->mu * pow(10.0, st->nmu), MU_MIN);
    if (w->mu > MU_MAX) {
      w->active = 0;
    }
    return 0;
  }
  double dJ = w->J - Jn;
  w->mu = w->g[w->cand[best].gain].mu;
  memcpy(w->U, w->Uc + (size_t)best * dm->T * dm->nu, sizeof(double) * dm->T * dm->nu);
  w->fresh = 0;
  w->iters++;
  if (dJ < st->tol * Jn) {
    w->converged = 1;
    w->active = 0;
  }
  return 1;
}

/* the active starts into list; their count */
static int active_list(ilqrWork** ws, int nstart, ilqrWork** list) {
  int n = 0;
  for (int i = 0; i < nstart; i++) {
    if (ws[i]->active) {
      list[n++] = ws[i];
    }
  }
  return n;
}

/* the start with the lowest cost */
static int best_start(ilqrWork** ws, int nstart) {
  int b = 0;
  for (int i = 1; i < nstart; i++) {
    if (ws[i]->J < ws[b]->J) {
      b = i;
    }
  }
  return b;
}

/* drop the worse half of the active starts */
static void prune(ilqrWork** ws, int nstart) {
  ilqrWork* list[ILQR_MAXSTART];
  int n = active_list(ws, nstart, list);
  for (int k = 0; k < n / 2; k++) {
    int worst = -1;
    for (int i = 0; i < n; i++) {
      if (list[i]->active && (worst < 0 || list[i]->J > list[worst]->J)) {
        worst = i;
      }
    }
    list[worst]->active = 0;
  }
}

/* one line of progress: the best cost and every start's */
static void report(const ilqrTask* task, const ilqrDims* dm, ilqrWork** ws, int nstart, int it,
                   int nchanged) {
  int b = best_start(ws, nstart);
  double err[3];
  ilqr_goal_reached(task, dm, ws[b]->X + (size_t)dm->T * dm->nx, err);
  printf("iter %3d  cost %12.6f  mu %8.2g  final angle error %.3f", it, ws[b]->J, ws[b]->mu,
         err[0]);
  if (nstart > 1) {
    printf("  starts:");
    for (int i = 0; i < nstart; i++) {
      printf(" %.2f%s", ws[i]->J, ws[i]->converged ? "*" : (ws[i]->active ? "" : "-"));
    }
  }
  printf("%s\n", nchanged ? "" : "  (no decrease)");
  fflush(stdout);
}

/* steps 1-3 for the active starts; 0 or -1 */
static int linearize_and_search(const ilqrSettings* st, const ilqrTask* task, const ilqrDims* dm,
                                ilqrDaemon* dd, ilqrWork** list, int n, ilqrTimes* times) {
  ilqrWork* stale[ILQR_MAXSTART];
  int ns = 0;
  for (int i = 0; i < n; i++) {
    if (!list[i]->fresh) {
      stale[ns++] = list[i];
    }
  }
  double t0 = now_s();
  if (ilqr_jacobians(dd, dm, stale, ns, st->eps)) {
    return -1;
  }
  times->fd += now_s() - t0;
  for (int i = 0; i < n; i++) {
    prepare(st, task, dm, list[i]);
  }
  t0 = now_s();
  int rc = st->open_loop ? ilqr_forward_open(dd, task, dm, list, n)
                         : ilqr_forward_closed(dd, task, dm, list, n);
  times->forward += now_s() - t0;
  return rc;
}

int ilqr_solve(const ilqrSettings* st, const ilqrTask* task, const ilqrDims* dm, ilqrDaemon* dd,
               ilqrWork** ws, int nstart, ilqrTimes* times) {
  ilqrWork *list[ILQR_MAXSTART], *moved[ILQR_MAXSTART];
  int it;
  for (it = 0; it < st->iters; it++) {
    // linearize, backward passes, all forward passes
    int n = active_list(ws, nstart, list);
    if (!n) {
      break;
    }
    if (linearize_and_search(st, task, dm, dd, list, n, times)) {
      return -1;
    }

    // choose per start, then re-simulate the accepted controls in one request
    int nm = 0;
    double Jn[ILQR_MAXSTART];
    for (int i = 0; i < n; i++) {
      int best = pick(task, dm, list[i], &Jn[i]);
      if (accept(st, dm, list[i], best, Jn[i])) {
        moved[nm++] = list[i];
      }
    }
    double t0 = now_s();
    if (ilqr_rollout(dd, dm, moved, nm)) {
      return -1;
    }
    times->rollout += now_s() - t0;
    for (int i = 0; i < nm; i++) {
      moved[i]->J = ilqr_total_cost(task, dm, moved[i]->X, moved[i]->U);
    }
    if (st->verbose) {
      report(task, dm, ws, nstart, it, nm);
    }
    if (st->prune > 0 && (it + 1) % st->prune == 0) {
      prune(ws, nstart);
    }
  }
  return it;
}
