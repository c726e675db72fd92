/* Band-dense matrices (mju_dense2Band, mju_band2Dense, mju_bandMulMatVec, mju_bandDiag,
 * mju_cholFactorBand, mju_cholSolveBand) on several shapes (ntotal, nband, ndense),
 * including a rank-deficient one. Arguments: none. */
#include <stdio.h>
#include <stdlib.h>
#include MJ_INCLUDE

/* deterministic pseudo-random numbers in [-1, 1) */
static unsigned long long state = 777;
static double urand(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) / (double)(1ULL << 53) * 2 - 1;
}

static void print_vec(const char* name, const mjtNum* v, int n) {
  printf("%s", name);
  for (int i = 0; i < n; i++) {
    printf(" %.15g", v[i]);
  }
  printf("\n");
}

static void run(int ntotal, int nband, int ndense, mjtNum diagadd, mjtNum diagmul, int deficient) {
  int nsparse = ntotal - ndense;
  int nbandmat = nsparse * nband + ndense * ntotal;
  mjtNum* dense = calloc(ntotal * ntotal, sizeof(mjtNum));
  mjtNum* band = calloc(nbandmat, sizeof(mjtNum));
  mjtNum* back = calloc(ntotal * ntotal, sizeof(mjtNum));
  mjtNum* vec = calloc(2 * ntotal, sizeof(mjtNum));
  mjtNum* res = calloc(2 * ntotal, sizeof(mjtNum));
  printf("shape %d %d %d\n", ntotal, nband, ndense);

  // symmetric, diagonally dominant, zero outside the band of the band rows
  for (int i = 0; i < ntotal; i++) {
    for (int j = 0; j <= i; j++) {
      int inside = i >= nsparse || i - j < nband;
      mjtNum v = inside ? urand() : 0;
      if (i == j) {
        v = deficient ? 0 : ntotal + 1 + urand();
      }
      dense[i * ntotal + j] = v;
      dense[j * ntotal + i] = v;
    }
  }
  for (int i = 0; i < 2 * ntotal; i++) {
    vec[i] = urand();
  }

  // conversions
  mju_dense2Band(band, dense, ntotal, nband, ndense);
  print_vec("band", band, nbandmat);
  mju_band2Dense(back, band, ntotal, nband, ndense, 0);
  print_vec("lower", back, ntotal * ntotal);
  mju_band2Dense(back, band, ntotal, nband, ndense, 1);
  print_vec("sym", back, ntotal * ntotal);
  for (int i = 0; i < ntotal; i++) {
    printf("%d ", mju_bandDiag(i, ntotal, nband, ndense));
  }
  printf("\n");

  // products with one and two vectors
  mju_bandMulMatVec(res, band, vec, ntotal, nband, ndense, 2, 1);
  print_vec("mulsym", res, 2 * ntotal);
  mju_bandMulMatVec(res, band, vec, ntotal, nband, ndense, 1, 0);
  print_vec("mullow", res, ntotal);

  // factor and solve (separate output, then in place)
  mjtNum mindiag = mju_cholFactorBand(band, ntotal, nband, ndense, diagadd, diagmul);
  printf("mindiag %.15g\n", mindiag);
  if (mindiag > 0) {
    print_vec("factor", band, nbandmat);
    mju_cholSolveBand(res, band, vec, ntotal, nband, ndense);
    print_vec("solve", res, ntotal);
    mju_cholSolveBand(vec, band, vec, ntotal, nband, ndense);
    print_vec("solve_inplace", vec, ntotal);
  }
  free(dense);
  free(band);
  free(back);
  free(vec);
  free(res);
}

int main(void) {
  run(1, 1, 0, 0, 0, 0);
  run(5, 1, 0, 0.1, 0, 0);
  run(6, 2, 0, 0, 0.5, 0);
  run(8, 3, 2, 0.01, 0.01, 0);
  run(10, 4, 3, 0, 0, 0);
  run(7, 7, 0, 0, 0, 0);
  run(6, 3, 6, 0, 0, 0);
  run(12, 5, 1, 1e-3, 0, 0);
  run(6, 2, 1, 0, 0, 1);
  return 0;
}
