/* forward/skip.c — MuJoCo's entry points into parts of the forward pipeline:
 * mj_forwardSkip (the pipeline without the stages whose inputs did not change) and
 * mj_fwdKinematics (every kinematics-like computation of the position stage).
 *
 * Both reuse the stage functions; the pipeline itself lives in forward.c. */
#include <torsion/torsion.h>

#include "forward/forward.h"
#include "smooth/smooth.h"

/* forward dynamics skipping the stages up to skipstage (mjtStage), sensors optional */
void mj_forwardSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  tn__forwardSkip(m, d, skipstage, skipsensor);
}

/* kinematics, com quantities, cameras and lights, tendons */
void mj_fwdKinematics(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_camlight(m, d);
  mj_tendon(m, d);
}
