/* smooth/jac_more.c — the rest of MuJoCo's Jacobian family and Cartesian helpers: the
 * Jacobian of a subtree's center of mass, of a point with the rotation of an axis, the
 * time derivative of a point's Jacobian, the subtree angular momentum matrix, forces
 * applied at a point (mj_applyFT) and the local-to-global frame map (mj_local2Global).
 *
 * All of them walk the dof chain of a body (tn__bodyLastDof, dof_parentid) as mj_jac does;
 * the columns of the dofs off the chain are zero. */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* 1 when body b belongs to the subtree rooted at `root` (bodies are in depth-first order,
 * so the subtree is the run of bodies after root whose parents are >= root) */
static int in_subtree_run(const mjModel* m, int root, int b) {
  return b == root || m->body_parentid[b] >= root;
}

/* translational Jacobian of the subtree com: mass-weighted sum of the body com Jacobians,
 * divided by the subtree mass */
void mj_jacSubtreeCom(const mjModel* m, mjData* d, mjtNum* jacp, int body) {
  int nv = m->nv;
  mju_zero(jacp, 3 * nv);

  // accumulate each body of the subtree, column by column along its chain
  for (int b = body; b < m->nbody && in_subtree_run(m, body, b); b++) {
    mjtNum offset[3], vel[3], mass = m->body_mass[b];
    mju_sub3(offset, d->xipos + 3 * b, d->subtree_com + 3 * m->body_rootid[b]);
    for (int i = tn__bodyLastDof(m, b); i >= 0; i = m->dof_parentid[i]) {
      dof_point_vel(vel, d->cdof + 6 * i, offset);
      jacp[i] += vel[0] * mass;
      jacp[i + nv] += vel[1] * mass;
      jacp[i + 2 * nv] += vel[2] * mass;
    }
  }

  // normalize by the subtree mass
  mju_scl(jacp, jacp, 1 / m->body_subtreemass[body], 3 * nv);
}

/* translational Jacobian of a point and rotational Jacobian of an axis: column i of
 * jacAxis is jacr_i x axis */
void mj_jacPointAxis(const mjModel* m, mjData* d, mjtNum* jacPoint, mjtNum* jacAxis,
                     const mjtNum point[3], const mjtNum axis[3], int body) {
  int nv = m->nv;
  mj_markStack(d);
  mjtNum* jacp = jacPoint ? jacPoint : mj_stackAllocNum(d, 3 * (size_t)nv + 1);
  mjtNum* jacr = mj_stackAllocNum(d, 3 * (size_t)nv + 1);
  mj_jac(m, d, jacp, jacr, point, body);

  // the axis turns with the rotational velocity of each dof
  if (jacAxis) {
    for (int i = 0; i < nv; i++) {
      mjtNum w[3] = {jacr[i], jacr[nv + i], jacr[2 * nv + i]};
      jacAxis[i] = w[1] * axis[2] - w[2] * axis[1];
      jacAxis[nv + i] = w[2] * axis[0] - w[0] * axis[2];
      jacAxis[2 * nv + i] = w[0] * axis[1] - w[1] * axis[0];
    }
  }
  mj_freeStack(d);
}

/* time derivative of the point Jacobian: with cdof_dot the derivative of each dof's motion
 * axis (recomputed from the body velocity for quaternion dofs, whose stored cdof_dot uses
 * the parent's), jacr_dot = the angular part of cdof_dot and jacp_dot = its linear part +
 * w_dot x (p - c) + w x v_p, v_p the point's linear velocity */
void mj_jacDot(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, const mjtNum point[3],
               int body) {
  int nv = m->nv;
  mjtNum offset[3], pvel[6];

  // clear; the point's offset from the tree's com and its velocity
  if (jacp) {
    const mjtNum* com = d->subtree_com + 3 * m->body_rootid[body];
    mju_zero(jacp, 3 * nv);
    mju_sub3(offset, point, com);
    mju_transformSpatial(pvel, d->cvel + 6 * body, 0, point, com, NULL);
  }
  if (jacr) {
    mju_zero(jacr, 3 * nv);
  }

  // walk the dof chain
  for (int i = tn__bodyLastDof(m, body); i >= 0; i = m->dof_parentid[i]) {
    const mjtNum* cdof = d->cdof + 6 * i;
    mjtNum cdof_dot[6];
    copy6(cdof_dot, d->cdof_dot + 6 * i);

    // ball joints and the rotational dofs of free joints: derivative with the body velocity
    int jnt = m->dof_jntid[i];
    int type = m->jnt_type[jnt];
    if (type == mjJNT_BALL || (type == mjJNT_FREE && i >= m->jnt_dofadr[jnt] + 3)) {
      tn_crossMotion(cdof_dot, d->cvel + 6 * m->dof_bodyid[i], cdof);
    }

    // rotation
    if (jacr) {
      jacr[i] += cdof_dot[0];
      jacr[i + nv] += cdof_dot[1];
      jacr[i + 2 * nv] += cdof_dot[2];
    }

    // translation: changing axis, and the point moving along it
    if (jacp) {
      mjtNum t1[3], t2[3];
      mju_cross(t1, cdof_dot, offset);
      mju_cross(t2, cdof, pvel + 3);
      jacp[i] += cdof_dot[3] + t1[0] + t2[0];
      jacp[i + nv] += cdof_dot[4] + t1[1] + t2[1];
      jacp[i + 2 * nv] += cdof_dot[5] + t1[2] + t2[2];
    }
  }
}

/* 3 x nv matrix H with subtree angular momentum (about the subtree com) = H qvel: for each
 * body of the subtree, its rotational inertia in world axes times jacr, plus mass times
 * (body com - subtree com) x jacp */
void mj_angmomMat(const mjModel* m, mjData* d, mjtNum* mat, int body) {
  int nv = m->nv;
  mj_markStack(d);
  mjtNum* jacp = mj_stackAllocNum(d, 3 * (size_t)nv + 1);
  mjtNum* jacr = mj_stackAllocNum(d, 3 * (size_t)nv + 1);
  mjtNum* term = mj_stackAllocNum(d, 3 * (size_t)nv + 1);
  mju_zero(mat, 3 * nv);

  const mjtNum* center = d->subtree_com + 3 * body;
  for (int b = body; b < m->nbody && in_subtree_run(m, body, b); b++) {
    mj_jacBodyCom(m, d, jacp, jacr, b);

    // world-frame rotational inertia: ximat * diag(inertia) * ximat'
    const mjtNum* R = d->ximat + 9 * b;
    const mjtNum* I = m->body_inertia + 3 * b;
    mjtNum RI[9], inertia[9];
    for (int r = 0; r < 3; r++) {
      for (int c = 0; c < 3; c++) {
        RI[3 * r + c] = R[3 * r + c] * I[c];
      }
    }
    mju_mulMatMatT(inertia, RI, R, 3, 3, 3);

    // spin of the body about its own com
    mju_mulMatMat(term, inertia, jacr, 3, 3, nv);
    mju_addTo(mat, term, 3 * nv);

    // moment of the body's linear momentum about the subtree com
    mjtNum com[3];
    mju_sub3(com, d->xipos + 3 * b, center);
    mjtNum skew[9] = {0, -com[2], com[1], com[2], 0, -com[0], -com[1], com[0], 0};
    mju_mulMatMat(term, skew, jacp, 3, 3, nv);
    mju_scl(term, term, m->body_mass[b], 3 * nv);
    mju_addTo(mat, term, 3 * nv);
  }
  mj_freeStack(d);
}

/* qfrc_target += jacp' force + jacr' torque of a point on a body (force, torque nullable) */
void mj_applyFT(const mjModel* m, mjData* d, const mjtNum force[3], const mjtNum torque[3],
                const mjtNum point[3], int body, mjtNum* qfrc_target) {
  if (body < 0 || body >= m->nbody) {
    mju_error("mj_applyFT: invalid body %d", body);
    return;
  }
  tn__jacApplyFT(m, d, force, torque, point, body, qfrc_target);
}

/* global pose of a frame given in a body's local coordinates (mjtSameFrame shortcuts) */
void mj_local2Global(mjData* d, mjtNum xpos[3], mjtNum xmat[9], const mjtNum pos[3],
                     const mjtNum quat[4], int body, mjtByte sameframe) {
  tn__local2Global(d, xpos, xmat, pos, quat, body, sameframe);
}
