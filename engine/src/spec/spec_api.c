/* spec/spec_api.c — adding, finding, walking and deleting the elements of a spec, and the
 * accessors of names, strings and arrays (MuJoCo's mjs_* functions). */
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"
#include "spec/spec_tree.h"

tnsNode* tn__specDefaultNode(tnsSpec* s);

/* ---------------------------------------------------------------------------------------
 * adding elements
 * ------------------------------------------------------------------------------------- */

/* the default class node a public mjsDefault belongs to */
static tnsNode* def_node(const mjsDefault* def) {
  return def ? TNS_NODE(def->element) : NULL;
}

/* a default class by name, NULL if none */
static tnsNode* find_class(tnsSpec* s, const char* name) {
  for (tnsNode* n = s->head; n; n = n->next) {
    if (n->type == mjOBJ_DEFAULT && !n->deleted && strcmp(tn__specText(n->name), name) == 0) {
      return n;
    }
  }
  return NULL;
}

tnsNode* tn__specBodyClass(tnsNode* body) {
  for (tnsNode* b = body; b; b = b->parent) {
    const char* cc = tn__specText(b->u.body.childclass);
    if (cc[0]) {
      tnsNode* d = find_class(b->owner, cc);
      if (d) {
        return d;
      }
    }
    if (b->def && b->def != b->owner->main) {
      return b->def;
    }
  }
  return body->owner->main;
}

/* a new tree element of `type` in body, its values from the class's struct `proto` (NULL:
 * the type's built-in values already set by the caller) */
static tnsNode* add_tree(mjsBody* body, int type, tnsNode* cls, const void* proto) {
  if (!body) {
    mju_error("mjs_add: body is NULL");
    return NULL;
  }
  tnsNode* b = TNS_NODE(body->element);
  tnsNode* n = tn__specNode(b->owner, type);
  if (!n || (proto && !tn__specCopyObject(n, proto, type))) {
    mju_error("mjs_add: out of memory");
    return NULL;
  }
  tn__specAdopt(b, n);
  n->def = cls;
  return n;
}

/* the class for a new child of body: the given one, else the body's */
static tnsNode* class_for(mjsBody* body, const mjsDefault* def) {
  return def ? def_node(def) : body ? tn__specBodyClass(TNS_NODE(body->element)) : NULL;
}

mjsBody* mjs_addBody(mjsBody* body, const mjsDefault* def) {
  mjsBody values;
  mjs_defaultBody(&values);
  tnsNode* n = add_tree(body, mjOBJ_BODY, NULL, NULL);
  if (!n) {
    return NULL;
  }
  tn__specCopyObject(n, &values, mjOBJ_BODY);
  n->def = def ? def_node(def) : NULL;
  return &n->u.body;
}

mjsSite* mjs_addSite(mjsBody* body, const mjsDefault* def) {
  tnsNode* cls = class_for(body, def);
  tnsNode* n = add_tree(body, mjOBJ_SITE, cls, cls ? cls->u.def.site : NULL);
  return n ? &n->u.site : NULL;
}

mjsJoint* mjs_addJoint(mjsBody* body, const mjsDefault* def) {
  tnsNode* cls = class_for(body, def);
  tnsNode* n = add_tree(body, mjOBJ_JOINT, cls, cls ? cls->u.def.joint : NULL);
  return n ? &n->u.joint : NULL;
}

mjsJoint* mjs_addFreeJoint(mjsBody* body) {
  mjsJoint* j = mjs_addJoint(body, NULL);
  if (j) {
    j->type = mjJNT_FREE;
  }
  return j;
}

mjsGeom* mjs_addGeom(mjsBody* body, const mjsDefault* def) {
  tnsNode* cls = class_for(body, def);
  tnsNode* n = add_tree(body, mjOBJ_GEOM, cls, cls ? cls->u.def.geom : NULL);
  return n ? &n->u.geom : NULL;
}

mjsCamera* mjs_addCamera(mjsBody* body, const mjsDefault* def) {
  tnsNode* cls = class_for(body, def);
  tnsNode* n = add_tree(body, mjOBJ_CAMERA, cls, cls ? cls->u.def.camera : NULL);
  return n ? &n->u.camera : NULL;
}

mjsLight* mjs_addLight(mjsBody* body, const mjsDefault* def) {
  tnsNode* cls = class_for(body, def);
  tnsNode* n = add_tree(body, mjOBJ_LIGHT, cls, cls ? cls->u.def.light : NULL);
  return n ? &n->u.light : NULL;
}

mjsFrame* mjs_addFrame(mjsBody* body, mjsFrame* parentframe) {
  mjsFrame values;
  mjs_defaultFrame(&values);
  tnsNode* n = add_tree(body, mjOBJ_FRAME, NULL, &values);
  if (!n) {
    return NULL;
  }
  n->frame = parentframe ? TNS_NODE(parentframe->element) : NULL;
  return &n->u.frame;
}

/* a new non-tree element of spec s from a prototype struct */
static tnsNode* add_global(mjSpec* s, int type, tnsNode* cls, const void* proto) {
  if (!s) {
    mju_error("mjs_add: spec is NULL");
    return NULL;
  }
  tnsNode* n = tn__specNode(TNS_SPEC(s), type);
  if (!n || (proto && !tn__specCopyObject(n, proto, type))) {
    mju_error("mjs_add: out of memory");
    return NULL;
  }
  n->def = cls;
  return n;
}

/* the class for a new non-tree element: the given one, else main */
static tnsNode* global_class(mjSpec* s, const mjsDefault* def) {
  return def ? def_node(def) : s ? TNS_SPEC(s)->main : NULL;
}

mjsActuator* mjs_addActuator(mjSpec* s, const mjsDefault* def) {
  tnsNode* cls = global_class(s, def);
  tnsNode* n = add_global(s, mjOBJ_ACTUATOR, cls, cls ? cls->u.def.actuator : NULL);
  return n ? &n->u.actuator : NULL;
}

mjsSensor* mjs_addSensor(mjSpec* s) {
  mjsSensor values;
  mjs_defaultSensor(&values);
  tnsNode* n = add_global(s, mjOBJ_SENSOR, NULL, &values);
  return n ? &n->u.sensor : NULL;
}

mjsPair* mjs_addPair(mjSpec* s, const mjsDefault* def) {
  tnsNode* cls = global_class(s, def);
  tnsNode* n = add_global(s, mjOBJ_PAIR, cls, cls ? cls->u.def.pair : NULL);
  return n ? &n->u.pair : NULL;
}

mjsExclude* mjs_addExclude(mjSpec* s) {
  tnsNode* n = add_global(s, mjOBJ_EXCLUDE, NULL, NULL);
  return n ? &n->u.exclude : NULL;
}

mjsEquality* mjs_addEquality(mjSpec* s, const mjsDefault* def) {
  tnsNode* cls = global_class(s, def);
  tnsNode* n = add_global(s, mjOBJ_EQUALITY, cls, cls ? cls->u.def.equality : NULL);
  return n ? &n->u.equality : NULL;
}

mjsTendon* mjs_addTendon(mjSpec* s, const mjsDefault* def) {
  tnsNode* cls = global_class(s, def);
  tnsNode* n = add_global(s, mjOBJ_TENDON, cls, cls ? cls->u.def.tendon : NULL);
  return n ? &n->u.tendon : NULL;
}

mjsNumeric* mjs_addNumeric(mjSpec* s) {
  mjsNumeric values;
  mjs_defaultNumeric(&values);
  tnsNode* n = add_global(s, mjOBJ_NUMERIC, NULL, &values);
  return n ? &n->u.numeric : NULL;
}

mjsText* mjs_addText(mjSpec* s) {
  tnsNode* n = add_global(s, mjOBJ_TEXT, NULL, NULL);
  return n ? &n->u.text : NULL;
}

mjsTuple* mjs_addTuple(mjSpec* s) {
  tnsNode* n = add_global(s, mjOBJ_TUPLE, NULL, NULL);
  return n ? &n->u.tuple : NULL;
}

mjsKey* mjs_addKey(mjSpec* s) {
  tnsNode* n = add_global(s, mjOBJ_KEY, NULL, NULL);
  return n ? &n->u.key : NULL;
}

mjsMesh* mjs_addMesh(mjSpec* s, const mjsDefault* def) {
  tnsNode* cls = global_class(s, def);
  tnsNode* n = add_global(s, mjOBJ_MESH, cls, cls ? cls->u.def.mesh : NULL);
  return n ? &n->u.mesh : NULL;
}

mjsHField* mjs_addHField(mjSpec* s) {
  tnsNode* n = add_global(s, mjOBJ_HFIELD, NULL, NULL);
  return n ? &n->u.hfield : NULL;
}

mjsSkin* mjs_addSkin(mjSpec* s) {
  mjsSkin values;
  mjs_defaultSkin(&values);
  tnsNode* n = add_global(s, mjOBJ_SKIN, NULL, &values);
  return n ? &n->u.skin : NULL;
}

mjsTexture* mjs_addTexture(mjSpec* s) {
  mjsTexture values;
  mjs_defaultTexture(&values);
  tnsNode* n = add_global(s, mjOBJ_TEXTURE, NULL, &values);
  return n ? &n->u.texture : NULL;
}

mjsMaterial* mjs_addMaterial(mjSpec* s, const mjsDefault* def) {
  tnsNode* cls = global_class(s, def);
  tnsNode* n = add_global(s, mjOBJ_MATERIAL, cls, cls ? cls->u.def.material : NULL);
  return n ? &n->u.material : NULL;
}

mjsDefault* mjs_addDefault(mjSpec* s, const char* classname, const mjsDefault* parent) {
  tnsSpec* sp = TNS_SPEC(s);
  if (!classname || find_class(sp, classname)) {
    mju_error("mjs_addDefault: repeated default class name '%s'", classname ? classname : "");
    return NULL;
  }
  tnsNode* d = tn__specDefaultNode(sp);
  tnsNode* p = parent ? def_node(parent) : sp->main;
  if (!d) {
    mju_error("mjs_addDefault: out of memory");
    return NULL;
  }
  tn__specSetText(d->name, classname);
  d->parent = p;
  // the new class starts as a copy of its parent
  const mjsDefault* pd = &p->u.def;
  mjsDefault* nd = &d->u.def;
  tn__specCopyObject(TNS_NODE(nd->joint->element), pd->joint, mjOBJ_JOINT);
  tn__specCopyObject(TNS_NODE(nd->geom->element), pd->geom, mjOBJ_GEOM);
  tn__specCopyObject(TNS_NODE(nd->site->element), pd->site, mjOBJ_SITE);
  tn__specCopyObject(TNS_NODE(nd->camera->element), pd->camera, mjOBJ_CAMERA);
  tn__specCopyObject(TNS_NODE(nd->light->element), pd->light, mjOBJ_LIGHT);
  tn__specCopyObject(TNS_NODE(nd->flex->element), pd->flex, mjOBJ_FLEX);
  tn__specCopyObject(TNS_NODE(nd->mesh->element), pd->mesh, mjOBJ_MESH);
  tn__specCopyObject(TNS_NODE(nd->material->element), pd->material, mjOBJ_MATERIAL);
  tn__specCopyObject(TNS_NODE(nd->pair->element), pd->pair, mjOBJ_PAIR);
  tn__specCopyObject(TNS_NODE(nd->equality->element), pd->equality, mjOBJ_EQUALITY);
  tn__specCopyObject(TNS_NODE(nd->tendon->element), pd->tendon, mjOBJ_TENDON);
  tn__specCopyObject(TNS_NODE(nd->actuator->element), pd->actuator, mjOBJ_ACTUATOR);
  return nd;
}

/* ---------------------------------------------------------------------------------------
 * tendon wraps
 * ------------------------------------------------------------------------------------- */

/* a new wrap at the end of the tendon's path */
static tnsNode* add_wrap(mjsTendon* tendon, int type, const char* target, double prm) {
  if (!tendon) {
    mju_error("mjs_wrap: tendon is NULL");
    return NULL;
  }
  tnsNode* t = TNS_NODE(tendon->element);
  tnsNode* w = tn__specNode(t->owner, TNS_WRAP);
  if (!w) {
    mju_error("mjs_wrap: out of memory");
    return NULL;
  }
  w->hidden = 1;  // reached through its tendon only
  w->u.wrap.type = (mjtWrap)type;
  w->wrap_target = tn__specHandle(t->owner, TNS_STR);
  w->wrap_side = tn__specHandle(t->owner, TNS_STR);
  if (!w->wrap_target || !w->wrap_side || !tn__specSetText(w->wrap_target, target)) {
    mju_error("mjs_wrap: out of memory");
    return NULL;
  }
  w->wrap_prm = prm;
  tn__specAdopt(t, w);
  return w;
}

mjsWrap* mjs_wrapSite(mjsTendon* tendon, const char* name) {
  tnsNode* w = add_wrap(tendon, mjWRAP_SITE, name, 0);
  return w ? &w->u.wrap : NULL;
}

mjsWrap* mjs_wrapGeom(mjsTendon* tendon, const char* name, const char* sidesite) {
  tnsNode* w = add_wrap(tendon, mjWRAP_SPHERE, name, 0);
  if (w && sidesite) {
    tn__specSetText(w->wrap_side, sidesite);
  }
  return w ? &w->u.wrap : NULL;
}

mjsWrap* mjs_wrapJoint(mjsTendon* tendon, const char* name, double coef) {
  tnsNode* w = add_wrap(tendon, mjWRAP_JOINT, name, coef);
  return w ? &w->u.wrap : NULL;
}

mjsWrap* mjs_wrapPulley(mjsTendon* tendon, double divisor) {
  tnsNode* w = add_wrap(tendon, mjWRAP_PULLEY, "", divisor);
  return w ? &w->u.wrap : NULL;
}

int mjs_getWrapNum(const mjsTendon* tendonspec) {
  int n = 0;
  for (tnsNode* w = TNS_NODE(tendonspec->element)->first; w; w = w->sib_next) {
    n++;
  }
  return n;
}

mjsWrap* mjs_getWrap(const mjsTendon* tendonspec, int i) {
  tnsNode* w = TNS_NODE(tendonspec->element)->first;
  for (; w && i > 0; i--) {
    w = w->sib_next;
  }
  return w && i == 0 ? &w->u.wrap : NULL;
}

/* ---------------------------------------------------------------------------------------
 * finding elements
 * ------------------------------------------------------------------------------------- */

/* a live (not hidden, not deleted) node of a type with a name */
static tnsNode* find_named(const tnsSpec* s, int type, const char* name) {
  if (!name) {
    return NULL;
  }
  for (tnsNode* n = s->head; n; n = n->next) {
    if (n->type == type && !n->hidden && !n->deleted && strcmp(tn__specText(n->name), name) == 0) {
      return n;
    }
  }
  return NULL;
}

mjsElement* mjs_getWrapTarget(const mjsWrap* wrap) {
  tnsNode* w = TNS_NODE(wrap->element);
  int type = wrap->type == mjWRAP_JOINT  ? mjOBJ_JOINT
             : wrap->type == mjWRAP_SITE ? mjOBJ_SITE
                                         : mjOBJ_GEOM;
  tnsNode* n = find_named(w->owner, type, tn__specText(w->wrap_target));
  return n ? &n->element : NULL;
}

mjsSite* mjs_getWrapSideSite(const mjsWrap* wrap) {
  tnsNode* w = TNS_NODE(wrap->element);
  tnsNode* n = find_named(w->owner, mjOBJ_SITE, tn__specText(w->wrap_side));
  return n ? &n->u.site : NULL;
}

double mjs_getWrapDivisor(const mjsWrap* wrap) {
  return wrap->type == mjWRAP_PULLEY ? TNS_NODE(wrap->element)->wrap_prm : 0;
}

double mjs_getWrapCoef(const mjsWrap* wrap) {
  return wrap->type == mjWRAP_JOINT ? TNS_NODE(wrap->element)->wrap_prm : 0;
}

mjSpec* mjs_getSpec(const mjsElement* element) {
  return &TNS_NODE(element)->owner->root->u.spec;
}

mjsCompiler* mjs_getCompiler(const mjsElement* element) {
  return &TNS_NODE(element)->owner->root->u.spec.compiler;
}

/* a spec attached to this one, by name: attaching is not supported yet, so there is none */
mjSpec* mjs_findSpec(const mjSpec* spec, const char* name) {
  (void)spec;
  (void)name;
  return NULL;
}

mjsBody* mjs_findBody(const mjSpec* s, const char* name) {
  tnsNode* n = find_named(TNS_SPEC(s), mjOBJ_BODY, name);
  return n ? &n->u.body : NULL;
}

mjsFrame* mjs_findFrame(const mjSpec* s, const char* name) {
  tnsNode* n = find_named(TNS_SPEC(s), mjOBJ_FRAME, name);
  return n ? &n->u.frame : NULL;
}

mjsElement* mjs_findElement(const mjSpec* s, mjtObj type, const char* name) {
  tnsNode* n = type == mjOBJ_DEFAULT ? find_class(TNS_SPEC(s), name ? name : "")
                                     : find_named(TNS_SPEC(s), type, name);
  return n ? &n->element : NULL;
}

/* a body named `name` in the subtree below b */
static tnsNode* find_below(tnsNode* b, const char* name) {
  for (tnsNode* c = b->first; c; c = c->sib_next) {
    if (c->type != mjOBJ_BODY || c->deleted) {
      continue;
    }
    if (strcmp(tn__specText(c->name), name) == 0) {
      return c;
    }
    tnsNode* d = find_below(c, name);
    if (d) {
      return d;
    }
  }
  return NULL;
}

mjsBody* mjs_findChild(const mjsBody* body, const char* name) {
  tnsNode* n = name ? find_below(TNS_NODE(body->element), name) : NULL;
  return n ? &n->u.body : NULL;
}

mjsBody* mjs_getParent(const mjsElement* element) {
  tnsNode* n = TNS_NODE(element);
  return n->parent && n->parent->type == mjOBJ_BODY ? &n->parent->u.body : NULL;
}

mjsFrame* mjs_getFrame(const mjsElement* element) {
  tnsNode* n = TNS_NODE(element);
  return n->frame ? &n->frame->u.frame : NULL;
}

/* an element's class; a body's is the class its new children get (its own, its childclass,
 * else its parent's) */
mjsDefault* mjs_getDefault(const mjsElement* element) {
  tnsNode* n = TNS_NODE(element);
  tnsNode* d = n->type == mjOBJ_DEFAULT ? n
               : n->type == mjOBJ_BODY  ? tn__specBodyClass(n)
               : n->def                 ? n->def
                                        : n->owner->main;
  return &d->u.def;
}

mjsDefault* mjs_findDefault(const mjSpec* s, const char* classname) {
  tnsNode* d = classname ? find_class(TNS_SPEC(s), classname) : NULL;
  return d ? &d->u.def : NULL;
}

mjsDefault* mjs_getSpecDefault(const mjSpec* s) {
  return &TNS_SPEC(s)->main->u.def;
}

int mjs_getId(const mjsElement* element) {
  return element ? TNS_NODE(element)->id : -1;
}

/* ---------------------------------------------------------------------------------------
 * walking
 * ------------------------------------------------------------------------------------- */

/* the next node after n in a preorder walk of the subtree below root (recurse) or of
 * root's children only */
static tnsNode* walk_next(const tnsNode* root, const tnsNode* n, int recurse) {
  if (recurse && n->type == mjOBJ_BODY && n->first) {
    return n->first;
  }
  while (n && n != root) {
    if (n->sib_next) {
      return n->sib_next;
    }
    if (!recurse) {
      return NULL;
    }
    n = n->parent;
  }
  return NULL;
}

/* the first node from n on (inclusive) in the walk that is live and of `type` */
static tnsNode* walk_find(const tnsNode* root, tnsNode* n, int type, int recurse) {
  while (n && (n->deleted || n->hidden || (type != mjOBJ_UNKNOWN && n->type != type))) {
    n = walk_next(root, n, recurse);
  }
  return n;
}

mjsElement* mjs_firstChild(const mjsBody* body, mjtObj type, int recurse) {
  const tnsNode* b = TNS_NODE(body->element);
  tnsNode* n = walk_find(b, b->first, type, recurse);
  return n ? &n->element : NULL;
}

mjsElement* mjs_nextChild(const mjsBody* body, const mjsElement* child, int recurse) {
  if (!child) {
    return NULL;
  }
  const tnsNode* b = TNS_NODE(body->element);
  const tnsNode* c = TNS_NODE(child);
  tnsNode* n = walk_find(b, walk_next(b, c, recurse), c->type, recurse);
  return n ? &n->element : NULL;
}

/* the first live node of a type from n on in creation order */
static tnsNode* list_find(tnsNode* n, int type) {
  while (n && (n->deleted || n->hidden || n->type != type)) {
    n = n->next;
  }
  return n;
}

mjsElement* mjs_firstElement(const mjSpec* s, mjtObj type) {
  tnsNode* n = list_find(TNS_SPEC(s)->head, type);
  return n ? &n->element : NULL;
}

mjsElement* mjs_nextElement(const mjSpec* s, const mjsElement* element) {
  (void)s;
  if (!element) {
    return NULL;
  }
  const tnsNode* e = TNS_NODE(element);
  tnsNode* n = list_find(e->next, e->type);
  return n ? &n->element : NULL;
}

/* ---------------------------------------------------------------------------------------
 * deleting
 * ------------------------------------------------------------------------------------- */

/* mark a node and everything below it deleted */
static void mark_deleted(tnsNode* n) {
  n->deleted = 1;
  for (tnsNode* c = n->first; c; c = c->sib_next) {
    mark_deleted(c);
  }
}

int mjs_delete(mjSpec* spec, mjsElement* element) {
  tnsSpec* s = TNS_SPEC(spec);
  if (!element) {
    tn__specError(s, "mjs_delete: element is NULL");
    return -1;
  }
  tnsNode* n = TNS_NODE(element);
  if (n->owner != s || n == s->world || n == s->root || n == s->main || n->hidden) {
    tn__specError(s, "mjs_delete: element cannot be deleted from this spec");
    return -1;
  }
  if (n->parent) {
    tnsNode* p = n->parent;
    if (n->sib_prev) {
      n->sib_prev->sib_next = n->sib_next;
    } else {
      p->first = n->sib_next;
    }
    if (n->sib_next) {
      n->sib_next->sib_prev = n->sib_prev;
    } else {
      p->last = n->sib_prev;
    }
  }
  mark_deleted(n);
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * names, strings and arrays
 * ------------------------------------------------------------------------------------- */

/* the spec's own element has a name of its own too (not its modelname), as in MuJoCo */
int mjs_setName(mjsElement* element, const char* name) {
  return tn__specSetText(TNS_NODE(element)->name, name) ? 0 : -1;
}

mjString* mjs_getName(mjsElement* element) {
  return TNS_NODE(element)->name;
}

void mjs_setString(mjString* dest, const char* text) {
  tn__specSetText(dest, text);
}

const char* mjs_getString(const mjString* source) {
  return tn__specText(source);
}

void mjs_setBuffer(mjByteVec* dest, const void* array, int size) {
  tn__specSetArray(dest, array, size);
}

void mjs_setInt(mjIntVec* dest, const int* array, int size) {
  tn__specSetArray(dest, array, size);
}

void mjs_setFloat(mjFloatVec* dest, const float* array, int size) {
  tn__specSetArray(dest, array, size);
}

void mjs_setDouble(mjDoubleVec* dest, const double* array, int size) {
  tn__specSetArray(dest, array, size);
}

const double* mjs_getDouble(const mjDoubleVec* source, int* size) {
  const tnsHandle* h = source;
  if (size) {
    *size = h ? h->n : 0;
  }
  return h && h->n ? (const double*)h->data : NULL;
}

/* append one string to a string vector */
static int strvec_push(tnsHandle* h, const char* text) {
  char** grown = realloc(h->data, sizeof(char*) * (size_t)(h->n + 1));
  if (!grown) {
    return 0;
  }
  h->data = grown;
  size_t len = strlen(text);
  char* c = malloc(len + 1);
  if (!c) {
    return 0;
  }
  memcpy(c, text, len + 1);
  grown[h->n++] = c;
  return 1;
}

/* split text at whitespace into the vector (replacing its contents) */
void mjs_setStringVec(mjStringVec* dest, const char* text) {
  tnsHandle* h = dest;
  tn__specSetArray(h, NULL, 0);
  const char* p = text ? text : "";
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
      p++;
    }
    const char* start = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
      p++;
    }
    if (p > start) {
      char word[1024];
      size_t len = (size_t)(p - start) < sizeof(word) - 1 ? (size_t)(p - start) : sizeof(word) - 1;
      memcpy(word, start, len);
      word[len] = 0;
      strvec_push(h, word);
    }
  }
}

mjtBool mjs_setInStringVec(mjStringVec* dest, int i, const char* text) {
  tnsHandle* h = dest;
  if (i < 0 || i >= h->n) {
    mju_error("mjs_setInStringVec: index %d out of range (size %d)", i, h->n);
    return 0;
  }
  size_t len = strlen(text);
  char* c = malloc(len + 1);
  if (!c) {
    return 0;
  }
  memcpy(c, text, len + 1);
  free(((char**)h->data)[i]);
  ((char**)h->data)[i] = c;
  return 1;
}

void mjs_appendString(mjStringVec* dest, const char* text) {
  strvec_push(dest, text ? text : "");
}

/* append an array to a vector of arrays */
static void vecvec_push(tnsHandle* h, int kind, const void* array, int size) {
  tnsHandle* grown = realloc(h->data, sizeof(tnsHandle) * (size_t)(h->n + 1));
  if (!grown) {
    return;
  }
  h->data = grown;
  tnsHandle* e = grown + h->n;
  memset(e, 0, sizeof(*e));
  e->kind = kind;
  if (tn__specSetArray(e, array, size)) {
    h->n++;
  }
}

void mjs_appendIntVec(mjIntVecVec* dest, const int* array, int size) {
  vecvec_push(dest, TNS_INT, array, size);
}

void mjs_appendFloatVec(mjFloatVecVec* dest, const float* array, int size) {
  vecvec_push(dest, TNS_FLOAT, array, size);
}

/* ---------------------------------------------------------------------------------------
 * element settings
 * ------------------------------------------------------------------------------------- */

void mjs_setDefault(mjsElement* element, const mjsDefault* def) {
  TNS_NODE(element)->def = def_node(def);
}

int mjs_setFrame(mjsElement* dest, mjsFrame* frame) {
  tnsNode* n = TNS_NODE(dest);
  if (!frame) {
    n->frame = NULL;
    return 0;
  }
  tnsNode* f = TNS_NODE(frame->element);
  if (f->parent != n->parent) {
    tn__specError(n->owner, "mjs_setFrame: the frame and the element are in different bodies");
    return -1;
  }
  for (tnsNode* up = f; up; up = up->frame) {
    if (up == n) {
      tn__specError(n->owner, "mjs_setFrame: a frame cannot contain itself");
      return -1;
    }
  }
  n->frame = f;
  return 0;
}

/* find the user value of a key */
static tnsUserValue** user_slot(tnsNode* n, const char* key) {
  tnsUserValue** p = &n->user;
  while (*p && strcmp((*p)->key, key) != 0) {
    p = &(*p)->next;
  }
  return p;
}

void mjs_setUserValueWithCleanup(mjsElement* element, const char* key, const void* data,
                                 void (*cleanup)(const void*)) {
  tnsNode* n = TNS_NODE(element);
  tnsUserValue** p = user_slot(n, key);
  if (*p) {
    if ((*p)->cleanup) {
      (*p)->cleanup((*p)->data);
    }
  } else {
    tnsUserValue* u = calloc(1, sizeof(tnsUserValue));
    char* k = malloc(strlen(key) + 1);
    if (!u || !k) {
      free(u);
      free(k);
      mju_error("mjs_setUserValue: out of memory");
      return;
    }
    strcpy(k, key);
    u->key = k;
    *p = u;
  }
  (*p)->data = data;
  (*p)->cleanup = cleanup;
}

void mjs_setUserValue(mjsElement* element, const char* key, const void* data) {
  mjs_setUserValueWithCleanup(element, key, data, NULL);
}

const void* mjs_getUserValue(mjsElement* element, const char* key) {
  tnsUserValue** p = user_slot(TNS_NODE(element), key);
  return *p ? (*p)->data : NULL;
}

void mjs_deleteUserValue(mjsElement* element, const char* key) {
  tnsUserValue** p = user_slot(TNS_NODE(element), key);
  if (*p) {
    tnsUserValue* u = *p;
    *p = u->next;
    if (u->cleanup) {
      u->cleanup(u->data);
    }
    free(u->key);
    free(u);
  }
}

const char* mjs_resolveOrientation(double quat[4], mjtByte degree, const char* sequence,
                                   const mjsOrientation* orientation) {
  static _Thread_local char why[256];
  tnOrientation o = {TN_ORIENT_NONE, {0}};
  switch (orientation->type) {
    case mjORIENTATION_AXISANGLE:
      o.kind = TN_ORIENT_AXISANGLE;
      memcpy(o.v, orientation->axisangle, 4 * sizeof(double));
      break;
    case mjORIENTATION_XYAXES:
      o.kind = TN_ORIENT_XYAXES;
      memcpy(o.v, orientation->xyaxes, 6 * sizeof(double));
      break;
    case mjORIENTATION_ZAXIS:
      o.kind = TN_ORIENT_ZAXIS;
      memcpy(o.v, orientation->zaxis, 3 * sizeof(double));
      break;
    case mjORIENTATION_EULER:
      o.kind = TN_ORIENT_EULER;
      memcpy(o.v, orientation->euler, 3 * sizeof(double));
      break;
    default: return NULL;  // the quaternion itself: nothing to resolve
  }
  char seq[3] = {'x', 'y', 'z'};
  if (sequence) {
    memcpy(seq, sequence, 3);
  }
  why[0] = 0;
  mjtNum q[4];
  if (!tn__orientationToQuat(q, &o, degree, seq, why, sizeof(why))) {
    return why[0] ? why : "invalid orientation";
  }
  memcpy(quat, q, sizeof(q));
  return NULL;
}

int mjs_sensorDim(const mjsSensor* sensor) {
  tnSpecSensor s = {0};
  s.type = sensor->type;
  s.dim = sensor->dim;
  return tn__sensorDim(&s);
}

/* ---------------------------------------------------------------------------------------
 * checked casts
 * ------------------------------------------------------------------------------------- */

#define AS(fn, T, obj, member)                  \
  T* fn(mjsElement* element) {                  \
    if (!element || element->elemtype != obj) { \
      return NULL;                              \
    }                                           \
    return &TNS_NODE(element)->u.member;        \
  }
AS(mjs_asBody, mjsBody, mjOBJ_BODY, body)
AS(mjs_asGeom, mjsGeom, mjOBJ_GEOM, geom)
AS(mjs_asJoint, mjsJoint, mjOBJ_JOINT, joint)
AS(mjs_asSite, mjsSite, mjOBJ_SITE, site)
AS(mjs_asCamera, mjsCamera, mjOBJ_CAMERA, camera)
AS(mjs_asLight, mjsLight, mjOBJ_LIGHT, light)
AS(mjs_asFrame, mjsFrame, mjOBJ_FRAME, frame)
AS(mjs_asActuator, mjsActuator, mjOBJ_ACTUATOR, actuator)
AS(mjs_asSensor, mjsSensor, mjOBJ_SENSOR, sensor)
AS(mjs_asFlex, mjsFlex, mjOBJ_FLEX, flex)
AS(mjs_asPair, mjsPair, mjOBJ_PAIR, pair)
AS(mjs_asEquality, mjsEquality, mjOBJ_EQUALITY, equality)
AS(mjs_asExclude, mjsExclude, mjOBJ_EXCLUDE, exclude)
AS(mjs_asTendon, mjsTendon, mjOBJ_TENDON, tendon)
AS(mjs_asNumeric, mjsNumeric, mjOBJ_NUMERIC, numeric)
AS(mjs_asText, mjsText, mjOBJ_TEXT, text)
AS(mjs_asTuple, mjsTuple, mjOBJ_TUPLE, tuple)
AS(mjs_asKey, mjsKey, mjOBJ_KEY, key)
AS(mjs_asMesh, mjsMesh, mjOBJ_MESH, mesh)
AS(mjs_asHField, mjsHField, mjOBJ_HFIELD, hfield)
AS(mjs_asSkin, mjsSkin, mjOBJ_SKIN, skin)
AS(mjs_asTexture, mjsTexture, mjOBJ_TEXTURE, texture)
AS(mjs_asMaterial, mjsMaterial, mjOBJ_MATERIAL, material)
AS(mjs_asPlugin, mjsPlugin, mjOBJ_PLUGIN, plugin)
#undef AS

/* ---------------------------------------------------------------------------------------
 * spec-level settings and elements Torsion cannot compile yet
 * ------------------------------------------------------------------------------------- */

/* compiler timers: Torsion does not time its compiler (all zero) */
const double* mjs_getTimer(mjSpec* s) {
  static const double zero[mjNCTIMER] = {0};
  (void)s;
  return zero;
}

/* attaching always copies in Torsion, so both settings behave the same */
int mjs_setDeepCopy(mjSpec* s, int deepcopy) {
  (void)s;
  (void)deepcopy;
  return 0;
}

/* attached elements are copies that belong to the spec they were attached to */
mjSpec* mjs_getOriginSpec(const mjsElement* element) {
  return mjs_getSpec(element);
}

/* engine plugins are not supported by the model-editing API */
int mjs_activatePlugin(mjSpec* s, const char* name) {
  tn__specError(TNS_SPEC(s),
                "mjs_activatePlugin: plugin '%s': engine plugins are not supported "
                "by the model-editing API yet",
                name ? name : "");
  return -1;
}

/* a plugin instance element (mj_compile reports it as unsupported) */
mjsPlugin* mjs_addPlugin(mjSpec* s) {
  tnsNode* n = s ? tn__specNode(TNS_SPEC(s), mjOBJ_PLUGIN) : NULL;
  if (!n) {
    mju_error("mjs_addPlugin: out of memory");
    return NULL;
  }
  return &n->u.plugin;
}

/* a flex element (mj_compile reports it as unsupported) */
mjsFlex* mjs_addFlex(mjSpec* s) {
  tnsNode* n = s ? tn__specNode(TNS_SPEC(s), mjOBJ_FLEX) : NULL;
  if (!n) {
    mju_error("mjs_addFlex: out of memory");
    return NULL;
  }
  mjsFlex values;
  mjs_defaultFlex(&values);
  tn__specCopyObject(n, &values, mjOBJ_FLEX);
  return &n->u.flex;
}
