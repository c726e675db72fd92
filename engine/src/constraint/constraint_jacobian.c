/* constraint/constraint_jacobian.c — the constraint Jacobian: dense or sparse storage,
 * dof chains, and the products every solver needs.
 *
 * MuJoCo stores efc_J dense (nefc x nv) or sparse (CSR: efc_J_rownnz/rowadr/colind, column
 * indices ascending) by the rule of option `jacobian`: sparse when asked, or for `auto`
 * when nv >= 60. A row's sparsity is the chain of dofs that move the bodies involved (the
 * union of both bodies' chains for a contact or connect), so structural zeros may be
 * stored. Every kernel below works for either storage. */
#include "constraint/constraint.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* the public name of is_sparse's rule: sparse when asked, or auto with many dofs */
int mj_isSparse(const mjModel* m) {
  return is_sparse(m);
}

/* dual solver or noslip: efc_AR needed */
int tn__isDual(const mjModel* m) {
  return m->opt.solver == mjSOL_PGS || m->opt.noslip_iterations > 0;
}

/* the dofs moving body, ascending */
int tn__bodyChain(const mjModel* m, int body, int* chain) {
  // walk towards the root, then reverse
  int n = 0;
  for (int i = tn__bodyLastDof(m, body); i >= 0; i = m->dof_parentid[i]) {
    chain[n++] = i;
  }
  for (int a = 0, b = n - 1; a < b; a++, b--) {
    int t = chain[a];
    chain[a] = chain[b];
    chain[b] = t;
  }
  return n;
}

/* sorted union of two bodies' chains; with skip_common, without the dofs both share; side
 * (optional) gets 1 where the dof moves body2, else 0 */
static int merge_chains(const mjModel* m, int body1, int body2, int skip_common, int* chain,
                        int* side) {
  int n = 0;
  int i1 = tn__bodyLastDof(m, body1), i2 = tn__bodyLastDof(m, body2);

  // walk both chains down from the largest index, keeping each dof once
  while (i1 >= 0 || i2 >= 0) {
    if (skip_common && i1 == i2) {
      break;  // from here on both chains are the same ancestors
    }
    int next = i1 > i2 ? i1 : i2;
    if (side) {
      side[n] = i2 == next;
    }
    chain[n++] = next;
    if (i1 == next) {
      i1 = m->dof_parentid[i1];
    }
    if (i2 == next) {
      i2 = m->dof_parentid[i2];
    }
  }

  // descending to ascending
  for (int a = 0, b = n - 1; a < b; a++, b--) {
    int t = chain[a];
    chain[a] = chain[b];
    chain[b] = t;
    if (side) {
      t = side[a];
      side[a] = side[b];
      side[b] = t;
    }
  }
  return n;
}

/* sorted union of two bodies' chains (equality rows keep shared ancestors, as MuJoCo) */
int tn__mergeChain(const mjModel* m, int body1, int body2, int* chain) {
  return merge_chains(m, body1, body2, 0, chain, NULL);
}

/* the dofs moving one body but not the other (contact rows: a shared ancestor moves both
 * contact points alike, so its column of the Jacobian difference is zero and MuJoCo leaves
 * it out of sparse rows) */
int tn__mergeChainDistinct(const mjModel* m, int body1, int body2, int* chain) {
  return merge_chains(m, body1, body2, 1, chain, NULL);
}

/* tn__mergeChainDistinct, with side[k] = 1 where chain dof k moves body2, 0 where it moves
 * body1 (each distinct dof moves exactly one of them) */
int tn__mergeChainSides(const mjModel* m, int body1, int body2, int* chain, int* side) {
  return merge_chains(m, body1, body2, 1, chain, side);
}

/* point Jacobian of body at the dofs of chain (zeros where the dof does not move body) */
void tn__jacChain(const mjModel* m, const mjData* d, int body, const mjtNum point[3],
                  const int* chain, int n, mjtNum* jacp, mjtNum* jacr) {
  mjtNum offset[3], vel[3];

  // clear
  if (jacp) {
    mju_zero(jacp, 3 * n);
  }
  if (jacr) {
    mju_zero(jacr, 3 * n);
  }

  // point relative to the tree's com
  mju_sub3(offset, point, d->subtree_com + 3 * m->body_rootid[body]);

  // walk the body's dofs from the leaf; both lists descend from the chain's end
  int k = n - 1;
  for (int i = tn__bodyLastDof(m, body); i >= 0; i = m->dof_parentid[i]) {
    while (k >= 0 && chain[k] > i) {
      k--;
    }
    if (k < 0) {
      break;
    }
    const mjtNum* cdof = d->cdof + 6 * i;

    // rotation: the dof's angular velocity
    if (jacr) {
      jacr[k] = cdof[0];
      jacr[k + n] = cdof[1];
      jacr[k + 2 * n] = cdof[2];
    }

    // translation: linear velocity at the com plus rotation about it
    if (jacp) {
      dof_point_vel(vel, cdof, offset);
      jacp[k] = vel[0];
      jacp[k + n] = vel[1];
      jacp[k + 2 * n] = vel[2];
    }
  }
}

/* J[i] . vec */
mjtNum tn__rowDot(const mjModel* m, const mjData* d, int i, const mjtNum* vec) {
  if (is_sparse(m)) {
    int adr = d->efc_J_rowadr[i];
    return mju_dotSparse(d->efc_J + adr, vec, d->efc_J_rownnz[i], d->efc_J_colind + adr);
  }
  return mju_dot(d->efc_J + (size_t)i * m->nv, vec, m->nv);
}

/* vec += scl * J[i]' */
void tn__rowAddTo(const mjModel* m, const mjData* d, int i, mjtNum* vec, mjtNum scl) {
  if (is_sparse(m)) {
    int adr = d->efc_J_rowadr[i], nnz = d->efc_J_rownnz[i];
    const mjtNum* val = d->efc_J + adr;
    const int* ind = d->efc_J_colind + adr;
    for (int k = 0; k < nnz; k++) {
      vec[ind[k]] += scl * val[k];
    }
    return;
  }
  mju_addToScl(vec, d->efc_J + (size_t)i * m->nv, scl, m->nv);
}

/* vec += J[i0..] force of up to four dense rows with their forces, in one pass over the
 * columns: each entry gets the rows' products added in row order, as successive
 * tn__rowAddTo calls would add them */
TN_CLONE_AVX2
static void dense_rows_add(mjtNum* vec, int nv, const mjtNum* const* rows, const mjtNum* f,
                           int n) {
  if (n == 4) {
    const mjtNum *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3];
    for (int j = 0; j < nv; j++) {
      vec[j] = (((vec[j] + r0[j] * f[0]) + r1[j] * f[1]) + r2[j] * f[2]) + r3[j] * f[3];
    }
    return;
  }
  for (int k = 0; k < n; k++) {
    mju_addToScl(vec, rows[k], f[k], nv);
  }
}

/* vec += sum of efc_force[i] J_i over the listed rows whose force is non-zero, in their
 * order (rows: efc indices, ascending) */
void tn__rowsAddForce(const mjModel* m, const mjData* d, const int* rows, int n, mjtNum* vec) {
  if (is_sparse(m)) {
    for (int k = 0; k < n; k++) {
      int i = rows[k];
      if (d->efc_force[i] != 0) {
        tn__rowAddTo(m, d, i, vec, d->efc_force[i]);
      }
    }
    return;
  }

  // dense: four rows at a time
  int nv = m->nv, ng = 0;
  const mjtNum* group[4];
  mjtNum f[4];
  for (int k = 0; k < n; k++) {
    int i = rows[k];
    if (d->efc_force[i] == 0) {
      continue;
    }
    group[ng] = d->efc_J + (size_t)i * nv;
    f[ng++] = d->efc_force[i];
    if (ng == 4) {
      dense_rows_add(vec, nv, group, f, 4);
      ng = 0;
    }
  }
  dense_rows_add(vec, nv, group, f, ng);
}

/* dense copy of row i */
void tn__rowDense(const mjModel* m, const mjData* d, int i, mjtNum* row) {
  if (is_sparse(m)) {
    mju_zero(row, m->nv);
    int adr = d->efc_J_rowadr[i], nnz = d->efc_J_rownnz[i];
    for (int k = 0; k < nnz; k++) {
      row[d->efc_J_colind[adr + k]] = d->efc_J[adr + k];
    }
    return;
  }
  mju_copy(row, d->efc_J + (size_t)i * m->nv, m->nv);
}

/* res = J vec (with an AVX2 clone: a dense row's dot four products per instruction) */
TN_CLONE_AVX2
void mj_mulJacVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec) {
  int nv = m->nv, nefc = d->nefc;

  // sparse: one sparse dot per row
  if (is_sparse(m)) {
    for (int i = 0; i < nefc; i++) {
      int adr = d->efc_J_rowadr[i];
      res[i] = mju_dotSparse(d->efc_J + adr, vec, d->efc_J_rownnz[i], d->efc_J_colind + adr);
    }
    return;
  }

  // dense: the rows' dot products, four rows at a time, then the rest one by one
  int i = 0;
  for (; i + 4 <= nefc; i += 4) {
    tn__dotRows4(res + i, d->efc_J + (size_t)i * nv, (size_t)nv, vec, nv);
  }
  for (; i < nefc; i++) {
    res[i] = mju_dot(d->efc_J + (size_t)i * nv, vec, nv);
  }
}

/* res = J' vec */
void mj_mulJacTVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec) {
  // dense: MuJoCo's transposed product, rows scaled and accumulated
  if (!is_sparse(m)) {
    mju_mulMatTVec(res, d->efc_J, vec, d->nefc, m->nv);
    return;
  }

  // sparse: scatter each row
  mju_zero(res, m->nv);
  for (int i = 0; i < d->nefc; i++) {
    if (vec[i] != 0) {
      tn__rowAddTo(m, d, i, res, vec[i]);
    }
  }
}

/* 1 if sparse rows a and b have the same column pattern */
static int same_pattern(const mjData* d, int a, int b) {
  int nnz = d->efc_J_rownnz[a];
  if (d->efc_J_rownnz[b] != nnz) {
    return 0;
  }
  const int* ia = d->efc_J_colind + d->efc_J_rowadr[a];
  const int* ib = d->efc_J_colind + d->efc_J_rowadr[b];
  for (int k = 0; k < nnz; k++) {
    if (ia[k] != ib[k]) {
      return 0;
    }
  }
  return 1;
}

/* supernodes: how many following rows share each row's pattern */
void tn__makeRowSuper(mjData* d) {
  int nefc = d->nefc;
  for (int i = nefc - 1; i >= 0; i--) {
    d->efc_J_rowsuper[i] =
        (i < nefc - 1 && same_pattern(d, i, i + 1)) ? d->efc_J_rowsuper[i + 1] + 1 : 0;
  }
}
