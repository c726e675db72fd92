/* passive/passive_internal.h — the parts of mj_passive, one file each.
 *
 * mj_passive (passive.c) clears the passive force vectors and calls these in order:
 * spring-dampers (springs_dampers.c), gravity compensation (gravcomp.c) and fluid forces
 * (fluid.c, declared in fluid.h), then sums them into qfrc_passive. */
#ifndef TORSION_PASSIVE_INTERNAL_H
#define TORSION_PASSIVE_INTERNAL_H

#include <torsion/torsion.h>

/* joint and tendon springs into qfrc_spring, dof and tendon dampers into qfrc_damper
 * (each honoring its disable flag); both vectors must be zero on entry */
void tn__springDamper(const mjModel* m, mjData* d);

/* gravity compensation into qfrc_gravcomp (zero on entry); returns 1 if any was applied */
int tn__gravcomp(const mjModel* m, mjData* d);

/* add the generalized force of a global force and torque applied at `point` on `body`
 * (either may be NULL) to qfrc_target, through the body's point Jacobian */
void tn__applyFT(const mjModel* m, mjData* d, const mjtNum force[3], const mjtNum torque[3],
                 const mjtNum point[3], int body, mjtNum* qfrc_target);

#endif /* TORSION_PASSIVE_INTERNAL_H */
