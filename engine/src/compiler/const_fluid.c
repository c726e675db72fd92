/* compiler/const_fluid.c — compile-time coefficients of the ellipsoid fluid model.
 *
 * Geoms that opt into the ellipsoid fluid model (geom_fluid[0] > 0) need the added mass
 * and added inertia of their equivalent ellipsoid, per unit fluid density, in
 * geom_fluid[6..8] and [9..11]. The formulas belong to the fluid model and live with it
 * (passive/fluid_coef.c); this pass only applies them to every such geom. */
#include "compiler/const_internal.h"
#include "passive/fluid.h"

/* virtual mass and inertia of geoms that use the ellipsoid fluid model */
void tn__fillFluid(mjModel* m) {
  for (int g = 0; g < m->ngeom; g++) {
    mjtNum* fluid = m->geom_fluid + mjNFLUID * g;
    if (fluid[0] <= 0) {
      continue;
    }
    mjtNum semiaxes[3];
    tn__geomSemiAxes(m->geom_size + 3 * g, m->geom_type[g], semiaxes);
    tn__fluidAddedMass(semiaxes, fluid + 6, fluid + 9);
  }
}
