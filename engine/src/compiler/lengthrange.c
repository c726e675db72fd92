/* compiler/lengthrange.c — actuator length ranges (mj_setLengthRange and the compile step
 * that runs it, <compiler><lengthrange>).
 *
 * Muscles (by default; mode selects which actuators) need the range of lengths their
 * transmission can reach. An existing range is kept (useexisting); with uselimit the joint
 * or tendon limits are copied; otherwise the model is simulated from qpos0 twice, pulled by
 * a force along the moment arm that produces acceleration `accel` (capped at maxforce), with
 * its velocity damped by timeconst, for inttotal seconds: the extreme lengths reached over
 * the final `interval` give the range, and their spread must stay within tolrange of it.
 * The compile step runs the simulations with MuJoCo's option changes: contacts, springs,
 * dampers, friction loss, gravity and actuation disabled (limits and equality constraints
 * stay), and the lengthrange timestep. */

#include <math.h>
#include <stdio.h>

#include "compiler/compile_internal.h"

/* 1 if the actuator's gain or bias is of type `muscle` (or of type `user`) */
static int is_muscle(const mjModel* m, int i) {
  return m->actuator_gaintype[i] == mjGAIN_MUSCLE || m->actuator_biastype[i] == mjBIAS_MUSCLE;
}
static int is_user(const mjModel* m, int i) {
  return m->actuator_gaintype[i] == mjGAIN_USER || m->actuator_biastype[i] == mjBIAS_USER;
}

/* 1 if the mode leaves actuator i alone */
static int skipped_by_mode(const mjModel* m, int i, int mode) {
  return mode == mjLRMODE_NONE || (mode == mjLRMODE_MUSCLE && !is_muscle(m, i)) ||
         (mode == mjLRMODE_MUSCLEUSER && !is_muscle(m, i) && !is_user(m, i));
}

/* 1 if the actuator already has a usable range */
static int has_range(const mjModel* m, int i) {
  return m->actuator_lengthrange[2 * i] < m->actuator_lengthrange[2 * i + 1];
}

/* uselimit: copy the joint or tendon range; 1 when copied. MuJoCo reads the transmission
 * target at actuator_trnid[index] (not [2*index]); the same entry is read here so that the
 * compiled ranges agree, treating an entry that names no joint or tendon as unlimited. */
static int copy_limit(mjModel* m, int index) {
  int id = m->actuator_trnid[index], type = m->actuator_trntype[index];
  mjtNum* range = m->actuator_lengthrange + 2 * index;
  if ((type == mjTRN_JOINT || type == mjTRN_JOINTINPARENT) && id >= 0 && id < m->njnt &&
      m->jnt_limited[id]) {
    range[0] = m->jnt_range[2 * id];
    range[1] = m->jnt_range[2 * id + 1];
    return 1;
  }
  if (type == mjTRN_TENDON && id >= 0 && id < m->ntendon && m->tendon_limited[id]) {
    range[0] = m->tendon_range[2 * id];
    range[1] = m->tendon_range[2 * id + 1];
    return 1;
  }
  return 0;
}

/* one step of the pulling simulation; returns the actuator length after it */
static mjtNum pull_step(const mjModel* m, mjData* d, int index, int side, const mjLROpt* opt) {
  int nv = m->nv;

  // damp the velocity
  mju_scl(d->qvel, d->qvel, exp(-m->opt.timestep / mju_max(0.01, opt->timeconst)), nv);

  // positions, velocities, inertia and moment arms (the actuator's row, dense)
  mj_step1(m, d);
  mj_markStack(d);
  mjtNum* moment = mj_stackAllocNum(d, (size_t)nv + 1);
  if (!moment) {
    mj_freeStack(d);
    return d->actuator_length[index];
  }
  mju_sparse2dense(moment, d->actuator_moment, 1, nv, d->moment_rownnz + index,
                   d->moment_rowadr + index, d->moment_colind);

  // force along the moment arm producing acceleration `accel`
  mj_solveM(m, d, d->qfrc_applied, moment, 1);
  mjtNum nrm = mju_norm(d->qfrc_applied, nv);
  mju_scl(d->qfrc_applied, moment, (2 * side - 1) * opt->accel / mju_max(mjMINVAL, nrm), nv);
  mj_freeStack(d);

  // at most maxforce
  nrm = mju_norm(d->qfrc_applied, nv);
  if (opt->maxforce > 0 && nrm > opt->maxforce) {
    mju_scl(d->qfrc_applied, d->qfrc_applied, opt->maxforce / mju_max(mjMINVAL, nrm), nv);
  }

  // forces, acceleration and integration
  mj_step2(m, d);
  return d->actuator_length[index];
}

int mj_setLengthRange(mjModel* m, mjData* d, int index, const mjLROpt* opt, char* error,
                      int error_sz) {
  if (index < 0 || index >= m->nu) {
    snprintf(error, (size_t)error_sz, "invalid actuator index %d", index);
    return 0;
  }

  // skipped by mode, existing range, or limits
  if (skipped_by_mode(m, index, opt->mode)) {
    return 1;
  }
  if (opt->useexisting && has_range(m, index)) {
    return 1;
  }
  if (opt->uselimit && copy_limit(m, index)) {
    return 1;
  }

  // simulate pulling one way (side 0: shortest) and the other (side 1: longest)
  mjtNum lmin[2] = {0, 0}, lmax[2] = {0, 0};
  for (int side = 0; side < 2; side++) {
    mj_resetData(m, d);
    int updated = 0;
    while (d->time < opt->inttotal) {
      mjtNum len = pull_step(m, d, index, side, opt);

      // the state was reset: the simulation diverged
      if (d->time == 0) {
        snprintf(error, (size_t)error_sz, "Unstable lengthrange simulation in actuator %d",
                 index);
        return 0;
      }

      // extremes over the final interval
      if (d->time > opt->inttotal - opt->interval) {
        if (len < lmin[side] || !updated) {
          lmin[side] = len;
        }
        if (len > lmax[side] || !updated) {
          lmax[side] = len;
        }
        updated = 1;
      }
    }
    m->actuator_lengthrange[2 * index + side] = side == 0 ? lmin[side] : lmax[side];
  }

  // a valid range
  const mjtNum* range = m->actuator_lengthrange + 2 * index;
  mjtNum dif = range[1] - range[0];
  if (dif <= 0) {
    snprintf(error, (size_t)error_sz, "Invalid lengthrange (%g, %g) in actuator %d", range[0],
             range[1], index);
    return 0;
  }

  // converged on both sides
  for (int side = 0; side < 2; side++) {
    if (lmax[side] - lmin[side] > opt->tolrange * dif) {
      snprintf(error, (size_t)error_sz,
               "Lengthrange computation did not converge in actuator %d:\n"
               "  eval (%g, %g)\n  range (%g, %g)",
               index, lmin[side], lmax[side], range[0], range[1]);
      return 0;
    }
  }
  return 1;
}

/* one mj_setLengthRange call's arguments and result, for tn_run (an engine error, such as
 * an arena too small for the pulling simulation, fails the compilation with its message) */
typedef struct lengthRangeRun_ {
  mjModel* m;
  mjData* d;
  int index;
  const mjLROpt* opt;
  char* why;
  int why_sz;
  int ok;
} lengthRangeRun;

/* mj_setLengthRange on a call's arguments */
static void lengthrange_run(void* arg) {
  lengthRangeRun* r = arg;
  r->ok = mj_setLengthRange(r->m, r->d, r->index, r->opt, r->why, r->why_sz);
}

int tn__compileLengthRange(tnCompiler* c) {
  mjModel* m = c->m;
  const mjLROpt* opt = &c->spec->compiler.LRopt;

  // anything to compute?
  int count = 0;
  for (int i = 0; i < m->nu; i++) {
    if (!skipped_by_mode(m, i, opt->mode) && !(opt->useexisting && has_range(m, i))) {
      count++;
    }
  }
  if (!count) {
    return 1;
  }

  // simulation options, as MuJoCo's compiler sets them
  mjOption saved = m->opt;
  m->opt.disableflags = mjDSBL_FRICTIONLOSS | mjDSBL_CONTACT | mjDSBL_SPRING | mjDSBL_DAMPER |
                        mjDSBL_GRAVITY | mjDSBL_ACTUATION;
  if (opt->timestep > 0) {
    m->opt.timestep = opt->timestep;
  }

  // every actuator in order, the first error stops
  mjData* d = mj_makeData(m);
  int ok = d != NULL;
  if (!ok) {
    tn__compileFail(c, NULL, NULL, "out of memory computing actuator length ranges");
  }
  for (int i = 0; ok && i < m->nu; i++) {
    char why[300] = "";
    lengthRangeRun r = {m, d, i, opt, why, (int)sizeof(why), 0};
    if (tn_run(d, lengthrange_run, &r, why, (int)sizeof(why)) || !r.ok) {
      const tnSpecActuator* a = TN_AT(c->spec->actuators, tnSpecActuator, i);
      if (a->name) {
        ok = tn__compileFail(c, a->src, NULL, "%s (actuator '%s')", why, a->name);
      } else {
        ok = tn__compileFail(c, a->src, NULL, "%s", why);
      }
    }
  }
  mj_deleteData(d);
  m->opt = saved;
  return ok;
}
