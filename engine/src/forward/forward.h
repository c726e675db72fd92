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
 * stage across the group. Each data's result is bitwise tn__forwardSkip's; with `transient`
 * (a forward whose results a later forward of the same step overwrites, on a model
 * tn__forwardLean accepts, with no sensors to compute) only qacc, act_dot and what the
 * next forward starts from are. */
void tn__forwardLanes(const mjModel* m, mjData* const* d, int skipstage, int skipsensor,
                      int transient);

/* 1 if the model's transient forwards may leave out the poses and velocities no later stage
 * reads (no callbacks, fluid, spatial tendons, site or body transmissions, ...) */
int tn__forwardLean(const mjModel* m);

#endif /* TORSION_FORWARD_H */
