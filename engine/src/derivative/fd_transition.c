/* derivative/fd_transition.c — mjd_transitionFD: finite-differenced transition matrices of
 * the discrete-time forward dynamics (one mj_step).
 *
 * The nominal step is taken first; then each control, activation, velocity and position
 * coordinate is nudged by eps (positions in the tangent space with mj_integratePos) and
 * the step repeated, skipping the pipeline stages the nudge cannot change (controls and
 * activations: position and velocity stages; velocities: position stage). Before every
 * step the full input state, the controls and the solver warmstart are restored, so the
 * result does not depend on what ran before. Controls at their ctrlrange bounds are
 * differenced one-sided, on the side that stays in range. */
#include <torsion/torsion.h>

#include "derivative/fd_util.h"

/* scratch of one call */
typedef struct fdTransition_ {
  int spec;          /* state components restored before each step */
  mjtNum* saved;     /* the input state in the `spec` layout */
  mjtNum* ctrl;      /* the input controls */
  mjtNum* next;      /* physics state after the nominal step */
  mjtNum* plus;      /* ... after a step nudged forward */
  mjtNum* minus;     /* ... after a step nudged backward */
  mjtNum* col;       /* one column of A or B (2nv+na) */
  mjtNum* dpos;      /* tangent-space position nudge (nv) */
} fdTransition;

/* step with the given skip, record the physics state, restore the input */
static void fd_eval(const mjModel* m, mjData* d, const fdTransition* w, int skipstage,
                    mjtNum* out) {
  tn_fdStepSkip(m, d, skipstage, 1);
  tn_fdGetState(m, d, out);
  mj_setState(m, d, w->saved, w->spec);
}

/* x1 >= lower bound and x2 <= upper bound */
static int in_range(mjtNum x1, mjtNum x2, const mjtNum* bounds) {
  return x1 >= bounds[0] && x2 <= bounds[1];
}

/* columns of B: controls, one-sided at the ctrlrange bounds */
static void fd_controls(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                        int centered, mjtNum* B) {
  int ndx = 2 * m->nv + m->na, nu = m->nu;
  int clamp = !(m->opt.disableflags & mjDSBL_CLAMPCTRL);
  for (int i = 0; i < nu; i++) {
    int limited = clamp && m->actuator_ctrllimited[i];
    const mjtNum* range = m->actuator_ctrlrange + 2 * i;
    mjtNum u = w->ctrl[i];

    // nudge forward if the nudged control stays in range
    int fwd = !limited || in_range(u, u + eps, range);
    if (fwd) {
      d->ctrl[i] += eps;
      fd_eval(m, d, w, mjSTAGE_VEL, w->plus);
    }

    // nudge backward when centered, or when forward was not possible
    int back = (centered || !fwd) && (!limited || in_range(u - eps, u, range));
    if (back) {
      d->ctrl[i] -= eps;
      fd_eval(m, d, w, mjSTAGE_VEL, w->minus);
    }

    // difference
    tn_fdClampedStateDiff(m, w->col, w->next, fwd ? w->plus : NULL, back ? w->minus : NULL,
                          eps);
    tn_fdSetColumn(B, w->col, ndx, nu, i);
  }
}

/* columns of A for the activations */
static void fd_activations(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                           int centered, mjtNum* A) {
  int nv = m->nv, ndx = 2 * nv + m->na;
  for (int i = 0; i < m->na; i++) {
    d->act[i] += eps;
    fd_eval(m, d, w, mjSTAGE_VEL, w->plus);
    if (centered) {
      d->act[i] -= eps;
      fd_eval(m, d, w, mjSTAGE_VEL, w->minus);
    }
    tn_fdClampedStateDiff(m, w->col, w->next, w->plus, centered ? w->minus : NULL, eps);
    tn_fdSetColumn(A, w->col, ndx, ndx, 2 * nv + i);
  }
}

/* columns of A for the velocities */
static void fd_velocities(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                          int centered, mjtNum* A) {
  int nv = m->nv, ndx = 2 * nv + m->na;
  for (int i = 0; i < nv; i++) {
    d->qvel[i] += eps;
    fd_eval(m, d, w, mjSTAGE_POS, w->plus);
    if (centered) {
      d->qvel[i] -= eps;
      fd_eval(m, d, w, mjSTAGE_POS, w->minus);
    }
    tn_fdClampedStateDiff(m, w->col, w->next, w->plus, centered ? w->minus : NULL, eps);
    tn_fdSetColumn(A, w->col, ndx, ndx, nv + i);
  }
}

/* columns of A for the positions, nudged in the tangent space */
static void fd_positions(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                         int centered, mjtNum* A) {
  int nv = m->nv, ndx = 2 * nv + m->na;
  for (int i = 0; i < nv; i++) {
    mju_zero(w->dpos, nv);
    w->dpos[i] = 1;
    mj_integratePos(m, d->qpos, w->dpos, eps);
    fd_eval(m, d, w, mjSTAGE_NONE, w->plus);
    if (centered) {
      mj_integratePos(m, d->qpos, w->dpos, -eps);
      fd_eval(m, d, w, mjSTAGE_NONE, w->minus);
    }
    tn_fdClampedStateDiff(m, w->col, w->next, w->plus, centered ? w->minus : NULL, eps);
    tn_fdSetColumn(A, w->col, ndx, ndx, i);
  }
}

/* reasons the call cannot run; 1 if it can */
static int transition_ok(const mjModel* m, mjtNum eps, const mjtNum* C, const mjtNum* D) {
  if (!tn_fdCheckEps("mjd_transitionFD", eps)) {
    return 0;
  }
  if (m->opt.integrator == mjINT_RK4) {
    mju_error("mjd_transitionFD: RK4 integrator is not supported");
    return 0;
  }
  if ((C || D) && m->nsensordata > 0) {
    mju_error("mjd_transitionFD: C and D need sensor data, but sensors are not evaluated "
              "yet (model has %d sensor values)", m->nsensordata);
    return 0;
  }
  return 1;
}

/* finite-differenced transition matrices */
void mjd_transitionFD(const mjModel* m, mjData* d, mjtNum eps, mjtByte flg_centered,
                      mjtNum* A, mjtNum* B, mjtNum* C, mjtNum* D) {
  int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu;
  if (!transition_ok(m, eps, C, D)) {
    return;
  }
  fdTransition w;
  w.spec = mjSTATE_FULLPHYSICS | mjSTATE_CTRL;
  if (!(m->opt.disableflags & mjDSBL_WARMSTART)) {
    w.spec |= mjSTATE_WARMSTART;
  }

  // scratch
  mj_markStack(d);
  int nphys = nq + nv + na;
  w.saved = mj_stackAllocNum(d, mj_stateSize(m, w.spec));
  w.ctrl = mj_stackAllocNum(d, nu ? nu : 1);
  w.next = mj_stackAllocNum(d, nphys);
  w.plus = mj_stackAllocNum(d, nphys);
  w.minus = mj_stackAllocNum(d, nphys);
  w.col = mj_stackAllocNum(d, 2 * nv + na);
  w.dpos = mj_stackAllocNum(d, nv ? nv : 1);
  if (!w.saved || !w.ctrl || !w.next || !w.plus || !w.minus || !w.col || !w.dpos) {
    mj_freeStack(d);
    mju_error("mjd_transitionFD: arena too small for the scratch vectors");
    return;
  }

  // save the input, take the nominal step, restore the input
  mj_getState(m, d, w.saved, w.spec);
  mju_copy(w.ctrl, d->ctrl, nu);
  fd_eval(m, d, &w, mjSTAGE_NONE, w.next);

  // nudge controls, activations, velocities, positions
  if (B && nu) {
    fd_controls(m, d, &w, eps, flg_centered, B);
  }
  if (A) {
    fd_activations(m, d, &w, eps, flg_centered, A);
    fd_velocities(m, d, &w, eps, flg_centered, A);
    fd_positions(m, d, &w, eps, flg_centered, A);
  }
  mj_freeStack(d);
}
