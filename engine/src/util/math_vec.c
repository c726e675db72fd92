/* util/math_vec.c — 3D, 4D and n-D vector operations (exported mju_* API).
 *
 * The hottest of them (3D operations, mju_dot, mju_addToScl) are defined in util_inline.h
 * and inlined where they are called. n-D loops are written plainly for gcc to vectorize;
 * dot products use four interleaved partial sums (see mju_dot). */
#include <math.h>
#include <string.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* ---------------------------------------------------------------------------------------
 * 4D
 * ------------------------------------------------------------------------------------- */

/* res = 0 */
void mju_zero4(mjtNum res[4]) {
  res[0] = 0;
  res[1] = 0;
  res[2] = 0;
  res[3] = 0;
}

/* ---------------------------------------------------------------------------------------
 * n-D
 * ------------------------------------------------------------------------------------- */

/* res = val */
void mju_fill(mjtNum* res, mjtNum val, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = val;
  }
}

/* sum of entries */
mjtNum mju_sum(const mjtNum* vec, int n) {
  mjtNum res = 0;
  for (int i = 0; i < n; i++) {
    res += vec[i];
  }
  return res;
}

/* sum of absolute values */
mjtNum mju_L1(const mjtNum* vec, int n) {
  mjtNum res = 0;
  for (int i = 0; i < n; i++) {
    res += fabs(vec[i]);
  }
  return res;
}

/* normalize; (near-)zero becomes (1,0,...,0); returns the original norm */
mjtNum mju_normalize(mjtNum* res, int n) {
  mjtNum norm = sqrt(mju_dot(res, res, n));

  // degenerate: first unit vector
  if (norm < mjMINVAL) {
    if (n > 0) {
      res[0] = 1;
      mju_zero(res + 1, n - 1);
    }
  }

  // scale only when not already unit length
  else if (fabs(norm - 1) > mjMINVAL) {
    mju_scl(res, res, 1 / norm, n);
  }
  return norm;
}

/* Euclidean norm */
mjtNum mju_norm(const mjtNum* res, int n) {
  return sqrt(mju_dot(res, res, n));
}

