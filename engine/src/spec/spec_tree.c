/* spec/spec_tree.c — the storage behind the model-editing API: string and array handles,
 * element nodes, and the lifetime of a spec (mj_makeSpec, mj_deleteSpec). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_tree.h"

/* ---------------------------------------------------------------------------------------
 * handle fields of each public struct
 * ------------------------------------------------------------------------------------- */

#define F(type, field, kind) \
  { offsetof(type, field), kind }
#define PLUGIN_FIELDS(type) \
  F(type, plugin.name, TNS_STR), F(type, plugin.plugin_name, TNS_STR), F(type, plugin.info, TNS_STR)

static const tnsField f_spec[] = {F(mjSpec, modelname, TNS_STR),
                                  F(mjSpec, compiler.meshdir, TNS_STR),
                                  F(mjSpec, compiler.texturedir, TNS_STR),
                                  F(mjSpec, comment, TNS_STR), F(mjSpec, modelfiledir, TNS_STR)};
static const tnsField f_body[] = {F(mjsBody, childclass, TNS_STR), F(mjsBody, userdata, TNS_DOUBLE),
                                  PLUGIN_FIELDS(mjsBody), F(mjsBody, info, TNS_STR)};
static const tnsField f_frame[] = {F(mjsFrame, childclass, TNS_STR), F(mjsFrame, info, TNS_STR)};
static const tnsField f_joint[] = {F(mjsJoint, userdata, TNS_DOUBLE), F(mjsJoint, info, TNS_STR)};
static const tnsField f_geom[] = {F(mjsGeom, material, TNS_STR), F(mjsGeom, hfieldname, TNS_STR),
                                  F(mjsGeom, meshname, TNS_STR), F(mjsGeom, userdata, TNS_DOUBLE),
                                  PLUGIN_FIELDS(mjsGeom),        F(mjsGeom, info, TNS_STR)};
static const tnsField f_site[] = {F(mjsSite, material, TNS_STR), F(mjsSite, meshname, TNS_STR),
                                  F(mjsSite, userdata, TNS_DOUBLE), F(mjsSite, info, TNS_STR)};
static const tnsField f_camera[] = {F(mjsCamera, targetbody, TNS_STR),
                                    F(mjsCamera, userdata, TNS_DOUBLE),
                                    F(mjsCamera, info, TNS_STR)};
static const tnsField f_light[] = {F(mjsLight, targetbody, TNS_STR), F(mjsLight, texture, TNS_STR),
                                   F(mjsLight, info, TNS_STR)};
static const tnsField f_flex[] = {
    F(mjsFlex, material, TNS_STR),    F(mjsFlex, nodebody, TNS_STRVEC),
    F(mjsFlex, vertbody, TNS_STRVEC), F(mjsFlex, node, TNS_DOUBLE),
    F(mjsFlex, vert, TNS_DOUBLE),     F(mjsFlex, elem, TNS_INT),
    F(mjsFlex, texcoord, TNS_FLOAT),  F(mjsFlex, elemtexcoord, TNS_INT),
    F(mjsFlex, info, TNS_STR)};
static const tnsField f_mesh[] = {F(mjsMesh, content_type, TNS_STR),
                                  F(mjsMesh, file, TNS_STR),
                                  F(mjsMesh, uservert, TNS_FLOAT),
                                  F(mjsMesh, usernormal, TNS_FLOAT),
                                  F(mjsMesh, usertexcoord, TNS_FLOAT),
                                  F(mjsMesh, userface, TNS_INT),
                                  F(mjsMesh, userfacenormal, TNS_INT),
                                  F(mjsMesh, userfacetexcoord, TNS_INT),
                                  PLUGIN_FIELDS(mjsMesh),
                                  F(mjsMesh, material, TNS_STR),
                                  F(mjsMesh, info, TNS_STR)};
static const tnsField f_hfield[] = {F(mjsHField, content_type, TNS_STR),
                                    F(mjsHField, file, TNS_STR), F(mjsHField, userdata, TNS_FLOAT),
                                    F(mjsHField, info, TNS_STR)};
static const tnsField f_skin[] = {
    F(mjsSkin, file, TNS_STR),         F(mjsSkin, material, TNS_STR),
    F(mjsSkin, vert, TNS_FLOAT),       F(mjsSkin, texcoord, TNS_FLOAT),
    F(mjsSkin, face, TNS_INT),         F(mjsSkin, bodyname, TNS_STRVEC),
    F(mjsSkin, bindpos, TNS_FLOAT),    F(mjsSkin, bindquat, TNS_FLOAT),
    F(mjsSkin, vertid, TNS_INTVECVEC), F(mjsSkin, vertweight, TNS_FLOATVECVEC),
    F(mjsSkin, info, TNS_STR)};
static const tnsField f_texture[] = {F(mjsTexture, content_type, TNS_STR),
                                     F(mjsTexture, file, TNS_STR),
                                     F(mjsTexture, cubefiles, TNS_STRVEC),
                                     F(mjsTexture, data, TNS_BYTE), F(mjsTexture, info, TNS_STR)};
static const tnsField f_material[] = {F(mjsMaterial, textures, TNS_STRVEC),
                                      F(mjsMaterial, info, TNS_STR)};
static const tnsField f_pair[] = {F(mjsPair, geomname1, TNS_STR), F(mjsPair, geomname2, TNS_STR),
                                  F(mjsPair, info, TNS_STR)};
static const tnsField f_exclude[] = {F(mjsExclude, bodyname1, TNS_STR),
                                     F(mjsExclude, bodyname2, TNS_STR),
                                     F(mjsExclude, info, TNS_STR)};
static const tnsField f_equality[] = {
    F(mjsEquality, name1, TNS_STR), F(mjsEquality, name2, TNS_STR), F(mjsEquality, info, TNS_STR)};
static const tnsField f_tendon[] = {F(mjsTendon, material, TNS_STR),
                                    F(mjsTendon, userdata, TNS_DOUBLE),
                                    F(mjsTendon, info, TNS_STR)};
static const tnsField f_wrap[] = {F(mjsWrap, info, TNS_STR)};
static const tnsField f_actuator[] = {
    F(mjsActuator, target, TNS_STR),     F(mjsActuator, refsite, TNS_STR),
    F(mjsActuator, slidersite, TNS_STR), F(mjsActuator, userdata, TNS_DOUBLE),
    PLUGIN_FIELDS(mjsActuator),          F(mjsActuator, info, TNS_STR)};
static const tnsField f_sensor[] = {F(mjsSensor, objname, TNS_STR), F(mjsSensor, refname, TNS_STR),
                                    F(mjsSensor, userdata, TNS_DOUBLE), PLUGIN_FIELDS(mjsSensor),
                                    F(mjsSensor, info, TNS_STR)};
static const tnsField f_numeric[] = {F(mjsNumeric, data, TNS_DOUBLE), F(mjsNumeric, info, TNS_STR)};
static const tnsField f_text[] = {F(mjsText, data, TNS_STR), F(mjsText, info, TNS_STR)};
static const tnsField f_tuple[] = {F(mjsTuple, objtype, TNS_INT), F(mjsTuple, objname, TNS_STRVEC),
                                   F(mjsTuple, objprm, TNS_DOUBLE), F(mjsTuple, info, TNS_STR)};
static const tnsField f_key[] = {F(mjsKey, qpos, TNS_DOUBLE),  F(mjsKey, qvel, TNS_DOUBLE),
                                 F(mjsKey, act, TNS_DOUBLE),   F(mjsKey, mpos, TNS_DOUBLE),
                                 F(mjsKey, mquat, TNS_DOUBLE), F(mjsKey, ctrl, TNS_DOUBLE),
                                 F(mjsKey, info, TNS_STR)};
static const tnsField f_plugin[] = {F(mjsPlugin, name, TNS_STR), F(mjsPlugin, plugin_name, TNS_STR),
                                    F(mjsPlugin, info, TNS_STR)};

/* per object type: handle fields and struct size */
static const struct {
  int type;
  const tnsField* f;
  int n;
  size_t size;
} objects[] = {
#define OBJ(t, arr, st) \
  { t, arr, (int)(sizeof(arr) / sizeof(arr[0])), sizeof(st) }
    OBJ(mjOBJ_MODEL, f_spec, mjSpec),
    OBJ(mjOBJ_BODY, f_body, mjsBody),
    OBJ(mjOBJ_FRAME, f_frame, mjsFrame),
    OBJ(mjOBJ_JOINT, f_joint, mjsJoint),
    OBJ(mjOBJ_GEOM, f_geom, mjsGeom),
    OBJ(mjOBJ_SITE, f_site, mjsSite),
    OBJ(mjOBJ_CAMERA, f_camera, mjsCamera),
    OBJ(mjOBJ_LIGHT, f_light, mjsLight),
    OBJ(mjOBJ_FLEX, f_flex, mjsFlex),
    OBJ(mjOBJ_MESH, f_mesh, mjsMesh),
    OBJ(mjOBJ_HFIELD, f_hfield, mjsHField),
    OBJ(mjOBJ_SKIN, f_skin, mjsSkin),
    OBJ(mjOBJ_TEXTURE, f_texture, mjsTexture),
    OBJ(mjOBJ_MATERIAL, f_material, mjsMaterial),
    OBJ(mjOBJ_PAIR, f_pair, mjsPair),
    OBJ(mjOBJ_EXCLUDE, f_exclude, mjsExclude),
    OBJ(mjOBJ_EQUALITY, f_equality, mjsEquality),
    OBJ(mjOBJ_TENDON, f_tendon, mjsTendon),
    OBJ(TNS_WRAP, f_wrap, mjsWrap),
    OBJ(mjOBJ_ACTUATOR, f_actuator, mjsActuator),
    OBJ(mjOBJ_SENSOR, f_sensor, mjsSensor),
    OBJ(mjOBJ_NUMERIC, f_numeric, mjsNumeric),
    OBJ(mjOBJ_TEXT, f_text, mjsText),
    OBJ(mjOBJ_TUPLE, f_tuple, mjsTuple),
    OBJ(mjOBJ_KEY, f_key, mjsKey),
    OBJ(mjOBJ_PLUGIN, f_plugin, mjsPlugin),
#undef OBJ
};

/* the row of an object type, NULL if none */
static int object_row(int type) {
  for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
    if (objects[i].type == type) {
      return (int)i;
    }
  }
  return -1;
}

const tnsField* tn__specFields(int type, int* n) {
  int r = object_row(type);
  *n = r < 0 ? 0 : objects[r].n;
  return r < 0 ? NULL : objects[r].f;
}

size_t tn__specObjectSize(int type) {
  if (type == mjOBJ_DEFAULT) {
    return sizeof(mjsDefault);
  }
  int r = object_row(type);
  return r < 0 ? 0 : objects[r].size;
}

/* ---------------------------------------------------------------------------------------
 * handles
 * ------------------------------------------------------------------------------------- */

/* bytes per element of an array kind */
static size_t elem_size(int kind) {
  switch (kind) {
    case TNS_STR: return 1;
    case TNS_INT: return sizeof(int);
    case TNS_FLOAT: return sizeof(float);
    case TNS_DOUBLE: return sizeof(double);
    case TNS_BYTE: return 1;
    case TNS_STRVEC: return sizeof(char*);
    default: return sizeof(tnsHandle);
  }
}

/* free what a handle holds (not the handle) */
static void handle_clear(tnsHandle* h) {
  if (h->kind == TNS_STRVEC) {
    for (int i = 0; i < h->n; i++) {
      free(((char**)h->data)[i]);
    }
  } else if (h->kind == TNS_INTVECVEC || h->kind == TNS_FLOATVECVEC) {
    for (int i = 0; i < h->n; i++) {
      handle_clear((tnsHandle*)h->data + i);
    }
  }
  free(h->data);
  h->data = NULL;
  h->n = 0;
}

tnsHandle* tn__specHandle(tnsSpec* s, int kind) {
  if (s->nhandle == s->caphandle) {
    int cap = s->caphandle ? 2 * s->caphandle : 256;
    tnsHandle** grown = realloc(s->handles, sizeof(tnsHandle*) * (size_t)cap);
    if (!grown) {
      return NULL;
    }
    s->handles = grown;
    s->caphandle = cap;
  }
  tnsHandle* h = calloc(1, sizeof(tnsHandle));
  if (h) {
    h->kind = kind;
    s->handles[s->nhandle++] = h;
  }
  return h;
}

int tn__specSetText(tnsHandle* h, const char* text) {
  size_t len = text ? strlen(text) : 0;
  char* copy = malloc(len + 1);
  if (!copy) {
    return 0;
  }
  if (len) {
    memcpy(copy, text, len);
  }
  copy[len] = 0;
  handle_clear(h);
  h->data = copy;
  h->n = (int)len;
  return 1;
}

int tn__specSetArray(tnsHandle* h, const void* data, int n) {
  if (n < 0) {
    n = 0;
  }
  size_t bytes = elem_size(h->kind) * (size_t)n;
  void* copy = malloc(bytes ? bytes : 1);
  if (!copy) {
    return 0;
  }
  if (bytes) {
    memcpy(copy, data, bytes);
  }
  handle_clear(h);
  h->data = copy;
  h->n = n;
  return 1;
}

int tn__specHandleCopy(tnsHandle* dst, const tnsHandle* src) {
  if (dst == src) {
    return 1;
  }
  if (!src || !src->n) {
    handle_clear(dst);
    return 1;
  }
  if (src->kind == TNS_STR) {
    return tn__specSetText(dst, (const char*)src->data);
  }
  if (src->kind == TNS_STRVEC || src->kind == TNS_INTVECVEC || src->kind == TNS_FLOATVECVEC) {
    tnsHandle tmp = {src->kind, 0, calloc((size_t)src->n, elem_size(src->kind))};
    if (!tmp.data) {
      return 0;
    }
    for (int i = 0; i < src->n; i++) {
      if (src->kind == TNS_STRVEC) {
        const char* t = ((char**)src->data)[i];
        char* c = malloc(strlen(t) + 1);
        if (!c) {
          handle_clear(&tmp);
          return 0;
        }
        strcpy(c, t);
        ((char**)tmp.data)[i] = c;
      } else {
        const tnsHandle* si = (const tnsHandle*)src->data + i;
        tnsHandle* di = (tnsHandle*)tmp.data + i;
        di->kind = si->kind;
        if (!tn__specSetArray(di, si->data, si->n)) {
          handle_clear(&tmp);
          return 0;
        }
      }
      tmp.n = i + 1;
    }
    handle_clear(dst);
    *dst = tmp;
    return 1;
  }
  return tn__specSetArray(dst, src->data, src->n);
}

const char* tn__specText(const void* h) {
  const tnsHandle* t = h;
  return t && t->data && t->kind == TNS_STR ? (const char*)t->data : "";
}

/* ---------------------------------------------------------------------------------------
 * nodes
 * ------------------------------------------------------------------------------------- */

/* give every handle field of a public struct a fresh empty handle */
static int fresh_handles(tnsSpec* s, void* obj, int type) {
  int n;
  const tnsField* f = tn__specFields(type, &n);
  for (int i = 0; i < n; i++) {
    tnsHandle* h = tn__specHandle(s, f[i].kind);
    if (!h) {
      return 0;
    }
    *(tnsHandle**)((char*)obj + f[i].offset) = h;
  }
  return 1;
}

tnsNode* tn__specNode(tnsSpec* s, int type) {
  tnsNode* n = calloc(1, sizeof(tnsNode));
  if (!n) {
    return NULL;
  }
  n->type = type;
  n->element.elemtype = type == TNS_WRAP ? mjOBJ_UNKNOWN : (mjtObj)type;
  n->owner = s;
  n->id = -1;
  n->prev = s->tail;
  if (s->tail) {
    s->tail->next = n;
  } else {
    s->head = n;
  }
  s->tail = n;
  n->name = tn__specHandle(s, TNS_STR);
  if (!n->name || !fresh_handles(s, &n->u, type)) {
    return NULL;  // the node stays linked and is freed with the spec
  }
  // the public struct points at its element
  *(mjsElement**)&n->u = &n->element;
  return n;
}

void tn__specAdopt(tnsNode* p, tnsNode* c) {
  c->parent = p;
  c->sib_prev = p->last;
  if (p->last) {
    p->last->sib_next = c;
  } else {
    p->first = c;
  }
  p->last = c;
}

int tn__specCopyObject(tnsNode* dst, const void* src, int type) {
  size_t size = tn__specObjectSize(type);
  int n;
  const tnsField* f = tn__specFields(type, &n);
  char* d = (char*)&dst->u;
  // keep the destination's own handles and element; copy values, then handle contents
  tnsHandle* keep[16];
  for (int i = 0; i < n; i++) {
    keep[i] = *(tnsHandle**)(d + f[i].offset);
  }
  mjsElement* el = *(mjsElement**)d;
  memcpy(d, src, size);
  *(mjsElement**)d = el;
  for (int i = 0; i < n; i++) {
    const tnsHandle* from = *(tnsHandle* const*)((const char*)src + f[i].offset);
    *(tnsHandle**)(d + f[i].offset) = keep[i];
    if (!tn__specHandleCopy(keep[i], from)) {
      return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * spec lifetime
 * ------------------------------------------------------------------------------------- */

void* tn__specError(tnsSpec* s, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->error, sizeof(s->error), fmt, ap);
  va_end(ap);
  s->warning = 0;
  return NULL;
}

/* a default class node with its element structs (hidden nodes) */
tnsNode* tn__specDefaultNode(tnsSpec* s);
tnsNode* tn__specDefaultNode(tnsSpec* s) {
  tnsNode* d = tn__specNode(s, mjOBJ_DEFAULT);
  if (!d) {
    return NULL;
  }
  static const int types[] = {mjOBJ_JOINT, mjOBJ_GEOM,     mjOBJ_SITE,   mjOBJ_CAMERA,
                              mjOBJ_LIGHT, mjOBJ_FLEX,     mjOBJ_MESH,   mjOBJ_MATERIAL,
                              mjOBJ_PAIR,  mjOBJ_EQUALITY, mjOBJ_TENDON, mjOBJ_ACTUATOR};
  void** slots[] = {
      (void**)&d->u.def.joint,    (void**)&d->u.def.geom,     (void**)&d->u.def.site,
      (void**)&d->u.def.camera,   (void**)&d->u.def.light,    (void**)&d->u.def.flex,
      (void**)&d->u.def.mesh,     (void**)&d->u.def.material, (void**)&d->u.def.pair,
      (void**)&d->u.def.equality, (void**)&d->u.def.tendon,   (void**)&d->u.def.actuator};
  for (int i = 0; i < 12; i++) {
    tnsNode* e = tn__specNode(s, types[i]);
    if (!e) {
      return NULL;
    }
    e->hidden = 1;
    e->def = d;
    *slots[i] = &e->u;
  }
  return d;
}

/* MuJoCo's built-in values in a default class */
void tn__specDefaultValues(tnsNode* d);
void tn__specDefaultValues(tnsNode* d) {
  mjsDefault* def = &d->u.def;
  mjsJoint j;
  mjs_defaultJoint(&j);
  tn__specCopyObject(TNS_NODE(def->joint->element), &j, mjOBJ_JOINT);
  mjsGeom g;
  mjs_defaultGeom(&g);
  tn__specCopyObject(TNS_NODE(def->geom->element), &g, mjOBJ_GEOM);
  mjsSite si;
  mjs_defaultSite(&si);
  tn__specCopyObject(TNS_NODE(def->site->element), &si, mjOBJ_SITE);
  mjsCamera c;
  mjs_defaultCamera(&c);
  tn__specCopyObject(TNS_NODE(def->camera->element), &c, mjOBJ_CAMERA);
  mjsLight l;
  mjs_defaultLight(&l);
  tn__specCopyObject(TNS_NODE(def->light->element), &l, mjOBJ_LIGHT);
  mjsFlex f;
  mjs_defaultFlex(&f);
  tn__specCopyObject(TNS_NODE(def->flex->element), &f, mjOBJ_FLEX);
  mjsMesh me;
  mjs_defaultMesh(&me);
  tn__specCopyObject(TNS_NODE(def->mesh->element), &me, mjOBJ_MESH);
  mjsMaterial ma;
  mjs_defaultMaterial(&ma);
  tn__specCopyObject(TNS_NODE(def->material->element), &ma, mjOBJ_MATERIAL);
  mjsPair p;
  mjs_defaultPair(&p);
  tn__specCopyObject(TNS_NODE(def->pair->element), &p, mjOBJ_PAIR);
  mjsEquality e;
  mjs_defaultEquality(&e);
  tn__specCopyObject(TNS_NODE(def->equality->element), &e, mjOBJ_EQUALITY);
  mjsTendon t;
  mjs_defaultTendon(&t);
  tn__specCopyObject(TNS_NODE(def->tendon->element), &t, mjOBJ_TENDON);
  mjsActuator a;
  mjs_defaultActuator(&a);
  tn__specCopyObject(TNS_NODE(def->actuator->element), &a, mjOBJ_ACTUATOR);
}

tnsSpec* tn__specMake(void) {
  tnsSpec* s = calloc(1, sizeof(tnsSpec));
  if (!s) {
    return NULL;
  }
  s->root = tn__specNode(s, mjOBJ_MODEL);
  s->main = s->root ? tn__specDefaultNode(s) : NULL;
  s->world = s->main ? tn__specNode(s, mjOBJ_BODY) : NULL;
  if (!s->world) {
    tn__specDestroy(s);
    return NULL;
  }
  mjSpec values;
  mjs_defaultSpec(&values);
  values.element = &s->root->element;
  tn__specCopyObject(s->root, &values, mjOBJ_MODEL);
  tn__specSetText(s->root->u.spec.modelname, "MuJoCo Model");
  tn__specSetText(s->main->name, "main");
  tn__specDefaultValues(s->main);
  mjsBody world;
  mjs_defaultBody(&world);
  tn__specCopyObject(s->world, &world, mjOBJ_BODY);
  tn__specSetText(s->world->name, "world");
  s->world->def = s->main;
  return s;
}

void tn__specDestroy(tnsSpec* s) {
  if (!s) {
    return;
  }
  for (tnsNode* n = s->head; n;) {
    tnsNode* next = n->next;
    for (tnsUserValue* u = n->user; u;) {
      tnsUserValue* un = u->next;
      if (u->cleanup) {
        u->cleanup(u->data);
      }
      free(u->key);
      free(u);
      u = un;
    }
    free(n);
    n = next;
  }
  for (int i = 0; i < s->nhandle; i++) {
    handle_clear(s->handles[i]);
    free(s->handles[i]);
  }
  free(s->handles);
  free(s);
}

/* ---------------------------------------------------------------------------------------
 * public lifetime
 * ------------------------------------------------------------------------------------- */

mjSpec* mj_makeSpec(void) {
  tnsSpec* s = tn__specMake();
  if (!s) {
    mju_error("mj_makeSpec: out of memory");
    return NULL;
  }
  return &s->root->u.spec;
}

void mj_deleteSpec(mjSpec* s) {
  if (s) {
    tn__specDestroy(TNS_SPEC(s));
  }
}

const char* mjs_getError(mjSpec* s) {
  return TNS_SPEC(s)->error;
}

int mjs_isWarning(mjSpec* s) {
  return TNS_SPEC(s)->warning;
}

int mjs_numWarnings(const mjSpec* spec) {
  return TNS_SPEC(spec)->warning ? 1 : 0;
}

const char* mjs_getWarning(const mjSpec* spec, int index) {
  tnsSpec* s = TNS_SPEC(spec);
  return s->warning && index == 0 ? s->error : NULL;
}
