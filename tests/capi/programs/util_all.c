/* Every mju_/mjd_ utility function Torsion declares, called on fixed non-trivial inputs,
 * results printed: one comparison against MuJoCo covers the whole utility layer. (Not
 * here: mju_error and mju_warning, whose handlers and default output belong to the error
 * handling tests; mju_rayGeom, whose 3.14 signature gained a normal output, is covered
 * with the ray functions.) The finite-
 * difference derivatives use a small model written to the working directory.
 * Arguments: none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

/* print a labelled vector */
static void pv(const char* name, const mjtNum* v, int n) {
  printf("%s", name);
  for (int i = 0; i < n; i++) {
    printf(" %.15g", v[i]);
  }
  printf("\n");
}

/* print a labelled vector of finite-difference results: 8 digits, since differencing
 * with eps = 1e-6 leaves rounding noise near 1e-9 relative */
static void pfd(const char* name, const mjtNum* v, int n) {
  printf("%s", name);
  for (int i = 0; i < n; i++) {
    printf(" %.8g", v[i]);
  }
  printf("\n");
}

/* print a labelled scalar */
static void ps(const char* name, mjtNum v) {
  printf("%s %.15g\n", name, v);
}

static const mjtNum A3[3] = {0.3, -1.2, 2.5};
static const mjtNum B3[3] = {-0.7, 0.4, 1.1};
static const mjtNum Q1[4] = {0.8, 0.2, -0.5, 0.26457513110645914};
static const mjtNum Q2[4] = {0.1, 0.7, 0.3, -0.63245553203367588};
static const mjtNum M9[9] = {0.9, -0.2, 0.35, 0.1, 1.1, -0.4, -0.3, 0.25, 0.8};
static const mjtNum V7[7] = {1.5, -2.25, 0.125, 3.0, -0.5, 0.75, -1.0};
static const mjtNum W7[7] = {-0.3, 0.9, 1.7, -2.2, 0.4, 0.05, 1.3};

/* 3D vectors */
static void vec3(void) {
  mjtNum r[3], t[3];
  mju_zero3(r);
  pv("zero3", r, 3);
  mju_copy3(r, A3);
  pv("copy3", r, 3);
  mju_scl3(r, A3, -1.7);
  pv("scl3", r, 3);
  mju_add3(r, A3, B3);
  pv("add3", r, 3);
  mju_sub3(r, A3, B3);
  pv("sub3", r, 3);
  mju_copy3(r, A3);
  mju_addTo3(r, B3);
  pv("addTo3", r, 3);
  mju_subFrom3(r, B3);
  pv("subFrom3", r, 3);
  mju_addToScl3(r, B3, 0.37);
  pv("addToScl3", r, 3);
  mju_addScl3(r, A3, B3, -2.1);
  pv("addScl3", r, 3);
  mju_copy3(t, A3);
  ps("normalize3", mju_normalize3(t));
  pv("normalized3", t, 3);
  mju_zero3(t);
  ps("normalize3_zero", mju_normalize3(t));
  pv("normalized3_zero", t, 3);
  ps("norm3", mju_norm3(A3));
  ps("dot3", mju_dot3(A3, B3));
  ps("dist3", mju_dist3(A3, B3));
  mju_cross(r, A3, B3);
  pv("cross", r, 3);
  mju_mulMatVec3(r, M9, A3);
  pv("mulMatVec3", r, 3);
  mju_mulMatTVec3(r, M9, A3);
  pv("mulMatTVec3", r, 3);
}

/* 4D vectors */
static void vec4(void) {
  mjtNum r[4];
  mju_zero4(r);
  pv("zero4", r, 4);
  mju_unit4(r);
  pv("unit4", r, 4);
  mju_copy4(r, Q2);
  pv("copy4", r, 4);
  mjtNum q[4] = {1.5, -0.5, 2.0, 0.25};
  ps("normalize4", mju_normalize4(q));
  pv("normalized4", q, 4);
  mjtNum z[4] = {0, 0, 0, 0};
  ps("normalize4_zero", mju_normalize4(z));
  pv("normalized4_zero", z, 4);
}

/* n-D vectors */
static void vecn(void) {
  mjtNum r[7], t[7];
  mju_zero(r, 7);
  pv("zero", r, 7);
  mju_fill(r, -0.625, 7);
  pv("fill", r, 7);
  mju_copy(r, V7, 7);
  pv("copy", r, 7);
  ps("sum", mju_sum(V7, 7));
  ps("L1", mju_L1(V7, 7));
  mju_scl(r, V7, 0.3, 7);
  pv("scl", r, 7);
  mju_add(r, V7, W7, 7);
  pv("add", r, 7);
  mju_sub(r, V7, W7, 7);
  pv("sub", r, 7);
  mju_copy(r, V7, 7);
  mju_addTo(r, W7, 7);
  pv("addTo", r, 7);
  mju_subFrom(r, W7, 5);
  pv("subFrom", r, 7);
  mju_addToScl(r, W7, -1.3, 6);
  pv("addToScl", r, 7);
  mju_addScl(r, V7, W7, 2.2, 7);
  pv("addScl", r, 7);
  mju_copy(t, V7, 7);
  ps("normalize", mju_normalize(t, 7));
  pv("normalized", t, 7);
  ps("norm", mju_norm(W7, 7));
  for (int n = 0; n <= 7; n++) {
    printf("dot%d %.17g\n", n, mju_dot(V7, W7, n));
  }
}

/* matrices */
static void matrices(void) {
  static const mjtNum M34[12] = {1, -2, 0.5, 0, 3, 0.25, -1, 2, 0, 1.5, -0.75, 4};
  static const mjtNum M43[12] = {0.2, 1, -1, 3, 0, 0.5, -2, 1, 1, 0, -0.5, 2};
  mjtNum r[16], t[16];
  mju_mulMatVec(r, M34, V7, 3, 4);
  pv("mulMatVec", r, 3);
  mju_mulMatTVec(r, M34, V7, 3, 4);
  pv("mulMatTVec", r, 4);
  ps("mulVecMatVec", mju_mulVecMatVec(A3, M9, B3, 3));
  mju_transpose(r, M34, 3, 4);
  pv("transpose", r, 12);
  mju_symmetrize(r, M9, 3);
  pv("symmetrize", r, 9);
  mju_eye(r, 4);
  pv("eye", r, 16);
  mju_mulMatMat(r, M34, M43, 3, 4, 3);
  pv("mulMatMat", r, 9);
  mju_mulMatMatT(r, M34, M34, 3, 4, 3);
  pv("mulMatMatT", r, 9);
  mju_mulMatTMat(r, M34, M34, 3, 4, 4);
  pv("mulMatTMat", r, 16);
  mju_sqrMatTD(r, M34, A3, 3, 4);
  pv("sqrMatTD", r, 16);
  mju_sqrMatTD(r, M34, NULL, 3, 4);
  pv("sqrMatTD_null", r, 16);

  // Cholesky: factor, solve, rank-one updates, and a deficient matrix
  mjtNum spd[16];
  mju_mulMatTMat(spd, M34, M34, 3, 4, 4);
  for (int i = 0; i < 4; i++) {
    spd[i * 5] += 0.5;
  }
  mju_copy(t, spd, 16);
  printf("cholFactor %d\n", mju_cholFactor(t, 4, mjMINVAL));
  pv("chol", t, 16);
  mju_cholSolve(r, t, V7, 4);
  pv("cholSolve", r, 4);
  mjtNum x[4] = {0.3, -0.2, 0.5, 0.1};
  printf("cholUpdate+ %d\n", mju_cholUpdate(t, x, 4, 1));
  pv("cholUpdated+", t, 16);
  mjtNum y[4] = {0.1, 0.4, -0.2, 0.3};
  printf("cholUpdate- %d\n", mju_cholUpdate(t, y, 4, 0));
  pv("cholUpdated-", t, 16);
  mjtNum big[4] = {5, 0, 0, 0};
  printf("cholUpdate-deficient %d\n", mju_cholUpdate(t, big, 4, 0));
  pv("cholUpdated-deficient", t, 16);
  mjtNum sing[9] = {1, 2, 3, 2, 4, 6, 3, 6, 10};
  printf("cholFactor_singular %d\n", mju_cholFactor(sing, 3, 1e-6));
  pv("chol_singular", sing, 9);

  // 3x3 eigen-decomposition
  mjtNum sym[9], eigval[3], eigvec[9], quat[4];
  mju_symmetrize(sym, M9, 3);
  printf("eig3 %d\n", mju_eig3(eigval, eigvec, quat, sym));
  pv("eigval", eigval, 3);
  pv("eigvec", eigvec, 9);
  pv("eigquat", quat, 4);
}

/* sparse conversions and printing */
static void sparse(void) {
  static const mjtNum D[12] = {0, 1.5, 0, -2, 0, 0, 0, 0, 3.25, 0, 0.5, 7};
  mjtNum val[12], back[12];
  int rownnz[3], rowadr[3], colind[12];
  printf("dense2sparse %d\n", mju_dense2sparse(val, D, 3, 4, rownnz, rowadr, colind, 12));
  for (int r = 0; r < 3; r++) {
    printf("row %d %d:", rownnz[r], rowadr[r]);
    for (int k = rowadr[r]; k < rowadr[r] + rownnz[r]; k++) {
      printf(" %d=%.15g", colind[k], val[k]);
    }
    printf("\n");
  }
  printf("dense2sparse_small %d\n", mju_dense2sparse(val, D, 3, 4, rownnz, rowadr, colind, 3));
  printf("dense2sparse_zero %d\n", mju_dense2sparse(val, D, 3, 4, rownnz, rowadr, colind, 0));
  mju_dense2sparse(val, D, 3, 4, rownnz, rowadr, colind, 12);
  mju_sparse2dense(back, val, 3, 4, rownnz, rowadr, colind);
  pv("sparse2dense", back, 12);
  mju_printMat(D, 3, 4);
  mju_printMatSparse(val, 3, rownnz, rowadr, colind);

  // lower triangle of a symmetric matrix
  static const mjtNum L[9] = {2, 0, 0, -1, 3, 0, 0.5, 0, 4};
  mjtNum full[9];
  mju_dense2sparse(val, L, 3, 3, rownnz, rowadr, colind, 9);
  mju_sym2dense(full, val, 3, rownnz, rowadr, colind);
  pv("sym2dense", full, 9);
}

/* quaternions, rotations, poses */
static void rotations(void) {
  mjtNum r[9], q[4], v[3];
  mju_rotVecQuat(v, A3, Q1);
  pv("rotVecQuat", v, 3);
  mju_negQuat(q, Q1);
  pv("negQuat", q, 4);
  mju_mulQuat(q, Q1, Q2);
  pv("mulQuat", q, 4);
  mju_mulQuatAxis(q, Q1, B3);
  pv("mulQuatAxis", q, 4);
  mjtNum axis[3] = {0.6, 0, 0.8};
  mju_axisAngle2Quat(q, axis, 1.1);
  pv("axisAngle2Quat", q, 4);
  mju_quat2Vel(v, Q1, 0.01);
  pv("quat2Vel", v, 3);
  mju_subQuat(v, Q1, Q2);
  pv("subQuat", v, 3);
  mju_quat2Mat(r, Q1);
  pv("quat2Mat", r, 9);
  mju_mat2Quat(q, r);
  pv("mat2Quat", q, 4);
  mju_derivQuat(q, Q1, A3);
  pv("derivQuat", q, 4);
  mju_copy4(q, Q1);
  mju_quatIntegrate(q, A3, 0.05);
  pv("quatIntegrate", q, 4);
  mju_quatZ2Vec(q, B3);
  pv("quatZ2Vec", q, 4);
  mjtNum down[3] = {0, 0, -2};
  mju_quatZ2Vec(q, down);
  pv("quatZ2Vec_down", q, 4);

  // rotation extraction from a perturbed rotation matrix
  mju_quat2Mat(r, Q2);
  r[0] += 0.05;
  r[4] -= 0.1;
  r[7] += 0.2;
  mju_unit4(q);
  printf("mat2Rot %d\n", mju_mat2Rot(q, r));
  pv("mat2Rot_quat", q, 4);

  // Euler sequences
  const char* seqs[] = {"xyz", "XYZ", "zyx", "ZYX", "xYz", "zXz", "yyx"};
  mjtNum euler[3] = {0.3, -1.1, 2.4};
  for (int i = 0; i < 7; i++) {
    mju_euler2Quat(q, euler, seqs[i]);
    printf("euler2Quat_%s", seqs[i]);
    pv("", q, 4);
  }

  // poses
  mjtNum pos[3];
  mju_mulPose(pos, q, A3, Q1, B3, Q2);
  pv("mulPose_pos", pos, 3);
  pv("mulPose_quat", q, 4);
  mju_negPose(pos, q, A3, Q1);
  pv("negPose_pos", pos, 3);
  pv("negPose_quat", q, 4);
  mju_trnVecPose(v, A3, Q1, B3);
  pv("trnVecPose", v, 3);

  // derivatives
  mjtNum Da[9], Db[9], Dq[9], Dv[9], Ds[3];
  mjd_subQuat(Q1, Q2, Da, Db);
  pv("subQuat_Da", Da, 9);
  pv("subQuat_Db", Db, 9);
  mjd_subQuat(Q1, Q1, Da, NULL);
  pv("subQuat_Da_same", Da, 9);
  mjd_subQuat(Q1, Q2, NULL, NULL);
  mjd_quatIntegrate(A3, 0.2, Dq, Dv, Ds);
  pv("quatIntegrate_Dquat", Dq, 9);
  pv("quatIntegrate_Dvel", Dv, 9);
  pv("quatIntegrate_Dscale", Ds, 3);
  mjd_quatIntegrate(A3, 0.001, Dq, NULL, Ds);
  pv("quatIntegrate_small_Dquat", Dq, 9);
  pv("quatIntegrate_small_Dscale", Ds, 3);
  mjd_quatIntegrate(A3, 0.001, NULL, Dv, NULL);
  pv("quatIntegrate_small_Dvel", Dv, 9);
}

/* MuJoCo exports these from its library without declaring them in mujoco.h; Torsion has
 * the same operations as its own tn_ functions (not part of MuJoCo's public API) */
#ifndef TORSION_VERSION
void mju_mulInertVec(mjtNum res[6], const mjtNum inert[10], const mjtNum vec[6]);
mjtNum mju_muscleGainLength(mjtNum length, mjtNum lmin, mjtNum lmax);
mjtNum mju_muscleDynamicsTimescale(mjtNum dctrl, mjtNum tau_act, mjtNum tau_deact,
                                   mjtNum smoothing_width);
#else
#define mju_mulInertVec tn_mulInertVec
#define mju_muscleGainLength tn_muscleGainLength
#define mju_muscleDynamicsTimescale tn_muscleDynamicsTimescale
#endif

/* spatial algebra (mju_crossMotion, mju_crossForce, mju_inertCom, mju_dofCom and
 * mju_mulDofVec are Torsion-declared but absent from MuJoCo's library: not comparable) */
static void spatial(void) {
  static const mjtNum S1[6] = {0.3, -0.2, 0.9, 1.5, -0.4, 0.25};
  static const mjtNum S2[6] = {-1.0, 0.6, 0.1, 0.2, 2.0, -0.7};
  static const mjtNum cinert[10] = {0.9, 1.3, 0.7, 0.1, -0.05, 0.2, 0.3, -0.2, 0.45, 2.5};
  mjtNum r[6];
  mju_transformSpatial(r, S1, 0, A3, B3, M9);
  pv("transformSpatial_motion", r, 6);
  mju_transformSpatial(r, S1, 1, A3, B3, NULL);
  pv("transformSpatial_force", r, 6);
  mju_mulInertVec(r, cinert, S2);
  pv("mulInertVec", r, 6);
}

/* scalars, muscles, misc */
static void scalars(void) {
  ps("min", mju_min(0.3, -0.2));
  ps("max", mju_max(0.3, -0.2));
  ps("clip", mju_clip(1.7, -1, 1));
  ps("clip_low", mju_clip(-1.7, -1, 1));
  ps("sign", mju_sign(-0.0001));
  ps("sign0", mju_sign(0));
  mjtNum rounds[] = {2.5, -2.5, 0.5, -0.5, 1.49999, -1.5, 3.7, -3.7};
  for (int i = 0; i < 8; i++) {
    printf("round %g %d\n", rounds[i], mju_round(rounds[i]));
  }
  printf("isBad %d %d %d\n", mju_isBad(1e20), mju_isBad(1e9), mju_isBad(0.0 / 0.0));
  mjtNum zeros[3] = {0, 0, 0};
  printf("isZero %d %d\n", mju_isZero(zeros, 3), mju_isZero(A3, 3));
  for (int i = 0; i <= 10; i++) {
    printf("sigmoid %.17g\n", mju_sigmoid(-0.1 + 0.12 * i));
  }
  ps("muscleGainLength", mju_muscleGainLength(0.8, 0.5, 1.6));
  ps("muscleGainLength_hi", mju_muscleGainLength(1.3, 0.5, 1.6));
  mjtNum lr[2] = {0.2, 0.5};
  mjtNum prm[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
  ps("muscleGain", mju_muscleGain(0.3, -0.1, lr, 3.5, prm));
  ps("muscleGain_fast", mju_muscleGain(0.3, 0.5, lr, 3.5, prm));
  ps("muscleBias", mju_muscleBias(0.45, lr, 3.5, prm));
  ps("muscleDynamicsTimescale", mju_muscleDynamicsTimescale(0.2, 0.01, 0.04, 0.3));
  ps("muscleDynamicsTimescale_hard", mju_muscleDynamicsTimescale(-0.2, 0.01, 0.04, 0));
  mjtNum dprm[3] = {0.01, 0.04, 0.2};
  ps("muscleDynamics", mju_muscleDynamics(0.7, 0.3, dprm));
  ps("muscleDynamics_clamp", mju_muscleDynamics(1.5, -0.2, dprm));

  // pyramids
  mjtNum force[6] = {2.0, 0.3, -0.5, 0.1, 0.05, -0.02};
  mjtNum mu[5] = {0.9, 0.6, 0.02, 0.01, 0.005};
  mjtNum pyr[10], dec[6];
  for (int dim = 1; dim <= 6; dim++) {
    if (dim == 2 || dim == 5) {
      continue;
    }
    if (dim > 1) {
      mju_encodePyramid(pyr, force, mu, dim);
      pv("encodePyramid", pyr, 2 * (dim - 1));
    } else {
      pyr[0] = 1.25;
    }
    mju_decodePyramid(dec, pyr, mu, dim);
    pv("decodePyramid", dec, dim);
  }

  // spring-dampers: over-, critically and under-damped
  ps("springDamper_over", mju_springDamper(0.5, -1.0, 4.0, 5.0, 0.3));
  ps("springDamper_crit", mju_springDamper(0.5, -1.0, 4.0, 4.0, 0.3));
  ps("springDamper_under", mju_springDamper(0.5, -1.0, 40.0, 1.0, 0.3));

  // Halton
  for (int i = 0; i < 12; i++) {
    printf("Halton %.17g %.17g %.17g\n", mju_Halton(i, 2), mju_Halton(i, 3), mju_Halton(i, 7));
  }

  // standard normal from the C library's generator
  srand(42);
  for (int i = 0; i < 5; i++) {
    mjtNum second;
    mjtNum first = mju_standardNormal(&second);
    printf("standardNormal %.17g %.17g\n", first, second);
  }
  printf("standardNormal_one %.17g\n", mju_standardNormal(NULL));

  // number conversions
  float f[3] = {0.1f, -2.5f, 3.3f};
  double dd[3] = {0.1, -2.5, 3.3};
  mjtNum n3[3];
  mju_f2n(n3, f, 3);
  pv("f2n", n3, 3);
  mju_n2f(f, A3, 3);
  printf("n2f %.9g %.9g %.9g\n", f[0], f[1], f[2]);
  mju_d2n(n3, dd, 3);
  pv("d2n", n3, 3);
  mju_n2d(dd, B3, 3);
  printf("n2d %.17g %.17g %.17g\n", dd[0], dd[1], dd[2]);

  // sorts
  mjtNum list[8] = {3.5, -1, 2, 2, 0, -7.25, 9, 1};
  mju_insertionSort(list, 8);
  pv("insertionSort", list, 8);
  int ilist[9] = {5, -3, 8, 0, 8, 2, -9, 1, 4};
  mju_insertionSortInt(ilist, 9);
  printf("insertionSortInt");
  for (int i = 0; i < 9; i++) {
    printf(" %d", ilist[i]);
  }
  printf("\n");
}

/* strings, names, warnings */
static void strings(void) {
  char buf[8];
  memset(buf, 'x', sizeof(buf));
  printf("strncpy [%s]\n", mju_strncpy(buf, "torsion-engine", 8));
  printf("strncpy_short [%s]\n", mju_strncpy(buf, "ab", 8));
  printf("strncpy_null %d\n", mju_strncpy(NULL, "ab", 8) == NULL);
  for (int t = -1; t <= 26; t++) {
    const char* name = mju_type2Str(t);
    printf("type2Str %d %s %d\n", t, name ? name : "(null)", name ? mju_str2Type(name) : -2);
  }
  const char* frame = mju_type2Str(mjOBJ_FRAME);
  printf("type2Str frame %s %d\n", frame ? frame : "(null)", mju_str2Type("frame"));
  printf("str2Type bogus %d\n", mju_str2Type("bogus"));
  for (int w = -1; w <= mjNWARNING; w++) {
    printf("warningText %d [%s]\n", w, mju_warningText(w, 3 << 20));
  }
  size_t sizes[] = {0,
                    1,
                    1000,
                    1024,
                    1536,
                    3 << 20,
                    (size_t)5 << 30,
                    ((size_t)1 << 40) + 1,
                    (size_t)7 << 50,
                    (size_t)1 << 62,
                    123456789};
  for (int i = 0; i < 11; i++) {
    printf("writeNumBytes %zu %s\n", sizes[i], mju_writeNumBytes(sizes[i]));
  }
}

/* box QP and band matrices, once each (more in util_boxqp.c and util_band.c) */
static void solvers(void) {
  mjtNum *res, *R, *H, *g;
  int* index;
  mju_boxQPmalloc(&res, &R, &index, &H, &g, 3, NULL, NULL);
  mjtNum lower[3] = {-1, -0.1, -1}, upper[3] = {1, 1, 0.05};
  mjtNum spd[9] = {4, 1, 0.5, 1, 3, -0.2, 0.5, -0.2, 2};
  mju_copy(H, spd, 9);
  mju_copy(g, A3, 3);
  mju_zero(res, 3);
  printf("boxQP %d\n", mju_boxQP(res, R, index, H, g, 3, lower, upper));
  pv("boxQP_res", res, 3);
  mju_zero(res, 3);
  printf("boxQP_free %d\n", mju_boxQP(res, R, NULL, H, g, 3, NULL, NULL));
  pv("boxQP_free_res", res, 3);
  free(res);
  free(R);
  free(index);
  free(H);
  free(g);

  // band: 5 x 5, band 2, one dense row
  mjtNum dense[25] = {4,   1,    0, 0, 0.5, 1, 5,   -1,  0,   0.2,  0,   -1, 6,
                      0.3, -0.4, 0, 0, 0.3, 3, 0.1, 0.5, 0.2, -0.4, 0.1, 7};
  mjtNum band[13], back[25], out[10], vec[10];
  for (int i = 0; i < 10; i++) {
    vec[i] = V7[i % 7] - 0.1 * i;
  }
  mju_dense2Band(band, dense, 5, 2, 1);
  pv("dense2Band", band, 13);
  mju_band2Dense(back, band, 5, 2, 1, 1);
  pv("band2Dense", back, 25);
  mju_bandMulMatVec(out, band, vec, 5, 2, 1, 2, 1);
  pv("bandMulMatVec", out, 10);
  printf("bandDiag %d %d %d\n", mju_bandDiag(0, 5, 2, 1), mju_bandDiag(3, 5, 2, 1),
         mju_bandDiag(4, 5, 2, 1));
  ps("cholFactorBand", mju_cholFactorBand(band, 5, 2, 1, 0.01, 0.1));
  pv("cholFactorBand_L", band, 13);
  mju_cholSolveBand(out, band, vec, 5, 2, 1);
  pv("cholSolveBand", out, 5);
}

/* finite-difference derivatives on a small model */
static void derivatives(void) {
  const char* xml =
      "<mujoco><option timestep='0.005'/><worldbody><body>"
      "<joint name='j0' type='hinge' axis='0 1 0'/>"
      "<geom type='capsule' size='0.05' fromto='0 0 0 0 0 -0.4'/><body pos='0 0 -0.4'>"
      "<joint name='j1' type='hinge' axis='1 0 0' damping='0.1'/>"
      "<geom type='sphere' size='0.08' pos='0 0 -0.3'/></body></body></worldbody>"
      "<actuator><motor joint='j0' gear='2'/></actuator>"
      "<sensor><jointpos joint='j0'/><jointvel joint='j1'/></sensor></mujoco>";
  FILE* f = fopen("util_all.xml", "w");
  fputs(xml, f);
  fclose(f);
  char err[1000] = "";
  mjModel* m = mj_loadXML("util_all.xml", NULL, err, sizeof(err));
  if (!m) {
    printf("load failed: %s\n", err);
    return;
  }
  mjData* d = mj_makeData(m);
  d->qpos[0] = 0.4;
  d->qpos[1] = -0.7;
  d->qvel[0] = 0.3;
  d->qvel[1] = 1.1;
  d->ctrl[0] = 0.25;
  mj_forward(m, d);
  int nx = 2 * m->nv + m->na, nu = m->nu, ns = m->nsensordata;
  mjtNum A[16], B[4], C[8], D[2];
  mjd_transitionFD(m, d, 1e-6, 1, A, B, C, D);
  pfd("transitionFD_A", A, nx * nx);
  pfd("transitionFD_B", B, nx * nu);
  pfd("transitionFD_C", C, ns * nx);
  pfd("transitionFD_D", D, ns * nu);
  mjtNum DfDq[4], DfDv[4], DfDa[4], DmDq[6];
  mj_inverse(m, d);
  mjd_inverseFD(m, d, 1e-6, 0, DfDq, DfDv, DfDa, NULL, NULL, NULL, DmDq);
  pfd("inverseFD_DfDq", DfDq, 4);
  pfd("inverseFD_DfDv", DfDv, 4);
  pfd("inverseFD_DfDa", DfDa, 4);
  pfd("inverseFD_DmDq", DmDq, 2 * (int)m->nM);
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* branches of the existing functions: large angles, negative traces, degenerate input */
static void branches(void) {
  mjtNum v[7], q[4], r[9];

  // quaternion with negative w (angle beyond pi), and near-identity
  mjtNum qneg[4] = {-0.6, 0.0, 0.8, 0.0};
  mju_quat2Vel(v, qneg, 0.5);
  pv("quat2Vel_neg", v, 3);
  mjtNum qtiny[4] = {1, 1e-9, -2e-9, 0};
  mju_quat2Vel(v, qtiny, 1);
  pv("quat2Vel_tiny", v, 3);
  mju_subQuat(v, qneg, Q1);
  pv("subQuat_neg", v, 3);
  mjtNum axis[3] = {0, 1, 0};
  mju_axisAngle2Quat(q, axis, 0);
  pv("axisAngle2Quat_zero", q, 4);
  mju_axisAngle2Quat(q, axis, -4.0);
  pv("axisAngle2Quat_big", q, 4);

  // mat2Quat: each largest-diagonal branch
  mjtNum axes[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.6, -0.48, 0.64}};
  for (int i = 0; i < 4; i++) {
    mju_axisAngle2Quat(q, axes[i], 2.9);
    mju_quat2Mat(r, q);
    mju_mat2Quat(q, r);
    pv("mat2Quat_branch", q, 4);
  }
  mju_unit4(q);
  mju_quat2Mat(r, q);
  pv("quat2Mat_identity", r, 9);

  // quaternion integration with zero velocity, big step
  mju_copy4(q, Q2);
  mjtNum zero3[3] = {0, 0, 0};
  mju_quatIntegrate(q, zero3, 1);
  pv("quatIntegrate_zero", q, 4);
  mju_copy4(q, Q1);
  mju_quatIntegrate(q, B3, 3.0);
  pv("quatIntegrate_big", q, 4);
  mjtNum up[3] = {0, 0, 3};
  mju_quatZ2Vec(q, up);
  pv("quatZ2Vec_up", q, 4);
  mju_quatZ2Vec(q, zero3);
  pv("quatZ2Vec_zero", q, 4);

  // n-D normalize of zero, mat-vec with empty sizes
  mju_zero(v, 5);
  ps("normalize_zero", mju_normalize(v, 5));
  pv("normalized_zero", v, 5);
  mjtNum big[5] = {1e200, 1e200, 0, 0, 0};
  ps("norm_big", mju_norm(big, 2));
  printf("isBad_inf %d %d\n", mju_isBad(1.0 / 0.0), mju_isBad(-1.0 / 0.0));

  // eigen-decomposition of diagonal and repeated-eigenvalue matrices
  mjtNum diag[9] = {3, 0, 0, 0, 1, 0, 0, 0, 2}, eigval[3], eigvec[9];
  printf("eig3_diag %d\n", mju_eig3(eigval, eigvec, q, diag));
  pv("eigval_diag", eigval, 3);
  mjtNum rep[9] = {2, 1, 0, 1, 2, 0, 0, 0, 3};
  printf("eig3_rep %d\n", mju_eig3(eigval, eigvec, q, rep));
  pv("eigval_rep", eigval, 3);
  pv("eigvec_rep", eigvec, 9);

  // Cholesky solve in place
  mjtNum spd[9] = {4, 1, 0.5, 1, 3, -0.2, 0.5, -0.2, 2};
  mju_cholFactor(spd, 3, 0);
  mju_copy3(v, A3);
  mju_cholSolve(v, spd, v, 3);
  pv("cholSolve_inplace", v, 3);

  // muscles: explicit force, long fibers, fast shortening
  mjtNum lr[2] = {0.2, 0.5};
  mjtNum prm[9] = {0.75, 1.05, 300, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
  ps("muscleGain_force", mju_muscleGain(0.48, -0.9, lr, 3.5, prm));
  ps("muscleBias_long", mju_muscleBias(0.7, lr, 3.5, prm));
  ps("muscleBias_short", mju_muscleBias(0.1, lr, 3.5, prm));
  ps("muscleGainLength_out", mju_muscleGainLength(1.7, 0.5, 1.6));
  ps("springDamper_free", mju_springDamper(0.5, -1.0, 0, 0, 0.3));
  ps("springDamper_spring", mju_springDamper(0.5, -1.0, 9, 0, 0.3));
}

int main(void) {
  vec3();
  vec4();
  vecn();
  matrices();
  sparse();
  rotations();
  spatial();
  scalars();
  strings();
  solvers();
  derivatives();
  branches();
  return 0;
}
