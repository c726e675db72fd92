/* inverse/inverse_skip.c — mj_inverseSkip: MuJoCo's entry point into the inverse pipeline
 * without the stages whose inputs did not change (the pipeline lives in inverse.c). */
#include <torsion/torsion.h>

#include "inverse/inverse.h"

/* inverse dynamics skipping the stages up to skipstage (mjtStage), sensors optional */
void mj_inverseSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  tn__inverseSkip(m, d, skipstage, skipsensor);
}
