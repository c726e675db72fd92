/* integrate/position.c — arithmetic on generalized positions with quaternions.
 *
 * qpos has nq entries and qvel nv: free joints hold a position and a quaternion (7 in qpos,
 * 6 in qvel), ball joints a quaternion (4 in qpos, 3 in qvel: angular velocity in the
 * joint's local frame), hinges and slides one scalar each. Adding a velocity integrates
 * quaternions on the unit sphere; differencing maps quaternion pairs to the tangent space. */
#include <torsion/torsion.h>

/* qpos += qvel*dt, quaternions integrated on the sphere */
void mj_integratePos(const mjModel* m, mjtNum* qpos, const mjtNum* qvel, mjtNum dt) {
  for (int j = 0; j < m->njnt; j++) {
    int padr = m->jnt_qposadr[j];
    int vadr = m->jnt_dofadr[j];

    switch (m->jnt_type[j]) {
      // free: position, then orientation like a ball
      case mjJNT_FREE:
        for (int i = 0; i < 3; i++) {
          qpos[padr + i] += dt * qvel[vadr + i];
        }
        padr += 3;
        vadr += 3;
        // fall through

      // ball: rotate by the local angular velocity
      case mjJNT_BALL: mju_quatIntegrate(qpos + padr, qvel + vadr, dt); break;

      // hinge and slide: scalar update
      default: qpos[padr] += dt * qvel[vadr]; break;
    }
  }
}

/* qvel = (qpos2 - qpos1)/dt, quaternion differences in the tangent space */
void mj_differentiatePos(const mjModel* m, mjtNum* qvel, mjtNum dt, const mjtNum* qpos1,
                         const mjtNum* qpos2) {
  for (int j = 0; j < m->njnt; j++) {
    int padr = m->jnt_qposadr[j];
    int vadr = m->jnt_dofadr[j];

    switch (m->jnt_type[j]) {
      // free: position difference, then orientation like a ball
      case mjJNT_FREE:
        for (int i = 0; i < 3; i++) {
          qvel[vadr + i] = (qpos2[padr + i] - qpos1[padr + i]) / dt;
        }
        padr += 3;
        vadr += 3;
        // fall through

      // ball: rotation taking qpos1 to qpos2, as a velocity
      case mjJNT_BALL:
        mju_subQuat(qvel + vadr, qpos2 + padr, qpos1 + padr);
        mju_scl3(qvel + vadr, qvel + vadr, 1 / dt);
        break;

      // hinge and slide: scalar difference
      default: qvel[vadr] = (qpos2[padr] - qpos1[padr]) / dt; break;
    }
  }
}

/* normalize the quaternions of free and ball joints */
void mj_normalizeQuat(const mjModel* m, mjtNum* qpos) {
  for (int j = 0; j < m->njnt; j++) {
    int padr = m->jnt_qposadr[j];
    if (m->jnt_type[j] == mjJNT_FREE) {
      mju_normalize4(qpos + padr + 3);
    } else if (m->jnt_type[j] == mjJNT_BALL) {
      mju_normalize4(qpos + padr);
    }
  }
}
