/* integrate/step.c — advancing the simulation: mj_step, and mj_step1/mj_step2 which split it
 * around the point where velocity-dependent quantities are known (for user controllers).
 *
 * mj_step checks the state, runs mj_forward, checks qacc, then integrates with the model's
 * integrator: semi-implicit Euler (mj_Euler), 4th-order Runge-Kutta (mj_RungeKutta) or
 * the implicit-in-velocity integrators (mj_implicit, for implicit and implicitfast).
 * mj_step2 cannot run Runge-Kutta (it needs the whole pipeline per stage) and uses Euler.
 * mjTIMER_STEP counts mj_step and mj_step1 calls; mj_step2 adds its time to the count
 * mj_step1 made, as MuJoCo's. tn_stepGroup steps several datas of one model, TN_LANES at a
 * time in lockstep so that lanes/ can compute stages for all of them at once. */
#include <torsion/torsion.h>

#include "forward/forward.h"
#include "integrate/implicit.h"
#include "integrate/integrate.h"
#include "lanes/lanes.h"
#include "util/timer.h"

/* integrate with the model's integrator; Runge-Kutta only when the full pipeline ran */
static void step_integrate(const mjModel* m, mjData* d, int allow_rk4) {
  switch (m->opt.integrator) {
    case mjINT_EULER: mj_Euler(m, d); break;
    case mjINT_RK4:
      if (allow_rk4) {
        mj_RungeKutta(m, d, 4);
      } else {
        mj_Euler(m, d);
      }
      break;
    case mjINT_IMPLICIT:
    case mjINT_IMPLICITFAST: mj_implicit(m, d); break;
    default: mju_error("mj_step: invalid integrator %d", m->opt.integrator); break;
  }
}

/* advance by one timestep */
void mj_step(const mjModel* m, mjData* d) {
  mjtNum tstep = timer_start();

  // check the state, compute forward dynamics, check the result
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  mj_forward(m, d);
  mj_checkAcc(m, d);

  // optional forward/inverse comparison (solver_fwdinv)
  if (m->opt.enableflags & mjENBL_FWDINV) {
    mj_compareFwdInv(m, d);
  }

  // integrate
  step_integrate(m, d, 1);
  timer_end(d, mjTIMER_STEP, tstep);
}

/* can TN_LANES datas step as a group? Euler or Runge-Kutta, and an unwinding point (so
 * the arena never answers NULL mid-group) */
static int group_possible(const mjModel* m) {
  int integrator = m->opt.integrator;
  return tn_unwinding() && (integrator == mjINT_EULER || integrator == mjINT_RK4);
}

/* mj_step for TN_LANES datas in lockstep */
static void step_lanes(const mjModel* m, mjData* const* d) {
  mjtNum tstep = timer_start();
  for (int l = 0; l < TN_LANES; l++) {
    mj_checkPos(m, d[l]);
    mj_checkVel(m, d[l]);
  }
  // Runge-Kutta's stages overwrite what this forward leaves in the datas but qacc (and
  // act_dot, and the sensors: a model with sensors gets the whole forward)
  int rk4 = m->opt.integrator == mjINT_RK4;
  int lean = rk4 && tn__forwardLean(m);
  tn__forwardLanes(m, d, mjSTAGE_NONE, 0, lean && !m->nsensor);
  for (int l = 0; l < TN_LANES; l++) {
    mj_checkAcc(m, d[l]);
    if (m->opt.enableflags & mjENBL_FWDINV) {
      mj_compareFwdInv(m, d[l]);
    }
  }
  if (rk4) {
    tn__rungeKuttaLanes(m, d, lean);
  } else {
    tn__eulerLanes(m, d);
  }
  tn__lanesTimerEnd(d, mjTIMER_STEP, tstep);
}

/* advance n datas of one model by one step each */
void tn_stepGroup(const mjModel* m, mjData* const* d, int n) {
  int i = 0;
  if (group_possible(m)) {
    for (; i + TN_LANES <= n; i += TN_LANES) {
      step_lanes(m, d + i);
    }
  }
  for (; i < n; i++) {
    mj_step(m, d[i]);
  }
}

/* first half of the step: up to the velocity-dependent quantities */
void mj_step1(const mjModel* m, mjData* d) {
  int energy = m->opt.enableflags & mjENBL_ENERGY;
  mjtNum tstep = timer_start();

  // check the state
  mj_checkPos(m, d);
  mj_checkVel(m, d);

  // position and velocity stages, each with its sensors (and energy when enabled)
  mj_fwdPosition(m, d);
  mj_sensorPos(m, d);
  if (energy) {
    mj_energyPos(m, d);
  }
  mj_fwdVelocity(m, d);
  mj_sensorVel(m, d);
  if (energy) {
    mj_energyVel(m, d);
  }

  // the user's controller
  if (mjcb_control) {
    mjcb_control(m, d);
  }
  timer_end(d, mjTIMER_STEP, tstep);
}

/* second half of the step: forces, acceleration, check, integration (Euler for RK4) */
void mj_step2(const mjModel* m, mjData* d) {
  mjtNum tstep = timer_start();
  mj_fwdActuation(m, d);
  mj_fwdAcceleration(m, d);
  mj_fwdConstraint(m, d);
  mj_sensorAcc(m, d);
  mj_checkAcc(m, d);
  if (m->opt.enableflags & mjENBL_FWDINV) {
    mj_compareFwdInv(m, d);
  }
  step_integrate(m, d, 0);
  timer_add(d, mjTIMER_STEP, tstep);
}
