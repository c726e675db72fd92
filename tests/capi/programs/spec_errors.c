/* spec_errors.c — invalid specs: mj_compile must fail (returning NULL with a message in
 * mjs_getError) for unknown names and invalid values, and succeed once the spec is fixed;
 * lookups of unknown names return NULL; deleted elements leave the model. Prints whether
 * each compile failed and whether a message was set (the message text itself, which
 * differs between MuJoCo and Torsion, goes to stderr). Written against MuJoCo's C API only;
 * MJ_INCLUDE names the header. No arguments. */
#include <stdio.h>
#include MJ_INCLUDE

/* compile, report, free */
static void try_compile(const char* what, mjSpec* s) {
  mjModel* m = mj_compile(s, NULL);
  const char* err = mjs_getError(s);
  if (m) {
    printf("%s: ok nbody %d njnt %d ngeom %d nu %d nsensor %d\n", what, (int)m->nbody,
           (int)m->njnt, (int)m->ngeom, (int)m->nu, (int)m->nsensor);
    mj_deleteModel(m);
  } else {
    printf("%s: failed, message %s\n", what, err && err[0] ? "set" : "missing");
    fprintf(stderr, "%s: %s\n", what, err);
  }
}

/* a body with a hinge and a sphere */
static mjsBody* simple_body(mjsBody* parent, const char* name, const char* joint) {
  mjsBody* b = mjs_addBody(parent, NULL);
  mjs_setName(b->element, name);
  mjsJoint* j = mjs_addJoint(b, NULL);
  mjs_setName(j->element, joint);
  mjsGeom* g = mjs_addGeom(b, NULL);
  g->size[0] = 0.1;
  return b;
}

int main(void) {
  mjSpec* s = mj_makeSpec();
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* b = simple_body(world, "b", "j");
  try_compile("valid", s);

  // an actuator on a joint that does not exist
  mjsActuator* a = mjs_addActuator(s, NULL);
  a->trntype = mjTRN_JOINT;
  mjs_setString(a->target, "nosuchjoint");
  try_compile("unknown actuator target", s);
  mjs_setString(a->target, "j");
  try_compile("fixed actuator target", s);

  // a sensor on a site that does not exist
  mjsSensor* sn = mjs_addSensor(s);
  sn->type = mjSENS_FRAMEPOS;
  sn->objtype = mjOBJ_SITE;
  mjs_setString(sn->objname, "nosuchsite");
  try_compile("unknown sensor object", s);
  mjs_delete(s, sn->element);
  try_compile("sensor deleted", s);

  // a limited joint with an empty range
  mjsJoint* j = mjs_asJoint(mjs_findElement(s, mjOBJ_JOINT, "j"));
  printf("found joint %d\n", j != NULL);
  j->limited = mjLIMITED_TRUE;
  j->range[0] = 1;
  j->range[1] = -1;
  try_compile("inverted joint range", s);
  j->range[0] = -1;
  j->range[1] = 1;
  try_compile("fixed joint range", s);

  // a geom naming a mesh that does not exist
  mjsGeom* g = mjs_addGeom(b, NULL);
  g->type = mjGEOM_MESH;
  mjs_setString(g->meshname, "nosuchmesh");
  try_compile("unknown mesh", s);
  mjs_delete(s, g->element);

  // a second body (MuJoCo's mj_compile accepts repeated body names, Torsion's rejects
  // them as its MJCF loader does: not compared here)
  mjsBody* twin = simple_body(world, "b2", "j2");
  try_compile("second body", s);

  // deleting a body deletes its subtree
  simple_body(twin, "b3", "j3");
  try_compile("grandchild added", s);
  mjs_delete(s, twin->element);
  try_compile("subtree deleted", s);

  // lookups of unknown names
  printf("find body %d element %d child %d default %d\n", mjs_findBody(s, "b2") != NULL,
         mjs_findElement(s, mjOBJ_GEOM, "nothing") != NULL, mjs_findChild(world, "b3") != NULL,
         mjs_findDefault(s, "nothing") != NULL);
  printf("casts %d %d\n", mjs_asGeom(b->element) != NULL, mjs_asBody(b->element) != NULL);

  // an empty flex (Torsion: flexes are not supported at all)
  mjsFlex* flex = mjs_addFlex(s);
  try_compile("empty flex", s);
  mjs_delete(s, flex->element);
  try_compile("flex deleted", s);

  // a bad orientation
  b->alt.type = mjORIENTATION_XYAXES;
  try_compile("zero xyaxes", s);
  mj_deleteSpec(s);
  return 0;
}
