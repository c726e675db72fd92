/* spec/spec_save.c — mj_saveXMLString and mj_saveXML: a spec written as MJCF.
 *
 * Every element is written with the values it holds (default classes are not written:
 * their values are already in the elements), each attribute only when it differs from
 * MuJoCo's built-in default, numbers with 17 significant digits so that parsing the text
 * back gives the same doubles. Angles stay in the spec's unit (compiler angle is written).
 * Elements in frames are written inside <frame> elements, in their order. What MJCF cannot express
 * from the spec, or Torsion does not write yet (skins, flexes, plugins, actuators with
 * inheritrange, equality types beyond connect/weld/joint/tendon), is an error. Textures
 * are written with their kind and size (Torsion keeps no pixels). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_tree.h"

/* the text being written */
typedef struct tnsXml_ {
  char* buf;
  size_t n, cap;
  int depth;
  char err[512];
} tnsXml;

/* append formatted text */
static void put(tnsXml* x, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(tnsXml* x, const char* fmt, ...) {
  if (x->err[0]) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (x->n + (size_t)len + 1 > x->cap) {
    size_t cap = x->cap ? 2 * x->cap : 4096;
    while (cap < x->n + (size_t)len + 1) {
      cap *= 2;
    }
    char* grown = realloc(x->buf, cap);
    if (!grown) {
      snprintf(x->err, sizeof(x->err), "out of memory");
      va_end(ap2);
      return;
    }
    x->buf = grown;
    x->cap = cap;
  }
  vsnprintf(x->buf + x->n, (size_t)len + 1, fmt, ap2);
  va_end(ap2);
  x->n += (size_t)len;
}

/* an attribute value in quotes, XML-escaped */
static void put_escaped(tnsXml* x, const char* name, const char* v) {
  put(x, " %s=\"", name);
  for (const char* p = v; *p; p++) {
    switch (*p) {
      case '&': put(x, "&amp;"); break;
      case '<': put(x, "&lt;"); break;
      case '>': put(x, "&gt;"); break;
      case '"': put(x, "&quot;"); break;
      default: put(x, "%c", *p);
    }
  }
  put(x, "\"");
}

/* start an element on its own line */
static void open_tag(tnsXml* x, const char* tag) {
  put(x, "%*s<%s", 2 * x->depth, "", tag);
}

/* a text attribute from a handle (skipped when empty) */
static void a_str(tnsXml* x, const char* name, const void* h) {
  const char* v = tn__specText(h);
  if (v[0]) {
    put_escaped(x, name, v);
  }
}

/* n doubles, written when any differs from def (def NULL: always) */
static void a_num(tnsXml* x, const char* name, const double* v, const double* def, int n) {
  int differ = def == NULL;
  for (int i = 0; i < n && !differ; i++) {
    differ = !(v[i] == def[i] || (isnan(v[i]) && isnan(def[i])));
  }
  if (!differ) {
    return;
  }
  put(x, " %s=\"", name);
  for (int i = 0; i < n; i++) {
    put(x, i ? " %.17g" : "%.17g", v[i]);
  }
  put(x, "\"");
}

/* n floats */
static void a_flt(tnsXml* x, const char* name, const float* v, const float* def, int n) {
  double d[12], e[12];
  for (int i = 0; i < n; i++) {
    d[i] = v[i];
    e[i] = def ? def[i] : 0;
  }
  if (def && memcmp(v, def, sizeof(float) * (size_t)n) == 0) {
    return;
  }
  put(x, " %s=\"", name);
  for (int i = 0; i < n; i++) {
    put(x, i ? " %.9g" : "%.9g", d[i]);
  }
  put(x, "\"");
  (void)e;
}

/* n ints */
static void a_int(tnsXml* x, const char* name, const int* v, const int* def, int n) {
  if (def && memcmp(v, def, sizeof(int) * (size_t)n) == 0) {
    return;
  }
  put(x, " %s=\"", name);
  for (int i = 0; i < n; i++) {
    put(x, i ? " %d" : "%d", v[i]);
  }
  put(x, "\"");
}

/* a keyword from a table indexed by value */
static void a_kw(tnsXml* x, const char* name, int v, int def, const char* const* words, int n) {
  if (v != def && v >= 0 && v < n) {
    put(x, " %s=\"%s\"", name, words[v]);
  }
}

/* a boolean */
static void a_bool(tnsXml* x, const char* name, int v, int def) {
  if ((v != 0) != (def != 0)) {
    put(x, " %s=\"%s\"", name, v ? "true" : "false");
  }
}

/* a limited flag */
static void a_tri(tnsXml* x, const char* name, int v) {
  static const char* const words[] = {"false", "true", "auto"};
  a_kw(x, name, v, mjLIMITED_AUTO, words, 3);
}

/* a double array handle */
static void a_vec(tnsXml* x, const char* name, const void* h) {
  const tnsHandle* v = h;
  if (v->n) {
    a_num(x, name, (const double*)v->data, NULL, v->n);
  }
}

/* an orientation: the alternative when chosen, else the quaternion */
static void a_orient(tnsXml* x, const double quat[4], const mjsOrientation* alt,
                     const char* quatname) {
  static const double unit[4] = {1, 0, 0, 0};
  switch (alt->type) {
    case mjORIENTATION_AXISANGLE: a_num(x, "axisangle", alt->axisangle, NULL, 4); break;
    case mjORIENTATION_XYAXES: a_num(x, "xyaxes", alt->xyaxes, NULL, 6); break;
    case mjORIENTATION_ZAXIS: a_num(x, "zaxis", alt->zaxis, NULL, 3); break;
    case mjORIENTATION_EULER: a_num(x, "euler", alt->euler, NULL, 3); break;
    default: a_num(x, quatname, quat, unit, 4);
  }
}

/* ---------------------------------------------------------------------------------------
 * settings
 * ------------------------------------------------------------------------------------- */

static void write_settings(tnsXml* x, const mjSpec* s) {
  mjSpec d;
  mjs_defaultSpec(&d);
  const mjsCompiler* c = &s->compiler;
  open_tag(x, "compiler");
  put(x, " angle=\"%s\"", c->degree ? "degree" : "radian");
  if (memcmp(c->eulerseq, "xyz", 3) != 0) {
    put(x, " eulerseq=\"%.3s\"", c->eulerseq);
  }
  a_bool(x, "autolimits", c->autolimits, d.compiler.autolimits);
  a_num(x, "boundmass", &c->boundmass, &d.compiler.boundmass, 1);
  a_num(x, "boundinertia", &c->boundinertia, &d.compiler.boundinertia, 1);
  a_num(x, "settotalmass", &c->settotalmass, &d.compiler.settotalmass, 1);
  a_bool(x, "balanceinertia", c->balanceinertia, 0);
  a_bool(x, "fitaabb", c->fitaabb, 0);
  a_bool(x, "discardvisual", c->discardvisual, 0);
  a_bool(x, "fusestatic", c->fusestatic, 0);
  a_bool(x, "alignfree", c->alignfree, 0);
  a_bool(x, "strippath", s->strippath, 0);
  static const char* const ifg[] = {"false", "true", "auto"};
  a_kw(x, "inertiafromgeom", c->inertiafromgeom, mjINERTIAFROMGEOM_AUTO, ifg, 3);
  a_int(x, "inertiagrouprange", c->inertiagrouprange, d.compiler.inertiagrouprange, 2);
  a_str(x, "meshdir", c->meshdir);
  a_str(x, "texturedir", c->texturedir);
  put(x, "/>\n");

  const mjOption* o = &s->option;
  const mjOption* od = &d.option;
  open_tag(x, "option");
  a_num(x, "timestep", &o->timestep, &od->timestep, 1);
  a_num(x, "impratio", &o->impratio, &od->impratio, 1);
  a_num(x, "tolerance", &o->tolerance, &od->tolerance, 1);
  a_num(x, "ls_tolerance", &o->ls_tolerance, &od->ls_tolerance, 1);
  a_num(x, "noslip_tolerance", &o->noslip_tolerance, &od->noslip_tolerance, 1);
  a_num(x, "ccd_tolerance", &o->ccd_tolerance, &od->ccd_tolerance, 1);
  a_num(x, "gravity", o->gravity, od->gravity, 3);
  a_num(x, "wind", o->wind, od->wind, 3);
  a_num(x, "magnetic", o->magnetic, od->magnetic, 3);
  a_num(x, "density", &o->density, &od->density, 1);
  a_num(x, "viscosity", &o->viscosity, &od->viscosity, 1);
  a_num(x, "o_margin", &o->o_margin, &od->o_margin, 1);
  a_num(x, "o_solref", o->o_solref, od->o_solref, mjNREF);
  a_num(x, "o_solimp", o->o_solimp, od->o_solimp, mjNIMP);
  a_num(x, "o_friction", o->o_friction, od->o_friction, 5);
  static const char* const integrators[] = {"Euler", "RK4", "implicit", "implicitfast"};
  static const char* const cones[] = {"pyramidal", "elliptic"};
  static const char* const jacobians[] = {"dense", "sparse", "auto"};
  static const char* const solvers[] = {"PGS", "CG", "Newton"};
  a_kw(x, "integrator", o->integrator, od->integrator, integrators, 4);
  a_kw(x, "cone", o->cone, od->cone, cones, 2);
  a_kw(x, "jacobian", o->jacobian, od->jacobian, jacobians, 3);
  a_kw(x, "solver", o->solver, od->solver, solvers, 3);
  a_int(x, "iterations", &o->iterations, &od->iterations, 1);
  a_int(x, "ls_iterations", &o->ls_iterations, &od->ls_iterations, 1);
  a_int(x, "noslip_iterations", &o->noslip_iterations, &od->noslip_iterations, 1);
  a_int(x, "ccd_iterations", &o->ccd_iterations, &od->ccd_iterations, 1);
  a_int(x, "sdf_iterations", &o->sdf_iterations, &od->sdf_iterations, 1);
  a_int(x, "sdf_initpoints", &o->sdf_initpoints, &od->sdf_initpoints, 1);
  if (o->disableactuator) {
    put(x, " actuatorgroupdisable=\"");
    for (int g = 0, first = 1; g < 31; g++) {
      if (o->disableactuator & (1 << g)) {
        put(x, first ? "%d" : " %d", g);
        first = 0;
      }
    }
    put(x, "\"");
  }
  if (o->disableflags == od->disableflags && o->enableflags == od->enableflags) {
    put(x, "/>\n");
  } else {
    static const char* const dis[] = {
        "constraint", "equality",  "frictionloss", "limit",        "contact",   "spring",  "damper",
        "gravity",    "clampctrl", "warmstart",    "filterparent", "actuation", "refsafe", "sensor",
        "midphase",   "eulerdamp", "autoreset",    "nativeccd",    "island",    "multiccd"};
    static const char* const en[] = {"override", "energy",    "fwdinv", "invdiscrete",
                                     "sleep",    "diagexact", "ipc"};
    put(x, ">\n");
    x->depth++;
    open_tag(x, "flag");
    for (int i = 0; i < (int)(sizeof(dis) / sizeof(dis[0])); i++) {
      if ((o->disableflags ^ od->disableflags) & (1 << i)) {
        put(x, " %s=\"%s\"", dis[i], o->disableflags & (1 << i) ? "disable" : "enable");
      }
    }
    for (int i = 0; i < (int)(sizeof(en) / sizeof(en[0])); i++) {
      if ((o->enableflags ^ od->enableflags) & (1 << i)) {
        put(x, " %s=\"%s\"", en[i], o->enableflags & (1 << i) ? "enable" : "disable");
      }
    }
    put(x, "/>\n");
    x->depth--;
    open_tag(x, "/option");
    put(x, ">\n");
  }

  open_tag(x, "size");
  if (s->memory != d.memory) {
    put(x, " memory=\"%lld\"", (long long)s->memory);
  }
  a_int(x, "njmax", &s->njmax, &d.njmax, 1);
  a_int(x, "nconmax", &s->nconmax, &d.nconmax, 1);
  if (s->nstack != d.nstack) {
    put(x, " nstack=\"%lld\"", (long long)s->nstack);
  }
  a_int(x, "nuserdata", &s->nuserdata, &d.nuserdata, 1);
  a_int(x, "nkey", &s->nkey, &d.nkey, 1);
  a_int(x, "nuser_body", &s->nuser_body, &d.nuser_body, 1);
  a_int(x, "nuser_jnt", &s->nuser_jnt, &d.nuser_jnt, 1);
  a_int(x, "nuser_geom", &s->nuser_geom, &d.nuser_geom, 1);
  a_int(x, "nuser_site", &s->nuser_site, &d.nuser_site, 1);
  a_int(x, "nuser_cam", &s->nuser_cam, &d.nuser_cam, 1);
  a_int(x, "nuser_tendon", &s->nuser_tendon, &d.nuser_tendon, 1);
  a_int(x, "nuser_actuator", &s->nuser_actuator, &d.nuser_actuator, 1);
  a_int(x, "nuser_sensor", &s->nuser_sensor, &d.nuser_sensor, 1);
  put(x, "/>\n");

  open_tag(x, "statistic");
  if (!isnan(s->stat.meaninertia)) {
    a_num(x, "meaninertia", &s->stat.meaninertia, NULL, 1);
  }
  if (!isnan(s->stat.meanmass)) {
    a_num(x, "meanmass", &s->stat.meanmass, NULL, 1);
  }
  if (!isnan(s->stat.meansize)) {
    a_num(x, "meansize", &s->stat.meansize, NULL, 1);
  }
  if (!isnan(s->stat.extent)) {
    a_num(x, "extent", &s->stat.extent, NULL, 1);
  }
  if (!isnan(s->stat.center[0])) {
    a_num(x, "center", s->stat.center, NULL, 3);
  }
  put(x, "/>\n");
}

/* ---------------------------------------------------------------------------------------
 * the body tree
 * ------------------------------------------------------------------------------------- */

static void write_joint(tnsXml* x, const tnsNode* n) {
  const mjsJoint* j = &n->u.joint;
  mjsJoint d;
  mjs_defaultJoint(&d);
  static const char* const types[] = {"free", "ball", "slide", "hinge"};
  open_tag(x, "joint");
  a_str(x, "name", n->name);
  put(x, " type=\"%s\"", types[j->type]);
  a_num(x, "pos", j->pos, d.pos, 3);
  a_num(x, "axis", j->axis, d.axis, 3);
  a_num(x, "ref", &j->ref, &d.ref, 1);
  a_num(x, "springref", &j->springref, &d.springref, 1);
  a_num(x, "stiffness", j->stiffness, d.stiffness, 1);
  a_num(x, "damping", j->damping, d.damping, 1);
  a_num(x, "springdamper", j->springdamper, d.springdamper, 2);
  a_tri(x, "limited", j->limited);
  a_num(x, "range", j->range, d.range, 2);
  a_num(x, "margin", &j->margin, &d.margin, 1);
  a_num(x, "solreflimit", j->solref_limit, d.solref_limit, mjNREF);
  a_num(x, "solimplimit", j->solimp_limit, d.solimp_limit, mjNIMP);
  a_tri(x, "actuatorfrclimited", j->actfrclimited);
  a_num(x, "actuatorfrcrange", j->actfrcrange, d.actfrcrange, 2);
  a_bool(x, "actuatorgravcomp", j->actgravcomp, 0);
  a_num(x, "armature", &j->armature, &d.armature, 1);
  a_num(x, "frictionloss", &j->frictionloss, &d.frictionloss, 1);
  a_num(x, "solreffriction", j->solref_friction, d.solref_friction, mjNREF);
  a_num(x, "solimpfriction", j->solimp_friction, d.solimp_friction, mjNIMP);
  a_int(x, "group", &j->group, &d.group, 1);
  a_vec(x, "user", j->userdata);
  put(x, "/>\n");
  if (j->stiffness[1] != 0 || j->stiffness[2] != 0 || j->damping[1] != 0 || j->damping[2] != 0) {
    snprintf(x->err, sizeof(x->err), "polynomial joint stiffness or damping");
  }
}

static const char* const geom_types[] = {"plane",    "hfield", "sphere", "capsule", "ellipsoid",
                                         "cylinder", "box",    "mesh",   "sdf"};

static void write_geom(tnsXml* x, const tnsNode* n) {
  const mjsGeom* g = &n->u.geom;
  mjsGeom d;
  mjs_defaultGeom(&d);
  open_tag(x, "geom");
  a_str(x, "name", n->name);
  a_kw(x, "type", g->type, d.type, geom_types, 9);
  a_num(x, "size", g->size, d.size, 3);
  if (!isnan(g->fromto[0])) {
    a_num(x, "fromto", g->fromto, NULL, 6);
  }
  a_num(x, "pos", g->pos, d.pos, 3);
  a_orient(x, g->quat, &g->alt, "quat");
  a_int(x, "contype", &g->contype, &d.contype, 1);
  a_int(x, "conaffinity", &g->conaffinity, &d.conaffinity, 1);
  a_int(x, "condim", &g->condim, &d.condim, 1);
  a_int(x, "priority", &g->priority, &d.priority, 1);
  a_num(x, "friction", g->friction, d.friction, 3);
  a_num(x, "solmix", &g->solmix, &d.solmix, 1);
  a_num(x, "solref", g->solref, d.solref, mjNREF);
  a_num(x, "solimp", g->solimp, d.solimp, mjNIMP);
  a_num(x, "margin", &g->margin, &d.margin, 1);
  a_num(x, "gap", &g->gap, &d.gap, 1);
  if (!isnan(g->mass)) {
    a_num(x, "mass", &g->mass, NULL, 1);
  }
  a_num(x, "density", &g->density, &d.density, 1);
  a_bool(x, "shellinertia", g->typeinertia == mjINERTIA_SHELL, 0);
  if (g->fluid_ellipsoid != 0) {
    put(x, " fluidshape=\"ellipsoid\"");
  }
  a_num(x, "fluidcoef", g->fluid_coefs, d.fluid_coefs, 5);
  a_str(x, "material", g->material);
  a_flt(x, "rgba", g->rgba, d.rgba, 4);
  a_int(x, "group", &g->group, &d.group, 1);
  a_str(x, "hfield", g->hfieldname);
  a_str(x, "mesh", g->meshname);
  a_num(x, "fitscale", &g->fitscale, &d.fitscale, 1);
  a_vec(x, "user", g->userdata);
  put(x, "/>\n");
}

static void write_site(tnsXml* x, const tnsNode* n) {
  const mjsSite* s = &n->u.site;
  mjsSite d;
  mjs_defaultSite(&d);
  open_tag(x, "site");
  a_str(x, "name", n->name);
  a_kw(x, "type", s->type, d.type, geom_types, 9);
  a_num(x, "size", s->size, d.size, 3);
  if (!isnan(s->fromto[0])) {
    a_num(x, "fromto", s->fromto, NULL, 6);
  }
  a_num(x, "pos", s->pos, d.pos, 3);
  a_orient(x, s->quat, &s->alt, "quat");
  a_str(x, "material", s->material);
  a_flt(x, "rgba", s->rgba, d.rgba, 4);
  a_int(x, "group", &s->group, &d.group, 1);
  a_vec(x, "user", s->userdata);
  put(x, "/>\n");
}

static const char* const camlight_modes[] = {"fixed", "track", "trackcom", "targetbody",
                                             "targetbodycom"};

static void write_camera(tnsXml* x, const tnsNode* n) {
  const mjsCamera* c = &n->u.camera;
  mjsCamera d;
  mjs_defaultCamera(&d);
  open_tag(x, "camera");
  a_str(x, "name", n->name);
  a_kw(x, "mode", c->mode, d.mode, camlight_modes, 5);
  a_str(x, "target", c->targetbody);
  a_num(x, "pos", c->pos, d.pos, 3);
  a_orient(x, c->quat, &c->alt, "quat");
  a_num(x, "fovy", &c->fovy, &d.fovy, 1);
  a_num(x, "ipd", &c->ipd, &d.ipd, 1);
  a_vec(x, "user", c->userdata);
  put(x, "/>\n");
}

static void write_light(tnsXml* x, const tnsNode* n) {
  const mjsLight* l = &n->u.light;
  mjsLight d;
  mjs_defaultLight(&d);
  open_tag(x, "light");
  a_str(x, "name", n->name);
  a_kw(x, "mode", l->mode, d.mode, camlight_modes, 5);
  a_str(x, "target", l->targetbody);
  a_bool(x, "directional", l->type == mjLIGHT_DIRECTIONAL, 0);
  a_bool(x, "castshadow", l->castshadow, d.castshadow);
  a_bool(x, "active", l->active, d.active);
  a_num(x, "pos", l->pos, d.pos, 3);
  a_num(x, "dir", l->dir, d.dir, 3);
  a_flt(x, "attenuation", l->attenuation, d.attenuation, 3);
  a_flt(x, "cutoff", &l->cutoff, &d.cutoff, 1);
  a_flt(x, "exponent", &l->exponent, &d.exponent, 1);
  a_flt(x, "ambient", l->ambient, d.ambient, 3);
  a_flt(x, "diffuse", l->diffuse, d.diffuse, 3);
  a_flt(x, "specular", l->specular, d.specular, 3);
  put(x, "/>\n");
}

static void write_body(tnsXml* x, const tnsNode* b);

/* open a <frame> element */
static void open_frame(tnsXml* x, const tnsNode* f) {
  static const double zero[3] = {0, 0, 0};
  open_tag(x, "frame");
  a_str(x, "name", f->name);
  a_num(x, "pos", f->u.frame.pos, zero, 3);
  a_orient(x, f->u.frame.quat, &f->u.frame.alt, "quat");
  put(x, ">\n");
  x->depth++;
}

/* the children of body b in their order, each inside the <frame> elements of its frame
 * chain (children next to each other share the open frames) */
static void write_children(tnsXml* x, const tnsNode* b) {
  const tnsNode* open[32];  // frames open now, outermost first
  int nopen = 0;
  for (const tnsNode* c = b->first; c && !x->err[0]; c = c->sib_next) {
    if (c->deleted || c->type == mjOBJ_FRAME) {
      continue;
    }
    // the frame chain of c, outermost first
    const tnsNode* chain[32];
    int nchain = 0;
    for (const tnsNode* f = c->frame; f && nchain < 32; f = f->frame) {
      chain[nchain++] = f;
    }
    for (int i = 0; i < nchain / 2; i++) {
      const tnsNode* t = chain[i];
      chain[i] = chain[nchain - 1 - i];
      chain[nchain - 1 - i] = t;
    }
    int keep = 0;
    while (keep < nopen && keep < nchain && open[keep] == chain[keep]) {
      keep++;
    }
    for (; nopen > keep; nopen--) {
      x->depth--;
      open_tag(x, "/frame");
      put(x, ">\n");
    }
    for (; nopen < nchain; nopen++) {
      open[nopen] = chain[nopen];
      open_frame(x, chain[nopen]);
    }
    switch (c->type) {
      case mjOBJ_JOINT: write_joint(x, c); break;
      case mjOBJ_GEOM: write_geom(x, c); break;
      case mjOBJ_SITE: write_site(x, c); break;
      case mjOBJ_CAMERA: write_camera(x, c); break;
      case mjOBJ_LIGHT: write_light(x, c); break;
      case mjOBJ_BODY: write_body(x, c); break;
      default: break;
    }
  }
  for (; nopen > 0; nopen--) {
    x->depth--;
    open_tag(x, "/frame");
    put(x, ">\n");
  }
}

static void write_body(tnsXml* x, const tnsNode* n) {
  const mjsBody* b = &n->u.body;
  mjsBody d;
  mjs_defaultBody(&d);
  open_tag(x, "body");
  a_str(x, "name", n->name);
  a_num(x, "pos", b->pos, d.pos, 3);
  a_orient(x, b->quat, &b->alt, "quat");
  a_bool(x, "mocap", b->mocap, 0);
  a_num(x, "gravcomp", &b->gravcomp, &d.gravcomp, 1);
  a_vec(x, "user", b->userdata);
  put(x, ">\n");
  x->depth++;
  if (!isnan(b->ipos[0])) {
    open_tag(x, "inertial");
    a_num(x, "pos", b->ipos, NULL, 3);
    a_orient(x, b->iquat, &b->ialt, "quat");
    a_num(x, "mass", &b->mass, NULL, 1);
    if (isnan(b->fullinertia[0])) {
      a_num(x, "diaginertia", b->inertia, NULL, 3);
    } else {
      a_num(x, "fullinertia", b->fullinertia, NULL, 6);
    }
    put(x, "/>\n");
  }
  write_children(x, n);
  x->depth--;
  open_tag(x, "/body");
  put(x, ">\n");
}

/* ---------------------------------------------------------------------------------------
 * elements outside the tree
 * ------------------------------------------------------------------------------------- */

/* nodes of a type, live and visible, in creation order */
#define FOR_EACH(n, s, t)                            \
  for (const tnsNode* n = (s)->head; n; n = n->next) \
    if (n->type == (t) && !n->deleted && !n->hidden)

/* whether the spec holds a live element of a type */
static int any_of(const tnsSpec* s, int type) {
  FOR_EACH(n, s, type) {
    return 1;
  }
  return 0;
}

static void write_assets(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_MESH) && !any_of(s, mjOBJ_HFIELD) && !any_of(s, mjOBJ_MATERIAL) &&
      !any_of(s, mjOBJ_TEXTURE)) {
    return;
  }
  open_tag(x, "asset");
  put(x, ">\n");
  x->depth++;

  // textures: Torsion keeps their kind and size only (no pixels); a built-in one is written
  // as such, one from a parsed file keeps its dimensions as a flat built-in texture
  FOR_EACH(n, s, mjOBJ_TEXTURE) {
    const mjsTexture* t = &n->u.texture;
    mjsTexture d;
    mjs_defaultTexture(&d);
    static const char* const types[] = {"2d", "cube", "skybox"};
    static const char* const builtins[] = {"none", "gradient", "checker", "flat"};
    static const char* const marks[] = {"none", "edge", "cross", "random"};
    open_tag(x, "texture");
    a_str(x, "name", n->name);
    put(x, " type=\"%s\"", types[t->type >= 0 && t->type < 3 ? t->type : 1]);
    a_str(x, "file", t->file);
    a_str(x, "content_type", t->content_type);
    if (t->width > 0) {
      int builtin = t->builtin == mjBUILTIN_NONE ? mjBUILTIN_FLAT : t->builtin;
      put(x, " builtin=\"%s\"", builtins[builtin]);
      a_int(x, "width", &t->width, NULL, 1);
      if (t->type == mjTEXTURE_2D) {
        a_int(x, "height", &t->height, NULL, 1);
      }
      a_num(x, "rgb1", t->rgb1, d.rgb1, 3);
      a_num(x, "rgb2", t->rgb2, d.rgb2, 3);
      a_kw(x, "mark", t->mark, d.mark, marks, 4);
      a_num(x, "markrgb", t->markrgb, d.markrgb, 3);
      a_num(x, "random", &t->random, &d.random, 1);
    }
    a_int(x, "nchannel", &t->nchannel, &d.nchannel, 1);
    put(x, "/>\n");
  }
  FOR_EACH(n, s, mjOBJ_MESH) {
    const mjsMesh* m = &n->u.mesh;
    mjsMesh d;
    mjs_defaultMesh(&d);
    static const char* const inertia[] = {"convex", "exact", "legacy", "shell"};
    open_tag(x, "mesh");
    a_str(x, "name", n->name);
    a_str(x, "file", m->file);
    a_str(x, "content_type", m->content_type);
    a_num(x, "scale", m->scale, d.scale, 3);
    a_num(x, "refpos", m->refpos, d.refpos, 3);
    a_num(x, "refquat", m->refquat, d.refquat, 4);
    a_kw(x, "inertia", m->inertia, d.inertia, inertia, 4);
    a_int(x, "maxhullvert", &m->maxhullvert, &d.maxhullvert, 1);
    const tnsHandle* v = m->uservert;
    if (v->n) {
      put(x, " vertex=\"");
      for (int i = 0; i < v->n; i++) {
        put(x, i ? " %.9g" : "%.9g", ((const float*)v->data)[i]);
      }
      put(x, "\"");
    }
    const tnsHandle* f = m->userface;
    if (f->n) {
      a_int(x, "face", (const int*)f->data, NULL, f->n);
    }
    put(x, "/>\n");
  }
  FOR_EACH(n, s, mjOBJ_HFIELD) {
    const mjsHField* h = &n->u.hfield;
    open_tag(x, "hfield");
    a_str(x, "name", n->name);
    a_str(x, "file", h->file);
    a_str(x, "content_type", h->content_type);
    static const int zero2[2] = {0, 0};
    a_int(x, "nrow", &h->nrow, zero2, 1);
    a_int(x, "ncol", &h->ncol, zero2, 1);
    a_num(x, "size", h->size, NULL, 4);
    const tnsHandle* e = h->userdata;
    if (e->n && h->nrow * h->ncol == e->n) {
      // MJCF lists the rows last first
      put(x, " elevation=\"");
      for (int i = 0; i < e->n; i++) {
        int r = h->nrow - 1 - i / h->ncol, k = i % h->ncol;
        put(x, i ? " %.9g" : "%.9g", ((const float*)e->data)[r * h->ncol + k]);
      }
      put(x, "\"");
    }
    put(x, "/>\n");
  }
  FOR_EACH(n, s, mjOBJ_MATERIAL) {
    const mjsMaterial* m = &n->u.material;
    mjsMaterial d;
    mjs_defaultMaterial(&d);
    open_tag(x, "material");
    a_str(x, "name", n->name);
    const tnsHandle* t = m->textures;
    if (t->n && ((char**)t->data)[0][0]) {
      put_escaped(x, "texture", ((char**)t->data)[0]);
    }
    a_flt(x, "texrepeat", m->texrepeat, d.texrepeat, 2);
    a_bool(x, "texuniform", m->texuniform, 0);
    a_flt(x, "emission", &m->emission, &d.emission, 1);
    a_flt(x, "specular", &m->specular, &d.specular, 1);
    a_flt(x, "shininess", &m->shininess, &d.shininess, 1);
    a_flt(x, "reflectance", &m->reflectance, &d.reflectance, 1);
    a_flt(x, "rgba", m->rgba, d.rgba, 4);
    put(x, "/>\n");
  }
  x->depth--;
  open_tag(x, "/asset");
  put(x, ">\n");
}

static void write_contact(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_PAIR) && !any_of(s, mjOBJ_EXCLUDE)) {
    return;
  }
  open_tag(x, "contact");
  put(x, ">\n");
  x->depth++;
  FOR_EACH(n, s, mjOBJ_PAIR) {
    const mjsPair* p = &n->u.pair;
    open_tag(x, "pair");
    a_str(x, "name", n->name);
    a_str(x, "geom1", p->geomname1);
    a_str(x, "geom2", p->geomname2);
    if (p->condim >= 0) {
      a_int(x, "condim", &p->condim, NULL, 1);
    }
    if (!isnan(p->friction[0])) {
      a_num(x, "friction", p->friction, NULL, 5);
    }
    if (!isnan(p->solref[0])) {
      a_num(x, "solref", p->solref, NULL, mjNREF);
    }
    static const double zero2[2] = {0, 0};
    a_num(x, "solreffriction", p->solreffriction, zero2, mjNREF);
    if (!isnan(p->solimp[0])) {
      a_num(x, "solimp", p->solimp, NULL, mjNIMP);
    }
    if (!isnan(p->margin)) {
      a_num(x, "margin", &p->margin, NULL, 1);
    }
    if (!isnan(p->gap)) {
      a_num(x, "gap", &p->gap, NULL, 1);
    }
    put(x, "/>\n");
  }
  FOR_EACH(n, s, mjOBJ_EXCLUDE) {
    open_tag(x, "exclude");
    a_str(x, "name", n->name);
    a_str(x, "body1", n->u.exclude.bodyname1);
    a_str(x, "body2", n->u.exclude.bodyname2);
    put(x, "/>\n");
  }
  x->depth--;
  open_tag(x, "/contact");
  put(x, ">\n");
}

static void write_equality(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_EQUALITY)) {
    return;
  }
  open_tag(x, "equality");
  put(x, ">\n");
  x->depth++;
  FOR_EACH(n, s, mjOBJ_EQUALITY) {
    const mjsEquality* e = &n->u.equality;
    mjsEquality d;
    mjs_defaultEquality(&d);
    static const char* const tags[] = {"connect", "weld", "joint", "tendon"};
    if (e->type > mjEQ_TENDON) {
      snprintf(x->err, sizeof(x->err), "this equality type");
      break;
    }
    open_tag(x, tags[e->type]);
    a_str(x, "name", n->name);
    if (e->type == mjEQ_CONNECT || e->type == mjEQ_WELD) {
      int sites = e->objtype == mjOBJ_SITE;
      a_str(x, sites ? "site1" : "body1", e->name1);
      a_str(x, sites ? "site2" : "body2", e->name2);
      if (!sites) {
        a_num(x, "anchor", e->data, d.data, 3);
        if (e->type == mjEQ_WELD) {
          a_num(x, "relpose", e->data + 3, d.data + 3, 7);
        }
      }
      if (e->type == mjEQ_WELD) {
        a_num(x, "torquescale", e->data + 10, d.data + 10, 1);
      }
    } else {
      int joint = e->type == mjEQ_JOINT;
      a_str(x, joint ? "joint1" : "tendon1", e->name1);
      a_str(x, joint ? "joint2" : "tendon2", e->name2);
      a_num(x, "polycoef", e->data, d.data, 5);
    }
    a_bool(x, "active", e->active, 1);
    a_num(x, "solref", e->solref, d.solref, mjNREF);
    a_num(x, "solimp", e->solimp, d.solimp, mjNIMP);
    put(x, "/>\n");
  }
  x->depth--;
  open_tag(x, "/equality");
  put(x, ">\n");
}

static void write_tendons(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_TENDON)) {
    return;
  }
  open_tag(x, "tendon");
  put(x, ">\n");
  x->depth++;
  FOR_EACH(n, s, mjOBJ_TENDON) {
    const mjsTendon* t = &n->u.tendon;
    mjsTendon d;
    mjs_defaultTendon(&d);
    int spatial = 0;
    for (const tnsNode* w = n->first; w; w = w->sib_next) {
      spatial |= w->u.wrap.type != mjWRAP_JOINT;
    }
    const char* tag = spatial ? "spatial" : "fixed";
    open_tag(x, tag);
    a_str(x, "name", n->name);
    a_tri(x, "limited", t->limited);
    a_num(x, "range", t->range, d.range, 2);
    a_tri(x, "actuatorfrclimited", t->actfrclimited);
    a_num(x, "actuatorfrcrange", t->actfrcrange, d.actfrcrange, 2);
    a_num(x, "solreflimit", t->solref_limit, d.solref_limit, mjNREF);
    a_num(x, "solimplimit", t->solimp_limit, d.solimp_limit, mjNIMP);
    a_num(x, "solreffriction", t->solref_friction, d.solref_friction, mjNREF);
    a_num(x, "solimpfriction", t->solimp_friction, d.solimp_friction, mjNIMP);
    a_num(x, "frictionloss", &t->frictionloss, &d.frictionloss, 1);
    a_num(x, "springlength", t->springlength, d.springlength, 2);
    a_num(x, "margin", &t->margin, &d.margin, 1);
    a_num(x, "stiffness", t->stiffness, d.stiffness, 1);
    a_num(x, "damping", t->damping, d.damping, 1);
    a_num(x, "armature", &t->armature, &d.armature, 1);
    if (spatial) {
      a_num(x, "width", &t->width, &d.width, 1);
      a_str(x, "material", t->material);
      a_flt(x, "rgba", t->rgba, d.rgba, 4);
    }
    a_int(x, "group", &t->group, &d.group, 1);
    a_vec(x, "user", t->userdata);
    put(x, ">\n");
    x->depth++;
    for (const tnsNode* w = n->first; w; w = w->sib_next) {
      switch (w->u.wrap.type) {
        case mjWRAP_JOINT:
          open_tag(x, "joint");
          a_str(x, "joint", w->wrap_target);
          a_num(x, "coef", &w->wrap_prm, NULL, 1);
          break;
        case mjWRAP_PULLEY:
          open_tag(x, "pulley");
          a_num(x, "divisor", &w->wrap_prm, NULL, 1);
          break;
        case mjWRAP_SITE:
          open_tag(x, "site");
          a_str(x, "site", w->wrap_target);
          break;
        default:
          open_tag(x, "geom");
          a_str(x, "geom", w->wrap_target);
          a_str(x, "sidesite", w->wrap_side);
          break;
      }
      put(x, "/>\n");
    }
    x->depth--;
    put(x, "%*s</%s>\n", 2 * x->depth, "", tag);
  }
  x->depth--;
  open_tag(x, "/tendon");
  put(x, ">\n");
}

static void write_actuators(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_ACTUATOR)) {
    return;
  }
  open_tag(x, "actuator");
  put(x, ">\n");
  x->depth++;
  FOR_EACH(n, s, mjOBJ_ACTUATOR) {
    const mjsActuator* a = &n->u.actuator;
    mjsActuator d;
    mjs_defaultActuator(&d);
    if (a->inheritrange != 0) {
      snprintf(x->err, sizeof(x->err), "actuators with inheritrange");
      break;
    }
    // the types MJCF's <general> names (dcmotor, pid and so3 are not written yet)
    static const char* const dyn[] = {"none", "integrator", "filter", "filterexact", "muscle"};
    static const char* const gain[] = {"fixed", "affine", "muscle"};
    static const char* const bias[] = {"none", "affine", "muscle"};
    if ((int)a->dyntype > mjDYN_MUSCLE || (int)a->gaintype > mjGAIN_MUSCLE ||
        (int)a->biastype > mjBIAS_MUSCLE) {
      snprintf(x->err, sizeof(x->err), "actuators with user, dcmotor, pid or so3 types");
      break;
    }
    static const char* const trn[] = {"joint", "jointinparent", "cranksite",
                                      "site",  "tendon",        "body"};
    open_tag(x, "general");
    a_str(x, "name", n->name);
    if (a->trntype >= 0 && a->trntype <= mjTRN_BODY) {
      a_str(x, trn[a->trntype], a->target);
    }
    a_str(x, "refsite", a->refsite);
    a_str(x, "slidersite", a->slidersite);
    a_int(x, "group", &a->group, &d.group, 1);
    a_tri(x, "ctrllimited", a->ctrllimited);
    a_tri(x, "forcelimited", a->forcelimited);
    a_tri(x, "actlimited", a->actlimited);
    a_num(x, "ctrlrange", a->ctrlrange, d.ctrlrange, 2);
    a_num(x, "forcerange", a->forcerange, d.forcerange, 2);
    a_num(x, "actrange", a->actrange, d.actrange, 2);
    a_num(x, "lengthrange", a->lengthrange, d.lengthrange, 2);
    a_num(x, "gear", a->gear, d.gear, 6);
    a_num(x, "cranklength", &a->cranklength, &d.cranklength, 1);
    a_int(x, "actdim", &a->actdim, &d.actdim, 1);
    a_kw(x, "dyntype", a->dyntype, d.dyntype, dyn, 5);
    a_kw(x, "gaintype", a->gaintype, d.gaintype, gain, 3);
    a_kw(x, "biastype", a->biastype, d.biastype, bias, 3);
    a_num(x, "dynprm", a->dynprm, d.dynprm, mjNDYN);
    a_num(x, "gainprm", a->gainprm, d.gainprm, mjNGAIN);
    a_num(x, "biasprm", a->biasprm, d.biasprm, mjNBIAS);
    a_bool(x, "actearly", a->actearly, 0);
    a_vec(x, "user", a->userdata);
    put(x, "/>\n");
  }
  x->depth--;
  open_tag(x, "/actuator");
  put(x, ">\n");
}

/* how a sensor element names its objects */
enum {
  S_NONE = 0,
  S_SITE,
  S_JOINT,
  S_TENDON,
  S_ACTUATOR,
  S_BODY,
  S_FRAME,
  S_CAMPROJ,
  S_INSIDE,
  S_GEOMS,
  S_USER
};

/* sensor elements by type */
static const struct {
  int type;
  const char* tag;
  int obj;
} sensor_tags[] = {
    {mjSENS_TOUCH, "touch", S_SITE},
    {mjSENS_ACCELEROMETER, "accelerometer", S_SITE},
    {mjSENS_VELOCIMETER, "velocimeter", S_SITE},
    {mjSENS_GYRO, "gyro", S_SITE},
    {mjSENS_FORCE, "force", S_SITE},
    {mjSENS_TORQUE, "torque", S_SITE},
    {mjSENS_MAGNETOMETER, "magnetometer", S_SITE},
    {mjSENS_RANGEFINDER, "rangefinder", S_SITE},
    {mjSENS_CAMPROJECTION, "camprojection", S_CAMPROJ},
    {mjSENS_JOINTPOS, "jointpos", S_JOINT},
    {mjSENS_JOINTVEL, "jointvel", S_JOINT},
    {mjSENS_TENDONPOS, "tendonpos", S_TENDON},
    {mjSENS_TENDONVEL, "tendonvel", S_TENDON},
    {mjSENS_ACTUATORPOS, "actuatorpos", S_ACTUATOR},
    {mjSENS_ACTUATORVEL, "actuatorvel", S_ACTUATOR},
    {mjSENS_ACTUATORFRC, "actuatorfrc", S_ACTUATOR},
    {mjSENS_JOINTACTFRC, "jointactuatorfrc", S_JOINT},
    {mjSENS_TENDONACTFRC, "tendonactuatorfrc", S_TENDON},
    {mjSENS_BALLQUAT, "ballquat", S_JOINT},
    {mjSENS_BALLANGVEL, "ballangvel", S_JOINT},
    {mjSENS_JOINTLIMITPOS, "jointlimitpos", S_JOINT},
    {mjSENS_JOINTLIMITVEL, "jointlimitvel", S_JOINT},
    {mjSENS_JOINTLIMITFRC, "jointlimitfrc", S_JOINT},
    {mjSENS_TENDONLIMITPOS, "tendonlimitpos", S_TENDON},
    {mjSENS_TENDONLIMITVEL, "tendonlimitvel", S_TENDON},
    {mjSENS_TENDONLIMITFRC, "tendonlimitfrc", S_TENDON},
    {mjSENS_FRAMEPOS, "framepos", S_FRAME},
    {mjSENS_FRAMEQUAT, "framequat", S_FRAME},
    {mjSENS_FRAMEXAXIS, "framexaxis", S_FRAME},
    {mjSENS_FRAMEYAXIS, "frameyaxis", S_FRAME},
    {mjSENS_FRAMEZAXIS, "framezaxis", S_FRAME},
    {mjSENS_FRAMELINVEL, "framelinvel", S_FRAME},
    {mjSENS_FRAMEANGVEL, "frameangvel", S_FRAME},
    {mjSENS_FRAMELINACC, "framelinacc", S_FRAME},
    {mjSENS_FRAMEANGACC, "frameangacc", S_FRAME},
    {mjSENS_SUBTREECOM, "subtreecom", S_BODY},
    {mjSENS_SUBTREELINVEL, "subtreelinvel", S_BODY},
    {mjSENS_SUBTREEANGMOM, "subtreeangmom", S_BODY},
    {mjSENS_INSIDESITE, "insidesite", S_INSIDE},
    {mjSENS_GEOMDIST, "distance", S_GEOMS},
    {mjSENS_GEOMNORMAL, "normal", S_GEOMS},
    {mjSENS_GEOMFROMTO, "fromto", S_GEOMS},
    {mjSENS_E_POTENTIAL, "e_potential", S_NONE},
    {mjSENS_E_KINETIC, "e_kinetic", S_NONE},
    {mjSENS_CLOCK, "clock", S_NONE},
    {mjSENS_USER, "user", S_USER},
};

/* the MJCF name of an object type */
static const char* obj_word(int type) {
  switch (type) {
    case mjOBJ_BODY: return "body";
    case mjOBJ_XBODY: return "xbody";
    case mjOBJ_JOINT: return "joint";
    case mjOBJ_DOF: return "dof";
    case mjOBJ_GEOM: return "geom";
    case mjOBJ_SITE: return "site";
    case mjOBJ_CAMERA: return "camera";
    case mjOBJ_LIGHT: return "light";
    case mjOBJ_MESH: return "mesh";
    case mjOBJ_HFIELD: return "hfield";
    case mjOBJ_MATERIAL: return "material";
    case mjOBJ_TENDON: return "tendon";
    case mjOBJ_ACTUATOR: return "actuator";
    case mjOBJ_SENSOR: return "sensor";
    case mjOBJ_EQUALITY: return "equality";
    case mjOBJ_PAIR: return "pair";
    case mjOBJ_EXCLUDE: return "exclude";
    case mjOBJ_NUMERIC: return "numeric";
    case mjOBJ_TEXT: return "text";
    case mjOBJ_TUPLE: return "tuple";
    case mjOBJ_KEY: return "key";
    default: return "unknown";
  }
}

static void write_sensors(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_SENSOR)) {
    return;
  }
  open_tag(x, "sensor");
  put(x, ">\n");
  x->depth++;
  FOR_EACH(n, s, mjOBJ_SENSOR) {
    const mjsSensor* e = &n->u.sensor;
    int row = -1;
    for (int i = 0; i < (int)(sizeof(sensor_tags) / sizeof(sensor_tags[0])); i++) {
      if (sensor_tags[i].type == (int)e->type) {
        row = i;
      }
    }
    if (row < 0) {
      snprintf(x->err, sizeof(x->err), "this sensor type (%d)", (int)e->type);
      break;
    }
    open_tag(x, sensor_tags[row].tag);
    a_str(x, "name", n->name);
    switch (sensor_tags[row].obj) {
      case S_SITE: a_str(x, "site", e->objname); break;
      case S_JOINT: a_str(x, "joint", e->objname); break;
      case S_TENDON: a_str(x, "tendon", e->objname); break;
      case S_ACTUATOR: a_str(x, "actuator", e->objname); break;
      case S_BODY: a_str(x, "body", e->objname); break;
      case S_CAMPROJ:
        a_str(x, "site", e->objname);
        a_str(x, "camera", e->refname);
        break;
      case S_INSIDE:
        put(x, " objtype=\"%s\"", obj_word(e->objtype));
        a_str(x, "objname", e->objname);
        a_str(x, "site", e->refname);
        break;
      case S_GEOMS:
        a_str(x, e->objtype == mjOBJ_GEOM ? "geom1" : "body1", e->objname);
        a_str(x, e->reftype == mjOBJ_GEOM ? "geom2" : "body2", e->refname);
        break;
      case S_FRAME:
      case S_USER:
        if (sensor_tags[row].obj == S_USER || e->objtype != mjOBJ_UNKNOWN) {
          put(x, " objtype=\"%s\"", obj_word(e->objtype));
        }
        a_str(x, "objname", e->objname);
        if (sensor_tags[row].obj == S_FRAME && tn__specText(e->refname)[0]) {
          put(x, " reftype=\"%s\"", obj_word(e->reftype));
          a_str(x, "refname", e->refname);
        }
        if (sensor_tags[row].obj == S_USER) {
          static const char* const dt[] = {"real", "positive", "axis", "quaternion"};
          static const char* const st[] = {"none", "pos", "vel", "acc"};
          a_kw(x, "datatype", e->datatype, -1, dt, 4);
          a_kw(x, "needstage", e->needstage, -1, st, 4);
          a_int(x, "dim", &e->dim, NULL, 1);
        }
        break;
      default: break;
    }
    static const double zero = 0;
    a_num(x, "cutoff", &e->cutoff, &zero, 1);
    a_num(x, "noise", &e->noise, &zero, 1);
    a_vec(x, "user", e->userdata);
    put(x, "/>\n");
  }
  x->depth--;
  open_tag(x, "/sensor");
  put(x, ">\n");
}

static void write_custom(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_NUMERIC) && !any_of(s, mjOBJ_TEXT) && !any_of(s, mjOBJ_TUPLE)) {
    return;
  }
  open_tag(x, "custom");
  put(x, ">\n");
  x->depth++;
  FOR_EACH(n, s, mjOBJ_NUMERIC) {
    open_tag(x, "numeric");
    a_str(x, "name", n->name);
    static const int unset = -1;
    a_int(x, "size", &n->u.numeric.size, &unset, 1);
    a_vec(x, "data", n->u.numeric.data);
    put(x, "/>\n");
  }
  FOR_EACH(n, s, mjOBJ_TEXT) {
    open_tag(x, "text");
    a_str(x, "name", n->name);
    a_str(x, "data", n->u.text.data);
    put(x, "/>\n");
  }
  FOR_EACH(n, s, mjOBJ_TUPLE) {
    const tnsHandle* types = n->u.tuple.objtype;
    const tnsHandle* names = n->u.tuple.objname;
    const tnsHandle* prms = n->u.tuple.objprm;
    open_tag(x, "tuple");
    a_str(x, "name", n->name);
    put(x, ">\n");
    x->depth++;
    for (int i = 0; i < types->n && i < names->n; i++) {
      open_tag(x, "element");
      put(x, " objtype=\"%s\"", obj_word(((const int*)types->data)[i]));
      put_escaped(x, "objname", ((char**)names->data)[i]);
      if (i < prms->n) {
        a_num(x, "prm", (const double*)prms->data + i, NULL, 1);
      }
      put(x, "/>\n");
    }
    x->depth--;
    open_tag(x, "/tuple");
    put(x, ">\n");
  }
  x->depth--;
  open_tag(x, "/custom");
  put(x, ">\n");
}

static void write_keys(tnsXml* x, const tnsSpec* s) {
  if (!any_of(s, mjOBJ_KEY)) {
    return;
  }
  open_tag(x, "keyframe");
  put(x, ">\n");
  x->depth++;
  FOR_EACH(n, s, mjOBJ_KEY) {
    const mjsKey* k = &n->u.key;
    static const double zero = 0;
    open_tag(x, "key");
    a_str(x, "name", n->name);
    a_num(x, "time", &k->time, &zero, 1);
    a_vec(x, "qpos", k->qpos);
    a_vec(x, "qvel", k->qvel);
    a_vec(x, "act", k->act);
    a_vec(x, "ctrl", k->ctrl);
    a_vec(x, "mpos", k->mpos);
    a_vec(x, "mquat", k->mquat);
    put(x, "/>\n");
  }
  x->depth--;
  open_tag(x, "/keyframe");
  put(x, ">\n");
}

/* the whole document; the text in x (x->err set on failure) */
static void write_spec(tnsXml* x, const tnsSpec* s) {
  const mjSpec* p = &s->root->u.spec;
  for (const tnsNode* n = s->head; n; n = n->next) {
    if (!n->deleted && !n->hidden &&
        (n->type == mjOBJ_FLEX || n->type == mjOBJ_PLUGIN || n->type == mjOBJ_SKIN)) {
      snprintf(x->err, sizeof(x->err), "flexes, skins and plugins");
      return;
    }
  }
  put(x, "<mujoco");
  put_escaped(x, "model", tn__specText(p->modelname));
  put(x, ">\n");
  x->depth = 1;
  write_settings(x, p);
  write_custom(x, s);
  write_assets(x, s);
  open_tag(x, "worldbody");
  put(x, ">\n");
  x->depth++;
  write_children(x, s->world);
  x->depth--;
  open_tag(x, "/worldbody");
  put(x, ">\n");
  write_contact(x, s);
  write_equality(x, s);
  write_tendons(x, s);
  write_actuators(x, s);
  write_sensors(x, s);
  write_keys(x, s);
  put(x, "</mujoco>\n");
}

/* the MJCF text of a spec (malloc'ed; NULL with a message) */
static char* spec_text(const mjSpec* spec, size_t* len, char* error, int error_sz) {
  tnsXml x = {0};
  write_spec(&x, TNS_SPEC(spec));
  if (x.err[0]) {
    if (error && error_sz > 0) {
      snprintf(error, (size_t)error_sz, "mj_saveXML: %s cannot be written yet", x.err);
    }
    free(x.buf);
    return NULL;
  }
  *len = x.n;
  return x.buf;
}

int mj_saveXMLString(const mjSpec* s, char* xml, int xml_sz, char* error, int error_sz) {
  size_t len = 0;
  char* text = s ? spec_text(s, &len, error, error_sz) : NULL;
  if (!text) {
    return -1;
  }
  if (!xml || xml_sz <= 0 || len + 1 > (size_t)xml_sz) {
    free(text);
    if (error && error_sz > 0) {
      snprintf(error, (size_t)error_sz, "mj_saveXMLString: output buffer too small");
    }
    return (int)len + 1;
  }
  memcpy(xml, text, len + 1);
  free(text);
  return 0;
}

int mj_saveXML(const mjSpec* s, const char* filename, char* error, int error_sz) {
  size_t len = 0;
  char* text = s ? spec_text(s, &len, error, error_sz) : NULL;
  if (!text) {
    return -1;
  }
  FILE* f = fopen(filename, "wb");
  int ok = f && fwrite(text, 1, len, f) == len;
  if (f && fclose(f) != 0) {
    ok = 0;
  }
  free(text);
  if (!ok) {
    if (error && error_sz > 0) {
      snprintf(error, (size_t)error_sz, "mj_saveXML: cannot write '%s'", filename);
    }
    return -1;
  }
  return 0;
}
