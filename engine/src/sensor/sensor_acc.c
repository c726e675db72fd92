/* sensor/sensor_acc.c — mj_sensorAcc: the sensors that depend on forces and accelerations,
 * evaluated after the constraint solve.
 *
 * touch (the normal forces of the contacts on the site's body whose point lies in the
 * site's volume, or whose normal ray, pointed away from the site's body, enters it),
 * accelerometer (the site's linear acceleration in its frame, gravity included through
 * the world's acceleration), force and torque (the interaction force the site's body
 * receives from its parent, at the site, in the site frame), actuator, joint-actuator and
 * tendon-actuator forces, the force of an active joint or tendon limit row (0 when none),
 * and frame linear and angular accelerations. mj_rnePostConstraint runs once, before the
 * first of these sensors that needs cacc or cfrc_int. */
#include "sensor/sensor_internal.h"
#include "ray/ray.h"
#include "util/util_inline.h"

/* force of an active limit row, 0 when none */
static mjtNum limit_force(const mjData* d, int type, int id) {
  int row = tn__sensorEfcRow(d, type, id);
  return row < 0 ? 0 : d->efc_force[row];
}

/* normal force contact c contributes to a touch sensor on `site` (0 if none) */
static mjtNum touch_contact(const mjModel* m, const mjData* d, int site, int c) {
  const mjContact* con = d->contact + c;
  int body = m->site_bodyid[site];
  int body1 = m->geom_bodyid[con->geom1], body2 = m->geom_bodyid[con->geom2];
  if (con->efc_address < 0 || (body != body1 && body != body2)) {
    return 0;
  }

  // positive normal force only
  mjtNum force[6];
  mj_contactForce(m, d, c, force);
  if (force[0] <= 0) {
    return 0;
  }

  // normal ray from the contact point, pointing away from the sensor's body
  mjtNum ray[3];
  mju_scl3(ray, con->frame, force[0]);
  mju_normalize3(ray);
  if (body == body2) {
    mju_scl3(ray, ray, -1);
  }

  // counted when the ray meets the site's volume (always, from a point inside it)
  mjtNum x = mju_rayGeom(d->site_xpos + 3 * site, d->site_xmat + 9 * site, m->site_size + 3 * site,
                         con->pos, ray, m->site_type[site], NULL);
  return x >= 0 ? force[0] : 0;
}

/* touch: sum over the contacts */
static mjtNum touch(const mjModel* m, const mjData* d, int site) {
  mjtNum sum = 0;
  for (int c = 0; c < d->ncon; c++) {
    sum += touch_contact(m, d, site, c);
  }
  return sum;
}

/* force or torque sensor: cfrc_int of the site's body, at the site, in the site frame */
static void force_torque(const mjModel* m, const mjData* d, int site, int torque,
                         mjtNum out[3]) {
  int body = m->site_bodyid[site];
  mjtNum frc[6];
  mju_transformSpatial(frc, d->cfrc_int + 6 * body, 1, d->site_xpos + 3 * site,
                       d->subtree_com + 3 * m->body_rootid[body], d->site_xmat + 9 * site);
  mju_copy3(out, torque ? frc : frc + 3);
}

/* tendon actuator force: the forces of the actuators acting on the tendon */
static mjtNum tendon_actuator_force(const mjModel* m, const mjData* d, int tendon) {
  mjtNum sum = 0;
  for (int a = 0; a < m->nu; a++) {
    if (m->actuator_trntype[a] == mjTRN_TENDON && m->actuator_trnid[2 * a] == tendon) {
      sum += d->actuator_force[a];
    }
  }
  return sum;
}

/* one acceleration-stage sensor */
static void sensor_acc(const mjModel* m, mjData* d, int i) {
  int id = m->sensor_objid[i];
  mjtNum* out = d->sensordata + m->sensor_adr[i];
  mjtNum acc[6];
  switch (m->sensor_type[i]) {
    case mjSENS_TOUCH: out[0] = touch(m, d, id); break;
    case mjSENS_ACCELEROMETER:
      mj_objectAcceleration(m, d, mjOBJ_SITE, id, acc, 1);
      mju_copy3(out, acc + 3);
      break;
    case mjSENS_FORCE: force_torque(m, d, id, 0, out); break;
    case mjSENS_TORQUE: force_torque(m, d, id, 1, out); break;
    case mjSENS_ACTUATORFRC: out[0] = d->actuator_force[id]; break;
    case mjSENS_JOINTACTFRC: out[0] = d->qfrc_actuator[m->jnt_dofadr[id]]; break;
    case mjSENS_TENDONACTFRC: out[0] = tendon_actuator_force(m, d, id); break;
    case mjSENS_JOINTLIMITFRC: out[0] = limit_force(d, mjCNSTR_LIMIT_JOINT, id); break;
    case mjSENS_TENDONLIMITFRC: out[0] = limit_force(d, mjCNSTR_LIMIT_TENDON, id); break;
    case mjSENS_FRAMELINACC:
    case mjSENS_FRAMEANGACC:
      mj_objectAcceleration(m, d, m->sensor_objtype[i], id, acc, 0);
      mju_copy3(out, m->sensor_type[i] == mjSENS_FRAMELINACC ? acc + 3 : acc);
      break;
    default: break;  // user sensors: zeroed by mj_sensorAcc
  }
}

/* 1 if a sensor of this type reads cacc or cfrc_int */
static int reads_rne_post(int type) {
  switch (type) {
    case mjSENS_ACCELEROMETER:
    case mjSENS_FORCE:
    case mjSENS_TORQUE:
    case mjSENS_FRAMELINACC:
    case mjSENS_FRAMEANGACC: return 1;
    default: return 0;
  }
}

/* force- and acceleration-dependent sensors; mj_rnePostConstraint before the first sensor
 * that reads it (user sensors zeroed for mjcb_sensor; a model without any of this stage:
 * nothing to do) */
void mj_sensorAcc(const mjModel* m, mjData* d) {
  if (!tn__sensorEnabled(m)) {
    return;
  }
  int nstage = 0, nuser = 0, rnepost = 0;
  for (int i = 0; i < m->nsensor; i++) {
    int type = m->sensor_type[i];
    if (m->sensor_needstage[i] != mjSTAGE_ACC) {
      continue;
    }
    nstage++;
    if (!tn__sensorEngine(m, d, i, &nuser)) {
      continue;
    }
    if (!rnepost && reads_rne_post(type)) {
      mj_rnePostConstraint(m, d);
      rnepost = 1;
    }
    sensor_acc(m, d, i);
  }
  if (nstage) {
    tn__sensorStageEnd(m, d, mjSTAGE_ACC, nuser);
  }
}
