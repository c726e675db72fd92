/* spec/spec_actuator.c — the actuator shortcuts of the model-editing API: mjs_setToMotor,
 * mjs_setToPosition, ... set the gain, bias and dynamics of an actuator as the matching MJCF
 * element would. Parameters a shortcut does not define keep their values. Each returns ""
 * on success or a message (the actuator unchanged) on invalid input, as MuJoCo does. */
#include <string.h>

#include "spec/spec_tree.h"

const char* mjs_setToMotor(mjsActuator* actuator) {
  actuator->gaintype = mjGAIN_FIXED;
  actuator->gainprm[0] = 1;
  actuator->biastype = mjBIAS_NONE;
  actuator->dyntype = mjDYN_NONE;
  return "";
}

/* position and integrated-velocity servos: gain kp, bias -kp*length - kv*velocity (or a
 * damping ratio, kept positive in biasprm[2] and resolved by the compiler) */
static const char* servo(mjsActuator* a, double kp, const double* kv, const double* dampratio,
                         const double* timeconst, double inheritrange, int integrated) {
  if (kv && dampratio) {
    return "kv and dampratio cannot both be defined";
  }
  if (kv && *kv < 0) {
    return "kv cannot be negative";
  }
  if (dampratio && *dampratio < 0) {
    return "dampratio cannot be negative";
  }
  if (timeconst && *timeconst < 0) {
    return "timeconst cannot be negative";
  }
  a->gaintype = mjGAIN_FIXED;
  a->gainprm[0] = kp;
  a->biastype = mjBIAS_AFFINE;
  a->biasprm[1] = -kp;
  if (kv) {
    a->biasprm[2] = -*kv;
  } else if (dampratio) {
    a->biasprm[2] = *dampratio;
  }
  if (integrated) {
    a->dyntype = mjDYN_INTEGRATOR;
  } else if (timeconst) {
    a->dynprm[0] = *timeconst;
    a->dyntype = *timeconst > 0 ? mjDYN_FILTEREXACT : mjDYN_NONE;
  }
  a->inheritrange = inheritrange;
  return "";
}

const char* mjs_setToPosition(mjsActuator* actuator, double kp, double kv[1], double dampratio[1],
                              double timeconst[1], double inheritrange) {
  return servo(actuator, kp, kv, dampratio, timeconst, inheritrange, 0);
}

const char* mjs_setToIntVelocity(mjsActuator* actuator, double kp, double kv[1],
                                 double dampratio[1], double timeconst[1], double inheritrange) {
  return servo(actuator, kp, kv, dampratio, timeconst, inheritrange, 1);
}

const char* mjs_setToVelocity(mjsActuator* actuator, double kv) {
  actuator->gaintype = mjGAIN_FIXED;
  actuator->gainprm[0] = kv;
  actuator->biastype = mjBIAS_AFFINE;
  memset(actuator->biasprm, 0, sizeof(actuator->biasprm));
  actuator->biasprm[2] = -kv;
  actuator->dyntype = mjDYN_NONE;
  return "";
}

const char* mjs_setToDamper(mjsActuator* actuator, double kv) {
  if (kv < 0) {
    return "damping coefficient cannot be negative";
  }
  actuator->gaintype = mjGAIN_AFFINE;
  memset(actuator->gainprm, 0, sizeof(actuator->gainprm));
  actuator->gainprm[2] = -kv;
  actuator->biastype = mjBIAS_NONE;
  actuator->dyntype = mjDYN_NONE;
  actuator->ctrllimited = mjLIMITED_TRUE;
  return "";
}

const char* mjs_setToCylinder(mjsActuator* actuator, double timeconst, double bias, double area,
                              double diameter) {
  actuator->dyntype = mjDYN_FILTER;
  actuator->dynprm[0] = timeconst;
  actuator->gaintype = mjGAIN_FIXED;
  actuator->gainprm[0] = diameter > 0 ? mjPI / 4 * diameter * diameter : area;
  actuator->biastype = mjBIAS_AFFINE;
  actuator->biasprm[0] = bias;
  return "";
}

const char* mjs_setToMuscle(mjsActuator* actuator, double timeconst[2], double tausmooth,
                            double range[2], double force, double scale, double lmin, double lmax,
                            double vmax, double fpmax, double fvmax) {
  if (tausmooth < 0) {
    return "muscle tausmooth cannot be negative";
  }
  mjsActuator* a = actuator;
  a->dyntype = mjDYN_MUSCLE;
  a->dynprm[0] = timeconst[0];
  a->dynprm[1] = timeconst[1];
  a->dynprm[2] = tausmooth;
  a->gaintype = mjGAIN_MUSCLE;
  a->biastype = mjBIAS_MUSCLE;
  a->gainprm[0] = range[0];
  a->gainprm[1] = range[1];
  if (force >= 0) {
    a->gainprm[2] = force;  // -1: keep (computed from scale at compile)
  }
  a->gainprm[3] = scale;
  a->gainprm[4] = lmin;
  a->gainprm[5] = lmax;
  a->gainprm[6] = vmax;
  a->gainprm[7] = fpmax;
  a->gainprm[8] = fvmax;
  memcpy(a->biasprm, a->gainprm, 9 * sizeof(double));
  return "";
}

const char* mjs_setToAdhesion(mjsActuator* actuator, double gain) {
  if (gain < 0) {
    return "adhesion gain cannot be negative";
  }
  actuator->gaintype = mjGAIN_FIXED;
  actuator->gainprm[0] = gain;
  actuator->biastype = mjBIAS_NONE;
  actuator->ctrllimited = mjLIMITED_TRUE;
  return "";
}
