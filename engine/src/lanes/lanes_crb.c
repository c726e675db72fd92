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

/* a 6-entry dot product of two lane vectors, rounded as mju_dot(a, b, 6) */
static inline void dot6(tnLane* res, const tnLane* a, const tnLane* b) {
  tnLane s02 = a[0] * b[0] + a[2] * b[2];
  tnLane s13 = a[1] * b[1] + a[3] * b[3];
  tnLane tail = (tnLane){0, 0, 0, 0} + a[4] * b[4];
  tail += a[5] * b[5];
  *res = (s02 + s13) + tail;
}

/* frc = inertia * motion in every lane (tn_mulInertVec's expressions) */
static inline void mul_inert_vec(tnLane* restrict frc, const tnLane* i, const tnLane* v) {
  frc[0] = i[0] * v[0] + i[3] * v[1] + i[4] * v[2] - i[8] * v[4] + i[7] * v[5];
  frc[1] = i[3] * v[0] + i[1] * v[1] + i[5] * v[2] + i[8] * v[3] - i[6] * v[5];
  frc[2] = i[4] * v[0] + i[5] * v[1] + i[2] * v[2] - i[7] * v[3] + i[6] * v[4];
  frc[3] = i[8] * v[1] - i[7] * v[2] + i[9] * v[3];
  frc[4] = i[6] * v[2] - i[8] * v[0] + i[9] * v[4];
  frc[5] = i[7] * v[0] - i[6] * v[1] + i[9] * v[5];
}

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
    mul_inert_vec(frc, crb + 10 * m->dof_bodyid[i], cdof + 6 * i);
    for (int k = adr; k < diag; k++) {
      if (simple) {
        mat[k] = zero;
      } else {
        dot6(mat + k, cdof + 6 * m->M_colind[k], frc);
      }
    }

    // diagonal, with armature
    tnLane dd;
    dot6(&dd, cdof + 6 * i, frc);
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
