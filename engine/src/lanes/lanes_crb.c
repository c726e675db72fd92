/* lanes/lanes_crb.c — mj_crb for TN_LANES datas at once: composite rigid-body inertias and
 * the joint-space inertia matrix M, each lane doing smooth/crb.c's operations in its order.
 *
 * cinert and cdof are gathered into lanes; crb is summed backward over the tree; each row of
 * M is the force of a unit motion of its dof on the body's composite inertia (the 6-vector
 * product of util_inline.h's tn_mulInertVec) projected on the row's ancestor dofs (mju_dot's
 * order for 6 entries: (p0+p2)+(p1+p3), plus the tail (0+p4)+p5). crb and M are scattered
 * back; M also stays in lanes for the factorization. Models with tendon armature (added
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

/* mj_crb for the lanes, M also left in mat (a model without tendon armature: see lanes.h) */
void tn__crbLanes(const mjModel* m, mjData* const* d, tnLane* mat) {
  int nbody = m->nbody, nv = m->nv, nC = m->nC;
  mjData* d0 = d[0];
  mj_markStack(d0);
  tnLane* crb = tn__lanesAlloc(d0, 10 * (size_t)nbody);
  tnLane* cdof = tn__lanesAlloc(d0, 6 * (size_t)nv);

  // inputs: cinert (as crb's start) and cdof, from each data
  tn__lanesGather(crb, LANES_OF(d, cinert), 10 * nbody);
  tn__lanesGather(cdof, LANES_OF(d, cdof), 6 * nv);
  crb_lanes(m, crb, cdof, mat);

  // outputs: crb and M into each data
  tn__lanesScatter(LANES_OF(d, crb), crb, 10 * nbody);
  tn__lanesScatter(LANES_OF(d, M), mat, nC);
  mj_freeStack(d0);
}
