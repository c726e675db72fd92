/* spec_build.c — models built in C with the model-editing API (mj_makeSpec, mjs_add*),
 * compiled with mj_compile and simulated: a pendulum chain, a free box falling on a plane
 * with a motor-driven arm and sensors, and tendons (fixed, spatial with a wrapping geom)
 * with an equality constraint. Prints sizes, ids, names, then the state, contacts and
 * sensor values along the way. Written against MuJoCo's C API only; MJ_INCLUDE names the
 * header. Usage: spec_build pendulum|falling|tendon NSTEP */
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

/* a capsule link hanging along -z with a hinge about y at its top */
static mjsBody* link(mjsBody* parent, const char* name, double z, double len) {
  mjsBody* b = mjs_addBody(parent, NULL);
  mjs_setName(b->element, name);
  b->pos[2] = z;
  mjsJoint* j = mjs_addJoint(b, NULL);
  char jname[64];
  snprintf(jname, sizeof(jname), "%s_hinge", name);
  mjs_setName(j->element, jname);
  j->axis[0] = 0;
  j->axis[1] = 1;
  j->axis[2] = 0;
  j->damping[0] = 0.05;
  mjsGeom* g = mjs_addGeom(b, NULL);
  g->type = mjGEOM_CAPSULE;
  g->size[0] = 0.04;
  double fromto[6] = {0, 0, 0, 0, 0, -len};
  memcpy(g->fromto, fromto, sizeof(fromto));
  return b;
}

static mjSpec* pendulum(void) {
  mjSpec* s = mj_makeSpec();
  mjs_setString(s->modelname, "chain");
  s->option.timestep = 0.005;
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* a = link(world, "l1", 1.5, 0.4);
  a->alt.type = mjORIENTATION_EULER;
  a->alt.euler[1] = 30; // degrees (the compiler's default unit)
  mjsBody* b = link(a, "l2", -0.4, 0.4);
  mjsBody* c = link(b, "l3", -0.4, 0.3);
  mjsFrame* f = mjs_addFrame(c, NULL);
  f->pos[2] = -0.3;
  f->alt.type = mjORIENTATION_AXISANGLE;
  f->alt.axisangle[0] = 1;
  f->alt.axisangle[3] = 90;
  mjsSite* tip = mjs_addSite(c, NULL);
  mjs_setName(tip->element, "tip");
  tip->pos[1] = 0.1;
  mjs_setFrame(tip->element, f);
  mjsGeom* ball = mjs_addGeom(c, NULL);
  ball->size[0] = 0.08;
  ball->pos[2] = -0.3;
  ball->mass = 2;
  return s;
}

static mjSpec* falling(void) {
  mjSpec* s = mj_makeSpec();
  mjsBody* world = mjs_findBody(s, "world");
  mjsGeom* floor = mjs_addGeom(world, NULL);
  mjs_setName(floor->element, "floor");
  floor->type = mjGEOM_PLANE;
  floor->size[0] = floor->size[1] = 5;
  floor->size[2] = 0.1;
  mjsLight* light = mjs_addLight(world, NULL);
  light->pos[2] = 3;

  mjsBody* box = mjs_addBody(world, NULL);
  mjs_setName(box->element, "box");
  box->pos[2] = 0.6;
  box->alt.type = mjORIENTATION_AXISANGLE;
  box->alt.axisangle[0] = 1;
  box->alt.axisangle[1] = 1;
  box->alt.axisangle[3] = 20;
  mjsJoint* fj = mjs_addFreeJoint(box);
  mjs_setName(fj->element, "root");
  mjsGeom* g = mjs_addGeom(box, NULL);
  mjs_setName(g->element, "boxgeom");
  g->type = mjGEOM_BOX;
  g->size[0] = 0.2;
  g->size[1] = 0.15;
  g->size[2] = 0.1;
  g->rgba[0] = 0.9f;
  mjsSite* s1 = mjs_addSite(box, NULL);
  mjs_setName(s1->element, "imu");
  s1->pos[2] = 0.1;
  mjsSite* s2 = mjs_addSite(box, NULL);
  mjs_setName(s2->element, "bottom");
  s2->type = mjGEOM_BOX;
  s2->size[0] = 0.21;
  s2->size[1] = 0.16;
  s2->size[2] = 0.02;
  s2->pos[2] = -0.1;

  mjsBody* arm = mjs_addBody(box, NULL);
  mjs_setName(arm->element, "arm");
  arm->pos[0] = 0.2;
  arm->pos[2] = 0.1;
  mjsJoint* hinge = mjs_addJoint(arm, NULL);
  mjs_setName(hinge->element, "shoulder");
  hinge->axis[0] = 0;
  hinge->axis[1] = 1;
  hinge->axis[2] = 0;
  hinge->range[0] = -1;
  hinge->range[1] = 1;
  hinge->armature = 0.01;
  mjsGeom* ag = mjs_addGeom(arm, NULL);
  ag->type = mjGEOM_CAPSULE;
  ag->size[0] = 0.03;
  ag->fromto[0] = 0;
  ag->fromto[1] = ag->fromto[2] = 0;
  ag->fromto[3] = 0.3;
  ag->fromto[4] = 0;
  ag->fromto[5] = 0;
  ag->density = 500;

  mjsActuator* motor = mjs_addActuator(s, NULL);
  mjs_setName(motor->element, "shoulder_motor");
  motor->trntype = mjTRN_JOINT;
  mjs_setString(motor->target, "shoulder");
  mjs_setToMotor(motor);
  motor->gear[0] = 2;
  motor->ctrlrange[0] = -1;
  motor->ctrlrange[1] = 1;
  mjsActuator* servo = mjs_addActuator(s, NULL);
  mjs_setName(servo->element, "shoulder_servo");
  servo->trntype = mjTRN_JOINT;
  mjs_setString(servo->target, "shoulder");
  double kv = 0.5;
  mjs_setToPosition(servo, 3, &kv, NULL, NULL, 0);

  // sensors
  struct {
    const char* name;
    mjtSensor type;
    mjtObj objtype;
    const char* obj;
  } sens[] = {{"q", mjSENS_JOINTPOS, mjOBJ_JOINT, "shoulder"},
              {"qd", mjSENS_JOINTVEL, mjOBJ_JOINT, "shoulder"},
              {"acc", mjSENS_ACCELEROMETER, mjOBJ_SITE, "imu"},
              {"gyro", mjSENS_GYRO, mjOBJ_SITE, "imu"},
              {"touch", mjSENS_TOUCH, mjOBJ_SITE, "bottom"},
              {"pos", mjSENS_FRAMEPOS, mjOBJ_SITE, "imu"},
              {"quat", mjSENS_FRAMEQUAT, mjOBJ_BODY, "box"},
              {"force", mjSENS_ACTUATORFRC, mjOBJ_ACTUATOR, "shoulder_motor"},
              {"com", mjSENS_SUBTREECOM, mjOBJ_BODY, "box"}};
  for (size_t i = 0; i < sizeof(sens) / sizeof(sens[0]); i++) {
    mjsSensor* sn = mjs_addSensor(s);
    mjs_setName(sn->element, sens[i].name);
    sn->type = sens[i].type;
    sn->objtype = sens[i].objtype;
    mjs_setString(sn->objname, sens[i].obj);
    printf("sensor %s dim %d\n", sens[i].name, mjs_sensorDim(sn));
  }
  mjsKey* key = mjs_addKey(s);
  mjs_setName(key->element, "tilted");
  double qpos[8] = {0, 0, 0.8, 1, 0.1, 0, 0, 0.3};
  mjs_setDouble(key->qpos, qpos, 8);
  return s;
}

static mjSpec* tendon(void) {
  mjSpec* s = mj_makeSpec();
  s->compiler.degree = 0;
  mjsBody* world = mjs_findBody(s, "world");
  mjsSite* anchor = mjs_addSite(world, NULL);
  mjs_setName(anchor->element, "anchor");
  anchor->pos[2] = 2;
  mjsGeom* pulley = mjs_addGeom(world, NULL);
  mjs_setName(pulley->element, "wheel");
  pulley->type = mjGEOM_CYLINDER;
  pulley->size[0] = 0.1;
  pulley->size[1] = 0.05;
  pulley->pos[0] = 0.3;
  pulley->pos[2] = 1.6;
  pulley->alt.type = mjORIENTATION_ZAXIS;
  pulley->alt.zaxis[1] = 1;
  pulley->contype = pulley->conaffinity = 0;
  mjsSite* side = mjs_addSite(world, NULL);
  mjs_setName(side->element, "side");
  side->pos[0] = 0.5;
  side->pos[2] = 1.6;

  const char* names[2] = {"s1", "s2"};
  for (int i = 0; i < 2; i++) {
    mjsBody* b = mjs_addBody(world, NULL);
    char bn[16];
    snprintf(bn, sizeof(bn), "b%d", i + 1);
    mjs_setName(b->element, bn);
    b->pos[0] = 0.4 * i;
    b->pos[2] = 1;
    mjsJoint* j = mjs_addJoint(b, NULL);
    mjs_setName(j->element, names[i]);
    j->type = mjJNT_SLIDE;
    j->axis[0] = 0;
    j->axis[2] = 1;
    j->stiffness[0] = 10 * (i + 1);
    mjsGeom* g = mjs_addGeom(b, NULL);
    g->size[0] = 0.05;
    mjsSite* st = mjs_addSite(b, NULL);
    char sn[16];
    snprintf(sn, sizeof(sn), "hook%d", i + 1);
    mjs_setName(st->element, sn);
  }
  mjsTendon* fixed = mjs_addTendon(s, NULL);
  mjs_setName(fixed->element, "sum");
  mjs_wrapJoint(fixed, "s1", 1);
  mjs_wrapJoint(fixed, "s2", -0.5);
  fixed->limited = mjLIMITED_TRUE;
  fixed->range[0] = -0.2;
  fixed->range[1] = 0.2;

  mjsTendon* rope = mjs_addTendon(s, NULL);
  mjs_setName(rope->element, "rope");
  mjs_wrapSite(rope, "anchor");
  mjs_wrapSite(rope, "hook1");
  mjs_wrapSite(rope, "hook2");
  mjs_wrapGeom(rope, "wheel", "side");
  mjs_wrapSite(rope, "anchor");
  rope->stiffness[0] = 50;
  rope->springlength[0] = 0;
  rope->springlength[1] = 2.5;
  rope->damping[0] = 1;
  printf("rope wraps %d\n", mjs_getWrapNum(rope));
  for (int i = 0; i < mjs_getWrapNum(rope); i++) {
    mjsWrap* w = mjs_getWrap(rope, i);
    mjsElement* target = mjs_getWrapTarget(w);
    mjsSite* ss = mjs_getWrapSideSite(w);
    printf(" wrap %d type %d target %s side %s\n", i, (int)w->type,
           target ? mjs_getString(mjs_getName(target)) : "-",
           ss ? mjs_getString(mjs_getName(ss->element)) : "-");
  }

  mjsEquality* eq = mjs_addEquality(s, NULL);
  eq->type = mjEQ_JOINT;
  eq->objtype = mjOBJ_JOINT;
  mjs_setString(eq->name1, "s1");
  mjs_setString(eq->name2, "s2");
  eq->data[0] = 0.1;
  eq->data[1] = 0.5;
  eq->active = 0;

  mjsActuator* pull = mjs_addActuator(s, NULL);
  pull->trntype = mjTRN_TENDON;
  mjs_setString(pull->target, "rope");
  mjs_setToCylinder(pull, 0.2, 0, 1, -1);
  pull->ctrlrange[0] = 0;
  pull->ctrlrange[1] = 5;
  return s;
}

/* element ids and names as the spec reports them */
static void print_tree(mjSpec* s) {
  mjsBody* world = mjs_findBody(s, "world");
  for (mjsElement* e = mjs_firstChild(world, mjOBJ_BODY, 1); e;
       e = mjs_nextChild(world, e, 1)) {
    mjsBody* parent = mjs_getParent(e);
    printf("body %s id %d parent %s\n", mjs_getString(mjs_getName(e)), mjs_getId(e),
           parent ? mjs_getString(mjs_getName(parent->element)) : "-");
  }
  mjtObj types[] = {mjOBJ_JOINT, mjOBJ_GEOM, mjOBJ_SITE, mjOBJ_ACTUATOR, mjOBJ_SENSOR,
                    mjOBJ_TENDON};
  for (int t = 0; t < 6; t++) {
    for (mjsElement* e = mjs_firstElement(s, types[t]); e; e = mjs_nextElement(s, e)) {
      printf("element type %d name '%s' id %d\n", (int)types[t], mjs_getString(mjs_getName(e)),
             mjs_getId(e));
    }
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s pendulum|falling|tendon NSTEP\n", argv[0]);
    return 2;
  }
  mjSpec* s = !strcmp(argv[1], "pendulum") ? pendulum()
              : !strcmp(argv[1], "falling") ? falling()
                                            : tendon();
  mjModel* m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error: %s\n", mjs_getError(s));
    return 1;
  }
  print_tree(s);
  printf("nq %d nv %d nu %d nbody %d ngeom %d nsite %d ntendon %d nsensor %d neq %d nkey %d\n",
         (int)m->nq, (int)m->nv, (int)m->nu, (int)m->nbody, (int)m->ngeom, (int)m->nsite,
         (int)m->ntendon, (int)m->nsensor, (int)m->neq, (int)m->nkey);
  pv("body_mass", m->body_mass, (int)m->nbody);
  pv("body_pos", m->body_pos, 3 * (int)m->nbody);
  pv("body_quat", m->body_quat, 4 * (int)m->nbody);
  pv("body_inertia", m->body_inertia, 3 * (int)m->nbody);
  pv("geom_size", m->geom_size, 3 * (int)m->ngeom);
  pv("geom_pos", m->geom_pos, 3 * (int)m->ngeom);
  pv("site_pos", m->site_pos, 3 * (int)m->nsite);
  pv("site_quat", m->site_quat, 4 * (int)m->nsite);
  pv("qpos0", m->qpos0, (int)m->nq);
  pv("actuator_gainprm", m->actuator_gainprm, mjNGAIN * (int)m->nu);
  pv("actuator_biasprm", m->actuator_biasprm, mjNBIAS * (int)m->nu);
  for (int i = 0; i < m->nbody; i++) printf("name body %d %s\n", i, mj_id2name(m, mjOBJ_BODY, i));

  mjData* d = mj_makeData(m);
  if (m->nkey) mj_resetDataKeyframe(m, d, 0);
  int nstep = atoi(argv[2]);
  for (int i = 0; i <= nstep; i++) {
    for (int u = 0; u < m->nu; u++) d->ctrl[u] = 0.5 * (u + 1);
    if (i % 50 == 0) {
      mj_forward(m, d);
      printf("step %d time %.6f\n", i, d->time);
      pv(" qpos", d->qpos, (int)m->nq);
      pv(" qvel", d->qvel, (int)m->nv);
      pv(" sensordata", d->sensordata, (int)m->nsensordata);
      pv(" ten_length", d->ten_length, (int)m->ntendon);
      printf(" ncon %d\n", d->ncon);
      for (int c = 0; c < d->ncon; c++) {
        printf(" contact %d geoms %d %d dist %.9g\n", c, d->contact[c].geom[0],
               d->contact[c].geom[1], d->contact[c].dist);
      }
    }
    mj_step(m, d);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  mj_deleteSpec(s);
  return 0;
}
