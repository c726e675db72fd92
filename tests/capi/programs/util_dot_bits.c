/* The exact bits of mju_dot and of the dense Cholesky solve (mju_cholFactor, mju_cholSolve):
 * dot products of every length 0-14 on random entries, on entries with signed zeros (the
 * sign of a zero result is part of the rounding), and on exactly cancelling products; the
 * solves of random SPD systems of every size 1-12, in place and not. Each result is
 * printed as its 64 bits in hex, so the outputs must match bit for bit. Arguments: none. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

/* deterministic pseudo-random numbers in [-1, 1) */
static unsigned long long state = 4242;
static double urand(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) / (double)(1ULL << 53) * 2 - 1;
}

/* one number's bits */
static void print_bits(const char* name, int n, mjtNum x) {
  uint64_t b;
  memcpy(&b, &x, sizeof(b));
  printf("%s %d 0x%016llx\n", name, n, (unsigned long long)b);
}

int main(void) {
  mjtNum a[16], b[16];

  // random entries
  for (int n = 0; n <= 14; n++) {
    for (int i = 0; i < n; i++) {
      a[i] = urand();
      b[i] = urand();
    }
    print_bits("random", n, mju_dot(a, b, n));
  }

  // signed zeros: every product -0 or +0 as the bits of a mask say (a -0 product is a zero
  // times a negative), all 2^n masks for n <= 9
  for (int n = 0; n <= 9; n++) {
    for (int mask = 0; mask < (1 << n); mask++) {
      for (int i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (mask >> i) & 1 ? -1.5 : 2.0;
      }
      print_bits("zeros", mask, mju_dot(a, b, n));
    }
  }

  // exact cancellation: a block sum or the tail sum is zero, the other not
  for (int n = 1; n <= 14; n++) {
    for (int i = 0; i < n; i++) {
      a[i] = (i % 2) ? -1.0 : 1.0;
      b[i] = 0.25 * (i / 2 + 1);
    }
    print_bits("cancel", n, mju_dot(a, b, n));
    a[n - 1] = -a[n - 1];
    print_bits("cancel_last", n, mju_dot(a, b, n));
  }

  // dense Cholesky solves, sizes 1-12 (each SPD: A = B B' + n I)
  for (int n = 1; n <= 12; n++) {
    mjtNum B[144], A[144], vec[12], res[12];
    for (int i = 0; i < n * n; i++) {
      B[i] = urand();
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        mjtNum s = 0;
        for (int k = 0; k < n; k++) {
          s += B[i * n + k] * B[j * n + k];
        }
        A[i * n + j] = s + (i == j ? n : 0);
      }
      vec[i] = urand();
    }
    int rank = mju_cholFactor(A, n, 1e-12);
    printf("rank %d %d\n", n, rank);
    mju_cholSolve(res, A, vec, n);
    for (int i = 0; i < n; i++) {
      print_bits("solve", n, res[i]);
    }
    mju_cholSolve(vec, A, vec, n);
    for (int i = 0; i < n; i++) {
      print_bits("solve_in_place", n, vec[i]);
    }
  }
  return 0;
}
