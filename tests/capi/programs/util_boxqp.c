/* mju_boxQP on fixed problems of several sizes: bounds on both sides, one side, none,
 * all-clamped and non-convex cases; prints the return value, solution, free index set and
 * the factor of the free block. Arguments: none. */
#include <stdio.h>
#include <stdlib.h>
#include MJ_INCLUDE

/* deterministic pseudo-random numbers in [-1, 1) */
static unsigned long long state = 12345;
static double urand(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) / (double)(1ULL << 53) * 2 - 1;
}

/* one problem: kind 0 both bounds, 1 lower only, 2 upper only, 3 none, 4 indefinite H,
 * 5 large gradient (everything clamped) */
static void solve(int n, int kind, int with_index) {
  mjtNum *res, *R, *H, *g, *lower, *upper;
  int* index;
  mju_boxQPmalloc(&res, &R, &index, &H, &g, n, &lower, &upper);

  // H = A'A + 0.1 I (or indefinite), g, bounds, warm start
  mjtNum* A = (mjtNum*)malloc(sizeof(mjtNum) * n * n);
  for (int i = 0; i < n * n; i++) {
    A[i] = urand();
  }
  mju_mulMatTMat(H, A, A, n, n, n);
  for (int i = 0; i < n; i++) {
    H[i * (n + 1)] += kind == 4 ? -3.0 : 0.1;
    g[i] = (kind == 5 ? 50 : 2) * urand();
    lower[i] = -0.3 - 0.5 * (urand() + 1);
    upper[i] = 0.2 + 0.5 * (urand() + 1);
    res[i] = 0.5 * urand();
  }
  const mjtNum* lo = (kind == 0 || kind == 1 || kind >= 4) ? lower : NULL;
  const mjtNum* hi = (kind == 0 || kind == 2 || kind >= 4) ? upper : NULL;

  int nfree = mju_boxQP(res, R, with_index ? index : NULL, H, g, n, lo, hi);
  printf("n %d kind %d index %d -> %d\n", n, kind, with_index, nfree);
  printf("res");
  for (int i = 0; i < n; i++) {
    printf(" %.15g", res[i]);
  }
  printf("\n");
  if (nfree > 0 && with_index) {
    printf("index");
    for (int i = 0; i < nfree; i++) {
      printf(" %d", index[i]);
    }
    printf("\nR");
    for (int i = 0; i < nfree; i++) {
      for (int j = 0; j <= i; j++) {
        printf(" %.15g", R[i * nfree + j]);
      }
    }
    printf("\n");
  }
  free(A);
  free(res);
  free(R);
  free(index);
  free(H);
  free(g);
  free(lower);
  free(upper);
}

int main(void) {
  int sizes[] = {1, 2, 3, 5, 8, 13, 20};
  for (int s = 0; s < 7; s++) {
    for (int kind = 0; kind < 6; kind++) {
      solve(sizes[s], kind, 1);
    }
    solve(sizes[s], 0, 0);
  }
  return 0;
}
