/* forward/forward.c — the forward-dynamics pipeline: mj_forward and its stages.
 *
 * Position stage: kinematics, com quantities, cameras/lights, tendons, the inertia matrix and
 * its factorization, collision, constraint rows and their islands, transmission, the projected
 * constraint matrix. Velocity stage: tendon and actuator velocities, body velocities, passive
 * forces, reference constraint accelerations, bias forces. Then actuation, the smooth
 * (unconstrained) acceleration and the constraint solve. Sensors are evaluated after the
 * stage they depend on (unless skipped or disabled). Stages are timed into mjData.timer
 * when the user installs the clock mjcb_time. */
#include <string.h>

#include <torsion/torsion.h>

#include "forward/forward.h"
#include "smooth/smooth.h"
#include "constraint/constraint.h"
#include "util/timer.h"

/* the user's clock for the stage timers (NULL: no timing) */
mjfTime mjcb_time = NULL;

/* position-dependent computations */
void mj_fwdPosition(const mjModel* m, mjData* d) {
  mjtNum tpos = timer_start(), t = tpos;

  // kinematics and com-based quantities
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_camlight(m, d);

  // tendon lengths and Jacobians (needed by the inertia's tendon armature)
  mj_tendon(m, d);
  timer_end(d, mjTIMER_POS_KINEMATICS, t);

  // joint-space inertia and its factorization
  t = timer_start();
  mj_crb(m, d);
  mj_factorM(m, d);
  timer_end(d, mjTIMER_POS_INERTIA, t);

  // contacts
  t = timer_start();
  mj_collision(m, d);
  timer_end(d, mjTIMER_POS_COLLISION, t);

  // constraint rows
  t = timer_start();
  mj_makeConstraint(m, d);
  mj_island(m, d);
  timer_end(d, mjTIMER_POS_MAKE, t);

  // actuator lengths and moment arms
  mj_transmission(m, d);

  // inverse inertia in constraint space (PGS, noslip)
  t = timer_start();
  mj_projectConstraint(m, d);
  timer_end(d, mjTIMER_POS_PROJECT, t);
  timer_end(d, mjTIMER_POSITION, tpos);
}

/* moment row i times qvel: MuJoCo's sparse dot over the row's entries */
static mjtNum actuator_velocity(const mjData* d, int i) {
  int adr = d->moment_rowadr[i];
  return mju_dotSparse(d->actuator_moment + adr, d->qvel, d->moment_rownnz[i],
                       d->moment_colind + adr);
}

/* tendon velocities: each tendon's sparse Jacobian row (MuJoCo's ten_J_colind) times qvel,
 * summed as MuJoCo's sparse dot */
static void tendon_velocities(const mjModel* m, mjData* d) {
  for (int t = 0; t < m->ntendon; t++) {
    int adr = m->ten_J_rowadr[t];
    d->ten_velocity[t] = mju_dotSparse(d->ten_J + adr, d->qvel, m->ten_J_rownnz[t],
                                       m->ten_J_colind + adr);
  }
}

/* tendon velocities (on the Jacobians' patterns) and actuator velocities (moment rows) */
void tn__tendonActuatorVelocity(const mjModel* m, mjData* d) {
  if (m->ntendon) {
    tendon_velocities(m, d);
  }
  for (int i = 0; i < m->nu; i++) {
    d->actuator_velocity[i] = actuator_velocity(d, i);
  }
}

/* velocity-dependent computations */
void mj_fwdVelocity(const mjModel* m, mjData* d) {
  mjtNum t = timer_start();

  // tendon and actuator velocities
  tn__tendonActuatorVelocity(m, d);

  // body velocities and cdof_dot, passive forces
  mj_comVel(m, d);
  mj_passive(m, d);

  // reference constraint accelerations
  mj_referenceConstraint(m, d);

  // bias forces: RNE without acceleration, plus the tendon-armature bias
  mj_rne(m, d, 0, d->qfrc_bias);
  tn__tendonBias(m, d, d->qfrc_bias);
  timer_end(d, mjTIMER_VELOCITY, t);
}

/* qfrc_smooth = passive - bias + applied + actuator + J' xfrc_applied */
void tn__smoothForce(const mjModel* m, mjData* d) {
  int nv = m->nv;
  mju_sub(d->qfrc_smooth, d->qfrc_passive, d->qfrc_bias, nv);
  mju_addTo(d->qfrc_smooth, d->qfrc_applied, nv);
  mju_addTo(d->qfrc_smooth, d->qfrc_actuator, nv);
  tn__xfrcAccumulate(m, d, d->qfrc_smooth);
}

/* smooth acceleration: all forces except constraint forces, qacc_smooth = M \ qfrc_smooth */
void mj_fwdAcceleration(const mjModel* m, mjData* d) {
  tn__smoothForce(m, d);
  mj_solveM(m, d, d->qacc_smooth, d->qfrc_smooth, 1);
}

/* constraint forces and the final acceleration */
void mj_fwdConstraint(const mjModel* m, mjData* d) {
  mjtNum t = timer_start();
  tn_fwdConstraintSolve(m, d);
  timer_end(d, mjTIMER_CONSTRAINT, t);
}

/* the pipeline, skipping stages up to skipstage and optionally the optional outputs */
void tn__forwardSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  int energy = m->opt.enableflags & mjENBL_ENERGY;  // computed whenever enabled, as in MuJoCo
  mjtNum tfwd = timer_start();

  // position-dependent, then its sensors
  if (skipstage < mjSTAGE_POS) {
    mj_fwdPosition(m, d);
    if (!skipsensor) {
      mj_sensorPos(m, d);
    }
    if (energy) {
      mj_energyPos(m, d);
    }
  }

  // velocity-dependent, then its sensors
  if (skipstage < mjSTAGE_VEL) {
    mj_fwdVelocity(m, d);
    if (!skipsensor) {
      mj_sensorVel(m, d);
    }
    if (energy) {
      mj_energyVel(m, d);
    }
  }

  // force/acceleration-dependent (after the user's controller), then its sensors
  if (mjcb_control && !(m->opt.disableflags & mjDSBL_ACTUATION)) {
    mjcb_control(m, d);
  }
  mj_fwdActuation(m, d);
  mj_fwdAcceleration(m, d);
  mj_fwdConstraint(m, d);
  if (!skipsensor) {
    mj_sensorAcc(m, d);
  }
  timer_end(d, mjTIMER_FORWARD, tfwd);
}

/* forward dynamics */
void mj_forward(const mjModel* m, mjData* d) {
  tn__forwardSkip(m, d, mjSTAGE_NONE, 0);
}
