/* passive/gravcomp.c — gravity compensation and the force-at-a-point helper.
 *
 * A body with gravcomp g receives the force -g * mass * gravity at its center of mass,
 * mapped to joint space through the point Jacobian into qfrc_gravcomp. mj_passive adds it
 * to qfrc_passive for joints without actuatorgravcomp; mj_fwdActuation adds it to
 * qfrc_actuator for the others. */

#include "passive/passive_internal.h"

/* generalized force of a global force/torque at a point of a body, added to qfrc_target */
void tn__applyFT(const mjModel* m, mjData* d, const mjtNum force[3], const mjtNum torque[3],
                 const mjtNum point[3], int body, mjtNum* qfrc_target) {
  int nv = m->nv;
  mj_markStack(d);
  mjtNum* jacp = mj_stackAllocNum(d, 3*nv);
  mjtNum* jacr = mj_stackAllocNum(d, 3*nv);
  mjtNum* qforce = mj_stackAllocNum(d, nv);
  if (!jacp || !jacr || !qforce) {
    mj_freeStack(d);
    return;
  }

  // point Jacobians of the body
  mj_jac(m, d, force ? jacp : NULL, torque ? jacr : NULL, point, body);

  // force through the translational Jacobian, torque through the rotational one
  if (force) {
    mju_mulMatTVec(qforce, jacp, force, 3, nv);
    mju_addTo(qfrc_target, qforce, nv);
  }
  if (torque) {
    mju_mulMatTVec(qforce, jacr, torque, 3, nv);
    mju_addTo(qfrc_target, qforce, nv);
  }

  mj_freeStack(d);
}

/* gravity compensation forces into qfrc_gravcomp */
int tn__gravcomp(const mjModel* m, mjData* d) {
  // nothing to compensate
  if (!m->ngravcomp || (m->opt.disableflags & mjDSBL_GRAVITY) ||
      mju_norm3(m->opt.gravity) == 0) {
    return 0;
  }

  // each compensated body: anti-gravity force at its center of mass
  int any = 0;
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_gravcomp[b] == 0) {
      continue;
    }
    mjtNum force[3];
    mju_scl3(force, m->opt.gravity, -(m->body_mass[b] * m->body_gravcomp[b]));
    tn__applyFT(m, d, force, NULL, d->xipos + 3 * b, b, d->qfrc_gravcomp);
    any = 1;
  }
  return any;
}
