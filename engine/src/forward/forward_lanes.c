/* forward/forward_lanes.c — the forward-dynamics pipeline for a group of TN_LANES datas of
 * one model (tn_stepGroup), stage by stage across the group.
 *
 * The stages run in mj_forward's order (forward.c), each for every data of the group before
 * the next; where lanes/ has a stage for the whole group (kinematics, com quantities, the
 * inertia matrix and its factorization, body velocities, the bias force and the smooth
 * acceleration), it replaces the per-data calls. Each data's result is bitwise the one
 * mj_forward gives. Stage timers (when the user's clock is installed) count each data's
 * calls; a stage computed for the whole group adds a TN_LANES-th of its time to each data's
 * timer.
 *
 * A transient forward (Runge-Kutta's stages before its last, whose results the last one
 * overwrites: only qacc, act_dot and sensordata outlive them) leaves out of the datas what
 * none of its later stages reads on a lean model (tn__forwardLean): the body poses but the
 * inertial frames, joint axes and anchors, sites, composite inertias, body velocities and
 * dof rates, and the cameras and lights. */
#include <torsion/torsion.h>

#include "constraint/constraint.h"
#include "forward/forward.h"
#include "lanes/lanes.h"
#include "smooth/smooth.h"
#include "util/timer.h"

/* 1 if a transient forward may leave out what tnPosLanes.transient leaves out: no stage
 * after the lane stages reads it. That needs no user callback (the clock aside), no
 * forward/inverse comparison, fluid forces, flexes or plugins; only fixed tendons, joint
 * and tendon equalities, joint and tendon transmissions. (Energy, gravity compensation and
 * applied forces read the inertial frames and M, which every forward writes.) Sensors read
 * the poses too: the caller decides for them. */
int tn__forwardLean(const mjModel* m) {
  if (mjcb_control || mjcb_passive || mjcb_act_dyn || mjcb_act_gain || mjcb_act_bias ||
      mjcb_contactfilter || mjcb_sensor) {
    return 0;
  }
  if (m->opt.enableflags & mjENBL_FWDINV) {
    return 0;
  }
  if (m->opt.density > 0 || m->opt.viscosity > 0 || m->nflex || m->nplugin) {
    return 0;
  }
  for (int w = 0; w < m->nwrap; w++) {
    if (m->wrap_type[w] != mjWRAP_JOINT) {
      return 0;
    }
  }
  for (int e = 0; e < m->neq; e++) {
    if (m->eq_type[e] != mjEQ_JOINT && m->eq_type[e] != mjEQ_TENDON) {
      return 0;
    }
  }
  for (int a = 0; a < m->nu; a++) {
    if (m->actuator_trntype[a] != mjTRN_JOINT && m->actuator_trntype[a] != mjTRN_TENDON) {
      return 0;
    }
  }
  return 1;
}

/* the position stage of every data one at a time (the lanes' scratch does not fit) */
static void position_each(const mjModel* m, mjData* const* d) {
  for (int l = 0; l < TN_LANES; l++) {
    mj_fwdPosition(m, d[l]);
  }
}

/* the position stage of every data: mj_fwdPosition with the kinematics, com quantities,
 * inertia matrix and factorization in lanes, kept in one workspace from stage to stage (with
 * tendon armature, whose inertia needs each data's tendons, the inertia per data). Their
 * timers take a share of the group's time, the other stages' each data's own. */
static void position_lanes(const mjModel* m, mjData* const* d, int transient) {
  int armature = tn__lanesTendonArmature(m);
  size_t size = tn__posLanesSize(m);
  if (!tn__lanesFit(d[0], size + m->nv + 4)) {  // (the factor's diagonal, its mark)
    position_each(m, d);
    return;
  }
  mjtNum tpos = timer_start(), t = tpos;

  // kinematics and com quantities, then (without tendon armature) M and its factor, in lanes
  tnPosLanes w;
  mj_markStack(d[0]);
  tn__posLanesInit(m, &w, tn__lanesAlloc(d[0], size));
  w.transient = transient;
  tn__kinematicsLanes(m, d, &w);
  tn__comPosLanes(m, d, &w);
  mjtNum tkin = timer_start() - t;
  if (!armature) {
    t = timer_start();
    tn__crbLanes(m, d, &w);
    tn__factorLanes(m, d, w.mat, 0);
    tn__lanesTimerEnd(d, mjTIMER_POS_INERTIA, t);
  }
  mj_freeStack(d[0]);

  // cameras and lights (not in a transient forward) and tendons (their time counted with
  // the kinematics'), then the inertia with tendon armature one data at a time
  t = timer_start();
  for (int l = 0; l < TN_LANES; l++) {
    if (!transient) {
      mj_camlight(m, d[l]);
    }
    mj_tendon(m, d[l]);
  }
  tn__lanesTimerEnd(d, mjTIMER_POS_KINEMATICS, t - tkin);
  if (armature) {
    for (int l = 0; l < TN_LANES; l++) {
      t = timer_start();
      mj_crb(m, d[l]);
      mj_factorM(m, d[l]);
      timer_end(d[l], mjTIMER_POS_INERTIA, t);
    }
  }

  // contacts, constraint rows and islands, transmission, constraint-space inverse inertia
  for (int l = 0; l < TN_LANES; l++) {
    t = timer_start();
    mj_collision(m, d[l]);
    timer_end(d[l], mjTIMER_POS_COLLISION, t);
    t = timer_start();
    mj_makeConstraint(m, d[l]);
    mj_island(m, d[l]);
    timer_end(d[l], mjTIMER_POS_MAKE, t);
    mj_transmission(m, d[l]);
    t = timer_start();
    mj_projectConstraint(m, d[l]);
    timer_end(d[l], mjTIMER_POS_PROJECT, t);
  }
  tn__lanesTimerEnd(d, mjTIMER_POSITION, tpos);
}

/* the velocity stage of every data: mj_fwdVelocity with the body velocities and the bias
 * force in lanes (one data at a time when the lanes' scratch does not fit) */
static void velocity_lanes(const mjModel* m, mjData* const* d, int transient) {
  mjtNum t = timer_start();
  size_t size = tn__velLanesSize(m);
  if (!tn__lanesFit(d[0], size)) {
    for (int l = 0; l < TN_LANES; l++) {
      mj_fwdVelocity(m, d[l]);
    }
    return;
  }
  tnVelLanes w;

  // tendon and actuator velocities; body velocities in lanes; passive forces and the
  // reference accelerations; the bias force in lanes, plus tendon armature's bias. Without a
  // passive-force callback (which might read qfrc_bias) the bias follows the body velocities
  // in the same workspace, before the passive forces (which do not read it); with one, the
  // two lane stages each take the scratch around them.
  for (int l = 0; l < TN_LANES; l++) {
    tn__tendonActuatorVelocity(m, d[l]);
  }
  mj_markStack(d[0]);
  tn__velLanesInit(m, &w, tn__lanesAlloc(d[0], size));
  w.transient = transient && !mjcb_passive;  // (the bias then gathers the velocities)
  tn__comVelLanes(m, d, &w);
  if (!mjcb_passive) {
    tn__rneBiasLanes(m, d, &w, 1);
  }
  mj_freeStack(d[0]);
  for (int l = 0; l < TN_LANES; l++) {
    mj_passive(m, d[l]);
    mj_referenceConstraint(m, d[l]);
  }
  if (mjcb_passive) {
    mj_markStack(d[0]);
    tn__velLanesInit(m, &w, tn__lanesAlloc(d[0], size));
    tn__rneBiasLanes(m, d, &w, 0);
    mj_freeStack(d[0]);
  }
  for (int l = 0; l < TN_LANES; l++) {
    tn__tendonBias(m, d[l], d[l]->qfrc_bias);
  }
  tn__lanesTimerEnd(d, mjTIMER_VELOCITY, t);
}

/* tn__forwardSkip for the group; `transient` (from tn__forwardLean, and only without sensors
 * to compute) leaves out what no later stage reads */
void tn__forwardLanes(const mjModel* m, mjData* const* d, int skipstage, int skipsensor,
                      int transient) {
  int energy = m->opt.enableflags & mjENBL_ENERGY;
  mjtNum tfwd = timer_start();

  // position-dependent, then its sensors
  if (skipstage < mjSTAGE_POS) {
    position_lanes(m, d, transient);
    for (int l = 0; l < TN_LANES; l++) {
      if (!skipsensor) {
        mj_sensorPos(m, d[l]);
      }
      if (energy) {
        mj_energyPos(m, d[l]);
      }
    }
  }

  // velocity-dependent, then its sensors
  if (skipstage < mjSTAGE_VEL) {
    velocity_lanes(m, d, transient);
    for (int l = 0; l < TN_LANES; l++) {
      if (!skipsensor) {
        mj_sensorVel(m, d[l]);
      }
      if (energy) {
        mj_energyVel(m, d[l]);
      }
    }
  }

  // force-dependent (after the user's controller): the smooth forces, their accelerations
  // solved in lanes, then the constraints and the acceleration sensors
  for (int l = 0; l < TN_LANES; l++) {
    if (mjcb_control && !(m->opt.disableflags & mjDSBL_ACTUATION)) {
      mjcb_control(m, d[l]);
    }
    mj_fwdActuation(m, d[l]);
    tn__smoothForce(m, d[l]);
    mju_copy(d[l]->qacc_smooth, d[l]->qfrc_smooth, m->nv);
  }
  tn__solveLanes(m, d, LANES_OF(d, qacc_smooth), 0);
  for (int l = 0; l < TN_LANES; l++) {
    mj_fwdConstraint(m, d[l]);
    if (!skipsensor) {
      mj_sensorAcc(m, d[l]);
    }
  }
  tn__lanesTimerEnd(d, mjTIMER_FORWARD, tfwd);
}
