/* spec_access.c — accessors of the model-editing API and the elements outside the tree:
 * string vectors, double arrays, byte buffers, user payloads, mjs_resolveOrientation,
 * mjs_getSpec / mjs_getCompiler / frames / wraps, ids before and after compiling, and
 * numerics, texts, tuples, keyframes, materials, height fields, contact pairs and
 * excludes compiled into a model and simulated. Written against MuJoCo's C API only;
 * MJ_INCLUDE names the header. No arguments. */
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

static void pv(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

static int cleaned = 0;
static void cleanup(const void* data) {
  cleaned += *(const int*)data;
}

int main(void) {
  mjSpec* s = mj_makeSpec();
  mjsBody* world = mjs_findBody(s, "world");
  printf("modelname '%s' spec back %d compiler %d\n", mjs_getString(s->modelname),
         mjs_getSpec(world->element) == s, mjs_getCompiler(world->element) == &s->compiler);
  // the spec element's name is not the model name
  mjs_setName(s->element, "edited");
  printf("spec name '%s' modelname '%s' findSpec %d\n", mjs_getString(mjs_getName(s->element)),
         mjs_getString(s->modelname), mjs_findSpec(s, "edited") != NULL);

  // orientations
  mjsOrientation o;
  mjs_defaultOrientation(&o);
  double q[4] = {9, 9, 9, 9};
  const char* err = mjs_resolveOrientation(q, 1, "xyz", &o);
  printf("quat: %s %g %g %g %g\n", err ? err : "ok", q[0], q[1], q[2], q[3]);
  o.type = mjORIENTATION_EULER;
  o.euler[0] = 30;
  o.euler[2] = 45;
  err = mjs_resolveOrientation(q, 1, "xyz", &o);
  printf("euler deg: %s %.12g %.12g %.12g %.12g\n", err ? err : "ok", q[0], q[1], q[2], q[3]);
  err = mjs_resolveOrientation(q, 0, "XYZ", &o);
  printf("euler rad: %s %.12g %.12g %.12g %.12g\n", err ? err : "ok", q[0], q[1], q[2], q[3]);
  o.type = mjORIENTATION_AXISANGLE;
  o.axisangle[1] = 1;
  o.axisangle[3] = 1.2;
  err = mjs_resolveOrientation(q, 0, "xyz", &o);
  printf("axisangle: %s %.12g %.12g %.12g %.12g\n", err ? err : "ok", q[0], q[1], q[2], q[3]);
  o.type = mjORIENTATION_ZAXIS;
  o.zaxis[0] = 1;
  o.zaxis[2] = 1;
  err = mjs_resolveOrientation(q, 0, "xyz", &o);
  printf("zaxis: %s %.12g %.12g %.12g %.12g\n", err ? err : "ok", q[0], q[1], q[2], q[3]);
  o.type = mjORIENTATION_XYAXES;
  err = mjs_resolveOrientation(q, 1, "xyz", &o);
  printf("xyaxes zero: %s\n", err ? "error" : "ok");

  // the tree: a box on a plane, a ball that must not collide with it (exclude), a pair
  mjsGeom* floor = mjs_addGeom(world, NULL);
  mjs_setName(floor->element, "floor");
  floor->type = mjGEOM_PLANE;
  floor->size[0] = floor->size[1] = 3;
  floor->size[2] = 0.1;
  mjs_setString(floor->material, "grid");
  mjsBody* box = mjs_addBody(world, NULL);
  mjs_setName(box->element, "box");
  box->pos[2] = 0.3;
  mjs_addFreeJoint(box);
  mjsGeom* bg = mjs_addGeom(box, NULL);
  mjs_setName(bg->element, "boxgeom");
  bg->type = mjGEOM_BOX;
  bg->size[0] = bg->size[1] = bg->size[2] = 0.1;
  double user[3] = {1.5, 2.5, 3.5};
  mjs_setDouble(bg->userdata, user, 3);
  int nuser;
  const double* got = mjs_getDouble(bg->userdata, &nuser);
  printf("userdata %d %g %g %g\n", nuser, got[0], got[1], got[2]);
  mjsFrame* f = mjs_addFrame(box, NULL);
  mjs_setName(f->element, "topframe");
  f->pos[2] = 0.1;
  mjsSite* top = mjs_addSite(box, NULL);
  mjs_setName(top->element, "top");
  mjs_setFrame(top->element, f);
  printf("frame found %d site frame %d box frame %d\n", mjs_findFrame(s, "topframe") == f,
         mjs_getFrame(top->element) == f, mjs_getFrame(box->element) == NULL);
  mjsBody* ball = mjs_addBody(world, NULL);
  mjs_setName(ball->element, "ball");
  ball->pos[0] = 0.05;
  ball->pos[2] = 0.6;
  mjs_addFreeJoint(ball);
  mjsGeom* sg = mjs_addGeom(ball, NULL);
  mjs_setName(sg->element, "ballgeom");
  sg->size[0] = 0.08;
  mjsExclude* ex = mjs_addExclude(s);
  mjs_setString(ex->bodyname1, "box");
  mjs_setString(ex->bodyname2, "ball");
  mjsPair* pair = mjs_addPair(s, NULL);
  mjs_setString(pair->geomname1, "floor");
  mjs_setString(pair->geomname2, "ballgeom");
  pair->friction[0] = 0.5;
  pair->condim = 4;

  // assets
  mjsMaterial* grid = mjs_addMaterial(s, NULL);
  mjs_setName(grid->element, "grid");
  grid->rgba[1] = 0.2f;
  mjs_setStringVec(grid->textures, "  first second ");
  mjs_appendString(grid->textures, "third");
  mjs_setInStringVec(grid->textures, 1, "");
  mjs_setInStringVec(grid->textures, 0, "");
  mjs_setInStringVec(grid->textures, 2, "");
  mjsHField* hf = mjs_addHField(s);
  mjs_setName(hf->element, "terrain");
  hf->nrow = 3;
  hf->ncol = 4;
  hf->size[0] = 1;
  hf->size[1] = 1;
  hf->size[2] = 0.2;
  hf->size[3] = 0.1;
  float elev[12] = {0, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 1, 0.5f};
  mjs_setFloat(hf->userdata, elev, 12);
  mjsGeom* hg = mjs_addGeom(world, NULL);
  hg->type = mjGEOM_HFIELD;
  mjs_setString(hg->hfieldname, "terrain");
  hg->pos[0] = 4;

  // custom data and a keyframe
  mjsNumeric* num = mjs_addNumeric(s);
  mjs_setName(num->element, "gains");
  double gains[2] = {0.5, 0.25};
  mjs_setDouble(num->data, gains, 2);
  num->size = 4;
  mjsText* txt = mjs_addText(s);
  mjs_setName(txt->element, "note");
  mjs_setString(txt->data, "hello spec");
  mjsTuple* tup = mjs_addTuple(s);
  mjs_setName(tup->element, "things");
  int types[2] = {mjOBJ_BODY, mjOBJ_GEOM};
  mjs_setInt(tup->objtype, types, 2);
  mjs_setStringVec(tup->objname, "box floor");
  double prm[2] = {1, 2};
  mjs_setDouble(tup->objprm, prm, 2);
  mjsKey* key = mjs_addKey(s);
  mjs_setName(key->element, "start");
  key->time = 0.5;
  double qpos[14] = {0, 0, 0.3, 1, 0, 0, 0, 0.05, 0, 0.4, 1, 0, 0, 0};
  mjs_setDouble(key->qpos, qpos, 14);

  // user payloads
  static int payload = 7, other = 5;
  mjs_setUserValue(box->element, "tag", &payload);
  mjs_setUserValueWithCleanup(ball->element, "owned", &other, cleanup);
  printf("user value %d missing %d\n", *(const int*)mjs_getUserValue(box->element, "tag"),
         mjs_getUserValue(box->element, "none") == NULL);
  mjs_deleteUserValue(box->element, "tag");
  printf("user value deleted %d\n", mjs_getUserValue(box->element, "tag") == NULL);

  printf("ids before compile %d %d\n", mjs_getId(box->element), mjs_getId(bg->element));
  mjModel* m = mj_compile(s, NULL);
  if (!m) {
    printf("compile error: %s\n", mjs_getError(s));
    return 1;
  }
  printf("ids after compile box %d boxgeom %d ball %d ballgeom %d top %d key %d\n",
         mjs_getId(box->element), mjs_getId(bg->element), mjs_getId(ball->element),
         mjs_getId(sg->element), mjs_getId(top->element), mjs_getId(key->element));
  printf("ngeom %d npair %d nexclude %d nmat %d nhfield %d nnumeric %d ntext %d ntuple %d\n",
         (int)m->ngeom, (int)m->npair, (int)m->nexclude, (int)m->nmat, (int)m->nhfield,
         (int)m->nnumeric, (int)m->ntext, (int)m->ntuple);
  pv("numeric_data", m->numeric_data, (int)m->nnumericdata);
  printf("text '%s'\n", m->text_data + m->text_adr[0]);
  printf("tuple %d %d %d %d %.12g %.12g\n", m->tuple_objtype[0], m->tuple_objid[0],
         m->tuple_objtype[1], m->tuple_objid[1], m->tuple_objprm[0], m->tuple_objprm[1]);
  printf("mat_rgba %g %g %g %g geom_matid %d\n", m->mat_rgba[0], m->mat_rgba[1], m->mat_rgba[2],
         m->mat_rgba[3], m->geom_matid[0]);
  pv("hfield_size", m->hfield_size, 4);
  printf("hfield_data");
  for (int i = 0; i < 12; i++) printf(" %.6g", m->hfield_data[i]);
  printf("\n");
  pv("key_qpos", m->key_qpos, (int)m->nq);
  pv("geom_user", m->geom_user, (int)(m->nuser_geom * m->ngeom));
  pv("pair_friction", m->pair_friction, 5);
  printf("pair_dim %d\n", m->pair_dim[0]);
  pv("site_pos", m->site_pos, 3);

  mjData* d = mj_makeData(m);
  mj_resetDataKeyframe(m, d, 0);
  for (int i = 0; i < 400; i++) mj_step(m, d);
  mj_forward(m, d);
  printf("time %.6f ncon %d\n", d->time, d->ncon);
  pv("qpos", d->qpos, (int)m->nq);
  for (int c = 0; c < d->ncon; c++) {
    printf("contact geoms %d %d dim %d dist %.9g\n", d->contact[c].geom[0], d->contact[c].geom[1],
           d->contact[c].dim, d->contact[c].dist);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  mj_deleteSpec(s);
  printf("cleanup called %d\n", cleaned);
  return 0;
}
