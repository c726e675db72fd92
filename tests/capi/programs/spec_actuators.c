/* spec_actuators.c — the actuator shortcuts of the model-editing API (mjs_setToMotor,
 * mjs_setToPosition, ...): each is applied to an actuator whose parameters hold marker
 * values, and every parameter is printed, with the returned error (if any). Written against
 * MuJoCo's C API only; MJ_INCLUDE names the header. No arguments. */
#include <stdio.h>
#include MJ_INCLUDE

/* print n numbers after a label */
static void pv(const char* label, const double* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

/* a fresh actuator with marker values in every parameter */
static mjsActuator* marked(mjSpec* s) {
  mjsActuator* a = mjs_addActuator(s, NULL);
  for (int i = 0; i < mjNGAIN; i++) a->gainprm[i] = 7 + i;
  for (int i = 0; i < mjNBIAS; i++) a->biasprm[i] = 17 + i;
  for (int i = 0; i < mjNDYN; i++) a->dynprm[i] = 27 + i;
  a->gaintype = mjGAIN_USER;
  a->biastype = mjBIAS_USER;
  a->dyntype = mjDYN_USER;
  a->ctrllimited = mjLIMITED_AUTO;
  a->actlimited = mjLIMITED_AUTO;
  a->inheritrange = 0.25;
  return a;
}

/* every parameter the shortcuts may touch */
static void show(const char* what, const mjsActuator* a, const char* err) {
  printf("%s: error %s\n", what, err ? (err[0] ? "yes" : "empty") : "none");
  printf(" types gain %d bias %d dyn %d\n", (int)a->gaintype, (int)a->biastype, (int)a->dyntype);
  pv(" gainprm", a->gainprm, mjNGAIN);
  pv(" biasprm", a->biasprm, mjNBIAS);
  pv(" dynprm", a->dynprm, mjNDYN);
  printf(" ctrllimited %d actlimited %d forcelimited %d actdim %d\n", (int)a->ctrllimited,
         (int)a->actlimited, (int)a->forcelimited, a->actdim);
  pv(" ctrlrange", a->ctrlrange, 2);
  pv(" actrange", a->actrange, 2);
  printf(" inheritrange %.12g actearly %d\n", a->inheritrange, (int)a->actearly);
}

int main(void) {
  mjSpec* s = mj_makeSpec();
  double kv = 3, dampratio = 0.7, timeconst = 0.05;
  show("motor", marked(s), NULL);
  mjsActuator* a = marked(s);
  show("motor", a, mjs_setToMotor(a));
  a = marked(s);
  show("position kp", a, mjs_setToPosition(a, 12, NULL, NULL, NULL, 0));
  a = marked(s);
  show("position kv", a, mjs_setToPosition(a, 12, &kv, NULL, &timeconst, 0.5));
  a = marked(s);
  show("position dampratio", a, mjs_setToPosition(a, 12, NULL, &dampratio, NULL, 0));
  a = marked(s);
  show("intvelocity", a, mjs_setToIntVelocity(a, 12, &kv, NULL, NULL, 0));
  a = marked(s);
  show("intvelocity dampratio", a, mjs_setToIntVelocity(a, 12, NULL, &dampratio, NULL, 1));
  a = marked(s);
  show("velocity", a, mjs_setToVelocity(a, 4.5));
  a = marked(s);
  show("damper", a, mjs_setToDamper(a, 2.5));
  a = marked(s);
  show("cylinder area", a, mjs_setToCylinder(a, 0.1, 2, 3, -1));
  a = marked(s);
  show("cylinder diameter", a, mjs_setToCylinder(a, 0.1, 2, 3, 0.5));
  a = marked(s);
  double tc[2] = {0.01, 0.04}, range[2] = {0.75, 1.05};
  show("muscle", a, mjs_setToMuscle(a, tc, 0, range, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2));
  a = marked(s);
  show("adhesion", a, mjs_setToAdhesion(a, 5));
  mj_deleteSpec(s);
  return 0;
}
