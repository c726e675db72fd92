/* fd/fd_util.h — internal helpers of the finite-difference derivatives
 * (fd_transition.c, fd_inverse.c): argument checks, a step that can skip pipeline stages,
 * and differences of states in the tangent space. */
#ifndef TORSION_FD_UTIL_H
#define TORSION_FD_UTIL_H

#include <torsion/torsion.h>

/* 1 if eps is a positive finite number; otherwise reports "<who>: ..." through mju_error
 * and returns 0. */
int tn__fdCheckEps(const char* who, mjtNum eps);

/* One mj_step whose forward pass skips the stages up to `skipstage` (mjtStage), with the
 * checks, the fwdinv comparison and the model's integrator as in mj_step. */
void tn__fdStepSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

/* Physics state (qpos, qvel, act: nq+nv+na numbers) of d into `state`. */
void tn__fdGetState(const mjModel* m, const mjData* d, mjtNum* state);

/* ds = (s2 - s1) / h for two physics states, positions differenced in the tangent space:
 * ds has 2nv+na numbers. */
void tn__fdStateDiff(const mjModel* m, mjtNum* ds, const mjtNum* s1, const mjtNum* s2, mjtNum h);

/* Finite difference around s with whichever of s_plus (s + h) and s_minus (s - h) exist:
 * forward, backward or centered; zero when neither exists. */
void tn__fdClampedStateDiff(const mjModel* m, mjtNum* ds, const mjtNum* s, const mjtNum* s_plus,
                            const mjtNum* s_minus, mjtNum h);

/* Scatter vector `col` (n numbers) into column j of the row-major n x ncol matrix `mat`. */
void tn__fdSetColumn(mjtNum* mat, const mjtNum* col, int n, int ncol, int j);

#endif /* TORSION_FD_UTIL_H */
