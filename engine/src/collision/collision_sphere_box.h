/* collision/collision_sphere_box.h — the raw sphere-box contact shared by the sphere-box
 * and capsule-box colliders (internal to collision_sphere.c and collision_capsule_box.c).
 *
 * A centre within mjMINVAL of the box (inside or on its surface) goes through the nearest
 * face, its depth measured as the unsigned distance to that face, as MuJoCo does. */
#ifndef TORSION_COLLISION_SPHERE_BOX_H
#define TORSION_COLLISION_SPHERE_BOX_H

#include <torsion/torsion.h>

/* contact of a sphere (center, radius) with a box (position, rotation, half sizes) if
 * within margin: writes one contact (normal from the sphere into the box), returns 1 */
int tn__sphereBox(mjContact* con, const mjtNum center[3], mjtNum radius, const mjtNum bpos[3],
                  const mjtNum bmat[9], const mjtNum size[3], mjtNum margin);

#endif /* TORSION_COLLISION_SPHERE_BOX_H */
