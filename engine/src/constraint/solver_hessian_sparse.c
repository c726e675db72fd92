/* constraint/solver_hessian_sparse.c — Newton's Hessian H = M + J' D_active J (+ cones) as a
 * sparse L'DL factor, for models with a sparse constraint Jacobian (many dofs).
 *
 * M couples a dof with its ancestors, and a row's Jacobian is non-zero on a set of dofs, so
 * H is sparse: M's pattern plus one clique per row. Rows coupling different trees (bodies
 * piled on each other) create fill when eliminated, and the natural order (the last dof
 * first) can make an order of magnitude more of it than necessary; so, once per solve, a
 * minimum-degree ordering of the graph of M and every row (whatever its state, so that the
 * pattern holds for every iteration) is computed, with the factor's pattern as a by-product.
 * Dofs are renumbered so that the first eliminated is the last index, and the factor is
 * stored like qLD: CSR rows of the renumbered matrix, columns ascending, diagonal last.
 * The address in H of every entry of M and of every row block is found once; each rebuild
 * adds M and the active rows (dense blocks of rows sharing a pattern) through these maps
 * and factors left-looking with a dense work row. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/solver_primal.h"
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

/* symmetric adjacency of the dofs: M (each dof with its ancestors) and the clique of every
 * distinct row pattern */
static void build_graph(const mjModel* m, const mjData* d, uint64_t* adj, int words) {
  int nv = m->nv;
  memset(adj, 0, sizeof(uint64_t) * (size_t)nv * words);

  // M
  for (int i = 0; i < nv; i++) {
    int adr = m->M_rowadr[i], diag = adr + m->M_rownnz[i] - 1;
    for (int k = adr; k < diag; k++) {
      set_bit(adj, words, i, m->M_colind[k]);
      set_bit(adj, words, m->M_colind[k], i);
    }
  }

  // rows, once per run of rows sharing a pattern
  for (int i = 0; i < d->nefc; i += d->efc_J_rowsuper[i] + 1) {
    const int* col = d->efc_J_colind + d->efc_J_rowadr[i];
    int n = d->efc_J_rownnz[i];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < a; b++) {
        set_bit(adj, words, col[a], col[b]);
        set_bit(adj, words, col[b], col[a]);
      }
    }
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
        uint64_t* au = adj + (size_t)u * words;
        for (int t = 0; t < words; t++) {
          au[t] = (au[t] | nv_row[t]) & alive[t];
        }
        au[u >> 6] &= ~((uint64_t)1 << (u & 63));
        rebucket(bucket, words, deg, u, count_bits(au, words));
        dmin = deg[u] < dmin ? deg[u] : dmin;
      }
    }
    newidx[v] = nv - 1 - step;
  }
}

/* CSR layout of the factor in the new numbering (row newidx[v] holds v's neighbours at its
 * elimination, renumbered, ascending, then the diagonal); returns the non-zeros. With
 * colind NULL, only counts. scratch: one bitset row. */
static int layout(int nv, int words, const uint64_t* nb, const int* newidx, const int* oldidx,
                  int* rownnz, int* rowadr, int* colind, uint64_t* scratch) {
  int nnz = 0;
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
        colind[nnz++] = w * 64 + __builtin_ctzll(x);
        x &= x - 1;
      }
    }
    colind[nnz++] = r;
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

/* address in H of the pair of dofs (u, v): row of the larger new index, found by binary
 * search among its ascending columns */
static int pair_address(const tnPrimal* ctx, int u, int v) {
  int a = ctx->Hnewidx[u], b = ctx->Hnewidx[v];
  int r = a > b ? a : b, c = a > b ? b : a;
  const int* col = ctx->Hcolind + ctx->Hrowadr[r];
  int lo = 0, hi = ctx->Hrownnz[r] - 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (col[mid] < c) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return ctx->Hrowadr[r] + lo;
}

/* addresses in H of M's entries, and of the lower triangle (map[p(p+1)/2 + q], q <= p) of
 * the block of every run of rows sharing a pattern (rowmapadr at the run's first row);
 * returns the size of rowmap (NULL maps: count only). A pair of a block lives in the H row
 * of its larger new index: for each column p of the block, that row's addresses are
 * scattered into where (nv ints, by column) and read for the pairs it holds. */
static int map_pattern(const mjModel* m, const mjData* d, const tnPrimal* ctx, int* Mmap,
                       int* rowmap, int* rowmapadr, int* where) {
  // M: row i's entries in H row newidx[i] when the other new index is not larger (an
  // ancestor usually is eliminated later), else found by search
  if (Mmap) {
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

  // row blocks
  int size = 0;
  for (int i = 0; i < d->nefc; i += d->efc_J_rowsuper[i] + 1) {
    int n = d->efc_J_rownnz[i];
    const int* col = d->efc_J_colind + d->efc_J_rowadr[i];
    if (rowmap) {
      int* map = rowmap + size;
      rowmapadr[i] = size;
      for (int p = 0; p < n; p++) {
        // H row of p's new index, by column
        int r = ctx->Hnewidx[col[p]], adr = ctx->Hrowadr[r];
        for (int k = adr; k < adr + ctx->Hrownnz[r]; k++) {
          where[ctx->Hcolind[k]] = k;
        }

        // the pairs (p, q) and (q, p) whose other new index is not larger
        for (int q = 0; q < n; q++) {
          int c = ctx->Hnewidx[col[q]];
          if (q <= p && c <= r) {
            map[p * (p + 1) / 2 + q] = where[c];
          } else if (q > p && c < r) {
            map[q * (q + 1) / 2 + p] = where[c];
          }
        }
      }
    }
    size += n * (n + 1) / 2;
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

/* D J'J of one quadratic row into the block */
static void add_row(mjtNum* B, const mjtNum* J, mjtNum D, int n) {
  for (int p = 0; p < n; p++) {
    mjtNum s = D * J[p];
    for (int q = 0; q <= p; q++) {
      B[p * n + q] += s * J[q];
    }
  }
}

/* J_c' H_c J_c of a contact in the cone's middle zone (rows r.., same pattern) */
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

/* numeric values: M, then active rows (grouped by shared sparsity) and cones */
static void numeric(const mjModel* m, const mjData* d, tnPrimal* ctx) {
  mjtNum* B = ctx->HB;
  memset(ctx->Hval, 0, sizeof(mjtNum) * (size_t)ctx->Hnnz);

  // M
  for (int k = 0; k < m->nC; k++) {
    ctx->Hval[ctx->HMmap[k]] += d->M[k];
  }

  // rows sharing a pattern (supernodes): accumulate a dense block, scatter it once
  for (int i = 0; i < d->nefc;) {
    int n = d->efc_J_rownnz[i], last = i + d->efc_J_rowsuper[i];
    int any = 0;
    mju_zero(B, n * n);
    for (int r = i; r <= last; r++) {
      int st = d->efc_state[r];

      // quadratic row: D J'J
      if (st == mjCNSTRSTATE_QUADRATIC) {
        add_row(B, d->efc_J + d->efc_J_rowadr[r], d->efc_D[r], n);
        any = 1;
      }

      // cone: J_c' H_c J_c over the contact's rows
      else if (st == mjCNSTRSTATE_CONE && d->contact[d->efc_id[r]].efc_address == r) {
        add_cone(d, B, r, n);
        any = 1;
      }
    }
    if (any) {
      scatter_block(ctx, B, ctx->Hrowmap + ctx->Hrowmapadr[i], n);
    }
    i = last + 1;
  }
}

/* 1 if factor row r is outside the island being solved (the pattern is block-diagonal by
 * island: such rows are neither factored nor solved, their part of x staying zero) */
static inline int row_out(const tnPrimal* ctx, int r) {
  return ctx->island >= 0 && ctx->Hrowisland[r] != ctx->island;
}

/* in-place L'DL factorization, eliminating from the last (new) index. Left-looking: row i
 * gathers, in a dense work row, the updates -H(k,i)/D_k H(k, cols <= i) of the rows k > i
 * that hold column i, from the last such k (the same operations in the same order as
 * eliminating row by row); rows are scaled into L once all are factored. */
static void factor(tnPrimal* ctx, int nv) {
  mjtNum *H = ctx->Hval, *work = ctx->Hwork;
  const int* colind = ctx->Hcolind;
  ctx->Hrank = nv;
  for (int i = nv - 1; i >= 0; i--) {
    int start = ctx->Hrowadr[i], diag = start + ctx->Hrownnz[i] - 1;
    if (row_out(ctx, i)) {
      continue;
    }

    // row i into the work row
    for (int q = start; q <= diag; q++) {
      work[colind[q]] = H[q];
    }

    // updates from the factored rows holding column i
    for (int t = ctx->Hcolptr[i]; t < ctx->Hcolptr[i + 1]; t++) {
      int k = ctx->Hcolrow[t], adr = ctx->Hcoladr[t];
      mjtNum s = -H[adr] * ctx->Hdiaginv[k];
      const mjtNum* Hk = H + ctx->Hrowadr[k];
      const int* ck = colind + ctx->Hrowadr[k];
      int n = adr - ctx->Hrowadr[k];
      for (int q = 0; q <= n; q++) {
        work[ck[q]] += s * Hk[q];
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
  for (int k = 0; k < nv; k++) {
    int start = ctx->Hrowadr[k], diag = start + ctx->Hrownnz[k] - 1;
    if (row_out(ctx, k)) {
      continue;
    }
    mjtNum invD = ctx->Hdiaginv[k];
    for (int q = start; q < diag; q++) {
      H[q] *= invD;
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------------------- */

/* ordering, pattern of the factor and storage of the factorizations for the whole solve
 * (from the caller's stack frame) */
void tn__newtonHessianSparseInit(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nv = m->nv, words = nwords(nv);
  uint64_t* adj = (uint64_t*)mj_stackAllocNum(d, (size_t)nv * words);
  uint64_t* nb = (uint64_t*)mj_stackAllocNum(d, (size_t)nv * words);
  uint64_t* scratch = (uint64_t*)mj_stackAllocNum(d, (size_t)words);
  int* deg = mj_stackAllocInt(d, (size_t)nv);
  int* oldidx = mj_stackAllocInt(d, (size_t)nv);
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

  // graph, ordering (and each dof's factor row), inverse numbering
  build_graph(m, d, adj, words);
  uint64_t* bucket = (uint64_t*)mj_stackAllocNum(d, (size_t)nv * words);
  minimum_degree(nv, words, adj, nb, deg, ctx->Hnewidx, scratch, bucket);
  for (int v = 0; v < nv; v++) {
    oldidx[ctx->Hnewidx[v]] = v;
    ctx->Hrowisland[ctx->Hnewidx[v]] = d->nisland > 0 ? d->dof_island[v] : -1;
  }

  // CSR layout and column lists
  ctx->Hnnz = layout(nv, words, nb, ctx->Hnewidx, oldidx, ctx->Hrownnz, ctx->Hrowadr, NULL,
                     scratch);
  ctx->Hcolind = mj_stackAllocInt(d, (size_t)ctx->Hnnz);
  ctx->Hval = mj_stackAllocNum(d, (size_t)ctx->Hnnz);
  ctx->Hcolrow = mj_stackAllocInt(d, (size_t)ctx->Hnnz);
  ctx->Hcoladr = mj_stackAllocInt(d, (size_t)ctx->Hnnz);
  layout(nv, words, nb, ctx->Hnewidx, oldidx, ctx->Hrownnz, ctx->Hrowadr, ctx->Hcolind,
         scratch);
  column_lists(ctx, nv, ctx->Hcolptr, ctx->Hcolrow, ctx->Hcoladr);
  if (ctx->island < 0) {
    d->solver_nnz[0] = ctx->Hnnz;
  }

  // where M and the row blocks go in H
  int nmap = map_pattern(m, d, ctx, NULL, NULL, NULL, NULL);
  ctx->HMmap = mj_stackAllocInt(d, (size_t)m->nC);
  ctx->Hrowmap = mj_stackAllocInt(d, (size_t)(nmap > 0 ? nmap : 1));
  ctx->Hrowmapadr = mj_stackAllocInt(d, (size_t)(d->nefc > 0 ? d->nefc : 1));
  int* where = mj_stackAllocInt(d, (size_t)nv);
  map_pattern(m, d, ctx, ctx->HMmap, ctx->Hrowmap, ctx->Hrowmapadr, where);
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
  for (int j = ctx->nv - 1; j >= 0; j--) {
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
  for (int i = 0; i < d->nefc; i++) {
    int now = d->efc_state[i] == mjCNSTRSTATE_QUADRATIC;
    int was = ctx->oldstate[i] == mjCNSTRSTATE_QUADRATIC;
    if (now == was || now != entering) {
      continue;
    }

    // x = sqrt(D_i) J_i in the new numbering
    int adr = d->efc_J_rowadr[i];
    mjtNum sd = sqrt(d->efc_D[i]);
    mju_zero(x, ctx->nv);
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
  int nv = ctx->nv;
  mjtNum* x = ctx->Hwork;
  for (int v = 0; v < nv; v++) {
    x[ctx->Hnewidx[v]] = ctx->grad[v];
  }

  // x <- inv(L') x
  for (int i = nv - 1; i >= 0; i--) {
    mjtNum xi = x[i];
    if (xi == 0 || row_out(ctx, i)) {
      continue;
    }
    int adr = ctx->Hrowadr[i], diag = adr + ctx->Hrownnz[i] - 1;
    for (int k = adr; k < diag; k++) {
      x[ctx->Hcolind[k]] -= ctx->Hval[k] * xi;
    }
  }

  // x <- inv(D) x
  for (int i = 0; i < nv; i++) {
    x[i] = row_out(ctx, i) ? 0 : x[i] * ctx->Hdiaginv[i];
  }

  // x <- inv(L) x
  for (int i = 0; i < nv; i++) {
    int adr = ctx->Hrowadr[i], diag = adr + ctx->Hrownnz[i] - 1;
    if (row_out(ctx, i)) {
      continue;
    }
    mjtNum xi = x[i];
    for (int k = diag - 1; k >= adr; k--) {
      xi -= ctx->Hval[k] * x[ctx->Hcolind[k]];
    }
    x[i] = xi;
  }

  // back to the dofs' numbering
  for (int v = 0; v < nv; v++) {
    ctx->Mgrad[v] = x[ctx->Hnewidx[v]];
  }
}
