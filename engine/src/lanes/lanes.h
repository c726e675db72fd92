/* lanes/lanes.h — internal: pipeline stages computed for TN_LANES datas of one model at
 * once, one data per SIMD lane.
 *
 * A group of datas steps in lockstep (tn_stepGroup); where a stage's control flow depends
 * only on the model, its arithmetic is done for every lane of the group together, on
 * scratch arrays laid out entry-major, lane-minor (entry a of lane l at [a][l], a tnLane).
 * Every lane performs exactly the scalar code's operations in the scalar code's order, so
 * each data's result is bitwise the one the one-data stage gives. The scratch comes from the
 * first data's arena (tn__lanesFit says whether it fits; when it does not, the caller runs
 * the one-data stages). */
#ifndef TORSION_LANES_H
#define TORSION_LANES_H

#include <stddef.h>

#include <torsion/torsion.h>

/* datas per group (the gathers spell out four lanes) */
#define TN_LANES 4
_Static_assert(TN_LANES == 4, "the lanes' gathers and scatters are written for 4 lanes");

/* one entry in every lane: a vector of TN_LANES doubles (GCC's vector extension; one AVX2
 * register, two SSE2 ones; each element rounds exactly as the scalar operation would) */
typedef mjtNum tnLane __attribute__((vector_size(8 * TN_LANES)));

/* 1 if `n` tnLanes more fit on d's stack (above a new mark, at 32-byte alignment) */
int tn__lanesFit(const mjData* d, size_t n);

/* n tnLanes from d's stack, 32-byte aligned (inside a mark; tn__lanesFit first) */
tnLane* tn__lanesAlloc(mjData* d, size_t n);

/* mj_crb for the lanes: d[l]->crb and d[l]->M, and M in lanes in `mat` (nC tnLanes),
 * tendon armature included */
void tn__crbLanes(const mjModel* m, mjData* const* d, tnLane* mat);

/* factor the lanes' matrices in `mat` (nC tnLanes, overwritten) into each data's qLD and
 * qLDiagInv, or with `damped` into qH and qHDiagInv */
void tn__factorLanes(const mjModel* m, mjData* const* d, tnLane* mat, int damped);

/* the damped Euler integrator's factor for the lanes: qH = M + h*diag(damping) from each
 * data's M, factored into d->qH, d->qHDiagInv */
void tn__factorHLanes(const mjModel* m, mjData* const* d);

#endif /* TORSION_LANES_H */
