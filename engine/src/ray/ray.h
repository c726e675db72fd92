/* ray/ray.h — internal interface of ray casting: intersection of a ray with one geom shape,
 * a height field or a mesh, used by mj_ray (rangefinder sensors) and by the touch sensor's
 * test of a contact's normal ray against the sensor site's volume.
 *
 * Every function returns the distance along the ray in units of |vec| (the hit point is
 * pnt + x*vec, x >= 0), or -1 when the ray misses. Rays hit a solid from outside or leave
 * it from inside: a point inside a volume gives the distance to its boundary. Where a
 * function takes `normal` (may be NULL), it receives the surface's outward unit normal at
 * the hit in the global frame (MuJoCo 3.14's convention, also from inside), zero on a miss. */
#ifndef TORSION_RAY_H
#define TORSION_RAY_H

#include <torsion/torsion.h>

/* mj_rayHfield ignoring surface hits beyond tmax (tmax < 0: no limit): a caller that
 * already has a hit at tmax saves walking the rest of a large field. */
mjtNum tn__rayHfieldBefore(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                           const mjtNum vec[3], mjtNum tmax, mjtNum normal[3]);

/* Ray in a geom's local frame against triangle (v0, v1, v2), either side; -1 on a miss. */
mjtNum tn__rayTriangle(const mjtNum lpnt[3], const mjtNum lvec[3], const mjtNum v0[3],
                       const mjtNum v1[3], const mjtNum v2[3]);

/* Express a global ray in the frame (pos, mat): lpnt = mat'(pnt - pos), lvec = mat' vec. */
void tn__rayLocal(mjtNum lpnt[3], mjtNum lvec[3], const mjtNum pos[3], const mjtNum mat[9],
                  const mjtNum pnt[3], const mjtNum vec[3]);

#endif /* TORSION_RAY_H */
