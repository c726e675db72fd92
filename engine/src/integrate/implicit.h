/* integrate/implicit.h — the implicit-in-velocity integrators and the sparse LU they use.
 *
 * mj_implicit is MuJoCo's public name (not yet in torsion.h); integrate/step.c calls it for
 * mjINT_IMPLICIT and mjINT_IMPLICITFAST. tn__factorLU/tn__solveLU work on any matrix in the
 * D sparsity pattern (m->D_rownnz/D_rowadr/D_colind/D_diag). */
#ifndef TORSION_INTEGRATE_IMPLICIT_H
#define TORSION_INTEGRATE_IMPLICIT_H

#include <torsion/torsion.h>

/* One step of the implicit (mjINT_IMPLICIT) or implicitfast (mjINT_IMPLICITFAST) integrator
 * after mj_forward: qacc = (M - h*qDeriv)^-1 (qfrc_smooth + qfrc_constraint), then the
 * common state update. implicit factors M - h*qDeriv into d->qLU (LU, D pattern);
 * implicitfast drops the RNE derivative, qDeriv is symmetric, and the lower triangle is
 * factored L'DL into d->qH / d->qHDiagInv (M's layout). */
void mj_implicit(const mjModel* m, mjData* d);

/* For mjINT_IMPLICIT or mjINT_IMPLICITFAST after mj_forward: fill d->qDeriv as the step
 * does (mjd_smooth_vel) and write to `deriv` (nD numbers, D pattern) the derivative D the
 * step effectively applies, so that (M - h D) qacc_step = qfrc_smooth + qfrc_constraint.
 * implicit: qDeriv itself. implicitfast: qDeriv plus the RNE derivative of free rigid trees
 * (tn__isFreeRigidTree), minus the couplings among the dofs of any other simple body
 * (absent from MuJoCo's M pattern). MuJoCo's inverse dynamics with mjENBL_INVDISCRETE uses the same
 * D. */
void tn__implicitDeriv(const mjModel* m, mjData* d, mjtNum* deriv);

/* In-place reverse-order LU factorization of a matrix in the D pattern: A = (I + U) L,
 * U strictly upper (stored above the diagonal), L lower with its diagonal (stored on and
 * below it). The tree pattern guarantees no fill-in. A pivot smaller than mjMINVAL in
 * magnitude is replaced by +-mjMINVAL and reported as mjWARN_INERTIA. */
void tn__factorLU(const mjModel* m, mjData* d, mjtNum* LU);

/* Solve (I + U) L x = b with a factor from tn__factorLU (x may equal b). */
void tn__solveLU(const mjModel* m, const mjtNum* LU, mjtNum* x, const mjtNum* b);

#endif /* TORSION_INTEGRATE_IMPLICIT_H */
