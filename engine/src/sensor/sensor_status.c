/* sensor/sensor_status.c — which sensor types Torsion evaluates.
 *
 * Every type MuJoCo 3.14 computes from the pipeline's own quantities is evaluated (see
 * sensor_pos.c, sensor_vel.c, sensor_acc.c); user sensors are left untouched, as MuJoCo
 * leaves them without a sensor callback. Types that need machinery Torsion lacks (camera
 * intrinsics, geom distance queries, the contact and tactile sensors, plugins) are not:
 * callers that hand sensordata to a user (the daemon, torsion-sim, the FD derivatives) ask
 * here first and fail with a message instead of returning values that were never set. */
#include <torsion/torsion.h>

/* 1 if the engine evaluates sensor type `type` */
static int type_evaluated(int type) {
  switch (type) {
    case mjSENS_CAMPROJECTION:
    case mjSENS_GEOMDIST:
    case mjSENS_GEOMNORMAL:
    case mjSENS_GEOMFROMTO:
    case mjSENS_CONTACT:
    case mjSENS_TACTILE:
    case mjSENS_PLUGIN: return 0;
    default: return type >= mjSENS_TOUCH && type <= mjSENS_USER;
  }
}

/* 1 when mj_forward fills every sensor of m */
int tn_sensorsEvaluated(const mjModel* m) {
  for (int i = 0; i < m->nsensor; i++) {
    if (!type_evaluated(m->sensor_type[i])) {
      return 0;
    }
  }
  return 1;
}
