/* smooth/energy.c — potential and kinetic energy (d->energy), computed by the pipeline when
 * mjENBL_ENERGY is set.
 *
 * Potential energy: gravity acting on every body's com, plus the joint springs (free joint
 * position and orientation, ball orientation, hinge/slide displacement from qpos_spring) and
 * tendon springs outside their dead band [lengthspring0, lengthspring1]. Kinetic energy:
 * 0.5 * qvel' M qvel. */
#include <torsion/torsion.h>

#include "util/util_inline.h"

/* potential energy of gravity */
static mjtNum energy_gravity(const mjModel* m, const mjData* d) {
  mjtNum energy = 0;
  for (int b = 1; b < m->nbody; b++) {
    energy -= m->body_mass[b] * mju_dot3(m->opt.gravity, d->xipos + 3 * b);
  }
  return energy;
}

/* squared rotation between the (normalized) quaternion in qpos and the spring reference */
static mjtNum energy_quat2(const mjtNum* qpos, const mjtNum* qref) {
  mjtNum quat[4], dif[3];
  mju_copy4(quat, qpos);
  mju_normalize4(quat);
  mju_subQuat(dif, quat, qref);
  return mju_dot3(dif, dif);
}

/* potential energy of the joint springs */
static mjtNum energy_joints(const mjModel* m, const mjData* d) {
  mjtNum energy = 0;
  for (int j = 0; j < m->njnt; j++) {
    mjtNum stiffness = m->jnt_stiffness[j];
    int adr = m->jnt_qposadr[j];
    if (stiffness == 0) {
      continue;
    }

    switch (m->jnt_type[j]) {
      // free: translation, then orientation like a ball
      case mjJNT_FREE: {
        mjtNum dif[3];
        mju_sub3(dif, d->qpos + adr, m->qpos_spring + adr);
        energy += 0.5 * stiffness * mju_dot3(dif, dif);
        energy += 0.5 * stiffness * energy_quat2(d->qpos + adr + 3, m->qpos_spring + adr + 3);
        break;
      }

      // ball: orientation
      case mjJNT_BALL:
        energy += 0.5 * stiffness * energy_quat2(d->qpos + adr, m->qpos_spring + adr);
        break;

      // hinge and slide: scalar displacement
      default: {
        mjtNum dif = d->qpos[adr] - m->qpos_spring[adr];
        energy += 0.5 * stiffness * dif * dif;
        break;
      }
    }
  }
  return energy;
}

/* potential energy of the tendon springs (zero inside the dead band) */
static mjtNum energy_tendons(const mjModel* m, const mjData* d) {
  mjtNum energy = 0;
  for (int t = 0; t < m->ntendon; t++) {
    mjtNum stiffness = m->tendon_stiffness[t];
    mjtNum length = d->ten_length[t];
    mjtNum lower = m->tendon_lengthspring[2 * t];
    mjtNum upper = m->tendon_lengthspring[2 * t + 1];
    mjtNum displacement = 0;

    // distance outside the dead band
    if (length > upper) {
      displacement = upper - length;
    } else if (length < lower) {
      displacement = lower - length;
    }
    energy += 0.5 * stiffness * displacement * displacement;
  }
  return energy;
}

/* potential energy into d->energy[0] */
void mj_energyPos(const mjModel* m, mjData* d) {
  d->energy[0] = 0;

  // gravity
  if (!(m->opt.disableflags & mjDSBL_GRAVITY)) {
    d->energy[0] += energy_gravity(m, d);
  }

  // springs
  if (!(m->opt.disableflags & mjDSBL_SPRING)) {
    d->energy[0] += energy_joints(m, d);
    d->energy[0] += energy_tendons(m, d);
  }
}

/* kinetic energy into d->energy[1] */
void mj_energyVel(const mjModel* m, mjData* d) {
  mj_markStack(d);
  mjtNum* vec = mj_stackAllocNum(d, m->nv);
  if (!vec) {
    mj_freeStack(d);
    return;
  }

  // 0.5 * qvel' M qvel
  mj_mulM(m, d, vec, d->qvel);
  d->energy[1] = 0.5 * mju_dot(vec, d->qvel, m->nv);

  mj_freeStack(d);
}
