/* sensor/sensor_internal.h — internal interface of the sensor stages: object frames and
 * their velocities and accelerations (MuJoCo's mj_objectVelocity/Acceleration), the
 * cutoff applied after each stage, and lookups shared by the stage files. */
#ifndef TORSION_SENSOR_INTERNAL_H
#define TORSION_SENSOR_INTERNAL_H

#include <torsion/torsion.h>

/* Global frame of an object (body: inertial frame, xbody: body frame, geom, site, camera):
 * position and orientation matrix pointers into d, and the body it moves with; -1 and
 * NULLs for other object types. */
int tn__objectFrame(const mjModel* m, const mjData* d, int objtype, int id, const mjtNum** pos,
                    const mjtNum** mat);

/* Global orientation quaternion of an object, from its body's xquat and its local quat. */
void tn__objectQuat(const mjModel* m, const mjData* d, int objtype, int id, mjtNum quat[4]);

/* First constraint row of type `type` (mjtConstraint) for object `id`, or -1. */
int tn__sensorEfcRow(const mjData* d, int type, int id);

/* 1 when sensors are to be evaluated at all (the sensor disable flag is clear). */
int tn__sensorEnabled(const mjModel* m);

/* Sensor i in its stage's loop: a user sensor is zeroed for mjcb_sensor and counted in
 * *nuser (returns 0); any other is the engine's to compute (returns 1). */
int tn__sensorEngine(const mjModel* m, mjData* d, int i, int* nuser);

/* The end of a stage whose sensors are computed and whose nuser user sensors are zeroed:
 * mjcb_sensor when there are user sensors, then each sensor's cutoff (real values clamped
 * to [-cutoff, cutoff], positive values to at most cutoff; axes and quaternions never). */
void tn__sensorStageEnd(const mjModel* m, mjData* d, int stage, int nuser);

#endif /* TORSION_SENSOR_INTERNAL_H */
