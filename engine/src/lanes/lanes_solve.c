/* lanes/lanes_solve.c — solving with the factored inertia, x = inv(L'DL) x, for TN_LANES
 * datas at once: the smooth acceleration (qacc_smooth from qfrc_smooth) and the damped
 * Euler integrator's acceleration.
 *
 * Each lane does smooth/factor.c's tn__solveLD operations in its order: the backward pass
 * (which skips a row whose entry is zero: here the update is computed and the lanes whose
 * entry is zero keep their old values), then the forward pass, each row's sparse dot summed
 * as mju_dotSparse sums it. The lanes' sequential chains of multiply-subtracts, latency-bound
 * one data at a time, run side by side. */
#include <torsion/torsion.h>

#include "lanes/lanes.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* *out = mju_dotSparse(vec, x, n, ind) in every lane: four partial sums over whole blocks
 * combined (0+2)+(1+3), then the rest added one by one */
static inline void dot_sparse(tnLane* out, const tnLane* vec, const tnLane* x, int n,
                              const int* ind) {
  tnLane res = {0, 0, 0, 0};
  int i = 0;
  if (n >= 4) {
    tnLane s0 = vec[0] * x[ind[0]], s1 = vec[1] * x[ind[1]];
    tnLane s2 = vec[2] * x[ind[2]], s3 = vec[3] * x[ind[3]];
    for (i = 4; i <= n - 4; i += 4) {
      s0 += vec[i] * x[ind[i]];
      s1 += vec[i + 1] * x[ind[i + 1]];
      s2 += vec[i + 2] * x[ind[i + 2]];
      s3 += vec[i + 3] * x[ind[i + 3]];
    }
    res = (s0 + s2) + (s1 + s3);
  }
  for (; i < n; i++) {
    res += vec[i] * x[ind[i]];
  }
  *out = res;
}

/* x <- inv(L'DL) x in every lane, qLD (nC) and diaginv (nv) the lanes' factors */
TN_CLONE_AVX2
static void solve_lanes(const mjModel* m, tnLane* x, const tnLane* qLD, const tnLane* diaginv) {
  const int* rowadr = m->M_rowadr;
  const int* rownnz = m->M_rownnz;
  const int* colind = m->M_colind;
  const int* simplenum = m->dof_simplenum;
  const tnLane zero = {0, 0, 0, 0};
  int nv = m->nv;

  // x <- inv(L') x: row i's entry subtracted from its ancestors, where it is not zero
  for (int i = nv - 1; i >= 0; i--) {
    tnLane xi = x[i];
    tnLaneMask live = xi != zero;
    int adr = rowadr[i], diag = adr + rownnz[i] - 1;
    if (adr == diag || !(live[0] | live[1] | live[2] | live[3])) {
      continue;
    }
    for (int k = adr; k < diag; k++) {
      tnLane* dst = x + colind[k];
      *dst = TN_SELECT_LANES(live, *dst - qLD[k] * xi, *dst);
    }
  }

  // x <- inv(L) inv(D) x: scaled, then less the dot over the ancestors (final by then)
  for (int i = 0; i < nv; i++) {
    tnLane xi = x[i] * diaginv[i];
    int adr = rowadr[i], cnt = rownnz[i] - 1;
    if (cnt > 0 && !simplenum[i]) {
      tnLane dot;
      dot_sparse(&dot, qLD + adr, x, cnt, colind + adr);
      xi -= dot;
    }
    x[i] = xi;
  }
}

/* x[l] <- inv(L'DL) x[l] with each data's factor (qLD, or with `damped` qH), one data at a
 * time when the lanes' scratch does not fit the first data's arena */
void tn__solveLanes(const mjModel* m, mjData* const* d, mjtNum* const* x, int damped) {
  int nv = m->nv, nC = m->nC;
  mjData* d0 = d[0];
  if (!tn__lanesFit(d0, (size_t)nC + 2 * (size_t)nv)) {
    for (int l = 0; l < TN_LANES; l++) {
      const mjtNum* qLD = damped ? d[l]->qH : d[l]->qLD;
      const mjtNum* diaginv = damped ? d[l]->qHDiagInv : d[l]->qLDiagInv;
      tn__solveLD(m, x[l], 1, qLD, diaginv);
    }
    return;
  }

  // the factors and the right-hand sides into lanes, solved, the solutions back
  mj_markStack(d0);
  tnLane* qLD = tn__lanesAlloc(d0, (size_t)nC);
  tnLane* diaginv = tn__lanesAlloc(d0, (size_t)nv);
  tnLane* vec = tn__lanesAlloc(d0, (size_t)nv);
  if (damped) {
    tn__lanesGather(qLD, LANES_OF(d, qH), nC);
    tn__lanesGather(diaginv, LANES_OF(d, qHDiagInv), nv);
  } else {
    tn__lanesGather(qLD, LANES_OF(d, qLD), nC);
    tn__lanesGather(diaginv, LANES_OF(d, qLDiagInv), nv);
  }
  tn__lanesGather(vec, x, nv);
  solve_lanes(m, vec, qLD, diaginv);
  tn__lanesScatter(x, vec, nv);
  mj_freeStack(d0);
}
