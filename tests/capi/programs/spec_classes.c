/* spec_classes.c — default classes in the model-editing API: mjs_addDefault (a class starts
 * from its parent's values), mjs_findDefault, mjs_getSpecDefault, elements added with a
 * class or inside a body added with one, mjs_getDefault / mjs_setDefault, a parsed file's
 * classes used for new elements, and mj_copySpec (an independent deep copy). Prints values
 * and compiled numbers. Written against MuJoCo's C API only; MJ_INCLUDE names the header.
 * No arguments. */
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

static const char* xml =
    "<mujoco model='classes'>"
    "  <default>"
    "    <geom rgba='1 0 0 1' size='0.3'/>"
    "    <default class='arm'>"
    "      <joint damping='2' axis='1 0 0'/>"
    "      <geom type='capsule' size='0.05 0.2' density='300'/>"
    "    </default>"
    "  </default>"
    "  <worldbody>"
    "    <body name='a' pos='0 0 1'>"
    "      <joint class='arm'/>"
    "      <geom class='arm'/>"
    "    </body>"
    "  </worldbody>"
    "</mujoco>";

/* the class of an element, by name */
static const char* class_name(const mjsElement* e) {
  mjsDefault* d = mjs_getDefault(e);
  return d ? mjs_getString(mjs_getName(d->element)) : "-";
}

/* a geom's values (and its class when it is an element, not a class's geom) */
static void show_geom(const char* label, const mjsGeom* g, int element) {
  printf("%s type %d size %.12g %.12g %.12g density %.12g rgba %.3g %.3g %.3g %.3g class %s\n",
         label, (int)g->type, g->size[0], g->size[1], g->size[2], g->density, g->rgba[0],
         g->rgba[1], g->rgba[2], g->rgba[3], element ? class_name(g->element) : "-");
}

/* classes of bodies: added with a class, given a childclass, or inherited from the parent */
static void body_classes(void) {
  mjSpec* s = mj_makeSpec();
  mjsDefault* arm = mjs_addDefault(s, "arm", NULL);
  arm->geom->size[0] = 0.7;
  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* a = mjs_addBody(world, arm);
  mjsGeom* g1 = mjs_addGeom(a, NULL);
  mjsBody* b = mjs_addBody(world, NULL);
  mjs_setString(b->childclass, "arm");
  mjsGeom* g2 = mjs_addGeom(b, NULL);
  mjsBody* c = mjs_addBody(b, NULL);
  mjsGeom* g3 = mjs_addGeom(c, NULL);
  mjsBody* d = mjs_addBody(a, NULL);
  mjsGeom* g4 = mjs_addGeom(d, NULL);
  mjsBody* e = mjs_addBody(world, NULL);
  mjsGeom* g5 = mjs_addGeom(e, NULL);
  printf("body class geoms %g %g %g %g %g\n", g1->size[0], g2->size[0], g3->size[0],
         g4->size[0], g5->size[0]);
  printf("body classes %s %s %s %s %s\n", class_name(a->element), class_name(b->element),
         class_name(c->element), class_name(d->element), class_name(e->element));
  mj_deleteSpec(s);
}

int main(void) {
  body_classes();
  mjSpec* s = mj_makeSpec();
  mjsDefault* main_class = mjs_getSpecDefault(s);
  printf("main class '%s' found %d\n", mjs_getString(mjs_getName(main_class->element)),
         mjs_findDefault(s, "main") == main_class);
  main_class->geom->size[0] = 0.25;
  mjsDefault* big = mjs_addDefault(s, "big", NULL);
  big->geom->size[0] = 0.5;
  big->joint->damping[0] = 3;
  mjsDefault* bigger = mjs_addDefault(s, "bigger", big);
  bigger->geom->type = mjGEOM_BOX;
  bigger->geom->size[1] = 0.4;
  bigger->geom->size[2] = 0.1;
  show_geom("class big", big->geom, 0);
  show_geom("class bigger", bigger->geom, 0);
  printf("find %d %d %d\n", mjs_findDefault(s, "big") == big,
         mjs_findDefault(s, "bigger") == bigger, mjs_findDefault(s, "none") == NULL);

  mjsBody* world = mjs_findBody(s, "world");
  mjsBody* b = mjs_addBody(world, NULL);
  mjs_setName(b->element, "b");
  b->pos[2] = 2;
  mjsGeom* g0 = mjs_addGeom(b, NULL);
  show_geom("geom main", g0, 1);
  mjsGeom* g1 = mjs_addGeom(b, big);
  show_geom("geom big", g1, 1);
  mjsGeom* g2 = mjs_addGeom(b, bigger);
  g2->pos[0] = 1;
  show_geom("geom bigger", g2, 1);
  mjsJoint* j = mjs_addJoint(b, big);
  printf("joint damping %.12g class %s\n", j->damping[0], class_name(j->element));
  mjs_setDefault(g0->element, bigger);
  printf("geom main now class %s size %.12g\n", class_name(g0->element), g0->size[0]);

  // an independent copy
  mjSpec* copy = mj_copySpec(s);
  mjsBody* cb = mjs_findBody(copy, "b");
  cb->pos[2] = 5;
  mjsGeom* cg = mjs_asGeom(mjs_firstChild(cb, mjOBJ_GEOM, 0));
  cg->size[0] = 0.125;
  printf("copy class bigger %d\n", mjs_findDefault(copy, "bigger") != NULL);
  mjModel* m = mj_compile(s, NULL);
  mjModel* mc = mj_compile(copy, NULL);
  if (!m || !mc) {
    printf("compile error: %s %s\n", mjs_getError(s), mjs_getError(copy));
    return 1;
  }
  for (int i = 0; i < m->ngeom; i++) {
    printf("geom %d size %.12g %.12g %.12g | copy %.12g\n", i, m->geom_size[3 * i],
           m->geom_size[3 * i + 1], m->geom_size[3 * i + 2], mc->geom_size[3 * i]);
  }
  printf("body_pos %.12g copy %.12g mass %.12g copy %.12g damping %.12g\n", m->body_pos[5],
         mc->body_pos[5], m->body_mass[1], mc->body_mass[1], m->dof_damping[0]);
  mj_deleteModel(m);
  mj_deleteModel(mc);
  mj_deleteSpec(copy);
  mj_deleteSpec(s);

  // a parsed file's classes for new elements
  char error[1000] = "";
  s = mj_parseXMLString(xml, NULL, error, sizeof(error));
  if (!s) {
    printf("parse error: %s\n", error);
    return 1;
  }
  mjsDefault* arm = mjs_findDefault(s, "arm");
  printf("arm found %d\n", arm != NULL);
  show_geom("parsed class arm", arm->geom, 0);
  show_geom("parsed class main", mjs_getSpecDefault(s)->geom, 0);
  mjsBody* a = mjs_findBody(s, "a");
  mjsBody* c = mjs_addBody(a, NULL);
  mjs_setName(c->element, "c");
  c->pos[2] = -0.4;
  mjsJoint* cj = mjs_addJoint(c, arm);
  mjsGeom* cgeom = mjs_addGeom(c, arm);
  show_geom("new geom arm", cgeom, 1);
  printf("new joint damping %.12g axis %.12g %.12g %.12g\n", cj->damping[0], cj->axis[0],
         cj->axis[1], cj->axis[2]);
  m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error: %s\n", mjs_getError(s));
    return 1;
  }
  for (int i = 0; i < m->nbody; i++) {
    printf("body %d mass %.12g inertia %.12g %.12g %.12g\n", i, m->body_mass[i],
           m->body_inertia[3 * i], m->body_inertia[3 * i + 1], m->body_inertia[3 * i + 2]);
  }
  for (int i = 0; i < m->nv; i++) printf("dof %d damping %.12g\n", i, m->dof_damping[i]);
  mj_deleteModel(m);
  mj_deleteSpec(s);
  return 0;
}
