/* derivative/derivative.h — internal interface of the analytic velocity derivatives.
 *
 * The implicit integrators need D = d(qfrc_smooth)/d(qvel) without the constraint forces.
 * mjd_smooth_vel fills d->qDeriv with it in the D sparsity pattern (m->D_rownnz/D_rowadr/
 * D_colind: for each dof its ancestors, itself and its descendants, columns increasing).
 * Entries of a derivative that fall outside the pattern (a tendon or actuator coupling
 * dofs on different branches of the tree) are dropped, as in MuJoCo. The parts live in
 * one file each: actuators and dampers (deriv_smooth_vel.c), fluid forces
 * (deriv_fluid_vel.c), and the RNE bias forces (deriv_rne_vel.c). */
#ifndef TORSION_DERIVATIVE_H
#define TORSION_DERIVATIVE_H

#include <torsion/torsion.h>

/* d->qDeriv = d(qfrc_actuator + qfrc_passive - [qfrc_bias]) / d(qvel) in the D pattern,
 * the bias term only when flg_bias is set. Needs the position and velocity stages and the
 * actuation of the current state (mj_forward). Under the implicitfast integrator the
 * ellipsoid fluid derivative is symmetrized (except on free rigid trees, see
 * tn__isFreeRigidTree), so the result is symmetric there. */
void mjd_smooth_vel(const mjModel* m, mjData* d, int flg_bias);

/* qDeriv += d(qfrc_actuator)/d(qvel): affine gain and bias velocity terms of the enabled
 * actuators whose force is not clamped by forcerange, through their moment arms. */
void mjd_actuator_vel(const mjModel* m, mjData* d);

/* qDeriv += d(qfrc_passive)/d(qvel): dof and tendon dampers and fluid forces. */
void mjd_passive_vel(const mjModel* m, mjData* d);

/* qDeriv -= d(qfrc_bias)/d(qvel): Coriolis and centripetal forces of the RNE (the bias of
 * tendon armature is not included, as in MuJoCo). */
void mjd_rne_vel(const mjModel* m, mjData* d);

/* The same for the bodies of the trees with treemask[tree] set (all bodies when treemask
 * is NULL), subtracted from `qDeriv` (nD numbers in the D pattern). */
void tn__rneDerivative(const mjModel* m, mjData* d, const int* treemask, mjtNum* qDeriv);

/* 1 if kinematic tree `tree` moves only through one free joint (a free rigid body, possibly
 * with welded children). Under implicitfast, MuJoCo 3.14 integrates such trees like the
 * implicit integrator: full derivative including the RNE term, not symmetrized. */
int tn__isFreeRigidTree(const mjModel* m, int tree);

/* qDeriv += fluid-force derivatives of every body (inertia-box or ellipsoid model). */
void tn__fluidDerivative(const mjModel* m, mjData* d);

/* qDeriv += coef * u u' restricted to the D pattern, for a dense vector u of length nv
 * (rank-one updates of dampers, actuators and the inertia-box fluid model). */
void tn__addOuterD(const mjModel* m, mjtNum* qDeriv, const mjtNum* u, mjtNum coef);

#endif /* TORSION_DERIVATIVE_H */
