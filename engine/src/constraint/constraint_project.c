/* constraint/constraint_project.c — mj_projectConstraint: the inverse inertia in constraint
 * space, AR = J inv(M) J' + diag(R), needed by the dual solvers (PGS, noslip).
 *
 * With M = L'DL, the whitened Jacobian Y = J L^-1 D^-1/2 gives AR = Y Y' + R. A row of Y is
 * non-zero on the dofs of its Jacobian row and all their ancestors, so in sparse mode AR is
 * stored in CSR with one non-zero per pair of rows whose Y patterns share a dof; dense mode
 * stores all of it. Dense mode forms each entry as MuJoCo does, a sequential sum over the
 * dofs in ascending order (row i of the lower triangle accumulates Y(i,c) times column c of
 * Y', skipping zero Y(i,c)); rows of Y are whitened four at a time. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* Y pattern of every row: its Jacobian's dofs and their ancestors, ascending (CSR in
 * rownnz/rowadr/colind, colind NULL only counts); returns the total non-zeros. mark: 2 nv
 * ints of scratch */
static int pattern_y(const mjModel* m, mjData* d, int* rownnz, int* rowadr, int* colind,
                     int* mark) {
  int nv = m->nv, total = 0;
  int* list = mark + nv;
  for (int c = 0; c < nv; c++) {
    mark[c] = -1;
  }
  int prev = 0;
  for (int i = 0; i < d->nefc; i++) {
    // a row with its predecessor's Jacobian pattern (a supernode) has its Y pattern too
    if (i > 0 && d->efc_J_rowsuper[i - 1] > 0) {
      if (colind) {
        memmove(colind + total, colind + total - prev, sizeof(int) * (size_t)prev);
      }
      if (rownnz) {
        rownnz[i] = prev;
        rowadr[i] = total;
      }
      total += prev;
      continue;
    }

    // mark the row's dofs and their ancestors (stop at dofs already marked), listing them
    int adr = d->efc_J_rowadr[i], n = 0;
    for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
      for (int c = d->efc_J_colind[adr + k]; c >= 0 && mark[c] != i; c = m->dof_parentid[c]) {
        mark[c] = i;
        list[n++] = c;
      }
    }

    // in ascending order (insertion sort: short lists, mostly in order already)
    for (int a = 1; colind && a < n; a++) {
      int c = list[a], b = a - 1;
      for (; b >= 0 && list[b] > c; b--) {
        list[b + 1] = list[b];
      }
      list[b + 1] = c;
    }
    if (colind) {
      memcpy(colind + total, list, sizeof(int) * (size_t)n);
    }
    if (rownnz) {
      rownnz[i] = n;
      rowadr[i] = total;
    }
    total += n;
    prev = n;
  }
  return total;
}

/* sparse AR pattern: per row, the rows whose Y patterns share one of its dofs (ascending);
 * colind NULL only counts. Returns the number of non-zeros.
 * A Y pattern is closed under dof_parentid, so it holds the root dof (parent -1) of every
 * dof in it: two rows share a dof exactly when they share a root. Each row's AR pattern is
 * therefore the union of the row lists of its roots, which come out ascending. */
static int pattern_ar(const mjModel* m, mjData* d, int* colind) {
  int nv = m->nv, nefc = d->nefc, nA = 0, prevfirst = 0;
  mj_markStack(d);

  // root dof of every dof (parents come first)
  int* root = mj_stackAllocInt(d, (size_t)nv);
  for (int c = 0; c < nv; c++) {
    int p = m->dof_parentid[c];
    root[c] = p < 0 ? c : root[p];
  }

  // distinct roots of every row (CSR in rnnz/radr/rcol; mark[r] = last row seen)
  int* mark = mj_stackAllocInt(d, (size_t)nv);
  int* rnnz = mj_stackAllocInt(d, (size_t)nefc);
  int* radr = mj_stackAllocInt(d, (size_t)nefc);
  int* rcol = mj_stackAllocInt(d, (size_t)(d->nJ > 0 ? d->nJ : 1));
  for (int c = 0; c < nv; c++) {
    mark[c] = -1;
  }
  int nR = 0, nInc = 0;
  for (int i = 0; i < nefc; i++) {
    // a row with its predecessor's Jacobian pattern shares its roots
    if (i > 0 && d->efc_J_rowsuper[i - 1] > 0) {
      radr[i] = radr[i - 1];
      rnnz[i] = rnnz[i - 1];
      nInc += rnnz[i];
      continue;
    }
    int adr = d->efc_J_rowadr[i];
    radr[i] = nR;
    for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
      int r = root[d->efc_J_colind[adr + k]];
      if (mark[r] != i) {
        mark[r] = i;
        rcol[nR++] = r;
      }
    }
    rnnz[i] = nR - radr[i];
    nInc += rnnz[i];
  }

  // root -> rows incidence (CSR by root dof, rows ascending)
  int* start = mj_stackAllocInt(d, (size_t)nv + 1);
  int* next = mj_stackAllocInt(d, (size_t)nv);
  int* rows = mj_stackAllocInt(d, (size_t)(nInc > 0 ? nInc : 1));
  for (int c = 0; c <= nv; c++) {
    start[c] = 0;
  }
  for (int i = 0; i < nefc; i++) {
    for (int k = 0; k < rnnz[i]; k++) {
      start[rcol[radr[i] + k] + 1]++;
    }
  }
  for (int c = 0; c < nv; c++) {
    start[c + 1] += start[c];
    next[c] = start[c];
  }
  for (int i = 0; i < nefc; i++) {
    for (int k = 0; k < rnnz[i]; k++) {
      rows[next[rcol[radr[i] + k]]++] = i;
    }
  }

  // per row: merge its roots' ascending lists, dropping repeats (next[] as cursors)
  for (int i = 0; i < nefc; i++) {
    int first = nA, nr = rnnz[i];
    const int* ri = rcol + radr[i];

    // a row with its predecessor's Jacobian pattern shares its roots, so its AR pattern
    if (i > 0 && d->efc_J_rowsuper[i - 1] > 0) {
      int len = nA - prevfirst;
      if (colind) {
        memmove(colind + nA, colind + prevfirst, sizeof(int) * (size_t)len);
        d->efc_AR_rownnz[i] = len;
        d->efc_AR_rowadr[i] = first;
      }
      nA += len;
      prevfirst = first;
      continue;
    }
    prevfirst = first;

    // one root (the common case): its list as it is
    if (nr == 1) {
      int r = ri[0], len = start[r + 1] - start[r];
      if (colind) {
        memcpy(colind + nA, rows + start[r], sizeof(int) * (size_t)len);
        d->efc_AR_rownnz[i] = len;
        d->efc_AR_rowadr[i] = first;
      }
      nA += len;
      continue;
    }
    for (int k = 0; k < nr; k++) {
      next[ri[k]] = start[ri[k]];
    }
    for (;;) {
      int best = -1;
      for (int k = 0; k < nr; k++) {
        int r = ri[k];
        if (next[r] < start[r + 1] && (best < 0 || rows[next[r]] < best)) {
          best = rows[next[r]];
        }
      }
      if (best < 0) {
        break;
      }
      for (int k = 0; k < nr; k++) {
        int r = ri[k];
        if (next[r] < start[r + 1] && rows[next[r]] == best) {
          next[r]++;
        }
      }
      if (colind) {
        colind[nA] = best;
      }
      nA++;
    }
    if (colind) {
      d->efc_AR_rownnz[i] = nA - first;
      d->efc_AR_rowadr[i] = first;
    }
  }
  mj_freeStack(d);
  return nA;
}

/* allocate efc_AR (and its sparse pattern) */
int tn__allocAR(const mjModel* m, mjData* d) {
  int nefc = d->nefc, sparse = is_sparse(m);
  tnARPattern kept;
  int cached = sparse && tn__arPatternCached(m, d, &kept);
  int nA = !sparse ? nefc * nefc : cached ? kept.nA : pattern_ar(m, d, NULL);

  // storage from the efc region
  d->efc_AR_colind = sparse ? tn__efcAllocInt(d, (size_t)(nA ? nA : 1)) : NULL;
  d->efc_AR = tn__efcAllocNum(d, (size_t)(nA ? nA : 1));
  if (!d->efc_AR || (sparse && !d->efc_AR_colind)) {
    mj_warning(d, mjWARN_CNSTRFULL, nefc);
    tn__efcRelease(d);
    return 0;
  }
  d->nA = nA;

  // sparse pattern: the one kept for this Jacobian pattern, else made and kept
  if (sparse && cached) {
    memcpy(d->efc_AR_rownnz, kept.AR_rownnz, sizeof(int) * (size_t)nefc);
    memcpy(d->efc_AR_rowadr, kept.AR_rowadr, sizeof(int) * (size_t)nefc);
    memcpy(d->efc_AR_colind, kept.AR_colind, sizeof(int) * (size_t)nA);
  } else if (sparse) {
    pattern_ar(m, d, d->efc_AR_colind);
    tn__arPatternStoreAR(m, d);
  }
  return 1;
}

/* row i of Y on its pattern (ycol, n dofs ascending: the row's dofs and all their
 * ancestors) into y: mj_solveM2 of the dense row restricted to the pattern, which holds
 * every non-zero of the solve (x(i) updates only ancestors of i, and zero x(i) are skipped
 * there too), in the same order. row: nv scratch, zero on entry and on return */
static void whiten_row_sparse(const mjModel* m, const mjData* d, int i, mjtNum* row,
                              const mjtNum* sqrtInvD, const int* ycol, int n, mjtNum* y) {
  const mjtNum* L = d->qLD;
  int adr = d->efc_J_rowadr[i];
  for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
    row[d->efc_J_colind[adr + k]] = d->efc_J[adr + k];
  }

  // x <- inv(L') x over the pattern, from the last dof
  for (int k = n - 1; k >= 0; k--) {
    int c = ycol[k];
    mjtNum xc = row[c];
    if (xc == 0) {
      continue;
    }
    int start = m->M_rowadr[c], diag = start + m->M_rownnz[c] - 1;
    for (int q = start; q < diag; q++) {
      row[m->M_colind[q]] -= L[q] * xc;
    }
  }

  // scale, gather, clear
  for (int k = 0; k < n; k++) {
    int c = ycol[k];
    row[c] *= sqrtInvD[c];
    y[k] = row[c];
    row[c] = 0;
  }
}

/* one dof c of inv(L') for four interleaved rows (x[4c + t] is row t's dof c): subtract
 * L(c, j) x(c) from each ancestor j, one vector per ancestor; nothing when x(c) is zero in
 * every row. Inline in the AVX2-cloned callers */
static inline void solve_dof4(const mjModel* m, const mjtNum* L, mjtNum* x, int c) {
  tn_vec4 xc = *(const tn_vec4*)(x + 4 * c);
  if (xc[0] == 0 && xc[1] == 0 && xc[2] == 0 && xc[3] == 0) {
    return;
  }
  int adr = m->M_rowadr[c], diag = adr + m->M_rownnz[c] - 1;
  for (int k = adr; k < diag; k++) {
    tn_vec4* xj = (tn_vec4*)(x + 4 * m->M_colind[k]);
    *xj -= L[k] * xc;
  }
}

/* dofs of a tree hanging from a free joint (dofs r..r+5, tn__freeRooted), all past the
 * joint's own, from the last: cnt of them, cols[0..cnt-1] ascending (NULL: first, first+1,
 * ...). For four interleaved rows: solve_dof4 with the joint's six vectors of x in
 * registers (each of these dofs subtracts from all six; through memory every subtraction
 * would wait for the last one's store). Each entry sees the same subtractions in the same
 * order */
static inline __attribute__((always_inline)) void solve_free_tree4(const mjModel* m,
                                                                   const mjtNum* L, mjtNum* x,
                                                                   int r, const int* cols,
                                                                   int first, int cnt) {
  tn_vec4 x0 = *(const tn_vec4*)(x + 4 * r), x1 = *(const tn_vec4*)(x + 4 * (r + 1));
  tn_vec4 x2 = *(const tn_vec4*)(x + 4 * (r + 2)), x3 = *(const tn_vec4*)(x + 4 * (r + 3));
  tn_vec4 x4 = *(const tn_vec4*)(x + 4 * (r + 4)), x5 = *(const tn_vec4*)(x + 4 * (r + 5));
  for (int k = cnt - 1; k >= 0; k--) {
    int c = cols ? cols[k] : first + k;
    tn_vec4 xc = *(const tn_vec4*)(x + 4 * c);
    if (xc[0] == 0 && xc[1] == 0 && xc[2] == 0 && xc[3] == 0) {
      continue;
    }
    int adr = m->M_rowadr[c], diag = adr + m->M_rownnz[c] - 1;
    x0 -= L[adr] * xc;
    x1 -= L[adr + 1] * xc;
    x2 -= L[adr + 2] * xc;
    x3 -= L[adr + 3] * xc;
    x4 -= L[adr + 4] * xc;
    x5 -= L[adr + 5] * xc;
    for (int q = adr + 6; q < diag; q++) {
      tn_vec4* xj = (tn_vec4*)(x + 4 * m->M_colind[q]);
      *xj -= L[q] * xc;
    }
  }
  *(tn_vec4*)(x + 4 * r) = x0;
  *(tn_vec4*)(x + 4 * (r + 1)) = x1;
  *(tn_vec4*)(x + 4 * (r + 2)) = x2;
  *(tn_vec4*)(x + 4 * (r + 3)) = x3;
  *(tn_vec4*)(x + 4 * (r + 4)) = x4;
  *(tn_vec4*)(x + 4 * (r + 5)) = x5;
}

/* x <- inv(L') x for four interleaved rows, from the last dof up: tree by tree (a tree's
 * rows touch only its own dofs), a free-rooted tree's descendants with the joint's entries
 * held in registers (solve_free_tree4) */
static inline __attribute__((always_inline)) void solve_lt4(const mjModel* m, const mjtNum* L,
                                                            mjtNum* x) {
  if (!tn__treesInOrder(m)) {
    for (int c = m->nv - 1; c >= 0; c--) {
      solve_dof4(m, L, x, c);
    }
    return;
  }
  for (int t = m->ntree - 1; t >= 0; t--) {
    int r = m->tree_dofadr[t], n = m->tree_dofnum[t];
    if (tn__freeRooted(m, t)) {
      solve_free_tree4(m, L, x, r, NULL, r + 6, n - 6);
      n = 6;
    }
    for (int c = r + n - 1; c >= r; c--) {
      solve_dof4(m, L, x, c);
    }
  }
}

/* rows i..i+g-1 of Y (2 <= g <= 4), which share their Jacobian's pattern and so their Y
 * pattern (ycol, n dofs ascending), into Y (row t at y + t n), solved together as the
 * dense whiten_block does: x[4c + t] holds row t's dof c, one vector update per pattern
 * entry. x: 4 nv scratch, zero on entry and on return */
static TN_CLONE_AVX2 void whiten_rows_sparse(const mjModel* m, const mjData* d, int i, int g,
                                             mjtNum* x, const mjtNum* sqrtInvD,
                                             const int* ycol, int n, mjtNum* y) {
  const mjtNum* L = d->qLD;
  for (int t = 0; t < g; t++) {
    int adr = d->efc_J_rowadr[i + t];
    for (int k = 0; k < d->efc_J_rownnz[i + t]; k++) {
      x[4 * d->efc_J_colind[adr + k] + t] = d->efc_J[adr + k];
    }
  }

  // x <- inv(L') x over the pattern, from the last dof; a run of dofs of one free-rooted
  // tree past its joint's own with the joint's entries in registers
  for (int k = n - 1; k >= 0;) {
    int c = ycol[k], t = m->dof_treeid[c], r = m->tree_dofadr[t];
    if (c < r + 6 || !tn__freeRooted(m, t)) {
      solve_dof4(m, L, x, c);
      k--;
      continue;
    }
    int k0 = k;
    while (k0 > 0 && ycol[k0 - 1] >= r + 6 && m->dof_treeid[ycol[k0 - 1]] == t) {
      k0--;
    }
    solve_free_tree4(m, L, x, r, ycol + k0, 0, k - k0 + 1);
    k = k0 - 1;
  }

  // scale, gather, clear
  for (int k = 0; k < n; k++) {
    int c = ycol[k];
    tn_vec4 yc = *(const tn_vec4*)(x + 4 * c) * sqrtInvD[c];
    for (int t = 0; t < g; t++) {
      y[(size_t)t * n + k] = yc[t];
    }
    *(tn_vec4*)(x + 4 * c) = (tn_vec4){0, 0, 0, 0};
  }
}

/* dense rows i..i+nb-1 of Y (nb <= 4), solved together: the rows sit interleaved in x
 * (x[4c + r] is row r's dof c), so each L entry is loaded once for all of them. Every row
 * sees exactly the operations of its own solve (a row's zero entries only subtract exact
 * zeros), so the result equals a single row's solve row by row; the AVX2 clone holds the
 * four rows in one register with the same operations per row. Out: the columns of YT (nefc
 * apart) and, per row r, its non-zeros in ascending dofs (ycol/yval at (i+r) nv, count in
 * ynnz[i+r]; ycol/yval hold 4 rows past i). x: 4 nv scratch */
static TN_CLONE_AVX2 void whiten_block(const mjModel* m, const mjData* d, int i, int nb,
                                       mjtNum* YT, int* ycol, mjtNum* yval, int* ynnz,
                                       int nefc, const mjtNum* sqrtInvD, mjtNum* x) {
  int nv = m->nv;
  const mjtNum* L = d->qLD;
  const mjtNum* J = d->efc_J + (size_t)i * nv;

  // gather the dense J rows interleaved (unused slots zero), each dof's four entries stored
  // as one vector (which the solve then loads whole: a vector load waits for narrower
  // stores still in flight to reach the cache)
  if (nb == 4) {
    for (int c = 0; c < nv; c++) {
      *(tn_vec4*)(x + 4 * c) = (tn_vec4){J[c], J[nv + c], J[2 * nv + c], J[3 * nv + c]};
    }
  } else {
    mju_zero(x, 4 * nv);
    for (int r = 0; r < nb; r++) {
      for (int c = 0; c < nv; c++) {
        x[4 * c + r] = J[(size_t)r * nv + c];
      }
    }
  }

  // x <- inv(L') x, from the last dof up
  solve_lt4(m, L, x);

  // scale by sqrt(inv(D)) into the columns of YT, listing each row's non-zeros (the lists
  // of rows past nb stay empty: their entries are zero)
  int* col = ycol + (size_t)i * nv;
  mjtNum* val = yval + (size_t)i * nv;
  int n0 = 0, n1 = 0, n2 = 0, n3 = 0;
  for (int c = 0; c < nv; c++) {
    tn_vec4 yc = *(const tn_vec4*)(x + 4 * c) * sqrtInvD[c];
    mjtNum* ytc = YT + (size_t)c * nefc + i;
    if (nb == 4) {
      *(tn_vec4*)ytc = yc;
    } else {
      for (int r = 0; r < nb; r++) {
        ytc[r] = yc[r];
      }
    }
    if (yc[0] == 0 && yc[1] == 0 && yc[2] == 0 && yc[3] == 0) {
      continue;
    }
    col[n0] = c;
    val[n0] = yc[0];
    n0 += yc[0] != 0;
    col[nv + n1] = c;
    val[nv + n1] = yc[1];
    n1 += yc[1] != 0;
    col[2 * nv + n2] = c;
    val[2 * nv + n2] = yc[2];
    n2 += yc[2] != 0;
    col[3 * nv + n3] = c;
    val[3 * nv + n3] = yc[3];
    n3 += yc[3] != 0;
  }
  int n[4] = {n0, n1, n2, n3};
  for (int r = 0; r < nb; r++) {
    ynnz[i + r] = n[r];
  }
}

/* entries (i, j..j+3) of AR, just summed, also into their mirror places (j..j+3, i) */
static inline __attribute__((always_inline)) void mirror(mjtNum* AR, tn_vec4 s, int i, int j,
                                                         int nefc) {
  mjtNum* col = AR + (size_t)j * nefc + i;
  col[0] = s[0];
  col[nefc] = s[1];
  col[2 * (size_t)nefc] = s[2];
  col[3 * (size_t)nefc] = s[3];
}

/* the lower triangle of AR = Y Y' (dense, row-major nefc x nefc): entry (i, j) is the sum
 * over row i's non-zero dofs c in order of Y(i,c) Y(j,c), from +0 (each entry a sequential
 * sum as MuJoCo forms it; zero Y(i,c) are skipped). Entries are independent: eight or four
 * of a row at a time, their sums held in registers over all of the row's dofs (the AVX2
 * clone: one register per four entries), each stored in its place and in its mirror place
 * (the upper triangle) */
static TN_CLONE_AVX2 void dense_lower(mjtNum* AR, const mjtNum* YT, const int* ycol,
                                      const mjtNum* yval, const int* ynnz, int nefc, int nv) {
  for (int i = 0; i < nefc; i++) {
    mjtNum* ari = AR + (size_t)i * nefc;
    const int* ci = ycol + (size_t)i * nv;
    const mjtNum* vi = yval + (size_t)i * nv;
    int nnz = ynnz[i], n = i + 1, j = 0;
    for (; j + 8 <= n; j += 8) {
      tn_vec4 s0 = {0, 0, 0, 0}, s1 = {0, 0, 0, 0};
      for (int k = 0; k < nnz; k++) {
        const mjtNum* yt = YT + (size_t)ci[k] * nefc + j;
        s0 += vi[k] * *(const tn_vec4*)yt;
        s1 += vi[k] * *(const tn_vec4*)(yt + 4);
      }
      *(tn_vec4*)(ari + j) = s0;
      *(tn_vec4*)(ari + j + 4) = s1;
      mirror(AR, s0, i, j, nefc);
      mirror(AR, s1, i, j + 4, nefc);
    }
    for (; j + 4 <= n; j += 4) {
      tn_vec4 s0 = {0, 0, 0, 0};
      for (int k = 0; k < nnz; k++) {
        s0 += vi[k] * *(const tn_vec4*)(YT + (size_t)ci[k] * nefc + j);
      }
      *(tn_vec4*)(ari + j) = s0;
      mirror(AR, s0, i, j, nefc);
    }
    for (; j < n; j++) {
      mjtNum s = 0;
      for (int k = 0; k < nnz; k++) {
        s += vi[k] * YT[(size_t)ci[k] * nefc + j];
      }
      ari[j] = s;
      AR[(size_t)j * nefc + i] = s;
    }
  }
}

/* v[t] = sum over the pattern cj (n dofs) of row[c] Y(j+t, c), t < g, for g rows of Y
 * stored one after another on the same pattern (y: the first); each a sequential sum in
 * pattern order, up to four of them interleaved */
static inline void pair_sums(const mjtNum* row, const int* cj, int n, const mjtNum* y, int g,
                             mjtNum* v) {
  if (g == 1) {
    mjtNum v0 = 0;
    for (int t = 0; t < n; t++) {
      v0 += row[cj[t]] * y[t];
    }
    v[0] = v0;
    return;
  }

  // rows past g repeat the last one (computed, not stored)
  const mjtNum* y1 = y + n;
  const mjtNum* y2 = y + (g > 2 ? 2 : 1) * (size_t)n;
  const mjtNum* y3 = y + (size_t)(g - 1) * n;
  mjtNum v0 = 0, v1 = 0, v2 = 0, v3 = 0;
  for (int t = 0; t < n; t++) {
    mjtNum r = row[cj[t]];
    v0 += r * y[t];
    v1 += r * y1[t];
    v2 += r * y2[t];
    v3 += r * y3[t];
  }
  v[0] = v0;
  v[1] = v1;
  v[2] = v2;
  v[3] = v3;
}

/* AR = Y Y' + diag(R) */
void mj_projectConstraint(const mjModel* m, mjData* d) {
  int nv = m->nv, nefc = d->nefc, sparse = is_sparse(m);
  if (!nefc || !d->efc_AR) {
    return;
  }
  mj_markStack(d);
  mjtNum* sqrtInvD = mj_stackAllocNum(d, (size_t)nv);
  for (int i = 0; i < nv; i++) {
    sqrtInvD[i] = sqrt(d->qLDiagInv[i]);
  }

  // dense: all rows of Y and their transpose, then the lower triangle mirrored
  if (!sparse) {
    mjtNum* YT = mj_stackAllocNum(d, (size_t)nv * nefc);
    mjtNum* yval = mj_stackAllocNum(d, (size_t)(nefc + 3) * nv);
    int* ycol = mj_stackAllocInt(d, (size_t)(nefc + 3) * nv);
    int* ynnz = mj_stackAllocInt(d, (size_t)nefc);
    mjtNum* x = mj_stackAllocNum(d, (size_t)4 * nv);
    for (int i = 0; i < nefc; i += 4) {
      whiten_block(m, d, i, nefc - i < 4 ? nefc - i : 4, YT, ycol, yval, ynnz, nefc, sqrtInvD,
                   x);
    }

    // row i of the lower triangle accumulates Y(i,c) Y(0..i,c) over the dofs c in order
    dense_lower(d->efc_AR, YT, ycol, yval, ynnz, nefc, nv);

    // R on the diagonal (dense_lower also wrote the upper triangle)
    for (int i = 0; i < nefc; i++) {
      d->efc_AR[(size_t)i * nefc + i] += d->efc_R[i];
    }
  }

  // sparse: Y in CSR on its pattern, then each stored pair once (j <= i) and mirrored
  else {
    // Y's pattern: the one kept for this Jacobian pattern, else made (and kept)
    const int *ynnz, *yadr, *ycol;
    int nY;
    tnARPattern kept;
    if (tn__arPatternCached(m, d, &kept) && kept.nY >= 0) {
      ynnz = kept.ynnz;
      yadr = kept.yadr;
      ycol = kept.ycol;
      nY = kept.nY;
    } else {
      int* mark = mj_stackAllocInt(d, (size_t)(2 * nv));
      int* nnz = mj_stackAllocInt(d, (size_t)nefc);
      int* adr = mj_stackAllocInt(d, (size_t)nefc);
      nY = pattern_y(m, d, NULL, NULL, NULL, mark);
      int* col = mj_stackAllocInt(d, (size_t)(nY > 0 ? nY : 1));
      pattern_y(m, d, nnz, adr, col, mark);
      tn__arPatternStoreY(m, d, nnz, adr, col, nY);
      ynnz = nnz;
      yadr = adr;
      ycol = col;
    }
    mjtNum* Y = mj_stackAllocNum(d, (size_t)(nY > 0 ? nY : 1));
    mjtNum* row = mj_stackAllocNum(d, (size_t)nv);
    mju_zero(row, nv);
    mjtNum* x = mj_stackAllocNum(d, (size_t)4 * nv);
    mju_zero(x, 4 * nv);
    for (int i = 0; i < nefc;) {
      // rows sharing row i's Jacobian pattern four at a time, else alone
      int g = 1 + d->efc_J_rowsuper[i];
      g = g > 4 ? 4 : g;
      if (g == 1) {
        whiten_row_sparse(m, d, i, row, sqrtInvD, ycol + yadr[i], ynnz[i], Y + yadr[i]);
      } else {
        whiten_rows_sparse(m, d, i, g, x, sqrtInvD, ycol + yadr[i], ynnz[i], Y + yadr[i]);
      }
      i += g;
    }

    // cursor[j]: the next entry of row j above its diagonal (filled by the rows i > j in
    // ascending order, which is the order of row j's columns)
    int* cursor = mj_stackAllocInt(d, (size_t)nefc);
    mju_zero(row, nv);
    for (int i = 0; i < nefc; i++) {
      // row i of Y scattered densely: a pair's sum over row j's pattern then adds the shared
      // dofs' products in ascending order and exact zeros elsewhere (the sparse dot product)
      const mjtNum* yi = Y + yadr[i];
      const int* ci = ycol + yadr[i];
      for (int k = 0; k < ynnz[i]; k++) {
        row[ci[k]] = yi[k];
      }
      int adr = d->efc_AR_rowadr[i], nnz = d->efc_AR_rownnz[i];
      const int* arcol = d->efc_AR_colind + adr;
      for (int k = 0; k < nnz;) {
        int j = arcol[k];
        if (j > i) {
          cursor[i] = adr + k;
          break;
        }

        // rows j.. with j's Jacobian (so Y) pattern, up to row i, four at most: their sums
        // run side by side over the shared pattern, each in its own order
        int g = 1;
        while (g < 4 && g <= d->efc_J_rowsuper[j] && j + g <= i && k + g < nnz &&
               arcol[k + g] == j + g) {
          g++;
        }
        mjtNum v[4];
        pair_sums(row, ycol + yadr[j], ynnz[j], Y + yadr[j], g, v);
        for (int t = 0; t < g; t++) {
          int jt = j + t;
          if (jt == i) {
            d->efc_AR[adr + k + t] = v[t] + d->efc_R[i];
          } else {
            d->efc_AR[adr + k + t] = v[t];
            d->efc_AR[cursor[jt]++] = v[t];
          }
        }
        k += g;
      }
      for (int k = 0; k < ynnz[i]; k++) {
        row[ci[k]] = 0;
      }
    }
  }
  mj_freeStack(d);
}
