/* passive/fluid.h — internal interface of the fluid-force models.
 *
 * The ellipsoid fluid model approximates each geom by an equivalent ellipsoid and needs,
 * besides the user's five coefficients, the potential-flow added-mass coefficients of that
 * ellipsoid. The compiler (tn__compileFinish) stores them in geom_fluid[6..8] (virtual mass)
 * and geom_fluid[9..11] (virtual inertia), both per unit fluid density, using the two
 * functions below; mj_passive then applies the forces at run time (fluid.c). */
#ifndef TORSION_PASSIVE_FLUID_H
#define TORSION_PASSIVE_FLUID_H

#include <torsion/torsion.h>

/* Semi-axes of the ellipsoid equivalent to a geom of type `geomtype` (mjtGeom) and size
 * `size`: sphere (r,r,r), capsule (r,r,h+r), cylinder (r,r,h), others the size itself. */
void tn__geomSemiAxes(const mjtNum size[3], int geomtype, mjtNum semiaxes[3]);

/* Added-mass coefficients of an ellipsoid with the given semi-axes, per unit density:
 * virtual_mass[i] = V*k_i/(2-k_i) and virtual_inertia[i] (the Tuckerman/Lamb formulas, k_i by
 * MuJoCo's quadrature), with V the ellipsoid's volume. */
void tn__fluidAddedMass(const mjtNum semiaxes[3], mjtNum virtual_mass[3],
                        mjtNum virtual_inertia[3]);

/* 6D velocity (angular, linear minus the wind) of the frame (pos, rot) on `body`, in that
 * frame: what both fluid models and their velocity derivatives start from. */
void tn__fluidLocalVelocity(const mjModel* m, const mjData* d, int body, const mjtNum pos[3],
                            const mjtNum rot[9], mjtNum res[6]);

/* Fluid forces of all bodies into d->qfrc_fluid (zeroed first); called by mj_passive when
 * density or viscosity is positive. */
void tn__fluidForces(const mjModel* m, mjData* d);

#endif /* TORSION_PASSIVE_FLUID_H */
