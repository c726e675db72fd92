/* clients/examples/ilqr/backward.c — the iLQR backward pass: the Riccati-like recursion
 * of the local quadratic model of the cost-to-go along the current trajectory, giving the
 * feed-forward steps k_t and feedback gains K_t of the control update
 *   u_t = U_t + alpha k_t + K_t (x_t - X_t).
 * The control box is handled by a box QP on Quu (boxqp.c), with zero feedback along clamped
 * controls; Levenberg-Marquardt regularization adds mu I to Quu. */
#include <stdlib.h>
#include <string.h>

#include "ilqr.h"

/* scratch of one backward pass */
typedef struct bwdScratch_ {
  double *Vx, *Vxx, *lx, *lxx, *lu, *luu;
  double *Qx, *Qu, *Qxx, *Quu, *Qux, *VA, *VB, *H, *Hff, *tmp;
  double* block;
} bwdScratch;

/* carve the scratch out of one allocation */
static int scratch_alloc(bwdScratch* s, int nx, int nu) {
  size_t n = 3 * (size_t)nx + 4 * (size_t)nx * nx + 3 * (size_t)nu + 3 * (size_t)nu * nu +
             2 * (size_t)nu * nx + (size_t)nx * nu;
  double* p = s->block = calloc(n, sizeof(double));
  if (!p) {
    return -1;
  }
  s->Vx = p, p += nx;
  s->lx = p, p += nx;
  s->Qx = p, p += nx;
  s->Vxx = p, p += (size_t)nx * nx;
  s->lxx = p, p += (size_t)nx * nx;
  s->Qxx = p, p += (size_t)nx * nx;
  s->VA = p, p += (size_t)nx * nx;
  s->lu = p, p += nu;
  s->luu = p, p += nu;
  s->Qu = p, p += nu;
  s->Quu = p, p += (size_t)nu * nu;
  s->H = p, p += (size_t)nu * nu;
  s->Hff = p, p += (size_t)nu * nu;
  s->Qux = p, p += (size_t)nu * nx;
  s->tmp = p, p += (size_t)nu * nx;
  s->VB = p;
  return 0;
}

/* Q-function of stage t: Qx, Qu, Qxx, Quu, Qux from the stage cost and V_{t+1} */
static void q_terms(const ilqrTask* task, const ilqrDims* dm, const ilqrWork* w, int t,
                    bwdScratch* s) {
  int nx = dm->nx, nu = dm->nu;
  const double* A = w->A + (size_t)t * nx * nx;
  const double* B = w->Bm + (size_t)t * nx * nu;
  ilqr_stage_cost(task, dm, t, w->X + (size_t)t * nx, w->U + (size_t)t * nu, s->lx, s->lxx, s->lu,
                  s->luu);

  // first order: Qx = lx + A'Vx, Qu = lu + B'Vx
  memcpy(s->Qx, s->lx, sizeof(double) * nx);
  mat_mulT(s->Qx, A, s->Vx, nx, nx, 1, 1);
  memcpy(s->Qu, s->lu, sizeof(double) * nu);
  mat_mulT(s->Qu, B, s->Vx, nx, nu, 1, 1);

  // second order: Qxx = lxx + A'Vxx A, Quu = luu + B'Vxx B, Qux = B'Vxx A
  mat_mul(s->VA, s->Vxx, A, nx, nx, nx, 0);
  mat_mulT(s->Qxx, A, s->VA, nx, nx, nx, 0);
  mat_mulT(s->Qux, B, s->VA, nx, nu, nx, 0);
  mat_mul(s->VB, s->Vxx, B, nx, nx, nu, 0);
  mat_mulT(s->Quu, B, s->VB, nx, nu, nu, 0);
  for (int i = 0; i < nx * nx; i++) {
    s->Qxx[i] += s->lxx[i];
  }
  for (int j = 0; j < nu; j++) {
    s->Quu[j * nu + j] += s->luu[j];
  }
}

/* feedback gains: K_free = -Hff^-1 Qux_free, zero rows for clamped controls */
static void feedback(int nx, int nu, const unsigned char* isfree, int nfree, const double* Hff,
                     const double* Qux, double* K) {
  double col[ILQR_MAXQ];
  memset(K, 0, sizeof(double) * nx * nu);
  for (int c = 0; c < nx && nfree; c++) {
    int r = 0;
    for (int j = 0; j < nu; j++) {
      if (isfree[j]) {
        col[r++] = -Qux[j * nx + c];
      }
    }
    mat_cholsolve(Hff, col, nfree);
    r = 0;
    for (int j = 0; j < nu; j++) {
      if (isfree[j]) {
        K[j * nx + c] = col[r++];
      }
    }
  }
}

/* V_t from the Q-function and the gains; the expected decrease terms accumulate in dV */
static void value_update(int nx, int nu, const double* k, const double* K, bwdScratch* s,
                         double dV[2]) {
  // Vx = Qx + K'Quu k + K'Qu + Qux'k
  double Quk[ILQR_MAXQ];
  mat_mul(Quk, s->Quu, k, nu, nu, 1, 0);
  memcpy(s->Vx, s->Qx, sizeof(double) * nx);
  mat_mulT(s->Vx, K, Quk, nu, nx, 1, 1);
  mat_mulT(s->Vx, K, s->Qu, nu, nx, 1, 1);
  mat_mulT(s->Vx, s->Qux, k, nu, nx, 1, 1);

  // Vxx = Qxx + K'Quu K + K'Qux + Qux'K, symmetrized
  mat_mul(s->tmp, s->Quu, K, nu, nu, nx, 0);
  memcpy(s->Vxx, s->Qxx, sizeof(double) * nx * nx);
  mat_mulT(s->Vxx, K, s->tmp, nu, nx, nx, 1);
  mat_mulT(s->Vxx, K, s->Qux, nu, nx, nx, 1);
  mat_mulT(s->Vxx, s->Qux, K, nu, nx, nx, 1);
  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < i; j++) {
      double v = 0.5 * (s->Vxx[i * nx + j] + s->Vxx[j * nx + i]);
      s->Vxx[i * nx + j] = s->Vxx[j * nx + i] = v;
    }
  }

  // expected decrease: alpha k'Qu + alpha^2 k'Quu k / 2
  for (int j = 0; j < nu; j++) {
    dV[0] += k[j] * s->Qu[j];
    dV[1] += 0.5 * k[j] * Quk[j];
  }
}

/* the control-limited step k_t of stage t with Quu + mu I; nfree or -1 */
static int stage_step(const ilqrTask* task, const ilqrDims* dm, const ilqrWork* w, int t, double mu,
                      double* k, bwdScratch* s, unsigned char* isfree) {
  int nu = dm->nu;
  const double* u = w->U + (size_t)t * nu;
  double lo[ILQR_MAXQ], hi[ILQR_MAXQ];
  memcpy(s->H, s->Quu, sizeof(double) * nu * nu);
  for (int j = 0; j < nu; j++) {
    s->H[j * nu + j] += mu;
    lo[j] = task->ulo[j] - u[j];
    hi[j] = task->uhi[j] - u[j];
  }

  // k warm-starts from the previous iteration's step
  return ilqr_boxqp(nu, s->H, s->Qu, lo, hi, k, isfree, s->Hff);
}

void ilqr_backward(const ilqrTask* task, const ilqrDims* dm, const ilqrWork* w, ilqrGains* g) {
  int nx = dm->nx, nu = dm->nu;
  bwdScratch s;
  unsigned char isfree[ILQR_MAXQ];
  g->ok = 0;
  g->dV[0] = g->dV[1] = 0;
  if (scratch_alloc(&s, nx, nu)) {
    return;
  }

  // terminal cost: V_T
  ilqr_stage_cost(task, dm, dm->T, w->X + (size_t)dm->T * nx, NULL, s.Vx, s.Vxx, s.lu, s.luu);

  // stages backward in time
  int t;
  for (t = dm->T - 1; t >= 0; t--) {
    double* k = g->k + (size_t)t * nu;
    double* K = g->K + (size_t)t * nu * nx;
    q_terms(task, dm, w, t, &s);
    int nfree = stage_step(task, dm, w, t, g->mu, k, &s, isfree);
    if (nfree < 0) {
      break;
    }
    feedback(nx, nu, isfree, nfree, s.Hff, s.Qux, K);
    value_update(nx, nu, k, K, &s, g->dV);
  }
  g->ok = t < 0;
  free(s.block);
}
