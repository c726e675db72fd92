/* derivative/deriv_smooth_vel.c — the analytic derivative of the smooth forces with respect
 * to the joint velocities, d->qDeriv, used by the implicit and implicitfast integrators.
 *
 * qDeriv = d(qfrc_actuator)/dv + d(qfrc_passive)/dv [- d(qfrc_bias)/dv], in the D pattern.
 * Actuators contribute through affine gains and biases: force = gain*input + bias with
 * gain and bias affine in the actuator velocity moment*qvel, so the derivative is
 * (gainprm[2]*input + biasprm[2]) * moment' moment; muscle gains add the slope of their
 * force-velocity curve times the input (muscle biases do not depend on velocity). The input is the
 * one the actuation stage used: the control (clamped to ctrlrange unless clamping is disabled) or
 * the last activation (the next one with actearly). Actuators of disabled groups and actuators
 * whose force sits at a forcerange bound contribute nothing; the tendon and joint actuator-force
 * clamps are ignored, as in MuJoCo. Dof dampers give -damping on the diagonal, tendon
 * dampers -damping * J'J; fluid forces and the RNE have their own files. */
#include <math.h>

#include <torsion/torsion.h>

#include "actuation/actuation.h"
#include "derivative/derivative.h"
#include "smooth/smooth.h"

/* ---- rank-one updates in the D pattern ---- */

/* qDeriv += coef * u u' on the D pattern (u dense, length nv) */
void tn__addOuterD(const mjModel* m, mjtNum* qDeriv, const mjtNum* u, mjtNum coef) {
  for (int r = 0; r < m->nv; r++) {
    if (u[r] == 0) {
      continue;
    }

    // row r: every column of the pattern (entries off u's support add zero)
    mjtNum scl = coef * u[r];
    int adr = m->D_rowadr[r], end = adr + m->D_rownnz[r];
    for (int k = adr; k < end; k++) {
      qDeriv[k] += scl * u[m->D_colind[k]];
    }
  }
}

/* ---- actuators ---- */

/* 1 if actuator i belongs to a group disabled by mjOption.disableactuator */
static int actuator_disabled(const mjModel* m, int i) {
  int group = m->actuator_group[i];
  if (group < 0 || group > 30) {
    return 0;
  }
  return (m->opt.disableactuator & (1 << group)) != 0;
}

/* 1 if any control is bad (NaN or huge): the actuation stage then zeroes all of them */
static int controls_bad(const mjModel* m, const mjData* d) {
  for (int i = 0; i < m->nu; i++) {
    if (mju_isBad(d->ctrl[i])) {
      return 1;
    }
  }
  return 0;
}

/* the control of actuator i as the actuation stage used it */
static mjtNum actuator_ctrl(const mjModel* m, const mjData* d, int i) {
  mjtNum ctrl = d->ctrl[i];
  if (!(m->opt.disableflags & mjDSBL_CLAMPCTRL) && m->actuator_ctrllimited[i]) {
    ctrl = mju_clip(ctrl, m->actuator_ctrlrange[2 * i], m->actuator_ctrlrange[2 * i + 1]);
  }
  return ctrl;
}

/* activation after one step, for actearly: Euler or exact filter, clamped to actrange */
static mjtNum actuator_next_act(const mjModel* m, const mjData* d, int i, int adr) {
  mjtNum act = d->act[adr], act_dot = d->act_dot[adr], h = m->opt.timestep;

  // integrate
  if (m->actuator_dyntype[i] == mjDYN_FILTEREXACT) {
    mjtNum tau = mju_max(m->actuator_dynprm[mjNDYN * i], mjMINVAL);
    act = act + act_dot * tau * (1 - exp(-h / tau));
  } else {
    act = act + act_dot * h;
  }

  // clamp
  if (m->actuator_actlimited[i]) {
    act = mju_clip(act, m->actuator_actrange[2 * i], m->actuator_actrange[2 * i + 1]);
  }
  return act;
}

/* the input multiplying actuator i's gain: control, activation or next activation */
static mjtNum actuator_input(const mjModel* m, const mjData* d, int i, int bad_ctrl) {
  if (m->actuator_dyntype[i] != mjDYN_NONE && m->actuator_actnum[i] > 0) {
    int last = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
    return m->actuator_actearly[i] ? actuator_next_act(m, d, i, last) : d->act[last];
  }
  return bad_ctrl ? 0 : actuator_ctrl(m, d, i);
}

/* d(force)/d(actuator velocity) of actuator i: affine gain and bias coefficients */
static mjtNum actuator_dforce_dvel(const mjModel* m, const mjData* d, int i, int bad_ctrl) {
  mjtNum dvel = 0;

  // affine bias: biasprm[2] * velocity
  if (m->actuator_biastype[i] == mjBIAS_AFFINE) {
    dvel += m->actuator_biasprm[mjNBIAS * i + 2];
  }

  // affine gain: gainprm[2] * velocity * input; muscle gain: its velocity slope * input
  mjtNum coef = 0;
  if (m->actuator_gaintype[i] == mjGAIN_AFFINE) {
    coef = m->actuator_gainprm[mjNGAIN * i + 2];
  } else if (m->actuator_gaintype[i] == mjGAIN_MUSCLE) {
    coef = tn__muscleGainVel(d->actuator_length[i], d->actuator_velocity[i],
                             m->actuator_lengthrange + 2 * i, m->actuator_acc0[i],
                             m->actuator_gainprm + mjNGAIN * i);
  }
  if (coef != 0) {
    dvel += coef * actuator_input(m, d, i, bad_ctrl);
  }
  return dvel;
}

/* qDeriv += d(qfrc_actuator)/d(qvel) */
void mjd_actuator_vel(const mjModel* m, mjData* d) {
  if (m->opt.disableflags & mjDSBL_ACTUATION) {
    return;
  }
  int bad_ctrl = controls_bad(m, d);

  // a moment row scattered dense (zero outside the row's entries between uses)
  mj_markStack(d);
  mjtNum* row = mj_stackAllocNum(d, (size_t)m->nv + 1);
  if (!row) {
    mj_freeStack(d);
    return;
  }
  mju_zero(row, m->nv);

  for (int i = 0; i < m->nu; i++) {
    // skip disabled actuators and forces clamped at a forcerange bound
    if (actuator_disabled(m, i)) {
      continue;
    }
    if (m->actuator_forcelimited[i]) {
      mjtNum force = d->actuator_force[i];
      const mjtNum* range = m->actuator_forcerange + 2 * i;
      if (force <= range[0] || force >= range[1]) {
        continue;
      }
    }

    // moment' * dforce/dvel * moment
    mjtNum dvel = actuator_dforce_dvel(m, d, i, bad_ctrl);
    if (dvel != 0) {
      int adr = d->moment_rowadr[i], nnz = d->moment_rownnz[i];
      const int* colind = d->moment_colind + adr;
      for (int k = 0; k < nnz; k++) {
        row[colind[k]] = d->actuator_moment[adr + k];
      }
      tn__addOuterD(m, d->qDeriv, row, dvel);
      for (int k = 0; k < nnz; k++) {
        row[colind[k]] = 0;
      }
    }
  }
  mj_freeStack(d);
}

/* ---- passive forces ---- */

/* qDeriv += d(qfrc_passive)/d(qvel) */
void mjd_passive_vel(const mjModel* m, mjData* d) {
  int nodamper = m->opt.disableflags & mjDSBL_DAMPER;

  // no passive forces at all when springs and dampers are both disabled
  if (nodamper && (m->opt.disableflags & mjDSBL_SPRING)) {
    return;
  }

  // dof dampers: -damping on the diagonal
  if (!nodamper) {
    for (int i = 0; i < m->nv; i++) {
      d->qDeriv[m->D_rowadr[i] + m->D_diag[i]] -= m->dof_damping[i];
    }
  }

  // tendon dampers: -damping * J'J on the pattern (each row made dense in scratch)
  if (!nodamper) {
    mj_markStack(d);
    mjtNum* row = NULL;
    for (int t = 0; t < m->ntendon; t++) {
      if (m->tendon_damping[t] > 0) {
        if (!row && !(row = mj_stackAllocNum(d, (size_t)m->nv + 1))) {
          break;
        }
        tn__tendonRowDense(m, d, t, row);
        tn__addOuterD(m, d->qDeriv, row, -m->tendon_damping[t]);
      }
    }
    mj_freeStack(d);
  }

  // fluid forces
  if (m->opt.density != 0 || m->opt.viscosity != 0) {
    tn__fluidDerivative(m, d);
  }
}

/* ---- all smooth forces ---- */

/* 1 if the tree's only joint is a free joint */
int tn__isFreeRigidTree(const mjModel* m, int tree) {
  if (tree < 0 || tree >= m->ntree || m->tree_dofnum[tree] != 6) {
    return 0;
  }
  return m->jnt_type[m->dof_jntid[m->tree_dofadr[tree]]] == mjJNT_FREE;
}

/* qDeriv = d(qfrc_actuator + qfrc_passive - [qfrc_bias]) / d(qvel) */
void mjd_smooth_vel(const mjModel* m, mjData* d, int flg_bias) {
  mju_zero(d->qDeriv, m->nD);
  mjd_actuator_vel(m, d);
  mjd_passive_vel(m, d);
  if (flg_bias) {
    mjd_rne_vel(m, d);
  }
}
