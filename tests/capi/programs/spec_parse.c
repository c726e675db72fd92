/* spec_parse.c — the edit workflow: parse an MJCF file into a spec (mj_parseXML), check that
 * compiling it unchanged (mj_compile) gives the model mj_loadXML gives, then add a body with
 * a hinge, a capsule and a site, a motor on the new hinge and a sensor, compile and step
 * under fixed controls, printing the state. Written against MuJoCo's C API only; MJ_INCLUDE
 * names the header. Usage: spec_parse MODEL.xml NSTEP */
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

/* largest difference between two arrays (n values) */
static double maxdiff(const mjtNum* a, const mjtNum* b, int n) {
  double d = 0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
  return d;
}

/* the loaded and the parsed-then-compiled model agree */
static void compare(const mjModel* a, const mjModel* b) {
  printf("sizes %d %d %d %d %d %d %d %d %d %d | %d %d %d %d %d %d %d %d %d %d\n", (int)a->nq,
         (int)a->nv, (int)a->nu, (int)a->nbody, (int)a->njnt, (int)a->ngeom, (int)a->nsite,
         (int)a->nsensor, (int)a->ntendon, (int)a->neq, (int)b->nq, (int)b->nv, (int)b->nu,
         (int)b->nbody, (int)b->njnt, (int)b->ngeom, (int)b->nsite, (int)b->nsensor,
         (int)b->ntendon, (int)b->neq);
  if (a->nq != b->nq || a->nbody != b->nbody || a->ngeom != b->ngeom || a->nu != b->nu ||
      a->njnt != b->njnt || a->nsite != b->nsite) {
    printf("sizes differ\n");
    return;
  }
#define CMP(field, n) printf("diff %s %.3g\n", #field, maxdiff(a->field, b->field, (int)(n)))
  CMP(qpos0, a->nq);
  CMP(body_pos, 3 * a->nbody);
  CMP(body_quat, 4 * a->nbody);
  CMP(body_mass, a->nbody);
  CMP(body_inertia, 3 * a->nbody);
  CMP(body_ipos, 3 * a->nbody);
  CMP(body_iquat, 4 * a->nbody);
  CMP(jnt_pos, 3 * a->njnt);
  CMP(jnt_axis, 3 * a->njnt);
  CMP(jnt_range, 2 * a->njnt);
  CMP(jnt_stiffness, a->njnt);
  CMP(dof_damping, a->nv);
  CMP(dof_armature, a->nv);
  CMP(dof_frictionloss, a->nv);
  CMP(geom_size, 3 * a->ngeom);
  CMP(geom_pos, 3 * a->ngeom);
  CMP(geom_quat, 4 * a->ngeom);
  CMP(geom_friction, 3 * a->ngeom);
  CMP(site_pos, 3 * a->nsite);
  CMP(actuator_gear, 6 * a->nu);
  CMP(actuator_gainprm, mjNGAIN * a->nu);
  CMP(actuator_biasprm, mjNBIAS * a->nu);
  CMP(actuator_ctrlrange, 2 * a->nu);
  CMP(tendon_range, 2 * a->ntendon);
  CMP(tendon_stiffness, a->ntendon);
  CMP(eq_data, mjNEQDATA * a->neq);
  CMP(key_qpos, a->nkey * a->nq);
  CMP(pair_friction, 5 * a->npair);
#undef CMP
  double hf = 0;
  for (int i = 0; i < a->nhfielddata; i++)
    hf = fmax(hf, fabs(a->hfield_data[i] - b->hfield_data[i]));
  printf("diff hfield_data %.3g\n", hf);
  int same_names = 1;
  for (int i = 0; i < a->nbody; i++) {
    const char* na = mj_id2name(a, mjOBJ_BODY, i);
    const char* nb = mj_id2name(b, mjOBJ_BODY, i);
    if ((na == NULL) != (nb == NULL) || (na && strcmp(na, nb)))
      same_names = 0;
  }
  printf("same body names %d\n", same_names);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL.xml NSTEP\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* loaded = mj_loadXML(argv[1], NULL, error, sizeof(error));
  mjSpec* s = mj_parseXML(argv[1], NULL, error, sizeof(error));
  if (!loaded || !s) {
    printf("load error: %s\n", error);
    return 1;
  }
  // the generic parser: by file name or MJCF content type; other types fail
  mjSpec* by_name = mj_parse(argv[1], NULL, NULL, error, sizeof(error));
  mjSpec* by_type = mj_parse(argv[1], "text/xml", NULL, error, sizeof(error));
  mjSpec* other = mj_parse(argv[1], "model/x-unknown", NULL, error, sizeof(error));
  printf("mj_parse %d %d %d\n", by_name != NULL, by_type != NULL, other != NULL);
  mj_deleteSpec(by_name);
  mj_deleteSpec(by_type);
  mj_deleteSpec(other);

  mjModel* m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error: %s\n", mjs_getError(s));
    return 1;
  }
  compare(loaded, m);
  mj_deleteModel(m);

  // the edit: a swinging capsule on the first body below the world
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* first = mjs_asBody(mjs_firstChild(world, mjOBJ_BODY, 0));
  printf("first body %s\n", mjs_getString(mjs_getName(first->element)));
  mjsBody* extra = mjs_addBody(first, NULL);
  mjs_setName(extra->element, "extra");
  extra->pos[0] = 0.1;
  extra->pos[2] = 0.05;
  mjsJoint* hinge = mjs_addJoint(extra, NULL);
  mjs_setName(hinge->element, "extra_hinge");
  hinge->axis[0] = 1;
  hinge->axis[2] = 0;
  hinge->damping[0] = 0.1;
  hinge->range[0] = -1;  // needed when the file's main class says limited="true"
  hinge->range[1] = 1;
  mjsGeom* cap = mjs_addGeom(extra, NULL);
  cap->type = mjGEOM_CAPSULE;
  cap->size[0] = 0.02;
  double fromto[6] = {0, 0, 0, 0, 0.2, 0};
  memcpy(cap->fromto, fromto, sizeof(fromto));
  cap->contype = 0;
  cap->conaffinity = 0;
  mjsSite* tip = mjs_addSite(extra, NULL);
  mjs_setName(tip->element, "extra_tip");
  tip->pos[1] = 0.2;
  mjsActuator* motor = mjs_addActuator(s, NULL);
  mjs_setName(motor->element, "extra_motor");
  mjs_setToMotor(motor);
  motor->trntype = mjTRN_JOINT;
  mjs_setString(motor->target, "extra_hinge");
  motor->ctrllimited = mjLIMITED_TRUE;
  motor->ctrlrange[0] = -1;
  motor->ctrlrange[1] = 1;
  mjsSensor* sn = mjs_addSensor(s);
  sn->type = mjSENS_FRAMEPOS;
  sn->objtype = mjOBJ_SITE;
  mjs_setString(sn->objname, "extra_tip");
  m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error after edit: %s\n", mjs_getError(s));
    return 1;
  }
  printf("edited nq %d nu %d nbody %d nsensordata %d id extra %d motor %d\n", (int)m->nq,
         (int)m->nu, (int)m->nbody, (int)m->nsensordata, mjs_getId(extra->element),
         mjs_getId(motor->element));
  mjData* d = mj_makeData(m);
  int nstep = atoi(argv[2]);
  for (int i = 0; i <= nstep; i++) {
    for (int u = 0; u < m->nu; u++) d->ctrl[u] = 0.3 * ((u % 3) - 1) + 0.4;
    if (i % 50 == 0) {
      mj_forward(m, d);
      printf("step %d ncon %d\n", i, d->ncon);
      pv(" qpos", d->qpos, (int)m->nq);
      pv(" qvel", d->qvel, (int)m->nv);
      pv(" sensordata", d->sensordata, (int)m->nsensordata);
    }
    mj_step(m, d);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  mj_deleteModel(loaded);
  mj_deleteSpec(s);
  return 0;
}
