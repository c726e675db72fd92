/* smooth/crb.c — the joint-space inertia matrix M: composite rigid-body inertias (crb),
 * M in CSR form (d->M), tendon armature, and the two ways of using M directly: the dense
 * expansion (mj_fullM) and the product M*vec (mj_mulM).
 *
 * M's layout (m->M_rownnz/M_rowadr/M_colind): row i holds the dof's ancestors j <= i in
 * increasing column order with the diagonal last. "Simple" dofs (m->dof_simplenum > 0)
 * have a constant diagonal M computed by the compiler (m->dof_M0) and no off-diagonals
 * (MuJoCo leaves them out of the pattern; where the pattern keeps them, they are zero). */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* composite inertias: each body's cinert plus those of its descendants (same tree) */
static void crb_composite(const mjModel* m, mjData* d) {
  mju_copy(d->crb, d->cinert, 10 * m->nbody);

  // backward pass: add each body to its parent, except into the world
  for (int b = m->nbody - 1; b > 0; b--) {
    int parent = m->body_parentid[b];
    if (parent > 0) {
      // the 10 numbers as five lane pairs (a parent precedes its children: no overlap)
      tn_vec2* dst = (tn_vec2*)(d->crb + 10 * parent);
      const tn_vec2* src = (const tn_vec2*)(d->crb + 10 * b);
      for (int k = 0; k < 5; k++) {
        dst[k] += src[k];
      }
    }
  }
}

/* row i of M: M(i,j) = cdof_j' * crb_body(i) * cdof_i over the ancestors j, + armature.
 * Simple dofs have structural zeros off the diagonal and the constant diagonal dof_M0; while
 * dof_M0 is not known yet (the compiler's own pass at qpos0 computes it from this very
 * matrix) the diagonal is computed like any other. */
static void crb_row(const mjModel* m, mjData* d, int i) {
  int adr = m->M_rowadr[i];
  int diag = adr + m->M_rownnz[i] - 1;
  int simple = m->dof_simplenum[i] != 0;

  // simple dof with a known diagonal: constant row
  if (simple && m->dof_M0[i] > 0) {
    for (int k = adr; k < diag; k++) {
      d->M[k] = 0;
    }
    d->M[diag] = m->dof_M0[i];
    return;
  }

  // force produced by a unit motion of dof i on its body's composite inertia, computed in
  // scalars and stored as the lane pairs the dot products load (lane-pair loads of scalar
  // stores would stall store forwarding)
  mjtNum frc[6];
  tn_mulInertVec(frc, d->crb + 10 * m->dof_bodyid[i], d->cdof + 6 * i);
  mjtNum buf[6];
  *(tn_vec2*)buf = (tn_vec2){frc[0], frc[1]};
  *(tn_vec2*)(buf + 2) = (tn_vec2){frc[2], frc[3]};
  *(tn_vec2*)(buf + 4) = (tn_vec2){frc[4], frc[5]};

  // off-diagonal entries: projections on the ancestor dofs (structural zeros if simple)
  for (int k = adr; k < diag; k++) {
    d->M[k] = simple ? 0 : mju_dot(d->cdof + 6 * m->M_colind[k], buf, 6);
  }

  // diagonal, with armature
  d->M[diag] = m->dof_armature[i] + mju_dot(d->cdof + 6 * i, buf, 6);
}

/* M += armature * J'J of every tendon with armature, within M's sparsity pattern */
void tn__tendonArmature(const mjModel* m, mjData* d) {
  // nothing to add without a tendon with armature (no scratch frame either)
  int t0 = 0;
  while (t0 < m->ntendon && m->tendon_armature[t0] == 0) {
    t0++;
  }
  if (t0 == m->ntendon) {
    return;
  }

  int nv = m->nv;
  mjtNum* J = NULL;
  mj_markStack(d);
  for (int t = t0; t < m->ntendon; t++) {
    mjtNum armature = m->tendon_armature[t];
    if (armature == 0) {
      continue;
    }

    // the tendon's row dense (scratch taken at the first tendon with armature)
    if (!J && !(J = mj_stackAllocNum(d, (size_t)nv + 1))) {
      break;
    }
    tn__tendonRowDense(m, d, t, J);

    // rows touched by the tendon: add armature*J(i)*J(j) over the row's columns
    for (int i = 0; i < nv; i++) {
      if (J[i] == 0) {
        continue;
      }
      mjtNum scl = armature * J[i];
      int adr = m->M_rowadr[i], end = adr + m->M_rownnz[i];
      for (int k = adr; k < end; k++) {
        d->M[k] += scl * J[m->M_colind[k]];
      }
    }
  }
  mj_freeStack(d);
}

/* composite rigid-body inertias and the joint-space inertia matrix (with tendon armature) */
void mj_crb(const mjModel* m, mjData* d) {
  crb_composite(m, d);

  // one row per dof
  for (int i = 0; i < m->nv; i++) {
    crb_row(m, d, i);
  }

  // tendon inertia (needs ten_J from mj_tendon)
  tn__tendonArmature(m, d);
}

/* dense symmetric nv x nv matrix from the CSR array M */
void mj_fullM(const mjModel* m, const mjData* d, mjtNum* dst) {
  const mjtNum* M = d->M;
  int nv = m->nv;
  mju_zero(dst, nv * nv);

  // scatter each stored entry to both triangles
  for (int i = 0; i < nv; i++) {
    int adr = m->M_rowadr[i], end = adr + m->M_rownnz[i];
    for (int k = adr; k < end; k++) {
      int j = m->M_colind[k];
      dst[i * nv + j] = M[k];
      dst[j * nv + i] = M[k];
    }
  }
}

/* rows lo..hi-1 of M's product: row i's own sum and, by symmetry, its entries added to its
 * ancestors' sums (MuJoCo's order: each row's off-diagonal entries from the parent up to
 * the root, the rows in order). Row i's own sum stays in a register through its row (its
 * ancestors j are not i, and its descendants add to it only in their later rows) */
static inline void mulm_rows(const mjModel* m, const mjtNum* M, mjtNum* res, const mjtNum* vec,
                             int lo, int hi) {
  for (int i = lo; i < hi; i++) {
    int adr = m->M_rowadr[i];
    mjtNum ri = res[i], vi = vec[i];
    for (int k = adr + m->M_rownnz[i] - 2; k >= adr; k--) {
      int j = m->M_colind[k];
      ri += M[k] * vec[j];
      res[j] += M[k] * vi;
    }
    res[i] = ri;
  }
}

/* the rows of a tree hanging from a free joint (dofs r..r+5), past the joint's own rows:
 * mulm_rows with the free joint's six sums and entries of vec held in registers (every
 * row adds to all six: through memory, each addition would wait for the last one's store) */
static void mulm_free_tree(const mjModel* m, const mjtNum* M, mjtNum* res, const mjtNum* vec,
                           int r, int n) {
  mjtNum a[6], v[6];
  for (int j = 0; j < 6; j++) {
    a[j] = res[r + j];
    v[j] = vec[r + j];
  }
  for (int i = r + 6; i < r + n; i++) {
    int adr = m->M_rowadr[i];
    mjtNum ri = res[i], vi = vec[i];

    // the ancestors below the free joint, through memory
    for (int k = adr + m->M_rownnz[i] - 2; k >= adr + 6; k--) {
      int j = m->M_colind[k];
      ri += M[k] * vec[j];
      res[j] += M[k] * vi;
    }

    // the free joint's six, last to first
    for (int j = 5; j >= 0; j--) {
      ri += M[adr + j] * v[j];
      a[j] += M[adr + j] * vi;
    }
    res[i] = ri;
  }
  for (int j = 0; j < 6; j++) {
    res[r + j] = a[j];
  }
}

/* res = M * vec with the sparse d->M (res must not alias vec) */
void mj_mulM(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec) {
  // the diagonal of every row first
  for (int i = 0; i < m->nv; i++) {
    res[i] = d->M[m->M_rowadr[i] + m->M_rownnz[i] - 1] * vec[i];
  }

  // then the off-diagonal entries, tree by tree (a tree's rows touch only its own dofs,
  // which are consecutive); a tree hanging from a free joint keeps the joint's six sums in
  // registers. Trees not covering the dofs in order: all rows alike
  if (!tn__treesInOrder(m)) {
    mulm_rows(m, d->M, res, vec, 0, m->nv);
    return;
  }
  for (int t = 0; t < m->ntree; t++) {
    int r = m->tree_dofadr[t], n = m->tree_dofnum[t];
    if (tn__freeRooted(m, t)) {
      mulm_rows(m, d->M, res, vec, r, r + 6);
      mulm_free_tree(m, d->M, res, vec, r, n);
    } else {
      mulm_rows(m, d->M, res, vec, r, r + n);
    }
  }
}
