/* util/math_misc.c — small numeric utilities of MuJoCo's API: pyramid encoding of contact
 * forces, the analytic spring-damper, Halton numbers, standard normal samples, number
 * format conversions and insertion sorts. */
#include <math.h>
#include <stdlib.h>

#include <torsion/torsion.h>
#include "util/util_inline.h"

/* pyramid representation (2*(dim-1) numbers) of a contact force (normal, tangents) with
 * friction coefficients mu: edge pair i carries a = f_n/(dim-1) split as (a+b)/2, (a-b)/2
 * with b = min(a, f_i/mu_i) */
void mju_encodePyramid(mjtNum* pyramid, const mjtNum* force, const mjtNum* mu, int dim) {
  mjtNum a = force[0] / (dim - 1);
  for (int i = 0; i < dim - 1; i++) {
    mjtNum b = mju_min(a, force[i + 1] / mu[i]);
    pyramid[2 * i] = 0.5 * (a + b);
    pyramid[2 * i + 1] = 0.5 * (a - b);
  }
}

/* contact force (dim numbers) of a pyramid representation */
void mju_decodePyramid(mjtNum* force, const mjtNum* pyramid, const mjtNum* mu, int dim) {
  // frictionless: the single number is the normal force
  if (dim == 1) {
    force[0] = pyramid[0];
    return;
  }

  // normal: sum of all edges; tangent i: difference of its pair times mu_i
  force[0] = 0;
  for (int i = 0; i < 2 * (dim - 1); i++) {
    force[0] += pyramid[i];
  }
  for (int i = 0; i < dim - 1; i++) {
    force[i + 1] = (pyramid[2 * i] - pyramid[2 * i + 1]) * mu[i];
  }
}

/* position at time t of x'' + b x' + k x = 0 from pos0, vel0 (over-, critically or
 * under-damped closed form) */
mjtNum mju_springDamper(mjtNum pos0, mjtNum vel0, mjtNum k, mjtNum b, mjtNum t) {
  mjtNum det = b * b - 4 * k;

  // overdamped: two real exponents
  if (det > mjMINVAL) {
    mjtNum w = sqrt(det) / 2;
    mjtNum r1 = -b / 2 + w, r2 = -b / 2 - w;
    mjtNum c1 = (pos0 * r2 - vel0) / (r2 - r1);
    mjtNum c2 = (pos0 * r1 - vel0) / (r1 - r2);
    return c1 * exp(r1 * t) + c2 * exp(r2 * t);
  }

  // critically damped
  if (det >= -mjMINVAL) {
    mjtNum c1 = pos0;
    mjtNum c2 = vel0 + b * c1 / 2;
    return exp(-b * t / 2) * (c1 + c2 * t);
  }

  // underdamped: damped oscillation
  mjtNum w = sqrt(fabs(det)) / 2;
  mjtNum c1 = pos0;
  mjtNum c2 = (vel0 + b * c1 / 2) / w;
  return exp(-b * t / 2) * (c1 * cos(w * t) + c2 * sin(w * t));
}

/* element `index` of the Halton (van der Corput) sequence in `base` */
mjtNum mju_Halton(int index, int base) {
  mjtNum b = (mjtNum)base;
  mjtNum f = 1 / b, res = 0;
  for (int n = index; n > 0; n /= base) {
    res += f * (n % base);
    f /= b;
  }
  return res;
}

/* standard normal sample by the polar Box-Muller method on the C library's rand() (the
 * process-wide generator, seeded with srand, as MuJoCo); the second sample of the pair
 * goes to num2 when given */
mjtNum mju_standardNormal(mjtNum* num2) {
  const mjtNum scale = 2.0 / ((mjtNum)RAND_MAX);
  mjtNum x1, x2, w;
  do {
    x1 = scale * (mjtNum)rand() - 1.0;
    x2 = scale * (mjtNum)rand() - 1.0;
    w = x1 * x1 + x2 * x2;
  } while (w >= 1.0 || w == 0);
  w = sqrt((-2.0 * log(w)) / w);
  if (num2) {
    *num2 = x2 * w;
  }
  return x1 * w;
}

/* res = vec converted (float to mjtNum) */
void mju_f2n(mjtNum* res, const float* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = (mjtNum)vec[i];
  }
}

/* res = vec converted (mjtNum to float) */
void mju_n2f(float* res, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = (float)vec[i];
  }
}

/* res = vec converted (double to mjtNum) */
void mju_d2n(mjtNum* res, const double* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = (mjtNum)vec[i];
  }
}

/* res = vec converted (mjtNum to double) */
void mju_n2d(double* res, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    res[i] = (double)vec[i];
  }
}

/* sort list in increasing order (insertion sort, stable) */
void mju_insertionSort(mjtNum* list, int n) {
  for (int i = 1; i < n; i++) {
    mjtNum x = list[i];
    int j = i - 1;
    for (; j >= 0 && list[j] > x; j--) {
      list[j + 1] = list[j];
    }
    list[j + 1] = x;
  }
}

/* sort integer list in increasing order (insertion sort) */
void mju_insertionSortInt(int* list, int n) {
  for (int i = 1; i < n; i++) {
    int x = list[i];
    int j = i - 1;
    for (; j >= 0 && list[j] > x; j--) {
      list[j + 1] = list[j];
    }
    list[j + 1] = x;
  }
}
