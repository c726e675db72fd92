/* smooth/smooth.h — internal interface of the smooth multi-body dynamics core.
 *
 * The public stages (mj_kinematics, mj_comPos, mj_crb, mj_factorM, mj_rne, mj_jac*, ...)
 * are declared in torsion.h. This header adds the building blocks other engine modules
 * share: the local-to-global frame map with MuJoCo's "sameframe" shortcuts, the sparse
 * L'DL factorization and solve of any matrix with M's CSR layout (used for d->qLD and the
 * Euler integrator's d->qH), and the mapping of Cartesian forces to joint space. */
#ifndef TORSION_SMOOTH_H
#define TORSION_SMOOTH_H

#include <torsion/torsion.h>

#include "util/util_inline.h"

/* how a child frame relates to its body's frames (values of MuJoCo's mjtSameFrame) */
enum {
  tnSAMEFRAME_NONE = 0,  /* general pose */
  tnSAMEFRAME_BODY,      /* same as the body frame */
  tnSAMEFRAME_INERTIA,   /* same as the body's inertial frame */
  tnSAMEFRAME_BODYROT,   /* same orientation as the body frame */
  tnSAMEFRAME_INERTIAROT /* same orientation as the body's inertial frame */
};

/* Global pose of a frame given in body `body`'s local coordinates: xpos = xmat*pos + body
 * position, xmat = rotation of (xquat*quat). Either output may be NULL (then its input is
 * ignored). `sameframe` (tnSAMEFRAME_*) allows copying the body's pose instead. */
void tn__local2Global(mjData* d, mjtNum xpos[3], mjtNum xmat[9], const mjtNum pos[3],
                      const mjtNum quat[4], int body, int sameframe);

/* Sparse L'DL factorization in place of a symmetric positive definite matrix `mat` with
 * M's CSR layout (m->M_rownnz/M_rowadr/M_colind). On return the off-diagonal slots hold L
 * (unit lower triangular), the diagonal slots D, and diaginv = 1/D. A diagonal below
 * mjMINVAL is clamped and reported as mjWARN_INERTIA. */
void tn__factorLD(const mjModel* m, mjData* d, mjtNum* mat, mjtNum* diaginv);

/* Solve (L'DL) x = x in place for n vectors of length nv, given a factor from tn__factorLD. */
void tn__solveLD(const mjModel* m, mjtNum* x, int n, const mjtNum* qLD, const mjtNum* diaginv);

/* qfrc += J' * [force; torque] for a force and torque (either may be NULL) applied at
 * global `point` on `body` (J: the point's Jacobians, see mj_jac). Walks only the body's
 * dof chain: no scratch memory, O(depth) work. */
void tn__jacApplyFT(const mjModel* m, const mjData* d, const mjtNum force[3],
                    const mjtNum torque[3], const mjtNum point[3], int body, mjtNum* qfrc);

/* J (nv) += scale * dir' (jacp(p1 on b1) - jacp(p0 on b0)): a tendon segment's Jacobian
 * row, over the two bodies' dof chains only (bitwise as the dense difference of mj_jac). */
void tn__jacSegmentAdd(const mjModel* m, const mjData* d, mjtNum* J, const mjtNum dir[3],
                       const mjtNum p0[3], int b0, const mjtNum p1[3], int b1, mjtNum scale);

/* qfrc += the joint-space image of every body's d->xfrc_applied (at the body's com). */
void tn__xfrcAccumulate(const mjModel* m, const mjData* d, mjtNum* qfrc);

/* M += tendon armature: for each tendon k, armature_k * ten_J[k]' ten_J[k] restricted to
 * M's sparsity pattern (called by mj_crb after the tendon Jacobians are known). */
void tn__tendonArmature(const mjModel* m, mjData* d);

/* qfrc += armature * J' * (Jdot*qvel) for every spatial tendon with armature (the bias
 * force that goes with the tendon armature added to M; after mj_rne in mj_fwdVelocity). */
void tn__tendonBias(const mjModel* m, mjData* d, mjtNum* qfrc);

/* The distinct dofs of tendon t's Jacobian pattern: the dofs of a fixed tendon's joints
 * (once each), or every dof moving a body on a spatial tendon's path (MuJoCo's
 * ten_J_colind row), ascending. Writes them to cols (room for nv) and returns their count;
 * mark: nv ints, zero on entry and again on return. */
int tn__tendonPattern(const mjModel* m, int t, int* cols, int* mark);

/* Tendon t's Jacobian as a dense row of nv (from the sparse d->ten_J on the model's
 * pattern; a dof listed twice in a fixed tendon takes its first entry, which holds the
 * sum, as in MuJoCo). */
void tn__tendonRowDense(const mjModel* m, const mjData* d, int t, mjtNum* row);

/* The most non-zeros actuator i's row of d->actuator_moment can have (MuJoCo's nJmom is
 * their sum over actuators): 1, 3 or 6 for joints, the tendon's ten_J_rownnz, the dofs moving a
 * slider-crank's two sites or a site (less those moving the site and its refsite
 * together), nv for bodies. cols and mark as for tn__tendonPattern. */
int tn__momentBound(const mjModel* m, int i, int* cols, int* mark);

/* ---- small fixed-size helpers for the hot loops (no calls; the same order of floating-point
 * operations as the corresponding mju_ functions, so results are identical) ---- */

/* last dof that moves body (or -1), skipping ancestors without dofs */
int tn__bodyLastDof(const mjModel* m, int body);

/* 1 if the kinematic trees' dofs are consecutive and cover all dofs in tree order */
int tn__treesInOrder(const mjModel* m);

/* 1 if tree t hangs from a free joint and has dofs below it: every row of M after the
 * joint's own six (dofs tree_dofadr .. +5) has those six as its first six columns */
int tn__freeRooted(const mjModel* m, int t);

/* velocity of a point moved by one dof: the dof's column of the point's translational
 * Jacobian, v + w x offset with cdof = (w, v) and offset the point relative to the tree's com */
static inline void dof_point_vel(mjtNum res[3], const mjtNum cdof[6], const mjtNum offset[3]) {
  mjtNum w_x_offset[3];
  mju_cross(w_x_offset, cdof, offset);
  res[0] = cdof[3] + w_x_offset[0];
  res[1] = cdof[4] + w_x_offset[1];
  res[2] = cdof[5] + w_x_offset[2];
}

/* res = v (6 numbers, as three lane pairs; all loads before the stores) */
static inline void copy6(mjtNum res[6], const mjtNum v[6]) {
  tn_vec2 v0 = *(const tn_vec2*)v, v1 = *(const tn_vec2*)(v + 2), v2 = *(const tn_vec2*)(v + 4);
  *(tn_vec2*)res = v0;
  *(tn_vec2*)(res + 2) = v1;
  *(tn_vec2*)(res + 4) = v2;
}

/* res += v (6 numbers, as three lane pairs; all loads before the stores) */
static inline void add_to6(mjtNum res[6], const mjtNum v[6]) {
  tn_vec2 v0 = *(const tn_vec2*)v, v1 = *(const tn_vec2*)(v + 2), v2 = *(const tn_vec2*)(v + 4);
  *(tn_vec2*)res += v0;
  *(tn_vec2*)(res + 2) += v1;
  *(tn_vec2*)(res + 4) += v2;
}

/* res = v (9 numbers) */
static inline void copy9(mjtNum res[9], const mjtNum v[9]) {
  for (int k = 0; k < 9; k++) {
    res[k] = v[k];
  }
}

/* res = sum over n consecutive 6D dofs of dof[i]*vec[i], accumulated in dof order (as
 * tn_mulDofVec); zero when n = 0 */
static inline void mul_dof_vec(mjtNum res[6], const mjtNum* dof, const mjtNum* vec, int n) {
  if (n <= 0) {
    for (int k = 0; k < 6; k++) {
      res[k] = 0;
    }
    return;
  }

  // three lane pairs, each accumulated in dof order
  tn_vec2 r0 = *(const tn_vec2*)dof * vec[0];
  tn_vec2 r1 = *(const tn_vec2*)(dof + 2) * vec[0];
  tn_vec2 r2 = *(const tn_vec2*)(dof + 4) * vec[0];
  for (int i = 1; i < n; i++) {
    const mjtNum* d = dof + 6 * i;
    r0 += *(const tn_vec2*)d * vec[i];
    r1 += *(const tn_vec2*)(d + 2) * vec[i];
    r2 += *(const tn_vec2*)(d + 4) * vec[i];
  }
  *(tn_vec2*)res = r0;
  *(tn_vec2*)(res + 2) = r1;
  *(tn_vec2*)(res + 4) = r2;
}

/* mul_dof_vec in scalars only (the same sums, element by element): for a running 6D
 * vector the compiler keeps in registers, where lane-pair stores read back as scalars (or
 * the reverse) would stall store forwarding */
static inline void mul_dof_vec_scalar(mjtNum res[6], const mjtNum* dof, const mjtNum* vec, int n) {
  for (int k = 0; k < 6; k++) {
    mjtNum sum = 0;
    if (n > 0) {
      sum = dof[k] * vec[0];
      for (int i = 1; i < n; i++) {
        sum += dof[6 * i + k] * vec[i];
      }
    }
    res[k] = sum;
  }
}

#endif /* TORSION_SMOOTH_H */
