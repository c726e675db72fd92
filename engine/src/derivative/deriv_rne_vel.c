/* derivative/deriv_rne_vel.c — derivative of the RNE bias force (Coriolis and centripetal)
 * with respect to the joint velocities, subtracted from d->qDeriv (implicit integrator).
 *
 * The bias force of dof i is cdof_i . sum of cfrc_c over the bodies c of its subtree, with
 *   cvel_c = cvel_parent + sum_j cdof_j qvel_j,   cdof_dot_j = cvel_before_j x cdof_j,
 *   cacc_c = cacc_parent + sum_j cdof_dot_j qvel_j,
 *   cfrc_c = I_c cacc_c + cvel_c x* (I_c cvel_c),
 * where cvel_before_j is the velocity mj_comVel used for cdof_dot (see smooth/velocity.c).
 * Differentiating gives, for every body, 6 x n matrices Dcvel, Dcacc and Dcfrc whose n
 * columns are the dofs on the body's path to the root (the only velocities it depends on):
 * the path of a body extends its parent's, so each matrix starts as a copy of the parent's
 * (columns are stored contiguously, 6 numbers each, so the parent's block is a prefix).
 * Each Dcfrc is then summed over subtrees, body by body towards the root, in the B pattern
 * (a body's path and subtree dofs, increasing; the path comes first). For a dof i of body b,
 * row i of the D pattern holds exactly the columns of b's B row, so
 *   qDeriv(i, :) -= cdof_i . (subtree sum of Dcfrc at b). */
#include <torsion/torsion.h>

#include "derivative/derivative.h"
#include "util/util_inline.h"

/* scratch of the computation */
typedef struct {
  int* last;     /* per body: last dof on its path (its own or an ancestor's), -1 if none */
  int* adr;      /* per body: start of its column block in dcvel/dcacc */
  mjtNum* dcvel; /* per body: 6 x n derivative of cvel (path columns) */
  mjtNum* dcacc; /* per body: 6 x n derivative of cacc (path columns) */
  mjtNum* dcfrc; /* per body: 6 x B_rownnz derivative of the subtree's cfrc (B columns) */
} rneScratch;

/* number of dofs on the path of body b (its columns) */
static int path_len(const mjModel* m, const rneScratch* s, int b) {
  return s->last[b] < 0 ? 0 : m->M_rownnz[s->last[b]];
}

/* per-body last path dof and column block addresses; returns the total block size */
static size_t rne_layout(const mjModel* m, rneScratch* s) {
  size_t total = 0;
  s->last[0] = -1;
  s->adr[0] = 0;
  for (int b = 1; b < m->nbody; b++) {
    int num = m->body_dofnum[b];
    s->last[b] = num > 0 ? m->body_dofadr[b] + num - 1 : s->last[m->body_parentid[b]];
    s->adr[b] = (int)total;
    total += 6 * (size_t)path_len(m, s, b);
  }
  return total;
}

/* Dcacc(:, k) += qvel_j * D(cdof_dot_j)(:, k) = qvel_j * Dcvel_before(:, k) x cdof_j for
 * the first n columns, and Dcacc(:, col) += cdof_dot_j for the dof's own column */
static void rne_cdofdot(const mjData* d, int j, int col, const mjtNum* dcvel, mjtNum* dcacc,
                        int n) {
  mjtNum tmp[6];
  mjtNum qv = d->qvel[j];
  if (qv != 0) {
    for (int k = 0; k < n; k++) {
      tn_crossMotion(tmp, dcvel + 6 * k, d->cdof + 6 * j);
      mju_addToScl(dcacc + 6 * k, tmp, qv, 6);
    }
  }
  mju_addToScl(dcacc + 6 * col, d->cdof_dot + 6 * j, 1, 6);
}

/* Dcvel(:, col) += cdof_j: the dof's own velocity */
static void rne_ownvel(const mjData* d, int j, int col, mjtNum* dcvel) {
  mju_addToScl(dcvel + 6 * col, d->cdof + 6 * j, 1, 6);
}

/* Dcvel and Dcacc of body b from its parent's and its own dofs (as in mj_comVel) */
static void rne_body_forward(const mjModel* m, const mjData* d, const rneScratch* s, int b) {
  int n = path_len(m, s, b), np = path_len(m, s, m->body_parentid[b]);
  mjtNum* dcvel = s->dcvel + s->adr[b];
  mjtNum* dcacc = s->dcacc + s->adr[b];

  // start from the parent's derivatives (a prefix of the columns), own columns zero
  mju_zero(dcvel, 6 * n);
  mju_zero(dcacc, 6 * n);
  if (np) {
    mju_copy(dcvel, s->dcvel + s->adr[m->body_parentid[b]], 6 * np);
    mju_copy(dcacc, s->dcacc + s->adr[m->body_parentid[b]], 6 * np);
  }

  // own dofs: column of dof j is n-1-(last-j)
  int dofadr = m->body_dofadr[b], dofnum = m->body_dofnum[b];
  for (int j = dofadr; j < dofadr + dofnum; j++) {
    int col = n - 1 - (s->last[b] - j);
    switch (m->jnt_type[m->dof_jntid[j]]) {
      // free: translations (cdof_dot = 0) first, then the rotations like a ball
      case mjJNT_FREE:
        for (int k = 0; k < 3; k++) {
          rne_ownvel(d, j + k, col + k, dcvel);
        }
        j += 3;
        col += 3;
        // fall through

      // ball: all three cdof_dot use the velocity before the ball
      case mjJNT_BALL:
        for (int k = 0; k < 3; k++) {
          rne_cdofdot(d, j + k, col + k, dcvel, dcacc, n);
        }
        for (int k = 0; k < 3; k++) {
          rne_ownvel(d, j + k, col + k, dcvel);
        }
        j += 2;
        break;

      // hinge or slide: cdof_dot from the velocity before the dof
      default:
        rne_cdofdot(d, j, col, dcvel, dcacc, n);
        rne_ownvel(d, j, col, dcvel);
        break;
    }
  }
}

/* Dcfrc of body b alone: I Dcacc + Dcvel x* (I cvel) + cvel x* (I Dcvel), in the first n
 * (path) columns of its B block; the subtree columns start at zero */
static void rne_body_force(const mjModel* m, const mjData* d, const rneScratch* s, int b) {
  int n = path_len(m, s, b);
  const mjtNum* cinert = d->cinert + 10 * b;
  const mjtNum* cvel = d->cvel + 6 * b;
  const mjtNum* dcvel = s->dcvel + s->adr[b];
  const mjtNum* dcacc = s->dcacc + s->adr[b];
  mjtNum* dcfrc = s->dcfrc + 6 * (size_t)m->B_rowadr[b];
  mjtNum icvel[6], tmp[6], tmp1[6];

  mju_zero(dcfrc, 6 * m->B_rownnz[b]);
  tn_mulInertVec(icvel, cinert, cvel);
  for (int k = 0; k < n; k++) {
    mjtNum* f = dcfrc + 6 * k;
    tn_mulInertVec(f, cinert, dcacc + 6 * k);
    tn_crossForce(tmp, dcvel + 6 * k, icvel);
    mju_addToScl(f, tmp, 1, 6);
    tn_mulInertVec(tmp1, cinert, dcvel + 6 * k);
    tn_crossForce(tmp, cvel, tmp1);
    mju_addToScl(f, tmp, 1, 6);
  }
}

/* add body b's subtree Dcfrc to its parent's: the parent's B row contains b's, both sorted */
static void rne_body_accumulate(const mjModel* m, const rneScratch* s, int b) {
  int p = m->body_parentid[b];
  if (p <= 0) {
    return;
  }
  const int* colb = m->B_colind + m->B_rowadr[b];
  const int* colp = m->B_colind + m->B_rowadr[p];
  const mjtNum* src = s->dcfrc + 6 * (size_t)m->B_rowadr[b];
  mjtNum* dst = s->dcfrc + 6 * (size_t)m->B_rowadr[p];
  int kp = 0, np = m->B_rownnz[p];
  for (int kb = 0; kb < m->B_rownnz[b]; kb++) {
    while (kp < np && colp[kp] < colb[kb]) {
      kp++;
    }
    if (kp < np && colp[kp] == colb[kb]) {
      mju_addToScl(dst + 6 * kp, src + 6 * kb, 1, 6);
    }
  }
}

/* qDeriv(i, :) -= cdof_i . Dcfrc(subtree of b) for the dofs i of body b */
static void rne_body_project(const mjModel* m, const mjData* d, const rneScratch* s, int b,
                             mjtNum* qDeriv) {
  const mjtNum* dcfrc = s->dcfrc + 6 * (size_t)m->B_rowadr[b];
  int nb = m->B_rownnz[b];
  for (int i = m->body_dofadr[b]; i < m->body_dofadr[b] + m->body_dofnum[b]; i++) {
    // row i of D has the columns of b's B row (guarded: skip a row that does not)
    if (m->D_rownnz[i] != nb) {
      continue;
    }
    mjtNum* row = qDeriv + m->D_rowadr[i];
    const mjtNum* cdof = d->cdof + 6 * i;
    for (int k = 0; k < nb; k++) {
      row[k] -= mju_dot(cdof, dcfrc + 6 * k, 6);
    }
  }
}

/* 1 if body b takes part: every body with a tree, or only those of the selected trees */
static int rne_selected(const mjModel* m, const int* treemask, int b) {
  int tree = m->body_treeid[b];
  return !treemask || (tree >= 0 && treemask[tree]);
}

/* qDeriv -= d(qfrc_bias)/d(qvel), for the bodies of the trees selected by treemask */
void tn__rneDerivative(const mjModel* m, mjData* d, const int* treemask, mjtNum* qDeriv) {
  int nbody = m->nbody;
  if (!m->nv) {
    return;
  }
  mj_markStack(d);
  rneScratch s;

  // layout of the per-body column blocks
  s.last = mj_stackAllocInt(d, nbody);
  s.adr = mj_stackAllocInt(d, nbody);
  if (!s.last || !s.adr) {
    mj_freeStack(d);
    return;
  }
  size_t total = rne_layout(m, &s);
  s.dcvel = mj_stackAllocNum(d, total ? total : 1);
  s.dcacc = mj_stackAllocNum(d, total ? total : 1);
  s.dcfrc = mj_stackAllocNum(d, 6 * (size_t)(m->nB ? m->nB : 1));
  if (!s.dcvel || !s.dcacc || !s.dcfrc) {
    mj_freeStack(d);
    return;
  }

  // forward: velocity, acceleration and force derivatives, parents first
  for (int b = 1; b < nbody; b++) {
    if (rne_selected(m, treemask, b)) {
      rne_body_forward(m, d, &s, b);
      rne_body_force(m, d, &s, b);
    }
  }

  // backward: subtree sums, then projection on each body's dofs
  for (int b = nbody - 1; b > 0; b--) {
    if (rne_selected(m, treemask, b)) {
      rne_body_accumulate(m, &s, b);
    }
  }
  for (int b = 1; b < nbody; b++) {
    if (rne_selected(m, treemask, b)) {
      rne_body_project(m, d, &s, b, qDeriv);
    }
  }

  mj_freeStack(d);
}

/* qDeriv -= d(qfrc_bias)/d(qvel) */
void mjd_rne_vel(const mjModel* m, mjData* d) {
  tn__rneDerivative(m, d, NULL, d->qDeriv);
}
