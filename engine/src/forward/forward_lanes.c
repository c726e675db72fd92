/* forward/forward_lanes.c — the forward-dynamics pipeline for a group of TN_LANES datas of
 * one model (tn_stepGroup), stage by stage across the group.
 *
 * The stages run in mj_forward's order (forward.c), each for every data of the group before
 * the next; where lanes/ has a stage for the whole group (kinematics, com quantities, the
 * inertia matrix and its factorization, body velocities and the bias force), it replaces
 * the per-data calls. Each data's result is bitwise the one mj_forward gives. Stage timers
 * (when the user's clock is installed) count each data's calls; a stage computed for the
 * whole group adds a TN_LANES-th of its time to each data's timer. */
#include <torsion/torsion.h>

#include "constraint/constraint.h"
#include "forward/forward.h"
#include "lanes/lanes.h"
#include "smooth/smooth.h"
#include "util/timer.h"

/* the inertia matrix and its factorization, in lanes (one data at a time with tendon
 * armature or when the lanes' scratch does not fit the first data's arena) */
static void inertia_lanes(const mjModel* m, mjData* const* d) {
  if (tn__lanesTendonArmature(m) ||
      !tn__lanesFit(d[0], 10 * (size_t)m->nbody + 7 * (size_t)m->nv + 2 * (size_t)m->nC)) {
    for (int l = 0; l < TN_LANES; l++) {
      mj_crb(m, d[l]);
      mj_factorM(m, d[l]);
    }
    return;
  }
  mj_markStack(d[0]);
  tnLane* mat = tn__lanesAlloc(d[0], (size_t)m->nC);
  tn__crbLanes(m, d, mat);
  tn__factorLanes(m, d, mat, 0);
  mj_freeStack(d[0]);
}

/* the position stage of every data: mj_fwdPosition with kinematics and the inertia in lanes
 * (their timers take a share of the group's time, the others each data's own) */
static void position_lanes(const mjModel* m, mjData* const* d) {
  mjtNum tpos = timer_start(), t = tpos;

  // kinematics and com quantities in lanes; cameras/lights, tendons
  tn__kinematicsLanes(m, d);
  tn__comPosLanes(m, d);
  for (int l = 0; l < TN_LANES; l++) {
    mj_camlight(m, d[l]);
    mj_tendon(m, d[l]);
  }
  tn__lanesTimerEnd(d, mjTIMER_POS_KINEMATICS, t);

  // the inertia matrix and its factorization, all datas at once
  t = timer_start();
  inertia_lanes(m, d);
  tn__lanesTimerEnd(d, mjTIMER_POS_INERTIA, t);

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
static void velocity_lanes(const mjModel* m, mjData* const* d) {
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
  // reference accelerations; the bias force in lanes, plus tendon armature's bias (the
  // lanes' scratch taken only around the lane stages)
  for (int l = 0; l < TN_LANES; l++) {
    tn__tendonActuatorVelocity(m, d[l]);
  }
  mj_markStack(d[0]);
  tn__velLanesInit(m, &w, tn__lanesAlloc(d[0], size));
  tn__comVelLanes(m, d, &w);
  mj_freeStack(d[0]);
  for (int l = 0; l < TN_LANES; l++) {
    mj_passive(m, d[l]);
    mj_referenceConstraint(m, d[l]);
  }
  mj_markStack(d[0]);
  tn__velLanesInit(m, &w, tn__lanesAlloc(d[0], size));
  tn__rneBiasLanes(m, d, &w);
  mj_freeStack(d[0]);
  for (int l = 0; l < TN_LANES; l++) {
    tn__tendonBias(m, d[l], d[l]->qfrc_bias);
  }
  tn__lanesTimerEnd(d, mjTIMER_VELOCITY, t);
}

/* tn__forwardSkip for the group */
void tn__forwardLanes(const mjModel* m, mjData* const* d, int skipstage, int skipsensor) {
  int energy = m->opt.enableflags & mjENBL_ENERGY;
  mjtNum tfwd = timer_start();

  // position-dependent, then its sensors
  if (skipstage < mjSTAGE_POS) {
    position_lanes(m, d);
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
    velocity_lanes(m, d);
    for (int l = 0; l < TN_LANES; l++) {
      if (!skipsensor) {
        mj_sensorVel(m, d[l]);
      }
      if (energy) {
        mj_energyVel(m, d[l]);
      }
    }
  }

  // force/acceleration-dependent (after the user's controller), then its sensors
  for (int l = 0; l < TN_LANES; l++) {
    if (mjcb_control && !(m->opt.disableflags & mjDSBL_ACTUATION)) {
      mjcb_control(m, d[l]);
    }
    mj_fwdActuation(m, d[l]);
    mj_fwdAcceleration(m, d[l]);
    mj_fwdConstraint(m, d[l]);
    if (!skipsensor) {
      mj_sensorAcc(m, d[l]);
    }
  }
  tn__lanesTimerEnd(d, mjTIMER_FORWARD, tfwd);
}
