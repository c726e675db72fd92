/* forward/forward.h — internal interface of the forward-dynamics pipeline.
 *
 * mj_forward and its stages are public (torsion.h). tn__forwardSkip is the pipeline with the
 * option of skipping stages whose inputs have not changed (the Runge-Kutta integrator and
 * finite differencing re-run only what they must). */
#ifndef TORSION_FORWARD_H
#define TORSION_FORWARD_H

#include <torsion/torsion.h>

/* Forward dynamics skipping the stages up to and including `skipstage` (mjtStage:
 * mjSTAGE_NONE runs everything, mjSTAGE_POS skips the position stage, mjSTAGE_VEL also the
 * velocity stage). With skipsensor set, sensors are not evaluated; the
 * energy is computed whenever mjENBL_ENERGY is set, with or without skipsensor. */
void tn__forwardSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

/* the velocity stage's first part: tendon velocities and actuator velocities */
void tn__tendonActuatorVelocity(const mjModel* m, mjData* d);

/* mj_fwdAcceleration's first half: qfrc_smooth, every force but the constraints' */
void tn__smoothForce(const mjModel* m, mjData* d);

/* tn__forwardSkip for a group of TN_LANES datas of one model (lanes/lanes.h), stage by
 * stage across the group; no stage timers. Each data's result is bitwise tn__forwardSkip's. */
void tn__forwardLanes(const mjModel* m, mjData* const* d, int skipstage, int skipsensor);

#endif /* TORSION_FORWARD_H */
