/* compiler/const_sparsity.c — sparsity patterns derived from the kinematic tree.
 *
 * M (the joint-space inertia, CSR lower triangle with the diagonal last) holds, in row i,
 * every ancestor dof of i and i itself; Torsion keeps this full ancestor pattern (nC = nM)
 * even where MuJoCo drops structural zeros of simple bodies. D is the symmetric dof-dof
 * pattern (ancestors, self, descendants), with maps between the two layouts. B pairs each
 * body with the dofs on its path to the root and in its subtree. dof_Madr is MuJoCo's
 * legacy address of the diagonal (cumulative, diagonal first within a row). */
#include <stdlib.h>

#include "compiler/compile_helpers.h"
#include "compiler/const_internal.h"

/* number of ancestors of dof i */
static int dof_depth(const int* dof_parentid, int i) {
  int n = 0;
  for (int j = dof_parentid[i]; j >= 0; j = dof_parentid[j]) {
    n++;
  }
  return n;
}

/* number of dofs of body b and its ancestors */
static int body_pathdofs(int b, const int* body_parentid, const int* body_dofnum) {
  int n = 0;
  for (; b > 0; b = body_parentid[b]) {
    n += body_dofnum[b];
  }
  return n;
}

/* 1 if body a is a strict ancestor of body b */
static int body_isancestor(int a, int b, const int* body_parentid) {
  while (b > 0) {
    b = body_parentid[b];
    if (b == a) {
      return 1;
    }
  }
  return 0;
}

/* number of dofs in the strict subtree of body b */
static int body_subtreedofs(int b, int nbody, const int* body_parentid,
                            const int* body_dofnum) {
  int n = 0;
  for (int c = b + 1; c < nbody; c++) {
    if (body_isancestor(b, c, body_parentid)) {
      n += body_dofnum[c];
    }
  }
  return n;
}

/* sizes of the M, D and B patterns */
void tn__countSparsity(int nv, const int* dof_parentid, int nbody, const int* body_parentid,
                       const int* body_dofnum, const int* body_dofadr, int* nM, int* nC, int* nD,
                       int* nB) {
  (void)body_dofadr;

  // M: each row holds the dof's ancestors and itself; D mirrors the off-diagonals
  int count = 0;
  for (int i = 0; i < nv; i++) {
    count += dof_depth(dof_parentid, i) + 1;
  }
  *nM = count;
  *nC = count;
  *nD = 2 * count - nv;

  // B: dofs on the path to the root plus dofs of the subtree (world: all dofs)
  int nb = 0;
  for (int b = 0; b < nbody; b++) {
    nb += body_pathdofs(b, body_parentid, body_dofnum) +
          body_subtreedofs(b, nbody, body_parentid, body_dofnum);
  }
  *nB = nb;
}

/* M: rows of ancestors (increasing) then the diagonal; legacy addresses and map */
static void sparsity_m(mjModel* m) {
  int adr = 0;
  for (int i = 0; i < m->nv; i++) {
    int n = dof_depth(m->dof_parentid, i) + 1;
    m->M_rownnz[i] = n;
    m->M_rowadr[i] = adr;
    m->dof_Madr[i] = adr;

    // columns from the diagonal upwards, written back to front
    int k = n - 1;
    for (int j = i; j >= 0; j = m->dof_parentid[j], k--) {
      m->M_colind[adr + k] = j;

      // legacy layout: diagonal first, then ancestors walking up
      m->mapM2M[adr + k] = m->dof_Madr[i] + (n - 1 - k);
    }
    adr += n;
  }
}

/* D: rows of ancestors, self and descendants (increasing); maps to and from M */
static void sparsity_d(mjModel* m) {
  int nv = m->nv;

  // row sizes: M's row plus every descendant
  for (int i = 0; i < nv; i++) {
    m->D_rownnz[i] = m->M_rownnz[i];
    m->D_diag[i] = m->M_rownnz[i] - 1;
  }
  for (int j = 0; j < nv; j++) {
    for (int a = m->dof_parentid[j]; a >= 0; a = m->dof_parentid[a]) {
      m->D_rownnz[a]++;
    }
  }
  int adr = 0;
  for (int i = 0; i < nv; i++) {
    m->D_rowadr[i] = adr;
    adr += m->D_rownnz[i];
  }

  // lower part and diagonal: the same columns as M's row
  int* fill = malloc(sizeof(int) * (size_t)(nv > 0 ? nv : 1));
  if (!fill) {
    mju_error("tn__compileFinish: out of memory");
    return;
  }
  for (int i = 0; i < nv; i++) {
    for (int k = 0; k < m->M_rownnz[i]; k++) {
      m->D_colind[m->D_rowadr[i] + k] = m->M_colind[m->M_rowadr[i] + k];
    }
    fill[i] = m->M_rownnz[i];
  }

  // upper part: descendants, appended in increasing order
  for (int j = 0; j < nv; j++) {
    for (int a = m->dof_parentid[j]; a >= 0; a = m->dof_parentid[a]) {
      m->D_colind[m->D_rowadr[a] + fill[a]++] = j;
    }
  }
  free(fill);

  // D -> M: (i, j) lives in M's row max(i, j) at the smaller one's depth
  for (int i = 0; i < nv; i++) {
    for (int k = 0; k < m->D_rownnz[i]; k++) {
      int d = m->D_rowadr[i] + k, j = m->D_colind[d];
      m->mapM2D[d] = j <= i ? m->M_rowadr[i] + k : m->M_rowadr[j] + m->D_diag[i];
    }
  }

  // M -> D: M's row i starts D's row i
  for (int i = 0; i < nv; i++) {
    for (int k = 0; k < m->M_rownnz[i]; k++) {
      m->mapD2M[m->M_rowadr[i] + k] = m->D_rowadr[i] + k;
    }
  }
}

/* B: for each body, the dofs of its root path and its subtree, increasing */
static void sparsity_b(mjModel* m) {
  int adr = 0;
  for (int b = 0; b < m->nbody; b++) {
    m->B_rowadr[b] = adr;
    int n = 0;

    // bodies in increasing order own increasing dof ranges
    for (int c = 0; c < m->nbody; c++) {
      int related = c == b || body_isancestor(c, b, m->body_parentid) ||
                    body_isancestor(b, c, m->body_parentid);
      if (!related) {
        continue;
      }
      for (int k = 0; k < m->body_dofnum[c]; k++) {
        m->B_colind[adr + n++] = m->body_dofadr[c] + k;
      }
    }
    m->B_rownnz[b] = n;
    adr += n;
  }
}

/* dof_Madr and the M, D and B sparsity arrays */
void tn__fillSparsity(mjModel* m) {
  sparsity_m(m);
  sparsity_d(m);
  sparsity_b(m);
}
