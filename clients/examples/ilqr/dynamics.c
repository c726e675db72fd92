/* clients/examples/ilqr/dynamics.c — the dynamics of the iLQR example, all computed by
 * torsiond: open-loop rollouts (one Rollout request, one item per control sequence), the
 * Jacobians of every physics step of the trajectories in one TransitionFD request (B =
 * starts x N states, fanned out over the daemon's workers), and the line search's forward
 * passes — closed loop through a session stepping one environment per candidate, or open
 * loop as one Rollout request. Several starts (initial guesses) share every request.
 *
 * States travel under ILQR_SPEC = TIME | QPOS | QVEL | ACT, i.e. [time, x] with x = [qpos,
 * qvel, act]; for hinge and slide joints (nq = nv) this is also transitionFD's tangent
 * layout, so a state difference is a plain difference. A stage holds its control for
 * dm->hold physics steps (a session step with frame_skip = hold). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilqr.h"

/* scratch of at least n doubles */
static double* scratch(ilqrDaemon* dd, size_t n) {
  if (n > dd->bufsize) {
    double* p = realloc(dd->buf, n * sizeof(double));
    if (!p) {
      fprintf(stderr, "ilqr: out of memory\n");
      return NULL;
    }
    dd->buf = p;
    dd->bufsize = n;
  }
  return dd->buf;
}

/* [time, x] */
static void pack(const ilqrDims* dm, const double* x, double time, double* s) {
  s[0] = time;
  memcpy(s + 1, x, sizeof(double) * dm->nx);
}

/* report a failed call */
static int failed(ilqrDaemon* dd, const char* what) {
  fprintf(stderr, "ilqr: %s failed: %s\n", what, tnc_error(dd->c));
  return -1;
}

/* stage controls [T, nu] -> per physics step [N, nu] */
static void expand(const ilqrDims* dm, const double* U, double* Uf) {
  for (int t = 0; t < dm->N; t++) {
    memcpy(Uf + (size_t)t * dm->nu, U + (size_t)(t / dm->hold) * dm->nu, sizeof(double) * dm->nu);
  }
}

/* one rollout's output states [N, nstate] into X (stage boundaries) and Xf (NULL: skip) */
static void unpack(const ilqrDims* dm, int ns, const double* x0, const double* st, double* X,
                   double* Xf) {
  int nx = dm->nx;
  memcpy(X, x0, sizeof(double) * nx);
  if (Xf) {
    memcpy(Xf, x0, sizeof(double) * nx);
  }
  for (int t = 0; t < dm->N; t++) {
    const double* s = st + (size_t)t * ns + 1;
    if ((t + 1) % dm->hold == 0) {
      memcpy(X + (size_t)((t + 1) / dm->hold) * nx, s, sizeof(double) * nx);
    }
    if (Xf) {
      memcpy(Xf + (size_t)(t + 1) * nx, s, sizeof(double) * nx);
    }
  }
}

/* B rollouts of the stage controls U[b] from x0[b]; results unpacked into X[b], Xf[b] */
static int rollout_items(ilqrDaemon* dd, const ilqrDims* dm, int B, const double* const* x0,
                         const double* const* U, double* const* X, double* const* Xf) {
  int ns = dd->nstate;
  double* s0 = scratch(dd, (size_t)B * ns + (size_t)B * dm->N * dm->nu);
  if (!s0) {
    return -1;
  }
  double* Uf = s0 + (size_t)B * ns;
  for (int b = 0; b < B; b++) {
    pack(dm, x0[b], 0, s0 + (size_t)b * ns);
    expand(dm, U[b], Uf + (size_t)b * dm->N * dm->nu);
  }

  // one request, one item per control sequence
  tncRollout req = {.model = dd->handle,
                    .spec = ILQR_SPEC,
                    .B = B,
                    .nstate = ns,
                    .nu = dm->nu,
                    .nstep = dm->N,
                    .state0 = s0,
                    .ctrl = Uf,
                    .ctrl_b = B,
                    .ctrl_t = dm->N};
  tncRolloutResult res;
  if (tnc_rollout(dd->c, &req, &res)) {
    return failed(dd, "Rollout");
  }
  for (int b = 0; b < B; b++) {
    unpack(dm, ns, x0[b], (const double*)res.states + (size_t)b * dm->N * ns, X[b],
           Xf ? Xf[b] : NULL);
    if (res.warnings[b]) {
      fprintf(stderr, "ilqr: warning: rollout item %d raised warnings 0x%x\n", b, res.warnings[b]);
    }
  }
  tnc_rollout_free(&res);
  return 0;
}

int ilqr_rollout(ilqrDaemon* dd, const ilqrDims* dm, ilqrWork** ws, int n) {
  const double *x0[ILQR_MAXSTART], *U[ILQR_MAXSTART];
  double *X[ILQR_MAXSTART], *Xf[ILQR_MAXSTART];
  for (int i = 0; i < n; i++) {
    x0[i] = ws[i]->x0;
    U[i] = ws[i]->U;
    X[i] = ws[i]->X;
    Xf[i] = ws[i]->Xf;
  }
  return n ? rollout_items(dd, dm, n, x0, U, X, Xf) : 0;
}

/* stage Jacobians from the one-step ones: A = A_h-1 ... A_0, B = sum_i A_h-1 ... A_i+1 B_i */
static int compose(const ilqrDims* dm, ilqrWork* w) {
  int nx = dm->nx, nu = dm->nu, h = dm->hold;
  double* tmp = malloc(sizeof(double) * nx * (nx + nu));
  if (!tmp) {
    return -1;
  }
  for (int s = 0; s < dm->T; s++) {
    double* A = w->A + (size_t)s * nx * nx;
    double* B = w->Bm + (size_t)s * nx * nu;
    memcpy(A, w->Af + (size_t)s * h * nx * nx, sizeof(double) * nx * nx);
    memcpy(B, w->Bf + (size_t)s * h * nx * nu, sizeof(double) * nx * nu);
    for (int i = 1; i < h; i++) {
      const double* Ai = w->Af + ((size_t)s * h + i) * nx * nx;
      const double* Bi = w->Bf + ((size_t)s * h + i) * nx * nu;
      mat_mul(tmp, Ai, A, nx, nx, nx, 0);
      memcpy(A, tmp, sizeof(double) * nx * nx);
      mat_mul(tmp, Ai, B, nx, nx, nu, 0);
      for (int k = 0; k < nx * nu; k++) {
        B[k] = tmp[k] + Bi[k];
      }
    }
  }
  free(tmp);
  return 0;
}

int ilqr_jacobians(ilqrDaemon* dd, const ilqrDims* dm, ilqrWork** ws, int n, double eps) {
  int nx = dm->nx, nu = dm->nu, N = dm->N, ns = dd->nstate, B = n * N;
  if (!n) {
    return 0;
  }
  double* s = scratch(dd, (size_t)B * ns + (size_t)B * nu);
  if (!s) {
    return -1;
  }
  double* Uf = s + (size_t)B * ns;
  for (int i = 0; i < n; i++) {
    for (int t = 0; t < N; t++) {
      pack(dm, ws[i]->Xf + (size_t)t * nx, t * dm->dt, s + ((size_t)i * N + t) * ns);
    }
    expand(dm, ws[i]->U, Uf + (size_t)i * N * nu);
  }

  // every physics step of every start in one request: forward differences, no sensors
  tncTransitionFD req = {.model = dd->handle,
                         .spec = ILQR_SPEC,
                         .B = B,
                         .nstate = ns,
                         .state = s,
                         .ctrl = Uf,
                         .ctrl_b = B,
                         .nu = nu,
                         .eps = eps};
  tncTransitionFDResult res;
  if (tnc_transition_fd(dd->c, &req, &res)) {
    return failed(dd, "TransitionFD");
  }
  int ok = res.B == B && res.nx == nx && res.nu == nu && res.A && res.Bm;
  for (int i = 0; i < n && ok; i++) {
    memcpy(ws[i]->Af, res.A + (size_t)i * N * nx * nx, sizeof(double) * N * nx * nx);
    memcpy(ws[i]->Bf, res.Bm + (size_t)i * N * nx * nu, sizeof(double) * N * nx * nu);
    ok = compose(dm, ws[i]) == 0;
    ws[i]->fresh = 1;
  }
  if (!ok) {
    fprintf(stderr, "ilqr: TransitionFD returned [%d, %d, %d], expected [%d, %d, %d]\n", res.B,
            res.nx, res.nu, B, nx, nu);
  }
  tnc_transition_fd_free(&res);
  return ok ? 0 : -1;
}

/* u = clamp(U_t + alpha k_t + K_t (x - X_t)) for candidate c of start w */
static void control(const ilqrTask* task, const ilqrDims* dm, const ilqrWork* w, int c, int t,
                    const double* x, double* u) {
  int nx = dm->nx, nu = dm->nu;
  const ilqrGains* g = &w->g[w->cand[c].gain];
  const double* K = g->K + (size_t)t * nu * nx;
  const double* Xt = w->X + (size_t)t * nx;
  for (int j = 0; j < nu; j++) {
    double v = w->U[(size_t)t * nu + j] + w->cand[c].alpha * g->k[(size_t)t * nu + j];
    for (int i = 0; i < nx; i++) {
      v += K[j * nx + i] * (x[i] - Xt[i]);
    }
    u[j] = fmin(task->uhi[j], fmax(task->ulo[j], v));
  }
}

/* a session of nenv environments, reset to the defaults (mj_resetData), then set to the
 * states x0[e] (mj_setState): what Rollout does to every item */
static int session_start(ilqrDaemon* dd, const ilqrDims* dm, const double* const* x0, int nenv) {
  if (dd->has_session && dd->session.nenv != nenv) {
    tnc_session_close(dd->c, &dd->session);
    dd->has_session = 0;
  }
  if (!dd->has_session) {
    if (tnc_session_create(dd->c, dd->handle, nenv, -1, 0, 0, ILQR_SPEC, 0, &dd->session, NULL)) {
      return failed(dd, "CreateSession");
    }
    dd->has_session = 1;
  } else if (tnc_session_reset(dd->c, &dd->session, NULL, NULL)) {
    return failed(dd, "SessionReset");
  }
  int ns = dd->nstate;
  double* s = scratch(dd, (size_t)nenv * ns);
  if (!s) {
    return -1;
  }
  for (int e = 0; e < nenv; e++) {
    pack(dm, x0[e], 0, s + (size_t)e * ns);
  }
  if (tnc_session_set_state(dd->c, &dd->session, ILQR_SPEC, ns, s)) {
    return failed(dd, "SessionSetState");
  }
  return 0;
}

/* candidate trajectory c of start w */
static double* cand_x(const ilqrDims* dm, const ilqrWork* w, int c) {
  return w->Xc + (size_t)c * (dm->T + 1) * dm->nx;
}

static double* cand_u(const ilqrDims* dm, const ilqrWork* w, int c) {
  return w->Uc + (size_t)c * dm->T * dm->nu;
}

int ilqr_forward_closed(ilqrDaemon* dd, const ilqrTask* task, const ilqrDims* dm, ilqrWork** ws,
                        int n) {
  int nx = dm->nx, nu = dm->nu, T = dm->T, ns = dd->nstate, nc = ws[0]->ncand;
  int nenv = n * nc;
  const double* x0[ILQR_MAXSTART * ILQR_MAXCAND];
  for (int e = 0; e < nenv; e++) {
    x0[e] = ws[e / nc]->x0;
    memcpy(cand_x(dm, ws[e / nc], e % nc), x0[e], sizeof(double) * nx);
  }
  if (session_start(dd, dm, x0, nenv)) {
    return -1;
  }
  double* buf = scratch(dd, (size_t)nenv * (ns + nu));
  if (!buf) {
    return -1;
  }
  double* states = buf;
  double* ctrl = buf + (size_t)nenv * ns;

  // step every candidate of every start together, each with its own feedback
  for (int t = 0; t < T; t++) {
    for (int e = 0; e < nenv; e++) {
      const ilqrWork* w = ws[e / nc];
      double* u = cand_u(dm, w, e % nc) + (size_t)t * nu;
      control(task, dm, w, e % nc, t, cand_x(dm, w, e % nc) + (size_t)t * nx, u);
      memcpy(ctrl + (size_t)e * nu, u, sizeof(double) * nu);
    }
    if (tnc_session_step(dd->c, &dd->session, ctrl, dm->hold, states, NULL, NULL)) {
      return failed(dd, "SessionStep");
    }
    for (int e = 0; e < nenv; e++) {
      memcpy(cand_x(dm, ws[e / nc], e % nc) + (size_t)(t + 1) * nx, states + (size_t)e * ns + 1,
             sizeof(double) * nx);
    }
  }
  return 0;
}

/* candidate c's controls along the linearized dynamics: dx' = A dx + B du */
static int predict_controls(const ilqrTask* task, const ilqrDims* dm, ilqrWork* w, int c) {
  int nx = dm->nx, nu = dm->nu;
  double *dx = calloc(3 * (size_t)nx, sizeof(double)), *dn = dx + nx, *xt = dn + nx;
  double du[ILQR_MAXQ];
  if (!dx) {
    return -1;
  }
  for (int t = 0; t < dm->T; t++) {
    double* u = cand_u(dm, w, c) + (size_t)t * nu;
    for (int i = 0; i < nx; i++) {
      xt[i] = w->X[(size_t)t * nx + i] + dx[i];
    }
    control(task, dm, w, c, t, xt, u);
    for (int j = 0; j < nu; j++) {
      du[j] = u[j] - w->U[(size_t)t * nu + j];
    }
    mat_mul(dn, w->A + (size_t)t * nx * nx, dx, nx, nx, 1, 0);
    mat_mul(dn, w->Bm + (size_t)t * nx * nu, du, nx, nu, 1, 1);
    memcpy(dx, dn, sizeof(double) * nx);
  }
  free(dx);
  return 0;
}

int ilqr_forward_open(ilqrDaemon* dd, const ilqrTask* task, const ilqrDims* dm, ilqrWork** ws,
                      int n) {
  int nc = ws[0]->ncand, B = n * nc;
  const double* x0[ILQR_MAXSTART * ILQR_MAXCAND];
  const double* U[ILQR_MAXSTART * ILQR_MAXCAND];
  double* X[ILQR_MAXSTART * ILQR_MAXCAND];
  for (int b = 0; b < B; b++) {
    ilqrWork* w = ws[b / nc];
    if (predict_controls(task, dm, w, b % nc)) {
      return -1;
    }
    x0[b] = w->x0;
    U[b] = cand_u(dm, w, b % nc);
    X[b] = cand_x(dm, w, b % nc);
  }

  // the true trajectories: one Rollout request with one item per candidate
  return rollout_items(dd, dm, B, x0, U, X, NULL);
}
