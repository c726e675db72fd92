/* sensor/sensor_common.c — pieces every sensor stage uses: the sensor disable flag, the
 * lookup of a joint's or tendon's limit row among the constraint rows, and the end of a
 * stage: mjcb_sensor for its user sensors, then the cutoff applied to its values. */
#include "sensor/sensor_internal.h"

/* sensors are evaluated unless disabled */
int tn__sensorEnabled(const mjModel* m) {
  return !(m->opt.disableflags & mjDSBL_SENSOR);
}

/* first constraint row of a type and object */
int tn__sensorEfcRow(const mjData* d, int type, int id) {
  for (int i = 0; i < d->nefc; i++) {
    if (d->efc_type[i] == type && d->efc_id[i] == id) {
      return i;
    }
  }
  return -1;
}

/* sensor i in its stage's loop: a user sensor is zeroed for mjcb_sensor and counted in
 * *nuser (0 returned); any other the engine computes (1) */
int tn__sensorEngine(const mjModel* m, mjData* d, int i, int* nuser) {
  if (m->sensor_type[i] != mjSENS_USER) {
    return 1;
  }
  mju_zero(d->sensordata + m->sensor_adr[i], m->sensor_dim[i]);
  (*nuser)++;
  return 0;
}

/* the values of a stage's sensors, once the engine's are computed and its user sensors
 * zeroed (nuser of them): mjcb_sensor fills the user sensors, then every sensor of the
 * stage with a cutoff is clamped to it */
void tn__sensorStageEnd(const mjModel* m, mjData* d, int stage, int nuser) {
  if (nuser && mjcb_sensor) {
    mjcb_sensor(m, d, stage);
  }
  for (int i = 0; i < m->nsensor; i++) {
    mjtNum cutoff = m->sensor_cutoff[i];
    int type = m->sensor_datatype[i];
    if (m->sensor_needstage[i] != stage || !(cutoff > 0)) {
      continue;
    }
    mjtNum* data = d->sensordata + m->sensor_adr[i];

    // real: symmetric clamp; positive: upper bound only
    for (int k = 0; k < m->sensor_dim[i]; k++) {
      if (type == mjDATATYPE_REAL) {
        data[k] = data[k] < -cutoff ? -cutoff : (data[k] > cutoff ? cutoff : data[k]);
      } else if (type == mjDATATYPE_POSITIVE) {
        data[k] = data[k] > cutoff ? cutoff : data[k];
      }
    }
  }
}
