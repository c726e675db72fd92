/* spec/spec_copy.c — mj_copySpec: a deep, independent copy of a spec. Every node is cloned
 * in creation order (values and the contents of its string and array handles), then the
 * links between nodes (tree, frames, classes, wraps) are pointed at the clones. User
 * payloads (mjs_setUserValue) are not copied. */
#include <stdlib.h>
#include <string.h>

#include "spec/spec_tree.h"

/* source nodes and their clones, by creation index */
typedef struct tnsMap_ {
  tnsNode** from;
  tnsNode** to;
  int n;
} tnsMap;

static tnsNode* map_node(const tnsMap* map, const tnsNode* n) {
  if (!n) {
    return NULL;
  }
  return map->to[n->id];  // during the copy, a source node's id is its index in the map
}

/* the clone of a public struct pointer (inside a node) */
static void* map_object(const tnsMap* map, const void* obj) {
  if (!obj) {
    return NULL;
  }
  const tnsNode* n = TNS_NODE(*(mjsElement* const*)obj);
  return &map_node(map, n)->u;
}

mjSpec* mj_copySpec(const mjSpec* spec) {
  if (!spec) {
    return NULL;
  }
  tnsSpec* src = TNS_SPEC(spec);
  tnsSpec* dst = calloc(1, sizeof(tnsSpec));
  int count = 0;
  for (tnsNode* n = src->head; n; n = n->next) {
    count++;
  }
  tnsMap map = {calloc((size_t)count, sizeof(tnsNode*)), calloc((size_t)count, sizeof(tnsNode*)),
                count};
  int* ids = calloc((size_t)count, sizeof(int));
  int ok = dst && map.from && map.to && ids;

  // clone every node; ids temporarily index the map
  int i = 0;
  for (tnsNode* n = src->head; ok && n; n = n->next, i++) {
    tnsNode* c = tn__specNode(dst, n->type);
    ok = c != NULL;
    if (!ok) {
      break;
    }
    map.from[i] = n;
    map.to[i] = c;
    ids[i] = n->id;
    n->id = i;
    if (n->type == mjOBJ_DEFAULT) {
      c->u.def = n->u.def;  // pointers remapped below
      c->u.def.element = &c->element;
    } else {
      ok = tn__specCopyObject(c, &n->u, n->type);
    }
    ok = ok && tn__specHandleCopy(c->name, n->name);
    c->hidden = n->hidden;
    c->deleted = n->deleted;
    c->wrap_prm = n->wrap_prm;
    if (ok && n->wrap_target) {
      c->wrap_target = tn__specHandle(dst, TNS_STR);
      c->wrap_side = tn__specHandle(dst, TNS_STR);
      ok = c->wrap_target && c->wrap_side && tn__specHandleCopy(c->wrap_target, n->wrap_target) &&
           tn__specHandleCopy(c->wrap_side, n->wrap_side);
    }
  }

  // links
  for (int k = 0; ok && k < count; k++) {
    const tnsNode* n = map.from[k];
    tnsNode* c = map.to[k];
    c->parent = map_node(&map, n->parent);
    c->frame = map_node(&map, n->frame);
    c->first = map_node(&map, n->first);
    c->last = map_node(&map, n->last);
    c->sib_prev = map_node(&map, n->sib_prev);
    c->sib_next = map_node(&map, n->sib_next);
    c->def = map_node(&map, n->def);
    if (n->type == mjOBJ_DEFAULT) {
      mjsDefault* d = &c->u.def;
      d->joint = map_object(&map, d->joint);
      d->geom = map_object(&map, d->geom);
      d->site = map_object(&map, d->site);
      d->camera = map_object(&map, d->camera);
      d->light = map_object(&map, d->light);
      d->flex = map_object(&map, d->flex);
      d->mesh = map_object(&map, d->mesh);
      d->material = map_object(&map, d->material);
      d->pair = map_object(&map, d->pair);
      d->equality = map_object(&map, d->equality);
      d->tendon = map_object(&map, d->tendon);
      d->actuator = map_object(&map, d->actuator);
    }
  }

  if (ok) {
    dst->root = map_node(&map, src->root);
    dst->world = map_node(&map, src->world);
    dst->main = map_node(&map, src->main);
    memcpy(dst->error, src->error, sizeof(dst->error));
    dst->warning = src->warning;
  }

  // restore the source's ids (the lookups are done), give the copy the same
  for (int k = 0; k < i && k < count; k++) {
    map.from[k]->id = ids[k];
    map.to[k]->id = ids[k];
  }
  free(map.from);
  free(map.to);
  free(ids);
  if (!ok) {
    tn__specDestroy(dst);
    mju_error("mj_copySpec: out of memory");
    return NULL;
  }
  return &dst->root->u.spec;
}
