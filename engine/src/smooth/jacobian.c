/* smooth/jacobian.c — Jacobians of points on bodies, and Cartesian forces mapped to joint
 * space with them (xfrc_applied).
 *
 * Column i of a point's Jacobian is the velocity of the point due to unit velocity of dof
 * i: with cdof_i = (w, v) about the tree's com c, jacr = w and jacp = v + w x (p - c). Only
 * the dofs on the chain from the body to its root are non-zero; they are visited by walking
 * dof_parentid from the body's last dof (bodies without dofs defer to their parent). */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* last dof that moves body (or -1), skipping ancestors without dofs */
int tn__bodyLastDof(const mjModel* m, int body) {
  while (body > 0 && m->body_dofnum[body] == 0) {
    body = m->body_parentid[body];
  }
  return body > 0 ? m->body_dofadr[body] + m->body_dofnum[body] - 1 : -1;
}

/* 1 if the trees' dofs are consecutive and cover all dofs in tree order (they are, as
 * compiled; checked before a kernel relies on it) */
int tn__treesInOrder(const mjModel* m) {
  int next = 0;
  for (int t = 0; t < m->ntree && next >= 0; t++) {
    next = m->tree_dofadr[t] == next ? next + m->tree_dofnum[t] : -1;
  }
  return next == m->nv;
}

/* 1 if tree t hangs from a free joint with dofs after it: its first dof begins a free
 * joint (at the tree's root body), so every later dof of the tree has the joint's six dofs
 * r..r+5 as its first six ancestors, the first six columns of its row of M */
int tn__freeRooted(const mjModel* m, int t) {
  int r = m->tree_dofadr[t];
  return m->tree_dofnum[t] > 6 && m->jnt_type[m->dof_jntid[r]] == mjJNT_FREE &&
         m->jnt_dofadr[m->dof_jntid[r]] == r;
}

/* translational and rotational Jacobians (3 x nv) of a global point on a body */
void mj_jac(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, const mjtNum point[3],
            int body) {
  int nv = m->nv;
  mjtNum offset[3], vel[3];

  // clear
  if (jacp) {
    mju_zero(jacp, 3 * nv);
  }
  if (jacr) {
    mju_zero(jacr, 3 * nv);
  }

  // point relative to the tree's com
  mju_sub3(offset, point, d->subtree_com + 3 * m->body_rootid[body]);

  // walk the dof chain towards the root
  for (int i = tn__bodyLastDof(m, body); i >= 0; i = m->dof_parentid[i]) {
    const mjtNum* cdof = d->cdof + 6 * i;

    // rotation: the dof's angular velocity
    if (jacr) {
      jacr[i] = cdof[0];
      jacr[i + nv] = cdof[1];
      jacr[i + 2 * nv] = cdof[2];
    }

    // translation: linear velocity at the com, corrected for rotation about it
    if (jacp) {
      dof_point_vel(vel, cdof, offset);
      jacp[i] = vel[0];
      jacp[i + nv] = vel[1];
      jacp[i + 2 * nv] = vel[2];
    }
  }
}

/* J += scale * dir' (jacp(p1 on b1) - jacp(p0 on b0)) over the dofs of the two bodies'
 * chains (the union, walked from the last dof by merging the descending chains); every
 * other column of that difference is zero. Each column is formed with the operations of the
 * dense route (mj_jac twice, their difference, its product with dir skipping zero entries
 * of dir, then scaled into J), so J comes out bitwise the same. */
void tn__jacSegmentAdd(const mjModel* m, const mjData* d, mjtNum* J, const mjtNum dir[3],
                       const mjtNum p0[3], int b0, const mjtNum p1[3], int b1, mjtNum scale) {
  mjtNum off0[3], off1[3];
  mju_sub3(off0, p0, d->subtree_com + 3 * m->body_rootid[b0]);
  mju_sub3(off1, p1, d->subtree_com + 3 * m->body_rootid[b1]);

  // merge the two chains: the larger dof first (parents have smaller indices)
  int i0 = tn__bodyLastDof(m, b0), i1 = tn__bodyLastDof(m, b1);
  while (i0 >= 0 || i1 >= 0) {
    int c = i0 > i1 ? i0 : i1;
    const mjtNum* cdof = d->cdof + 6 * c;
    mjtNum j0[3] = {0, 0, 0}, j1[3] = {0, 0, 0};

    // the two point Jacobians' columns (zero off a chain)
    if (c == i0) {
      dof_point_vel(j0, cdof, off0);
      i0 = m->dof_parentid[i0];
    }
    if (c == i1) {
      dof_point_vel(j1, cdof, off1);
      i1 = m->dof_parentid[i1];
    }

    // projection of the difference on dir, then into J
    mjtNum g = 0;
    for (int r = 0; r < 3; r++) {
      if (dir[r] != 0) {
        g += (j1[r] - j0[r]) * dir[r];
      }
    }
    J[c] += g * scale;
  }
}

/* Jacobian of the body frame's origin */
void mj_jacBody(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body) {
  mj_jac(m, d, jacp, jacr, d->xpos + 3 * body, body);
}

/* Jacobian of the body's center of mass */
void mj_jacBodyCom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body) {
  mj_jac(m, d, jacp, jacr, d->xipos + 3 * body, body);
}

/* Jacobian of a site */
void mj_jacSite(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int site) {
  mj_jac(m, d, jacp, jacr, d->site_xpos + 3 * site, m->site_bodyid[site]);
}

/* Jacobian of a geom's center */
void mj_jacGeom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int geom) {
  mj_jac(m, d, jacp, jacr, d->geom_xpos + 3 * geom, m->geom_bodyid[geom]);
}

/* qfrc += jacp' force + jacr' torque (either may be NULL), visiting only the dofs on the
 * body's chain; the sums run in the same order as a dense J'*f product */
void tn__jacApplyFT(const mjModel* m, const mjData* d, const mjtNum force[3],
                    const mjtNum torque[3], const mjtNum point[3], int body, mjtNum* qfrc) {
  mjtNum offset[3], jp[3];
  mju_sub3(offset, point, d->subtree_com + 3 * m->body_rootid[body]);

  for (int i = tn__bodyLastDof(m, body); i >= 0; i = m->dof_parentid[i]) {
    const mjtNum* cdof = d->cdof + 6 * i;

    // force through this dof's column of jacp
    if (force) {
      dof_point_vel(jp, cdof, offset);
      qfrc[i] += jp[0] * force[0] + jp[1] * force[1] + jp[2] * force[2];
    }

    // torque through its column of jacr
    if (torque) {
      qfrc[i] += cdof[0] * torque[0] + cdof[1] * torque[1] + cdof[2] * torque[2];
    }
  }
}

/* map every non-zero xfrc_applied (force, torque at the body com) to joint space */
void tn__xfrcAccumulate(const mjModel* m, const mjData* d, mjtNum* qfrc) {
  for (int b = 1; b < m->nbody; b++) {
    const mjtNum* xfrc = d->xfrc_applied + 6 * b;
    if (!mju_isZero(xfrc, 6)) {
      tn__jacApplyFT(m, d, xfrc, xfrc + 3, d->xipos + 3 * b, b, qfrc);
    }
  }
}
