/* smooth/transmission.c — actuator lengths and moment arms (mj_transmission).
 *
 * Every actuator acts through a transmission with a scalar length l(q) and a moment-arm
 * vector dl/dq (one row of the dense nu x nv d->actuator_moment). Joint transmissions scale
 * the joint coordinate by the gear (3D or 6D gears for ball and free joints, expressed in
 * the child frame, or in the parent frame for jointinparent; a free joint's length is
 * zero, as in MuJoCo); tendon transmissions scale
 * the tendon length and Jacobian. Slider-crank, site and body transmissions are not
 * implemented yet (the compiler rejects them). */

#include <torsion/torsion.h>

/* rotational part of a ball/free joint: length from the quaternion's rotation vector,
 * moment arm = gear axis (rotated into the child frame for jointinparent) */
static mjtNum rotationalGear(mjtNum moment[3], const mjtNum qpos[4], const mjtNum gear[3],
                             int inparent) {
  mjtNum quat[4], axis[3], gearaxis[3];

  // rotation vector of the normalized joint quaternion
  mju_copy4(quat, qpos);
  mju_normalize4(quat);
  mju_quat2Vel(axis, quat, 1);

  // gear axis in the child frame
  if (inparent) {
    mjtNum qinv[4];
    mju_negQuat(qinv, quat);
    mju_rotVecQuat(gearaxis, gear, qinv);
  } else {
    mju_copy3(gearaxis, gear);
  }

  mju_copy3(moment, gearaxis);
  return mju_dot3(axis, gearaxis);
}

/* joint and jointinparent transmissions */
static void jointTransmission(const mjModel* m, mjData* d, int i) {
  int jnt = m->actuator_trnid[2*i];
  int qadr = m->jnt_qposadr[jnt], dadr = m->jnt_dofadr[jnt];
  int inparent = (m->actuator_trntype[i] == mjTRN_JOINTINPARENT);
  const mjtNum* gear = m->actuator_gear + 6*i;
  mjtNum* moment = d->actuator_moment + (size_t)i*m->nv;

  switch (m->jnt_type[jnt]) {
    case mjJNT_SLIDE:
    case mjJNT_HINGE:
      // scalar joint: gear times the coordinate
      d->actuator_length[i] = d->qpos[qadr] * gear[0];
      moment[dadr] = gear[0];
      break;

    case mjJNT_BALL:
      // ball joint: 3D gear on the rotation vector
      d->actuator_length[i] = rotationalGear(moment + dadr, d->qpos + qadr, gear, inparent);
      break;

    case mjJNT_FREE:
      // free joint: 6D gear on the translation and rotation dofs, length fixed at zero
      d->actuator_length[i] = 0;
      mju_copy3(moment + dadr, gear);
      rotationalGear(moment + dadr + 3, d->qpos + qadr + 3, gear + 3, inparent);
      break;
  }
}

/* tendon transmission: gear times tendon length and Jacobian */
static void tendonTransmission(const mjModel* m, mjData* d, int i) {
  int nv = m->nv, ten = m->actuator_trnid[2*i];
  mjtNum gear = m->actuator_gear[6*i];

  d->actuator_length[i] = d->ten_length[ten] * gear;
  mju_scl(d->actuator_moment + (size_t)i*nv, d->ten_J + (size_t)ten*nv, gear, nv);
}

/* actuator lengths and moment arms */
void mj_transmission(const mjModel* m, mjData* d) {
  int nv = m->nv, nu = m->nu;
  int reported = 0;

  // clear lengths; moment rows are rewritten where they can be non-zero (a joint's dofs
  // are a fixed pattern, tendon rows are rewritten whole), the rest stay zero from reset
  mju_zero(d->actuator_length, nu);
  (void)nv;

  for (int i = 0; i < nu; i++) {
    switch (m->actuator_trntype[i]) {
      case mjTRN_JOINT:
      case mjTRN_JOINTINPARENT:
        jointTransmission(m, d, i);
        break;

      case mjTRN_TENDON:
        tendonTransmission(m, d, i);
        break;

      default:
        // unsupported transmission: report once, leave length and moment at zero
        if (!reported) {
          mju_error("mj_transmission: transmission type %d (actuator %d) not implemented "
                    "yet", m->actuator_trntype[i], i);
          reported = 1;
        }
    }
  }
}
