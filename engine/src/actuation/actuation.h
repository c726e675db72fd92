/* actuation/actuation.h — internal pieces of the actuator models shared with other stages
 * (the analytic velocity derivatives of the implicit integrators, the activation step of the
 * integrators and actearly). */
#ifndef TORSION_ACTUATION_H
#define TORSION_ACTUATION_H

#include <torsion/torsion.h>

/* d(mju_muscleGain)/d(velocity) at the same arguments */
mjtNum tn__muscleGainVel(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                         const mjtNum prm[9]);

/* activation after one step of actuator u's own dynamics, clamped to actrange */
mjtNum tn__nextActivation(const mjModel* m, int u, mjtNum act, mjtNum act_dot);

#endif
