/* util/util_inline.h — the hot small mju_* operations, inlined where they are called.
 *
 * Everywhere in the engine these are GNU inline definitions (TN_MATH_INLINE): a call is
 * inlined, and no symbol is emitted. util/math_inline.c defines TN_MATH_EMIT and compiles
 * the same bodies once more as ordinary functions: the library's exported mju_* symbols.
 * One name and one body per operation, so results are the same whether a call is inlined. */
#ifndef TORSION_UTIL_INLINE_H_
#define TORSION_UTIL_INLINE_H_

#include <math.h>
#include <string.h>

#include <torsion/torsion.h>

/* inline-only definitions, or (util/math_inline.c) the exported ones */
#ifdef TN_MATH_EMIT
#define TN_MATH_INLINE
#else
#define TN_MATH_INLINE extern inline __attribute__((gnu_inline))
#endif

/* a hot dense kernel compiled twice, for AVX2 and for the baseline x86-64, the better one
 * chosen when the library loads (GCC's function multiversioning on x86-64 ELF; elsewhere one
 * baseline version). Only for loops whose every output element has its own chain of
 * operations (no sums reordered, no FMA: AVX2 does not imply it), so both versions give the
 * same bits. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define TN_CLONE_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define TN_CLONE_AVX2
#endif

/* ---------------------------------------------------------------------------------------
 * scalars
 * ------------------------------------------------------------------------------------- */

/* smaller of two numbers (a when equal) */
TN_MATH_INLINE mjtNum mju_min(mjtNum a, mjtNum b) {
  return a <= b ? a : b;
}

/* larger of two numbers (a when equal) */
TN_MATH_INLINE mjtNum mju_max(mjtNum a, mjtNum b) {
  return a >= b ? a : b;
}

/* clamp x to [min, max] */
TN_MATH_INLINE mjtNum mju_clip(mjtNum x, mjtNum min, mjtNum max) {
  if (x < min) {
    return min;
  }
  if (x > max) {
    return max;
  }
  return x;
}

/* 1 if x is NaN or its magnitude exceeds mjMAXVAL */
TN_MATH_INLINE int mju_isBad(mjtNum x) {
  return x != x || x > mjMAXVAL || x < -mjMAXVAL;
}

/* ---------------------------------------------------------------------------------------
 * 3D vectors
 * ------------------------------------------------------------------------------------- */

/* res = 0 */
TN_MATH_INLINE void mju_zero3(mjtNum res[3]) {
  res[0] = 0;
  res[1] = 0;
  res[2] = 0;
}

/* res = data */
TN_MATH_INLINE void mju_copy3(mjtNum res[3], const mjtNum data[3]) {
  res[0] = data[0];
  res[1] = data[1];
  res[2] = data[2];
}

/* res = vec * scl */
TN_MATH_INLINE void mju_scl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl) {
  res[0] = vec[0] * scl;
  res[1] = vec[1] * scl;
  res[2] = vec[2] * scl;
}

/* res = vec1 + vec2 */
TN_MATH_INLINE void mju_add3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3]) {
  res[0] = vec1[0] + vec2[0];
  res[1] = vec1[1] + vec2[1];
  res[2] = vec1[2] + vec2[2];
}

/* res = vec1 - vec2 */
TN_MATH_INLINE void mju_sub3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3]) {
  res[0] = vec1[0] - vec2[0];
  res[1] = vec1[1] - vec2[1];
  res[2] = vec1[2] - vec2[2];
}

/* res += vec */
TN_MATH_INLINE void mju_addTo3(mjtNum res[3], const mjtNum vec[3]) {
  res[0] += vec[0];
  res[1] += vec[1];
  res[2] += vec[2];
}

/* res -= vec */
TN_MATH_INLINE void mju_subFrom3(mjtNum res[3], const mjtNum vec[3]) {
  res[0] -= vec[0];
  res[1] -= vec[1];
  res[2] -= vec[2];
}

/* res += vec * scl */
TN_MATH_INLINE void mju_addToScl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl) {
  res[0] += vec[0] * scl;
  res[1] += vec[1] * scl;
  res[2] += vec[2] * scl;
}

/* res = vec1 + vec2 * scl */
TN_MATH_INLINE void mju_addScl3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3],
                               mjtNum scl) {
  res[0] = vec1[0] + vec2[0] * scl;
  res[1] = vec1[1] + vec2[1] * scl;
  res[2] = vec1[2] + vec2[2] * scl;
}

/* vec1' * vec2 */
TN_MATH_INLINE mjtNum mju_dot3(const mjtNum vec1[3], const mjtNum vec2[3]) {
  return vec1[0] * vec2[0] + vec1[1] * vec2[1] + vec1[2] * vec2[2];
}

/* Euclidean norm */
TN_MATH_INLINE mjtNum mju_norm3(const mjtNum vec[3]) {
  return sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]);
}

/* distance between two points */
TN_MATH_INLINE mjtNum mju_dist3(const mjtNum pos1[3], const mjtNum pos2[3]) {
  mjtNum d0 = pos1[0] - pos2[0], d1 = pos1[1] - pos2[1], d2 = pos1[2] - pos2[2];
  return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

/* normalize in place; a (near-)zero vector becomes (1,0,0); returns the original norm */
TN_MATH_INLINE mjtNum mju_normalize3(mjtNum vec[3]) {
  mjtNum norm = sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]);

  // degenerate: fall back to the x axis
  if (norm < mjMINVAL) {
    vec[0] = 1;
    vec[1] = 0;
    vec[2] = 0;
  }

  // scale by the reciprocal (always, as MuJoCo's mju_normalize3: a vector one ulp short
  // of unit length comes out exact)
  else {
    mjtNum inv = 1 / norm;
    vec[0] *= inv;
    vec[1] *= inv;
    vec[2] *= inv;
  }
  return norm;
}

/* res = a x b (res may alias a or b) */
TN_MATH_INLINE void mju_cross(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]) {
  mjtNum r0 = a[1] * b[2] - a[2] * b[1];
  mjtNum r1 = a[2] * b[0] - a[0] * b[2];
  mjtNum r2 = a[0] * b[1] - a[1] * b[0];
  res[0] = r0;
  res[1] = r1;
  res[2] = r2;
}

/* res = mat * vec, mat 3x3 row-major (res may alias vec) */
TN_MATH_INLINE void mju_mulMatVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]) {
  mjtNum r0 = mat[0] * vec[0] + mat[1] * vec[1] + mat[2] * vec[2];
  mjtNum r1 = mat[3] * vec[0] + mat[4] * vec[1] + mat[5] * vec[2];
  mjtNum r2 = mat[6] * vec[0] + mat[7] * vec[1] + mat[8] * vec[2];
  res[0] = r0;
  res[1] = r1;
  res[2] = r2;
}

/* res = mat' * vec, mat 3x3 row-major (res may alias vec) */
TN_MATH_INLINE void mju_mulMatTVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]) {
  mjtNum r0 = mat[0] * vec[0] + mat[3] * vec[1] + mat[6] * vec[2];
  mjtNum r1 = mat[1] * vec[0] + mat[4] * vec[1] + mat[7] * vec[2];
  mjtNum r2 = mat[2] * vec[0] + mat[5] * vec[1] + mat[8] * vec[2];
  res[0] = r0;
  res[1] = r1;
  res[2] = r2;
}

/* ---------------------------------------------------------------------------------------
 * 4D vectors
 * ------------------------------------------------------------------------------------- */

/* res = identity quaternion (1,0,0,0) */
TN_MATH_INLINE void mju_unit4(mjtNum res[4]) {
  res[0] = 1;
  res[1] = 0;
  res[2] = 0;
  res[3] = 0;
}

/* res = data */
TN_MATH_INLINE void mju_copy4(mjtNum res[4], const mjtNum data[4]) {
  res[0] = data[0];
  res[1] = data[1];
  res[2] = data[2];
  res[3] = data[3];
}

/* normalize; (near-)zero becomes (1,0,0,0); returns the original norm */
TN_MATH_INLINE mjtNum mju_normalize4(mjtNum vec[4]) {
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
 * n-D vectors
 * ------------------------------------------------------------------------------------- */

/* res = 0 */
TN_MATH_INLINE void mju_zero(mjtNum* res, int n) {
  if (n > 0) {
    memset(res, 0, (size_t)n * sizeof(mjtNum));
  }
}

/* res = data (may overlap) */
TN_MATH_INLINE void mju_copy(mjtNum* res, const mjtNum* data, int n) {
  if (n > 0 && res != data) {
    memmove(res, data, (size_t)n * sizeof(mjtNum));
  }
}

/* res = vec * scl */
TN_MATH_INLINE void mju_scl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec[i] * scl;
  }
}

/* res = vec1 + vec2 */
TN_MATH_INLINE void mju_add(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec1[i] + vec2[i];
  }
}

/* res = vec1 - vec2 */
TN_MATH_INLINE void mju_sub(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec1[i] - vec2[i];
  }
}

/* res += vec */
TN_MATH_INLINE void mju_addTo(mjtNum* res, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] += vec[i];
  }
}

/* res -= vec */
TN_MATH_INLINE void mju_subFrom(mjtNum* res, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] -= vec[i];
  }
}

/* res = vec1 + vec2 * scl */
TN_MATH_INLINE void mju_addScl(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, mjtNum scl,
                               int n) {
  for (int i = 0; i < n; i++) {
    res[i] = vec1[i] + vec2[i] * scl;
  }
}

/* the first position in a[0..n-1] (ascending) whose value is not below key; n when none */
static inline int tn__lowerBound(const int* a, int n, int key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* 1 if every entry is exactly zero */
TN_MATH_INLINE int mju_isZero(const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    if (vec[i] != 0) {
      return 0;
    }
  }
  return 1;
}

/* two doubles in one SIMD register where the target has one (GCC's vector extension; each
 * lane rounds exactly as the scalar operation would), loaded from any 8-byte aligned address */
typedef double tn_vec2 __attribute__((vector_size(16), aligned(8), may_alias));

/* four doubles the same way (one register under AVX2, two elsewhere) */
typedef double tn_vec4 __attribute__((vector_size(32), aligned(8), may_alias));

/* the total of four partial sums as mju_dot combines them: (s0+s2)+(s1+s3) (taken by
 * address: a 32-byte vector argument would tie the emitted copy to an AVX calling
 * convention) */
TN_MATH_INLINE mjtNum tn__sumLanes4(const tn_vec4* s) {
  tn_vec2 pair = (tn_vec2){(*s)[0], (*s)[1]} + (tn_vec2){(*s)[2], (*s)[3]};
  return pair[0] + pair[1];
}

/* vec1' * vec2: blocks of four go to four partial sums, each started at its first product,
 * combined as (s0+s2)+(s1+s3); the remaining 1-3 products are summed on their own (from the
 * first of them) and then added to that (to 0 when n < 4). MuJoCo's rounding, signed zeros
 * included (verified): with no products remaining the block total is returned as it is, and
 * so may be -0. The partial sums are kept in one four-lane vector (one AVX2 register in
 * the functions built with an AVX2 clone, two SSE2 registers elsewhere). */
TN_MATH_INLINE mjtNum mju_dot(const mjtNum* vec1, const mjtNum* vec2, int n) {
  mjtNum res = 0;
  int i = 0;

  // blocks of four with independent accumulators
  if (n >= 4) {
    tn_vec4 s = *(const tn_vec4*)vec1 * *(const tn_vec4*)vec2;
    for (i = 4; i <= n - 4; i += 4) {
      s += *(const tn_vec4*)(vec1 + i) * *(const tn_vec4*)(vec2 + i);
    }
    res = tn__sumLanes4(&s);
  }

  // remaining 1-3 entries, summed on their own (unrolled: a loop's trip count of 0-3 is a
  // branch the compiler cannot foresee)
  switch (n - i) {
    case 3:
      return res + ((vec1[i] * vec2[i] + vec1[i + 1] * vec2[i + 1]) + vec1[i + 2] * vec2[i + 2]);
    case 2:
      return res + (vec1[i] * vec2[i] + vec1[i + 1] * vec2[i + 1]);
    case 1:
      return res + vec1[i] * vec2[i];
    default:
      // none
      return res;
  }
}

/* res[t] = mju_dot(mat + t stride, vec, n) for the four rows t = 0..3, each summed exactly
 * as mju_dot sums it: the rows' partial sums advance side by side, sharing each load of
 * vec (four independent chains instead of one) */
static inline void tn__dotRows4(mjtNum res[4], const mjtNum* mat, size_t stride,
                                const mjtNum* vec, int n) {
  const mjtNum *r0 = mat, *r1 = mat + stride, *r2 = mat + 2 * stride, *r3 = mat + 3 * stride;
  mjtNum t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  int i = 0;

  // blocks of four: one four-lane partial sum per row
  if (n >= 4) {
    tn_vec4 v = *(const tn_vec4*)vec;
    tn_vec4 s0 = *(const tn_vec4*)r0 * v, s1 = *(const tn_vec4*)r1 * v;
    tn_vec4 s2 = *(const tn_vec4*)r2 * v, s3 = *(const tn_vec4*)r3 * v;
    for (i = 4; i <= n - 4; i += 4) {
      v = *(const tn_vec4*)(vec + i);
      s0 += *(const tn_vec4*)(r0 + i) * v;
      s1 += *(const tn_vec4*)(r1 + i) * v;
      s2 += *(const tn_vec4*)(r2 + i) * v;
      s3 += *(const tn_vec4*)(r3 + i) * v;
    }
    // (s0+s2)+(s1+s3) of each row, the four rows' additions side by side: halves added
    // pairwise, then the two pair sums of every row (rows in lane order 0, 2, 1, 3)
    tn_vec4 u01 = (tn_vec4){s0[0], s0[1], s1[0], s1[1]} + (tn_vec4){s0[2], s0[3], s1[2], s1[3]};
    tn_vec4 u23 = (tn_vec4){s2[0], s2[1], s3[0], s3[1]} + (tn_vec4){s2[2], s2[3], s3[2], s3[3]};
    tn_vec4 t = (tn_vec4){u01[0], u23[0], u01[2], u23[2]} +
                (tn_vec4){u01[1], u23[1], u01[3], u23[3]};
    t0 = t[0], t1 = t[2], t2 = t[1], t3 = t[3];
  }

  // remaining 1-3 entries of each row, summed on their own and then added (mju_dot's tail)
  if (i < n) {
    mjtNum a0 = r0[i] * vec[i], a1 = r1[i] * vec[i], a2 = r2[i] * vec[i], a3 = r3[i] * vec[i];
    for (int j = i + 1; j < n; j++) {
      a0 += r0[j] * vec[j];
      a1 += r1[j] * vec[j];
      a2 += r2[j] * vec[j];
      a3 += r3[j] * vec[j];
    }
    t0 += a0;
    t1 += a1;
    t2 += a2;
    t3 += a3;
  }
  res[0] = t0;
  res[1] = t1;
  res[2] = t2;
  res[3] = t3;
}

/* mju_dot's sum, rounded the same way, with vec2 read one entry at a time (volatile keeps
 * the compiler from pairing the loads): for a vec2 whose entries were stored moments ago,
 * one by one, as in a triangular solve or a Gauss-Seidel sweep. A load wider than the
 * store it overlaps waits for the store to reach the cache instead of taking its value
 * from the store buffer, which lengthens such a loop's latency chain */
static inline mjtNum tn__dotFresh(const mjtNum* vec1, const mjtNum* vec2, int n) {
  const volatile mjtNum* v = vec2;
  mjtNum res = 0;
  int i = 0;
  if (n >= 4) {
    mjtNum s0 = vec1[0] * v[0], s1 = vec1[1] * v[1];
    mjtNum s2 = vec1[2] * v[2], s3 = vec1[3] * v[3];
    for (i = 4; i <= n - 4; i += 4) {
      s0 += vec1[i] * v[i];
      s1 += vec1[i + 1] * v[i + 1];
      s2 += vec1[i + 2] * v[i + 2];
      s3 += vec1[i + 3] * v[i + 3];
    }
    res = (s0 + s2) + (s1 + s3);
  }
  if (i < n) {
    mjtNum tail = vec1[i] * v[i];
    for (i++; i < n; i++) {
      tail += vec1[i] * v[i];
    }
    res += tail;
  }
  return res;
}

/* sparse vec1 (values at indices ind, n of them) . dense vec2, summed as MuJoCo sums a
 * sparse dot: four interleaved partial sums over the full blocks, combined (0+2)+(1+3),
 * then the remaining products added one by one (unlike mju_dot, whose tail is summed
 * apart) */
TN_MATH_INLINE mjtNum mju_dotSparse(const mjtNum* vec1, const mjtNum* vec2, int n,
                                   const int* ind) {
  mjtNum res = 0;
  int i = 0;
  if (n >= 4) {
    mjtNum s0 = vec1[0] * vec2[ind[0]], s1 = vec1[1] * vec2[ind[1]];
    mjtNum s2 = vec1[2] * vec2[ind[2]], s3 = vec1[3] * vec2[ind[3]];
    for (i = 4; i <= n - 4; i += 4) {
      s0 += vec1[i] * vec2[ind[i]];
      s1 += vec1[i + 1] * vec2[ind[i + 1]];
      s2 += vec1[i + 2] * vec2[ind[i + 2]];
      s3 += vec1[i + 3] * vec2[ind[i + 3]];
    }
    res = (s0 + s2) + (s1 + s3);
  }
  for (; i < n; i++) {
    res += vec1[i] * vec2[ind[i]];
  }
  return res;
}

/* res += vec * scl */
TN_MATH_INLINE void mju_addToScl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n) {
  for (int i = 0; i < n; i++) {
    res[i] += vec[i] * scl;
  }
}

/* ---------------------------------------------------------------------------------------
 * quaternions (w, x, y, z)
 * ------------------------------------------------------------------------------------- */

/* res = quat1 * quat2 (Hamilton product; res may alias either input) */
TN_MATH_INLINE void mju_mulQuat(mjtNum res[4], const mjtNum q1[4], const mjtNum q2[4]) {
  mjtNum w = q1[0] * q2[0] - q1[1] * q2[1] - q1[2] * q2[2] - q1[3] * q2[3];
  mjtNum x = q1[0] * q2[1] + q1[1] * q2[0] + q1[2] * q2[3] - q1[3] * q2[2];
  mjtNum y = q1[0] * q2[2] - q1[1] * q2[3] + q1[2] * q2[0] + q1[3] * q2[1];
  mjtNum z = q1[0] * q2[3] + q1[1] * q2[2] - q1[2] * q2[1] + q1[3] * q2[0];
  res[0] = w;
  res[1] = x;
  res[2] = y;
  res[3] = z;
}

/* res = rotation by angle about unit axis; exactly the identity when angle == 0 */
TN_MATH_INLINE void mju_axisAngle2Quat(mjtNum res[4], const mjtNum axis[3], mjtNum angle) {
  // zero angle: exact identity
  if (angle == 0) {
    mju_unit4(res);
    return;
  }

  // half-angle form
  mjtNum s = sin(angle * 0.5);
  res[0] = cos(angle * 0.5);
  res[1] = axis[0] * s;
  res[2] = axis[1] * s;
  res[3] = axis[2] * s;
}

/* rotation matrix of a unit quaternion; the exact identity gives the exact identity */
TN_MATH_INLINE void mju_quat2Mat(mjtNum res[9], const mjtNum quat[4]) {
  // identity shortcut
  if (quat[0] == 1 && quat[1] == 0 && quat[2] == 0 && quat[3] == 0) {
    res[0] = 1, res[1] = 0, res[2] = 0;
    res[3] = 0, res[4] = 1, res[5] = 0;
    res[6] = 0, res[7] = 0, res[8] = 1;
    return;
  }

  // products of components
  const mjtNum q00 = quat[0] * quat[0], q01 = quat[0] * quat[1];
  const mjtNum q02 = quat[0] * quat[2], q03 = quat[0] * quat[3];
  const mjtNum q11 = quat[1] * quat[1], q12 = quat[1] * quat[2];
  const mjtNum q13 = quat[1] * quat[3], q22 = quat[2] * quat[2];
  const mjtNum q23 = quat[2] * quat[3], q33 = quat[3] * quat[3];

  // diagonal
  res[0] = q00 + q11 - q22 - q33;
  res[4] = q00 - q11 + q22 - q33;
  res[8] = q00 - q11 - q22 + q33;

  // off-diagonal
  res[1] = 2 * (q12 - q03);
  res[2] = 2 * (q13 + q02);
  res[3] = 2 * (q12 + q03);
  res[5] = 2 * (q23 - q01);
  res[6] = 2 * (q13 - q02);
  res[7] = 2 * (q23 + q01);
}

/* rotate vec by unit quaternion quat: with u = quat.xyz and t = w*vec + u x vec,
 * res = vec + 2 * (u x t); the exact identity copies vec (res may alias vec) */
TN_MATH_INLINE void mju_rotVecQuat(mjtNum res[3], const mjtNum vec[3], const mjtNum quat[4]) {
  // identity: plain copy
  if (quat[0] == 1 && quat[1] == 0 && quat[2] == 0 && quat[3] == 0) {
    res[0] = vec[0];
    res[1] = vec[1];
    res[2] = vec[2];
    return;
  }

  // t = w*v + u x v
  mjtNum t0 = quat[0] * vec[0] + quat[2] * vec[2] - quat[3] * vec[1];
  mjtNum t1 = quat[0] * vec[1] + quat[3] * vec[0] - quat[1] * vec[2];
  mjtNum t2 = quat[0] * vec[2] + quat[1] * vec[1] - quat[2] * vec[0];

  // res = v + 2 u x t
  mjtNum r0 = vec[0] + 2 * (quat[2] * t2 - quat[3] * t1);
  mjtNum r1 = vec[1] + 2 * (quat[3] * t0 - quat[1] * t2);
  mjtNum r2 = vec[2] + 2 * (quat[1] * t1 - quat[2] * t0);
  res[0] = r0;
  res[1] = r1;
  res[2] = r2;
}

/* ---------------------------------------------------------------------------------------
 * spatial algebra: 6D vectors are (rotation, translation)
 * ------------------------------------------------------------------------------------- */

/* res = [vel]x v for motion v (res must not alias vel or v) */
TN_MATH_INLINE void tn_crossMotion(mjtNum res[6], const mjtNum vel[6], const mjtNum v[6]) {
  // rotational part: w x v_rot
  res[0] = vel[1] * v[2] - vel[2] * v[1];
  res[1] = vel[2] * v[0] - vel[0] * v[2];
  res[2] = vel[0] * v[1] - vel[1] * v[0];

  // translational part: w x v_tran + u x v_rot
  res[3] = vel[1] * v[5] - vel[2] * v[4];
  res[4] = vel[2] * v[3] - vel[0] * v[5];
  res[5] = vel[0] * v[4] - vel[1] * v[3];
  res[3] += vel[4] * v[2] - vel[5] * v[1];
  res[4] += vel[5] * v[0] - vel[3] * v[2];
  res[5] += vel[3] * v[1] - vel[4] * v[0];
}

/* res = [vel]x* f for force f (res must not alias vel or f) */
TN_MATH_INLINE void tn_crossForce(mjtNum res[6], const mjtNum vel[6], const mjtNum f[6]) {
  // torque part: w x f_rot + u x f_tran
  res[0] = vel[1] * f[2] - vel[2] * f[1];
  res[1] = vel[2] * f[0] - vel[0] * f[2];
  res[2] = vel[0] * f[1] - vel[1] * f[0];

  // force part: w x f_tran
  res[3] = vel[1] * f[5] - vel[2] * f[4];
  res[4] = vel[2] * f[3] - vel[0] * f[5];
  res[5] = vel[0] * f[4] - vel[1] * f[3];
  res[0] += vel[4] * f[5] - vel[5] * f[4];
  res[1] += vel[5] * f[3] - vel[3] * f[5];
  res[2] += vel[3] * f[4] - vel[4] * f[3];
}

/* res = cinert * v (6x6 spatial inertia from 10 numbers; res must not alias v). Computed
 * in locals and stored last, so that the compiler need not reload the inputs after each
 * store to res (which it must assume may alias them) */
TN_MATH_INLINE void tn_mulInertVec(mjtNum res[6], const mjtNum i[10], const mjtNum v[6]) {
  // I*w + h x u
  mjtNum r0 = i[0] * v[0] + i[3] * v[1] + i[4] * v[2] - i[8] * v[4] + i[7] * v[5];
  mjtNum r1 = i[3] * v[0] + i[1] * v[1] + i[5] * v[2] + i[8] * v[3] - i[6] * v[5];
  mjtNum r2 = i[4] * v[0] + i[5] * v[1] + i[2] * v[2] - i[7] * v[3] + i[6] * v[4];

  // m*u - h x w
  mjtNum r3 = i[8] * v[1] - i[7] * v[2] + i[9] * v[3];
  mjtNum r4 = i[6] * v[2] - i[8] * v[0] + i[9] * v[4];
  mjtNum r5 = i[7] * v[0] - i[6] * v[1] + i[9] * v[5];
  res[0] = r0, res[1] = r1, res[2] = r2, res[3] = r3, res[4] = r4, res[5] = r5;
}

/* cinert from principal inertia, body orientation mat, offset dif = com - point, mass.
 * Computed in locals and stored last (no reloads of the inputs after stores to res) */
TN_MATH_INLINE void tn_inertCom(mjtNum res[10], const mjtNum inert[3], const mjtNum mat[9],
                               const mjtNum dif[3], mjtNum mass) {
  // rotated inertia: mat * (diag(inert) * mat'), entry (r,c) = sum_k mat_rk (mat_ck inert_k),
  // the products mat_ck inert_k formed once per row c and shared by the entries using them
  const mjtNum* r0 = mat;
  const mjtNum* r1 = mat + 3;
  const mjtNum* r2 = mat + 6;
  mjtNum t0[3] = {r0[0] * inert[0], r0[1] * inert[1], r0[2] * inert[2]};
  mjtNum t1[3] = {r1[0] * inert[0], r1[1] * inert[1], r1[2] * inert[2]};
  mjtNum t2[3] = {r2[0] * inert[0], r2[1] * inert[1], r2[2] * inert[2]};
  mjtNum i00 = r0[0] * t0[0] + r0[1] * t0[1] + r0[2] * t0[2];
  mjtNum i11 = r1[0] * t1[0] + r1[1] * t1[1] + r1[2] * t1[2];
  mjtNum i22 = r2[0] * t2[0] + r2[1] * t2[1] + r2[2] * t2[2];
  mjtNum i01 = r0[0] * t1[0] + r0[1] * t1[1] + r0[2] * t1[2];
  mjtNum i02 = r0[0] * t2[0] + r0[1] * t2[1] + r0[2] * t2[2];
  mjtNum i12 = r1[0] * t2[0] + r1[1] * t2[1] + r1[2] * t2[2];

  // parallel-axis term: mass * (|dif|^2 Id - dif dif')
  mjtNum d0 = dif[0], d1 = dif[1], d2 = dif[2];
  res[0] = i00 + mass * (d1 * d1 + d2 * d2);
  res[1] = i11 + mass * (d0 * d0 + d2 * d2);
  res[2] = i22 + mass * (d0 * d0 + d1 * d1);
  res[3] = i01 - mass * d0 * d1;
  res[4] = i02 - mass * d0 * d2;
  res[5] = i12 - mass * d1 * d2;

  // first moment and mass
  res[6] = d0 * mass;
  res[7] = d1 * mass;
  res[8] = d2 * mass;
  res[9] = mass;
}

/* shift a motion (flg_force=0) or force (1) vector from oldpos to newpos, then rotate it by
 * rotnew2old' when given; res may alias vec (the shifted vector is held in locals, and
 * stored number by number: a wider load of numbers just stored one by one would wait) */
TN_MATH_INLINE void mju_transformSpatial(mjtNum res[6], const mjtNum vec[6], int flg_force,
                                         const mjtNum newpos[3], const mjtNum oldpos[3],
                                         const mjtNum rotnew2old[9]) {
  mjtNum cof[3], tran[3], sh[6];
  mju_sub3(cof, newpos, oldpos);

  // force: torque changes by -cof x force; motion: linear velocity by -cof x angular
  if (flg_force) {
    mju_cross(tran, cof, vec + 3);
    sh[0] = vec[0] - tran[0], sh[1] = vec[1] - tran[1], sh[2] = vec[2] - tran[2];
    sh[3] = vec[3], sh[4] = vec[4], sh[5] = vec[5];
  } else {
    mju_cross(tran, cof, vec);
    sh[0] = vec[0], sh[1] = vec[1], sh[2] = vec[2];
    sh[3] = vec[3] - tran[0], sh[4] = vec[4] - tran[1], sh[5] = vec[5] - tran[2];
  }

  // rotate both halves into the new frame, or store
  if (rotnew2old) {
    mju_mulMatTVec3(res, rotnew2old, sh);
    mju_mulMatTVec3(res + 3, rotnew2old, sh + 3);
  } else {
    res[0] = sh[0], res[1] = sh[1], res[2] = sh[2];
    res[3] = sh[3], res[4] = sh[4], res[5] = sh[5];
  }
}

/* com-based motion of a dof: rotational (offset given) or translational (offset NULL) */
TN_MATH_INLINE void tn_dofCom(mjtNum res[6], const mjtNum axis[3], const mjtNum offset[3]) {
  // rotation about axis through a point offset from the com
  if (offset) {
    mju_copy3(res, axis);
    mju_cross(res + 3, axis, offset);
  }

  // translation along axis
  else {
    mju_zero3(res);
    mju_copy3(res + 3, axis);
  }
}

#endif  // TORSION_UTIL_INLINE_H_
