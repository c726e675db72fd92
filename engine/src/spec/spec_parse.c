/* spec/spec_parse.c — mj_parseXML and mj_parseXMLString: the MJCF reader fills the
 * compiler's intermediate model (default classes already applied, as when loading), which
 * is then turned into the public element tree, so the file can be edited with mjs_* calls
 * and compiled with mj_compile to the same model mj_loadXML gives.
 *
 * Elements inside <frame> elements get one mjsFrame per distinct accumulated frame pose.
 * The default classes become mjsDefault classes (for elements added later); the parsed
 * elements keep the values their classes gave them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/mesh.h"
#include "spec/spec_tree.h"
#include "xml/xml_reader.h"

tnsNode* tn__specDefaultNode(tnsSpec* s);

/* conversion state */
typedef struct tnsIn_ {
  tnsSpec* s;
  const tnSpec* t;
  tnsNode** bodies; /* public node of each body of t */
  char* err;
  int errsz;
  int failed;
} tnsIn;

/* set a text handle (NULL: empty) */
static void set_text(void* h, const char* v) {
  tn__specSetText(h, v ? v : "");
}

/* set a double handle from mjtNum values */
static void set_doubles(void* h, const mjtNum* v, int n) {
  tn__specSetArray(h, v, n > 0 ? n : 0);
}

/* an orientation as the public structs keep it */
static void orient_out(double quat[4], mjsOrientation* alt, const tnOrientation* o) {
  mjs_defaultOrientation(alt);
  quat[0] = 1;
  quat[1] = quat[2] = quat[3] = 0;
  switch (o->kind) {
    case TN_ORIENT_QUAT: memcpy(quat, o->v, 4 * sizeof(double)); break;
    case TN_ORIENT_AXISANGLE:
      alt->type = mjORIENTATION_AXISANGLE;
      memcpy(alt->axisangle, o->v, 4 * sizeof(double));
      break;
    case TN_ORIENT_EULER:
      alt->type = mjORIENTATION_EULER;
      memcpy(alt->euler, o->v, 3 * sizeof(double));
      break;
    case TN_ORIENT_XYAXES:
      alt->type = mjORIENTATION_XYAXES;
      memcpy(alt->xyaxes, o->v, 6 * sizeof(double));
      break;
    case TN_ORIENT_ZAXIS:
      alt->type = mjORIENTATION_ZAXIS;
      memcpy(alt->zaxis, o->v, 3 * sizeof(double));
      break;
    default: break;
  }
}

/* the public frame for an accumulated frame pose in body b (NULL: none); frames with the
 * same pose in the same body are shared */
static tnsNode* frame_for(tnsIn* in, tnsNode* b, const tnFrame* f) {
  if (!f->active) {
    return NULL;
  }
  for (tnsNode* c = b->first; c; c = c->sib_next) {
    if (c->type == mjOBJ_FRAME && memcmp(c->u.frame.pos, f->pos, sizeof(f->pos)) == 0 &&
        memcmp(c->u.frame.quat, f->quat, sizeof(f->quat)) == 0) {
      return c;
    }
  }
  mjsFrame* fr = mjs_addFrame(&b->u.body, NULL);
  if (!fr) {
    in->failed = 1;
    return NULL;
  }
  memcpy(fr->pos, f->pos, sizeof(f->pos));
  memcpy(fr->quat, f->quat, sizeof(f->quat));
  return TNS_NODE(fr->element);
}

/* place a new tree element of body index b in its frame and name it */
static void place(tnsIn* in, mjsElement* el, int b, const tnFrame* f, const char* name) {
  tnsNode* n = TNS_NODE(el);
  n->frame = frame_for(in, in->bodies[b], f);
  set_text(n->name, name);
}

/* ---------------------------------------------------------------------------------------
 * element values, shared by elements and default classes
 * ------------------------------------------------------------------------------------- */

static void joint_values(mjsJoint* d, const tnSpecJoint* j) {
  d->type = (mjtJoint)j->type;
  d->group = j->group;
  memcpy(d->pos, j->pos, sizeof(d->pos));
  memcpy(d->axis, j->axis, sizeof(d->axis));
  d->ref = j->ref;
  d->springref = j->springref;
  d->stiffness[0] = j->stiffness;
  d->damping[0] = j->damping;
  d->armature = j->armature;
  d->frictionloss = j->frictionloss;
  d->margin = j->margin;
  memcpy(d->springdamper, j->springdamper, sizeof(d->springdamper));
  d->limited = (mjtLimited)j->limited;
  memcpy(d->range, j->range, sizeof(d->range));
  d->actfrclimited = (mjtLimited)j->actfrclimited;
  memcpy(d->actfrcrange, j->actfrcrange, sizeof(d->actfrcrange));
  d->actgravcomp = j->actgravcomp;
  memcpy(d->solref_limit, j->solref_limit, sizeof(d->solref_limit));
  memcpy(d->solimp_limit, j->solimp_limit, sizeof(d->solimp_limit));
  memcpy(d->solref_friction, j->solref_friction, sizeof(d->solref_friction));
  memcpy(d->solimp_friction, j->solimp_friction, sizeof(d->solimp_friction));
  d->align = (mjtAlignFree)j->align;
  set_doubles(d->userdata, j->user.v, j->user.n);
}

static void geom_values(mjsGeom* d, const tnSpecGeom* g) {
  d->type = (mjtGeom)g->type;
  d->contype = g->contype;
  d->conaffinity = g->conaffinity;
  d->condim = g->condim;
  d->group = g->group;
  d->priority = g->priority;
  memcpy(d->size, g->size, sizeof(d->size));
  memcpy(d->friction, g->friction, sizeof(d->friction));
  d->mass = g->mass;
  d->density = g->density;
  d->typeinertia = g->shellinertia ? mjINERTIA_SHELL : mjINERTIA_VOLUME;
  d->solmix = g->solmix;
  memcpy(d->solref, g->solref, sizeof(d->solref));
  memcpy(d->solimp, g->solimp, sizeof(d->solimp));
  d->margin = g->margin;
  d->gap = g->gap;
  memcpy(d->fromto, g->fromto, sizeof(d->fromto));
  if (!g->has_fromto) {
    d->fromto[0] = NAN;
  }
  memcpy(d->pos, g->pos, sizeof(d->pos));
  orient_out(d->quat, &d->alt, &g->orient);
  set_text(d->material, g->material);
  set_text(d->hfieldname, g->hfield);
  set_text(d->meshname, g->mesh);
  d->fitscale = g->fitscale;
  memcpy(d->rgba, g->rgba, sizeof(d->rgba));
  d->fluid_ellipsoid = g->fluidshape == 1;
  memcpy(d->fluid_coefs, g->fluidcoef, sizeof(d->fluid_coefs));
  set_doubles(d->userdata, g->user.v, g->user.n);
}

static void site_values(mjsSite* d, const tnSpecSite* s) {
  d->type = (mjtGeom)s->type;
  d->group = s->group;
  memcpy(d->size, s->size, sizeof(d->size));
  memcpy(d->fromto, s->fromto, sizeof(d->fromto));
  if (!s->has_fromto) {
    d->fromto[0] = NAN;
  }
  memcpy(d->pos, s->pos, sizeof(d->pos));
  orient_out(d->quat, &d->alt, &s->orient);
  set_text(d->material, s->material);
  memcpy(d->rgba, s->rgba, sizeof(d->rgba));
  set_doubles(d->userdata, s->user.v, s->user.n);
}

static void camera_values(mjsCamera* d, const tnSpecCamera* c) {
  d->mode = (mjtCamLight)c->mode;
  set_text(d->targetbody, c->target);
  memcpy(d->pos, c->pos, sizeof(d->pos));
  orient_out(d->quat, &d->alt, &c->orient);
  d->fovy = c->fovy;
  d->ipd = c->ipd;
  set_doubles(d->userdata, c->user.v, c->user.n);
}

static void light_values(mjsLight* d, const tnSpecLight* l) {
  d->mode = (mjtCamLight)l->mode;
  set_text(d->targetbody, l->target);
  d->type = l->directional ? mjLIGHT_DIRECTIONAL : mjLIGHT_SPOT;
  d->castshadow = l->castshadow;
  d->active = l->active;
  memcpy(d->pos, l->pos, sizeof(d->pos));
  memcpy(d->dir, l->dir, sizeof(d->dir));
  memcpy(d->attenuation, l->attenuation, sizeof(d->attenuation));
  d->cutoff = l->cutoff;
  d->exponent = l->exponent;
  memcpy(d->ambient, l->ambient, sizeof(d->ambient));
  memcpy(d->diffuse, l->diffuse, sizeof(d->diffuse));
  memcpy(d->specular, l->specular, sizeof(d->specular));
}

static void material_values(mjsMaterial* d, const tnSpecMaterial* m) {
  tn__specSetArray(d->textures, NULL, 0);
  if (m->texture) {
    mjs_appendString(d->textures, m->texture);
  }
  memcpy(d->texrepeat, m->texrepeat, sizeof(d->texrepeat));
  d->texuniform = m->texuniform;
  d->emission = m->emission;
  d->specular = m->specular;
  d->shininess = m->shininess;
  d->reflectance = m->reflectance;
  memcpy(d->rgba, m->rgba, sizeof(d->rgba));
}

static void pair_values(mjsPair* d, const tnSpecPair* p) {
  d->condim = p->has_condim ? p->condim : -1;
  memcpy(d->friction, p->friction, sizeof(d->friction));
  if (!p->has_friction) {
    d->friction[0] = NAN;
  }
  memcpy(d->solref, p->solref, sizeof(d->solref));
  if (!p->has_solref) {
    d->solref[0] = NAN;
  }
  memcpy(d->solreffriction, p->solreffriction, sizeof(d->solreffriction));
  memcpy(d->solimp, p->solimp, sizeof(d->solimp));
  if (!p->has_solimp) {
    d->solimp[0] = NAN;
  }
  d->margin = p->has_margin ? p->margin : NAN;
  d->gap = p->has_gap ? p->gap : NAN;
  set_text(d->geomname1, p->geom1);
  set_text(d->geomname2, p->geom2);
}

static void equality_values(mjsEquality* d, const tnSpecEquality* e) {
  d->type = (mjtEq)e->type;
  d->active = e->active;
  memcpy(d->solref, e->solref, sizeof(d->solref));
  memcpy(d->solimp, e->solimp, sizeof(d->solimp));
  set_text(d->name1, e->name1);
  set_text(d->name2, e->name2);
  memset(d->data, 0, sizeof(d->data));
  if (e->type == mjEQ_CONNECT || e->type == mjEQ_WELD) {
    d->objtype = e->use_sites ? mjOBJ_SITE : mjOBJ_BODY;
    memcpy(d->data, e->anchor, 3 * sizeof(double));
    memcpy(d->data + 3, e->relpose, 7 * sizeof(double));
  } else {
    d->objtype = e->type == mjEQ_JOINT ? mjOBJ_JOINT : mjOBJ_TENDON;
    memcpy(d->data, e->polycoef, 5 * sizeof(double));
  }
  d->data[10] = e->torquescale;
}

static void tendon_values(mjsTendon* d, const tnSpecTendon* t) {
  d->group = t->group;
  d->limited = (mjtLimited)t->limited;
  memcpy(d->range, t->range, sizeof(d->range));
  d->actfrclimited = (mjtLimited)t->actfrclimited;
  memcpy(d->actfrcrange, t->actfrcrange, sizeof(d->actfrcrange));
  memcpy(d->solref_limit, t->solref_limit, sizeof(d->solref_limit));
  memcpy(d->solimp_limit, t->solimp_limit, sizeof(d->solimp_limit));
  memcpy(d->solref_friction, t->solref_friction, sizeof(d->solref_friction));
  memcpy(d->solimp_friction, t->solimp_friction, sizeof(d->solimp_friction));
  d->frictionloss = t->frictionloss;
  memcpy(d->springlength, t->springlength, sizeof(d->springlength));
  d->width = t->width;
  d->margin = t->margin;
  d->stiffness[0] = t->stiffness;
  d->damping[0] = t->damping;
  d->armature = t->armature;
  set_text(d->material, t->material);
  memcpy(d->rgba, t->rgba, sizeof(d->rgba));
  set_doubles(d->userdata, t->user.v, t->user.n);
}

static void actuator_values(mjsActuator* d, const tnSpecActuator* a) {
  d->group = a->group;
  d->ctrllimited = (mjtLimited)a->ctrllimited;
  d->forcelimited = (mjtLimited)a->forcelimited;
  d->actlimited = (mjtLimited)a->actlimited;
  memcpy(d->ctrlrange, a->ctrlrange, sizeof(d->ctrlrange));
  memcpy(d->forcerange, a->forcerange, sizeof(d->forcerange));
  memcpy(d->actrange, a->actrange, sizeof(d->actrange));
  memcpy(d->lengthrange, a->lengthrange, sizeof(d->lengthrange));
  memcpy(d->gear, a->gear, sizeof(d->gear));
  d->cranklength = a->cranklength;
  d->actdim = a->actdim;
  d->dyntype = (mjtDyn)a->dyntype;
  d->gaintype = (mjtGain)a->gaintype;
  d->biastype = (mjtBias)a->biastype;
  memcpy(d->dynprm, a->dynprm, sizeof(d->dynprm));
  memcpy(d->gainprm, a->gainprm, sizeof(d->gainprm));
  memcpy(d->biasprm, a->biasprm, sizeof(d->biasprm));
  d->actearly = a->actearly;
  d->inheritrange = a->inheritrange;
  set_doubles(d->userdata, a->user.v, a->user.n);
  d->trntype = (mjtTrn)a->trntype;
  set_text(d->target, a->target);
  set_text(d->refsite, a->refsite);
  set_text(d->slidersite, a->slidersite);
}

static void mesh_values(mjsMesh* d, const tnSpecMesh* m) {
  memcpy(d->scale, m->scale, sizeof(d->scale));
  memcpy(d->refpos, m->refpos, sizeof(d->refpos));
  memcpy(d->refquat, m->refquat, sizeof(d->refquat));
  d->inertia = (mjtMeshInertia)m->inertia;
  d->maxhullvert = m->maxhullvert;
}

/* ---------------------------------------------------------------------------------------
 * the tree and the other elements
 * ------------------------------------------------------------------------------------- */

static int fail(tnsIn* in, const char* what) {
  snprintf(in->err, (size_t)in->errsz,
           "mj_parseXML: %s are not supported by the model-editing API yet", what);
  in->failed = 1;
  return 0;
}

static void bodies(tnsIn* in) {
  const tnSpec* t = in->t;
  in->bodies[0] = in->s->world;
  for (int i = 1; i < t->bodies.n && !in->failed; i++) {
    const tnSpecBody* b = TN_AT(t->bodies, tnSpecBody, i);
    tnsNode* parent = in->bodies[b->parent];
    mjsBody* d = mjs_addBody(&parent->u.body, NULL);
    if (!d) {
      in->failed = 1;
      return;
    }
    tnsNode* n = TNS_NODE(d->element);
    in->bodies[i] = n;
    n->frame = frame_for(in, parent, &b->frame);
    set_text(n->name, b->name);
    set_text(d->childclass, b->childclass);
    memcpy(d->pos, b->pos, sizeof(d->pos));
    orient_out(d->quat, &d->alt, &b->orient);
    d->mocap = b->mocap;
    d->gravcomp = b->gravcomp;
    set_doubles(d->userdata, b->user.v, b->user.n);
    if (b->has_inertial) {
      if (b->iframe.active) {
        fail(in, "<inertial> elements inside <frame>");
        return;
      }
      memcpy(d->ipos, b->ipos, sizeof(d->ipos));
      orient_out(d->iquat, &d->ialt, &b->iorient);
      d->mass = b->mass;
      memcpy(d->inertia, b->inertia, sizeof(d->inertia));
      memcpy(d->fullinertia, b->fullinertia, sizeof(d->fullinertia));
      if (!b->has_fullinertia) {
        d->fullinertia[0] = NAN;
      }
    }
  }
}

/* the objects of the tree, each into its body in the reader's order */
static void tree_objects(tnsIn* in) {
  const tnSpec* t = in->t;
  for (int i = 0; i < t->joints.n; i++) {
    const tnSpecJoint* j = TN_AT(t->joints, tnSpecJoint, i);
    mjsJoint* d = mjs_addJoint(&in->bodies[j->body]->u.body, NULL);
    joint_values(d, j);
    place(in, d->element, j->body, &j->frame, j->name);
  }
  for (int i = 0; i < t->geoms.n; i++) {
    const tnSpecGeom* g = TN_AT(t->geoms, tnSpecGeom, i);
    mjsGeom* d = mjs_addGeom(&in->bodies[g->body]->u.body, NULL);
    geom_values(d, g);
    place(in, d->element, g->body, &g->frame, g->name);
  }
  for (int i = 0; i < t->sites.n; i++) {
    const tnSpecSite* s = TN_AT(t->sites, tnSpecSite, i);
    mjsSite* d = mjs_addSite(&in->bodies[s->body]->u.body, NULL);
    site_values(d, s);
    place(in, d->element, s->body, &s->frame, s->name);
  }
  for (int i = 0; i < t->cameras.n; i++) {
    const tnSpecCamera* c = TN_AT(t->cameras, tnSpecCamera, i);
    mjsCamera* d = mjs_addCamera(&in->bodies[c->body]->u.body, NULL);
    camera_values(d, c);
    place(in, d->element, c->body, &c->frame, c->name);
  }
  for (int i = 0; i < t->lights.n; i++) {
    const tnSpecLight* l = TN_AT(t->lights, tnSpecLight, i);
    mjsLight* d = mjs_addLight(&in->bodies[l->body]->u.body, NULL);
    light_values(d, l);
    place(in, d->element, l->body, &l->frame, l->name);
  }
}

/* assets */
static void assets(tnsIn* in) {
  const tnSpec* t = in->t;
  mjSpec* s = &in->s->root->u.spec;
  for (int i = 0; i < t->textures.n; i++) {
    const tnSpecTexture* x = TN_AT(t->textures, tnSpecTexture, i);
    mjsTexture* d = mjs_addTexture(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    d->type = (mjtTexture)x->type;
    d->width = x->width;
    d->height = x->height;
    d->nchannel = x->nchannel;
    mjs_setName(d->element, x->name ? x->name : "");
  }
  for (int i = 0; i < t->materials.n; i++) {
    const tnSpecMaterial* m = TN_AT(t->materials, tnSpecMaterial, i);
    mjsMaterial* d = mjs_addMaterial(s, NULL);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    material_values(d, m);
    mjs_setName(d->element, m->name ? m->name : "");
  }
  for (int i = 0; i < t->meshes.n; i++) {
    const tnSpecMesh* m = TN_AT(t->meshes, tnSpecMesh, i);
    mjsMesh* d = mjs_addMesh(s, NULL);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    mesh_values(d, m);
    set_text(d->file, m->file);
    set_text(d->content_type, m->content_type);
    if (m->nvertex) {
      float* v = malloc(sizeof(float) * (size_t)m->nvertex);
      for (int k = 0; v && k < m->nvertex; k++) {
        v[k] = (float)m->vertex[k];
      }
      mjs_setFloat(d->uservert, v, m->nvertex);
      free(v);
    }
    if (m->nface) {
      mjs_setInt(d->userface, m->face, m->nface);
    }
    mjs_setName(d->element, m->name ? m->name : "");
  }
  for (int i = 0; i < t->hfields.n; i++) {
    const tnSpecHField* h = TN_AT(t->hfields, tnSpecHField, i);
    mjsHField* d = mjs_addHField(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    d->nrow = h->nrow;
    d->ncol = h->ncol;
    memcpy(d->size, h->size, sizeof(d->size));
    if (h->nelevation) {
      float* v = malloc(sizeof(float) * (size_t)h->nelevation);
      // MJCF lists the rows last first; the spec holds the model's order
      int rows = h->nrow * h->ncol == h->nelevation ? h->nrow : 1;
      int cols = h->nelevation / rows;
      for (int k = 0; v && k < h->nelevation; k++) {
        v[k] = (float)h->elevation[(rows - 1 - k / cols) * cols + k % cols];
      }
      mjs_setFloat(d->userdata, v, h->nelevation);
      free(v);
    }
    set_text(d->file, h->file);
    set_text(d->content_type, h->content_type);
    mjs_setName(d->element, h->name ? h->name : "");
  }
}

/* contacts, equalities, tendons, actuators, sensors, custom data, keyframes */
static void globals(tnsIn* in) {
  const tnSpec* t = in->t;
  mjSpec* s = &in->s->root->u.spec;
  for (int i = 0; i < t->pairs.n; i++) {
    const tnSpecPair* p = TN_AT(t->pairs, tnSpecPair, i);
    mjsPair* d = mjs_addPair(s, NULL);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    pair_values(d, p);
    mjs_setName(d->element, p->name ? p->name : "");
  }
  for (int i = 0; i < t->excludes.n; i++) {
    const tnSpecExclude* e = TN_AT(t->excludes, tnSpecExclude, i);
    mjsExclude* d = mjs_addExclude(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    set_text(d->bodyname1, e->body1);
    set_text(d->bodyname2, e->body2);
    mjs_setName(d->element, e->name ? e->name : "");
  }
  for (int i = 0; i < t->equalities.n; i++) {
    const tnSpecEquality* e = TN_AT(t->equalities, tnSpecEquality, i);
    mjsEquality* d = mjs_addEquality(s, NULL);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    equality_values(d, e);
    mjs_setName(d->element, e->name ? e->name : "");
  }
  for (int i = 0; i < t->tendons.n; i++) {
    const tnSpecTendon* x = TN_AT(t->tendons, tnSpecTendon, i);
    mjsTendon* d = mjs_addTendon(s, NULL);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    tendon_values(d, x);
    mjs_setName(d->element, x->name ? x->name : "");
    for (int k = 0; k < x->wrapnum; k++) {
      const tnSpecWrap* w = TN_AT(t->wraps, tnSpecWrap, x->wrapadr + k);
      switch (w->type) {
        case mjWRAP_JOINT: mjs_wrapJoint(d, w->obj, w->prm); break;
        case mjWRAP_PULLEY: mjs_wrapPulley(d, w->prm); break;
        case mjWRAP_SITE: mjs_wrapSite(d, w->obj); break;
        default: mjs_wrapGeom(d, w->obj, w->side); break;
      }
    }
  }
  for (int i = 0; i < t->actuators.n; i++) {
    const tnSpecActuator* a = TN_AT(t->actuators, tnSpecActuator, i);
    if (a->plugin >= 0) {
      fail(in, "plugin actuators");
      return;
    }
    mjsActuator* d = mjs_addActuator(s, NULL);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    actuator_values(d, a);
    mjs_setName(d->element, a->name ? a->name : "");
  }
  for (int i = 0; i < t->sensors.n; i++) {
    const tnSpecSensor* x = TN_AT(t->sensors, tnSpecSensor, i);
    mjsSensor* d = mjs_addSensor(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    d->type = (mjtSensor)x->type;
    d->objtype = (mjtObj)x->objtype;
    set_text(d->objname, x->objname);
    d->reftype = (mjtObj)x->reftype;
    set_text(d->refname, x->refname);
    memcpy(d->intprm, x->intprm, sizeof(d->intprm));
    d->datatype = (mjtDataType)x->datatype;
    d->needstage = (mjtStage)x->needstage;
    d->dim = x->dim;
    d->cutoff = x->cutoff;
    d->noise = x->noise;
    set_doubles(d->userdata, x->user.v, x->user.n);
    mjs_setName(d->element, x->name ? x->name : "");
  }
  for (int i = 0; i < t->numerics.n; i++) {
    const tnSpecNumeric* x = TN_AT(t->numerics, tnSpecNumeric, i);
    mjsNumeric* d = mjs_addNumeric(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    d->size = x->size;
    set_doubles(d->data, x->data, x->ndata);
    mjs_setName(d->element, x->name ? x->name : "");
  }
  for (int i = 0; i < t->texts.n; i++) {
    const tnSpecText* x = TN_AT(t->texts, tnSpecText, i);
    mjsText* d = mjs_addText(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    set_text(d->data, x->data);
    mjs_setName(d->element, x->name ? x->name : "");
  }
  for (int i = 0; i < t->tuples.n; i++) {
    const tnSpecTuple* x = TN_AT(t->tuples, tnSpecTuple, i);
    mjsTuple* d = mjs_addTuple(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    for (int k = 0; k < x->num; k++) {
      const tnSpecTupleElem* e = TN_AT(t->tuple_elems, tnSpecTupleElem, x->adr + k);
      tnsHandle* types = d->objtype;
      int* grown = realloc(types->data, sizeof(int) * (size_t)(types->n + 1));
      double* pg = realloc(((tnsHandle*)d->objprm)->data, sizeof(double) * (size_t)(k + 1));
      if (!grown || !pg) {
        free(grown);
        in->failed = 1;
        return;
      }
      grown[types->n++] = e->objtype;
      types->data = grown;
      pg[k] = e->prm;
      ((tnsHandle*)d->objprm)->data = pg;
      ((tnsHandle*)d->objprm)->n = k + 1;
      mjs_appendString(d->objname, e->objname ? e->objname : "");
    }
    mjs_setName(d->element, x->name ? x->name : "");
  }
  for (int i = 0; i < t->keys.n; i++) {
    const tnSpecKey* k = TN_AT(t->keys, tnSpecKey, i);
    mjsKey* d = mjs_addKey(s);
    if (!d) {
      in->failed = 1; /* out of memory */
      return;
    }
    d->time = k->time;
    set_doubles(d->qpos, k->qpos, k->nqpos);
    set_doubles(d->qvel, k->qvel, k->nqvel);
    set_doubles(d->act, k->act, k->nact);
    set_doubles(d->ctrl, k->ctrl, k->nctrl);
    set_doubles(d->mpos, k->mpos, k->nmpos);
    set_doubles(d->mquat, k->mquat, k->nmquat);
    mjs_setName(d->element, k->name ? k->name : "");
  }
}

/* the default classes (main holds the file's main class values) */
static void classes(tnsIn* in) {
  const tnSpec* t = in->t;
  tnsNode** nodes = calloc((size_t)t->defaults.n + 1, sizeof(tnsNode*));
  if (!nodes) {
    in->failed = 1;
    return;
  }
  for (int i = 0; i < t->defaults.n; i++) {
    const tnDefault* c = TN_AT(t->defaults, tnDefault, i);
    tnsNode* d = i == 0 ? in->s->main : tn__specDefaultNode(in->s);
    if (!d) {
      in->failed = 1;
      break;
    }
    nodes[i] = d;
    if (i > 0) {
      set_text(d->name, c->name);
      d->parent = c->parent >= 0 ? nodes[c->parent] : in->s->main;
    }
    mjsDefault* p = &d->u.def;
    joint_values(p->joint, &c->joint);
    geom_values(p->geom, &c->geom);
    site_values(p->site, &c->site);
    camera_values(p->camera, &c->camera);
    light_values(p->light, &c->light);
    material_values(p->material, &c->material);
    pair_values(p->pair, &c->pair);
    equality_values(p->equality, &c->equality);
    tendon_values(p->tendon, &c->tendon);
    actuator_values(p->actuator, &c->actuator);
    mesh_values(p->mesh, &c->mesh);
  }
  free(nodes);
}

/* the spec's settings */
static void settings(tnsIn* in, const char* dir) {
  const tnSpec* t = in->t;
  mjSpec* p = &in->s->root->u.spec;
  set_text(p->modelname, t->modelname);
  set_text(p->modelfiledir, dir);
  const tnCompilerSettings* c = &t->compiler;
  p->compiler.autolimits = c->autolimits;
  p->compiler.boundmass = c->boundmass;
  p->compiler.boundinertia = c->boundinertia;
  p->compiler.settotalmass = c->settotalmass;
  p->compiler.balanceinertia = c->balanceinertia;
  p->compiler.fitaabb = c->fitaabb;
  p->compiler.degree = c->degree;
  memcpy(p->compiler.eulerseq, c->eulerseq, 3);
  p->compiler.discardvisual = c->discardvisual;
  p->compiler.fusestatic = c->fusestatic;
  p->compiler.inertiafromgeom = (mjtInertiaFromGeom)c->inertiafromgeom;
  p->compiler.inertiagrouprange[0] = c->inertiagrouprange[0];
  p->compiler.inertiagrouprange[1] = c->inertiagrouprange[1];
  p->compiler.alignfree = c->alignfree;
  p->compiler.LRopt = c->LRopt;
  p->strippath = c->strippath;
  set_text(p->compiler.meshdir, c->meshdir ? c->meshdir : c->assetdir);
  set_text(p->compiler.texturedir, c->texturedir ? c->texturedir : c->assetdir);
  p->option = t->opt;
  p->memory = t->memory;
  p->njmax = t->njmax;
  p->nconmax = t->nconmax;
  p->nstack = t->nstack;
  p->nuserdata = t->nuserdata;
  p->nkey = t->nkey;
  p->nuser_body = t->nuser_body;
  p->nuser_jnt = t->nuser_jnt;
  p->nuser_geom = t->nuser_geom;
  p->nuser_site = t->nuser_site;
  p->nuser_cam = t->nuser_cam;
  p->nuser_tendon = t->nuser_tendon;
  p->nuser_actuator = t->nuser_actuator;
  p->nuser_sensor = t->nuser_sensor;
  p->stat.meaninertia = t->stat_meaninertia;
  p->stat.meanmass = t->stat_meanmass;
  p->stat.meansize = t->stat_meansize;
  p->stat.extent = t->stat_extent;
  memcpy(p->stat.center, t->stat_center, sizeof(p->stat.center));
}

/* a public spec from a read intermediate model; NULL with a message */
static mjSpec* convert(const tnSpec* t, const char* dir, char* err, int errsz) {
  if (t->skins.n || t->plugins.n || t->keymaps.n) {
    snprintf(err, (size_t)errsz, "mj_parseXML: %s are not supported by the model-editing API yet",
             t->skins.n     ? "skins"
             : t->plugins.n ? "engine plugins"
                            : "attached keyframes");
    return NULL;
  }
  tnsSpec* s = tn__specMake();
  tnsNode** nodes = calloc((size_t)t->bodies.n + 1, sizeof(tnsNode*));
  if (!s || !nodes) {
    free(nodes);
    tn__specDestroy(s);
    snprintf(err, (size_t)errsz, "mj_parseXML: out of memory");
    return NULL;
  }
  tnsIn in = {s, t, nodes, err, errsz, 0};
  settings(&in, dir);
  classes(&in);
  bodies(&in);
  if (!in.failed) {
    tree_objects(&in);
    assets(&in);
    globals(&in);
  }
  free(nodes);
  if (in.failed) {
    if (!err[0]) {
      snprintf(err, (size_t)errsz, "mj_parseXML: out of memory");
    }
    tn__specDestroy(s);
    return NULL;
  }
  return &s->root->u.spec;
}

/* read and convert a file or text */
static mjSpec* parse(const char* filename, const char* xml, const mjVFS* vfs, char* error,
                     int error_sz) {
  char local[1024];
  char* err = error && error_sz > 0 ? error : local;
  int errsz = error && error_sz > 0 ? error_sz : (int)sizeof(local);
  err[0] = 0;
  tnFiles files;
  tnXmlDoc* doc = NULL;
  tnSpec* t = tn__xmlReadSpec(filename, xml, vfs, &files, &doc, err, errsz);
  mjSpec* s = t ? convert(t, doc && doc->dir ? doc->dir : "", err, errsz) : NULL;
  tn__specFree(t);
  tn__xmlFree(doc);
  tn__filesFree(&files);
  return s;
}

mjSpec* mj_parseXML(const char* filename, const mjVFS* vfs, char* error, int error_sz) {
  if (!filename) {
    if (error && error_sz > 0) {
      snprintf(error, (size_t)error_sz, "mj_parseXML: no file name given");
    }
    return NULL;
  }
  return parse(filename, NULL, vfs, error, error_sz);
}

mjSpec* mj_parseXMLString(const char* xml, const mjVFS* vfs, char* error, int error_sz) {
  if (!xml) {
    if (error && error_sz > 0) {
      snprintf(error, (size_t)error_sz, "mj_parseXMLString: no text given");
    }
    return NULL;
  }
  return parse(NULL, xml, vfs, error, error_sz);
}

/* a spec from a file of a given content type; MJCF only: the content type names XML or the
 * file name ends in .xml (MuJoCo, too, reads an .xml file whatever type is given) */
mjSpec* mj_parse(const char* filename, const char* content_type, const mjVFS* vfs, char* error,
                 int error_sz) {
  const char* dot = filename ? strrchr(filename, '.') : NULL;
  int xml = (content_type && strstr(content_type, "xml")) ||
            (dot && (strcmp(dot, ".xml") == 0 || strcmp(dot, ".XML") == 0));
  if (!xml) {
    if (error && error_sz > 0) {
      snprintf(error, (size_t)error_sz, "mj_parse: '%s': only MJCF (XML) files can be parsed",
               content_type ? content_type
               : filename   ? filename
                            : "");
    }
    return NULL;
  }
  return mj_parseXML(filename, vfs, error, error_sz);
}
