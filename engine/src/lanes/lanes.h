/* lanes/lanes.h — internal: pipeline stages computed for TN_LANES datas of one model at
 * once, one data per SIMD lane.
 *
 * A group of datas steps in lockstep (tn_stepGroup); where a stage's control flow depends
 * only on the model, its arithmetic is done for every lane of the group together, on
 * scratch arrays laid out entry-major, lane-minor (entry a of lane l at [a][l]). Every lane
 * performs exactly the scalar code's operations in the scalar code's order, so each data's
 * result is bitwise the one the one-data stage gives. The scratch comes from the first
 * data's arena; when it does not fit there, the stage runs one data at a time. */
#ifndef TORSION_LANES_H
#define TORSION_LANES_H

#include <torsion/torsion.h>

/* datas per group */
#define TN_LANES 4

/* mj_factorM for the TN_LANES datas d[0..TN_LANES-1] (d->qLD, d->qLDiagInv) */
void tn__factorMLanes(const mjModel* m, mjData* const* d);

/* the damped Euler integrator's factor for the TN_LANES datas: qH = M + h*diag(damping),
 * factored into d->qH, d->qHDiagInv */
void tn__factorHLanes(const mjModel* m, mjData* const* d);

#endif /* TORSION_LANES_H */
