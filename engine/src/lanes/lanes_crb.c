/* lanes/lanes_crb.c — mj_crb for TN_LANES datas at once: composite rigid-body inertias and
 * the joint-space inertia matrix M, each lane doing smooth/crb.c's operations in its order.
 *
 * cinert and cdof come from the com stage's lanes; crb is summed backward over the tree;
 * each row of M is the force of a unit motion of its dof on the body's composite inertia
 * (the 6-vector product of util_inline.h's tn_mulInertVec) projected on the row's ancestor
 * dofs (mju_dot's order for 6 entries: (p0+p2)+(p1+p3), plus the tail (0+p4)+p5). crb and M
 * are scattered back; M also stays in lanes for the factorization. Models with tendon armature (added
 * per data, from each data's tendon Jacobian) run the one-data mj_crb instead. */
#include <torsion/torsion.h>

#include "lanes/lanes.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* composite inertias and M in lanes (with an AVX2 clone: one lane per double) */
TN_CLONE_AVX2
static void crb_lanes(const mjModel* m, tnLane* crb, const tnLane* cdof, tnLane* mat) {
  const tnLane zero = {0, 0, 0, 0};

  // composite inertias: each body's cinert (already in crb) plus its descendants'
  for (int b = m->nbody - 1; b > 0; b--) {
    int parent = m->body_parentid[b];
    if (parent > 0) {
      for (int k = 0; k < 10; k++) {
        crb[10 * parent + k] += crb[10 * b + k];
      }
    }
  }

  // one row of M per dof
  for (int i = 0; i < m->nv; i++) {
    int adr = m->M_rowadr[i];
    int diag = adr + m->M_rownnz[i] - 1;
    int simple = m->dof_simplenum[i] != 0;

    // simple dof with a known diagonal: constant row
    if (simple && m->dof_M0[i] > 0) {
      for (int k = adr; k < diag; k++) {
        mat[k] = zero;
      }
      mjtNum M0 = m->dof_M0[i];
      mat[diag] = (tnLane){M0, M0, M0, M0};
      continue;
    }

    // the unit motion's force, projected on the ancestors (structural zeros if simple)
    tnLane frc[6];
    tn__mulInertVecLanes(frc, crb + 10 * m->dof_bodyid[i], cdof + 6 * i);
    for (int k = adr; k < diag; k++) {
      if (simple) {
        mat[k] = zero;
      } else {
        tn__dot6Lanes(mat + k, cdof + 6 * m->M_colind[k], frc);
      }
    }

    // diagonal, with armature
    tnLane dd;
    tn__dot6Lanes(&dd, cdof + 6 * i, frc);
    mat[diag] = m->dof_armature[i] + dd;
  }
}

/* mj_crb for the lanes, M also left in w->mat (a model without tendon armature: see
 * lanes.h) */
void tn__crbLanes(const mjModel* m, mjData* const* d, tnPosLanes* w) {
  int nbody = m->nbody;

  // the composite inertias start from cinert; crb and M computed and out
  for (int k = 0; k < 10 * nbody; k++) {
    w->crb[k] = w->cinert[k];
  }
  crb_lanes(m, w->crb, w->cdof, w->mat);
  if (!w->transient) {
    tn__lanesScatter(LANES_OF(d, crb), w->crb, 10 * nbody);
  }
  tn__lanesScatter(LANES_OF(d, M), w->mat, m->nC);
}
