/* collision/collision_distance.h — distance between convex geoms (GJK, EPA), used by
 * the geom distance query (collision_query.c). */
#ifndef TORSION_COLLISION_DISTANCE_H
#define TORSION_COLLISION_DISTANCE_H

#include <torsion/torsion.h>

/* Signed distance between geoms g1 and g2 (convex, at their current poses) and the nearest
 * (apart) or deepest (overlapping) points, p1 on g1 and p2 on g2. Returns 0 when it could
 * not be measured (touching, degenerate). */
int tn__convexDistance(const mjModel* m, const mjData* d, int g1, int g2, mjtNum* dist,
                       mjtNum p1[3], mjtNum p2[3]);

#endif /* TORSION_COLLISION_DISTANCE_H */
