/* collision/collision_vec3.h — the 3-vector helpers of the native convex collision (GJK/EPA
 * in collision_gjk.c, face clipping in collision_multicontact.c): inlined, each with a fixed
 * order of operations so both files compute the same bits as MuJoCo's native path. */
#ifndef TORSION_COLLISION_VEC3_H
#define TORSION_COLLISION_VEC3_H

#include <torsion/mjtnum.h>

/* r = a - b, a + b, s * a, a; a . b; r = a x b */
static inline void v_sub(mjtNum r[3], const mjtNum a[3], const mjtNum b[3]) {
  r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}
static inline void v_add(mjtNum r[3], const mjtNum a[3], const mjtNum b[3]) {
  r[0] = a[0] + b[0], r[1] = a[1] + b[1], r[2] = a[2] + b[2];
}
static inline mjtNum v_dot(const mjtNum a[3], const mjtNum b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void v_scl(mjtNum r[3], const mjtNum a[3], mjtNum s) {
  r[0] = s * a[0], r[1] = s * a[1], r[2] = s * a[2];
}
static inline void v_copy(mjtNum r[3], const mjtNum a[3]) {
  r[0] = a[0], r[1] = a[1], r[2] = a[2];
}
static inline void v_cross(mjtNum r[3], const mjtNum a[3], const mjtNum b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

/* mat * (x, y, z) (+ pos when given) */
static inline void local_to_global(mjtNum r[3], const mjtNum mat[9], const mjtNum* pos, mjtNum x,
                                   mjtNum y, mjtNum z) {
  r[0] = mat[0] * x + mat[1] * y + mat[2] * z;
  r[1] = mat[3] * x + mat[4] * y + mat[5] * z;
  r[2] = mat[6] * x + mat[7] * y + mat[8] * z;
  if (pos) {
    r[0] += pos[0];
    r[1] += pos[1];
    r[2] += pos[2];
  }
}

#endif
