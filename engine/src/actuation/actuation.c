/* actuation/actuation.c — mj_fwdActuation: activation dynamics and actuator forces.
 *
 * Each actuator reads its control (clamped to ctrlrange into a scratch copy; d->ctrl is
 * never modified), advances its activation (act_dot: integrator, first-order filter,
 * muscle activation or the user's mjcb_act_dyn), and produces a scalar force gain*input +
 * bias (fixed, affine, muscle or user gain; affine, muscle or user bias, the user types
 * through mjcb_act_gain/mjcb_act_bias), input being the control for stateless
 * actuators and the activation (the next one with actearly) for stateful ones. Forces are
 * clamped to forcerange, total actuator forces on a tendon to its actuatorfrcrange, mapped
 * to joint space through the moment arms, gravity compensation routed to actuators is
 * added, and the result is clamped per joint to actuatorfrcrange. Actuators driven by the
 * mujoco.pid engine plugin (actuator_pid.c) get their act_dot and force from it, after the
 * built-in ones, as MuJoCo calls plugins. */

#include <math.h>

#include <torsion/torsion.h>

#include "actuation/actuation.h"

#include "actuation/actuator_pid.h"
#include "util/timer.h"

/* number of dofs of a joint type */
static int joint_dofs(int type) {
  return type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
}

/* 1 if the actuator's group is disabled by mjOption.disableactuator */
static int actuator_disabled(const mjModel* m, int i) {
  int group = m->actuator_group[i];
  if (group < 0 || group > 30) {
    return 0;
  }
  return (m->opt.disableactuator & (1 << group)) != 0;
}

/* clamped copy of the controls; all zero if any control is bad */
static void clamped_controls(const mjModel* m, mjData* d, mjtNum* ctrl) {
  int nu = m->nu;
  int clamp = !(m->opt.disableflags & mjDSBL_CLAMPCTRL);

  for (int i = 0; i < nu; i++) {
    ctrl[i] = d->ctrl[i];
    if (clamp && m->actuator_ctrllimited[i]) {
      const mjtNum* range = m->actuator_ctrlrange + 2*i;
      ctrl[i] = mju_clip(ctrl[i], range[0], range[1]);
    }
  }

  // a bad control zeroes all of them (and is counted as a warning)
  for (int i = 0; i < nu; i++) {
    if (mju_isBad(ctrl[i])) {
      mj_warning(d, mjWARN_BADCTRL, i);
      mju_zero(ctrl, nu);
      break;
    }
  }
}

/* activation derivatives of stateful actuators */
static void activation_dynamics(const mjModel* m, mjData* d, const mjtNum* ctrl) {
  mju_zero(d->act_dot, m->na);
  for (int i = 0; i < m->nu; i++) {
    if (m->actuator_actadr[i] < 0 || m->actuator_actnum[i] == 0) {
      continue;
    }
    int last = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
    const mjtNum* prm = m->actuator_dynprm + mjNDYN*i;

    switch (m->actuator_dyntype[i]) {
      case mjDYN_NONE:  // plugin actuators: only the plugin's own variables
        break;

      case mjDYN_INTEGRATOR:
        d->act_dot[last] = ctrl[i];
        break;

      case mjDYN_FILTER:
      case mjDYN_FILTEREXACT:
        d->act_dot[last] = (ctrl[i] - d->act[last]) / mju_max(prm[0], mjMINVAL);
        break;

      case mjDYN_MUSCLE:
        d->act_dot[last] = mju_muscleDynamics(ctrl[i], d->act[last], prm);
        break;

      case mjDYN_USER:  // the user's dynamics; with several variables it writes act_dot
        if (mjcb_act_dyn && m->actuator_actnum[i] == 1) {
          d->act_dot[last] = mjcb_act_dyn(m, d, i);
        } else if (mjcb_act_dyn) {
          mjcb_act_dyn(m, d, i);
        }
        break;

      default:
        mju_error("mj_fwdActuation: dynamics type %d (actuator %d) not implemented yet",
                  m->actuator_dyntype[i], i);
        return;
    }
  }
}

/* activation after one step of actuator u's own dynamics: the exact integral of a
 * filterexact filter, else an Euler step; clamped to actrange (actearly and mj_advance) */
mjtNum tn__nextActivation(const mjModel* m, int u, mjtNum act, mjtNum act_dot) {
  mjtNum h = m->opt.timestep;
  if (m->actuator_dyntype[u] == mjDYN_FILTEREXACT) {
    mjtNum tau = mju_max(m->actuator_dynprm[mjNDYN * u], mjMINVAL);
    act = act + act_dot * tau * (1 - exp(-h / tau));
  } else {
    act = act + act_dot * h;
  }
  if (m->actuator_actlimited[u]) {
    act = mju_clip(act, m->actuator_actrange[2 * u], m->actuator_actrange[2 * u + 1]);
  }
  return act;
}

/* scalar force of actuator i: gain*input + bias, clamped to forcerange */
static mjtNum scalar_actuator_force(const mjModel* m, mjData* d, int i, const mjtNum* ctrl) {
  mjtNum len = d->actuator_length[i], vel = d->actuator_velocity[i];

  // input: control, or the last activation element (next one with actearly)
  mjtNum input = ctrl[i];
  if (m->actuator_dyntype[i] != mjDYN_NONE && m->actuator_actnum[i] > 0) {
    int last = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
    input = m->actuator_actearly[i] ? tn__nextActivation(m, i, d->act[last], d->act_dot[last])
                                    : d->act[last];
  }

  // gain
  const mjtNum* gprm = m->actuator_gainprm + mjNGAIN*i;
  mjtNum gain = 0;
  switch (m->actuator_gaintype[i]) {
    case mjGAIN_FIXED:
      gain = gprm[0];
      break;
    case mjGAIN_AFFINE:
      gain = gprm[0] + gprm[1]*len + gprm[2]*vel;
      break;
    case mjGAIN_MUSCLE:
      gain = mju_muscleGain(len, vel, m->actuator_lengthrange + 2*i, m->actuator_acc0[i], gprm);
      break;
    case mjGAIN_USER:
      gain = mjcb_act_gain ? mjcb_act_gain(m, d, i) : 1;
      break;
    default:
      mju_error("mj_fwdActuation: gain type %d (actuator %d) not implemented yet",
                m->actuator_gaintype[i], i);
  }

  // bias
  const mjtNum* bprm = m->actuator_biasprm + mjNBIAS*i;
  mjtNum bias = 0;
  switch (m->actuator_biastype[i]) {
    case mjBIAS_NONE:
      break;
    case mjBIAS_AFFINE:
      bias = bprm[0] + bprm[1]*len + bprm[2]*vel;
      break;
    case mjBIAS_MUSCLE:
      bias = mju_muscleBias(len, m->actuator_lengthrange + 2*i, m->actuator_acc0[i], bprm);
      break;
    case mjBIAS_USER:
      bias = mjcb_act_bias ? mjcb_act_bias(m, d, i) : 0;
      break;
    default:
      mju_error("mj_fwdActuation: bias type %d (actuator %d) not implemented yet",
                m->actuator_biastype[i], i);
  }

  // force, clamped to forcerange
  mjtNum force = gain * input + bias;
  if (m->actuator_forcelimited[i]) {
    const mjtNum* range = m->actuator_forcerange + 2*i;
    force = mju_clip(force, range[0], range[1]);
  }
  return force;
}

/* scale the forces of tendon actuators so each limited tendon's total stays in range */
static void tendon_force_limits(const mjModel* m, mjData* d) {
  for (int t = 0; t < m->ntendon; t++) {
    if (!m->tendon_actfrclimited[t]) {
      continue;
    }

    // total actuator force acting on the tendon
    mjtNum total = 0;
    for (int i = 0; i < m->nu; i++) {
      if (m->actuator_trntype[i] == mjTRN_TENDON && m->actuator_trnid[2*i] == t) {
        total += d->actuator_force[i];
      }
    }

    // outside the range: scale the contributing forces
    const mjtNum* range = m->tendon_actfrcrange + 2*t;
    if (total < range[0] || total > range[1]) {
      mjtNum scale = mju_clip(total, range[0], range[1]) / total;
      for (int i = 0; i < m->nu; i++) {
        if (m->actuator_trntype[i] == mjTRN_TENDON && m->actuator_trnid[2*i] == t) {
          d->actuator_force[i] *= scale;
        }
      }
    }
  }
}

/* joint space: moment' * force (the sparse rows in actuator order, each entry added where
 * its column is, as MuJoCo sums), gravity compensation routed to actuators, joint clamps */
static void joint_forces(const mjModel* m, mjData* d) {
  mju_zero(d->qfrc_actuator, m->nv);
  for (int i = 0; i < m->nu; i++) {
    mjtNum force = d->actuator_force[i];
    if (force == 0) {
      continue;
    }
    int adr = d->moment_rowadr[i], end = adr + d->moment_rownnz[i];
    for (int k = adr; k < end; k++) {
      d->qfrc_actuator[d->moment_colind[k]] += d->actuator_moment[k] * force;
    }
  }

  // gravity compensation of joints with actuatorgravcomp
  if (m->ngravcomp && !(m->opt.disableflags & mjDSBL_GRAVITY) &&
      mju_norm3(m->opt.gravity) != 0) {
    for (int j = 0; j < m->njnt; j++) {
      if (m->jnt_actgravcomp[j]) {
        int adr = m->jnt_dofadr[j];
        mju_addTo(d->qfrc_actuator + adr, d->qfrc_gravcomp + adr, joint_dofs(m->jnt_type[j]));
      }
    }
  }

  // per-joint actuator force limits
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_actfrclimited[j]) {
      continue;
    }
    const mjtNum* range = m->jnt_actfrcrange + 2*j;
    int adr = m->jnt_dofadr[j], num = joint_dofs(m->jnt_type[j]);
    for (int k = adr; k < adr + num; k++) {
      d->qfrc_actuator[k] = mju_clip(d->qfrc_actuator[k], range[0], range[1]);
    }
  }
}

/* actuator forces, activation derivatives and qfrc_actuator */
static void actuation(const mjModel* m, mjData* d) {
  int nu = m->nu;

  // clear outputs
  mju_zero(d->actuator_force, nu);
  mju_zero(d->act_dot, m->na);

  // disabled or no actuators: no actuator forces
  if (nu == 0 || (m->opt.disableflags & mjDSBL_ACTUATION)) {
    mju_zero(d->qfrc_actuator, m->nv);
    return;
  }

  // clamped controls, activation dynamics
  mj_markStack(d);
  mjtNum* ctrl = mj_stackAllocNum(d, nu);
  if (!ctrl) {
    mj_freeStack(d);
    return;
  }
  clamped_controls(m, d, ctrl);
  activation_dynamics(m, d, ctrl);

  // pid instances' configurations, parsed once for both of their passes
  tnPidConfig* cfgs = NULL;
  if (m->nplugin) {
    cfgs = mj_stackAllocByte(d, sizeof(tnPidConfig) * (size_t)m->nplugin, _Alignof(tnPidConfig));
    if (!cfgs) {
      mj_freeStack(d);
      return;
    }
    tn__pidConfigs(m, cfgs);
    tn__pidActDot(m, d, cfgs);
  }

  // scalar forces of enabled actuators; plugin actuators compute theirs (whatever their
  // group), after the built-in ones
  for (int i = 0; i < nu; i++) {
    if (!actuator_disabled(m, i) && m->actuator_plugin[i] < 0) {
      d->actuator_force[i] = scalar_actuator_force(m, d, i, ctrl);
    }
  }
  if (m->nplugin) {
    tn__pidForce(m, d, cfgs);
  }
  tendon_force_limits(m, d);

  // map to joint space
  joint_forces(m, d);
  mj_freeStack(d);
}

/* the actuation stage, timed as mjTIMER_ACTUATION */
void mj_fwdActuation(const mjModel* m, mjData* d) {
  mjtNum t = timer_start();
  actuation(m, d);
  timer_end(d, mjTIMER_ACTUATION, t);
}
