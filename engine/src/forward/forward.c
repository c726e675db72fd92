/* forward/forward.c — the forward-dynamics pipeline: mj_forward and its stages.
 *
 * Position stage: kinematics, com quantities, cameras/lights, tendons, the inertia matrix and
 * its factorization, (collision and constraint rows: contacts milestone), transmission.
 * Velocity stage: tendon and actuator velocities, body velocities, passive forces, bias
 * forces. Then actuation, the smooth (unconstrained) acceleration and the constraint stage,
 * which for now has no constraint rows: qacc = qacc_smooth. */
#include <torsion/torsion.h>

#include "forward/forward.h"
#include "smooth/smooth.h"
#include "constraint/constraint.h"

/* position-dependent computations */
void mj_fwdPosition(const mjModel* m, mjData* d) {
  // kinematics and com-based quantities
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_camlight(m, d);

  // tendon lengths and Jacobians (needed by the inertia's tendon armature)
  mj_tendon(m, d);

  // joint-space inertia and its factorization
  mj_crb(m, d);
  mj_factorM(m, d);

  // contacts and constraint rows
  mj_collision(m, d);
  mj_makeConstraint(m, d);

  // actuator lengths and moment arms
  mj_transmission(m, d);

  // inverse inertia in constraint space (PGS, noslip)
  mj_projectConstraint(m, d);
}

/* velocity-dependent computations */
void mj_fwdVelocity(const mjModel* m, mjData* d) {
  // tendon and actuator velocities: dense Jacobians times qvel
  if (m->ntendon) {
    mju_mulMatVec(d->ten_velocity, d->ten_J, d->qvel, m->ntendon, m->nv);
  }
  if (m->nu) {
    mju_mulMatVec(d->actuator_velocity, d->actuator_moment, d->qvel, m->nu, m->nv);
  }

  // body velocities and cdof_dot, passive forces
  mj_comVel(m, d);
  mj_passive(m, d);

  // reference constraint accelerations
  mj_referenceConstraint(m, d);

  // bias forces: RNE without acceleration, plus the tendon-armature bias
  mj_rne(m, d, 0, d->qfrc_bias);
  tn_tendonBias(m, d, d->qfrc_bias);
}

/* smooth acceleration: all forces except constraint forces */
void mj_fwdAcceleration(const mjModel* m, mjData* d) {
  int nv = m->nv;

  // qfrc_smooth = passive - bias + applied + actuator + J' xfrc_applied
  mju_sub(d->qfrc_smooth, d->qfrc_passive, d->qfrc_bias, nv);
  mju_addTo(d->qfrc_smooth, d->qfrc_applied, nv);
  mju_addTo(d->qfrc_smooth, d->qfrc_actuator, nv);
  tn_xfrcAccumulate(m, d, d->qfrc_smooth);

  // qacc_smooth = M \ qfrc_smooth
  mj_solveM(m, d, d->qacc_smooth, d->qfrc_smooth, 1);
}

/* constraint forces and the final acceleration */
void mj_fwdConstraint(const mjModel* m, mjData* d) {
  tn_fwdConstraintSolve(m, d);
}

/* the pipeline, skipping stages up to skipstage and optionally the optional outputs */
void tn_forwardSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  int energy = m->opt.enableflags & mjENBL_ENERGY;
  (void)skipsensor;  // no sensors yet; energy is computed whenever enabled, as in MuJoCo

  // position-dependent
  if (skipstage < mjSTAGE_POS) {
    mj_fwdPosition(m, d);
    if (energy) {
      mj_energyPos(m, d);
    }
  }

  // velocity-dependent
  if (skipstage < mjSTAGE_VEL) {
    mj_fwdVelocity(m, d);
    if (energy) {
      mj_energyVel(m, d);
    }
  }

  // force/acceleration-dependent
  mj_fwdActuation(m, d);
  mj_fwdAcceleration(m, d);
  mj_fwdConstraint(m, d);
}

/* forward dynamics */
void mj_forward(const mjModel* m, mjData* d) {
  tn_forwardSkip(m, d, mjSTAGE_NONE, 0);
}
