/* compiler/compile_fuse.c — <compiler fusestatic="true">: static bodies merged into their
 * parents, as MuJoCo 3.14 does after compiling the bodies.
 *
 * The spec is first compiled as written (without fusing and without settotalmass) to get
 * every body's pose and mass properties. Then, visiting the bodies in MuJoCo's order
 * (depth-first, a fused body's children taking its place), a body is fused into its
 * parent when it has no joints, is not a mocap body, and, when it has a name, every body
 * name other elements resolve (camera or light target, exclude, connect/weld equality,
 * body sensor or reference, tuple, body transmission) still resolves in MuJoCo's name map
 * without it (see may_fuse: that map goes stale as bodies are removed, which keeps some
 * bodies unfused), and no force or torque sensor uses one of its sites. Fusing it:
 *   - adds its mass properties to the parent's (unless the parent is the world);
 *   - composes its pose into its child bodies' poses and makes them the parent's children;
 *   - moves its geoms and sites to the end of the parent's lists, their poses composed
 *     with its pose; its cameras and lights move to the parent too, their poses kept as
 *     written (MuJoCo recompiles them from the spec after fusing).
 * The spec is rewritten accordingly (bodies removed and renumbered, moved objects placed
 * after the parent's own, parents given their accumulated inertia), and compiled again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* the running state of the fuse pass, indexed by spec body */
typedef struct fuseState_ {
  tnSpec* spec;
  int nbody;
  int* parent;     /* current parent */
  int* alive;      /* not fused */
  int* refs;       /* bodies other elements name (spec index, -1: unknown name) */
  int nref;
  int* forcesite; /* carries the site of a force or torque sensor */
  int* mapped;    /* index recorded in MuJoCo's body name map */
  int* receiver;   /* mass was added to it */
  mjtNum* pos;     /* current pose in the current parent's frame */
  mjtNum* quat;
  mjtNum* mass; /* current mass properties (body frame) */
  mjtNum* ipos;
  mjtNum* iquat;
  mjtNum* inertia;
  int* geom_seq; /* order in which objects were moved (-1: not moved) */
  int* site_seq;
  int* cam_seq;
  int* light_seq;
  int nmoved;
} fuseState;

/* record a reference to the body named `name` (the world included; -1: unknown name) */
static int add_ref(fuseState* f, const char* name) {
  if (!name) {
    return 1;
  }
  int* refs = realloc(f->refs, sizeof(int) * (size_t)(f->nref + 1));
  if (!refs) {
    return 0;
  }
  f->refs = refs;
  f->refs[f->nref] = -1;
  for (int b = 0; b < f->nbody; b++) {
    const char* n = TN_AT(f->spec->bodies, tnSpecBody, b)->name;
    if (n && strcmp(n, name) == 0) {
      f->refs[f->nref] = b;
      break;
    }
  }
  if (f->refs[f->nref] < 0 && strcmp(name, "world") == 0) {
    f->refs[f->nref] = 0;
  }
  f->nref++;
  return 1;
}

/* the body of the site named `name`, -1 if none */
static int site_body(const tnSpec* s, const char* name) {
  for (int i = 0; name && i < s->sites.n; i++) {
    const tnSpecSite* site = TN_AT(s->sites, tnSpecSite, i);
    if (site->name && strcmp(site->name, name) == 0) {
      return site->body;
    }
  }
  return -1;
}

/* every body name another element resolves, and the bodies of force/torque sensor sites */
static int collect_refs(fuseState* f) {
  const tnSpec* s = f->spec;
  int ok = 1;
  for (int i = 0; i < s->cameras.n; i++) {
    ok &= add_ref(f, TN_AT(s->cameras, tnSpecCamera, i)->target);
  }
  for (int i = 0; i < s->lights.n; i++) {
    ok &= add_ref(f, TN_AT(s->lights, tnSpecLight, i)->target);
  }
  for (int i = 0; i < s->excludes.n; i++) {
    ok &= add_ref(f, TN_AT(s->excludes, tnSpecExclude, i)->body1);
    ok &= add_ref(f, TN_AT(s->excludes, tnSpecExclude, i)->body2);
  }
  for (int i = 0; i < s->equalities.n; i++) {
    const tnSpecEquality* e = TN_AT(s->equalities, tnSpecEquality, i);
    if ((e->type == mjEQ_CONNECT || e->type == mjEQ_WELD) && !e->use_sites) {
      ok &= add_ref(f, e->name1);
      ok &= add_ref(f, e->name2);
    }
  }
  for (int i = 0; i < s->actuators.n; i++) {
    const tnSpecActuator* a = TN_AT(s->actuators, tnSpecActuator, i);
    if (a->trntype == mjTRN_BODY) {
      ok &= add_ref(f, a->target);
    }
  }
  for (int i = 0; i < s->sensors.n; i++) {
    const tnSpecSensor* sn = TN_AT(s->sensors, tnSpecSensor, i);
    if (sn->objtype == mjOBJ_BODY || sn->objtype == mjOBJ_XBODY) {
      ok &= add_ref(f, sn->objname);
    }
    if (sn->reftype == mjOBJ_BODY || sn->reftype == mjOBJ_XBODY) {
      ok &= add_ref(f, sn->refname);
    }
    if ((sn->type == mjSENS_FORCE || sn->type == mjSENS_TORQUE) && sn->objtype == mjOBJ_SITE) {
      int b = site_body(s, sn->objname);
      if (b > 0) {
        f->forcesite[b] = 1;
      }
    }
  }
  for (int i = 0; i < s->tuple_elems.n; i++) {
    const tnSpecTupleElem* e = TN_AT(s->tuple_elems, tnSpecTupleElem, i);
    if (e->objtype == mjOBJ_BODY || e->objtype == mjOBJ_XBODY) {
      ok &= add_ref(f, e->objname);
    }
  }
  return ok;
}

/* MuJoCo's test whether named body b may be fused: every body reference must resolve with
 * b's name withdrawn. Its name map keeps the indices bodies had when last visited (the
 * original index until then) while fusing shrinks the body list, so a reference whose
 * recorded index is past the end of the list fails too, and keeps b. b's index is then
 * recorded as its current one. (Unnamed bodies are not tested.) */
static int may_fuse(fuseState* f, int b) {
  int nalive = 0, index = 0;
  for (int k = 0; k < f->nbody; k++) {
    nalive += f->alive[k];
    index += f->alive[k] && k < b;
  }
  int ok = !f->forcesite[b];
  for (int r = 0; r < f->nref && ok; r++) {
    int rb = f->refs[r];
    ok = rb >= 0 && rb != b && f->mapped[rb] <= nalive - 1;
  }
  f->mapped[b] = index;
  return ok;
}

/* child pose = parent pose o child pose */
static void compose(const mjtNum ppos[3], const mjtNum pquat[4], mjtNum pos[3], mjtNum quat[4]) {
  mjtNum p[3], q[4];
  mju_rotVecQuat(p, pos, pquat);
  mju_add3(pos, p, ppos);
  mju_mulQuat(q, pquat, quat);
  mju_copy4(quat, q);
}

/* an object of body b moves to body p: 1 if it did, its move recorded in *seq */
static int move_object(int* body, int b, int p, int* seq, int* nmoved) {
  if (*body != b) {
    return 0;
  }
  *body = p;
  *seq = (*nmoved)++;
  return 1;
}

/* a moved geom or site keeps its place: the fused body's pose is applied last */
static void set_fuse_frame(tnFrame* fuse, const mjtNum pos[3], const mjtNum quat[4]) {
  fuse->active = 1;
  mju_copy3(fuse->pos, pos);
  mju_copy4(fuse->quat, quat);
}

/* fuse body b into its current parent */
static int fuse_body(fuseState* f, int b) {
  tnSpec* s = f->spec;
  int p = f->parent[b];
  mjtNum* bpos = f->pos + 3 * b;
  mjtNum* bquat = f->quat + 4 * b;

  // mass properties into the parent (not into the world)
  if (p > 0 && f->mass[b] >= mjMINVAL) {
    mjtNum oipos[3], oiquat[4];
    mju_copy3(oipos, f->ipos + 3 * b);
    mju_copy4(oiquat, f->iquat + 4 * b);
    compose(bpos, bquat, oipos, oiquat);
    if (!tn__accumulateInertia(f->mass + p, f->ipos + 3 * p, f->iquat + 4 * p, f->inertia + 3 * p,
                               f->mass[b], oipos, oiquat, f->inertia + 3 * b)) {
      return 0;
    }
    f->receiver[p] = 1;
  }

  // child bodies: pose composed, adopted by the parent
  for (int k = b + 1; k < f->nbody; k++) {
    if (f->alive[k] && f->parent[k] == b) {
      compose(bpos, bquat, f->pos + 3 * k, f->quat + 4 * k);
      f->parent[k] = p;
    }
  }

  // geoms and sites: moved with the body's pose; cameras and lights: moved as written
  for (int i = 0; i < s->geoms.n; i++) {
    tnSpecGeom* g = TN_AT(s->geoms, tnSpecGeom, i);
    if (move_object(&g->body, b, p, f->geom_seq + i, &f->nmoved)) {
      set_fuse_frame(&g->fuse, bpos, bquat);
      g->fused = 1;
    }
  }
  for (int i = 0; i < s->sites.n; i++) {
    tnSpecSite* site = TN_AT(s->sites, tnSpecSite, i);
    if (move_object(&site->body, b, p, f->site_seq + i, &f->nmoved)) {
      set_fuse_frame(&site->fuse, bpos, bquat);
    }
  }
  for (int i = 0; i < s->cameras.n; i++) {
    move_object(&TN_AT(s->cameras, tnSpecCamera, i)->body, b, p, f->cam_seq + i, &f->nmoved);
  }
  for (int i = 0; i < s->lights.n; i++) {
    move_object(&TN_AT(s->lights, tnSpecLight, i)->body, b, p, f->light_seq + i, &f->nmoved);
  }
  f->alive[b] = 0;
  return 1;
}

/* reorder a family: objects not moved first (in order), then moved ones in move order */
static int reorder(tnVec* v, size_t size, const int* seq) {
  int n = v->n;
  char* tmp = malloc(size * (size_t)(n ? n : 1));
  int* idx = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!tmp || !idx) {
    free(tmp);
    free(idx);
    return 0;
  }
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (seq[i] < 0) {
      idx[k++] = i;
    }
  }

  // moved objects by sequence (each sequence number is used once)
  int nmoved = n - k;
  for (int m = 0; nmoved > 0; m++) {
    for (int i = 0; i < n; i++) {
      if (seq[i] == m) {
        idx[k++] = i;
        nmoved--;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    memcpy(tmp + size * (size_t)i, (char*)v->data + size * (size_t)idx[i], size);
  }
  memcpy(v->data, tmp, size * (size_t)n);
  free(tmp);
  free(idx);
  return 1;
}

/* rewrite the spec: bodies removed and renumbered, poses and inertias, object order */
static int rewrite_spec(fuseState* f) {
  tnSpec* s = f->spec;
  int* newid = malloc(sizeof(int) * (size_t)f->nbody);
  if (!newid) {
    return 0;
  }
  int n = 0;
  for (int b = 0; b < f->nbody; b++) {
    newid[b] = f->alive[b] ? n++ : -1;
  }

  // surviving bodies: parent, pose (children of fused bodies), inertia (receivers)
  for (int b = 1; b < f->nbody; b++) {
    tnSpecBody* body = TN_AT(s->bodies, tnSpecBody, b);
    if (!f->alive[b]) {
      continue;
    }
    if (f->parent[b] != body->parent) {
      memset(&body->pos, 0, sizeof(body->pos));
      body->orient.kind = TN_ORIENT_NONE;
      body->frame.active = 1;
      mju_copy3(body->frame.pos, f->pos + 3 * b);
      mju_copy4(body->frame.quat, f->quat + 4 * b);
    }
    body->parent = newid[f->parent[b]];
    if (f->receiver[b]) {
      body->has_fixed_inertia = 1;
      body->fixed_mass = f->mass[b];
      mju_copy3(body->fixed_ipos, f->ipos + 3 * b);
      mju_copy4(body->fixed_iquat, f->iquat + 4 * b);
      mju_copy3(body->fixed_inertia, f->inertia + 3 * b);
    }
  }

  // compact the bodies
  for (int b = 0; b < f->nbody; b++) {
    if (f->alive[b] && newid[b] != b) {
      *TN_AT(s->bodies, tnSpecBody, newid[b]) = *TN_AT(s->bodies, tnSpecBody, b);
    }
  }
  s->bodies.n = n;

  // objects: new body ids, moved ones after the parent's own
#define RENUMBER(vec, type)                                    \
  for (int i = 0; i < s->vec.n; i++) {                         \
    type* o = TN_AT(s->vec, type, i);                          \
    o->body = newid[o->body];                                  \
  }
  RENUMBER(joints, tnSpecJoint)
  RENUMBER(geoms, tnSpecGeom)
  RENUMBER(sites, tnSpecSite)
  RENUMBER(cameras, tnSpecCamera)
  RENUMBER(lights, tnSpecLight)
#undef RENUMBER
  free(newid);
  return reorder(&s->geoms, sizeof(tnSpecGeom), f->geom_seq) &&
         reorder(&s->sites, sizeof(tnSpecSite), f->site_seq) &&
         reorder(&s->cameras, sizeof(tnSpecCamera), f->cam_seq) &&
         reorder(&s->lights, sizeof(tnSpecLight), f->light_seq);
}

/* allocate the state, initialized from the unfused model */
static int state_init(fuseState* f, tnSpec* s, const mjModel* m) {
  memset(f, 0, sizeof(*f));
  f->spec = s;
  f->nbody = m->nbody;
  size_t nb = (size_t)m->nbody;
  f->parent = malloc(sizeof(int) * nb);
  f->alive = malloc(sizeof(int) * nb);
  f->forcesite = calloc(nb, sizeof(int));
  f->mapped = malloc(sizeof(int) * nb);
  f->receiver = calloc(nb, sizeof(int));
  f->pos = malloc(sizeof(mjtNum) * 3 * nb);
  f->quat = malloc(sizeof(mjtNum) * 4 * nb);
  f->mass = malloc(sizeof(mjtNum) * nb);
  f->ipos = malloc(sizeof(mjtNum) * 3 * nb);
  f->iquat = malloc(sizeof(mjtNum) * 4 * nb);
  f->inertia = malloc(sizeof(mjtNum) * 3 * nb);
  f->geom_seq = malloc(sizeof(int) * (size_t)(s->geoms.n + 1));
  f->site_seq = malloc(sizeof(int) * (size_t)(s->sites.n + 1));
  f->cam_seq = malloc(sizeof(int) * (size_t)(s->cameras.n + 1));
  f->light_seq = malloc(sizeof(int) * (size_t)(s->lights.n + 1));
  if (!f->parent || !f->alive || !f->forcesite || !f->mapped || !f->receiver || !f->pos ||
      !f->quat || !f->mass || !f->ipos || !f->iquat || !f->inertia || !f->geom_seq ||
      !f->site_seq || !f->cam_seq || !f->light_seq) {
    return 0;
  }
  for (int b = 0; b < m->nbody; b++) {
    f->parent[b] = m->body_parentid[b];
    f->alive[b] = 1;
    f->mapped[b] = b;
  }
  memcpy(f->pos, m->body_pos, sizeof(mjtNum) * 3 * nb);
  memcpy(f->quat, m->body_quat, sizeof(mjtNum) * 4 * nb);
  memcpy(f->mass, m->body_mass, sizeof(mjtNum) * nb);
  memcpy(f->ipos, m->body_ipos, sizeof(mjtNum) * 3 * nb);
  memcpy(f->iquat, m->body_iquat, sizeof(mjtNum) * 4 * nb);
  memcpy(f->inertia, m->body_inertia, sizeof(mjtNum) * 3 * nb);
  memset(f->geom_seq, -1, sizeof(int) * (size_t)(s->geoms.n + 1));
  memset(f->site_seq, -1, sizeof(int) * (size_t)(s->sites.n + 1));
  memset(f->cam_seq, -1, sizeof(int) * (size_t)(s->cameras.n + 1));
  memset(f->light_seq, -1, sizeof(int) * (size_t)(s->lights.n + 1));
  return 1;
}

static void state_free(fuseState* f) {
  void* arrays[] = {f->parent, f->alive,    f->forcesite, f->mapped, f->refs, f->receiver, f->pos,
                    f->quat,   f->mass,     f->ipos,       f->iquat,    f->inertia,
                    f->geom_seq, f->site_seq, f->cam_seq,  f->light_seq};
  for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
    free(arrays[i]);
  }
}

/* fuse the static bodies of spec in place; 0 with a message in err on failure */
int tn__compileFuseStatic(tnSpec* spec, char* err, int errsz) {
  // the model as written, without fusing and with masses not yet scaled
  mjtNum totalmass = spec->compiler.settotalmass;
  int discard = spec->compiler.discardvisual, alignfree = spec->compiler.alignfree;
  spec->compiler.fusestatic = -1; /* the pre-pass: free joints checked after fusing */
  spec->compiler.settotalmass = -1;
  spec->compiler.discardvisual = 0;
  spec->compiler.alignfree = -1; /* mass properties before any free-joint alignment */
  mjModel* m = tn__compileSpec(spec, err, errsz);
  spec->compiler.settotalmass = totalmass;
  spec->compiler.discardvisual = discard;
  spec->compiler.alignfree = alignfree;
  spec->compiler.fusestatic = 0;
  if (!m) {
    return 0;
  }

  // visit the bodies in order: fuse the static ones MuJoCo fuses
  fuseState f;
  int ok = state_init(&f, spec, m);
  if (ok) {
    ok = collect_refs(&f);
  }
  for (int b = 1; ok > 0 && b < f.nbody; b++) {
    const tnSpecBody* body = TN_AT(spec->bodies, tnSpecBody, b);
    int named = body->name && body->name[0];
    if ((named && !may_fuse(&f, b)) || m->body_jntnum[b] || body->mocap) {
      continue;
    }
    if (!fuse_body(&f, b)) {
      snprintf(err, (size_t)errsz, "%s: error fusing static body %s: inertia of its parent "
               "is not positive definite", spec->filename ? spec->filename : "model",
               body->name ? body->name : "(unnamed)");
      ok = -1;
    }
  }
  if (ok > 0 && !rewrite_spec(&f)) {
    ok = 0;
  }
  if (!ok) {
    snprintf(err, (size_t)errsz, "out of memory fusing static bodies");
  }
  state_free(&f);
  mj_deleteModel(m);
  return ok > 0;
}
