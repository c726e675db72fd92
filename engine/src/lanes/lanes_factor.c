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

/* 1 if row k's n off-diagonal entries of lane l are all +0 */
static int zero_row_lane(const tnLane* row, int n, int l) {
  for (int j = 0; j < n; j++) {
    if (row[j][l] != 0 || signbit(row[j][l])) {
      return 0;
    }
  }
  return 1;
}

/* row k of lane l alone (the scalar elimination and scaling, on the lane's entries) */
static void eliminate_lane(const mjModel* m, tnLane* mat, int k, mjtNum invD, int l) {
  const int* rowadr = m->M_rowadr;
  const int* colind = m->M_colind;
  int start = rowadr[k], diag = start + m->M_rownnz[k] - 1;
  for (int adr = diag - 1; adr >= start; adr--) {
    tnLane* dst = mat + rowadr[colind[adr]];
    mjtNum scl = -mat[adr][l] * invD;
    for (int j = 0; j <= adr - start; j++) {
      dst[j][l] += mat[start + j][l] * scl;
    }
  }
  for (int adr = start; adr < diag; adr++) {
    mat[adr][l] *= invD;
  }
}

/* dst += src * scl over n entries (rows never overlap) */
static inline void eliminate_row(tnLane* restrict dst, const tnLane* restrict src,
                                 const tnLane* scl, int n) {
  tnLane s = *scl;
  for (int j = 0; j < n; j++) {
    dst[j] += src[j] * s;
  }
}

/* in-place factorization of the lanes' matrices (with an AVX2 clone: one lane per double of
 * a 256-bit register); warnings go to each lane's data */
TN_CLONE_AVX2
static void factor_lanes(const mjModel* m, mjData* const* d, tnLane* mat, tnLane* diaginv) {
  const int* rowadr = m->M_rowadr;
  const int* rownnz = m->M_rownnz;
  const int* colind = m->M_colind;
  const int* simplenum = m->dof_simplenum;
  const tnLane one = {1, 1, 1, 1};

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
    tnLane invD = one / mat[diag];
    diaginv[k] = invD;

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
      tnLane scl = -mat[adr] * invD;
      eliminate_row(mat + rowadr[colind[adr]], mat + start, &scl, adr - start + 1);
    }
    for (int adr = start; adr < diag; adr++) {
      mat[adr] *= invD;
    }
  }
}

/* factor the lanes' matrices into each data's factor arrays */
void tn__factorLanes(const mjModel* m, mjData* const* d, tnLane* mat, int damped) {
  int nC = m->nC, nv = m->nv;
  mjData* d0 = d[0];
  mj_markStack(d0);
  tnLane* diaginv = tn__lanesAlloc(d0, (size_t)nv);
  factor_lanes(m, d, mat, diaginv);
  if (damped) {
    tn__lanesScatter(LANES_OF(d, qH), mat, nC);
    tn__lanesScatter(LANES_OF(d, qHDiagInv), diaginv, nv);
  } else {
    tn__lanesScatter(LANES_OF(d, qLD), mat, nC);
    tn__lanesScatter(LANES_OF(d, qLDiagInv), diaginv, nv);
  }
  mj_freeStack(d0);
}

/* the damped Euler factor for the lanes: M + h*diag(damping) gathered, then factored (one
 * data at a time when the scratch does not fit) */
void tn__factorHLanes(const mjModel* m, mjData* const* d) {
  int nC = m->nC, nv = m->nv;
  mjtNum h = m->opt.timestep;
  mjData* d0 = d[0];

  // no room for the scratch: one data at a time
  if (!tn__lanesFit(d0, (size_t)nC + nv)) {
    for (int l = 0; l < TN_LANES; l++) {
      mju_copy(d[l]->qH, d[l]->M, nC);
      for (int i = 0; i < nv; i++) {
        d[l]->qH[m->M_rowadr[i] + m->M_rownnz[i] - 1] += h * m->dof_damping[i];
      }
      tn__factorLD(m, d[l], d[l]->qH, d[l]->qHDiagInv);
    }
    return;
  }

  // gather M, add h*damping to the diagonal, factor
  mj_markStack(d0);
  tnLane* mat = tn__lanesAlloc(d0, (size_t)nC);
  tn__lanesGather(mat, LANES_OF(d, M), nC);
  for (int i = 0; i < nv; i++) {
    mat[m->M_rowadr[i] + m->M_rownnz[i] - 1] += h * m->dof_damping[i];
  }
  tn__factorLanes(m, d, mat, 1);
  mj_freeStack(d0);
}
