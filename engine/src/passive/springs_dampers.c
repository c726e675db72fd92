/* passive/springs_dampers.c — joint and tendon springs and dampers.
 *
 * Joint springs pull qpos toward qpos_spring: linearly for hinge and slide joints and for
 * the position of free joints, and through the quaternion difference (a rotation vector)
 * for ball joints and the rotation of free joints. Dof dampers oppose qvel. Tendon springs
 * act outside the dead band [lengthspring[0], lengthspring[1]], tendon dampers oppose the
 * tendon velocity; both are mapped to joint space through the tendon Jacobian. */

#include "passive/passive_internal.h"

/* rotational spring of a ball (or free) joint: -k times the rotation vector between the
 * normalized joint quaternion and its spring reference */
static void quat_spring(mjtNum frc[3], const mjtNum qpos[4], const mjtNum qref[4], mjtNum k) {
  mjtNum quat[4], dif[3];
  mju_copy4(quat, qpos);
  mju_normalize4(quat);
  mju_subQuat(dif, quat, qref);
  frc[0] = -k * dif[0];
  frc[1] = -k * dif[1];
  frc[2] = -k * dif[2];
}

/* joint springs into qfrc_spring */
static void joint_springs(const mjModel* m, mjData* d) {
  for (int j = 0; j < m->njnt; j++) {
    mjtNum k = m->jnt_stiffness[j];
    if (k == 0) {
      continue;
    }
    int padr = m->jnt_qposadr[j], dadr = m->jnt_dofadr[j];
    const mjtNum* qpos = d->qpos + padr;
    const mjtNum* qref = m->qpos_spring + padr;
    mjtNum* frc = d->qfrc_spring + dadr;

    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        // translation: linear spring per coordinate, then the rotation
        for (int i = 0; i < 3; i++) {
          frc[i] = -k * (qpos[i] - qref[i]);
        }
        quat_spring(frc + 3, qpos + 3, qref + 3, k);
        break;

      case mjJNT_BALL: quat_spring(frc, qpos, qref, k); break;

      case mjJNT_SLIDE:
      case mjJNT_HINGE:
        frc[0] = -k * (qpos[0] - qref[0]);
        break;
    }
  }
}

/* dof dampers into qfrc_damper */
static void dof_dampers(const mjModel* m, mjData* d) {
  for (int i = 0; i < m->nv; i++) {
    d->qfrc_damper[i] = -m->dof_damping[i] * d->qvel[i];
  }
}

/* tendon springs (dead band) and dampers, mapped through ten_J */
static void tendon_spring_dampers(const mjModel* m, mjData* d, int has_spring, int has_damper) {
  for (int i = 0; i < m->ntendon; i++) {
    mjtNum k = has_spring ? m->tendon_stiffness[i] : 0;
    mjtNum b = has_damper ? m->tendon_damping[i] : 0;
    if (k == 0 && b == 0) {
      continue;
    }

    // spring force outside the dead band
    mjtNum len = d->ten_length[i];
    mjtNum lower = m->tendon_lengthspring[2*i], upper = m->tendon_lengthspring[2*i + 1];
    mjtNum frc_spring = 0;
    if (len > upper) {
      frc_spring = k * (upper - len);
    } else if (len < lower) {
      frc_spring = k * (lower - len);
    }

    // damper force along the tendon
    mjtNum frc_damper = -b * d->ten_velocity[i];

    // map to joint space
    int adr = m->ten_J_rowadr[i], nnz = m->ten_J_rownnz[i];
    const mjtNum* J = d->ten_J + adr;
    const int* colind = m->ten_J_colind + adr;
    if (frc_spring != 0) {
      for (int k = 0; k < nnz; k++) {
        d->qfrc_spring[colind[k]] += J[k] * frc_spring;
      }
    }
    if (frc_damper != 0) {
      for (int k = 0; k < nnz; k++) {
        d->qfrc_damper[colind[k]] += J[k] * frc_damper;
      }
    }
  }
}

/* all spring-dampers, honoring mjDSBL_SPRING and mjDSBL_DAMPER */
void tn__springDamper(const mjModel* m, mjData* d) {
  int has_spring = !(m->opt.disableflags & mjDSBL_SPRING);
  int has_damper = !(m->opt.disableflags & mjDSBL_DAMPER);

  if (has_spring) {
    joint_springs(m, d);
  }
  if (has_damper) {
    dof_dampers(m, d);
  }
  tendon_spring_dampers(m, d, has_spring, has_damper);
}
