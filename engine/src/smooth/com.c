/* smooth/com.c — com-based quantities: subtree centers of mass, body inertias (cinert) and
 * motion dofs (cdof), all in the global orientation with the origin at the center of mass
 * of each body's kinematic tree (subtree_com of body_rootid).
 *
 * Working about the tree's com rather than the world origin keeps the spatial algebra of
 * mj_crb, mj_rne and mj_comVel accurate far from the origin. */
#include <torsion/torsion.h>

#include "util/util_inline.h"

/* subtree mass-weighted positions: each body's own, the children's sums added into their
 * parents from the last body back (divided by the subtree mass in mj_comPos's body pass) */
static void com_subtree_sums(const mjModel* m, mjData* d) {
  for (int b = 0; b < m->nbody; b++) {
    mju_scl3(d->subtree_com + 3 * b, d->xipos + 3 * b, m->body_mass[b]);
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    mju_addTo3(d->subtree_com + 3 * m->body_parentid[b], d->subtree_com + 3 * b);
  }
}

/* subtree center of mass of body b from its mass-weighted sum, divided by the compiled
 * subtree mass (MuJoCo's order of operations); a massless subtree sits at the body's
 * inertial frame */
static inline void com_subtree_finish(const mjModel* m, mjData* d, int b) {
  mjtNum* com = d->subtree_com + 3 * b;
  if (m->body_subtreemass[b] < mjMINVAL) {
    mju_copy3(com, d->xipos + 3 * b);
  } else {
    mju_scl3(com, com, 1.0 / m->body_subtreemass[b]);
  }
}

/* com-based inertia of body b, about its tree's center of mass */
static inline void com_inertia(const mjModel* m, mjData* d, int b) {
  mjtNum offset[3];
  mju_sub3(offset, d->xipos + 3 * b, d->subtree_com + 3 * m->body_rootid[b]);
  tn_inertCom(d->cinert + 10 * b, m->body_inertia + 3 * b, d->ximat + 9 * b, offset,
              m->body_mass[b]);
}

/* com-based motion dofs of joint j */
static void com_joint_dofs(const mjModel* m, mjData* d, int j) {
  int body = m->jnt_bodyid[j];
  mjtNum* cdof = d->cdof + 6 * m->jnt_dofadr[j];
  const mjtNum* xmat = d->xmat + 9 * body;
  mjtNum offset[3];

  // vector from the joint anchor to the tree's com
  mju_sub3(offset, d->subtree_com + 3 * m->body_rootid[body], d->xanchor + 3 * j);

  switch (m->jnt_type[j]) {
    // free: translations along the world axes, then rotations as for a ball joint
    case mjJNT_FREE:
      // (stored pairwise: a memset call for 18 numbers costs more than the stores)
      for (int k = 0; k < 18; k += 2) {
        *(tn_vec2*)(cdof + k) = (tn_vec2){0, 0};
      }
      cdof[3] = cdof[6 + 4] = cdof[12 + 5] = 1;
      cdof += 18;
      // fall through

    // ball: rotations about the body frame's axes (columns of xmat)
    case mjJNT_BALL:
      for (int k = 0; k < 3; k++) {
        mjtNum axis[3] = {xmat[k], xmat[k + 3], xmat[k + 6]};
        tn_dofCom(cdof + 6 * k, axis, offset);
      }
      break;

    // slide: translation along the axis
    case mjJNT_SLIDE: tn_dofCom(cdof, d->xaxis + 3 * j, NULL); break;

    // hinge: rotation about the axis through the anchor
    default: tn_dofCom(cdof, d->xaxis + 3 * j, offset); break;
  }
}

/* subtree_com, cinert and cdof: after the backward sums, one forward pass over the bodies
 * finishes each body's center of mass and then its inertia, which needs only the com of the
 * tree's root (body_rootid <= the body, so already final); then the joints' motion dofs */
void mj_comPos(const mjModel* m, mjData* d) {
  com_subtree_sums(m, d);
  com_subtree_finish(m, d, 0);
  for (int b = 1; b < m->nbody; b++) {
    com_subtree_finish(m, d, b);
    com_inertia(m, d, b);
  }
  for (int j = 0; j < m->njnt; j++) {
    com_joint_dofs(m, d, j);
  }
}
