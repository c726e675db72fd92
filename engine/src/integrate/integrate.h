/* integrate/integrate.h — internal interface shared by the integrators.
 *
 * Every integrator ends with the same state update (tn__advance): activations, velocities,
 * positions on the quaternion manifold, and time, plus the solver warmstart. */
#ifndef TORSION_INTEGRATE_H
#define TORSION_INTEGRATE_H

#include <torsion/torsion.h>

/* 1 when Euler integrates dof damping implicitly: some dof has damping and neither the
 * damper nor the eulerdamp flag is disabled (also what mj_inverse's discrete mode undoes) */
int tn__eulerDamped(const mjModel* m);

/* Advance the state by one timestep h = m->opt.timestep: act += h*act_dot (exact
 * exponential integral for mjDYN_FILTEREXACT, clamped to actrange when actlimited; left
 * untouched under mjDSBL_ACTUATION),
 * qacc_warmstart = d->qacc, qvel += h*qacc, qpos integrated with `qvel` (d->qvel, i.e. the
 * new velocity, when NULL), time += h. */
void tn__advance(const mjModel* m, mjData* d, const mjtNum* act_dot, const mjtNum* qacc,
                 const mjtNum* qvel);

/* Euler (mj_Euler) and Runge-Kutta (mj_RungeKutta, N = 4) for a group of TN_LANES datas of
 * one model stepping together (tn_stepGroup): each data's result is bitwise the one-data
 * integrator's. */
void tn__eulerLanes(const mjModel* m, mjData* const* d);
void tn__rungeKuttaLanes(const mjModel* m, mjData* const* d, int lean);

#endif /* TORSION_INTEGRATE_H */
