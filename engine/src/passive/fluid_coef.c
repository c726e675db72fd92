/* passive/fluid_coef.c — compile-time coefficients of the ellipsoid fluid model.
 *
 * The ellipsoid model replaces every geom by an equivalent ellipsoid and uses the
 * potential-flow added mass of that ellipsoid (Tuckerman's integrals kappa_i). These are
 * constants of the model: the compiler evaluates them once through the functions here and
 * stores them in geom_fluid[6..11] (per unit density). The integrals are evaluated exactly
 * (Carlson's R_D); MuJoCo 3.14 uses a numerical quadrature whose values differ from the
 * exact ones by up to ~1e-6 relative, so geom_fluid[6..11] agree with MuJoCo's to that
 * level only (a known difference). */

#include <math.h>

#include "passive/fluid.h"

/* semi-axes of the ellipsoid equivalent to a geom, per geom type */
void tn_geomSemiAxes(const mjtNum size[3], int geomtype, mjtNum semiaxes[3]) {
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

/* Carlson's symmetric elliptic integral R_D(x, y, z) by the duplication theorem */
static double carlsonRD(double x, double y, double z) {
  double sum = 0, fac = 1;

  // duplicate until the three arguments agree to round-off
  for (int iter = 0; iter < 100; iter++) {
    double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    double lam = sx*sy + sy*sz + sz*sx;
    sum += fac / (sz * (z + lam));
    fac *= 0.25;
    x = 0.25 * (x + lam);
    y = 0.25 * (y + lam);
    z = 0.25 * (z + lam);
    double mu = (x + y + 3*z) / 5;
    double dev = fmax(fabs(x - mu), fmax(fabs(y - mu), fabs(z - mu))) / mu;
    if (dev < 1e-5) {
      break;
    }
  }

  // series expansion around the common value
  double mu = (x + y + 3*z) / 5;
  double ex = (mu - x) / mu, ey = (mu - y) / mu, ez = (mu - z) / mu;
  double ea = ex*ey, eb = ez*ez, ec = ea - eb, ed = ea - 6*eb, ee = ed + ec + ec;
  double s = ed * (-3.0/14 + 9.0/88*ed - 4.5/26*ez*ee)
             + ez * (ee/6 + ez * (-9.0/22*ec + 3.0/26*ez*ea));
  return 3*sum + fac * (1 + s) / (mu * sqrt(mu));
}

/* Tuckerman's coefficient kappa for the axis of semi-axis a (b, c the others):
 * kappa = a*b*c * integral_0^inf dl / sqrt((a^2+l)^3 (b^2+l) (c^2+l)) */
static double addedMassKappa(double a, double b, double c) {
  return a * b * c * (2.0 / 3.0) * carlsonRD(b*b, c*c, a*a);
}

/* virtual mass and virtual inertia of an ellipsoid, per unit density */
void tn_fluidAddedMass(const mjtNum semiaxes[3], mjtNum virtual_mass[3],
                       mjtNum virtual_inertia[3]) {
  const mjtNum* r = semiaxes;
  mjtNum volume = 4.0 / 3.0 * mjPI * r[0] * r[1] * r[2];

  // kappa coefficients, one per axis
  mjtNum kappa[3];
  for (int i = 0; i < 3; i++) {
    kappa[i] = addedMassKappa(r[i], r[(i+1) % 3], r[(i+2) % 3]);
  }

  // virtual mass: V kappa_i / (2 - kappa_i)
  for (int i = 0; i < 3; i++) {
    virtual_mass[i] = volume * kappa[i] / (2 - kappa[i]);
  }

  // virtual inertia: V/5 (rj^2-rk^2)^2 (kk-kj) / (2(rj^2-rk^2) + (rj^2+rk^2)(kj-kk))
  for (int i = 0; i < 3; i++) {
    int j = (i+1) % 3, k = (i+2) % 3;
    mjtNum dr2 = r[j]*r[j] - r[k]*r[k];
    mjtNum num = dr2 * dr2 * (kappa[k] - kappa[j]);
    mjtNum den = 2*dr2 + (r[j]*r[j] + r[k]*r[k]) * (kappa[j] - kappa[k]);
    virtual_inertia[i] = (den != 0) ? volume / 5 * num / den : 0;
  }
}
