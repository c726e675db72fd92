/* util/math_vec.c — 3D, 4D and n-D vector operations (exported mju_* API).
 *
 * The 3D operations are thin wrappers over the inline twins in util_inline.h, so code that
 * calls either gets bit-identical results. n-D loops are written plainly for gcc to
 * vectorize; dot products use four interleaved partial sums (see tnu_dot). */
#include <math.h>
#include <string.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* ---------------------------------------------------------------------------------------
 * 3D
 * ------------------------------------------------------------------------------------- */

/* res = 0 */
void mju_zero3(mjtNum res[3]) {
  tnu_zero3(res);
}

/* res = data */
void mju_copy3(mjtNum res[3], const mjtNum data[3]) {
  tnu_copy3(res, data);
}

/* res = vec * scl */
void mju_scl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl) {
  tnu_scl3(res, vec, scl);
}

/* res = vec1 + vec2 */
void mju_add3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3]) {
  tnu_add3(res, vec1, vec2);
}

/* res = vec1 - vec2 */
void mju_sub3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3]) {
  tnu_sub3(res, vec1, vec2);
}

/* res += vec */
void mju_addTo3(mjtNum res[3], const mjtNum vec[3]) {
  tnu_addTo3(res, vec);
}

/* res -= vec */
void mju_subFrom3(mjtNum res[3], const mjtNum vec[3]) {
  tnu_subFrom3(res, vec);
}

/* res += vec * scl */
void mju_addToScl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl) {
  tnu_addToScl3(res, vec, scl);
}

/* res = vec1 + vec2 * scl */
void mju_addScl3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3], mjtNum scl) {
  tnu_addScl3(res, vec1, vec2, scl);
}

/* normalize; (near-)zero becomes (1,0,0); returns the original norm */
mjtNum mju_normalize3(mjtNum vec[3]) {
  return tnu_normalize3(vec);
}

/* Euclidean norm */
mjtNum mju_norm3(const mjtNum vec[3]) {
  return tnu_norm3(vec);
}

/* dot product */
mjtNum mju_dot3(const mjtNum vec1[3], const mjtNum vec2[3]) {
  return tnu_dot3(vec1, vec2);
}

/* distance between points */
mjtNum mju_dist3(const mjtNum pos1[3], const mjtNum pos2[3]) {
  return tnu_dist3(pos1, pos2);
}

/* res = a x b */
void mju_cross(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]) {
  tnu_cross(res, a, b);
}

/* res = mat * vec (3x3) */
void mju_mulMatVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]) {
  tnu_mulMatVec3(res, mat, vec);
}

/* res = mat' * vec (3x3) */
void mju_mulMatTVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]) {
  tnu_mulMatTVec3(res, mat, vec);
}

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

/* res = identity quaternion (1,0,0,0) */
void mju_unit4(mjtNum res[4]) {
  res[0] = 1;
  res[1] = 0;
  res[2] = 0;
  res[3] = 0;
}

/* res = data */
void mju_copy4(mjtNum res[4], const mjtNum data[4]) {
  res[0] = data[0];
  res[1] = data[1];
  res[2] = data[2];
  res[3] = data[3];
}

/* normalize; (near-)zero becomes (1,0,0,0); returns the original norm */
mjtNum mju_normalize4(mjtNum vec[4]) {
  mjtNum norm = sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2] + vec[3] * vec[3]);

  // degenerate: identity quaternion
  if (norm < mjMINVAL) {
    mju_unit4(vec);
  }

  // scale only when not already unit length
  else if (fabs(norm - 1) > mjMINVAL) {
    mjtNum inv = 1 / norm;
    vec[0] *= inv;
    vec[1] *= inv;
    vec[2] *= inv;
    vec[3] *= inv;
  }
  return norm;
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

/* res += vec * scl */
void mju_addToScl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n) {
  tnu_addToScl(res, vec, scl, n);
}

/* res = vec1 + vec2 * scl */
void mju_addScl(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, mjtNum scl, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec1[i] + vec2[i] * scl;
  }
}

/* normalize; (near-)zero becomes (1,0,...,0); returns the original norm */
mjtNum mju_normalize(mjtNum* res, int n) {
  mjtNum norm = sqrt(tnu_dot(res, res, n));

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
  return sqrt(tnu_dot(res, res, n));
}

/* dot product */
mjtNum mju_dot(const mjtNum* vec1, const mjtNum* vec2, int n) {
  return tnu_dot(vec1, vec2, n);
}
