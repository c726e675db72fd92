/* fd/fd_transition.c — mjd_transitionFD: finite-differenced transition matrices of
 * the discrete-time forward dynamics (one mj_step).
 *
 * The nominal step is taken first; then each control, activation, velocity and position
 * coordinate is nudged by eps (positions in the tangent space with mj_integratePos) and
 * the step repeated, skipping the pipeline stages the nudge cannot change (controls and
 * activations: position and velocity stages; velocities: position stage). Before every
 * step the full input state, the controls and the solver warmstart are restored, so the
 * result does not depend on what ran before. Controls at their ctrlrange bounds are
 * differenced one-sided, on the side that stays in range.
 *
 * C and D difference the sensor values each step computes (those of the state before the
 * integration). Sensors are evaluated only when C or D is asked for; stages a nudge skips
 * keep the sensor values of the unperturbed inputs, which is what they would recompute. */
#include <torsion/torsion.h>

#include "fd/fd_util.h"

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
  int sensors;       /* evaluate and difference the sensors (C or D requested) */
  mjtNum* sens_next;  /* sensordata of the nominal step */
  mjtNum* sens_plus;  /* ... of a step nudged forward */
  mjtNum* sens_minus; /* ... of a step nudged backward */
  mjtNum* sens_col;   /* one column of C or D (nsensordata) */
} fdTransition;

/* the sensordata buffer paired with a state buffer of w (next, plus or minus) */
static mjtNum* sens_of(const fdTransition* w, const mjtNum* out) {
  if (!w->sensors) {
    return NULL;
  }
  return out == w->next ? w->sens_next : (out == w->plus ? w->sens_plus : w->sens_minus);
}

/* step with the given skip, record the physics state (and sensordata), restore the input */
static void fd_eval(const mjModel* m, mjData* d, const fdTransition* w, int skipstage,
                    mjtNum* out) {
  tn__fdStepSkip(m, d, skipstage, !w->sensors);
  tn__fdGetState(m, d, out);
  mjtNum* sens = sens_of(w, out);
  if (sens) {
    mju_copy(sens, d->sensordata, m->nsensordata);
  }
  mj_setState(m, d, w->saved, w->spec);
}

/* column j of C or D (ncol columns; NULL: not wanted): forward, backward or centered
 * difference of the sensordata, by which neighbours exist. Centered columns are
 * (plus - minus) / 2eps for C and D alike; MuJoCo 3.14's centered D has the opposite sign
 * (a MuJoCo defect, docs/fidelity.md), which Torsion does not reproduce. */
static void fd_sensor_column(const mjModel* m, const fdTransition* w, int fwd, int back,
                             mjtNum eps, mjtNum* mat, int ncol, int j) {
  int ns = m->nsensordata;
  if (!mat || !w->sensors) {
    return;
  }
  if (fwd && back) {
    mju_sub(w->sens_col, w->sens_plus, w->sens_minus, ns);
    mju_scl(w->sens_col, w->sens_col, 1 / (2 * eps), ns);
  } else if (fwd || back) {
    mju_sub(w->sens_col, fwd ? w->sens_plus : w->sens_next, fwd ? w->sens_next : w->sens_minus,
            ns);
    mju_scl(w->sens_col, w->sens_col, 1 / eps, ns);
  } else {
    mju_zero(w->sens_col, ns);
  }
  tn__fdSetColumn(mat, w->sens_col, ns, ncol, j);
}

/* column j of A (NULL: not wanted) from the nudged steps: forward, or centered */
static void fd_state_column(const mjModel* m, const fdTransition* w, int centered, mjtNum eps,
                            mjtNum* A, int j) {
  int ndx = 2 * m->nv + m->na;
  if (A) {
    tn__fdClampedStateDiff(m, w->col, w->next, w->plus, centered ? w->minus : NULL, eps);
    tn__fdSetColumn(A, w->col, ndx, ndx, j);
  }
}

/* x1 >= lower bound and x2 <= upper bound */
static int in_range(mjtNum x1, mjtNum x2, const mjtNum* bounds) {
  return x1 >= bounds[0] && x2 <= bounds[1];
}

/* columns of B: controls, one-sided at the ctrlrange bounds */
static void fd_controls(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                        int centered, mjtNum* B, mjtNum* D) {
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
    if (B) {
      tn__fdClampedStateDiff(m, w->col, w->next, fwd ? w->plus : NULL, back ? w->minus : NULL, eps);
      tn__fdSetColumn(B, w->col, ndx, nu, i);
    }
    fd_sensor_column(m, w, fwd, back, eps, D, nu, i);
  }
}

/* columns of A for the activations */
static void fd_activations(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                           int centered, mjtNum* A, mjtNum* C) {
  int nv = m->nv, ndx = 2 * nv + m->na;
  for (int i = 0; i < m->na; i++) {
    d->act[i] += eps;
    fd_eval(m, d, w, mjSTAGE_VEL, w->plus);
    if (centered) {
      d->act[i] -= eps;
      fd_eval(m, d, w, mjSTAGE_VEL, w->minus);
    }
    fd_state_column(m, w, centered, eps, A, 2 * nv + i);
    fd_sensor_column(m, w, 1, centered, eps, C, ndx, 2 * nv + i);
  }
}

/* columns of A for the velocities */
static void fd_velocities(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                          int centered, mjtNum* A, mjtNum* C) {
  int nv = m->nv, ndx = 2 * nv + m->na;
  for (int i = 0; i < nv; i++) {
    d->qvel[i] += eps;
    fd_eval(m, d, w, mjSTAGE_POS, w->plus);
    if (centered) {
      d->qvel[i] -= eps;
      fd_eval(m, d, w, mjSTAGE_POS, w->minus);
    }
    fd_state_column(m, w, centered, eps, A, nv + i);
    fd_sensor_column(m, w, 1, centered, eps, C, ndx, nv + i);
  }
}

/* columns of A for the positions, nudged in the tangent space */
static void fd_positions(const mjModel* m, mjData* d, const fdTransition* w, mjtNum eps,
                         int centered, mjtNum* A, mjtNum* C) {
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
    fd_state_column(m, w, centered, eps, A, i);
    fd_sensor_column(m, w, 1, centered, eps, C, ndx, i);
  }
}

/* reasons the call cannot run; 1 if it can */
static int transition_ok(const mjModel* m, mjtNum eps, const mjtNum* C, const mjtNum* D) {
  if (!tn__fdCheckEps("mjd_transitionFD", eps)) {
    return 0;
  }
  if (m->opt.integrator == mjINT_RK4) {
    mju_error("mjd_transitionFD: RK4 integrator is not supported");
    return 0;
  }
  if ((C || D) && !tn_sensorsEvaluated(m)) {
    mju_error("mjd_transitionFD: C and D need sensor data, but the model has a sensor type "
              "Torsion does not evaluate yet");
    return 0;
  }
  return 1;
}

/* finite-differenced transition matrices */
void mjd_transitionFD(const mjModel* m, mjData* d, mjtNum eps, mjtBool flg_centered, mjtNum* A,
                      mjtNum* B, mjtNum* C, mjtNum* D) {
  int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu, ns = m->nsensordata;
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
  w.sensors = (C || D) && ns > 0;
  w.sens_next = mj_stackAllocNum(d, w.sensors ? ns : 1);
  w.sens_plus = mj_stackAllocNum(d, w.sensors ? ns : 1);
  w.sens_minus = mj_stackAllocNum(d, w.sensors ? ns : 1);
  w.sens_col = mj_stackAllocNum(d, w.sensors ? ns : 1);
  if (!w.saved || !w.ctrl || !w.next || !w.plus || !w.minus || !w.col || !w.dpos ||
      !w.sens_next || !w.sens_plus || !w.sens_minus || !w.sens_col) {
    mj_freeStack(d);
    mju_error("mjd_transitionFD: arena too small for the scratch vectors");
    return;
  }

  // save the input, take the nominal step, restore the input
  mj_getState(m, d, w.saved, w.spec);
  mju_copy(w.ctrl, d->ctrl, nu);
  fd_eval(m, d, &w, mjSTAGE_NONE, w.next);

  // nudge controls, activations, velocities, positions
  if ((B || (D && w.sensors)) && nu) {
    fd_controls(m, d, &w, eps, flg_centered, B, D);
  }
  if (A || (C && w.sensors)) {
    fd_activations(m, d, &w, eps, flg_centered, A, C);
    fd_velocities(m, d, &w, eps, flg_centered, A, C);
    fd_positions(m, d, &w, eps, flg_centered, A, C);
  }
  mj_freeStack(d);
}
