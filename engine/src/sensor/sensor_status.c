/* sensor/sensor_status.c — what the engine can say about sensors today.
 *
 * Sensors are compiled (sizes, addresses, types) but not evaluated yet: sensordata stays
 * zero. Callers that would hand sensordata to a user (the daemon, batch helpers) ask here
 * first and fail with a message instead of returning zeros. */
#include <torsion/torsion.h>

/* 1 when mj_forward fills every sensor of m (trivially, a model without sensors) */
int tn_sensorsEvaluated(const mjModel* m) {
  return m->nsensor == 0;
}
