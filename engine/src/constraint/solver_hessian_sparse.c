/* constraint/solver_hessian_sparse.c — Newton's Hessian H = M + J' D_active J (+ cones) as a
 * sparse L'DL factor, for models with a sparse constraint Jacobian (many dofs).
 *
 * M couples a dof with its ancestors, and a row's Jacobian is non-zero on a set of dofs, so
 * H is sparse: M's pattern plus one clique per row. Rows coupling different trees (bodies
 * piled on each other) create fill when eliminated, and the natural order (the last dof
 * first) can make an order of magnitude more of it than necessary; so, once per solve, a
 * minimum-degree ordering of the graph of M and every row (whatever its state, so that the
 * pattern holds for every iteration) is computed, with the factor's pattern as a by-product;
 * with constraint islands, island by island (the graph's components), each island taking a
 * contiguous block of factor rows that its solve alone builds, factors and solves. The
 * ordering and pattern are kept in the mjData's persistent cache and reused while the
 * graphs repeat (most steps of a robot resting on the floor).
 * Dofs are renumbered so that the first eliminated is the last index, and the factor is
 * stored like qLD: CSR rows of the renumbered matrix, columns ascending, diagonal last.
 * The address in H of every entry of M and of every row block is found once; each rebuild
 * adds M and the active rows (dense blocks of rows sharing a pattern) through these maps
 * and factors left-looking with a dense work row. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/solver_primal.h"
#include "model/data_cache.h"
#include "util/util_inline.h"

/* ---------------------------------------------------------------------------------------
 * Ordering and pattern
 * ------------------------------------------------------------------------------------- */

/* words of a bitset over nv dofs */
static int nwords(int nv) {
  return (nv + 63) / 64;
}

/* set bit j of bitset row i */
static void set_bit(uint64_t* bits, int words, int i, int j) {
  bits[(size_t)i * words + (j >> 6)] |= (uint64_t)1 << (j & 63);
}

/* number of set bits of a word (bit-parallel count: no library call) */
static inline int popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* number of set bits of a bitset row */
static int count_bits(const uint64_t* row, int words) {
  int n = 0;
  for (int w = 0; w < words; w++) {
    n += popcount64(row[w]);
  }
  return n;
}

/* symmetric adjacency of one group's dofs (local indices: loc[dof]): M (each dof with its
 * ancestors, in the same tree hence the same group) and the clique of every distinct row
 * pattern among the group's rows (rows[0..nrow), NULL: all rows; runs[i] 1 at the first
 * row of each run of rows sharing a pattern). adj holds n + 1 bitset rows (the last is
 * scratch); desc n more (scratch). */
static void build_graph(const mjModel* m, const mjData* d, const int* dofs, int n, const int* loc,
                        const int* rows, int nrow, const char* runs, uint64_t* adj, int words,
                        uint64_t* desc) {
  memset(adj, 0, sizeof(uint64_t) * (size_t)n * words);

  // M: row i of M holds i's ancestors (the last its parent, an earlier dof of the group),
  // so a dof's ancestors are its parent's plus the parent, and its descendants (in desc,
  // n bitset rows) its children's plus the children
  memset(desc, 0, sizeof(uint64_t) * (size_t)n * words);
  for (int a = 0; a < n; a++) {
    int i = dofs[a], nanc = m->M_rownnz[i] - 1;
    if (nanc > 0) {
      int p = loc[m->M_colind[m->M_rowadr[i] + nanc - 1]];
      uint64_t *row = adj + (size_t)a * words, *prow = adj + (size_t)p * words;
      for (int w = 0; w < words; w++) {
        row[w] |= prow[w];
      }
      set_bit(adj, words, a, p);
    }
  }
  for (int a = n - 1; a >= 0; a--) {
    int i = dofs[a], nanc = m->M_rownnz[i] - 1;
    uint64_t *row = adj + (size_t)a * words, *drow = desc + (size_t)a * words;
    for (int w = 0; w < words; w++) {
      row[w] |= drow[w];
    }
    if (nanc > 0) {
      int p = loc[m->M_colind[m->M_rowadr[i] + nanc - 1]];
      uint64_t* dp = desc + (size_t)p * words;
      for (int w = 0; w < words; w++) {
        dp[w] |= drow[w];
      }
      set_bit(desc, words, p, a);
    }
  }

  // rows, once per run of rows sharing a pattern: the pattern's bitset (in the scratch
  // row past the graph) joins the row of each of its dofs
  uint64_t* pat = adj + (size_t)n * words;
  for (int e = 0; e < nrow; e++) {
    int i = rows ? rows[e] : e;
    if (!runs[i]) {
      continue;
    }
    const int* col = d->efc_J_colind + d->efc_J_rowadr[i];
    int nc = d->efc_J_rownnz[i];
    memset(pat, 0, sizeof(uint64_t) * (size_t)words);
    for (int a = 0; a < nc; a++) {
      set_bit(pat, words, 0, loc[col[a]]);
    }
    for (int a = 0; a < nc; a++) {
      uint64_t* row = adj + (size_t)loc[col[a]] * words;
      for (int w = 0; w < words; w++) {
        row[w] |= pat[w];
      }
    }
  }

  // no dof is its own neighbour
  for (int a = 0; a < n; a++) {
    adj[(size_t)a * words + (a >> 6)] &= ~((uint64_t)1 << (a & 63));
  }
}

/* move dof u to the bucket of degree dnew (buckets: one bitset of dofs per degree) */
static void rebucket(uint64_t* bucket, int words, int* deg, int u, int dnew) {
  if (deg[u] >= 0) {
    bucket[(size_t)deg[u] * words + (u >> 6)] &= ~((uint64_t)1 << (u & 63));
  }
  deg[u] = dnew;
  if (dnew >= 0) {
    set_bit(bucket, words, dnew, u);
  }
}

/* the largest dof in the lowest non-empty bucket at or above *dmin (which it updates) */
static int pick_minimum(const uint64_t* bucket, int words, int nv, int* dmin) {
  for (int d = *dmin; d < nv; d++) {
    const uint64_t* row = bucket + (size_t)d * words;
    for (int w = words - 1; w >= 0; w--) {
      if (row[w]) {
        *dmin = d;
        return w * 64 + 63 - __builtin_clzll(row[w]);
      }
    }
  }
  return -1;
}

/* minimum-degree elimination of the graph (ties: the largest dof first, which is the
 * natural order on a tree): newidx[v] = nv-1 - (step at which v is eliminated); nb row v
 * receives v's neighbours when eliminated (original indices: its factor row). bucket:
 * nv bitset rows, alive: one. */
static void minimum_degree(int nv, int words, uint64_t* adj, uint64_t* nb, int* deg, int* newidx,
                           uint64_t* alive, uint64_t* bucket) {
  // all alive, bucketed by degree
  memset(alive, 0, sizeof(uint64_t) * (size_t)words);
  memset(bucket, 0, sizeof(uint64_t) * (size_t)nv * words);
  int dmin = nv;
  for (int v = 0; v < nv; v++) {
    set_bit(alive, words, 0, v);
    deg[v] = -1;
    rebucket(bucket, words, deg, v, count_bits(adj + (size_t)v * words, words));
    dmin = deg[v] < dmin ? deg[v] : dmin;
  }

  for (int step = 0; step < nv; step++) {
    // the alive dof of least degree, the largest on ties
    int v = pick_minimum(bucket, words, nv, &dmin);

    // its neighbours form a clique (the fill); v leaves the graph
    uint64_t* nv_row = nb + (size_t)v * words;
    const uint64_t* av = adj + (size_t)v * words;
    for (int w = 0; w < words; w++) {
      nv_row[w] = av[w] & alive[w];
    }
    alive[v >> 6] &= ~((uint64_t)1 << (v & 63));
    rebucket(bucket, words, deg, v, -1);
    for (int w = 0; w < words; w++) {
      uint64_t x = nv_row[w];
      while (x) {
        int u = w * 64 + __builtin_ctzll(x);
        x &= x - 1;
        // u's row held its live neighbours (it is updated whenever one dies) and v; it
        // gains v's other neighbours. Nothing new: one fewer, without counting
        uint64_t* au = adj + (size_t)u * words;
        uint64_t ubit = (uint64_t)1 << (u & 63), added = 0;
        for (int t = 0; t < words; t++) {
          added |= nv_row[t] & ~au[t] & (t == (u >> 6) ? ~ubit : ~(uint64_t)0);
          au[t] = (au[t] | nv_row[t]) & alive[t];
        }
        au[u >> 6] &= ~ubit;
        rebucket(bucket, words, deg, u, added ? count_bits(au, words) : deg[u] - 1);
        dmin = deg[u] < dmin ? deg[u] : dmin;
      }
    }
    newidx[v] = nv - 1 - step;
  }
}

/* CSR layout of one group's rows of the factor, rows base..base+nv-1 in the new numbering
 * (group-local row newidx[v] holds v's neighbours at its elimination, renumbered,
 * ascending, then the diagonal; everything offset by base), from address nnz; returns the
 * non-zeros so far. With colind NULL, only counts. scratch: one bitset row. */
static int layout(int nv, int words, const uint64_t* nb, const int* newidx, const int* oldidx,
                  int base, int nnz, int* rownnz, int* rowadr, int* colind, uint64_t* scratch) {
  rownnz += base;
  rowadr += base;
  for (int r = 0; r < nv; r++) {
    const uint64_t* row = nb + (size_t)oldidx[r] * words;
    rowadr[r] = nnz;

    // count only
    if (!colind) {
      nnz += count_bits(row, words) + 1;
      rownnz[r] = nnz - rowadr[r];
      continue;
    }

    // renumber through a bitset in the new numbering: extracted in increasing order
    memset(scratch, 0, sizeof(uint64_t) * (size_t)words);
    for (int w = 0; w < words; w++) {
      uint64_t x = row[w];
      while (x) {
        set_bit(scratch, words, 0, newidx[w * 64 + __builtin_ctzll(x)]);
        x &= x - 1;
      }
    }
    for (int w = 0; w < words; w++) {
      uint64_t x = scratch[w];
      while (x) {
        colind[nnz++] = base + w * 64 + __builtin_ctzll(x);
        x &= x - 1;
      }
    }
    colind[nnz++] = base + r;
    rownnz[r] = nnz - rowadr[r];
  }
  return nnz;
}

/* for each column c, the off-diagonal entries (row k, address q) holding it, rows
 * descending: colptr[c]..colptr[c+1]-1 index into colrow and coladr (colptr holds 2nv+1
 * ints, the last nv as scratch) */
static void column_lists(const tnPrimal* ctx, int nv, int* colptr, int* colrow, int* coladr) {
  // counts, then start of each list
  memset(colptr, 0, sizeof(int) * (size_t)(nv + 1));
  for (int k = 0; k < nv; k++) {
    int start = ctx->Hrowadr[k], diag = start + ctx->Hrownnz[k] - 1;
    for (int q = start; q < diag; q++) {
      colptr[ctx->Hcolind[q] + 1]++;
    }
  }
  for (int c = 0; c < nv; c++) {
    colptr[c + 1] += colptr[c];
  }

  // fill, visiting rows from the last so that every list is descending
  int* next = colptr + nv + 1;
  memcpy(next, colptr, sizeof(int) * (size_t)nv);
  for (int k = nv - 1; k >= 0; k--) {
    int start = ctx->Hrowadr[k], diag = start + ctx->Hrownnz[k] - 1;
    for (int q = start; q < diag; q++) {
      int t = next[ctx->Hcolind[q]]++;
      colrow[t] = k;
      coladr[t] = q;
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * Values and factor
 * ------------------------------------------------------------------------------------- */

/* the maps kept in d's cache after the ordering they were made for (either may be absent):
 * M's (nC ints), and the previous solve's row blocks in order, each as its dof count n, its
 * n dofs and its n(n+1)/2 addresses (nblockint ints in all) */
typedef struct {
  const int* Mmap;
  const int* blocks;
  int nblockint;
} tnKeptMaps;

/* address in H of the pair of dofs (u, v): row of the larger new index, found by binary
 * search among its ascending columns */
static int pair_address(const tnPrimal* ctx, int u, int v) {
  int a = ctx->Hnewidx[u], b = ctx->Hnewidx[v];
  int r = a > b ? a : b, c = a > b ? b : a;
  // the pair is in the pattern: its column is among the row's off-diagonals or the diagonal
  return ctx->Hrowadr[r] +
         tn__lowerBound(ctx->Hcolind + ctx->Hrowadr[r], ctx->Hrownnz[r] - 1, c);
}

/* addresses in H of M's entries, and of the lower triangle (map[p(p+1)/2 + q], q <= p) of
 * the block of every run of rows sharing a pattern (rowmapadr at the run's first row);
 * returns the size of rowmap (NULL maps: count only). A pair of a block lives in the H row
 * of its larger new index: for each column p of the block, that row's addresses are
 * scattered into where (2 nv ints: nv by column, then the block's new indices) and read
 * for the pairs it holds. */
static int map_pattern(const mjModel* m, const mjData* d, const tnPrimal* ctx, int* Mmap,
                       int* rowmap, int* rowmapadr, int* where, const tnKeptMaps* kept) {
  // M: row i's entries in H row newidx[i] when the other new index is not larger (an
  // ancestor usually is eliminated later), else found by search; or as kept
  if (Mmap && kept && kept->Mmap) {
    memcpy(Mmap, kept->Mmap, sizeof(int) * (size_t)m->nC);
  } else if (Mmap) {
    for (int i = 0; i < m->nv; i++) {
      int r = ctx->Hnewidx[i], adr = ctx->Hrowadr[r];
      for (int k = adr; k < adr + ctx->Hrownnz[r]; k++) {
        where[ctx->Hcolind[k]] = k;
      }
      for (int k = m->M_rowadr[i]; k < m->M_rowadr[i] + m->M_rownnz[i]; k++) {
        int c = ctx->Hnewidx[m->M_colind[k]];
        Mmap[k] = c <= r ? where[c] : pair_address(ctx, i, m->M_colind[k]);
      }
    }
  }

  // row blocks (rows inside a run: no map of their own)
  int size = 0;
  for (int i = 0; rowmapadr && i < d->nefc; i++) {
    rowmapadr[i] = -1;
  }
  int cursor = 0;
  for (int i = 0; i < d->nefc; i += d->efc_J_rowsuper[i] + 1) {
    int n = d->efc_J_rownnz[i], tri = n * (n + 1) / 2;
    const int* col = d->efc_J_colind + d->efc_J_rowadr[i];
    if (rowmap) {
      int* map = rowmap + size;
      int* newcol = where + m->nv;
      rowmapadr[i] = size;

      // the kept block in the same place, when it has the same dofs
      if (kept && cursor < kept->nblockint) {
        const int* rec = kept->blocks + cursor;
        cursor += 1 + rec[0] + rec[0] * (rec[0] + 1) / 2;
        if (rec[0] == n && !memcmp(rec + 1, col, sizeof(int) * (size_t)n)) {
          memcpy(map, rec + 1 + n, sizeof(int) * (size_t)tri);
          size += tri;
          continue;
        }
      }
      for (int q = 0; q < n; q++) {
        newcol[q] = ctx->Hnewidx[col[q]];
      }
      for (int p = 0; p < n; p++) {
        // H row of p's new index, by column
        int r = newcol[p], adr = ctx->Hrowadr[r];
        const int* hcol = ctx->Hcolind + adr;
        for (int k = 0; k < ctx->Hrownnz[r]; k++) {
          where[hcol[k]] = adr + k;
        }

        // the pairs (p, q) and (q, p) whose other new index is not larger
        int* mp = map + p * (p + 1) / 2;
        for (int q = 0; q <= p; q++) {
          if (newcol[q] <= r) {
            mp[q] = where[newcol[q]];
          }
        }
        for (int q = p + 1; q < n; q++) {
          if (newcol[q] < r) {
            map[q * (q + 1) / 2 + p] = where[newcol[q]];
          }
        }
      }
    }
    size += tri;
  }
  return size;
}

/* add the lower triangle of block B into H through its map */
static void scatter_block(const tnPrimal* ctx, const mjtNum* B, const int* map, int n) {
  for (int p = 0; p < n; p++) {
    const int* mp = map + p * (p + 1) / 2;
    for (int q = 0; q <= p; q++) {
      ctx->Hval[mp[q]] += B[p * n + q];
    }
  }
}

/* D J'J of one quadratic row into the block (each entry its own product and sum: the AVX2
 * clone rounds as the baseline one) */
TN_CLONE_AVX2
static void add_row(mjtNum* B, const mjtNum* J, mjtNum D, int n) {
  for (int p = 0; p < n; p++) {
    mjtNum s = D * J[p];
    for (int q = 0; q <= p; q++) {
      B[p * n + q] += s * J[q];
    }
  }
}

/* D1 J1'J1 then D2 J2'J2 of two quadratic rows into the block in one pass (each entry
 * receives the first row's term, then the second's, as two add_row calls) */
TN_CLONE_AVX2
static void add_row_pair(mjtNum* B, const mjtNum* J1, mjtNum D1, const mjtNum* J2, mjtNum D2,
                         int n) {
  for (int p = 0; p < n; p++) {
    mjtNum s1 = D1 * J1[p], s2 = D2 * J2[p];
    for (int q = 0; q <= p; q++) {
      B[p * n + q] = B[p * n + q] + s1 * J1[q] + s2 * J2[q];
    }
  }
}

/* J_c' H_c J_c of a contact in the cone's middle zone (rows r.., same pattern; one sum per
 * entry in a fixed order, as add_row) */
TN_CLONE_AVX2
static void add_cone(const mjData* d, mjtNum* B, int r, int n) {
  const mjContact* con = d->contact + d->efc_id[r];
  int dim = con->dim;
  for (int a = 0; a < dim; a++) {
    const mjtNum* Ja = d->efc_J + d->efc_J_rowadr[r + a];
    for (int b = 0; b < dim; b++) {
      mjtNum h = con->H[a * dim + b];
      const mjtNum* Jb = d->efc_J + d->efc_J_rowadr[r + b];
      if (h == 0) {
        continue;
      }
      for (int p = 0; p < n; p++) {
        mjtNum s = h * Ja[p];
        for (int q = 0; q <= p; q++) {
          B[p * n + q] += s * Jb[q];
        }
      }
    }
  }
}

/* the factor rows of the island solved (all rows for a whole-system pattern), ascending;
 * returns their count */
static inline int group_rows(const tnPrimal* ctx, const int** rows) {
  int g = ctx->island < 0 ? 0 : ctx->island;
  *rows = ctx->Hgroup + ctx->Hgroupadr[g];
  return ctx->Hgroupadr[g + 1] - ctx->Hgroupadr[g];
}

/* the constraint rows of the island solved, ascending (*rows NULL: all rows, 0..nefc-1);
 * returns their count */
static inline int island_efc(const tnPrimal* ctx, const mjData* d, const int** rows) {
  if (ctx->island < 0) {
    *rows = NULL;
    return d->nefc;
  }
  *rows = d->map_iefc2efc + d->island_iefcadr[ctx->island];
  return d->island_nefc[ctx->island];
}

/* numeric values of the island's part of H (every entry receives M first, then the
 * active row blocks in row order): M, then active rows (grouped by shared sparsity) and
 * cones */
static void numeric(const mjModel* m, const mjData* d, tnPrimal* ctx) {
  mjtNum* B = ctx->HB;
  const int *grp, *efc;
  int ngrp = group_rows(ctx, &grp), nefc = island_efc(ctx, d, &efc);

  // clear, then M: the island's factor rows, its dofs' entries of M
  for (int g = 0; g < ngrp; g++) {
    int r = grp[g];
    memset(ctx->Hval + ctx->Hrowadr[r], 0, sizeof(mjtNum) * (size_t)ctx->Hrownnz[r]);
  }
  for (int g = 0; g < ngrp; g++) {
    int v = ctx->Holdidx[grp[g]], adr = m->M_rowadr[v];
    for (int k = adr; k < adr + m->M_rownnz[v]; k++) {
      ctx->Hval[ctx->HMmap[k]] += d->M[k];
    }
  }

  // rows sharing a pattern (supernodes, all in one island): accumulate a dense block,
  // scatter it once
  for (int e = 0; e < nefc; e++) {
    int i = efc ? efc[e] : e;
    if (ctx->Hrowmapadr[i] < 0) {
      continue;
    }
    int n = d->efc_J_rownnz[i], last = i + d->efc_J_rowsuper[i];
    int any = 0, pend = -1;
    for (int r = i; r <= last; r++) {
      int st = d->efc_state[r];
      int cone = st == mjCNSTRSTATE_CONE && d->contact[d->efc_id[r]].efc_address == r;
      if (st != mjCNSTRSTATE_QUADRATIC && !cone) {
        continue;
      }

      // the block's lower triangle (all that is read) cleared before its first term
      if (!any) {
        for (int p = 0; p < n; p++) {
          memset(B + p * n, 0, sizeof(mjtNum) * (size_t)(p + 1));
        }
        any = 1;
      }

      // quadratic rows: D J'J, two at a time (one waits for the next); cone: the waiting
      // row, then J_c' H_c J_c over the contact's rows
      if (st == mjCNSTRSTATE_QUADRATIC && pend < 0) {
        pend = r;
      } else if (st == mjCNSTRSTATE_QUADRATIC) {
        add_row_pair(B, d->efc_J + d->efc_J_rowadr[pend], d->efc_D[pend],
                     d->efc_J + d->efc_J_rowadr[r], d->efc_D[r], n);
        pend = -1;
      } else {
        if (pend >= 0) {
          add_row(B, d->efc_J + d->efc_J_rowadr[pend], d->efc_D[pend], n);
          pend = -1;
        }
        add_cone(d, B, r, n);
      }
    }
    if (pend >= 0) {
      add_row(B, d->efc_J + d->efc_J_rowadr[pend], d->efc_D[pend], n);
    }
    if (any) {
      scatter_block(ctx, B, ctx->Hrowmap + ctx->Hrowmapadr[i], n);
    }
  }
}

/* work[col[q]] += s * val[q] for q < n */
static inline void add_scaled_indexed(mjtNum* work, const int* col, const mjtNum* val, mjtNum s,
                                      int n) {
  for (int q = 0; q < n; q++) {
    work[col[q]] += s * val[q];
  }
}

/* in-place L'DL factorization of the island's rows (the pattern is block-diagonal by
 * island: the other rows are neither factored nor solved), eliminating from the last (new)
 * index. Left-looking: row i
 * gathers, in a dense work row, the updates -H(k,i)/D_k H(k, cols <= i) of the rows k > i
 * that hold column i, from the last such k (the same operations in the same order as
 * eliminating row by row); consecutive rows of a chain (Hchain) next to each other in that
 * list update each entry in one pass, one row after the other; rows are scaled into L once
 * all are factored. */
static void factor(tnPrimal* ctx, int nv) {
  mjtNum *H = ctx->Hval, *work = ctx->Hwork;
  const int* colind = ctx->Hcolind;
  const int* grp;
  int ngrp = group_rows(ctx, &grp);
  ctx->Hrank = nv;
  for (int g = ngrp - 1; g >= 0; g--) {
    int i = grp[g], start = ctx->Hrowadr[i], diag = start + ctx->Hrownnz[i] - 1;

    // row i into the work row
    for (int q = start; q <= diag; q++) {
      work[colind[q]] = H[q];
    }

    // updates from the factored rows holding column i
    for (int t = ctx->Hcolptr[i], end = ctx->Hcolptr[i + 1]; t < end;) {
      int k = ctx->Hcolrow[t], n = ctx->Hcoladr[t] - ctx->Hrowadr[k];
      const int* ck = colind + ctx->Hrowadr[k];

      // the run of rows k, k-1, .. (up to 4) next in the list, each holding the next one's
      // columns and that row: the same columns up to i, so their updates of an entry can
      // be applied in one pass, still one after another in list order
      int run = 1;
      while (run < 4 && t + run < end && ctx->Hcolrow[t + run] == k - run &&
             ctx->Hchain[k - run]) {
        run++;
      }
      mjtNum s[4];
      const mjtNum* Hr[4];
      for (int j = 0; j < run; j++) {
        s[j] = -H[ctx->Hcoladr[t + j]] * ctx->Hdiaginv[k - j];
        Hr[j] = H + ctx->Hrowadr[k - j];
      }
      t += run;
      if (run == 1) {
        for (int q = 0; q <= n; q++) {
          work[ck[q]] += s[0] * Hr[0][q];
        }
      } else if (run == 2) {
        for (int q = 0; q <= n; q++) {
          work[ck[q]] = work[ck[q]] + s[0] * Hr[0][q] + s[1] * Hr[1][q];
        }
      } else if (run == 3) {
        for (int q = 0; q <= n; q++) {
          work[ck[q]] = work[ck[q]] + s[0] * Hr[0][q] + s[1] * Hr[1][q] + s[2] * Hr[2][q];
        }
      } else {
        for (int q = 0; q <= n; q++) {
          work[ck[q]] = work[ck[q]] + s[0] * Hr[0][q] + s[1] * Hr[1][q] + s[2] * Hr[2][q] +
                        s[3] * Hr[3][q];
        }
      }
    }

    // back into row i; its pivot, guarded against a (nearly) singular value
    for (int q = start; q <= diag; q++) {
      H[q] = work[colind[q]];
    }
    if (H[diag] < mjMINVAL) {
      H[diag] = mjMINVAL;
      ctx->Hrank--;
    }
    ctx->Hdiaginv[i] = 1 / H[diag];
  }

  // scale the off-diagonals into L
  for (int g = 0; g < ngrp; g++) {
    int k = grp[g], start = ctx->Hrowadr[k], diag = start + ctx->Hrownnz[k] - 1;
    mjtNum invD = ctx->Hdiaginv[k];
    for (int q = start; q < diag; q++) {
      H[q] *= invD;
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------------------- */

/* the factor rows of each island, ascending (a pattern shared by the islands' solves),
 * or all rows as one group (a whole-system solve's pattern); rows of no island are in
 * no island's group */
static void make_groups(mjData* d, tnPrimal* ctx, int nv) {
  int ngroup = ctx->island < 0 ? 1 : d->nisland;
  ctx->Hgroup = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hgroupadr = mj_stackAllocInt(d, (size_t)ngroup + 1);
  if (ctx->island < 0) {
    for (int r = 0; r < nv; r++) {
      ctx->Hgroup[r] = r;
    }
    ctx->Hgroupadr[0] = 0;
    ctx->Hgroupadr[1] = nv;
    return;
  }

  // counts, starts, then rows in ascending order (Hgroupadr[k+1] as cursor of island k)
  memset(ctx->Hgroupadr, 0, sizeof(int) * (size_t)(ngroup + 1));
  for (int r = 0; r < nv; r++) {
    if (ctx->Hrowisland[r] >= 0) {
      ctx->Hgroupadr[ctx->Hrowisland[r] + 1]++;
    }
  }
  for (int k = 0; k < ngroup; k++) {
    ctx->Hgroupadr[k + 1] += ctx->Hgroupadr[k];
  }
  for (int k = ngroup; k > 0; k--) {
    ctx->Hgroupadr[k] = ctx->Hgroupadr[k - 1];
  }
  for (int r = 0; r < nv; r++) {
    int k = ctx->Hrowisland[r];
    if (k >= 0) {
      ctx->Hgroup[ctx->Hgroupadr[k + 1]++] = r;
    }
  }
}

/* the elimination order, group by group. The graph of H falls apart into the islands
 * (plus the dofs of no island, coupled by M alone), and minimum degree eliminates each
 * component in the same relative order whatever happens in the others, so each group is
 * ordered on its own graph (small bitsets), and takes a contiguous block of the new
 * numbering: the factor's operations within a group come in the same order as with one
 * ordering of the whole graph. A whole-system solve (islands off) orders all dofs at
 * once. */
typedef struct tnOrdering_ {
  int ngroup;
  int* dofs;     /* the groups' dofs, ascending within each */
  int* adr;      /* start of each group in dofs (ngroup + 1) */
  int* words;    /* bitset words of each group */
  int* nbadr;    /* start of each group's neighbour bitsets in nb */
  uint64_t* nb;  /* per group: each dof's neighbours at elimination, local indices */
  int* localnew; /* per group (at adr): local new index of each dof */
  int* localold; /* per group (at adr): dof (local) of each local new index */
  uint64_t* graph; /* per group (at nbadr): its adjacency bitsets before elimination */
  uint64_t* scratch;
  int maxn, maxw; /* the largest group's dofs and bitset words */
} tnOrdering;

/* groups and their graphs (ord->graph: each group's n adjacency rows at nbadr, the key of
 * the ordering kept across solves) */
static void make_graphs(const mjModel* m, mjData* d, tnPrimal* ctx, tnOrdering* ord) {
  int nv = m->nv, nefc = d->nefc, islands = ctx->island >= 0 && d->nisland > 0;
  int ngroup = islands ? d->nisland + (d->nidof < nv) : 1;
  ord->ngroup = ngroup;
  ord->adr = mj_stackAllocInt(d, (size_t)ngroup + 1);
  ord->words = mj_stackAllocInt(d, (size_t)ngroup);
  ord->nbadr = mj_stackAllocInt(d, (size_t)ngroup + 1);
  ord->localnew = mj_stackAllocInt(d, (size_t)nv);
  ord->localold = mj_stackAllocInt(d, (size_t)nv);

  // the groups' dofs: islands in island order, then the free dofs; or all dofs
  if (islands) {
    ord->dofs = d->map_idof2dof;
    for (int k = 0; k < d->nisland; k++) {
      ord->adr[k] = d->island_idofadr[k];
    }
    ord->adr[d->nisland] = d->nidof;
    ord->adr[ngroup] = nv;
  } else {
    ord->dofs = mj_stackAllocInt(d, (size_t)nv);
    for (int v = 0; v < nv; v++) {
      ord->dofs[v] = v;
    }
    ord->adr[0] = 0;
    ord->adr[1] = nv;
  }

  // bitset sizes
  int maxn = 1, maxw = 1;
  ord->nbadr[0] = 0;
  for (int g = 0; g < ngroup; g++) {
    int n = ord->adr[g + 1] - ord->adr[g];
    ord->words[g] = nwords(n);
    ord->nbadr[g + 1] = ord->nbadr[g] + n * ord->words[g];
    maxn = n > maxn ? n : maxn;
    maxw = ord->words[g] > maxw ? ord->words[g] : maxw;
  }
  ord->maxn = maxn;
  ord->maxw = maxw;
  size_t nword = (size_t)(ord->nbadr[ngroup] > 0 ? ord->nbadr[ngroup] : 1);
  ord->nb = (uint64_t*)mj_stackAllocNum(d, nword);
  ord->graph = (uint64_t*)mj_stackAllocNum(d, nword);
  ord->scratch = (uint64_t*)mj_stackAllocNum(d, (size_t)maxw);

  // first row of each run of rows sharing a pattern
  mj_markStack(d);
  char* runs = (char*)mj_stackAllocInt(d, (size_t)(nefc > 0 ? nefc : 1));
  memset(runs, 0, (size_t)nefc);
  for (int i = 0; i < nefc; i += d->efc_J_rowsuper[i] + 1) {
    runs[i] = 1;
  }
  int* loc = mj_stackAllocInt(d, (size_t)nv);
  uint64_t* adj = (uint64_t*)mj_stackAllocNum(d, (size_t)(maxn + 1) * maxw);
  uint64_t* desc = (uint64_t*)mj_stackAllocNum(d, (size_t)maxn * maxw);

  // each group's local graph
  for (int g = 0; g < ngroup; g++) {
    int adr = ord->adr[g], n = ord->adr[g + 1] - adr, words = ord->words[g];
    const int* dofs = ord->dofs + adr;
    if (!n) {
      continue;
    }
    for (int a = 0; a < n; a++) {
      loc[dofs[a]] = a;
    }
    const int* rows = NULL;
    int nrow = nefc;
    if (islands) {
      rows = g < d->nisland ? d->map_iefc2efc + d->island_iefcadr[g] : NULL;
      nrow = g < d->nisland ? d->island_nefc[g] : 0;
    }
    build_graph(m, d, dofs, n, loc, rows, nrow, runs, adj, words, desc);
    memcpy(ord->graph + ord->nbadr[g], adj, sizeof(uint64_t) * (size_t)n * words);
  }
  mj_freeStack(d);
}

/* minimum-degree order of every group (consumes ord->graph); Hnewidx of every dof, each
 * group a block of the new numbering, in order */
static void order_groups(mjData* d, tnPrimal* ctx, tnOrdering* ord) {
  mj_markStack(d);
  int* deg = mj_stackAllocInt(d, (size_t)ord->maxn);
  uint64_t* bucket = (uint64_t*)mj_stackAllocNum(d, (size_t)ord->maxn * ord->maxw);
  for (int g = 0; g < ord->ngroup; g++) {
    int adr = ord->adr[g], n = ord->adr[g + 1] - adr;
    const int* dofs = ord->dofs + adr;
    if (!n) {
      continue;
    }
    minimum_degree(n, ord->words[g], ord->graph + ord->nbadr[g], ord->nb + ord->nbadr[g], deg,
                   ord->localnew + adr, ord->scratch, bucket);
    for (int a = 0; a < n; a++) {
      ord->localold[adr + ord->localnew[adr + a]] = a;
      ctx->Hnewidx[dofs[a]] = adr + ord->localnew[adr + a];
    }
  }
  mj_freeStack(d);
}

/* the factor's CSR layout, group by group (colind NULL: count only); returns Hnnz */
static int ordering_layout(const tnOrdering* ord, tnPrimal* ctx, int* colind) {
  int nnz = 0;
  for (int g = 0; g < ord->ngroup; g++) {
    int adr = ord->adr[g], n = ord->adr[g + 1] - adr;
    nnz = layout(n, ord->words[g], ord->nb + ord->nbadr[g], ord->localnew + adr,
                 ord->localold + adr, adr, nnz, ctx->Hrownnz, ctx->Hrowadr, colind, ord->scratch);
  }
  return nnz;
}

/* ---------------------------------------------------------------------------------------
 * The ordering kept across solves
 *
 * The ordering and the factor's pattern depend only on the groups and their graphs, which
 * often repeat from one step to the next (a robot lying on the floor: M's pattern plus
 * rows inside it). They are kept in the mjData's persistent cache (model/data_cache.h)
 * behind the key they were made from, as ints: nv, ngroup, the group starts, the groups'
 * dofs, then the graphs' words. Stored after the key: Hnnz, Hnewidx, Holdidx, Hrownnz,
 * Hrowadr, Hchain (nv each), Hcolptr (2 nv + 1), Hcolind, Hcolrow, Hcoladr (Hnnz each).
 * ------------------------------------------------------------------------------------- */

/* the key of the groups and graphs of ord (nkey ints on d's stack) */
static int* ordering_key(mjData* d, const tnOrdering* ord, int nv, int* nkey) {
  int ngroup = ord->ngroup, nword = ord->nbadr[ngroup];
  *nkey = 2 + (ngroup + 1) + nv + 2 * nword;
  int* key = mj_stackAllocInt(d, (size_t)*nkey);
  key[0] = nv;
  key[1] = ngroup;
  memcpy(key + 2, ord->adr, sizeof(int) * (size_t)(ngroup + 1));
  memcpy(key + 3 + ngroup, ord->dofs, sizeof(int) * (size_t)nv);
  memcpy(key + 3 + ngroup + nv, ord->graph, sizeof(uint64_t) * (size_t)nword);
  return key;
}

/* the stored outputs when d's cache holds this key, else NULL */
static const int* cached_ordering(const mjData* d, const int* key, int nkey) {
  tnDataCache* cache = tn__dataCache(d);
  const int* stored = (const int*)tn__dataCacheBytes(cache);
  if (cache->owner != TN_CACHE_SPARSE_ORDERING || stored[0] != nkey ||
      memcmp(stored + 1, key, sizeof(int) * (size_t)nkey)) {
    return NULL;
  }
  return stored + 1 + nkey;
}

/* keep the key and the pattern of ctx in d's cache, when they fit */
static void store_ordering(const mjData* d, const tnPrimal* ctx, const int* key, int nkey, int nv) {
  tnDataCache* cache = tn__dataCache(d);
  size_t nint = 1 + (size_t)nkey + 1 + 7 * (size_t)nv + 1 + 3 * (size_t)ctx->Hnnz;
  cache->owner = TN_CACHE_NONE;
  if (nint * sizeof(int) > cache->capacity) {
    return;
  }
  int* p = (int*)tn__dataCacheBytes(cache);
  *p++ = nkey;
  memcpy(p, key, sizeof(int) * (size_t)nkey);
  p += nkey;
  *p++ = ctx->Hnnz;
  const int* nvarrays[5] = {ctx->Hnewidx, ctx->Holdidx, ctx->Hrownnz, ctx->Hrowadr, ctx->Hchain};
  for (int k = 0; k < 5; k++, p += nv) {
    memcpy(p, nvarrays[k], sizeof(int) * (size_t)nv);
  }
  memcpy(p, ctx->Hcolptr, sizeof(int) * (size_t)(2 * nv + 1));
  p += 2 * nv + 1;
  const int* nnzarrays[3] = {ctx->Hcolind, ctx->Hcolrow, ctx->Hcoladr};
  for (int k = 0; k < 3; k++, p += ctx->Hnnz) {
    memcpy(p, nnzarrays[k], sizeof(int) * (size_t)ctx->Hnnz);
  }
  cache->owner = TN_CACHE_SPARSE_ORDERING;
}

/* ints the stored key and pattern take in the cache */
static size_t ordering_ints(int nkey, int nv, int Hnnz) {
  return 1 + (size_t)nkey + 1 + 7 * (size_t)nv + 1 + 3 * (size_t)Hnnz;
}

/* the cache's ints after the stored ordering, where the maps made for it are kept (a flag
 * and M's map, then the row blocks' int count and records), and room for how many; NULL
 * when the cache does not hold the ordering */
static int* maps_area(const mjData* d, int nkey, int nv, int Hnnz, size_t* room) {
  tnDataCache* cache = tn__dataCache(d);
  size_t used = ordering_ints(nkey, nv, Hnnz), total = cache->capacity / sizeof(int);
  if (cache->owner != TN_CACHE_SPARSE_ORDERING || used >= total) {
    return NULL;
  }
  *room = total - used;
  return (int*)tn__dataCacheBytes(cache) + used;
}

/* the maps kept in the area (none when it is too small for M's map) */
static void kept_maps(const int* area, size_t room, int nC, tnKeptMaps* kept) {
  memset(kept, 0, sizeof(*kept));
  if (!area || room < (size_t)nC + 2) {
    return;
  }
  kept->Mmap = area[0] == 1 ? area + 1 : NULL;
  int nint = area[1 + nC];
  if (nint > 0 && (size_t)nint <= room - 2 - (size_t)nC) {
    kept->blocks = area + 2 + nC;
    kept->nblockint = nint;
  }
}

/* keep M's map and as many of this solve's row blocks as fit, in order */
static void keep_maps(const mjModel* m, const mjData* d, const tnPrimal* ctx, int* area,
                      size_t room) {
  int nC = m->nC;
  if (room < (size_t)nC + 2) {
    return;
  }
  area[0] = 1;
  memcpy(area + 1, ctx->HMmap, sizeof(int) * (size_t)nC);
  int* out = area + 2 + nC;
  size_t left = room - 2 - (size_t)nC, used = 0;
  for (int i = 0; i < d->nefc; i += d->efc_J_rowsuper[i] + 1) {
    int n = d->efc_J_rownnz[i], tri = n * (n + 1) / 2;
    size_t need = 1 + (size_t)n + (size_t)tri;
    if (used + need > left) {
      break;
    }
    out[used] = n;
    memcpy(out + used + 1, d->efc_J_colind + d->efc_J_rowadr[i], sizeof(int) * (size_t)n);
    memcpy(out + used + 1 + n, ctx->Hrowmap + ctx->Hrowmapadr[i], sizeof(int) * (size_t)tri);
    used += need;
  }
  area[1 + nC] = (int)used;
}

/* the pattern's storage for Hnnz entries (column lists, factor values), chained rows */
static void alloc_pattern(mjData* d, tnPrimal* ctx, int nv) {
  ctx->Hcolind = mj_stackAllocInt(d, (size_t)ctx->Hnnz);
  ctx->Hval = mj_stackAllocNum(d, (size_t)ctx->Hnnz);
  ctx->Hcolrow = mj_stackAllocInt(d, (size_t)ctx->Hnnz);
  ctx->Hcoladr = mj_stackAllocInt(d, (size_t)ctx->Hnnz);
  ctx->Hchain = mj_stackAllocInt(d, (size_t)nv);
}

/* the pattern from the cached outputs */
static void restore_ordering(mjData* d, tnPrimal* ctx, const int* p, int nv) {
  ctx->Hnnz = *p++;
  alloc_pattern(d, ctx, nv);
  int* nvarrays[5] = {ctx->Hnewidx, ctx->Holdidx, ctx->Hrownnz, ctx->Hrowadr, ctx->Hchain};
  for (int k = 0; k < 5; k++, p += nv) {
    memcpy(nvarrays[k], p, sizeof(int) * (size_t)nv);
  }
  memcpy(ctx->Hcolptr, p, sizeof(int) * (size_t)(2 * nv + 1));
  p += 2 * nv + 1;
  int* nnzarrays[3] = {ctx->Hcolind, ctx->Hcolrow, ctx->Hcoladr};
  for (int k = 0; k < 3; k++, p += ctx->Hnnz) {
    memcpy(nnzarrays[k], p, sizeof(int) * (size_t)ctx->Hnnz);
  }
}

/* the pattern made anew: orders, CSR layout (the groups' rows in turn), column lists and
 * chained rows */
static void make_pattern(mjData* d, tnPrimal* ctx, tnOrdering* ord, int nv) {
  order_groups(d, ctx, ord);
  for (int v = 0; v < nv; v++) {
    ctx->Holdidx[ctx->Hnewidx[v]] = v;
  }
  ctx->Hnnz = ordering_layout(ord, ctx, NULL);
  alloc_pattern(d, ctx, nv);
  ordering_layout(ord, ctx, ctx->Hcolind);
  column_lists(ctx, nv, ctx->Hcolptr, ctx->Hcolrow, ctx->Hcoladr);

  // rows x whose next row holds exactly x's columns (its diagonal x included) and its own
  // diagonal: the two agree on every column below x
  for (int x = 0; x < nv; x++) {
    int n = ctx->Hrownnz[x];
    ctx->Hchain[x] = x + 1 < nv && ctx->Hrownnz[x + 1] == n + 1 &&
                     !memcmp(ctx->Hcolind + ctx->Hrowadr[x + 1], ctx->Hcolind + ctx->Hrowadr[x],
                             sizeof(int) * (size_t)n);
  }
}

/* ordering, pattern of the factor and storage of the factorizations for the whole solve
 * (from the caller's stack frame); the ordering and pattern come from d's cache when the
 * groups and graphs are those it was made from */
void tn__newtonHessianSparseInit(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nv = m->nv;
  ctx->Holdidx = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hnewidx = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hrownnz = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hrowadr = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hdiaginv = mj_stackAllocNum(d, (size_t)nv);
  ctx->Hrowisland = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hwork = mj_stackAllocNum(d, (size_t)nv);
  ctx->Hcolptr = mj_stackAllocInt(d, (size_t)(2 * nv + 1));

  // dense block of the largest row pattern
  int maxn = 1;
  for (int i = 0; i < d->nefc; i++) {
    maxn = d->efc_J_rownnz[i] > maxn ? d->efc_J_rownnz[i] : maxn;
  }
  ctx->HB = mj_stackAllocNum(d, (size_t)maxn * maxn);

  // groups and graphs; the pattern kept from an earlier solve of the same, or made
  tnOrdering ord;
  make_graphs(m, d, ctx, &ord);
  int nkey;
  const int* key = ordering_key(d, &ord, nv, &nkey);
  const int* cached = cached_ordering(d, key, nkey);
  if (cached) {
    restore_ordering(d, ctx, cached, nv);
  } else {
    make_pattern(d, ctx, &ord, nv);
    store_ordering(d, ctx, key, nkey, nv);
  }

  // each factor row's island, the groups
  for (int v = 0; v < nv; v++) {
    ctx->Hrowisland[ctx->Hnewidx[v]] = d->nisland > 0 ? d->dof_island[v] : -1;
  }
  make_groups(d, ctx, nv);
  if (ctx->island < 0) {
    d->solver_nnz[0] = ctx->Hnnz;
  }

  // where M and the row blocks go in H
  int nmap = map_pattern(m, d, ctx, NULL, NULL, NULL, NULL, NULL);
  ctx->HMmap = mj_stackAllocInt(d, (size_t)m->nC);
  ctx->Hrowmap = mj_stackAllocInt(d, (size_t)(nmap > 0 ? nmap : 1));
  ctx->Hrowmapadr = mj_stackAllocInt(d, (size_t)(d->nefc > 0 ? d->nefc : 1));
  int* where = mj_stackAllocInt(d, (size_t)(2 * nv));

  // the maps kept beside a kept ordering are reused where they apply (M's, and each row
  // block with the same dofs as the previous solve's block in its place); then this solve's
  // are kept for the next
  size_t room = 0;
  int* area = maps_area(d, nkey, nv, ctx->Hnnz, &room);
  tnKeptMaps kept;
  kept_maps(cached ? area : NULL, room, m->nC, &kept);
  map_pattern(m, d, ctx, ctx->HMmap, ctx->Hrowmap, ctx->Hrowmapadr, where, &kept);
  if (area) {
    keep_maps(m, d, ctx, area, room);
  }
}

/* values and factor of the Hessian in the pattern of tn__newtonHessianSparseInit */
void tn__newtonHessianSparse(const mjModel* m, mjData* d, tnPrimal* ctx) {
  numeric(m, d, ctx);
  factor(ctx, m->nv);
}

/* rank-one update (sign 1) or downdate (sign -1) of the factor, H + sign x x', x in the new
 * numbering (overwritten). H = sum_j D_j l_j l_j' with l_j row j of L (unit at j, the rest
 * at smaller indices), so the rows are visited in elimination order, the last first, each
 * taking its share of x and passing the rest on within its own pattern (which holds the
 * fill of every row, so x never leaves it). 0, or -1 when a pivot would drop below
 * mjMINVAL. */
static int rank_one(tnPrimal* ctx, mjtNum* x, int sign) {
  mjtNum a = sign;
  const int* grp;
  for (int g = group_rows(ctx, &grp) - 1; g >= 0; g--) {
    int j = grp[g];
    mjtNum p = x[j];
    if (p == 0) {
      continue;
    }

    // new pivot and the coefficients of the rotation
    int adr = ctx->Hrowadr[j], diag = adr + ctx->Hrownnz[j] - 1;
    mjtNum dj = ctx->Hval[diag], dnew = dj + a * p * p;
    if (dnew < mjMINVAL) {
      return -1;
    }
    mjtNum b = p * a / dnew;
    a = dj * a / dnew;
    ctx->Hval[diag] = dnew;
    ctx->Hdiaginv[j] = 1 / dnew;

    // row j of L and the rest of x
    for (int k = adr; k < diag; k++) {
      int c = ctx->Hcolind[k];
      x[c] -= p * ctx->Hval[k];
      ctx->Hval[k] += b * x[c];
    }
  }
  return 0;
}

/* apply the rank-one changes of the rows whose quadratic membership became `entering`
 * (1: updates by sqrt(D) J_i, 0: downdates); 0, or -1 on lost definiteness */
static int apply_flips(const mjData* d, tnPrimal* ctx, int entering, mjtNum* x) {
  const int *grp, *efc;
  int ngrp = group_rows(ctx, &grp), nefc = island_efc(ctx, d, &efc);
  for (int e = 0; e < nefc; e++) {
    int i = efc ? efc[e] : e;
    int now = d->efc_state[i] == mjCNSTRSTATE_QUADRATIC;
    int was = ctx->oldstate[i] == mjCNSTRSTATE_QUADRATIC;
    if (now == was || now != entering) {
      continue;
    }

    // x = sqrt(D_i) J_i in the new numbering
    int adr = d->efc_J_rowadr[i];
    mjtNum sd = sqrt(d->efc_D[i]);
    for (int g = 0; g < ngrp; g++) {
      x[grp[g]] = 0;
    }
    for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
      x[ctx->Hnewidx[d->efc_J_colind[adr + k]]] = sd * d->efc_J[adr + k];
    }
    if (rank_one(ctx, x, entering ? 1 : -1)) {
      return -1;
    }
  }
  return 0;
}

/* the factor after rows entered or left the quadratic state, by rank-one changes when few
 * did (a rebuild costs about nv^3/6, each change about 2 nv^2); -1: rebuild instead */
int tn__newtonHessianSparseUpdate(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nv = m->nv, nflip = tn__newtonCountFlips(m, d, ctx);
  if (nflip < 0 || 12 * nflip > nv) {
    return -1;
  }

  // updates before downdates
  mj_markStack(d);
  mjtNum* x = mj_stackAllocNum(d, (size_t)nv);
  int res = nflip ? apply_flips(d, ctx, 1, x) || apply_flips(d, ctx, 0, x) : 0;
  mj_freeStack(d);
  return res ? -1 : 0;
}

/* Mgrad = H \ grad with the sparse factor: in the new numbering, x <- L'^-1, D^-1, L^-1 */
void tn__newtonSolveSparse(const tnPrimal* ctx) {
  mjtNum* x = ctx->Hwork;
  const int* grp;
  int ngrp = group_rows(ctx, &grp);
  for (int g = 0; g < ngrp; g++) {
    x[grp[g]] = ctx->grad[ctx->Holdidx[grp[g]]];
  }

  // x <- inv(L') x
  for (int g = ngrp - 1; g >= 0; g--) {
    int i = grp[g];
    mjtNum xi = x[i];
    if (xi == 0) {
      continue;
    }
    int adr = ctx->Hrowadr[i];
    add_scaled_indexed(x, ctx->Hcolind + adr, ctx->Hval + adr, -xi, ctx->Hrownnz[i] - 1);
  }

  // x <- inv(D) x
  for (int g = 0; g < ngrp; g++) {
    x[grp[g]] *= ctx->Hdiaginv[grp[g]];
  }

  // x <- inv(L) x
  for (int g = 0; g < ngrp; g++) {
    int i = grp[g], adr = ctx->Hrowadr[i], k = adr + ctx->Hrownnz[i] - 2;
    const mjtNum* val = ctx->Hval;
    const int* col = ctx->Hcolind;
    mjtNum xi = x[i];

    // four terms per pass, subtracted one by one from the last column down
    for (; k - 3 >= adr; k -= 4) {
      xi -= val[k] * x[col[k]];
      xi -= val[k - 1] * x[col[k - 1]];
      xi -= val[k - 2] * x[col[k - 2]];
      xi -= val[k - 3] * x[col[k - 3]];
    }
    for (; k >= adr; k--) {
      xi -= val[k] * x[col[k]];
    }
    x[i] = xi;
  }

  // back to the dofs' numbering (Mgrad stays zero outside the island)
  for (int g = 0; g < ngrp; g++) {
    ctx->Mgrad[ctx->Holdidx[grp[g]]] = x[grp[g]];
  }
}
