/* compiler/compile_discard.c — <compiler discardvisual="true">: what is only drawn is
 * removed from the model, as MuJoCo 3.14 decides after compiling it.
 *
 *  - every material and texture goes (geoms, sites and tendons lose their material);
 *  - a geom goes when it cannot collide (contype and conaffinity 0) and no other element
 *    names it (contact pair, sensor, tendon wrap, tuple);
 *  - a mesh goes when no remaining geom uses it (fitted primitives included);
 *  - a body that loses a geom keeps the mass properties it was compiled with, removed
 *    geoms included (MuJoCo removes them after computing the inertias).
 * The spec is first compiled as it is (without settotalmass, applied after removal as
 * MuJoCo scales the final model) to get those mass properties, then rewritten and compiled
 * again. Runs after fusestatic, as in MuJoCo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* true when `name` is in the list */
static int listed(const char* const* names, int n, const char* name) {
  for (int i = 0; name && i < n; i++) {
    if (names[i] && strcmp(names[i], name) == 0) {
      return 1;
    }
  }
  return 0;
}

/* the names of geoms other elements refer to; NULL on OOM (*n = 0: none) */
static const char** geom_refs(const tnSpec* s, int* n) {
  int cap = 2 * s->pairs.n + 2 * s->sensors.n + s->wraps.n + s->tuple_elems.n + 1;
  const char** names = malloc(sizeof(char*) * (size_t)cap);
  *n = 0;
  if (!names) {
    return NULL;
  }
  for (int i = 0; i < s->pairs.n; i++) {
    names[(*n)++] = TN_AT(s->pairs, tnSpecPair, i)->geom1;
    names[(*n)++] = TN_AT(s->pairs, tnSpecPair, i)->geom2;
  }
  for (int i = 0; i < s->sensors.n; i++) {
    const tnSpecSensor* sn = TN_AT(s->sensors, tnSpecSensor, i);
    names[(*n)++] = sn->objtype == mjOBJ_GEOM ? sn->objname : NULL;
    names[(*n)++] = sn->reftype == mjOBJ_GEOM ? sn->refname : NULL;
  }
  for (int i = 0; i < s->wraps.n; i++) {
    const tnSpecWrap* w = TN_AT(s->wraps, tnSpecWrap, i);
    names[(*n)++] = w->type == mjWRAP_SPHERE || w->type == mjWRAP_CYLINDER ? w->obj : NULL;
  }
  for (int i = 0; i < s->tuple_elems.n; i++) {
    const tnSpecTupleElem* e = TN_AT(s->tuple_elems, tnSpecTupleElem, i);
    names[(*n)++] = e->objtype == mjOBJ_GEOM ? e->objname : NULL;
  }
  return names;
}

/* keep the elements of v whose flag is set, in order */
static void compact(tnVec* v, size_t size, const char* keep) {
  int k = 0;
  for (int i = 0; i < v->n; i++) {
    if (keep[i]) {
      if (k != i) {
        memcpy((char*)v->data + size * (size_t)k, (char*)v->data + size * (size_t)i, size);
      }
      k++;
    }
  }
  v->n = k;
}

/* remove visual geoms, unused meshes, materials and textures from the spec; bodies that
 * lose geoms get their compiled mass properties (from m) */
static int rewrite_spec(tnSpec* s, const mjModel* m) {
  int nref = 0;
  const char** refs = geom_refs(s, &nref);
  char* keep_geom = malloc((size_t)s->geoms.n + 1);
  char* keep_mesh = calloc((size_t)s->meshes.n + 1, 1);
  if (!refs || !keep_geom || !keep_mesh) {
    free(refs);
    free(keep_geom);
    free(keep_mesh);
    return 0;
  }

  // geoms that go, and the bodies that lose them
  for (int i = 0; i < s->geoms.n; i++) {
    tnSpecGeom* g = TN_AT(s->geoms, tnSpecGeom, i);
    int visual = !g->contype && !g->conaffinity && !listed(refs, nref, g->name);
    keep_geom[i] = !visual;
    tnSpecBody* body = TN_AT(s->bodies, tnSpecBody, g->body);
    if (visual && g->body > 0 && !body->has_fixed_inertia) {
      body->has_fixed_inertia = 1;
      body->fixed_mass = m->body_mass[g->body];
      mju_copy3(body->fixed_ipos, m->body_ipos + 3 * g->body);
      mju_copy4(body->fixed_iquat, m->body_iquat + 4 * g->body);
      mju_copy3(body->fixed_inertia, m->body_inertia + 3 * g->body);
    }
  }

  // meshes that a remaining geom uses
  for (int i = 0; i < s->geoms.n; i++) {
    const tnSpecGeom* g = TN_AT(s->geoms, tnSpecGeom, i);
    for (int k = 0; keep_geom[i] && g->mesh && k < s->meshes.n; k++) {
      const char* name = TN_AT(s->meshes, tnSpecMesh, k)->name;
      keep_mesh[k] |= name && strcmp(name, g->mesh) == 0;
    }
  }
  compact(&s->geoms, sizeof(tnSpecGeom), keep_geom);
  compact(&s->meshes, sizeof(tnSpecMesh), keep_mesh);

  // no materials and no textures: nothing refers to one any more
  s->materials.n = 0;
  s->textures.n = 0;
  for (int i = 0; i < s->geoms.n; i++) {
    TN_AT(s->geoms, tnSpecGeom, i)->material = NULL;
  }
  for (int i = 0; i < s->sites.n; i++) {
    TN_AT(s->sites, tnSpecSite, i)->material = NULL;
  }
  for (int i = 0; i < s->tendons.n; i++) {
    TN_AT(s->tendons, tnSpecTendon, i)->material = NULL;
  }
  free(refs);
  free(keep_geom);
  free(keep_mesh);
  return 1;
}

/* discard the visual-only parts of spec in place; 0 with a message in err on failure */
int tn__compileDiscardVisual(tnSpec* spec, char* err, int errsz) {
  // the model as it is, with masses not yet scaled
  mjtNum totalmass = spec->compiler.settotalmass;
  int alignfree = spec->compiler.alignfree;
  spec->compiler.discardvisual = 0;
  spec->compiler.settotalmass = -1;
  spec->compiler.alignfree = -1; /* mass properties before any free-joint alignment */
  mjModel* m = tn__compileSpec(spec, err, errsz);
  spec->compiler.settotalmass = totalmass;
  spec->compiler.alignfree = alignfree;
  if (!m) {
    return 0;
  }
  int ok = rewrite_spec(spec, m);
  mj_deleteModel(m);
  if (!ok) {
    snprintf(err, (size_t)errsz, "out of memory discarding visual geoms");
  }
  return ok;
}
