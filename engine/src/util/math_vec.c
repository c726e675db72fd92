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

/* res = 0 */
void mju_zero(mjtNum* res, int n) {
  if (n > 0) {
    memset(res, 0, (size_t)n * sizeof(mjtNum));
  }
}

/* res = val */
void mju_fill(mjtNum* res, mjtNum val, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = val;
  }
}

/* res = data (may overlap) */
void mju_copy(mjtNum* res, const mjtNum* data, int n) {
  if (n > 0 && res != data) {
    memmove(res, data, (size_t)n * sizeof(mjtNum));
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

/* res = vec * scl */
void mju_scl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec[i] * scl;
  }
}

/* res = vec1 + vec2 */
void mju_add(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec1[i] + vec2[i];
  }
}

/* res = vec1 - vec2 */
void mju_sub(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec1[i] - vec2[i];
  }
}

/* res += vec */
void mju_addTo(mjtNum* res, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] += vec[i];
  }
}

/* res -= vec */
void mju_subFrom(mjtNum* res, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] -= vec[i];
  }
}

/* res = vec1 + vec2 * scl */
void mju_addScl(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, mjtNum scl, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec1[i] + vec2[i] * scl;
  }
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

