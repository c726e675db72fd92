/* sensor/sensor_common.c — pieces every sensor stage uses: the sensor disable flag, the
 * lookup of a joint's or tendon's limit row among the constraint rows, the user sensors
 * (zeroed, then mjcb_sensor), and the cutoff applied to the values of one stage once they
 * are all computed. */
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

/* user sensors of this stage: zeroed, then filled by mjcb_sensor when installed */
void tn__sensorUser(const mjModel* m, mjData* d, int stage) {
  int nuser = 0;
  for (int i = 0; i < m->nsensor; i++) {
    if (m->sensor_type[i] == mjSENS_USER && m->sensor_needstage[i] == stage) {
      mju_zero(d->sensordata + m->sensor_adr[i], m->sensor_dim[i]);
      nuser++;
    }
  }
  if (nuser && mjcb_sensor) {
    mjcb_sensor(m, d, stage);
  }
}

/* cutoff of every sensor of this stage */
void tn__sensorCutoff(const mjModel* m, mjData* d, int stage) {
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
