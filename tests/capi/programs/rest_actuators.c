/* rest_actuators.c — the actuator shortcuts mjs_setToOrientation, mjs_setToPID and
 * mjs_setToDCMotor: each is called on fresh actuators (and on ones with fields already set)
 * with valid and invalid arguments, NULL optional arguments included; the returned message
 * and every field the shortcuts may touch are printed. Written against MuJoCo's C API only.
 * Usage: rest_actuators */
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

/* print an actuator's dynamics, gain, bias and limit fields */
static void show(const char* label, const char* err, const mjsActuator* a) {
  printf("%s: '%s'\n", label, err ? err : "(null)");
  printf("  types %d %d %d actdim %d ctrlspec %d actearly %d\n", (int)a->dyntype,
         (int)a->gaintype, (int)a->biastype, a->actdim, a->ctrlspec, (int)a->actearly);
  printf("  dynprm");
  for (int i = 0; i < mjNDYN; i++) printf(" %.12g", a->dynprm[i]);
  printf("\n  gainprm");
  for (int i = 0; i < mjNGAIN; i++) printf(" %.12g", a->gainprm[i]);
  printf("\n  biasprm");
  for (int i = 0; i < mjNBIAS; i++) printf(" %.12g", a->biasprm[i]);
  printf("\n  limited %d %d %d ranges %.12g %.12g %.12g %.12g %.12g %.12g inherit %.12g\n",
         (int)a->ctrllimited, (int)a->forcelimited, (int)a->actlimited, a->ctrlrange[0],
         a->ctrlrange[1], a->forcerange[0], a->forcerange[1], a->actrange[0], a->actrange[1],
         a->inheritrange);
  printf("  damping %.12g %.12g %.12g armature %.12g\n", a->damping[0], a->damping[1],
         a->damping[2], a->armature);
}

int main(void) {
  mjSpec* s = mj_makeSpec();
  double kv = 2, dr = 0.7, ki = 3, imax = 0.4, slew = 5, neg = -1;

  /* orientation servo */
  mjsActuator* a = mjs_addActuator(s, NULL);
  show("orient kv", mjs_setToOrientation(a, 10, &kv, NULL, 0), a);
  a = mjs_addActuator(s, NULL);
  show("orient dampratio", mjs_setToOrientation(a, 10, NULL, &dr, 1), a);
  a = mjs_addActuator(s, NULL);
  show("orient none", mjs_setToOrientation(a, 4, NULL, NULL, 2), a);
  a = mjs_addActuator(s, NULL);
  show("orient both", mjs_setToOrientation(a, 10, &kv, &dr, 0), a);
  a = mjs_addActuator(s, NULL);
  show("orient negkv", mjs_setToOrientation(a, 10, &neg, NULL, 0), a);
  a = mjs_addActuator(s, NULL);
  show("orient negdr", mjs_setToOrientation(a, 10, NULL, &neg, 0), a);
  a = mjs_addActuator(s, NULL);
  show("orient negkp", mjs_setToOrientation(a, -3, NULL, NULL, 0), a);

  /* PID */
  a = mjs_addActuator(s, NULL);
  show("pid all", mjs_setToPID(a, 20, &kv, NULL, &ki, &imax, &slew, 0, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid minimal", mjs_setToPID(a, 20, NULL, NULL, NULL, NULL, NULL, 0, 1), a);
  a = mjs_addActuator(s, NULL);
  show("pid dampratio", mjs_setToPID(a, 20, NULL, &dr, &ki, NULL, NULL, 0.5, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid slew only", mjs_setToPID(a, 20, NULL, NULL, NULL, NULL, &slew, 0, 2), a);
  a = mjs_addActuator(s, NULL);
  show("pid both", mjs_setToPID(a, 20, &kv, &dr, NULL, NULL, NULL, 0, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid negki", mjs_setToPID(a, 20, NULL, NULL, &neg, NULL, NULL, 0, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid negimax", mjs_setToPID(a, 20, NULL, NULL, &ki, &neg, NULL, 0, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid negslew", mjs_setToPID(a, 20, NULL, NULL, NULL, NULL, &neg, 0, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid negkv", mjs_setToPID(a, 20, &neg, NULL, NULL, NULL, NULL, 0, 0), a);
  a = mjs_addActuator(s, NULL);
  a->ctrlrange[0] = -1, a->ctrlrange[1] = 1;
  show("pid inherit+ctrlrange", mjs_setToPID(a, 20, NULL, NULL, NULL, NULL, NULL, 1, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid imax no ki", mjs_setToPID(a, 20, NULL, NULL, NULL, &imax, NULL, 0, 0), a);

  /* which preset fields the shortcuts overwrite, and where errors stop them */
  double zero = 0;
  a = mjs_addActuator(s, NULL);
  a->dyntype = mjDYN_FILTER, a->dynprm[0] = 7, a->dynprm[1] = 9, a->biasprm[0] = 7;
  a->biasprm[2] = 8, a->gainprm[0] = 11, a->gainprm[1] = 12, a->actdim = 2;
  show("orient preset", mjs_setToOrientation(a, 10, NULL, NULL, 3), a);
  a = mjs_addActuator(s, NULL);
  show("orient negkv ctrlspec", mjs_setToOrientation(a, 10, &neg, NULL, 3), a);
  a = mjs_addActuator(s, NULL);
  a->dyntype = mjDYN_FILTER, a->dynprm[0] = 7, a->dynprm[1] = 9, a->biasprm[0] = 7;
  a->biasprm[2] = 8, a->gainprm[0] = 11, a->gainprm[1] = 12, a->actdim = 2;
  show("pid preset", mjs_setToPID(a, 20, NULL, NULL, NULL, NULL, NULL, 0, 3), a);
  a = mjs_addActuator(s, NULL);
  show("pid ki zero", mjs_setToPID(a, 20, NULL, NULL, &zero, &imax, &zero, 0, 0), a);
  a = mjs_addActuator(s, NULL);
  show("pid negdr", mjs_setToPID(a, 20, NULL, &neg, &ki, NULL, NULL, 0, 3), a);
  a = mjs_addActuator(s, NULL);
  show("pid negslew ctrlspec", mjs_setToPID(a, 20, &kv, NULL, &ki, &imax, &neg, 0, 3), a);
  a = mjs_addActuator(s, NULL);
  a->ctrlrange[0] = -1, a->ctrlrange[1] = 1;
  show("pid inherit full", mjs_setToPID(a, 20, &kv, NULL, &ki, &imax, &slew, 1, 3), a);
  a = mjs_addActuator(s, NULL);
  a->ctrlrange[1] = 1;
  show("pid inherit zero", mjs_setToPID(a, 20, NULL, NULL, NULL, NULL, NULL, 0, 3), a);

  /* DC motor */
  double mc[2] = {0.05, 0.04}, nominal[3] = {12, 0.5, 300}, sat[3] = {0.8, 10, 100};
  double ind[2] = {0.002, 0}, cog[3] = {0.01, 6, 0.2}, ctl[6] = {2, 1, 0.1, 50, 3, 24};
  double th[6] = {2, 0, 40, 0.004, 25, 20}, lugre[5] = {100, 1, 0.02, 0.03, 0.5};
  a = mjs_addActuator(s, NULL);
  show("dc nullable", mjs_setToDCMotor(a, mc, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0), a);
  a = mjs_addActuator(s, NULL);
  show("dc all",
       mjs_setToDCMotor(a, mc, 2, nominal, sat, ind, cog, ctl, th, lugre, 1), a);
  a = mjs_addActuator(s, NULL);
  show("dc nominal only",
       mjs_setToDCMotor(a, NULL, 0, nominal, NULL, NULL, NULL, NULL, NULL, NULL, 2), a);
  a = mjs_addActuator(s, NULL);
  a->damping[0] = 0.001;
  show("dc nominal damped R",
       mjs_setToDCMotor(a, NULL, 1.5, nominal, NULL, NULL, NULL, NULL, NULL, NULL, 0), a);
  a = mjs_addActuator(s, NULL);
  a->damping[0] = 0.001;
  show("dc nominal damped tau0",
       mjs_setToDCMotor(a, NULL, 0, nominal, NULL, NULL, NULL, NULL, NULL, NULL, 0), a);
  double sat2[3] = {0, 10, 0}, ind2[2] = {0, 0.003}, th2[6] = {0, 5, 30, 0.004, 25, 20};
  a = mjs_addActuator(s, NULL);
  show("dc sat current te thermalC",
       mjs_setToDCMotor(a, mc, 2, NULL, sat2, ind2, NULL, NULL, th2, NULL, 0), a);
  a = mjs_addActuator(s, NULL);
  show("dc noK", mjs_setToDCMotor(a, NULL, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0), a);
  a = mjs_addActuator(s, NULL);
  show("dc noR", mjs_setToDCMotor(a, mc, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0), a);
  double indneg[2] = {-1, 0}, indneg2[2] = {0, -1}, thbad[6] = {0, 0, 10, 0, 0, 0};
  a = mjs_addActuator(s, NULL);
  show("dc negL", mjs_setToDCMotor(a, mc, 2, NULL, NULL, indneg, NULL, NULL, NULL, NULL, 0), a);
  a = mjs_addActuator(s, NULL);
  show("dc negte", mjs_setToDCMotor(a, mc, 2, NULL, NULL, indneg2, NULL, NULL, NULL, NULL, 0),
       a);
  a = mjs_addActuator(s, NULL);
  show("dc thermal bad", mjs_setToDCMotor(a, mc, 2, NULL, NULL, NULL, NULL, NULL, thbad, NULL, 0),
       a);
  a = mjs_addActuator(s, NULL);
  a->gainprm[8] = 5, a->gainprm[9] = 6, a->dynprm[9] = 4, a->biasprm[6] = 3;
  a->actlimited = mjLIMITED_TRUE, a->forcelimited = mjLIMITED_FALSE;
  show("dc preset", mjs_setToDCMotor(a, mc, 2, NULL, NULL, NULL, NULL, ctl, NULL, NULL, 2), a);
  a = mjs_addActuator(s, NULL);
  for (int i = 0; i < 10; i++) a->dynprm[i] = a->gainprm[i] = a->biasprm[i] = 9;
  show("dc preset all", mjs_setToDCMotor(a, mc, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1),
       a);
  a = mjs_addActuator(s, NULL);
  for (int i = 0; i < 10; i++) a->dynprm[i] = a->gainprm[i] = a->biasprm[i] = 9;
  show("pid preset all", mjs_setToPID(a, 20, NULL, NULL, NULL, NULL, NULL, 0, 1), a);
  a = mjs_addActuator(s, NULL);
  for (int i = 0; i < 10; i++) a->dynprm[i] = a->gainprm[i] = a->biasprm[i] = 9;
  show("orient preset all", mjs_setToOrientation(a, 20, NULL, NULL, 1), a);
  a = mjs_addActuator(s, NULL);
  show("dc error ctrlspec",
       mjs_setToDCMotor(a, mc, 2, NULL, NULL, NULL, NULL, NULL, thbad, NULL, 2), a);
  mj_deleteSpec(s);
  return 0;
}
