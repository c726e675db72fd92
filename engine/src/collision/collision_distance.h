/* collision/collision_distance.h — distance between separated convex geoms (GJK), used by
 * the geom distance query (collision_query.c). */
#ifndef TORSION_COLLISION_DISTANCE_H
#define TORSION_COLLISION_DISTANCE_H

#include <torsion/torsion.h>

/* Distance between geoms g1 and g2 (convex, at their current poses) when they are apart:
 * returns 1 and writes the distance and the nearest points (p1 on g1, p2 on g2); returns 0
 * when they touch or overlap. */
int tn__convexDistance(const mjModel* m, const mjData* d, int g1, int g2, mjtNum* dist,
                       mjtNum p1[3], mjtNum p2[3]);

#endif /* TORSION_COLLISION_DISTANCE_H */
