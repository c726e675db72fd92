/* inverse/inverse.c — inverse dynamics: mj_inverse, its stages, and mj_compareFwdInv.
 *
 * Given the state and the acceleration qacc, inverse dynamics recovers the generalized force
 * that produced it: qfrc_inverse = M qacc + bias - passive - constraint. The soft constraint
 * forces are analytic functions of qacc (efc_force from jar = J qacc - aref, through
 * mj_constraintUpdate), so no solver runs. With the invdiscrete enable flag the input qacc is
 * the discrete-time acceleration of the model's Euler or implicit integrator, converted to
 * continuous time first (and restored afterwards). mj_compareFwdInv runs the inverse after
 * a forward pass and records the discrepancy in d->solver_fwdinv. */
#include <math.h>

#include <torsion/torsion.h>

#include "constraint/constraint.h"
#include "derivative/derivative.h"
#include "inverse/inverse.h"
#include "integrate/implicit.h"
#include "integrate/integrate.h"
#include "smooth/smooth.h"

/* position-dependent computations of the inverse dynamics */
void mj_invPosition(const mjModel* m, mjData* d) {
  // kinematics, com quantities, tendons
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_camlight(m, d);
  mj_tendon(m, d);

  // joint-space inertia and its factorization
  mj_crb(m, d);
  mj_factorM(m, d);

  // contacts and constraint rows
  mj_collision(m, d);
  mj_makeConstraint(m, d);

  // actuator lengths and moment arms
  mj_transmission(m, d);
}

/* velocity-dependent computations: the same as in forward dynamics */
void mj_invVelocity(const mjModel* m, mjData* d) {
  mj_fwdVelocity(m, d);
}

/* analytic constraint forces given qacc: efc_force, efc_state, qfrc_constraint */
void mj_invConstraint(const mjModel* m, mjData* d) {
  int nefc = d->nefc;

  // no constraints: no constraint force
  if (!nefc) {
    mju_zero(d->qfrc_constraint, m->nv);
    return;
  }

  // jar = J qacc - aref, then the force of each row
  mj_markStack(d);
  mjtNum* jar = mj_stackAllocNum(d, nefc);  // nefc > 0 here
  if (jar) {
    mj_mulJacVec(m, d, jar, d->qacc);
    mju_subFrom(jar, d->efc_aref, nefc);
    mj_constraintUpdate(m, d, jar, NULL, 0);
  }
  mj_freeStack(d);
}

/* res += scl * D vec for a matrix in the D sparsity pattern */
static void add_mul_d(const mjModel* m, mjtNum* res, const mjtNum* D, const mjtNum* vec,
                      mjtNum scl) {
  for (int i = 0; i < m->nv; i++) {
    int adr = m->D_rowadr[i], nnz = m->D_rownnz[i];
    mjtNum s = 0;
    for (int k = adr; k < adr + nnz; k++) {
      s += D[k] * vec[m->D_colind[k]];
    }
    res[i] += scl * s;
  }
}

/* convert d->qacc from the integrator's discrete-time acceleration to continuous time:
 * qacc = M^-1 (M - h D) qacc_discrete, with D the velocity derivative the integrator uses */
static void discrete_to_continuous(const mjModel* m, mjData* d) {
  int nv = m->nv, integ = m->opt.integrator;
  mjtNum h = m->opt.timestep;

  // RK4 and undamped Euler: the discrete and continuous accelerations coincide
  if (integ == mjINT_RK4 || (integ == mjINT_EULER && !tn__eulerDamped(m))) {
    return;
  }
  mj_markStack(d);
  mjtNum* qfrc = mj_stackAllocNum(d, nv ? nv : 1);
  if (!qfrc) {
    mj_freeStack(d);
    return;
  }

  // qfrc = M qacc
  mj_mulM(m, d, qfrc, d->qacc);

  // Euler: + h diag(damping) qacc; implicit(fast): - h qDeriv qacc
  if (integ == mjINT_EULER) {
    for (int i = 0; i < nv; i++) {
      qfrc[i] += h * m->dof_damping[i] * d->qacc[i];
    }
  } else {
    // the derivative the step effectively applies (free rigid trees, simple bodies)
    mjtNum* deriv = mj_stackAllocNum(d, m->nD ? m->nD : 1);
    if (!deriv) {
      mj_freeStack(d);
      return;
    }
    tn__implicitDeriv(m, d, deriv);
    add_mul_d(m, qfrc, deriv, d->qacc, -h);
  }

  // qacc = M^-1 qfrc
  mj_solveM(m, d, d->qacc, qfrc, 1);
  mj_freeStack(d);
}

/* qfrc_inverse = M qacc + bias - passive - constraint */
static void inverse_force(const mjModel* m, mjData* d) {
  int nv = m->nv;
  mj_mulM(m, d, d->qfrc_inverse, d->qacc);
  mju_addTo(d->qfrc_inverse, d->qfrc_bias, nv);
  mju_subFrom(d->qfrc_inverse, d->qfrc_passive, nv);
  mju_subFrom(d->qfrc_inverse, d->qfrc_constraint, nv);
}

/* the inverse pipeline, skipping stages up to skipstage */
void tn__inverseSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  int nv = m->nv;
  int energy = m->opt.enableflags & mjENBL_ENERGY;
  int discrete = m->opt.enableflags & mjENBL_INVDISCRETE;

  // position-dependent, then its sensors
  if (skipstage < mjSTAGE_POS) {
    mj_invPosition(m, d);
    if (!skipsensor) {
      mj_sensorPos(m, d);
    }
    if (energy) {
      mj_energyPos(m, d);
    }
  }

  // velocity-dependent, then its sensors
  if (skipstage < mjSTAGE_VEL) {
    mj_invVelocity(m, d);
    if (!skipsensor) {
      mj_sensorVel(m, d);
    }
    if (energy) {
      mj_energyVel(m, d);
    }
  }

  // discrete-time input: keep the caller's qacc, convert to continuous time
  mj_markStack(d);
  mjtNum* qacc_in = discrete ? mj_stackAllocNum(d, nv ? nv : 1) : NULL;
  if (qacc_in) {
    mju_copy(qacc_in, d->qacc, nv);
    discrete_to_continuous(m, d);
  }

  // constraint forces, the total force, then the acceleration sensors (continuous qacc)
  mj_invConstraint(m, d);
  inverse_force(m, d);
  if (!skipsensor) {
    mj_sensorAcc(m, d);
  }

  // restore the caller's qacc
  if (qacc_in) {
    mju_copy(d->qacc, qacc_in, nv);
  }
  mj_freeStack(d);
}

/* inverse dynamics: qacc must be set before calling */
void mj_inverse(const mjModel* m, mjData* d) {
  tn__inverseSkip(m, d, mjSTAGE_NONE, 0);
}

/* compare forward and inverse dynamics; save the discrepancy in d->solver_fwdinv */
void mj_compareFwdInv(const mjModel* m, mjData* d) {
  int nv = m->nv, nefc = d->nefc;
  mj_markStack(d);
  mjtNum* qforce = mj_stackAllocNum(d, nv ? nv : 1);
  mjtNum* dif = mj_stackAllocNum(d, nv ? nv : 1);
  mjtNum* save_qfrc = mj_stackAllocNum(d, nv ? nv : 1);
  mjtNum* save_force = mj_stackAllocNum(d, nefc ? nefc : 1);
  if (!qforce || !dif || !save_qfrc || !save_force) {
    mj_freeStack(d);
    return;
  }

  // the forces the forward dynamics were given: applied, Cartesian and actuator
  mju_add(qforce, d->qfrc_applied, d->qfrc_actuator, nv);
  tn__xfrcAccumulate(m, d, qforce);

  // keep the forward constraint forces
  mju_copy(save_force, d->efc_force, nefc);
  mju_copy(save_qfrc, d->qfrc_constraint, nv);

  // inverse dynamics at the forward acceleration (position and velocity stages are valid)
  tn__inverseSkip(m, d, mjSTAGE_VEL, 1);

  // discrepancies (MuJoCo 3.14's order, measured): constraint forces, then total force
  mjtNum sum = 0;
  for (int i = 0; i < nefc; i++) {
    mjtNum e = save_force[i] - d->efc_force[i];
    sum += e * e;
  }
  d->solver_fwdinv[0] = sqrt(sum);
  mju_sub(dif, d->qfrc_inverse, qforce, nv);
  d->solver_fwdinv[1] = mju_norm(dif, nv);

  // restore the forward constraint forces
  mju_copy(d->efc_force, save_force, nefc);
  mju_copy(d->qfrc_constraint, save_qfrc, nv);
  mj_freeStack(d);
}
