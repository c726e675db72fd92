/* smooth/rne.c — recursive Newton-Euler inverse dynamics in the com-based frame, and the
 * bias force of tendon armature.
 *
 * mj_rne(flg_acc=0) gives the bias force c(q,v) (gravity, Coriolis, centrifugal) that
 * mj_fwdVelocity stores in d->qfrc_bias; with flg_acc=1 it gives M*qacc + c(q,v). Gravity
 * enters as an upward acceleration of the world (unless mjDSBL_GRAVITY). Body accelerations
 * and forces are scratch from the arena; d->cacc/cfrc_* are left to mj_rnePostConstraint.
 *
 * A tendon with armature a adds a*J'J to M (mj_crb) and, since J changes with q, the bias
 * a*J'*(Jdot*qvel) (tn__tendonBias). Only spatial tendons through sites (and pulleys) are
 * handled: MuJoCo's compiler rejects wrapping geoms on tendons with armature, and the MJCF
 * compiler must do the same. */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* forward pass: body accelerations and the forces producing them. The accelerations move
 * as lane pairs (stored and reloaded as such); the force terms are scalar products, kept in
 * scalars to the store (lane-pair loads of scalar stores would stall store forwarding) */
static void rne_forward(const mjModel* m, mjData* d, int flg_acc, mjtNum* cacc, mjtNum* cfrc) {
  // world acceleration: minus gravity
  mju_zero(cacc, 6);
  if (!(m->opt.disableflags & mjDSBL_GRAVITY)) {
    mju_scl3(cacc + 3, m->opt.gravity, -1);
  }

  for (int b = 1; b < m->nbody; b++) {
    int dofadr = m->body_dofadr[b], dofnum = m->body_dofnum[b];
    mjtNum* acc = cacc + 6 * b;
    mjtNum tmp[6];

    // cacc = cacc_parent + cdof_dot * qvel (+ cdof * qacc)
    mul_dof_vec(tmp, d->cdof_dot + 6 * dofadr, d->qvel + dofadr, dofnum);
    copy6(acc, cacc + 6 * m->body_parentid[b]);
    add_to6(acc, tmp);
    if (flg_acc) {
      mul_dof_vec(tmp, d->cdof + 6 * dofadr, d->qacc + dofadr, dofnum);
      add_to6(acc, tmp);
    }

    // cfrc = cinert * cacc + cvel x* (cinert * cvel)
    const mjtNum* cinert = d->cinert + 10 * b;
    const mjtNum* cvel = d->cvel + 6 * b;
    mjtNum frc[6], mom[6], gyro[6];
    tn_mulInertVec(frc, cinert, acc);
    tn_mulInertVec(mom, cinert, cvel);
    tn_crossForce(gyro, cvel, mom);
    for (int k = 0; k < 6; k++) {
      cfrc[6 * b + k] = frc[k] + gyro[k];
    }
  }
}

/* backward pass: each body carries the forces of its descendants (world excluded) */
static void rne_backward(const mjModel* m, mjtNum* cfrc) {
  mju_zero(cfrc, 6);
  for (int b = m->nbody - 1; b > 0; b--) {
    int parent = m->body_parentid[b];
    if (parent > 0) {
      add_to6(cfrc + 6 * parent, cfrc + 6 * b);
    }
  }
}

/* result = M*qacc + c(q,v) (flg_acc=1) or c(q,v) (flg_acc=0) */
void mj_rne(const mjModel* m, mjData* d, int flg_acc, mjtNum* result) {
  mj_markStack(d);
  mjtNum* cacc = mj_stackAllocNum(d, 6 * (size_t)m->nbody);
  mjtNum* cfrc = mj_stackAllocNum(d, 6 * (size_t)m->nbody);
  if (!cacc || !cfrc) {
    mj_freeStack(d);
    return;
  }

  // body accelerations and forces, accumulated towards the roots
  rne_forward(m, d, flg_acc, cacc, cfrc);
  rne_backward(m, cfrc);

  // project on the dofs
  for (int i = 0; i < m->nv; i++) {
    result[i] = mju_dot(d->cdof + 6 * i, cfrc + 6 * m->dof_bodyid[i], 6);
  }

  mj_freeStack(d);
}

/* velocity-product acceleration (qacc = 0, no gravity) of every body: sum of cdof_dot*qvel
 * along the chain to the root */
static void bias_body_acc(const mjModel* m, const mjData* d, mjtNum* acc) {
  mju_zero(acc, 6);
  for (int b = 1; b < m->nbody; b++) {
    int dofadr = m->body_dofadr[b], dofnum = m->body_dofnum[b];
    mjtNum tmp[6];
    mul_dof_vec(tmp, d->cdof_dot + 6 * dofadr, d->qvel + dofadr, dofnum);
    copy6(acc + 6 * b, acc + 6 * m->body_parentid[b]);
    add_to6(acc + 6 * b, tmp);
  }
}

/* velocity and velocity-product acceleration of a global point p on body b:
 * v = v_c + w x (p-c), a = A_lin + A_rot x (p-c) + w x v, with c the tree's com */
static void bias_point(const mjModel* m, const mjData* d, const mjtNum* acc, int b,
                       const mjtNum p[3], mjtNum vel[3], mjtNum pacc[3]) {
  const mjtNum* cvel = d->cvel + 6 * b;
  const mjtNum* A = acc + 6 * b;
  mjtNum r[3], tmp[3];
  mju_sub3(r, p, d->subtree_com + 3 * m->body_rootid[b]);

  // velocity
  mju_cross(tmp, cvel, r);
  mju_add3(vel, cvel + 3, tmp);

  // acceleration
  mju_cross(tmp, A, r);
  mju_add3(pacc, A + 3, tmp);
  mju_cross(tmp, cvel, vel);
  mju_addTo3(pacc, tmp);
}

/* d/dt(dL/dt) - J*qacc of the straight segment between sites s0 and s1 */
static mjtNum bias_segment(const mjModel* m, const mjData* d, const mjtNum* acc, int s0, int s1) {
  mjtNum dp[3], v0[3], v1[3], a0[3], a1[3], dv[3], da[3];
  mju_sub3(dp, d->site_xpos + 3 * s1, d->site_xpos + 3 * s0);
  mjtNum len = mju_norm3(dp);
  if (len < mjMINVAL) {
    return 0;
  }

  // relative velocity and velocity-product acceleration of the end points
  bias_point(m, d, acc, m->site_bodyid[s0], d->site_xpos + 3 * s0, v0, a0);
  bias_point(m, d, acc, m->site_bodyid[s1], d->site_xpos + 3 * s1, v1, a1);
  mju_sub3(dv, v1, v0);
  mju_sub3(da, a1, a0);

  // rotation of the unit direction (perpendicular velocity) plus its acceleration
  mjtNum u[3] = {dp[0] / len, dp[1] / len, dp[2] / len};
  mjtNum along = mju_dot3(u, dv);
  return (mju_dot3(dv, dv) - along * along) / len + mju_dot3(u, da);
}

/* Jdot*qvel of tendon t: its site-to-site segments, each divided by the active pulley
 * divisor */
static mjtNum bias_tendon_jdot(const mjModel* m, const mjData* d, const mjtNum* acc, int t) {
  int adr = m->tendon_adr[t], num = m->tendon_num[t];
  mjtNum divisor = 1, jdot = 0;
  for (int k = adr; k < adr + num - 1; k++) {
    // a pulley starts a new branch with its own divisor
    if (m->wrap_type[k] == mjWRAP_PULLEY) {
      divisor = m->wrap_prm[k];
      continue;
    }
    if (m->wrap_type[k] == mjWRAP_SITE && m->wrap_type[k + 1] == mjWRAP_SITE) {
      jdot += bias_segment(m, d, acc, m->wrap_objid[k], m->wrap_objid[k + 1]) / divisor;
    }
  }
  return jdot;
}

/* qfrc += armature * J' * (Jdot*qvel) for every spatial tendon with armature */
void tn__tendonBias(const mjModel* m, mjData* d, mjtNum* qfrc) {
  // anything to do?
  int any = 0;
  for (int t = 0; t < m->ntendon && !any; t++) {
    any = m->tendon_armature[t] != 0 && m->tendon_num[t] > 0 &&
          m->wrap_type[m->tendon_adr[t]] != mjWRAP_JOINT;
  }
  if (!any) {
    return;
  }

  mj_markStack(d);
  mjtNum* acc = mj_stackAllocNum(d, 6 * (size_t)m->nbody);
  if (!acc) {
    mj_freeStack(d);
    return;
  }
  bias_body_acc(m, d, acc);

  // each spatial tendon with armature
  for (int t = 0; t < m->ntendon; t++) {
    if (m->tendon_armature[t] == 0 || m->tendon_num[t] == 0 ||
        m->wrap_type[m->tendon_adr[t]] == mjWRAP_JOINT) {
      continue;
    }
    mjtNum coef = m->tendon_armature[t] * bias_tendon_jdot(m, d, acc, t);
    if (coef != 0) {
      // on the row's pattern (a repeated column adds its zero entry)
      int adr = m->ten_J_rowadr[t];
      for (int k = adr; k < adr + m->ten_J_rownnz[t]; k++) {
        qfrc[m->ten_J_colind[k]] += d->ten_J[k] * coef;
      }
    }
  }

  mj_freeStack(d);
}
