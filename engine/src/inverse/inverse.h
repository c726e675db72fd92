/* inverse/inverse.h — internal interface of the inverse dynamics.
 *
 * mj_inverse and its stages are public (torsion.h). tn__inverseSkip is the inverse pipeline
 * with the option of skipping the position (or position and velocity) stages whose inputs
 * have not changed, as finite differencing (mjd_inverseFD) and mj_compareFwdInv need. */
#ifndef TORSION_INVERSE_H
#define TORSION_INVERSE_H

#include <torsion/torsion.h>

/* Inverse dynamics skipping the stages up to and including `skipstage` (mjtStage:
 * mjSTAGE_NONE runs everything, mjSTAGE_POS skips the position stage, mjSTAGE_VEL also the
 * velocity stage). Sensors are not evaluated (none exist yet); the energy is computed
 * whenever mjENBL_ENERGY is set. */
void tn__inverseSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

#endif /* TORSION_INVERSE_H */
