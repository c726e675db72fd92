/* constraint/constraint_project.c — mj_projectConstraint: the inverse inertia in constraint
 * space, AR = J inv(M) J' + diag(R), needed by the dual solvers (PGS, noslip).
 *
 * With M = L'DL, the whitened Jacobian Y = J L^-1 D^-1/2 gives AR = Y Y' + R. A row of Y is
 * non-zero on the dofs of its Jacobian row and all their ancestors, so in sparse mode AR is
 * stored in CSR with one non-zero per pair of rows whose Y patterns share a dof; dense mode
 * stores all of it. */
#include <math.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* Y pattern of every row: its Jacobian's dofs and their ancestors, ascending (CSR in
 * rownnz/rowadr/colind, colind NULL only counts); returns the total non-zeros */
static int patternY(const mjModel* m, mjData* d, int* rownnz, int* rowadr, int* colind,
                    int* mark) {
  int nv = m->nv, total = 0;
  for (int c = 0; c < nv; c++) {
    mark[c] = -1;
  }
  for (int i = 0; i < d->nefc; i++) {
    // mark the row's dofs and their ancestors (stop at dofs already marked)
    int adr = d->efc_J_rowadr[i];
    for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
      for (int c = d->efc_J_colind[adr + k]; c >= 0 && mark[c] != i; c = m->dof_parentid[c]) {
        mark[c] = i;
      }
    }

    // collect in order
    int n = 0;
    for (int c = 0; c < nv; c++) {
      if (mark[c] == i) {
        if (colind) {
          colind[total + n] = c;
        }
        n++;
      }
    }
    if (rownnz) {
      rownnz[i] = n;
      rowadr[i] = total;
    }
    total += n;
  }
  return total;
}

/* sparse AR pattern: per row, the rows whose Y patterns share one of its dofs (ascending);
 * colind NULL only counts. Returns the number of non-zeros. */
static int patternAR(const mjModel* m, mjData* d, int* colind) {
  int nv = m->nv, nefc = d->nefc, nA = 0;
  mj_markStack(d);

  // Y patterns
  int* mark = mj_stackAllocInt(d, (size_t)(nv > nefc ? nv : nefc));
  int* ynnz = mj_stackAllocInt(d, (size_t)nefc);
  int* yadr = mj_stackAllocInt(d, (size_t)nefc);
  int nY = patternY(m, d, NULL, NULL, NULL, mark);
  int* ycol = mj_stackAllocInt(d, (size_t)(nY > 0 ? nY : 1));
  patternY(m, d, ynnz, yadr, ycol, mark);

  // dof -> rows incidence (CSR by dof)
  int* start = mj_stackAllocInt(d, (size_t)nv + 1);
  int* next = mj_stackAllocInt(d, (size_t)nv);
  for (int c = 0; c <= nv; c++) {
    start[c] = 0;
  }
  for (int k = 0; k < nY; k++) {
    start[ycol[k] + 1]++;
  }
  for (int c = 0; c < nv; c++) {
    start[c + 1] += start[c];
    next[c] = start[c];
  }
  int* rows = mj_stackAllocInt(d, (size_t)(nY > 0 ? nY : 1));
  for (int i = 0; i < nefc; i++) {
    for (int k = 0; k < ynnz[i]; k++) {
      int c = ycol[yadr[i] + k];
      rows[next[c]++] = i;
    }
  }

  // per row: the union of its dofs' row lists, marked once
  for (int i = 0; i < nefc; i++) {
    mark[i] = -1;
  }
  for (int i = 0; i < nefc; i++) {
    int first = nA;
    for (int k = 0; k < ynnz[i]; k++) {
      int c = ycol[yadr[i] + k];
      for (int p = start[c]; p < start[c + 1]; p++) {
        if (mark[rows[p]] != i) {
          mark[rows[p]] = i;
          if (colind) {
            colind[nA] = rows[p];
          }
          nA++;
        }
      }
    }

    // record the row, columns ascending (insertion sort: rows are short)
    if (colind) {
      d->efc_AR_rownnz[i] = nA - first;
      d->efc_AR_rowadr[i] = first;
      int* col = colind + first;
      for (int a = 1; a < nA - first; a++) {
        int v = col[a], b = a - 1;
        while (b >= 0 && col[b] > v) {
          col[b + 1] = col[b];
          b--;
        }
        col[b + 1] = v;
      }
    }
  }
  mj_freeStack(d);
  return nA;
}

/* allocate efc_AR (and its sparse pattern) */
int tn_allocAR(const mjModel* m, mjData* d) {
  int nefc = d->nefc, sparse = tn_isSparse(m);
  int nA = sparse ? patternAR(m, d, NULL) : nefc * nefc;

  // storage from the efc region
  d->efc_AR_colind = sparse ? tn_efcAllocInt(d, (size_t)(nA ? nA : 1)) : NULL;
  d->efc_AR = tn_efcAllocNum(d, (size_t)(nA ? nA : 1));
  if (!d->efc_AR || (sparse && !d->efc_AR_colind)) {
    mj_warning(d, mjWARN_CNSTRFULL, nefc);
    tn_efcRelease(d);
    return 0;
  }
  d->nA = nA;

  // sparse pattern
  if (sparse) {
    patternAR(m, d, d->efc_AR_colind);
  }
  return 1;
}

/* dot product of two sparse rows with ascending indices */
static mjtNum dotSparse2(const mjtNum* v1, const int* i1, int n1, const mjtNum* v2,
                         const int* i2, int n2) {
  mjtNum res = 0;
  int a = 0, b = 0;
  while (a < n1 && b < n2) {
    if (i1[a] == i2[b]) {
      res += v1[a++] * v2[b++];
    } else if (i1[a] < i2[b]) {
      a++;
    } else {
      b++;
    }
  }
  return res;
}

/* dense whitened row i of Y = J L^-1 D^-1/2 */
static void whitenRow(const mjModel* m, mjData* d, int i, mjtNum* row,
                      const mjtNum* sqrtInvD) {
  tn_rowDense(m, d, i, row);
  mj_solveM2(m, d, row, row, sqrtInvD, 1);
}

/* AR = Y Y' + diag(R) */
void mj_projectConstraint(const mjModel* m, mjData* d) {
  int nv = m->nv, nefc = d->nefc, sparse = tn_isSparse(m);
  if (!nefc || !d->efc_AR) {
    return;
  }
  mj_markStack(d);
  mjtNum* sqrtInvD = mj_stackAllocNum(d, (size_t)nv);
  for (int i = 0; i < nv; i++) {
    sqrtInvD[i] = sqrt(d->qLDiagInv[i]);
  }

  // dense: all rows of Y, then the lower triangle by dot products, mirrored
  if (!sparse) {
    mjtNum* Y = mj_stackAllocNum(d, (size_t)nefc * nv);
    for (int i = 0; i < nefc; i++) {
      whitenRow(m, d, i, Y + (size_t)i * nv, sqrtInvD);
    }
    for (int i = 0; i < nefc; i++) {
      for (int j = 0; j <= i; j++) {
        mjtNum v = tnu_dot(Y + (size_t)i * nv, Y + (size_t)j * nv, nv);
        d->efc_AR[(size_t)i * nefc + j] = v;
        d->efc_AR[(size_t)j * nefc + i] = v;
      }
      d->efc_AR[(size_t)i * nefc + i] += d->efc_R[i];
    }
  }

  // sparse: Y in CSR on its pattern, then each stored pair
  else {
    int* mark = mj_stackAllocInt(d, (size_t)nv);
    int* ynnz = mj_stackAllocInt(d, (size_t)nefc);
    int* yadr = mj_stackAllocInt(d, (size_t)nefc);
    int nY = patternY(m, d, NULL, NULL, NULL, mark);
    int* ycol = mj_stackAllocInt(d, (size_t)(nY > 0 ? nY : 1));
    mjtNum* Y = mj_stackAllocNum(d, (size_t)(nY > 0 ? nY : 1));
    mjtNum* row = mj_stackAllocNum(d, (size_t)nv);
    patternY(m, d, ynnz, yadr, ycol, mark);
    for (int i = 0; i < nefc; i++) {
      whitenRow(m, d, i, row, sqrtInvD);
      for (int k = 0; k < ynnz[i]; k++) {
        Y[yadr[i] + k] = row[ycol[yadr[i] + k]];
      }
    }
    for (int i = 0; i < nefc; i++) {
      int adr = d->efc_AR_rowadr[i];
      for (int k = 0; k < d->efc_AR_rownnz[i]; k++) {
        int j = d->efc_AR_colind[adr + k];
        mjtNum v = dotSparse2(Y + yadr[i], ycol + yadr[i], ynnz[i], Y + yadr[j],
                              ycol + yadr[j], ynnz[j]);
        d->efc_AR[adr + k] = v + (i == j ? d->efc_R[i] : 0);
      }
    }
  }
  mj_freeStack(d);
}
