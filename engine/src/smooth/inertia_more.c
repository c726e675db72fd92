/* smooth/inertia_more.c — more uses of the joint-space inertia M (CSR in d->M with the
 * model's M_rownnz/M_rowadr/M_colind): the product with M^(1/2) from its L'DL factor,
 * adding M into a dense or sparse matrix, and mj_makeM.
 *
 * M's rows hold the lower triangle (ancestor columns in increasing order, diagonal last). */
#include <math.h>

#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* the inertia matrix d->M (composite inertias, armature, tendon armature) */
void mj_makeM(const mjModel* m, mjData* d) {
  mj_crb(m, d);
}

/* res = sqrt(D) L vec with M = L'DL from d->qLD: then |res|^2 = vec' M vec */
void mj_mulM2(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec) {
  int nv = m->nv;
  const mjtNum* qLD = d->qLD;

  // res = L vec (unit diagonal; simple dofs have no off-diagonal entries)
  for (int i = 0; i < nv; i++) {
    res[i] = vec[i];
    if (!m->dof_simplenum[i]) {
      int adr = m->M_rowadr[i], diag = adr + m->M_rownnz[i] - 1;
      mjtNum sum = 0;
      for (int k = adr; k < diag; k++) {
        sum += qLD[k] * vec[m->M_colind[k]];
      }
      res[i] += sum;
    }
  }

  // scale by the square root of D
  for (int i = 0; i < nv; i++) {
    res[i] *= sqrt(qLD[m->M_rowadr[i] + m->M_rownnz[i] - 1]);
  }
}

/* merge M's row i into row i of a CSR matrix (sorted columns, entries at rowadr[i] with room
 * for the union), summing where the columns agree; buf_val/buf_ind hold nv entries. The
 * off-diagonal slots Torsion's pattern keeps for simple dofs (always zero) are left out. */
static void add_row_sparse(const mjModel* m, const mjData* d, int i, mjtNum* dst, int* rownnz,
                           const int* rowadr, int* colind, mjtNum* buf_val, int* buf_ind) {
  int adr = rowadr[i], n = rownnz[i];
  int madr = m->M_rowadr[i], mn = m->M_rownnz[i];

  // a simple dof's row is its diagonal alone (MuJoCo's pattern has no zeros to merge)
  if (m->dof_simplenum[i]) {
    madr += mn - 1;
    mn = 1;
  }
  int a = 0, b = 0, k = 0;

  // two sorted lists into the buffers
  while (a < n || b < mn) {
    int ca = a < n ? colind[adr + a] : 1 << 30;
    int cb = b < mn ? m->M_colind[madr + b] : 1 << 30;
    if (ca == cb) {
      buf_val[k] = dst[adr + a++] + d->M[madr + b++];
      buf_ind[k++] = ca;
    } else if (ca < cb) {
      buf_val[k] = dst[adr + a++];
      buf_ind[k++] = ca;
    } else {
      buf_val[k] = d->M[madr + b++];
      buf_ind[k++] = cb;
    }
  }

  // back into the row
  for (int j = 0; j < k; j++) {
    dst[adr + j] = buf_val[j];
    colind[adr + j] = buf_ind[j];
  }
  rownnz[i] = k;
}

/* dst += M (lower triangle): dense nv x nv when the index arrays are NULL, else a CSR
 * matrix whose rows have room for the union of their pattern and M's */
void mj_addM(const mjModel* m, mjData* d, mjtNum* dst, int* rownnz, int* rowadr, int* colind) {
  int nv = m->nv;

  // sparse destination: merge row by row
  if (rownnz && rowadr && colind) {
    mj_markStack(d);
    mjtNum* buf_val = mj_stackAllocNum(d, (size_t)nv + 1);
    int* buf_ind = mj_stackAllocInt(d, (size_t)nv + 1);
    for (int i = 0; i < nv; i++) {
      add_row_sparse(m, d, i, dst, rownnz, rowadr, colind, buf_val, buf_ind);
    }
    mj_freeStack(d);
    return;
  }

  // dense destination: scatter the stored (lower) entries
  for (int i = 0; i < nv; i++) {
    int adr = m->M_rowadr[i], end = adr + m->M_rownnz[i];
    for (int k = adr; k < end; k++) {
      dst[(size_t)i * nv + m->M_colind[k]] += d->M[k];
    }
  }
}
