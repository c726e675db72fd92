/* util/math_scalar.c — the scalar helpers that are not inlined: sign and rounding.
 *
 * Small functions used throughout the pipeline. mju_min, mju_max, mju_clip, mju_isBad (the
 * test of the divergence checks mj_checkPos/Vel/Acc) and mju_isZero are inlined where they
 * are called (util_inline.h). */
#include <math.h>

#include <torsion/torsion.h>

/* -1, 0 or +1 */
mjtNum mju_sign(mjtNum x) {
  if (x < 0) {
    return -1;
  }
  if (x > 0) {
    return 1;
  }
  return 0;
}

/* nearest integer; exact halves round away from zero (MuJoCo 3.14: -2.5 gives -3) */
int mju_round(mjtNum x) {
  return (int)round(x);
}
