/* compiler/spec.c — the intermediate model: allocation and MuJoCo's built-in defaults.
 *
 * Every object starts from the values below (MuJoCo 3.14's XML reference defaults); the
 * default classes and the element's own attributes then overwrite them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/mesh.h"
#include "compiler/spec.h"
#include "model/model_alloc.h"

/* ---------------------------------------------------------------------------------------
 * growable arrays
 * ------------------------------------------------------------------------------------- */

/* push a zeroed element */
void* tn__vecPush(tnVec* v, size_t size) {
  if (v->n == v->cap) {
    int cap = v->cap ? 2 * v->cap : 16;
    void* grown = realloc(v->data, size * (size_t)cap);
    if (!grown) {
      return NULL;
    }
    v->data = grown;
    v->cap = cap;
  }
  char* p = (char*)v->data + size * (size_t)v->n++;
  memset(p, 0, size);
  return p;
}

/* free the array */
void tn__vecFree(tnVec* v) {
  free(v->data);
  v->data = NULL;
  v->n = v->cap = 0;
}

/* ---------------------------------------------------------------------------------------
 * built-in defaults
 * ------------------------------------------------------------------------------------- */

/* grey, opaque */
static void default_rgba(float rgba[4]) {
  rgba[0] = rgba[1] = rgba[2] = 0.5f;
  rgba[3] = 1;
}

void tn__specDefaultJoint(tnSpecJoint* j) {
  memset(j, 0, sizeof(*j));
  j->type = mjJNT_HINGE;
  j->axis[2] = 1;
  j->limited = TN_AUTO;
  j->actfrclimited = TN_AUTO;
  mj_defaultSolRefImp(j->solref_limit, NULL);
  mj_defaultSolRefImp(NULL, j->solimp_limit);
  mj_defaultSolRefImp(j->solref_friction, NULL);
  mj_defaultSolRefImp(NULL, j->solimp_friction);
  j->align = 2;
  j->body = -1;
}

void tn__specDefaultGeom(tnSpecGeom* g) {
  memset(g, 0, sizeof(*g));
  g->type = mjGEOM_SPHERE;
  g->contype = 1;
  g->conaffinity = 1;
  g->condim = 3;
  g->friction[0] = 1;
  g->friction[1] = 0.005;
  g->friction[2] = 0.0001;
  g->mass = NAN;
  g->density = 1000;
  g->fitscale = 1;
  g->solmix = 1;
  mj_defaultSolRefImp(g->solref, NULL);
  mj_defaultSolRefImp(NULL, g->solimp);
  default_rgba(g->rgba);
  g->fluidcoef[0] = 0.5;
  g->fluidcoef[1] = 0.25;
  g->fluidcoef[2] = 1.5;
  g->fluidcoef[3] = 1.0;
  g->fluidcoef[4] = 1.0;
  g->body = -1;
}

void tn__specDefaultSite(tnSpecSite* s) {
  memset(s, 0, sizeof(*s));
  s->type = mjGEOM_SPHERE;
  s->size[0] = s->size[1] = s->size[2] = 0.005;
  default_rgba(s->rgba);
  s->body = -1;
}

void tn__specDefaultCamera(tnSpecCamera* c) {
  memset(c, 0, sizeof(*c));
  c->mode = mjCAMLIGHT_FIXED;
  c->fovy = 45;
  c->ipd = 0.068;
  c->body = -1;
}

void tn__specDefaultLight(tnSpecLight* l) {
  memset(l, 0, sizeof(*l));
  l->mode = mjCAMLIGHT_FIXED;
  l->castshadow = 1;
  l->active = 1;
  l->dir[2] = -1;
  l->attenuation[0] = 1;
  l->cutoff = 45;
  l->exponent = 10;
  l->diffuse[0] = l->diffuse[1] = l->diffuse[2] = 0.7f;
  l->specular[0] = l->specular[1] = l->specular[2] = 0.3f;
  l->body = -1;
}

void tn__specDefaultMaterial(tnSpecMaterial* m) {
  memset(m, 0, sizeof(*m));
  m->texrepeat[0] = m->texrepeat[1] = 1;
  m->specular = 0.5f;
  m->shininess = 0.5f;
  m->rgba[0] = m->rgba[1] = m->rgba[2] = m->rgba[3] = 1;
}

void tn__specDefaultPair(tnSpecPair* p) {
  memset(p, 0, sizeof(*p));
  p->condim = 3;
  p->friction[0] = p->friction[1] = 1;
  p->friction[2] = 0.005;
  p->friction[3] = p->friction[4] = 0.0001;
  mj_defaultSolRefImp(p->solref, NULL);
  mj_defaultSolRefImp(NULL, p->solimp);
}

void tn__specDefaultEquality(tnSpecEquality* e) {
  memset(e, 0, sizeof(*e));
  e->active = 1;
  mj_defaultSolRefImp(e->solref, NULL);
  mj_defaultSolRefImp(NULL, e->solimp);
  e->relpose[1] = 1;
  e->torquescale = 1;
  e->polycoef[1] = 1;
}

void tn__specDefaultTendon(tnSpecTendon* t) {
  memset(t, 0, sizeof(*t));
  t->limited = TN_AUTO;
  t->actfrclimited = TN_AUTO;
  mj_defaultSolRefImp(t->solref_limit, NULL);
  mj_defaultSolRefImp(NULL, t->solimp_limit);
  mj_defaultSolRefImp(t->solref_friction, NULL);
  mj_defaultSolRefImp(NULL, t->solimp_friction);
  t->springlength[0] = t->springlength[1] = -1;
  t->width = 0.003;
  default_rgba(t->rgba);
}

void tn__specDefaultActuator(tnSpecActuator* a) {
  memset(a, 0, sizeof(*a));
  a->ctrllimited = TN_AUTO;
  a->forcelimited = TN_AUTO;
  a->actlimited = TN_AUTO;
  a->gear[0] = 1;
  a->actdim = -1;
  a->dynprm[0] = 1;
  a->gainprm[0] = 1;
  a->trntype = mjTRN_UNDEFINED;
  a->plugin = -1;
}

void tn__specDefaultMesh(tnSpecMesh* m) {
  memset(m, 0, sizeof(*m));
  m->scale[0] = m->scale[1] = m->scale[2] = 1;
  m->refquat[0] = 1;
  m->inertia = TN_MESH_INERTIA_LEGACY;
  m->maxhullvert = -1;
}

/* MuJoCo's <compiler> defaults */
static void default_compiler(tnCompilerSettings* c) {
  memset(c, 0, sizeof(*c));
  c->degree = 1;
  c->eulerseq[0] = 'x';
  c->eulerseq[1] = 'y';
  c->eulerseq[2] = 'z';
  c->inertiafromgeom = TN_AUTO;
  c->inertiagrouprange[0] = 0;
  c->inertiagrouprange[1] = 5;
  c->autolimits = 1;

  // <lengthrange> defaults
  c->LRopt.mode = mjLRMODE_MUSCLE;
  c->LRopt.useexisting = 1;
  c->LRopt.accel = 20;
  c->LRopt.timeconst = 1;
  c->LRopt.timestep = 0.01;
  c->LRopt.inttotal = 10;
  c->LRopt.interval = 2;
  c->LRopt.tolrange = 0.05;
  c->settotalmass = -1;
}

/* ---------------------------------------------------------------------------------------
 * lifetime
 * ------------------------------------------------------------------------------------- */

/* the main default class */
static int add_main_class(tnSpec* s) {
  tnDefault* d = tn__vecPush(&s->defaults, sizeof(tnDefault));
  if (!d) {
    return 0;
  }
  d->name = "main";
  d->parent = -1;
  tn__specDefaultJoint(&d->joint);
  tn__specDefaultGeom(&d->geom);
  tn__specDefaultSite(&d->site);
  tn__specDefaultCamera(&d->camera);
  tn__specDefaultLight(&d->light);
  tn__specDefaultMaterial(&d->material);
  tn__specDefaultPair(&d->pair);
  tn__specDefaultEquality(&d->equality);
  tn__specDefaultTendon(&d->tendon);
  tn__specDefaultActuator(&d->actuator);
  tn__specDefaultMesh(&d->mesh);
  return 1;
}

/* a new spec */
tnSpec* tn__specNew(void) {
  tnSpec* s = calloc(1, sizeof(tnSpec));
  if (!s) {
    return NULL;
  }
  s->modelname = "MuJoCo Model";
  default_compiler(&s->compiler);
  tn__defaultOption(&s->opt);
  mj_defaultVisual(&s->vis);
  s->memory = -1;
  s->njmax = s->nconmax = -1;
  s->nuser_body = s->nuser_jnt = s->nuser_geom = s->nuser_site = -1;
  s->nuser_cam = s->nuser_tendon = s->nuser_actuator = s->nuser_sensor = -1;
  s->stat_meaninertia = s->stat_meanmass = s->stat_meansize = s->stat_extent = NAN;
  s->stat_center[0] = s->stat_center[1] = s->stat_center[2] = NAN;

  // the world body and the main class
  tnSpecBody* world = tn__vecPush(&s->bodies, sizeof(tnSpecBody));
  if (!world || !add_main_class(s)) {
    tn__specFree(s);
    return NULL;
  }
  world->name = "world";
  world->parent = -1;
  world->orient.kind = TN_ORIENT_NONE;
  return s;
}

/* free a spec */
void tn__specFree(tnSpec* s) {
  if (!s) {
    return;
  }
  for (int i = 0; i < s->models.n; i++) {
    tnSpecModel* model = TN_AT(s->models, tnSpecModel, i);
    if (model->doc_free) {
      model->doc_free(model->doc);
    }
  }
  tnVec* vecs[] = {&s->defaults, &s->bodies,      &s->joints,    &s->geoms,      &s->sites,
                   &s->cameras,  &s->lights,      &s->materials, &s->textures,   &s->hfields,
                   &s->meshes,   &s->pairs,       &s->excludes,  &s->equalities, &s->tendons,
                   &s->wraps,    &s->actuators,   &s->sensors,   &s->numerics,   &s->texts,
                   &s->tuples,   &s->tuple_elems, &s->keys,      &s->skins,      &s->skinbones,
                   &s->models,   &s->keymaps,     &s->keysegs};
  for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
    tn__vecFree(vecs[i]);
  }
  tn__vecFree(&s->plugins);
  tn__poolFree(&s->pool);
  free(s);
}
