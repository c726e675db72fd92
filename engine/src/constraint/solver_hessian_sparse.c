/* constraint/solver_hessian_sparse.c — Newton's Hessian H = M + J' D_active J (+ cones) as a
 * sparse L'DL factor, for models with a sparse constraint Jacobian (many dofs).
 *
 * M couples a dof only with its ancestors, and a row's Jacobian is non-zero on a set of
 * dofs, so H is sparse: M's pattern plus one clique per active row. Eliminating dofs from
 * the last to the first (as the factorization of M does) keeps M's pattern without fill;
 * a row coupling different branches or trees creates fill, found by a symbolic pass with
 * one bitset per row. The numeric factor then follows the same reverse elimination with
 * a dense scatter map. Disconnected trees stay independent blocks. */
#include <stdint.h>
#include <string.h>

#include "constraint/solver_primal.h"
#include "util/util_inline.h"

/* words of a bitset over nv dofs */
static int nwords(int nv) {
  return (nv + 63) / 64;
}

/* set bit j of row i (j < i) and its symmetric meaning: lower triangle only */
static void setBit(uint64_t* bits, int words, int i, int j) {
  bits[(size_t)i * words + (j >> 6)] |= (uint64_t)1 << (j & 63);
}

/* active rows' non-zero dofs: mark the clique of every active row into the pattern */
static void markRows(const mjModel* m, const mjData* d, uint64_t* bits, int words,
                     int* cols) {
  for (int i = 0; i < d->nefc; i++) {
    int st = d->efc_state[i];
    if (st != mjCNSTRSTATE_QUADRATIC && st != mjCNSTRSTATE_CONE) {
      continue;
    }
    int adr = d->efc_J_rowadr[i], n = d->efc_J_rownnz[i];
    for (int k = 0; k < n; k++) {
      cols[k] = d->efc_J_colind[adr + k];
    }
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < a; b++) {
        setBit(bits, words, cols[a], cols[b]);
      }
    }
  }
  (void)m;
}

/* symbolic pattern of the factor: M, active rows, then fill from reverse elimination */
static void symbolic(const mjModel* m, const mjData* d, uint64_t* bits, int words,
                     int* cols) {
  int nv = m->nv;
  memset(bits, 0, sizeof(uint64_t) * (size_t)nv * words);

  // M: each dof with its ancestors
  for (int i = 0; i < nv; i++) {
    int adr = m->M_rowadr[i], diag = adr + m->M_rownnz[i] - 1;
    for (int k = adr; k < diag; k++) {
      setBit(bits, words, i, m->M_colind[k]);
    }
  }
  markRows(m, d, bits, words, cols);

  // fill: eliminating k couples every pair of its remaining (lower) neighbours
  for (int k = nv - 1; k >= 0; k--) {
    const uint64_t* rk = bits + (size_t)k * words;
    int w0 = 0;
    while (w0 < words && !rk[w0]) {
      w0++;
    }
    for (int w = w0; w < words; w++) {
      uint64_t x = rk[w];
      while (x) {
        int i = w * 64 + __builtin_ctzll(x);
        x &= x - 1;

        // row i gains row k's columns below i
        uint64_t* ri = bits + (size_t)i * words;
        int full = i >> 6;
        for (int v = w0; v < full; v++) {
          ri[v] |= rk[v];
        }
        uint64_t mask = (((uint64_t)1) << (i & 63)) - 1;
        ri[full] |= rk[full] & mask;
      }
    }
  }
}

/* CSR layout of the pattern (columns ascending, diagonal last); returns the non-zeros */
static int layout(int nv, const uint64_t* bits, int words, int* rownnz, int* rowadr,
                  int* colind) {
  int nnz = 0;
  for (int i = 0; i < nv; i++) {
    const uint64_t* ri = bits + (size_t)i * words;
    rowadr[i] = nnz;
    for (int w = 0; w < words; w++) {
      uint64_t x = ri[w];
      while (x) {
        if (colind) {
          colind[nnz] = w * 64 + __builtin_ctzll(x);
        }
        nnz++;
        x &= x - 1;
      }
    }
    if (colind) {
      colind[nnz] = i;
    }
    nnz++;
    rownnz[i] = nnz - rowadr[i];
  }
  return nnz;
}

/* scatter a dense n x n block B (lower triangle used) on columns col into H */
static void scatterBlock(const tnPrimal* ctx, const mjtNum* B, const int* col, int n,
                         int* pos) {
  for (int p = 0; p < n; p++) {
    int r = col[p], adr = ctx->Hrowadr[r], nnz = ctx->Hrownnz[r];
    for (int k = 0; k < nnz; k++) {
      pos[ctx->Hcolind[adr + k]] = adr + k;
    }
    for (int q = 0; q <= p; q++) {
      ctx->Hval[pos[col[q]]] += B[p * n + q];
    }
  }
}

/* numeric values: M, then active rows (grouped by shared sparsity) and cones */
static void numeric(const mjModel* m, const mjData* d, tnPrimal* ctx, int* pos,
                    mjtNum* B) {
  int nv = m->nv;
  memset(ctx->Hval, 0, sizeof(mjtNum) * (size_t)ctx->Hnnz);

  // M, scattered into the (larger) pattern
  for (int i = 0; i < nv; i++) {
    int adr = ctx->Hrowadr[i], nnz = ctx->Hrownnz[i];
    for (int k = 0; k < nnz; k++) {
      pos[ctx->Hcolind[adr + k]] = adr + k;
    }
    int madr = m->M_rowadr[i];
    for (int k = 0; k < m->M_rownnz[i]; k++) {
      ctx->Hval[pos[m->M_colind[madr + k]]] += d->M[madr + k];
    }
  }

  // rows sharing a pattern (supernodes): accumulate a dense block, scatter it once
  for (int i = 0; i < d->nefc;) {
    int n = d->efc_J_rownnz[i], last = i + d->efc_J_rowsuper[i];
    const int* col = d->efc_J_colind + d->efc_J_rowadr[i];
    int any = 0;
    mju_zero(B, n * n);
    for (int r = i; r <= last; r++) {
      int st = d->efc_state[r];
      const mjtNum* J = d->efc_J + d->efc_J_rowadr[r];

      // quadratic row: D J'J
      if (st == mjCNSTRSTATE_QUADRATIC) {
        for (int p = 0; p < n; p++) {
          mjtNum s = d->efc_D[r] * J[p];
          for (int q = 0; q <= p; q++) {
            B[p * n + q] += s * J[q];
          }
        }
        any = 1;
      }

      // cone: J_c' H_c J_c over the contact's rows (same pattern)
      else if (st == mjCNSTRSTATE_CONE && d->contact[d->efc_id[r]].efc_address == r) {
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
        any = 1;
      }
    }
    if (any) {
      scatterBlock(ctx, B, col, n, pos);
    }
    i = last + 1;
  }
}

/* in-place L'DL factorization, eliminating from the last dof */
static void factor(const tnPrimal* ctx, int nv, int* pos) {
  mjtNum* H = ctx->Hval;
  for (int k = nv - 1; k >= 0; k--) {
    int start = ctx->Hrowadr[k], diag = start + ctx->Hrownnz[k] - 1;

    // guard against a (nearly) singular pivot
    if (H[diag] < mjMINVAL) {
      H[diag] = mjMINVAL;
    }
    mjtNum invD = 1 / H[diag];
    ctx->Hdiaginv[k] = invD;

    // row i of each lower neighbour -= H(k,i)/D H(k, cols <= i)
    for (int adr = diag - 1; adr >= start; adr--) {
      int i = ctx->Hcolind[adr];
      int iadr = ctx->Hrowadr[i], innz = ctx->Hrownnz[i];
      for (int t = 0; t < innz; t++) {
        pos[ctx->Hcolind[iadr + t]] = iadr + t;
      }
      mjtNum s = -H[adr] * invD;
      for (int q = start; q <= adr; q++) {
        H[pos[ctx->Hcolind[q]]] += s * H[q];
      }
    }

    // scale row k's off-diagonals into L
    for (int adr = start; adr < diag; adr++) {
      H[adr] *= invD;
    }
  }
}

/* build and factor the sparse Hessian (storage from the caller's stack frame) */
void tn_newtonHessianSparse(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nv = m->nv, words = nwords(nv);
  uint64_t* bits = (uint64_t*)mj_stackAllocNum(d, (size_t)nv * words);
  int* pos = mj_stackAllocInt(d, (size_t)nv);
  int* cols = mj_stackAllocInt(d, (size_t)nv);
  int maxn = 1;
  for (int i = 0; i < d->nefc; i++) {
    maxn = d->efc_J_rownnz[i] > maxn ? d->efc_J_rownnz[i] : maxn;
  }
  mjtNum* B = mj_stackAllocNum(d, (size_t)maxn * maxn);
  ctx->Hrownnz = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hrowadr = mj_stackAllocInt(d, (size_t)nv);
  ctx->Hdiaginv = mj_stackAllocNum(d, (size_t)nv);

  // pattern with fill, then values and factor
  symbolic(m, d, bits, words, cols);
  ctx->Hnnz = layout(nv, bits, words, ctx->Hrownnz, ctx->Hrowadr, NULL);
  ctx->Hcolind = mj_stackAllocInt(d, (size_t)ctx->Hnnz);
  ctx->Hval = mj_stackAllocNum(d, (size_t)ctx->Hnnz);
  layout(nv, bits, words, ctx->Hrownnz, ctx->Hrowadr, ctx->Hcolind);
  numeric(m, d, ctx, pos, B);
  factor(ctx, nv, pos);
  d->solver_nnz[0] = ctx->Hnnz;
}

/* Mgrad = H \ grad with the sparse factor: x <- L'^-1, D^-1, L^-1 */
void tn_newtonSolveSparse(const tnPrimal* ctx) {
  int nv = ctx->nv;
  mjtNum* x = ctx->Mgrad;
  mju_copy(x, ctx->grad, nv);

  // x <- inv(L') x
  for (int i = nv - 1; i >= 0; i--) {
    mjtNum xi = x[i];
    if (xi == 0) {
      continue;
    }
    int adr = ctx->Hrowadr[i], diag = adr + ctx->Hrownnz[i] - 1;
    for (int k = adr; k < diag; k++) {
      x[ctx->Hcolind[k]] -= ctx->Hval[k] * xi;
    }
  }

  // x <- inv(D) x
  for (int i = 0; i < nv; i++) {
    x[i] *= ctx->Hdiaginv[i];
  }

  // x <- inv(L) x
  for (int i = 0; i < nv; i++) {
    int adr = ctx->Hrowadr[i], diag = adr + ctx->Hrownnz[i] - 1;
    mjtNum xi = x[i];
    for (int k = diag - 1; k >= adr; k--) {
      xi -= ctx->Hval[k] * x[ctx->Hcolind[k]];
    }
    x[i] = xi;
  }
}
