/* integrate/rk4.c — the explicit 4th-order Runge-Kutta integrator.
 *
 * The state X = (qpos, qvel, act) has derivative F = (qvel, qacc, act_dot). Stage i starts
 * from X0 "plus" h * sum_j A(i,j) * F_j (positions integrated on the quaternion manifold),
 * evaluates mj_forward there at time t + c_i*h (without the optional computations), and the
 * final update adds h * sum_j b_j * F_j to X0 through the same state update as Euler.
 * Stage 0 is the forward dynamics already computed by mj_step. */
#include <torsion/torsion.h>

#include "forward/forward.h"
#include "integrate/integrate.h"
#include "lanes/lanes.h"

/* Butcher tableau of the classic method: A is (N-1)x(N-1) row-major, one row per stage */
// clang-format off
static const mjtNum RK4_A[9] = {
  0.5, 0,   0,
  0,   0.5, 0,
  0,   0,   1,
};
// clang-format on
static const mjtNum RK4_B[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};

/* scratch of one integration: stage states X[i], derivatives F[i] and the increment dX */
typedef struct {
  mjtNum* X[4]; /* (qpos, qvel, act) of each stage */
  mjtNum* F[4]; /* (qacc, act_dot) of each stage */
  mjtNum* dX;   /* weighted sum (qvel, qacc, act_dot) */
} rk_scratch;

/* dX = sum over stages j < n of coef[j] * (qvel_j, qacc_j, act_dot_j) */
static void rk_increment(const mjModel* m, rk_scratch* s, const mjtNum* coef, int n) {
  int nq = m->nq, nv = m->nv, na = m->na;
  mju_zero(s->dX, 2 * nv + na);
  for (int j = 0; j < n; j++) {
    mju_addToScl(s->dX, s->X[j] + nq, coef[j], nv);
    mju_addToScl(s->dX + nv, s->F[j], coef[j], nv + na);
  }
}

/* put a stored state into mjData */
static void rk_set_state(const mjModel* m, mjData* d, const mjtNum* X) {
  mju_copy(d->qpos, X, m->nq);
  mju_copy(d->qvel, X + m->nq, m->nv);
  mju_copy(d->act, X + m->nq + m->nv, m->na);
}

/* store the derivative computed by mj_forward */
static void rk_get_deriv(const mjModel* m, const mjData* d, mjtNum* F) {
  mju_copy(F, d->qacc, m->nv);
  mju_copy(F + m->nv, d->act_dot, m->na);
}

/* stage i's state: X_i = X_0 + h*dX, at time t0 + c*h, put into mjData */
static void rk_stage_state(const mjModel* m, mjData* d, rk_scratch* s, int i, mjtNum t0,
                           mjtNum c) {
  int nq = m->nq, nv = m->nv, na = m->na;
  mjtNum h = m->opt.timestep;
  rk_increment(m, s, RK4_A + 3 * (i - 1), i);
  mju_copy(s->X[i], s->X[0], nq + nv + na);
  mj_integratePos(m, s->X[i], s->dX, h);
  mju_addToScl(s->X[i] + nq, s->dX + nv, h, nv + na);
  rk_set_state(m, d, s->X[i]);
  d->time = t0 + c * h;
}

/* allocate the scratch on the arena; 0 when the arena is exhausted */
static int rk_alloc(const mjModel* m, mjData* d, rk_scratch* s, int N) {
  int nq = m->nq, nv = m->nv, na = m->na;
  s->dX = mj_stackAllocNum(d, 2 * nv + na);
  if (!s->dX) {
    return 0;
  }
  for (int i = 0; i < N; i++) {
    s->X[i] = mj_stackAllocNum(d, nq + nv + na);
    s->F[i] = mj_stackAllocNum(d, nv + na);
    if (!s->X[i] || !s->F[i]) {
      return 0;
    }
  }
  return 1;
}

/* Runge-Kutta of order 4 for n datas stepping together (1, or TN_LANES whose forward
 * dynamics run as a group); mj_forward must have run on each */
static void rk4_group(const mjModel* m, mjData* const* d, int n, int lean) {
  int nq = m->nq, nv = m->nv, N = 4;
  rk_scratch s[TN_LANES];
  mjtNum t0[TN_LANES];

  // scratch on each data's arena (none: no step, as when one data runs out)
  int ok = 1;
  for (int l = 0; l < n; l++) {
    mj_markStack(d[l]);
    ok = ok && rk_alloc(m, d[l], &s[l], N);
  }
  if (!ok) {
    for (int l = 0; l < n; l++) {
      mj_freeStack(d[l]);
    }
    return;
  }

  // stage 0: the current state and its derivative
  for (int l = 0; l < n; l++) {
    t0[l] = d[l]->time;
    mju_copy(s[l].X[0], d[l]->qpos, nq);
    mju_copy(s[l].X[0] + nq, d[l]->qvel, nv);
    mju_copy(s[l].X[0] + nq + nv, d[l]->act, m->na);
    rk_get_deriv(m, d[l], s[l].F[0]);
  }

  // stages 1..N-1 at times t0 + c_i*h, c_i = row sums of A; their derivatives without
  // energy or sensors
  for (int i = 1; i < N; i++) {
    mjtNum c = 0;
    for (int j = 0; j < i; j++) {
      c += RK4_A[3 * (i - 1) + j];
    }
    for (int l = 0; l < n; l++) {
      rk_stage_state(m, d[l], &s[l], i, t0[l], c);
    }
    if (n == 1) {
      tn__forwardSkip(m, d[0], mjSTAGE_NONE, 1);
    } else {
      tn__forwardLanes(m, d, mjSTAGE_NONE, 1, lean && i < N - 1);
    }
    for (int l = 0; l < n; l++) {
      rk_get_deriv(m, d[l], s[l].F[i]);
    }
  }

  // weighted derivative; back to the initial state and time, then advance
  for (int l = 0; l < n; l++) {
    rk_increment(m, &s[l], RK4_B, N);
    d[l]->time = t0[l];
    rk_set_state(m, d[l], s[l].X[0]);
    tn__advance(m, d[l], s[l].dX + 2 * nv, s[l].dX + nv, s[l].dX);
    mj_freeStack(d[l]);
  }
}

/* Runge-Kutta step of order N (only N = 4 is supported); mj_forward must have run */
void mj_RungeKutta(const mjModel* m, mjData* d, int N) {
  if (N != 4) {
    mju_error("mj_RungeKutta: supported RK orders: N=4 (got %d)", N);
    return;
  }
  rk4_group(m, &d, 1, 0);
}

/* the Runge-Kutta step of TN_LANES datas, their forward dynamics as a group (with `lean`,
 * tn__forwardLean's answer, the stages before the last transient) */
void tn__rungeKuttaLanes(const mjModel* m, mjData* const* d, int lean) {
  rk4_group(m, d, TN_LANES, lean);
}
