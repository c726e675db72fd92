/* util/math_scalar.c — scalar helpers: min, max, clip, sign, round, divergence tests.
 *
 * Small functions used throughout the pipeline; mju_isBad is the test the divergence checks
 * (mj_checkPos/Vel/Acc) rely on. mju_min, mju_max and mju_isZero are inlined where they are
 * called (util_inline.h). */
#include <math.h>

#include <torsion/torsion.h>

/* clamp x to [min, max] */
mjtNum mju_clip(mjtNum x, mjtNum min, mjtNum max) {
  if (x < min) {
    return min;
  }
  if (x > max) {
    return max;
  }
  return x;
}

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

/* 1 if x is NaN or its magnitude exceeds mjMAXVAL */
int mju_isBad(mjtNum x) {
  return x != x || x > mjMAXVAL || x < -mjMAXVAL;
}
