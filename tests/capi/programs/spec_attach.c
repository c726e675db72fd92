/* spec_attach.c — mjs_attach: an arm built in its own spec (two links, a mesh and a
 * material, a motor, a position servo, a joint sensor, a fixed tendon) is attached twice
 * to a base in another spec, to a frame and to a site, with name prefixes and suffixes.
 * Then mjs_bodyToFrame. Prints the compiled names and sizes, then simulates. Written against
 * MuJoCo's C API only; MJ_INCLUDE names the header. No arguments. */
#include <stdio.h>
#include MJ_INCLUDE

static void pv(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

/* the arm: shoulder and elbow hinges, a capsule and a mesh link */
static mjSpec* make_arm(void) {
  mjSpec* s = mj_makeSpec();
  mjsMesh* mesh = mjs_addMesh(s, NULL);
  mjs_setName(mesh->element, "wedge");
  float vert[12] = {0, 0, 0, 0.1f, 0, 0, 0, 0.1f, 0, 0, 0, 0.1f};
  mjs_setFloat(mesh->uservert, vert, 12);
  mjsMaterial* mat = mjs_addMaterial(s, NULL);
  mjs_setName(mat->element, "paint");
  mat->rgba[0] = 0.3f;
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* upper = mjs_addBody(world, NULL);
  mjs_setName(upper->element, "upper");
  mjsJoint* sh = mjs_addJoint(upper, NULL);
  mjs_setName(sh->element, "shoulder");
  sh->axis[0] = 0;
  sh->axis[1] = 1;
  sh->axis[2] = 0;
  mjsGeom* g = mjs_addGeom(upper, NULL);
  g->type = mjGEOM_CAPSULE;
  g->size[0] = 0.03;
  double ft[6] = {0, 0, 0, 0.3, 0, 0};
  for (int i = 0; i < 6; i++) g->fromto[i] = ft[i];
  mjs_setString(g->material, "paint");
  mjsBody* lower = mjs_addBody(upper, NULL);
  mjs_setName(lower->element, "lower");
  lower->pos[0] = 0.3;
  mjsJoint* el = mjs_addJoint(lower, NULL);
  mjs_setName(el->element, "elbow");
  el->axis[0] = 0;
  el->axis[1] = 1;
  el->axis[2] = 0;
  el->damping[0] = 0.2;
  mjsGeom* mg = mjs_addGeom(lower, NULL);
  mjs_setName(mg->element, "hand");
  mg->type = mjGEOM_MESH;
  mjs_setString(mg->meshname, "wedge");
  mjsSite* tip = mjs_addSite(lower, NULL);
  mjs_setName(tip->element, "tip");
  tip->pos[0] = 0.1;
  mjsActuator* m1 = mjs_addActuator(s, NULL);
  mjs_setName(m1->element, "shoulder_motor");
  m1->trntype = mjTRN_JOINT;
  mjs_setString(m1->target, "shoulder");
  m1->gear[0] = 5;
  mjsActuator* m2 = mjs_addActuator(s, NULL);
  mjs_setName(m2->element, "elbow_servo");
  m2->trntype = mjTRN_JOINT;
  mjs_setString(m2->target, "elbow");
  double kv = 0.1;
  mjs_setToPosition(m2, 2, &kv, NULL, NULL, 0);
  mjsSensor* sn = mjs_addSensor(s);
  mjs_setName(sn->element, "elbow_angle");
  sn->type = mjSENS_JOINTPOS;
  sn->objtype = mjOBJ_JOINT;
  mjs_setString(sn->objname, "elbow");
  mjsSensor* sp = mjs_addSensor(s);
  sp->type = mjSENS_FRAMEPOS;
  sp->objtype = mjOBJ_SITE;
  mjs_setString(sp->objname, "tip");
  mjsTendon* t = mjs_addTendon(s, NULL);
  mjs_setName(t->element, "coupling");
  mjs_wrapJoint(t, "shoulder", 1);
  mjs_wrapJoint(t, "elbow", -1);
  t->stiffness[0] = 3;
  return s;
}

/* mjs_bodyToFrame: a body dissolved into a frame of its parent, its children moved up */
static void body_to_frame(void) {
  mjSpec* s = mj_makeSpec();
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* a = mjs_addBody(world, NULL);
  mjs_setName(a->element, "a");
  a->pos[2] = 1;
  mjsGeom* g = mjs_addGeom(a, NULL);
  g->size[0] = 0.1;
  g->pos[0] = 0.5;
  mjsBody* b = mjs_addBody(a, NULL);
  mjs_setName(b->element, "b");
  b->pos[1] = 0.3;
  mjs_addJoint(b, NULL);
  mjsGeom* gb = mjs_addGeom(b, NULL);
  gb->size[0] = 0.1;
  mjsBody* c = mjs_addBody(world, NULL);
  mjs_setName(c->element, "c");
  mjs_addFreeJoint(c);
  mjsGeom* gc = mjs_addGeom(c, NULL);
  gc->size[0] = 0.2;
  mjsFrame* f = mjs_bodyToFrame(&a);
  printf("bodyToFrame %d body now %d pos %g %g %g found a %d\n", f != NULL, a != NULL,
         f ? f->pos[0] : 0, f ? f->pos[1] : 0, f ? f->pos[2] : 0, mjs_findBody(s, "a") != NULL);
  mjModel* m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error: %s\n", mjs_getError(s));
    return;
  }
  for (int i = 0; i < m->nbody; i++) {
    printf("body %d %s parent %d pos %g %g %g\n", i, mj_id2name(m, mjOBJ_BODY, i),
           m->body_parentid[i], m->body_pos[3 * i], m->body_pos[3 * i + 1],
           m->body_pos[3 * i + 2]);
  }
  for (int i = 0; i < m->ngeom; i++) {
    printf("geom %d body %d pos %g %g %g\n", i, m->geom_bodyid[i], m->geom_pos[3 * i],
           m->geom_pos[3 * i + 1], m->geom_pos[3 * i + 2]);
  }
  mj_deleteModel(m);
  mj_deleteSpec(s);
}

int main(void) {
  body_to_frame();
  mjSpec* arm = make_arm();
  mjSpec* s = mj_makeSpec();
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* base = mjs_addBody(world, NULL);
  mjs_setName(base->element, "base");
  base->pos[2] = 1;
  mjsGeom* bg = mjs_addGeom(base, NULL);
  bg->type = mjGEOM_BOX;
  bg->size[0] = bg->size[1] = bg->size[2] = 0.1;
  mjsFrame* left = mjs_addFrame(base, NULL);
  left->pos[1] = 0.2;
  mjsSite* right = mjs_addSite(base, NULL);
  right->pos[1] = -0.2;
  right->alt.type = mjORIENTATION_AXISANGLE;
  right->alt.axisangle[2] = 1;
  right->alt.axisangle[3] = 180;

  // one child spec per attachment (MuJoCo attaches a spec by reference: a spec attached
  // once cannot be attached again nor compiled on its own)
  mjSpec* arm2 = make_arm();
  mjsElement* a1 = mjs_attach(left->element, mjs_findBody(arm, "upper")->element, "left_", "");
  mjsElement* a2 =
      mjs_attach(right->element, mjs_findBody(arm2, "upper")->element, "right_", "_r");
  printf("attached %d %d types %d %d names %s %s\n", a1 != NULL, a2 != NULL,
         a1 ? (int)a1->elemtype : -1, a2 ? (int)a2->elemtype : -1,
         a1 ? mjs_getString(mjs_getName(a1)) : "-", a2 ? mjs_getString(mjs_getName(a2)) : "-");

  mjModel* m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error: %s\n", mjs_getError(s));
    return 1;
  }
  printf("nbody %d njnt %d ngeom %d nsite %d nu %d nsensor %d ntendon %d nmesh %d nmat %d\n",
         (int)m->nbody, (int)m->njnt, (int)m->ngeom, (int)m->nsite, (int)m->nu, (int)m->nsensor,
         (int)m->ntendon, (int)m->nmesh, (int)m->nmat);
  mjtObj types[] = {mjOBJ_BODY,     mjOBJ_JOINT,  mjOBJ_GEOM, mjOBJ_SITE,    mjOBJ_ACTUATOR,
                    mjOBJ_SENSOR,   mjOBJ_TENDON, mjOBJ_MESH, mjOBJ_MATERIAL};
  int counts[] = {(int)m->nbody,    (int)m->njnt,   (int)m->ngeom,
                  (int)m->nsite,    (int)m->nu,     (int)m->nsensor,
                  (int)m->ntendon,  (int)m->nmesh,  (int)m->nmat};
  for (int t = 0; t < 9; t++) {
    printf("names %d:", (int)types[t]);
    for (int i = 0; i < counts[t]; i++) {
      const char* n = mj_id2name(m, types[t], i);
      printf(" %s", n ? n : "(none)");
    }
    printf("\n");
  }
  pv("body_pos", m->body_pos, 3 * (int)m->nbody);
  pv("body_quat", m->body_quat, 4 * (int)m->nbody);
  pv("geom_matid", (mjtNum[]){m->geom_matid[0], m->geom_matid[1], m->geom_matid[2]}, 3);
  mjData* d = mj_makeData(m);
  for (int i = 0; i < 300; i++) {
    for (int u = 0; u < m->nu; u++) d->ctrl[u] = 0.2 * (u + 1);
    mj_step(m, d);
  }
  pv("qpos", d->qpos, (int)m->nq);
  pv("sensordata", d->sensordata, (int)m->nsensordata);
  mj_deleteData(d);
  mj_deleteModel(m);
  mj_deleteSpec(s);
  mj_deleteSpec(arm);
  mj_deleteSpec(arm2);
  return 0;
}
