/* actuation/muscle.c — MuJoCo's muscle model: the active force-length-velocity gain, the
 * passive force-length bias and the activation dynamics with activation-dependent time
 * constants (Millard et al. 2013), optionally smoothed between activation and deactivation.
 *
 * Parameters (gainprm = biasprm): range[2] (operating range of the normalized length),
 * force (peak active force; negative: scale / acc0), scale, lmin, lmax, vmax, fpmax, fvmax.
 * Dynamics parameters (dynprm): tau_act, tau_deact, tausmooth. */

#include <torsion/torsion.h>

#include "actuation/actuation.h"

/* smooth step 0 -> 1 over [0, 1]: the quintic with zero first and second derivatives at
 * both ends */
mjtNum mju_sigmoid(mjtNum x) {
  if (x <= 0) {
    return 0;
  }
  if (x >= 1) {
    return 1;
  }
  return x * x * x * (3 * x * (2 * x - 5) + 10);
}

/* normalized active force-length curve: four half-quadratics, peak 1 at length 1, zero
 * outside [lmin, lmax] */
mjtNum tn_muscleGainLength(mjtNum length, mjtNum lmin, mjtNum lmax) {
  if (!(lmin <= length && length <= lmax)) {
    return 0;
  }

  // midpoints of the rising and falling halves
  mjtNum lo = 0.5 * (lmin + 1), hi = 0.5 * (1 + lmax);
  mjtNum x;
  if (length <= lo) {
    x = (length - lmin) / mju_max(mjMINVAL, lo - lmin);
    return 0.5 * x * x;
  }
  if (length <= 1) {
    x = (1 - length) / mju_max(mjMINVAL, 1 - lo);
    return 1 - 0.5 * x * x;
  }
  if (length <= hi) {
    x = (length - 1) / mju_max(mjMINVAL, hi - 1);
    return 1 - 0.5 * x * x;
  }
  x = (lmax - length) / mju_max(mjMINVAL, lmax - hi);
  return 0.5 * x * x;
}

/* peak force: given, or scale / acc0 when negative */
static mjtNum peak_force(mjtNum acc0, const mjtNum* prm) {
  return prm[2] < 0 ? prm[3] / mju_max(mjMINVAL, acc0) : prm[2];
}

/* optimal fiber length: the length range mapped onto the operating range */
static mjtNum optimal_length(const mjtNum lengthrange[2], const mjtNum* prm) {
  return (lengthrange[1] - lengthrange[0]) / mju_max(mjMINVAL, prm[1] - prm[0]);
}

/* active muscle gain (negative: muscles pull) */
mjtNum mju_muscleGain(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]) {
  mjtNum force = peak_force(acc0, prm);
  mjtNum lmin = prm[4], lmax = prm[5], vmax = prm[6], fvmax = prm[8];
  mjtNum L0 = optimal_length(lengthrange, prm);

  // normalized length and velocity
  mjtNum L = prm[0] + (len - lengthrange[0]) / mju_max(mjMINVAL, L0);
  mjtNum V = vel / mju_max(mjMINVAL, L0 * vmax);

  // force-length
  mjtNum FL = tn_muscleGainLength(L, lmin, lmax);

  // force-velocity: zero below -1, quadratic to 1 at 0, quadratic up to fvmax
  mjtNum FV, top = fvmax - 1;
  if (V <= -1) {
    FV = 0;
  } else if (V <= 0) {
    FV = (V + 1) * (V + 1);
  } else if (V <= top) {
    FV = fvmax - (top - V) * (top - V) / mju_max(mjMINVAL, top);
  } else {
    FV = fvmax;
  }
  return -force * FL * FV;
}

/* velocity derivative of the active muscle gain: only the force-velocity curve depends on
 * the velocity */
mjtNum tn__muscleGainVel(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                         const mjtNum prm[9]) {
  mjtNum force = peak_force(acc0, prm);
  mjtNum lmin = prm[4], lmax = prm[5], vmax = prm[6], fvmax = prm[8];
  mjtNum L0 = optimal_length(lengthrange, prm);
  mjtNum L = prm[0] + (len - lengthrange[0]) / mju_max(mjMINVAL, L0);
  mjtNum V = vel / mju_max(mjMINVAL, L0 * vmax);
  mjtNum FL = tn_muscleGainLength(L, lmin, lmax);

  // slope of the force-velocity curve
  mjtNum dFV, top = fvmax - 1;
  if (V <= -1) {
    dFV = 0;
  } else if (V <= 0) {
    dFV = 2 * V + 2;
  } else if (V <= top) {
    dFV = (-2 * V + 2 * top) / mju_max(mjMINVAL, top);
  } else {
    dFV = 0;
  }
  return -force * FL * dFV / mju_max(mjMINVAL, L0 * vmax);
}

/* passive muscle force (negative): zero up to the optimal length, half-quadratic up to
 * (1 + lmax) / 2, linear beyond */
mjtNum mju_muscleBias(mjtNum len, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]) {
  mjtNum force = peak_force(acc0, prm);
  mjtNum lmax = prm[5], fpmax = prm[7];
  mjtNum L0 = optimal_length(lengthrange, prm);
  mjtNum L = prm[0] + (len - lengthrange[0]) / mju_max(mjMINVAL, L0);

  mjtNum b = 0.5 * (1 + lmax);
  if (L <= 1) {
    return 0;
  }
  if (L <= b) {
    mjtNum x = (L - 1) / mju_max(mjMINVAL, b - 1);
    return -force * fpmax * 0.5 * x * x;
  }
  mjtNum x = (L - b) / mju_max(mjMINVAL, b - 1);
  return -force * fpmax * (0.5 + x);
}

/* time constant: activation or deactivation by the sign of dctrl, or a sigmoid blend of
 * the two over a band of width `smoothing` */
mjtNum tn_muscleDynamicsTimescale(mjtNum dctrl, mjtNum tau_act, mjtNum tau_deact,
                                  mjtNum smoothing) {
  if (smoothing < mjMINVAL) {
    return dctrl > 0 ? tau_act : tau_deact;
  }
  return tau_deact + (tau_act - tau_deact) * mju_sigmoid(dctrl / smoothing + 0.5);
}

/* activation derivative: (clamped control - act) / tau, the time constants scaled by the
 * clamped activation */
mjtNum mju_muscleDynamics(mjtNum ctrl, mjtNum act, const mjtNum prm[3]) {
  mjtNum u = mju_clip(ctrl, 0, 1);
  mjtNum a = mju_clip(act, 0, 1);

  // activation-dependent time constants
  mjtNum tau_act = prm[0] * (0.5 + 1.5 * a);
  mjtNum tau_deact = prm[1] / (0.5 + 1.5 * a);

  // first-order filter towards the control
  mjtNum dctrl = u - act;
  mjtNum tau = tn_muscleDynamicsTimescale(dctrl, tau_act, tau_deact, prm[2]);
  return dctrl / mju_max(mjMINVAL, tau);
}
