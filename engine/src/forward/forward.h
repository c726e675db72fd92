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

#endif /* TORSION_FORWARD_H */
