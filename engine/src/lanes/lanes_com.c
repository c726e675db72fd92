/* lanes/lanes_com.c — mj_comPos for TN_LANES datas at once: subtree centers of mass, body
 * inertias about their tree's center of mass (cinert) and the motion dofs (cdof), each lane
 * doing smooth/com.c's operations in its order (util_inline.h's tn_inertCom and tn_dofCom
 * written out for lanes). Every branch there depends on the model only. */
#include <torsion/torsion.h>

#include "lanes/lanes.h"
#include "util/util_inline.h"

/* cinert of body b (tn_inertCom's expressions) */
static inline void inert_com(const mjModel* m, tnPosLanes* w, int b, const tnLane dif[3]) {
  const mjtNum* inert = m->body_inertia + 3 * b;
  mjtNum mass = m->body_mass[b];
  const tnLane* r0 = w->ximat + 9 * b;
  const tnLane* r1 = r0 + 3;
  const tnLane* r2 = r0 + 6;
  tnLane* res = w->cinert + 10 * b;

  // rotated inertia
  tnLane t0[3] = {r0[0] * inert[0], r0[1] * inert[1], r0[2] * inert[2]};
  tnLane t1[3] = {r1[0] * inert[0], r1[1] * inert[1], r1[2] * inert[2]};
  tnLane t2[3] = {r2[0] * inert[0], r2[1] * inert[1], r2[2] * inert[2]};
  tnLane i00 = r0[0] * t0[0] + r0[1] * t0[1] + r0[2] * t0[2];
  tnLane i11 = r1[0] * t1[0] + r1[1] * t1[1] + r1[2] * t1[2];
  tnLane i22 = r2[0] * t2[0] + r2[1] * t2[1] + r2[2] * t2[2];
  tnLane i01 = r0[0] * t1[0] + r0[1] * t1[1] + r0[2] * t1[2];
  tnLane i02 = r0[0] * t2[0] + r0[1] * t2[1] + r0[2] * t2[2];
  tnLane i12 = r1[0] * t2[0] + r1[1] * t2[1] + r1[2] * t2[2];

  // parallel-axis term, first moment, mass
  tnLane d0 = dif[0], d1 = dif[1], d2 = dif[2];
  res[0] = i00 + mass * (d1 * d1 + d2 * d2);
  res[1] = i11 + mass * (d0 * d0 + d2 * d2);
  res[2] = i22 + mass * (d0 * d0 + d1 * d1);
  res[3] = i01 - mass * d0 * d1;
  res[4] = i02 - mass * d0 * d2;
  res[5] = i12 - mass * d1 * d2;
  res[6] = d0 * mass;
  res[7] = d1 * mass;
  res[8] = d2 * mass;
  res[9] = (tnLane){mass, mass, mass, mass};
}

/* a rotational dof about `axis` through a point at `offset` from the com (tn_dofCom) */
static inline void dof_rotation(tnLane res[6], const tnLane axis[3], const tnLane offset[3]) {
  tnLane r0 = axis[1] * offset[2] - axis[2] * offset[1];
  tnLane r1 = axis[2] * offset[0] - axis[0] * offset[2];
  tnLane r2 = axis[0] * offset[1] - axis[1] * offset[0];
  res[0] = axis[0];
  res[1] = axis[1];
  res[2] = axis[2];
  res[3] = r0;
  res[4] = r1;
  res[5] = r2;
}

/* the motion dofs of joint j (smooth/com.c's com_joint_dofs) */
static inline void joint_dofs(const mjModel* m, tnPosLanes* w, int j) {
  const tnLane zero = {0, 0, 0, 0}, one = {1, 1, 1, 1};
  int body = m->jnt_bodyid[j];
  tnLane* cdof = w->cdof + 6 * m->jnt_dofadr[j];
  const tnLane* xmat = w->xmat + 9 * body;
  const tnLane* com = w->subtree_com + 3 * m->body_rootid[body];
  tnLane offset[3];
  for (int k = 0; k < 3; k++) {
    offset[k] = com[k] - w->xanchor[3 * j + k];
  }

  switch (m->jnt_type[j]) {
    // free: translations along the world axes, then rotations as for a ball joint
    case mjJNT_FREE:
      for (int k = 0; k < 18; k++) {
        cdof[k] = zero;
      }
      cdof[3] = cdof[6 + 4] = cdof[12 + 5] = one;
      cdof += 18;
      // fall through

    // ball: rotations about the body frame's axes (columns of xmat)
    case mjJNT_BALL:
      for (int k = 0; k < 3; k++) {
        tnLane axis[3] = {xmat[k], xmat[k + 3], xmat[k + 6]};
        dof_rotation(cdof + 6 * k, axis, offset);
      }
      break;

    // slide: translation along the axis
    case mjJNT_SLIDE:
      for (int k = 0; k < 3; k++) {
        cdof[k] = zero;
        cdof[3 + k] = w->xaxis[3 * j + k];
      }
      break;

    // hinge: rotation about the axis through the anchor
    default: dof_rotation(cdof, w->xaxis + 3 * j, offset); break;
  }
}

/* subtree_com, cinert and cdof in lanes (with an AVX2 clone) */
TN_CLONE_AVX2
static void com_lanes(const mjModel* m, tnPosLanes* w) {
  // mass-weighted positions summed towards the root, then divided by the subtree mass
  for (int b = 0; b < m->nbody; b++) {
    for (int k = 0; k < 3; k++) {
      w->subtree_com[3 * b + k] = w->xipos[3 * b + k] * m->body_mass[b];
    }
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    int parent = m->body_parentid[b];
    for (int k = 0; k < 3; k++) {
      w->subtree_com[3 * parent + k] += w->subtree_com[3 * b + k];
    }
  }
  for (int b = 0; b < m->nbody; b++) {
    tnLane* com = w->subtree_com + 3 * b;
    if (m->body_subtreemass[b] < mjMINVAL) {
      for (int k = 0; k < 3; k++) {
        com[k] = w->xipos[3 * b + k];
      }
    } else {
      mjtNum inv = 1.0 / m->body_subtreemass[b];
      for (int k = 0; k < 3; k++) {
        com[k] *= inv;
      }
    }

    // the body's inertia about its tree's com (the root's com is final: root <= b)
    if (b > 0) {
      tnLane dif[3];
      const tnLane* root = w->subtree_com + 3 * m->body_rootid[b];
      for (int k = 0; k < 3; k++) {
        dif[k] = w->xipos[3 * b + k] - root[k];
      }
      inert_com(m, w, b, dif);
    }
  }

  // the joints' motion dofs
  for (int j = 0; j < m->njnt; j++) {
    joint_dofs(m, w, j);
  }
}

/* mj_comPos for the lanes, from the poses in w */
void tn__comPosLanes(const mjModel* m, mjData* const* d, tnPosLanes* w) {
  int nbody = m->nbody;

  // the world's cinert is each data's own (the one-data stage leaves it as it is, and the
  // composite inertias start from it)
  tn__lanesGather(w->cinert, LANES_OF(d, cinert), 10);
  com_lanes(m, w);
  tn__lanesScatter(LANES_OF(d, subtree_com), w->subtree_com, 3 * nbody);
  mjtNum* cinert[TN_LANES] = {d[0]->cinert + 10, d[1]->cinert + 10, d[2]->cinert + 10,
                              d[3]->cinert + 10};
  tn__lanesScatter(cinert, w->cinert + 10, 10 * (nbody - 1));
  tn__lanesScatter(LANES_OF(d, cdof), w->cdof, 6 * m->nv);
}
