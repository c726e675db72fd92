/* util/math_scalar.c — scalar helpers: min, max, clip, sign, round, divergence tests.
 *
 * Small functions used throughout the pipeline; mju_isBad and mju_isZero are the tests the
 * divergence checks (mj_checkPos/Vel/Acc) and sparse skips rely on. */
#include <math.h>

#include <torsion/torsion.h>

/* smaller of two numbers (a when equal) */
mjtNum mju_min(mjtNum a, mjtNum b) {
  return a <= b ? a : b;
}

/* larger of two numbers (a when equal) */
mjtNum mju_max(mjtNum a, mjtNum b) {
  return a >= b ? a : b;
}

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

/* 1 if every entry is exactly zero */
int mju_isZero(const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    if (vec[i] != 0) {
      return 0;
    }
  }
  return 1;
}
