/* xml/xml_objects.c — attribute readers for the objects that default classes provide:
 * joint, geom, site, camera, light, material, pair, equality, tendon and actuator.
 *
 * Each reader overwrites the fields of an object (already holding its class defaults) with
 * the attributes present on one element. The same reader serves a <default> child and a
 * model element, which is how classes cascade. Actuator shortcuts (motor, position,
 * velocity, intvelocity, damper, cylinder) translate into the general parameters exactly
 * as MuJoCo does, on top of whatever the class already holds. */
#include <math.h>
#include <string.h>

#include "xml/xml_reader.h"

/* keyword tables */
static const tnKeyword joint_types[] = {{"free", mjJNT_FREE},
                                        {"ball", mjJNT_BALL},
                                        {"slide", mjJNT_SLIDE},
                                        {"hinge", mjJNT_HINGE},
                                        {NULL, 0}};
static const tnKeyword geom_types[] = {{"plane", mjGEOM_PLANE},
                                       {"hfield", mjGEOM_HFIELD},
                                       {"sphere", mjGEOM_SPHERE},
                                       {"capsule", mjGEOM_CAPSULE},
                                       {"ellipsoid", mjGEOM_ELLIPSOID},
                                       {"cylinder", mjGEOM_CYLINDER},
                                       {"box", mjGEOM_BOX},
                                       {"mesh", mjGEOM_MESH},
                                       {"sdf", mjGEOM_SDF},
                                       {NULL, 0}};
static const tnKeyword camlight_modes[] = {{"fixed", mjCAMLIGHT_FIXED},
                                           {"track", mjCAMLIGHT_TRACK},
                                           {"trackcom", mjCAMLIGHT_TRACKCOM},
                                           {"targetbody", mjCAMLIGHT_TARGETBODY},
                                           {"targetbodycom", mjCAMLIGHT_TARGETBODYCOM},
                                           {NULL, 0}};
static const tnKeyword fluid_shapes[] = {{"none", 0}, {"ellipsoid", 1}, {NULL, 0}};
static const tnKeyword light_types[] = {
    {"spot", 0}, {"directional", 1}, {"point", 2}, {"image", 3}, {NULL, 0}};
static const tnKeyword projections[] = {{"perspective", 0}, {"orthographic", 1}, {NULL, 0}};
static const tnKeyword dyn_types[] = {{"none", mjDYN_NONE},
                                      {"integrator", mjDYN_INTEGRATOR},
                                      {"filter", mjDYN_FILTER},
                                      {"filterexact", mjDYN_FILTEREXACT},
                                      {"muscle", mjDYN_MUSCLE},
                                      {"dcmotor", -2},
                                      {"pid", -2},
                                      {"user", mjDYN_USER},
                                      {NULL, 0}};
static const tnKeyword gain_types[] = {{"fixed", mjGAIN_FIXED},
                                       {"affine", mjGAIN_AFFINE},
                                       {"muscle", mjGAIN_MUSCLE},
                                       {"dcmotor", -2},
                                       {"pid", -2},
                                       {"user", mjGAIN_USER},
                                       {NULL, 0}};
static const tnKeyword bias_types[] = {{"none", mjBIAS_NONE},
                                       {"affine", mjBIAS_AFFINE},
                                       {"muscle", mjBIAS_MUSCLE},
                                       {"dcmotor", -2},
                                       {"user", mjBIAS_USER},
                                       {NULL, 0}};

/* mark visual-only attributes as consumed */
static void ignore_attrs(tnXmlNode* node, const char* const* names) {
  for (int i = 0; names[i]; i++) {
    tn__rdStr(node, names[i]);
  }
}

/* stiffness/damping: MuJoCo 3.14 accepts polynomial terms after the linear coefficient;
 * those nonlinear terms are not implemented yet */
static int rd_poly(tnReader* r, tnXmlNode* node, const char* attr, mjtNum* v) {
  mjtNum vals[3] = {0, 0, 0};
  int got = tn__rdNums(r, node, attr, vals, 1, 3);
  if (got > 0) {
    if (vals[1] != 0 || vals[2] != 0) {
      return tn__rdFail(r, node, attr, "nonlinear (polynomial) terms are not implemented yet");
    }
    *v = vals[0];
  }
  return got;
}

/* solref (1-2 numbers) and solimp (1-5 numbers) */
static int rd_solref(tnReader* r, tnXmlNode* node, const char* attr, mjtNum* v) {
  return tn__rdNums(r, node, attr, v, 1, mjNREF);
}
static int rd_solimp(tnReader* r, tnXmlNode* node, const char* attr, mjtNum* v) {
  return tn__rdNums(r, node, attr, v, 1, mjNIMP);
}

/* ---------------------------------------------------------------------------------------
 * body elements
 * ------------------------------------------------------------------------------------- */

int tn__readJointAttrs(tnReader* r, tnXmlNode* node, tnSpecJoint* j) {
  TN_TRY(tn__rdKeyword(r, node, "type", joint_types, &j->type));
  TN_TRY(tn__rdInts(r, node, "group", &j->group, 1, 1));
  TN_TRY(tn__rdNums(r, node, "pos", j->pos, 3, 3));
  TN_TRY(tn__rdNums(r, node, "axis", j->axis, 3, 3));
  TN_TRY(tn__rdNums(r, node, "springdamper", j->springdamper, 2, 2));
  TN_TRY(tn__rdTri(r, node, "limited", &j->limited));
  TN_TRY(tn__rdTri(r, node, "actuatorfrclimited", &j->actfrclimited));
  TN_TRY(rd_solref(r, node, "solreflimit", j->solref_limit));
  TN_TRY(rd_solimp(r, node, "solimplimit", j->solimp_limit));
  TN_TRY(rd_solref(r, node, "solreffriction", j->solref_friction));
  TN_TRY(rd_solimp(r, node, "solimpfriction", j->solimp_friction));
  TN_TRY(rd_poly(r, node, "stiffness", &j->stiffness));
  TN_TRY(tn__rdNums(r, node, "range", j->range, 2, 2));
  TN_TRY(tn__rdNums(r, node, "actuatorfrcrange", j->actfrcrange, 2, 2));
  TN_TRY(tn__rdBool(r, node, "actuatorgravcomp", &j->actgravcomp));
  TN_TRY(tn__rdNums(r, node, "margin", &j->margin, 1, 1));
  TN_TRY(tn__rdNums(r, node, "ref", &j->ref, 1, 1));
  TN_TRY(tn__rdNums(r, node, "springref", &j->springref, 1, 1));
  TN_TRY(tn__rdNums(r, node, "armature", &j->armature, 1, 1));
  TN_TRY(rd_poly(r, node, "damping", &j->damping));
  TN_TRY(tn__rdNums(r, node, "frictionloss", &j->frictionloss, 1, 1));
  TN_TRY(tn__rdUser(r, node, &j->user));
  return 1;
}

int tn__readGeomAttrs(tnReader* r, tnXmlNode* node, tnSpecGeom* g) {
  TN_TRY(tn__rdKeyword(r, node, "type", geom_types, &g->type));
  TN_TRY(tn__rdInts(r, node, "contype", &g->contype, 1, 1));
  TN_TRY(tn__rdInts(r, node, "conaffinity", &g->conaffinity, 1, 1));
  TN_TRY(tn__rdInts(r, node, "condim", &g->condim, 1, 1));
  TN_TRY(tn__rdInts(r, node, "group", &g->group, 1, 1));
  TN_TRY(tn__rdInts(r, node, "priority", &g->priority, 1, 1));
  TN_TRY(tn__rdNums(r, node, "size", g->size, 1, 3));
  TN_TRY(tn__rdName(r, node, "material", &g->material));
  TN_TRY(tn__rdNums(r, node, "friction", g->friction, 1, 3));
  TN_TRY(tn__rdNums(r, node, "mass", &g->mass, 1, 1));
  TN_TRY(tn__rdNums(r, node, "density", &g->density, 1, 1));
  TN_TRY(tn__rdBool(r, node, "shellinertia", &g->shellinertia));
  TN_TRY(tn__rdNums(r, node, "solmix", &g->solmix, 1, 1));
  TN_TRY(rd_solref(r, node, "solref", g->solref));
  TN_TRY(rd_solimp(r, node, "solimp", g->solimp));
  TN_TRY(tn__rdNums(r, node, "margin", &g->margin, 1, 1));
  TN_TRY(tn__rdNums(r, node, "gap", &g->gap, 1, 1));
  int got = tn__rdNums(r, node, "fromto", g->fromto, 6, 6);
  TN_TRY(got);
  g->has_fromto |= got > 0;
  TN_TRY(tn__rdNums(r, node, "pos", g->pos, 3, 3));
  TN_TRY(tn__rdOrientation(r, node, &g->orient));
  TN_TRY(tn__rdName(r, node, "hfield", &g->hfield));
  TN_TRY(tn__rdName(r, node, "mesh", &g->mesh));
  TN_TRY(tn__rdNums(r, node, "fitscale", &g->fitscale, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "rgba", g->rgba, 4, 4));
  TN_TRY(tn__rdKeyword(r, node, "fluidshape", fluid_shapes, &g->fluidshape));
  TN_TRY(tn__rdNums(r, node, "fluidcoef", g->fluidcoef, 1, 5));
  TN_TRY(tn__rdUser(r, node, &g->user));
  return 1;
}

int tn__readSiteAttrs(tnReader* r, tnXmlNode* node, tnSpecSite* s) {
  TN_TRY(tn__rdKeyword(r, node, "type", geom_types, &s->type));
  TN_TRY(tn__rdInts(r, node, "group", &s->group, 1, 1));
  TN_TRY(tn__rdNums(r, node, "pos", s->pos, 3, 3));
  TN_TRY(tn__rdOrientation(r, node, &s->orient));
  TN_TRY(tn__rdName(r, node, "material", &s->material));
  TN_TRY(tn__rdNums(r, node, "size", s->size, 1, 3));
  int got = tn__rdNums(r, node, "fromto", s->fromto, 6, 6);
  TN_TRY(got);
  s->has_fromto |= got > 0;
  TN_TRY(tn__rdFloats(r, node, "rgba", s->rgba, 4, 4));
  TN_TRY(tn__rdUser(r, node, &s->user));
  return 1;
}

int tn__readCameraAttrs(tnReader* r, tnXmlNode* node, tnSpecCamera* c) {
  // rendering-only intrinsics: validated by the schema, not kept
  static const char* const visual[] = {"resolution", "output",         "focal",      "focalpixel",
                                       "principal",  "principalpixel", "sensorsize", NULL};
  int projection = 0;
  TN_TRY(tn__rdKeyword(r, node, "projection", projections, &projection));
  ignore_attrs(node, visual);
  TN_TRY(tn__rdNums(r, node, "fovy", &c->fovy, 1, 1));
  TN_TRY(tn__rdNums(r, node, "ipd", &c->ipd, 1, 1));
  TN_TRY(tn__rdNums(r, node, "pos", c->pos, 3, 3));
  TN_TRY(tn__rdOrientation(r, node, &c->orient));
  TN_TRY(tn__rdKeyword(r, node, "mode", camlight_modes, &c->mode));
  TN_TRY(tn__rdName(r, node, "target", &c->target));
  TN_TRY(tn__rdUser(r, node, &c->user));
  return 1;
}

int tn__readLightAttrs(tnReader* r, tnXmlNode* node, tnSpecLight* l) {
  // rendering-only properties: validated, not kept
  static const char* const visual[] = {"bulbradius", "intensity", "range",
                                       "softness",   "texture",   NULL};
  ignore_attrs(node, visual);
  TN_TRY(tn__rdBool(r, node, "directional", &l->directional));
  int type = 0;
  int got = tn__rdKeyword(r, node, "type", light_types, &type);
  TN_TRY(got);
  if (got) {
    l->directional = type == 1;
    l->type = type;
  }
  TN_TRY(tn__rdBool(r, node, "castshadow", &l->castshadow));
  TN_TRY(tn__rdBool(r, node, "active", &l->active));
  TN_TRY(tn__rdNums(r, node, "pos", l->pos, 3, 3));
  TN_TRY(tn__rdNums(r, node, "dir", l->dir, 3, 3));
  TN_TRY(tn__rdFloats(r, node, "attenuation", l->attenuation, 3, 3));
  TN_TRY(tn__rdFloats(r, node, "cutoff", &l->cutoff, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "exponent", &l->exponent, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "ambient", l->ambient, 3, 3));
  TN_TRY(tn__rdFloats(r, node, "diffuse", l->diffuse, 3, 3));
  TN_TRY(tn__rdFloats(r, node, "specular", l->specular, 3, 3));
  TN_TRY(tn__rdKeyword(r, node, "mode", camlight_modes, &l->mode));
  TN_TRY(tn__rdName(r, node, "target", &l->target));
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * assets and model-level objects
 * ------------------------------------------------------------------------------------- */

int tn__readMaterialAttrs(tnReader* r, tnXmlNode* node, tnSpecMaterial* m) {
  static const char* const visual[] = {"metallic", "roughness", NULL};
  ignore_attrs(node, visual);
  TN_TRY(tn__rdName(r, node, "texture", &m->texture));
  TN_TRY(tn__rdFloats(r, node, "texrepeat", m->texrepeat, 2, 2));
  TN_TRY(tn__rdBool(r, node, "texuniform", &m->texuniform));
  TN_TRY(tn__rdFloats(r, node, "emission", &m->emission, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "specular", &m->specular, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "shininess", &m->shininess, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "reflectance", &m->reflectance, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "rgba", m->rgba, 4, 4));
  return 1;
}

int tn__readPairAttrs(tnReader* r, tnXmlNode* node, tnSpecPair* p) {
  int got;
  TN_TRY(got = tn__rdInts(r, node, "condim", &p->condim, 1, 1));
  p->has_condim |= got > 0;
  TN_TRY(got = tn__rdNums(r, node, "friction", p->friction, 1, 5));
  p->has_friction |= got > 0;
  TN_TRY(got = rd_solref(r, node, "solref", p->solref));
  p->has_solref |= got > 0;
  TN_TRY(rd_solref(r, node, "solreffriction", p->solreffriction));
  TN_TRY(got = rd_solimp(r, node, "solimp", p->solimp));
  p->has_solimp |= got > 0;
  TN_TRY(got = tn__rdNums(r, node, "gap", &p->gap, 1, 1));
  p->has_gap |= got > 0;
  TN_TRY(got = tn__rdNums(r, node, "margin", &p->margin, 1, 1));
  p->has_margin |= got > 0;
  return 1;
}

int tn__readEqualityAttrs(tnReader* r, tnXmlNode* node, tnSpecEquality* e) {
  TN_TRY(tn__rdBool(r, node, "active", &e->active));
  TN_TRY(rd_solref(r, node, "solref", e->solref));
  TN_TRY(rd_solimp(r, node, "solimp", e->solimp));
  return 1;
}

int tn__readTendonAttrs(tnReader* r, tnXmlNode* node, tnSpecTendon* t) {
  TN_TRY(tn__rdInts(r, node, "group", &t->group, 1, 1));
  TN_TRY(tn__rdTri(r, node, "limited", &t->limited));
  TN_TRY(tn__rdTri(r, node, "actuatorfrclimited", &t->actfrclimited));
  TN_TRY(tn__rdNums(r, node, "range", t->range, 2, 2));
  TN_TRY(tn__rdNums(r, node, "actuatorfrcrange", t->actfrcrange, 2, 2));
  TN_TRY(rd_solref(r, node, "solreflimit", t->solref_limit));
  TN_TRY(rd_solimp(r, node, "solimplimit", t->solimp_limit));
  TN_TRY(rd_solref(r, node, "solreffriction", t->solref_friction));
  TN_TRY(rd_solimp(r, node, "solimpfriction", t->solimp_friction));
  TN_TRY(tn__rdNums(r, node, "frictionloss", &t->frictionloss, 1, 1));

  // one spring length means both ends of the dead band
  int got = tn__rdNums(r, node, "springlength", t->springlength, 1, 2);
  TN_TRY(got);
  if (got == 1) {
    t->springlength[1] = t->springlength[0];
  }
  TN_TRY(tn__rdNums(r, node, "width", &t->width, 1, 1));
  TN_TRY(tn__rdName(r, node, "material", &t->material));
  TN_TRY(tn__rdNums(r, node, "margin", &t->margin, 1, 1));
  TN_TRY(rd_poly(r, node, "stiffness", &t->stiffness));
  TN_TRY(rd_poly(r, node, "damping", &t->damping));
  TN_TRY(tn__rdNums(r, node, "armature", &t->armature, 1, 1));
  TN_TRY(tn__rdFloats(r, node, "rgba", t->rgba, 4, 4));
  TN_TRY(tn__rdUser(r, node, &t->user));
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * actuators
 * ------------------------------------------------------------------------------------- */

/* TN_ACT_* kind of an element name */
int tn__actuatorKind(const char* name) {
  static const char* const names[] = {"general", "motor",    "position", "velocity", "intvelocity",
                                      "damper",  "cylinder", "muscle",   "adhesion"};
  for (int i = 0; i < 9; i++) {
    if (strcmp(name, names[i]) == 0) {
      return i;
    }
  }
  return -1;
}

/* a dyn/gain/bias type keyword; -2 marks types not implemented yet (the user types call
 * mjcb_act_dyn/gain/bias) */
static int rd_type(tnReader* r, tnXmlNode* node, const char* attr, const tnKeyword* table,
                   int* out) {
  int v = *out;
  int got = tn__rdKeyword(r, node, attr, table, &v);
  if (got > 0 && v == -2) {
    return tn__rdFail(r, node, attr, "this actuator type is not implemented yet");
  }
  if (got > 0) {
    *out = v;
  }
  return got;
}

/* attributes shared by all actuator elements */
static int rd_actuator_common(tnReader* r, tnXmlNode* node, tnSpecActuator* a) {
  TN_TRY(tn__rdInts(r, node, "group", &a->group, 1, 1));
  TN_TRY(tn__rdTri(r, node, "ctrllimited", &a->ctrllimited));
  TN_TRY(tn__rdTri(r, node, "forcelimited", &a->forcelimited));
  TN_TRY(tn__rdTri(r, node, "actlimited", &a->actlimited));
  TN_TRY(tn__rdNums(r, node, "ctrlrange", a->ctrlrange, 2, 2));
  TN_TRY(tn__rdNums(r, node, "forcerange", a->forcerange, 2, 2));
  TN_TRY(tn__rdNums(r, node, "actrange", a->actrange, 2, 2));
  TN_TRY(tn__rdNums(r, node, "lengthrange", a->lengthrange, 2, 2));
  TN_TRY(tn__rdNums(r, node, "gear", a->gear, 1, 6));
  TN_TRY(tn__rdNums(r, node, "cranklength", &a->cranklength, 1, 1));
  TN_TRY(tn__rdInts(r, node, "actdim", &a->actdim, 1, 1));
  TN_TRY(rd_type(r, node, "dyntype", dyn_types, &a->dyntype));
  TN_TRY(rd_type(r, node, "gaintype", gain_types, &a->gaintype));
  TN_TRY(rd_type(r, node, "biastype", bias_types, &a->biastype));
  TN_TRY(tn__rdNums(r, node, "dynprm", a->dynprm, 1, mjNDYN));
  TN_TRY(tn__rdNums(r, node, "gainprm", a->gainprm, 1, mjNGAIN));
  TN_TRY(tn__rdNums(r, node, "biasprm", a->biasprm, 1, mjNBIAS));
  TN_TRY(tn__rdBool(r, node, "actearly", &a->actearly));
  TN_TRY(tn__rdUser(r, node, &a->user));
  return 1;
}

/* a nonnegative scalar attribute */
static int rd_nonneg(tnReader* r, tnXmlNode* node, const char* attr, mjtNum* v) {
  int got = tn__rdNums(r, node, attr, v, 1, 1);
  if (got > 0 && *v < 0) {
    return tn__rdFail(r, node, attr, "must be nonnegative");
  }
  return got;
}

/* kv or dampratio into biasprm[2] (dampratio is stored positive, resolved at compile);
 * 1/0 */
static int rd_damping(tnReader* r, tnXmlNode* node, tnSpecActuator* a) {
  mjtNum kv = 0, dampratio = 0;
  int gotkv = rd_nonneg(r, node, "kv", &kv);
  TN_TRY(gotkv);
  int gotdr = rd_nonneg(r, node, "dampratio", &dampratio);
  TN_TRY(gotdr);
  if (gotkv && gotdr) {
    return tn__rdFail(r, node, "dampratio", "kv and dampratio cannot both be defined") + 1;
  }
  if (gotkv) {
    a->biasprm[2] = -kv;
  }
  if (gotdr) {
    a->biasprm[2] = dampratio;
  }
  return 1;
}

/* position servo part shared by position and intvelocity */
static int rd_servo(tnReader* r, tnXmlNode* node, tnSpecActuator* a) {
  mjtNum kp = a->gainprm[0];
  TN_TRY(tn__rdNums(r, node, "kp", &kp, 1, 1));
  a->gaintype = mjGAIN_FIXED;
  a->gainprm[0] = kp;
  a->biastype = mjBIAS_AFFINE;
  a->biasprm[1] = -kp;
  TN_OK(rd_damping(r, node, a));
  TN_TRY(tn__rdNums(r, node, "inheritrange", &a->inheritrange, 1, 1));
  return 1;
}

/* one optional scalar muscle attribute into prm[k] (negative: keep the current value) */
static int rd_muscle_prm(tnReader* r, tnXmlNode* node, const char* attr, mjtNum* prm) {
  mjtNum v = -1;
  TN_TRY(tn__rdNums(r, node, attr, &v, 1, 1));
  if (v >= 0) {
    *prm = v;
  }
  return 1;
}

/* muscle: MuJoCo's muscle defaults where the parameters still hold the global defaults,
 * then the given attributes; biasprm mirrors gainprm */
static int rd_muscle(tnReader* r, tnXmlNode* node, tnSpecActuator* a) {
  static const mjtNum fallback[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
  mjtNum* g = a->gainprm;
  if (a->dynprm[0] == 1) {
    a->dynprm[0] = 0.01;
  }
  if (a->dynprm[1] == 0) {
    a->dynprm[1] = 0.04;
  }
  if (g[0] == 1) {
    g[0] = fallback[0];
  }
  for (int k = 1; k < 9; k++) {
    if (g[k] == 0) {
      g[k] = fallback[k];
    }
  }

  // time constants and tausmooth
  mjtNum timeconst[2] = {-1, -1}, tausmooth = a->dynprm[2];
  TN_TRY(tn__rdNums(r, node, "timeconst", timeconst, 2, 2));
  TN_TRY(tn__rdNums(r, node, "tausmooth", &tausmooth, 1, 1));
  if (tausmooth < 0) {
    return tn__rdFail(r, node, "tausmooth", "muscle tausmooth cannot be negative") + 1;
  }
  a->dynprm[2] = tausmooth;
  for (int k = 0; k < 2; k++) {
    if (timeconst[k] >= 0) {
      a->dynprm[k] = timeconst[k];
    }
  }

  // gain parameters: range, force, scale, lmin, lmax, vmax, fpmax, fvmax
  mjtNum range[2] = {-1, -1};
  TN_TRY(tn__rdNums(r, node, "range", range, 2, 2));
  for (int k = 0; k < 2; k++) {
    if (range[k] >= 0) {
      g[k] = range[k];
    }
  }
  static const char* const names[7] = {"force", "scale", "lmin", "lmax", "vmax", "fpmax", "fvmax"};
  for (int k = 0; k < 7; k++) {
    TN_OK(rd_muscle_prm(r, node, names[k], g + 2 + k));
  }
  mju_copy(a->biasprm, g, 9);
  a->dyntype = mjDYN_MUSCLE;
  a->gaintype = mjGAIN_MUSCLE;
  a->biastype = mjBIAS_MUSCLE;
  return 1;
}

/* shortcut semantics on top of the current parameters */
static int apply_shortcut(tnReader* r, tnXmlNode* node, int kind, tnSpecActuator* a) {
  mjtNum v;
  switch (kind) {
    case TN_ACT_MOTOR:
      a->gaintype = mjGAIN_FIXED;
      a->gainprm[0] = 1;
      a->biastype = mjBIAS_NONE;
      a->dyntype = mjDYN_NONE;
      return 1;

    case TN_ACT_POSITION:
      TN_OK(rd_servo(r, node, a));
      v = 0;
      int got = rd_nonneg(r, node, "timeconst", &v);
      TN_TRY(got);
      if (got) {
        a->dynprm[0] = v;
        a->dyntype = v > 0 ? mjDYN_FILTEREXACT : mjDYN_NONE;
      }
      return 1;

    case TN_ACT_VELOCITY:
      v = a->gainprm[0];
      TN_TRY(tn__rdNums(r, node, "kv", &v, 1, 1));
      a->gaintype = mjGAIN_FIXED;
      a->gainprm[0] = v;
      a->biastype = mjBIAS_AFFINE;
      memset(a->biasprm, 0, sizeof(a->biasprm));
      a->biasprm[2] = -v;
      a->dyntype = mjDYN_NONE;
      return 1;

    case TN_ACT_INTVELOCITY: a->dyntype = mjDYN_INTEGRATOR; return rd_servo(r, node, a);

    case TN_ACT_DAMPER:
      v = 0;
      TN_TRY(rd_nonneg(r, node, "kv", &v));
      a->gaintype = mjGAIN_AFFINE;
      a->gainprm[0] = 0;
      a->gainprm[1] = 0;
      a->gainprm[2] = -v;
      a->biastype = mjBIAS_NONE;
      a->dyntype = mjDYN_NONE;
      a->ctrllimited = TN_TRUE;
      return 1;

    case TN_ACT_CYLINDER: {
      mjtNum diameter = -1;
      a->dyntype = mjDYN_FILTER;
      TN_TRY(tn__rdNums(r, node, "timeconst", &a->dynprm[0], 1, 1));
      a->gaintype = mjGAIN_FIXED;
      TN_TRY(tn__rdNums(r, node, "area", &a->gainprm[0], 1, 1));
      int gotd = tn__rdNums(r, node, "diameter", &diameter, 1, 1);
      TN_TRY(gotd);
      if (gotd) {
        a->gainprm[0] = mjPI / 4 * diameter * diameter;
      }
      a->biastype = mjBIAS_AFFINE;
      TN_TRY(tn__rdNums(r, node, "bias", a->biasprm, 3, 3));
      return 1;
    }

    case TN_ACT_MUSCLE: return rd_muscle(r, node, a);

    case TN_ACT_ADHESION:
      TN_TRY(tn__rdNums(r, node, "gain", &a->gainprm[0], 1, 1));
      if (a->gainprm[0] < 0) {
        return tn__rdFail(r, node, "gain", "adhesion gain cannot be negative") + 1;
      }
      a->ctrllimited = TN_TRUE;
      a->gaintype = mjGAIN_FIXED;
      a->biastype = mjBIAS_NONE;
      return 1;

    default: return 1;
  }
}

int tn__readActuatorAttrs(tnReader* r, tnXmlNode* node, int kind, tnSpecActuator* a) {
  TN_OK(rd_actuator_common(r, node, a));
  return apply_shortcut(r, node, kind, a);
}
