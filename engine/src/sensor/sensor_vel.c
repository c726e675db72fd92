/* sensor/sensor_vel.c — mj_sensorVel: the sensors that depend on velocities, evaluated
 * after the velocity stage.
 *
 * velocimeter and gyro (the site's linear and angular velocity in its own frame), joint,
 * tendon, actuator and ball-joint velocities, the velocity of an active joint or tendon
 * limit row (0 when none), frame linear and angular velocities (in the world, or relative
 * to a moving reference frame and expressed in it), and the subtree linear velocity and
 * angular momentum (mj_subtreeVel, run once, before the first such sensor). */
#include "sensor/sensor_internal.h"
#include "util/util_inline.h"

/* velocity of an active limit row, 0 when none */
static mjtNum limit_velocity(const mjData* d, int type, int id) {
  int row = tn__sensorEfcRow(d, type, id);
  return row < 0 ? 0 : d->efc_vel[row];
}

/* frame linear or angular velocity, global or relative to the reference frame */
static void frame_velocity(const mjModel* m, const mjData* d, int i, mjtNum out[3]) {
  int linear = m->sensor_type[i] == mjSENS_FRAMELINVEL;
  int objtype = m->sensor_objtype[i], id = m->sensor_objid[i];
  int reftype = m->sensor_reftype[i], refid = m->sensor_refid[i];
  mjtNum vel[6];
  mj_objectVelocity(m, d, objtype, id, vel, 0);
  if (refid < 0) {
    mju_copy3(out, linear ? vel + 3 : vel);
    return;
  }

  // relative to the reference: subtract its velocity (and w_ref x r for points)
  const mjtNum *pos, *mat, *rpos, *rmat;
  mjtNum rvel[6], rel[3];
  tn__objectFrame(m, d, objtype, id, &pos, &mat);
  tn__objectFrame(m, d, reftype, refid, &rpos, &rmat);
  mj_objectVelocity(m, d, reftype, refid, rvel, 0);
  if (linear) {
    mjtNum dif[3], cross[3];
    mju_sub3(rel, vel + 3, rvel + 3);
    mju_sub3(dif, pos, rpos);
    mju_cross(cross, rvel, dif);
    mju_subFrom3(rel, cross);
  } else {
    mju_sub3(rel, vel, rvel);
  }

  // expressed in the reference frame
  mju_mulMatTVec3(out, rmat, rel);
}

/* one velocity-stage sensor */
static void sensor_vel(const mjModel* m, mjData* d, int i) {
  int id = m->sensor_objid[i];
  mjtNum* out = d->sensordata + m->sensor_adr[i];
  mjtNum vel[6];
  switch (m->sensor_type[i]) {
    case mjSENS_VELOCIMETER:
      mj_objectVelocity(m, d, mjOBJ_SITE, id, vel, 1);
      mju_copy3(out, vel + 3);
      break;
    case mjSENS_GYRO:
      mj_objectVelocity(m, d, mjOBJ_SITE, id, vel, 1);
      mju_copy3(out, vel);
      break;
    case mjSENS_JOINTVEL: out[0] = d->qvel[m->jnt_dofadr[id]]; break;
    case mjSENS_TENDONVEL: out[0] = d->ten_velocity[id]; break;
    case mjSENS_ACTUATORVEL: out[0] = d->actuator_velocity[id]; break;
    case mjSENS_BALLANGVEL: mju_copy3(out, d->qvel + m->jnt_dofadr[id]); break;
    case mjSENS_JOINTLIMITVEL: out[0] = limit_velocity(d, mjCNSTR_LIMIT_JOINT, id); break;
    case mjSENS_TENDONLIMITVEL: out[0] = limit_velocity(d, mjCNSTR_LIMIT_TENDON, id); break;
    case mjSENS_FRAMELINVEL:
    case mjSENS_FRAMEANGVEL: frame_velocity(m, d, i, out); break;
    case mjSENS_SUBTREELINVEL: mju_copy3(out, d->subtree_linvel + 3 * id); break;
    case mjSENS_SUBTREEANGMOM: mju_copy3(out, d->subtree_angmom + 3 * id); break;
    default: break;  // user sensors: zeroed by mj_sensorVel
  }
}

/* velocity-dependent sensors; mj_subtreeVel before the first sensor that reads it (user
 * sensors zeroed for mjcb_sensor; a model without any of this stage: nothing to do) */
void mj_sensorVel(const mjModel* m, mjData* d) {
  if (!tn__sensorEnabled(m)) {
    return;
  }
  int nstage = 0, nuser = 0, subtree = 0;
  for (int i = 0; i < m->nsensor; i++) {
    int type = m->sensor_type[i];
    if (m->sensor_needstage[i] != mjSTAGE_VEL) {
      continue;
    }
    nstage++;
    if (!tn__sensorEngine(m, d, i, &nuser)) {
      continue;
    }
    if (!subtree && (type == mjSENS_SUBTREELINVEL || type == mjSENS_SUBTREEANGMOM)) {
      mj_subtreeVel(m, d);
      subtree = 1;
    }
    sensor_vel(m, d, i);
  }
  if (nstage) {
    tn__sensorStageEnd(m, d, mjSTAGE_VEL, nuser);
  }
}
