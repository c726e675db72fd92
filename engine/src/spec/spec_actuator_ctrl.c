/* spec/spec_actuator_ctrl.c — the controller-like actuator shortcuts of MuJoCo 3.14's
 * model-editing API: mjs_setToOrientation (an SO(3) orientation servo), mjs_setToPID and
 * mjs_setToDCMotor. They fill the actuator's types and parameter arrays as MuJoCo does,
 * checking arguments as they go: on an invalid argument they return MuJoCo's message and
 * leave whatever was already written (MuJoCo's order of writes and checks is kept, so the
 * actuator looks the same afterwards in both). Compiling such actuators is refused by
 * Torsion's compiler for now (so3, pid and dcmotor types are not simulated yet). */
#include <math.h>

#include "spec/spec_tree.h"

/* the servo part shared by the orientation servo and PID: kp into biasprm[1] and a
 * damping (kv negated) or damping ratio into biasprm[2]; NULL or an error message */
static const char* servo_bias(mjsActuator* a, double kp, const double* kv,
                              const double* dampratio) {
  a->biasprm[1] = -kp;
  if (kv) {
    if (*kv < 0) {
      return "kv cannot be negative";
    }
    a->biasprm[2] = -*kv;
  }
  if (dampratio) {
    if (*dampratio < 0) {
      return "dampratio cannot be negative";
    }
    a->biasprm[2] = *dampratio;
  }
  return NULL;
}

/* orientation servo: gain kp, bias -kp and damping or damping ratio, no dynamics */
const char* mjs_setToOrientation(mjsActuator* actuator, double kp, double kv[1],
                                 double dampratio[1], int ctrlspec) {
  if (kv && dampratio) {
    return "kv and dampratio cannot both be defined";
  }
  actuator->gainprm[0] = kp;
  const char* err = servo_bias(actuator, kp, kv, dampratio);
  if (err) {
    return err;
  }
  actuator->dyntype = mjDYN_NONE;
  actuator->gaintype = mjGAIN_SO3;
  actuator->biastype = mjBIAS_SO3;
  actuator->ctrlspec = ctrlspec;
  return "";
}

/* PID controller: proportional and derivative terms in the bias, the integral gain in
 * gainprm[0], the integral bound and slew-rate limit in dynprm[0..1]; PID dynamics only
 * when there is an integral term or a slew-rate limit */
const char* mjs_setToPID(mjsActuator* actuator, double kp, double kv[1], double dampratio[1],
                         double ki[1], double imax[1], double slewmax[1], double inheritrange,
                         int ctrlspec) {
  if (kv && dampratio) {
    return "kv and dampratio cannot both be defined";
  }
  const char* err = servo_bias(actuator, kp, kv, dampratio);
  if (err) {
    return err;
  }
  if (slewmax && *slewmax < 0) {
    return "slewmax cannot be negative";
  }

  // integral term and slew-rate limit
  int integral = ki && *ki != 0;
  int slew = slewmax && *slewmax > 0;
  actuator->gainprm[0] = ki ? *ki : 0;
  if (integral && imax) {
    actuator->dynprm[0] = *imax;
  }
  actuator->dynprm[1] = slewmax ? *slewmax : 0;
  actuator->dyntype = integral || slew ? mjDYN_PID : mjDYN_NONE;

  // control range from the target's range
  actuator->inheritrange = inheritrange;
  if (inheritrange > 0 && (actuator->ctrlrange[0] != 0 || actuator->ctrlrange[1] != 0)) {
    return "posrange and inheritrange cannot both be defined";
  }
  actuator->gaintype = mjGAIN_PID;
  actuator->biastype = mjBIAS_AFFINE;
  actuator->ctrlspec = ctrlspec;
  return "";
}

/* back-EMF constant from the nominal voltage vn and no-load speed omega0 (with the
 * actuator's viscous damping B, and R or the stall torque tau0 when known) */
static double dc_backemf(double vn, double tau0, double omega0, double R, double B) {
  if (B > 0 && R > 0) {
    // omega0 = vn Ke / (Ke^2 + R B): the larger root of Ke^2 omega0 - Ke vn + R B omega0
    double disc = vn * vn - 4 * R * B * omega0 * omega0;
    return disc > 0 ? (vn + sqrt(disc)) / (2 * omega0) : vn / omega0;
  }
  if (B > 0 && tau0 > 0) {
    // with R = Ke vn / tau0: omega0 = vn / (Ke + vn B / tau0)
    double ke = vn / omega0 - vn * B / tau0;
    return ke > 0 ? ke : vn / omega0;
  }
  return vn / omega0;
}

/* DC motor: electrical, controller, thermal and friction states as activations */
const char* mjs_setToDCMotor(mjsActuator* actuator, double motorconst[2], double resistance,
                             double nominal[3], double saturation[3], double inductance[2],
                             double cogging[3], double controller[6], double thermal[6],
                             double lugre[5], int ctrlspec) {
  mjsActuator* a = actuator;
  double R = resistance;
  double kt = motorconst ? motorconst[0] : 0, ke = motorconst ? motorconst[1] : 0;
  double vn = nominal ? nominal[0] : 0, tau0 = nominal ? nominal[1] : 0;
  double omega0 = nominal ? nominal[2] : 0;

  // motor constant and resistance, from the nominal point where not given
  if (vn > 0 && ke <= 0 && omega0 > 0) {
    ke = dc_backemf(vn, tau0, omega0, R, a->damping[0]);
  }
  double K = kt > 0 && ke > 0 ? sqrt(kt * ke) : (kt > 0 ? kt : ke);
  if (R == 0 && vn > 0 && tau0 > 0 && K > 0) {
    R = K * vn / tau0;
  }
  if (K <= 0) {
    return "DC motor: motor constant K must be positive";
  }
  if (R <= 0) {
    return "DC motor: resistance R must be positive";
  }
  a->dyntype = mjDYN_DCMOTOR;
  a->gaintype = mjGAIN_DCMOTOR;
  a->biastype = mjBIAS_DCMOTOR;
  a->gainprm[0] = R;
  a->gainprm[1] = K;

  // controller: kp, ki, kd gains, slew and current limits, voltage limit
  for (int i = 0; i < 3; i++) {
    a->gainprm[4 + i] = controller ? controller[i] : 0;
  }
  a->dynprm[7] = controller ? controller[3] : 0;
  a->dynprm[8] = controller ? controller[4] : 0;
  if (controller && controller[5] > 0) {
    a->gainprm[7] = controller[5];
  }

  // saturation: torque (or current) limit into forcerange, current-rate limit
  if (saturation && (saturation[0] > 0 || saturation[1] > 0)) {
    double tau_max = saturation[0] == 0 && saturation[1] > 0 ? K * saturation[1] : saturation[0];
    a->forcerange[0] = -tau_max;
    a->forcerange[1] = tau_max;
    a->forcelimited = mjLIMITED_TRUE;
  }
  if (saturation && saturation[2] > 0) {
    a->dynprm[1] = saturation[2];
  }

  // cogging torque: amplitude, periodicity, phase
  for (int i = 0; i < 3; i++) {
    a->biasprm[i] = cogging ? cogging[i] : 0;
  }

  // activations: current (with an electrical time constant), slew, integral
  int actdim = 0;
  if (inductance && inductance[0] < 0) {
    return "DC motor: inductance must be non-negative";
  }
  if (inductance && inductance[1] < 0) {
    return "DC motor: electrical time constant must be non-negative";
  }
  double te =
      inductance && inductance[0] > 0 ? inductance[0] / R : (inductance ? inductance[1] : 0);
  a->dynprm[0] = te;
  actdim += te > 0;
  actdim += controller && controller[3] > 0;
  actdim += controller && controller[1] > 0;

  // temperature: two of thermal resistance, capacitance and time constant give the third
  if (thermal && (thermal[0] > 0 || thermal[1] > 0 || thermal[2] > 0)) {
    double RT = thermal[0], C = thermal[1], tth = thermal[2];
    if (tth > 0 && RT > 0 && C == 0) {
      C = tth / RT;
    } else if (tth > 0 && C > 0 && RT == 0) {
      RT = tth / C;
    }
    if (RT <= 0) {
      return "DC motor: thermal resistance must be positive";
    }
    if (C <= 0) {
      return "DC motor: thermal capacitance must be positive";
    }
    a->dynprm[2] = RT;
    a->dynprm[3] = C;
    a->dynprm[4] = thermal[5];
    a->gainprm[2] = thermal[3];
    a->gainprm[3] = thermal[4];
    actdim++;
  }

  // LuGre friction: bristle stiffness and damping, Coulomb, static, Stribeck
  if (lugre && lugre[0] > 0) {
    a->dynprm[5] = lugre[0];
    a->dynprm[6] = lugre[1];
    a->biasprm[3] = lugre[2];
    a->biasprm[4] = lugre[3];
    a->biasprm[5] = lugre[4];
    actdim++;
  }
  a->gainprm[8] = 0;
  a->ctrlspec = ctrlspec;
  a->actdim = actdim;
  a->actlimited = mjLIMITED_FALSE;
  a->actearly = 1;
  return "";
}
