/* spec_recompile.c — mj_recompile: a pendulum is simulated, then a free body and a child
 * pendulum are added and the spec recompiled into the same model and data; the existing
 * joint keeps its position and velocity and the new ones start at their reference values;
 * the simulation continues. Written against MuJoCo's C API only; MJ_INCLUDE names the
 * header. No arguments. */
#include <stdio.h>
#include MJ_INCLUDE

static void pv(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

int main(void) {
  mjSpec* s = mj_makeSpec();
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* b = mjs_addBody(world, NULL);
  b->pos[2] = 1;
  mjsJoint* j = mjs_addJoint(b, NULL);
  j->axis[0] = 1;
  j->axis[2] = 0;
  mjsGeom* g = mjs_addGeom(b, NULL);
  g->type = mjGEOM_CAPSULE;
  g->size[0] = 0.05;
  double fromto[6] = {0, 0, 0, 0, 0.3, 0};
  for (int i = 0; i < 6; i++) g->fromto[i] = fromto[i];
  mjsActuator* a = mjs_addActuator(s, NULL);
  a->trntype = mjTRN_JOINT;
  mjs_setString(a->target, mjs_getString(mjs_getName(j->element)));
  mjs_setName(j->element, "hinge");
  mjs_setString(a->target, "hinge");
  mjs_setToCylinder(a, 0.1, 0, 0.2, -1);
  mjModel* m = mj_compile(s, NULL);
  mjData* d = mj_makeData(m);
  d->ctrl[0] = 0.5;
  for (int i = 0; i < 100; i++) mj_step(m, d);
  printf("before nq %d time %.6f\n", (int)m->nq, d->time);
  pv(" qpos", d->qpos, (int)m->nq);
  pv(" qvel", d->qvel, (int)m->nv);
  pv(" act", d->act, (int)m->na);

  // add a free ball and a child pendulum (its joint with a reference angle)
  mjsBody* ball = mjs_addBody(world, NULL);
  ball->pos[2] = 2;
  mjs_addFreeJoint(ball);
  mjsGeom* bg = mjs_addGeom(ball, NULL);
  bg->size[0] = 0.1;
  mjsBody* child = mjs_addBody(b, NULL);
  child->pos[1] = 0.3;
  mjsJoint* cj = mjs_addJoint(child, NULL);
  cj->axis[0] = 1;
  cj->axis[2] = 0;
  cj->ref = 20;
  mjsGeom* cg = mjs_addGeom(child, NULL);
  cg->size[0] = 0.05;
  cg->pos[1] = 0.2;
  int rc = mj_recompile(s, NULL, m, d);
  printf("recompile %d nq %d nv %d nbody %d time %.6f\n", rc, (int)m->nq, (int)m->nv,
         (int)m->nbody, d->time);
  pv(" qpos", d->qpos, (int)m->nq);
  pv(" qvel", d->qvel, (int)m->nv);
  pv(" act", d->act, (int)m->na);
  pv(" ctrl", d->ctrl, (int)m->nu);
  for (int i = 0; i < 200; i++) mj_step(m, d);
  printf("after time %.6f\n", d->time);
  pv(" qpos", d->qpos, (int)m->nq);
  pv(" qvel", d->qvel, (int)m->nv);
  mj_deleteData(d);
  mj_deleteModel(m);
  mj_deleteSpec(s);
  return 0;
}
