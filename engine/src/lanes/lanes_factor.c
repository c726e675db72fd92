/* lanes/lanes_factor.c — the L'DL factorization of the joint-space inertia (and of the
 * damped Euler integrator's M + h*diag(damping)) for TN_LANES datas at once.
 *
 * The matrices are gathered into one scratch array, entry a of data l at [a][l], factored
 * with smooth/factor.c's algorithm (backward over rows, each ancestor row updated by the
 * row's prefix, then the row scaled by 1/D), every lane doing the scalar code's operations
 * in its order, and scattered back. The scalar code skips a simple dof's row whose
 * off-diagonals are all +0; here a row is skipped when it is so in every lane, and handled
 * one lane at a time when the lanes disagree (rare: tendon armature couples simple dofs). */
#include <stdint.h>
#include <string.h>

#include <torsion/torsion.h>

#include "lanes/lanes.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* one entry in every lane */
typedef mjtNum lane_t[TN_LANES];

/* bytes the factor's scratch takes: the matrix and the inverse diagonal, in lanes */
static size_t scratch_bytes(const mjModel* m) {
  return sizeof(lane_t) * ((size_t)m->nC + (size_t)m->nv);
}

/* 1 if `bytes` at 32-byte alignment fit on d's stack (above a new mark) */
static int stack_fits(const mjData* d, size_t bytes) {
  size_t need = d->pstack + 2 * sizeof(size_t) + 64 + bytes + d->parena;
  return need >= d->pstack && need <= (size_t)d->narena;
}

/* 1 if row k's n off-diagonal entries of lane l are all +0 */
static int zero_row_lane(const lane_t* row, int n, int l) {
  for (int j = 0; j < n; j++) {
    if (row[j][l] != 0 || signbit(row[j][l])) {
      return 0;
    }
  }
  return 1;
}

/* row k of lane l alone (the scalar elimination and scaling, on the lane's entries) */
static void eliminate_lane(const mjModel* m, lane_t* mat, int k, mjtNum invD, int l) {
  const int* rowadr = m->M_rowadr;
  const int* colind = m->M_colind;
  int start = rowadr[k], diag = start + m->M_rownnz[k] - 1;
  for (int adr = diag - 1; adr >= start; adr--) {
    lane_t* dst = mat + rowadr[colind[adr]];
    mjtNum scl = -mat[adr][l] * invD;
    for (int j = 0; j <= adr - start; j++) {
      dst[j][l] += mat[start + j][l] * scl;
    }
  }
  for (int adr = start; adr < diag; adr++) {
    mat[adr][l] *= invD;
  }
}

/* dst += src * scl, lane by lane, over n entries (rows never overlap) */
static inline void eliminate_row(lane_t* restrict dst, const lane_t* restrict src,
                                 const mjtNum* restrict scl, int n) {
  for (int j = 0; j < n; j++) {
    for (int l = 0; l < TN_LANES; l++) {
      dst[j][l] += src[j][l] * scl[l];
    }
  }
}

/* in-place factorization of the lanes' matrices (with an AVX2 clone: one lane per double of
 * a 256-bit register); warnings go to each lane's data */
TN_CLONE_AVX2
static void factor_lanes(const mjModel* m, mjData* const* d, lane_t* mat, lane_t* diaginv) {
  const int* rowadr = m->M_rowadr;
  const int* rownnz = m->M_rownnz;
  const int* colind = m->M_colind;
  const int* simplenum = m->dof_simplenum;

  for (int k = m->nv - 1; k >= 0; k--) {
    int start = rowadr[k];
    int diag = start + rownnz[k] - 1;

    // guard each lane's pivot, as the scalar code
    for (int l = 0; l < TN_LANES; l++) {
      if (mat[diag][l] < mjMINVAL) {
        mj_warning(d[l], mjWARN_INERTIA, k);
        mat[diag][l] = mjMINVAL;
      }
    }
    lane_t invD;
    for (int l = 0; l < TN_LANES; l++) {
      invD[l] = 1 / mat[diag][l];
      diaginv[k][l] = invD[l];
    }

    // a simple dof's zero row: skipped in the lanes where it is zero
    if (simplenum[k]) {
      int nzero = 0, zero[TN_LANES];
      for (int l = 0; l < TN_LANES; l++) {
        zero[l] = zero_row_lane(mat + start, diag - start, l);
        nzero += zero[l];
      }
      if (nzero == TN_LANES) {
        continue;
      }
      if (nzero) {
        for (int l = 0; l < TN_LANES; l++) {
          if (!zero[l]) {
            eliminate_lane(m, mat, k, invD[l], l);
          }
        }
        continue;
      }
    }

    // eliminate into each ancestor row, then scale row k's off-diagonals into L
    for (int adr = diag - 1; adr >= start; adr--) {
      lane_t scl;
      for (int l = 0; l < TN_LANES; l++) {
        scl[l] = -mat[adr][l] * invD[l];
      }
      eliminate_row(mat + rowadr[colind[adr]], mat + start, scl, adr - start + 1);
    }
    for (int adr = start; adr < diag; adr++) {
      for (int l = 0; l < TN_LANES; l++) {
        mat[adr][l] *= invD[l];
      }
    }
  }
}

/* gather d[l]->M into the lanes, adding h*damping to the diagonal when damped */
static void gather_M(const mjModel* m, mjData* const* d, lane_t* mat, int damped) {
  int nC = m->nC;
  for (int a = 0; a < nC; a++) {
    for (int l = 0; l < TN_LANES; l++) {
      mat[a][l] = d[l]->M[a];
    }
  }
  if (damped) {
    mjtNum h = m->opt.timestep;
    for (int i = 0; i < m->nv; i++) {
      int diag = m->M_rowadr[i] + m->M_rownnz[i] - 1;
      for (int l = 0; l < TN_LANES; l++) {
        mat[diag][l] += h * m->dof_damping[i];
      }
    }
  }
}

/* factor the lanes' M (damped: M + h*diag(damping)) into each data's factor arrays */
static void factor_group(const mjModel* m, mjData* const* d, int damped) {
  int nC = m->nC, nv = m->nv;
  mjData* d0 = d[0];

  // no room for the scratch: one data at a time
  if (!stack_fits(d0, scratch_bytes(m))) {
    for (int l = 0; l < TN_LANES; l++) {
      mjtNum* mat = damped ? d[l]->qH : d[l]->qLD;
      mju_copy(mat, d[l]->M, nC);
      if (damped) {
        for (int i = 0; i < nv; i++) {
          mat[m->M_rowadr[i] + m->M_rownnz[i] - 1] += m->opt.timestep * m->dof_damping[i];
        }
      }
      tn__factorLD(m, d[l], mat, damped ? d[l]->qHDiagInv : d[l]->qLDiagInv);
    }
    return;
  }

  // gather, factor, scatter
  mj_markStack(d0);
  lane_t* mat = mj_stackAllocByte(d0, sizeof(lane_t) * (size_t)nC, 32);
  lane_t* diaginv = mj_stackAllocByte(d0, sizeof(lane_t) * (size_t)nv, 32);
  gather_M(m, d, mat, damped);
  factor_lanes(m, d, mat, diaginv);
  for (int l = 0; l < TN_LANES; l++) {
    mjtNum* dst = damped ? d[l]->qH : d[l]->qLD;
    mjtNum* dinv = damped ? d[l]->qHDiagInv : d[l]->qLDiagInv;
    for (int a = 0; a < nC; a++) {
      dst[a] = mat[a][l];
    }
    for (int i = 0; i < nv; i++) {
      dinv[i] = diaginv[i][l];
    }
  }
  mj_freeStack(d0);
}

/* mj_factorM for the lanes */
void tn__factorMLanes(const mjModel* m, mjData* const* d) {
  factor_group(m, d, 0);
}

/* the damped Euler factor for the lanes */
void tn__factorHLanes(const mjModel* m, mjData* const* d) {
  factor_group(m, d, 1);
}
