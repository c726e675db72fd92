/* sensor/sensor_pos.c — mj_sensorPos: the sensors that depend on positions only, evaluated
 * after the position stage (and the energy sensors, which MuJoCo 3.14 also places here).
 *
 * magnetometer (the field in the site frame), rangefinder (mj_ray along the site's z axis,
 * ignoring the site's own body), joint/tendon/actuator positions, ball quaternions, the
 * distance into an active joint or tendon limit (efc_pos - efc_margin, 0 when none), frame
 * positions, quaternions and axes (in the world or a reference frame), subtree com,
 * insidesite (is an object's origin inside the site's volume), potential and kinetic
 * energy, and the clock. User sensors are zeroed and filled by mjcb_sensor when installed.
 * The cutoff is applied at the end. */
#include <math.h>

#include "sensor/sensor_internal.h"
#include "util/util_inline.h"

/* energies already computed during this stage: bit 0 potential, bit 1 kinetic */
enum { ENERGY_POS = 1, ENERGY_VEL = 2 };

/* rangefinder: distance along the site's z axis to the nearest geom not on its body */
static mjtNum rangefinder(const mjModel* m, const mjData* d, int site) {
  const mjtNum* mat = d->site_xmat + 9 * site;
  mjtNum zaxis[3] = {mat[2], mat[5], mat[8]};
  int geomid;
  return mj_ray(m, d, d->site_xpos + 3 * site, zaxis, NULL, 1, m->site_bodyid[site], &geomid, NULL);
}

/* limit sensors: distance into the limit of the first active limit row, 0 when none */
static mjtNum limit_position(const mjData* d, int type, int id) {
  int row = tn__sensorEfcRow(d, type, id);
  return row < 0 ? 0 : d->efc_pos[row] - d->efc_margin[row];
}

/* is local point p inside a site shape of the given size */
static int inside_shape(int type, const mjtNum size[3], const mjtNum p[3]) {
  switch (type) {
    case mjGEOM_SPHERE: return mju_dot3(p, p) <= size[0] * size[0];
    case mjGEOM_CAPSULE: {
      mjtNum z = fabs(p[2]) > size[1] ? fabs(p[2]) - size[1] : 0;
      return p[0] * p[0] + p[1] * p[1] + z * z <= size[0] * size[0];
    }
    case mjGEOM_ELLIPSOID: {
      mjtNum s = 0;
      for (int k = 0; k < 3; k++) {
        s += (p[k] / size[k]) * (p[k] / size[k]);
      }
      return s <= 1;
    }
    case mjGEOM_CYLINDER:
      return p[0] * p[0] + p[1] * p[1] <= size[0] * size[0] && fabs(p[2]) <= size[1];
    case mjGEOM_BOX:
      return fabs(p[0]) <= size[0] && fabs(p[1]) <= size[1] && fabs(p[2]) <= size[2];
    default: return 0;
  }
}

/* insidesite: 1 if the object's origin lies in the site's volume */
static mjtNum inside_site(const mjModel* m, const mjData* d, int i) {
  const mjtNum *pos, *mat;
  int site = m->sensor_refid[i];
  if (tn__objectFrame(m, d, m->sensor_objtype[i], m->sensor_objid[i], &pos, &mat) < 0) {
    return 0;
  }
  mjtNum dif[3], local[3];
  mju_sub3(dif, pos, d->site_xpos + 3 * site);
  mju_mulMatTVec3(local, d->site_xmat + 9 * site, dif);
  return inside_shape(m->site_type[site], m->site_size + 3 * site, local);
}

/* frame position, quaternion or axis, in the world or the reference frame */
static void frame_sensor(const mjModel* m, const mjData* d, int i, mjtNum* out) {
  int type = m->sensor_type[i], objtype = m->sensor_objtype[i], id = m->sensor_objid[i];
  int reftype = m->sensor_reftype[i], refid = m->sensor_refid[i];
  const mjtNum *pos, *mat, *rpos = NULL, *rmat = NULL;
  tn__objectFrame(m, d, objtype, id, &pos, &mat);
  if (refid >= 0) {
    tn__objectFrame(m, d, reftype, refid, &rpos, &rmat);
  }

  // position: R_ref' (p - p_ref)
  if (type == mjSENS_FRAMEPOS) {
    mjtNum dif[3];
    if (!rmat) {
      mju_copy3(out, pos);
      return;
    }
    mju_sub3(dif, pos, rpos);
    mju_mulMatTVec3(out, rmat, dif);
    return;
  }

  // orientation: neg(q_ref) q
  if (type == mjSENS_FRAMEQUAT) {
    mjtNum quat[4], rquat[4], neg[4];
    tn__objectQuat(m, d, objtype, id, quat);
    if (refid < 0) {
      mju_copy4(out, quat);
      return;
    }
    tn__objectQuat(m, d, reftype, refid, rquat);
    mju_negQuat(neg, rquat);
    mju_mulQuat(out, neg, quat);
    return;
  }

  // axis: a column of the orientation, rotated into the reference frame
  int k = type - mjSENS_FRAMEXAXIS;
  mjtNum axis[3] = {mat[k], mat[3 + k], mat[6 + k]};
  if (rmat) {
    mju_mulMatTVec3(out, rmat, axis);
  } else {
    mju_copy3(out, axis);
  }
}

/* potential or kinetic energy, computed once per stage */
static mjtNum energy_sensor(const mjModel* m, mjData* d, int kinetic, int* done) {
  if (!kinetic && !(*done & ENERGY_POS)) {
    mj_energyPos(m, d);
    *done |= ENERGY_POS;
  }
  if (kinetic && !(*done & ENERGY_VEL)) {
    mj_energyVel(m, d);
    *done |= ENERGY_VEL;
  }
  return d->energy[kinetic ? 1 : 0];
}

/* one position-stage sensor */
static void sensor_pos(const mjModel* m, mjData* d, int i, int* energy) {
  int id = m->sensor_objid[i];
  mjtNum* out = d->sensordata + m->sensor_adr[i];
  switch (m->sensor_type[i]) {
    case mjSENS_MAGNETOMETER:
      mju_mulMatTVec3(out, d->site_xmat + 9 * id, m->opt.magnetic);
      break;
    case mjSENS_RANGEFINDER: out[0] = rangefinder(m, d, id); break;
    case mjSENS_JOINTPOS: out[0] = d->qpos[m->jnt_qposadr[id]]; break;
    case mjSENS_TENDONPOS: out[0] = d->ten_length[id]; break;
    case mjSENS_ACTUATORPOS: out[0] = d->actuator_length[id]; break;
    case mjSENS_BALLQUAT:
      mju_copy4(out, d->qpos + m->jnt_qposadr[id]);
      mju_normalize4(out);
      break;
    case mjSENS_JOINTLIMITPOS: out[0] = limit_position(d, mjCNSTR_LIMIT_JOINT, id); break;
    case mjSENS_TENDONLIMITPOS: out[0] = limit_position(d, mjCNSTR_LIMIT_TENDON, id); break;
    case mjSENS_FRAMEPOS:
    case mjSENS_FRAMEQUAT:
    case mjSENS_FRAMEXAXIS:
    case mjSENS_FRAMEYAXIS:
    case mjSENS_FRAMEZAXIS: frame_sensor(m, d, i, out); break;
    case mjSENS_SUBTREECOM: mju_copy3(out, d->subtree_com + 3 * id); break;
    case mjSENS_INSIDESITE: out[0] = inside_site(m, d, i); break;
    case mjSENS_E_POTENTIAL: out[0] = energy_sensor(m, d, 0, energy); break;
    case mjSENS_E_KINETIC: out[0] = energy_sensor(m, d, 1, energy); break;
    case mjSENS_CLOCK: out[0] = d->time; break;
    default: break;  // user sensors: zeroed by mj_sensorPos; others: not evaluated (tn_sensorsEvaluated)
  }
}

/* position-dependent sensors (user sensors zeroed for mjcb_sensor; a model without any of
 * this stage: nothing to do) */
void mj_sensorPos(const mjModel* m, mjData* d) {
  if (!tn__sensorEnabled(m)) {
    return;
  }
  int energy = 0, nstage = 0, nuser = 0;
  for (int i = 0; i < m->nsensor; i++) {
    if (m->sensor_needstage[i] != mjSTAGE_POS) {
      continue;
    }
    nstage++;
    if (tn__sensorEngine(m, d, i, &nuser)) {
      sensor_pos(m, d, i, &energy);
    }
  }
  if (nstage) {
    tn__sensorStageEnd(m, d, mjSTAGE_POS, nuser);
  }
}
