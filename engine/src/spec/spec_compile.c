/* spec/spec_compile.c — mj_compile: the public element tree of a spec is translated into
 * the compiler's intermediate model (compiler/spec.h), the same one the MJCF reader fills,
 * and compiled by the same code, so a model built with mjs_* calls compiles to exactly the
 * numbers of the equivalent MJCF file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/mesh.h"
#include "compiler/spec.h"
#include "spec/spec_tree.h"
#include "util/file_source.h"

/* translation state: the spec, the intermediate model, the error */
typedef struct tnsOut_ {
  tnsSpec* s;
  tnSpec* t;
  int failed;
} tnsOut;

/* fail with a message in the spec's error */
static int fail(tnsOut* o, const char* fmt, const char* a, const char* b) {
  char msg[512];
  snprintf(msg, sizeof(msg), fmt, a ? a : "", b ? b : "");
  tn__specError(o->s, "%s", msg);
  o->failed = 1;
  return 0;
}

/* a handle's text in the intermediate model's pool; NULL when empty */
static const char* text(tnsOut* o, const void* h) {
  const char* v = tn__specText(h);
  return v[0] ? tn__poolStrdup(&o->t->pool, v) : NULL;
}

/* whether an element names an engine plugin (not supported by mj_compile yet) */
static int uses_plugin(const mjsPlugin* p) {
  return tn__specText(p->name)[0] || tn__specText(p->plugin_name)[0];
}

/* where an element came from, for the compiler's messages: its kind and its name */
static const tnSrcPos* src_named(tnsOut* o, const char* element, const void* name) {
  tnSrcPos* p = tn__poolAlloc(&o->t->pool, sizeof(tnSrcPos));
  if (!p) {
    return NULL;
  }
  p->file = o->t->filename;
  p->element = element;
  const char* n = tn__specText(name);
  if (n[0]) {
    size_t len = strlen(element) + strlen(n) + 4;
    char* both = tn__poolAlloc(&o->t->pool, len);
    if (both) {
      snprintf(both, len, "%s \"%s\"", element, n);
      p->element = both;
    }
  }
  return p;
}

/* the same without a name */
static const tnSrcPos* src(tnsOut* o, const char* element) {
  return src_named(o, element, NULL);
}

/* a double array handle copied into the pool (n: its length, -1 when `absent_is_minus1` and
 * empty) */
static mjtNum* doubles(tnsOut* o, const void* h, int* n) {
  int len;
  const double* v = mjs_getDouble(h, &len);
  *n = len;
  if (!len) {
    return NULL;
  }
  mjtNum* out = tn__poolAlloc(&o->t->pool, sizeof(mjtNum) * (size_t)len);
  if (out) {
    memcpy(out, v, sizeof(mjtNum) * (size_t)len);
  }
  return out;
}

/* user data */
static void user(tnsOut* o, tnUser* u, const void* h) {
  u->v = doubles(o, h, &u->n);
}

/* push onto a vector of the intermediate model */
static void* push(tnsOut* o, tnVec* v, size_t size) {
  void* p = tn__vecPush(v, size);
  if (!p) {
    fail(o, "out of memory", NULL, NULL);
  }
  return p;
}

/* an orientation as the compiler takes it: quat, or the alternative */
static void orient(tnOrientation* out, const double quat[4], const mjsOrientation* alt) {
  memset(out, 0, sizeof(*out));
  switch (alt->type) {
    case mjORIENTATION_AXISANGLE:
      out->kind = TN_ORIENT_AXISANGLE;
      memcpy(out->v, alt->axisangle, 4 * sizeof(double));
      return;
    case mjORIENTATION_XYAXES:
      out->kind = TN_ORIENT_XYAXES;
      memcpy(out->v, alt->xyaxes, 6 * sizeof(double));
      return;
    case mjORIENTATION_ZAXIS:
      out->kind = TN_ORIENT_ZAXIS;
      memcpy(out->v, alt->zaxis, 3 * sizeof(double));
      return;
    case mjORIENTATION_EULER:
      out->kind = TN_ORIENT_EULER;
      memcpy(out->v, alt->euler, 3 * sizeof(double));
      return;
    default:
      if (quat[0] == 1 && quat[1] == 0 && quat[2] == 0 && quat[3] == 0) {
        out->kind = TN_ORIENT_NONE;
      } else {
        out->kind = TN_ORIENT_QUAT;
        memcpy(out->v, quat, 4 * sizeof(double));
      }
  }
}

/* the accumulated pose of a frame and its enclosing frames */
static int frame_pose(tnsOut* o, const tnsNode* f, tnFrame* out) {
  const tnFrame none = {0, {0, 0, 0}, {1, 0, 0, 0}};
  *out = none;
  if (!f) {
    return 1;
  }
  tnFrame outer;
  if (!frame_pose(o, f->frame, &outer)) {
    return 0;
  }
  tnOrientation ori;
  orient(&ori, f->u.frame.quat, &f->u.frame.alt);
  mjtNum quat[4] = {1, 0, 0, 0};
  const tnCompilerSettings* cs = &o->t->compiler;
  char why[256] = "";
  if (ori.kind != TN_ORIENT_NONE &&
      !tn__orientationToQuat(quat, &ori, cs->degree, cs->eulerseq, why, sizeof(why))) {
    return fail(o, "frame '%s': %s", tn__specText(f->name), why);
  }
  out->active = 1;
  if (outer.active) {
    mju_rotVecQuat(out->pos, f->u.frame.pos, outer.quat);
    mju_addTo3(out->pos, outer.pos);
    mju_mulQuat(out->quat, outer.quat, quat);
  } else {
    mju_copy3(out->pos, f->u.frame.pos);
    mju_copy4(out->quat, quat);
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * settings
 * ------------------------------------------------------------------------------------- */

static void settings(tnsOut* o) {
  const mjSpec* p = &o->s->root->u.spec;
  tnSpec* t = o->t;
  const char* name = tn__specText(p->modelname);
  t->modelname = tn__poolStrdup(&t->pool, name);
  tnCompilerSettings* c = &t->compiler;
  c->autolimits = p->compiler.autolimits;
  c->boundmass = p->compiler.boundmass;
  c->boundinertia = p->compiler.boundinertia;
  c->settotalmass = p->compiler.settotalmass;
  c->balanceinertia = p->compiler.balanceinertia;
  c->fitaabb = p->compiler.fitaabb;
  c->degree = p->compiler.degree;
  memcpy(c->eulerseq, p->compiler.eulerseq, 3);
  c->discardvisual = p->compiler.discardvisual;
  c->fusestatic = p->compiler.fusestatic;
  c->inertiafromgeom = (int)p->compiler.inertiafromgeom;
  c->inertiagrouprange[0] = p->compiler.inertiagrouprange[0];
  c->inertiagrouprange[1] = p->compiler.inertiagrouprange[1];
  c->alignfree = p->compiler.alignfree;
  c->LRopt = p->compiler.LRopt;
  c->strippath = p->strippath;
  c->meshdir = text(o, p->compiler.meshdir);
  c->texturedir = text(o, p->compiler.texturedir);
  t->opt = p->option;
  t->memory = p->memory;
  t->njmax = p->njmax;
  t->nconmax = p->nconmax;
  t->nstack = (int)p->nstack;
  t->nuserdata = p->nuserdata;
  t->nkey = p->nkey;
  t->nuser_body = p->nuser_body;
  t->nuser_jnt = p->nuser_jnt;
  t->nuser_geom = p->nuser_geom;
  t->nuser_site = p->nuser_site;
  t->nuser_cam = p->nuser_cam;
  t->nuser_tendon = p->nuser_tendon;
  t->nuser_actuator = p->nuser_actuator;
  t->nuser_sensor = p->nuser_sensor;
  t->stat_meaninertia = p->stat.meaninertia;
  t->stat_meanmass = p->stat.meanmass;
  t->stat_meansize = p->stat.meansize;
  t->stat_extent = p->stat.extent;
  mju_copy3(t->stat_center, p->stat.center);
}

/* ---------------------------------------------------------------------------------------
 * the body tree
 * ------------------------------------------------------------------------------------- */

static void joint(tnsOut* o, const tnsNode* n, int b) {
  const mjsJoint* j = &n->u.joint;
  tnSpecJoint* d = push(o, &o->t->joints, sizeof(tnSpecJoint));
  if (!d || !frame_pose(o, n->frame, &d->frame)) {
    return;
  }
  d->type = j->type;
  d->group = j->group;
  mju_copy3(d->pos, j->pos);
  mju_copy3(d->axis, j->axis);
  d->ref = j->ref;
  d->springref = j->springref;
  d->stiffness = j->stiffness[0];
  d->damping = j->damping[0];
  if (j->stiffness[1] != 0 || j->stiffness[2] != 0 || j->damping[1] != 0 || j->damping[2] != 0) {
    fail(o, "joint '%s': polynomial stiffness and damping are not supported yet%s",
         tn__specText(n->name), "");
  }
  d->armature = j->armature;
  d->frictionloss = j->frictionloss;
  d->margin = j->margin;
  d->springdamper[0] = j->springdamper[0];
  d->springdamper[1] = j->springdamper[1];
  d->limited = j->limited;
  d->range[0] = j->range[0];
  d->range[1] = j->range[1];
  d->actfrclimited = j->actfrclimited;
  d->actfrcrange[0] = j->actfrcrange[0];
  d->actfrcrange[1] = j->actfrcrange[1];
  d->actgravcomp = j->actgravcomp;
  mju_copy(d->solref_limit, j->solref_limit, mjNREF);
  mju_copy(d->solimp_limit, j->solimp_limit, mjNIMP);
  mju_copy(d->solref_friction, j->solref_friction, mjNREF);
  mju_copy(d->solimp_friction, j->solimp_friction, mjNIMP);
  user(o, &d->user, j->userdata);
  d->align = j->align;
  d->name = text(o, n->name);
  d->body = b;
  d->src = src_named(o, j->type == mjJNT_FREE ? "freejoint" : "joint", n->name);
}

static void geom(tnsOut* o, const tnsNode* n, int b) {
  const mjsGeom* g = &n->u.geom;
  tnSpecGeom* d = push(o, &o->t->geoms, sizeof(tnSpecGeom));
  if (!d || !frame_pose(o, n->frame, &d->frame)) {
    return;
  }
  d->type = g->type;
  d->contype = g->contype;
  d->conaffinity = g->conaffinity;
  d->condim = g->condim;
  d->group = g->group;
  d->priority = g->priority;
  mju_copy3(d->size, g->size);
  mju_copy3(d->friction, g->friction);
  d->mass = g->mass;
  d->density = g->density;
  d->shellinertia = g->typeinertia == mjINERTIA_SHELL;
  d->solmix = g->solmix;
  mju_copy(d->solref, g->solref, mjNREF);
  mju_copy(d->solimp, g->solimp, mjNIMP);
  d->margin = g->margin;
  d->gap = g->gap;
  d->has_fromto = !isnan(g->fromto[0]);
  mju_copy(d->fromto, g->fromto, 6);
  mju_copy3(d->pos, g->pos);
  orient(&d->orient, g->quat, &g->alt);
  d->material = text(o, g->material);
  d->hfield = text(o, g->hfieldname);
  d->mesh = text(o, g->meshname);
  d->fitscale = g->fitscale;
  memcpy(d->rgba, g->rgba, sizeof(d->rgba));
  d->fluidshape = g->fluid_ellipsoid != 0;
  mju_copy(d->fluidcoef, g->fluid_coefs, 5);
  user(o, &d->user, g->userdata);
  d->name = text(o, n->name);
  d->body = b;
  d->src = src_named(o, "geom", n->name);
  if (uses_plugin(&g->plugin) || g->adhesion != 0 || g->surfacevel[0] != 0 ||
      g->surfacevel[1] != 0 || g->surfacevel[2] != 0 || g->surfacevel[3] != 0 ||
      g->surfacevel[4] != 0 || g->surfacevel[5] != 0) {
    fail(o, "geom '%s': plugins, adhesion and surfacevel are not supported yet%s",
         tn__specText(n->name), "");
  }
}

static void site(tnsOut* o, const tnsNode* n, int b) {
  const mjsSite* s = &n->u.site;
  tnSpecSite* d = push(o, &o->t->sites, sizeof(tnSpecSite));
  if (!d || !frame_pose(o, n->frame, &d->frame)) {
    return;
  }
  d->type = s->type;
  d->group = s->group;
  mju_copy3(d->size, s->size);
  d->has_fromto = !isnan(s->fromto[0]);
  mju_copy(d->fromto, s->fromto, 6);
  mju_copy3(d->pos, s->pos);
  orient(&d->orient, s->quat, &s->alt);
  d->material = text(o, s->material);
  memcpy(d->rgba, s->rgba, sizeof(d->rgba));
  user(o, &d->user, s->userdata);
  d->name = text(o, n->name);
  d->body = b;
  d->src = src_named(o, "site", n->name);
}

static void camera(tnsOut* o, const tnsNode* n, int b) {
  const mjsCamera* c = &n->u.camera;
  tnSpecCamera* d = push(o, &o->t->cameras, sizeof(tnSpecCamera));
  if (!d || !frame_pose(o, n->frame, &d->frame)) {
    return;
  }
  d->mode = c->mode;
  d->target = text(o, c->targetbody);
  mju_copy3(d->pos, c->pos);
  orient(&d->orient, c->quat, &c->alt);
  d->fovy = c->fovy;
  d->ipd = c->ipd;
  user(o, &d->user, c->userdata);
  d->name = text(o, n->name);
  d->body = b;
  d->src = src_named(o, "camera", n->name);
}

static void light(tnsOut* o, const tnsNode* n, int b) {
  const mjsLight* l = &n->u.light;
  tnSpecLight* d = push(o, &o->t->lights, sizeof(tnSpecLight));
  if (!d || !frame_pose(o, n->frame, &d->frame)) {
    return;
  }
  d->mode = l->mode;
  d->target = text(o, l->targetbody);
  d->directional = l->type == mjLIGHT_DIRECTIONAL;
  d->castshadow = l->castshadow;
  d->active = l->active;
  mju_copy3(d->pos, l->pos);
  mju_copy3(d->dir, l->dir);
  memcpy(d->attenuation, l->attenuation, sizeof(d->attenuation));
  d->cutoff = l->cutoff;
  d->exponent = l->exponent;
  memcpy(d->ambient, l->ambient, sizeof(d->ambient));
  memcpy(d->diffuse, l->diffuse, sizeof(d->diffuse));
  memcpy(d->specular, l->specular, sizeof(d->specular));
  d->name = text(o, n->name);
  d->body = b;
  d->src = src_named(o, "light", n->name);
}

/* a body's own fields (index b in the intermediate model) */
static void body_fields(tnsOut* o, const tnsNode* n, tnSpecBody* d) {
  const mjsBody* p = &n->u.body;
  d->name = text(o, n->name);
  mju_copy3(d->pos, p->pos);
  orient(&d->orient, p->quat, &p->alt);
  d->mocap = p->mocap;
  d->gravcomp = p->gravcomp;
  user(o, &d->user, p->userdata);
  d->has_inertial = !isnan(p->ipos[0]);
  if (d->has_inertial) {
    mju_copy3(d->ipos, p->ipos);
    orient(&d->iorient, p->iquat, &p->ialt);
    d->mass = p->mass;
    d->has_fullinertia = !isnan(p->fullinertia[0]);
    d->has_diaginertia = !d->has_fullinertia;
    mju_copy3(d->inertia, p->inertia);
    mju_copy(d->fullinertia, p->fullinertia, 6);
    d->inertial_src = src(o, "inertial");
  }
  d->src = src_named(o, n == o->s->world ? "worldbody" : "body", n->name);
  if (uses_plugin(&p->plugin) || p->sleep != mjSLEEP_AUTO) {
    fail(o, "body '%s': plugins and sleep policies are not supported yet%s", tn__specText(n->name),
         "");
  }
}

/* body n at index b and everything below it, in MuJoCo's (depth-first) order */
static void body_tree(tnsOut* o, const tnsNode* n, int b) {
  for (const tnsNode* c = n->first; c && !o->failed; c = c->sib_next) {
    switch (c->type) {
      case mjOBJ_JOINT: joint(o, c, b); break;
      case mjOBJ_GEOM: geom(o, c, b); break;
      case mjOBJ_SITE: site(o, c, b); break;
      case mjOBJ_CAMERA: camera(o, c, b); break;
      case mjOBJ_LIGHT: light(o, c, b); break;
      case mjOBJ_BODY: {
        tnSpecBody* d = push(o, &o->t->bodies, sizeof(tnSpecBody));
        if (!d) {
          return;
        }
        int child = o->t->bodies.n - 1;
        d->parent = b;
        if (!frame_pose(o, c->frame, &d->frame)) {
          return;
        }
        body_fields(o, c, d);
        body_tree(o, c, child);
        break;
      }
      default: break;
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * objects outside the tree
 * ------------------------------------------------------------------------------------- */

/* a file path as the MJCF reader resolves it: model directory, then meshdir */
static const char* asset_path(tnsOut* o, const char* file) {
  if (!file) {
    return NULL;
  }
  const mjSpec* p = &o->s->root->u.spec;
  const char* base = tn__specText(p->modelfiledir);
  const char* dir = o->t->compiler.meshdir;
  const char* slash = strrchr(file, '/');
  if (p->strippath && slash) {
    file = slash + 1;
  }
  char joined[2048];
  if (file[0] == '/') {
    snprintf(joined, sizeof(joined), "%s", file);
  } else if (dir && dir[0] == '/') {
    snprintf(joined, sizeof(joined), "%s/%s", dir, file);
  } else if (dir && dir[0]) {
    snprintf(joined, sizeof(joined), "%s%s%s/%s", base, base[0] ? "/" : "", dir, file);
  } else {
    snprintf(joined, sizeof(joined), "%s%s%s", base, base[0] ? "/" : "", file);
  }
  return tn__poolStrdup(&o->t->pool, joined);
}

static void mesh(tnsOut* o, const tnsNode* n) {
  const mjsMesh* m = &n->u.mesh;
  tnSpecMesh* d = push(o, &o->t->meshes, sizeof(tnSpecMesh));
  if (!d) {
    return;
  }
  mju_copy3(d->scale, m->scale);
  mju_copy3(d->refpos, m->refpos);
  mju_copy4(d->refquat, m->refquat);
  d->inertia = (int)m->inertia;
  d->maxhullvert = m->maxhullvert;
  d->file = text(o, m->file);
  d->path = asset_path(o, d->file);
  d->content_type = text(o, m->content_type);
  const tnsHandle* v = m->uservert;
  const tnsHandle* f = m->userface;
  if (v->n) {
    d->vertex = tn__poolAlloc(&o->t->pool, sizeof(mjtNum) * (size_t)v->n);
    for (int i = 0; d->vertex && i < v->n; i++) {
      d->vertex[i] = ((const float*)v->data)[i];
    }
    d->nvertex = v->n;
  }
  if (f->n) {
    d->face = tn__poolAlloc(&o->t->pool, sizeof(int) * (size_t)f->n);
    if (d->face) {
      memcpy(d->face, f->data, sizeof(int) * (size_t)f->n);
    }
    d->nface = f->n;
  }
  d->name = text(o, n->name);
  d->src = src_named(o, "mesh", n->name);
  if (uses_plugin(&m->plugin)) {
    fail(o, "mesh '%s': mesh plugins are not supported yet%s", tn__specText(n->name), "");
  }
}

static void material(tnsOut* o, const tnsNode* n) {
  const mjsMaterial* m = &n->u.material;
  tnSpecMaterial* d = push(o, &o->t->materials, sizeof(tnSpecMaterial));
  if (!d) {
    return;
  }
  const tnsHandle* tex = m->textures;
  d->texture = tex->n ? tn__poolStrdup(&o->t->pool, ((char**)tex->data)[0]) : NULL;
  if (d->texture && !d->texture[0]) {
    d->texture = NULL;
  }
  memcpy(d->texrepeat, m->texrepeat, sizeof(d->texrepeat));
  d->texuniform = m->texuniform;
  d->emission = m->emission;
  d->specular = m->specular;
  d->shininess = m->shininess;
  d->reflectance = m->reflectance;
  memcpy(d->rgba, m->rgba, sizeof(d->rgba));
  d->name = text(o, n->name);
  d->src = src_named(o, "material", n->name);
}

static void texture(tnsOut* o, const tnsNode* n) {
  const mjsTexture* x = &n->u.texture;
  tnSpecTexture* d = push(o, &o->t->textures, sizeof(tnSpecTexture));
  if (!d) {
    return;
  }
  d->type = x->type;
  d->width = x->width;
  d->height = x->height;
  d->nchannel = x->nchannel;
  d->name = text(o, n->name);
  d->src = src_named(o, "texture", n->name);
  if (tn__specText(x->file)[0]) {
    fail(o, "texture '%s': texture files are not supported by mj_compile yet%s",
         tn__specText(n->name), "");
  }
}

static void hfield(tnsOut* o, const tnsNode* n) {
  const mjsHField* h = &n->u.hfield;
  tnSpecHField* d = push(o, &o->t->hfields, sizeof(tnSpecHField));
  if (!d) {
    return;
  }
  d->nrow = h->nrow;
  d->ncol = h->ncol;
  mju_copy(d->size, h->size, 4);
  const tnsHandle* e = h->userdata;
  if (e->n) {
    d->elevation = tn__poolAlloc(&o->t->pool, sizeof(mjtNum) * (size_t)e->n);
    // the spec holds the model's row order; the intermediate model MJCF's (first row last)
    for (int i = 0; d->elevation && i < e->n; i++) {
      int r = i / h->ncol, k = i % h->ncol;
      int from = h->nrow * h->ncol == e->n ? (h->nrow - 1 - r) * h->ncol + k : i;
      d->elevation[i] = ((const float*)e->data)[from];
    }
    d->nelevation = e->n;
  }
  d->file = text(o, h->file);
  d->path = asset_path(o, d->file);
  d->content_type = text(o, h->content_type);
  d->name = text(o, n->name);
  d->src = src_named(o, "hfield", n->name);
}

/* unspecified pair values (NaN or negative condim: from the geoms) */
static void pair(tnsOut* o, const tnsNode* n) {
  const mjsPair* p = &n->u.pair;
  tnSpecPair* d = push(o, &o->t->pairs, sizeof(tnSpecPair));
  if (!d) {
    return;
  }
  d->has_condim = p->condim >= 0;
  d->has_friction = !isnan(p->friction[0]);
  d->has_solref = !isnan(p->solref[0]);
  d->has_solimp = !isnan(p->solimp[0]);
  d->has_margin = !isnan(p->margin);
  d->has_gap = !isnan(p->gap);
  tnSpecPair builtin;
  tn__specDefaultPair(&builtin);
  d->condim = d->has_condim ? p->condim : builtin.condim;
  mju_copy(d->friction, d->has_friction ? p->friction : builtin.friction, 5);
  mju_copy(d->solref, d->has_solref ? p->solref : builtin.solref, mjNREF);
  mju_copy(d->solreffriction, p->solreffriction, mjNREF);
  mju_copy(d->solimp, d->has_solimp ? p->solimp : builtin.solimp, mjNIMP);
  d->margin = d->has_margin ? p->margin : 0;
  d->gap = d->has_gap ? p->gap : 0;
  d->geom1 = text(o, p->geomname1);
  d->geom2 = text(o, p->geomname2);
  d->name = text(o, n->name);
  d->src = src_named(o, "pair", n->name);
  if (p->adhesion != 0) {
    fail(o, "pair '%s': adhesion is not supported yet%s", tn__specText(n->name), "");
  }
}

static void exclude(tnsOut* o, const tnsNode* n) {
  tnSpecExclude* d = push(o, &o->t->excludes, sizeof(tnSpecExclude));
  if (!d) {
    return;
  }
  d->body1 = text(o, n->u.exclude.bodyname1);
  d->body2 = text(o, n->u.exclude.bodyname2);
  d->name = text(o, n->name);
  d->src = src_named(o, "exclude", n->name);
}

static void equality(tnsOut* o, const tnsNode* n) {
  const mjsEquality* e = &n->u.equality;
  tnSpecEquality* d = push(o, &o->t->equalities, sizeof(tnSpecEquality));
  if (!d) {
    return;
  }
  static const char* const names[] = {"connect", "weld", "joint", "tendon"};
  if (e->type < mjEQ_CONNECT || e->type > mjEQ_TENDON) {
    fail(o, "equality '%s': this equality type is not supported yet%s", tn__specText(n->name), "");
    return;
  }
  d->type = e->type;
  d->active = e->active;
  mju_copy(d->solref, e->solref, mjNREF);
  mju_copy(d->solimp, e->solimp, mjNIMP);
  d->name1 = text(o, e->name1);
  d->name2 = text(o, e->name2);
  d->use_sites = e->objtype == mjOBJ_SITE;
  if (e->type == mjEQ_CONNECT || e->type == mjEQ_WELD) {
    mju_copy3(d->anchor, e->data);
    if (e->type == mjEQ_WELD) {
      mju_copy(d->relpose, e->data + 3, 7);
      d->has_relpose = e->data[6] != 0 || e->data[7] != 0 || e->data[8] != 0 || e->data[9] != 0;
    }
  } else {
    mju_copy(d->polycoef, e->data, 5);
  }
  d->torquescale = e->data[10];
  d->name = text(o, n->name);
  d->src = src_named(o, names[e->type], n->name);
}

static void tendon(tnsOut* o, const tnsNode* n) {
  const mjsTendon* t = &n->u.tendon;
  tnSpecTendon* d = push(o, &o->t->tendons, sizeof(tnSpecTendon));
  if (!d) {
    return;
  }
  d->group = t->group;
  d->limited = t->limited;
  d->range[0] = t->range[0];
  d->range[1] = t->range[1];
  d->actfrclimited = t->actfrclimited;
  d->actfrcrange[0] = t->actfrcrange[0];
  d->actfrcrange[1] = t->actfrcrange[1];
  mju_copy(d->solref_limit, t->solref_limit, mjNREF);
  mju_copy(d->solimp_limit, t->solimp_limit, mjNIMP);
  mju_copy(d->solref_friction, t->solref_friction, mjNREF);
  mju_copy(d->solimp_friction, t->solimp_friction, mjNIMP);
  d->frictionloss = t->frictionloss;
  d->springlength[0] = t->springlength[0];
  d->springlength[1] = t->springlength[1];
  d->width = t->width;
  d->margin = t->margin;
  d->stiffness = t->stiffness[0];
  d->damping = t->damping[0];
  d->armature = t->armature;
  if (t->stiffness[1] != 0 || t->stiffness[2] != 0 || t->damping[1] != 0 || t->damping[2] != 0) {
    fail(o, "tendon '%s': polynomial stiffness and damping are not supported yet%s",
         tn__specText(n->name), "");
  }
  d->material = text(o, t->material);
  memcpy(d->rgba, t->rgba, sizeof(d->rgba));
  user(o, &d->user, t->userdata);
  d->name = text(o, n->name);
  d->wrapadr = o->t->wraps.n;
  d->spatial = 0;
  for (const tnsNode* w = n->first; w; w = w->sib_next) {
    tnSpecWrap* x = push(o, &o->t->wraps, sizeof(tnSpecWrap));
    if (!x) {
      return;
    }
    x->type = w->u.wrap.type;
    x->obj = text(o, w->wrap_target);
    x->side = text(o, w->wrap_side);
    x->prm = w->wrap_prm;
    x->src = src(o, "tendon");
    if (x->type != mjWRAP_JOINT) {
      d->spatial = 1;
    }
  }
  d->wrapnum = o->t->wraps.n - d->wrapadr;
  d->src = src_named(o, d->spatial ? "spatial" : "fixed", n->name);
}

static void actuator(tnsOut* o, const tnsNode* n) {
  const mjsActuator* a = &n->u.actuator;
  tnSpecActuator* d = push(o, &o->t->actuators, sizeof(tnSpecActuator));
  if (!d) {
    return;
  }
  d->group = a->group;
  d->ctrllimited = a->ctrllimited;
  d->forcelimited = a->forcelimited;
  d->actlimited = a->actlimited;
  mju_copy(d->ctrlrange, a->ctrlrange, 2);
  mju_copy(d->forcerange, a->forcerange, 2);
  mju_copy(d->actrange, a->actrange, 2);
  mju_copy(d->lengthrange, a->lengthrange, 2);
  mju_copy(d->gear, a->gear, 6);
  d->cranklength = a->cranklength;
  d->actdim = a->actdim;
  d->dyntype = a->dyntype;
  d->gaintype = a->gaintype;
  d->biastype = a->biastype;
  mju_copy(d->dynprm, a->dynprm, mjNDYN);
  mju_copy(d->gainprm, a->gainprm, mjNGAIN);
  mju_copy(d->biasprm, a->biasprm, mjNBIAS);
  d->actearly = a->actearly;
  d->inheritrange = a->inheritrange;
  user(o, &d->user, a->userdata);
  d->trntype = a->trntype;
  d->target = text(o, a->target);
  d->refsite = text(o, a->refsite);
  d->slidersite = text(o, a->slidersite);
  d->name = text(o, n->name);
  d->plugin = -1;
  d->src =
      a->dyntype == mjDYN_INTEGRATOR ? src(o, "intvelocity") : src_named(o, "actuator", n->name);
  if (uses_plugin(&a->plugin) || a->damping[0] != 0 || a->damping[1] != 0 || a->damping[2] != 0 ||
      a->armature != 0 || a->nsample != 0 || a->delay != 0) {
    fail(o, "actuator '%s': plugins, damping, armature and delays are not supported yet%s",
         tn__specText(n->name), "");
  }
  if ((int)a->dyntype > mjDYN_MUSCLE || (int)a->gaintype > mjGAIN_MUSCLE ||
      (int)a->biastype > mjBIAS_MUSCLE) {
    // as the MJCF reader: dcmotor, pid and so3 types are not implemented, user types need
    // the mjcb_act_* callbacks
    fail(o, "actuator '%s': dcmotor, pid, so3 and user actuator types are not supported yet%s",
         tn__specText(n->name), "");
  }
  if (a->trntype == mjTRN_UNDEFINED || !d->target) {
    fail(o, "actuator '%s': no transmission target%s", tn__specText(n->name), "");
  }
}

static void sensor(tnsOut* o, const tnsNode* n) {
  const mjsSensor* s = &n->u.sensor;
  tnSpecSensor* d = push(o, &o->t->sensors, sizeof(tnSpecSensor));
  if (!d) {
    return;
  }
  d->type = s->type;
  d->name = text(o, n->name);
  d->objtype = s->objtype;
  d->objname = text(o, s->objname);
  d->reftype = s->reftype;
  d->refname = text(o, s->refname);
  memcpy(d->intprm, s->intprm, sizeof(d->intprm));
  d->datatype = s->datatype;
  d->needstage = s->needstage;
  d->dim = s->dim;
  d->cutoff = s->cutoff;
  d->noise = s->noise;
  user(o, &d->user, s->userdata);
  d->src = src_named(o, "sensor", n->name);
  if (uses_plugin(&s->plugin) || s->nsample != 0 || s->delay != 0 || s->interval[0] != 0) {
    fail(o, "sensor '%s': plugins, history, delay and interval are not supported yet%s",
         tn__specText(n->name), "");
  }
}

static void numeric(tnsOut* o, const tnsNode* n) {
  tnSpecNumeric* d = push(o, &o->t->numerics, sizeof(tnSpecNumeric));
  if (!d) {
    return;
  }
  d->name = text(o, n->name);
  d->size = n->u.numeric.size;
  d->data = doubles(o, n->u.numeric.data, &d->ndata);
  d->src = src_named(o, "numeric", n->name);
}

static void textobj(tnsOut* o, const tnsNode* n) {
  tnSpecText* d = push(o, &o->t->texts, sizeof(tnSpecText));
  if (!d) {
    return;
  }
  d->name = text(o, n->name);
  d->data = text(o, n->u.text.data);
  d->src = src_named(o, "text", n->name);
}

static void tuple(tnsOut* o, const tnsNode* n) {
  const mjsTuple* t = &n->u.tuple;
  tnSpecTuple* d = push(o, &o->t->tuples, sizeof(tnSpecTuple));
  if (!d) {
    return;
  }
  d->name = text(o, n->name);
  d->src = src_named(o, "tuple", n->name);
  d->adr = o->t->tuple_elems.n;
  const tnsHandle* types = t->objtype;
  const tnsHandle* names = t->objname;
  const tnsHandle* prms = t->objprm;
  if (types->n != names->n || (prms->n && prms->n != types->n)) {
    fail(o, "tuple '%s': objtype, objname and objprm sizes differ%s", tn__specText(n->name), "");
    return;
  }
  for (int i = 0; i < types->n; i++) {
    tnSpecTupleElem* e = push(o, &o->t->tuple_elems, sizeof(tnSpecTupleElem));
    if (!e) {
      return;
    }
    e->objtype = ((const int*)types->data)[i];
    e->objname = tn__poolStrdup(&o->t->pool, ((char**)names->data)[i]);
    e->prm = prms->n ? ((const double*)prms->data)[i] : 0;
    e->src = d->src;
  }
  d->num = types->n;
}

/* keyframe arrays: -1 length when not given */
static mjtNum* keyarr(tnsOut* o, const void* h, int* n) {
  mjtNum* v = doubles(o, h, n);
  if (!*n) {
    *n = -1;
  }
  return v;
}

static void key(tnsOut* o, const tnsNode* n) {
  const mjsKey* k = &n->u.key;
  tnSpecKey* d = push(o, &o->t->keys, sizeof(tnSpecKey));
  if (!d) {
    return;
  }
  d->name = text(o, n->name);
  d->time = k->time;
  d->qpos = keyarr(o, k->qpos, &d->nqpos);
  d->qvel = keyarr(o, k->qvel, &d->nqvel);
  d->act = keyarr(o, k->act, &d->nact);
  d->ctrl = keyarr(o, k->ctrl, &d->nctrl);
  d->mpos = keyarr(o, k->mpos, &d->nmpos);
  d->mquat = keyarr(o, k->mquat, &d->nmquat);
  d->src = src_named(o, "key", n->name);
}

/* every live element outside the tree, in creation order per type */
static void globals(tnsOut* o) {
  for (const tnsNode* n = o->s->head; n && !o->failed; n = n->next) {
    if (n->deleted || n->hidden) {
      continue;
    }
    switch (n->type) {
      case mjOBJ_MESH: mesh(o, n); break;
      case mjOBJ_MATERIAL: material(o, n); break;
      case mjOBJ_TEXTURE: texture(o, n); break;
      case mjOBJ_HFIELD: hfield(o, n); break;
      case mjOBJ_PAIR: pair(o, n); break;
      case mjOBJ_EXCLUDE: exclude(o, n); break;
      case mjOBJ_EQUALITY: equality(o, n); break;
      case mjOBJ_TENDON: tendon(o, n); break;
      case mjOBJ_ACTUATOR: actuator(o, n); break;
      case mjOBJ_SENSOR: sensor(o, n); break;
      case mjOBJ_NUMERIC: numeric(o, n); break;
      case mjOBJ_TEXT: textobj(o, n); break;
      case mjOBJ_TUPLE: tuple(o, n); break;
      case mjOBJ_KEY: key(o, n); break;
      case mjOBJ_SKIN:
        fail(o, "skin '%s': skins are not supported by mj_compile yet%s", tn__specText(n->name),
             "");
        break;
      case mjOBJ_FLEX:
        fail(o, "flex '%s': flexes are not supported yet%s", tn__specText(n->name), "");
        break;
      case mjOBJ_PLUGIN:
        fail(o, "plugin '%s': plugins are not supported by mj_compile yet%s", tn__specText(n->name),
             "");
        break;
      default: break;
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * element ids after compiling
 * ------------------------------------------------------------------------------------- */

/* ids of the tree elements: bodies in depth-first order, other tree elements by body */
static void tree_ids(const tnsNode* b, int* next_body, int counts[]) {
  for (const tnsNode* c = b->first; c; c = c->sib_next) {
    if (c->type != mjOBJ_BODY && c->type < mjNOBJECT) {
      ((tnsNode*)c)->id = counts[c->type]++;
    }
  }
  for (const tnsNode* c = b->first; c; c = c->sib_next) {
    if (c->type == mjOBJ_BODY) {
      ((tnsNode*)c)->id = (*next_body)++;
      tree_ids(c, next_body, counts);
    }
  }
}

void tn__specAssignIds(tnsSpec* s) {
  int counts[mjNOBJECT] = {0};
  for (tnsNode* n = s->head; n; n = n->next) {
    n->id = -1;
  }
  s->world->id = 0;
  int next_body = 1;
  tree_ids(s->world, &next_body, counts);
  for (tnsNode* n = s->head; n; n = n->next) {
    if (!n->deleted && !n->hidden && n->type < mjNOBJECT && n->type != mjOBJ_BODY && n->id < 0 &&
        n->parent == NULL) {
      n->id = counts[n->type]++;
    }
  }
  int frames = 0;
  for (tnsNode* n = s->head; n; n = n->next) {
    if (!n->deleted && n->type == mjOBJ_FRAME) {
      n->id = frames++;
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * mj_compile
 * ------------------------------------------------------------------------------------- */

mjModel* tn__specCompile(tnsSpec* s, const mjVFS* vfs) {
  s->error[0] = 0;
  s->warning = 0;
  tnSpec* t = tn__specNew();
  if (!t) {
    tn__specError(s, "mj_compile: out of memory");
    return NULL;
  }
  tnsOut o = {s, t, 0};
  t->filename = "mjSpec";
  tnLoadOptions lo;
  tn_defaultLoadOptions(&lo);
  lo.vfs = vfs;
  tnFiles files;
  char why[512] = "";
  if (!tn__filesInit(&files, &lo, why, sizeof(why))) {
    tn__specFree(t);
    tn__specError(s, "mj_compile: %s", why);
    return NULL;
  }
  t->files = &files;
  settings(&o);
  TN_AT(t->bodies, tnSpecBody, 0)->src = src(&o, "worldbody");
  body_tree(&o, s->world, 0);
  globals(&o);
  mjModel* m = NULL;
  if (!o.failed) {
    char err[1024] = "";
    m = tn__compileSpec(t, err, sizeof(err));
    if (!m) {
      tn__specError(s, "%s", err[0] ? err : "mj_compile: failed");
    }
  }
  tn__specFree(t);
  tn__filesFree(&files);
  if (m) {
    tn__specAssignIds(s);
  }
  return m;
}

mjModel* mj_compile(mjSpec* s, const mjVFS* vfs) {
  if (!s) {
    mju_error("mj_compile: spec is NULL");
    return NULL;
  }
  return tn__specCompile(TNS_SPEC(s), vfs);
}
