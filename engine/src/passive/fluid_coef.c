/* passive/fluid_coef.c — compile-time coefficients of the ellipsoid fluid model.
 *
 * The ellipsoid model replaces every geom by an equivalent ellipsoid and uses the
 * potential-flow added mass of that ellipsoid (Tuckerman's integrals kappa_i). These are
 * constants of the model: the compiler evaluates them once through the functions here and
 * stores them in geom_fluid[6..11] (per unit density). The integrals are evaluated by the
 * same fixed quadrature as MuJoCo 3.14's compiler (nodes, weights and order of summation),
 * not exactly: the quadrature is ~1e-6 relative off the exact integrals, and light bodies
 * in a dense fluid show that difference in their accelerations. */

#include <math.h>

#include "passive/fluid.h"

/* semi-axes of the ellipsoid equivalent to a geom, per geom type */
void tn__geomSemiAxes(const mjtNum size[3], int geomtype, mjtNum semiaxes[3]) {
  switch (geomtype) {
    case mjGEOM_SPHERE:
      semiaxes[0] = semiaxes[1] = semiaxes[2] = size[0];
      break;

    case mjGEOM_CAPSULE:
      semiaxes[0] = semiaxes[1] = size[0];
      semiaxes[2] = size[1] + size[0];
      break;

    case mjGEOM_CYLINDER:
      semiaxes[0] = semiaxes[1] = size[0];
      semiaxes[2] = size[1];
      break;

    default:
      semiaxes[0] = size[0];
      semiaxes[1] = size[1];
      semiaxes[2] = size[2];
  }
}

/* Tuckerman's coefficient kappa for the axis of semi-axis a (b, c the others):
 *   kappa = a*b*c * integral_0^inf dl / sqrt((a^2+l)^3 (b^2+l) (c^2+l)),
 * evaluated as MuJoCo 3.14 evaluates it, so that the compiled coefficients are the same
 * numbers: the substitution l = s * x^3/(1-x)^2 with s = (a^3 b c)^(2/5), then the
 * 15-point Kronrod rule on x in [0, 1] with 8-digit weights, summed from the smallest node.
 * (The rule's error against the exact integral is ~1e-6 relative.) */
static double added_mass_kappa(double a, double b, double c) {
  // Kronrod weights, nodes mapped to l (x^3/(1-x)^2) and the Jacobian dl/dx at the nodes
  static const double weight[15] = {
    0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236,
    0.09517529, 0.10221647, 0.10474107, 0.10221647, 0.09517529,
    0.08450236, 0.07032663, 0.05239501, 0.03154605, 0.01146766};
  static const double node_l[15] = {
    7.865151709349917e-08, 1.7347976913907274e-05, 0.0003548008144506193,
    0.002846636252924549, 0.014094260903596077, 0.053063261727396636,
    0.17041978741317773, 0.5, 1.4036301548686991, 3.9353484827022642,
    11.644841677041734, 39.53187807410903, 177.5711362220801,
    1429.4772912937397, 54087.416549217705};
  static const double node_dl[15] = {
    5.538677720489877e-05, 0.002080868285293228, 0.016514126520723166,
    0.07261900344370877, 0.23985243401862602, 0.6868318249020725,
    1.8551129519182894, 5.0, 14.060031152313941, 43.28941239611009,
    156.58546376397112, 747.9826085305024, 5827.4042950027115,
    116754.0197944512, 25482945.327264845};

  // inverse squared semi-axes and the length scale of l
  double ia2 = 1.0 / (a*a), ib2 = 1.0 / (b*b), ic2 = 1.0 / (c*c);
  double scale = pow(a*a*a * b * c, 0.4);

  // integrand in the scaled form a^2 * b*c*a / sqrt(...) = 1 / ((1+l/a^2) sqrt(...))
  double sum = 0;
  for (int i = 0; i < 15; i++) {
    double l = scale * node_l[i];
    double fa = 1 + l*ia2;
    double den = fa * sqrt(fa * (1 + l*ib2) * (1 + l*ic2));
    sum += scale * node_dl[i] / den * weight[i];
  }
  return sum * ia2;
}

/* virtual mass and virtual inertia of an ellipsoid, per unit density */
void tn__fluidAddedMass(const mjtNum semiaxes[3], mjtNum virtual_mass[3],
                        mjtNum virtual_inertia[3]) {
  const mjtNum* r = semiaxes;
  mjtNum volume = 4.0 / 3.0 * mjPI * r[0] * r[1] * r[2];

  // kappa coefficients, one per axis
  mjtNum kappa[3];
  for (int i = 0; i < 3; i++) {
    kappa[i] = added_mass_kappa(r[i], r[(i + 1) % 3], r[(i + 2) % 3]);
  }

  // virtual mass: V kappa_i / (2 - kappa_i), the denominator kept above 1e-14
  const mjtNum eps = 1e-14;
  for (int i = 0; i < 3; i++) {
    virtual_mass[i] = volume * kappa[i] / fmax(eps, 2 - kappa[i]);
  }

  // virtual inertia: V/5 (rj^2-rk^2)^2 |kk-kj| / |2(rj^2-rk^2) + (rj^2+rk^2)(kj-kk)|
  // (numerator and denominator have the same sign; the denominator kept above 1e-14)
  for (int i = 0; i < 3; i++) {
    int j = (i+1) % 3, k = (i+2) % 3;
    mjtNum dr2 = r[j]*r[j] - r[k]*r[k];
    mjtNum num = dr2 * dr2 * fabs(kappa[k] - kappa[j]);
    mjtNum den = fabs(2*dr2 + (r[j]*r[j] + r[k]*r[k]) * (kappa[j] - kappa[k]));
    virtual_inertia[i] = volume * (num / fmax(eps, den)) / 5;
  }
}
