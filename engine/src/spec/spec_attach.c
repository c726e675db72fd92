/* spec/spec_attach.c — mjs_attach: a body subtree of one spec is copied into another (or
 * the same) spec under a body, a frame or a site, with a prefix and a suffix added to every
 * name it brings along. Besides the subtree, the elements of the child's spec that refer
 * only to copied elements come along too (actuators, sensors, tendons, equalities, contact
 * pairs and excludes), and all of its assets (meshes, materials, textures, height fields),
 * their references renamed to match.
 *
 * MuJoCo attaches by reference by default (the child spec becomes part of the parent and
 * its names are changed in place); Torsion always copies, so the child spec stays as it was
 * and may be attached again or compiled on its own. Keyframes, custom data and default
 * classes of the child are not brought along.
 *
 * Also mjs_bodyToFrame, which dissolves a body into a frame of its parent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_tree.h"

/* one attachment: the destination, the renaming, and source -> copy pairs */
typedef struct tnsAttach_ {
  tnsSpec* dst;
  const tnsSpec* src;
  const char* prefix;
  const char* suffix;
  const tnsNode** from;
  tnsNode** to;
  int n, cap;
  int failed;
} tnsAttach;

/* set h to prefix + its text + suffix (empty text stays empty) */
static void rename_handle(tnsAttach* a, void* h) {
  const char* t = tn__specText(h);
  if (!t[0]) {
    return;
  }
  size_t len = strlen(a->prefix) + strlen(t) + strlen(a->suffix) + 1;
  char* both = malloc(len);
  if (!both) {
    a->failed = 1;
    return;
  }
  snprintf(both, len, "%s%s%s", a->prefix, t, a->suffix);
  if (!tn__specSetText(h, both)) {
    a->failed = 1;
  }
  free(both);
}

/* remember a source -> copy pair */
static void remember(tnsAttach* a, const tnsNode* from, tnsNode* to) {
  if (a->n == a->cap) {
    int cap = a->cap ? 2 * a->cap : 64;
    const tnsNode** f = realloc(a->from, sizeof(*f) * (size_t)cap);
    if (f) {
      a->from = f;
    }
    tnsNode** t = realloc(a->to, sizeof(*t) * (size_t)cap);
    if (t) {
      a->to = t;
    }
    if (!f || !t) {
      a->failed = 1;
      return;
    }
    a->cap = cap;
  }
  a->from[a->n] = from;
  a->to[a->n++] = to;
}

/* the copy of a source node, NULL if not copied */
static tnsNode* copy_of(const tnsAttach* a, const tnsNode* from) {
  for (int i = 0; from && i < a->n; i++) {
    if (a->from[i] == from) {
      return a->to[i];
    }
  }
  return NULL;
}

/* whether an element of `type` named `name` was copied (bodies also answer mjOBJ_XBODY) */
static int copied(const tnsAttach* a, int type, const char* name) {
  if (type == mjOBJ_XBODY) {
    type = mjOBJ_BODY;
  }
  for (int i = 0; name && name[0] && i < a->n; i++) {
    if (a->from[i]->type == type && strcmp(tn__specText(a->from[i]->name), name) == 0) {
      return 1;
    }
  }
  return 0;
}

/* a renamed copy of a node (values, handles and name); the caller places it */
static tnsNode* clone(tnsAttach* a, const tnsNode* src) {
  tnsNode* c = tn__specNode(a->dst, src->type);
  if (!c || !tn__specCopyObject(c, &src->u, src->type) || !tn__specHandleCopy(c->name, src->name)) {
    a->failed = 1;
    return c;
  }
  rename_handle(a, c->name);
  c->def = a->dst->main;
  remember(a, src, c);
  return c;
}

/* rename the name references a tree element holds */
static void rename_refs(tnsAttach* a, tnsNode* c) {
  switch (c->type) {
    case mjOBJ_GEOM:
      rename_handle(a, c->u.geom.meshname);
      rename_handle(a, c->u.geom.hfieldname);
      rename_handle(a, c->u.geom.material);
      break;
    case mjOBJ_SITE:
      rename_handle(a, c->u.site.material);
      rename_handle(a, c->u.site.meshname);
      break;
    case mjOBJ_CAMERA: rename_handle(a, c->u.camera.targetbody); break;
    case mjOBJ_LIGHT:
      rename_handle(a, c->u.light.targetbody);
      rename_handle(a, c->u.light.texture);
      break;
    default: break;
  }
}

/* copy body src (and everything below it) into body p, inside frame f */
static tnsNode* copy_subtree(tnsAttach* a, const tnsNode* src, tnsNode* p, tnsNode* f) {
  tnsNode* c = clone(a, src);
  if (a->failed) {
    return NULL;
  }
  tn__specAdopt(p, c);
  c->frame = f;
  for (const tnsNode* k = src->first; k && !a->failed; k = k->sib_next) {
    if (k->deleted) {
      continue;
    }
    if (k->type == mjOBJ_BODY) {
      copy_subtree(a, k, c, NULL);
    } else {
      tnsNode* e = clone(a, k);
      if (!a->failed) {
        tn__specAdopt(c, e);
        rename_refs(a, e);
      }
    }
  }

  // frames inside the subtree point at the copies of their frames
  for (tnsNode* k = c->first; k; k = k->sib_next) {
    for (int i = 0; i < a->n; i++) {
      if (a->to[i] == k) {
        k->frame = copy_of(a, a->from[i]->frame);
        break;
      }
    }
  }
  return c;
}

/* the elements outside the tree that refer only to copied elements, and the assets */
static void copy_globals(tnsAttach* a) {
  static const int trn_obj[] = {mjOBJ_JOINT,  mjOBJ_JOINT, mjOBJ_SITE, mjOBJ_SITE,
                                mjOBJ_TENDON, mjOBJ_SITE,  mjOBJ_BODY};
  for (const tnsNode* n = a->src->head; n && !a->failed; n = n->next) {
    if (n->deleted || n->hidden || copy_of(a, n)) {
      continue;
    }
    int take = 0;
    switch (n->type) {
      case mjOBJ_MESH:
      case mjOBJ_MATERIAL:
      case mjOBJ_TEXTURE:
      case mjOBJ_HFIELD: take = 1; break;
      case mjOBJ_TENDON:
        take = n->first != NULL;
        for (const tnsNode* w = n->first; w; w = w->sib_next) {
          int type = w->u.wrap.type == mjWRAP_JOINT  ? mjOBJ_JOINT
                     : w->u.wrap.type == mjWRAP_SITE ? mjOBJ_SITE
                                                     : mjOBJ_GEOM;
          if (w->u.wrap.type != mjWRAP_PULLEY && !copied(a, type, tn__specText(w->wrap_target))) {
            take = 0;
          }
        }
        break;
      case mjOBJ_ACTUATOR: {
        int t = n->u.actuator.trntype;
        take = t >= 0 && t < 7 && copied(a, trn_obj[t], tn__specText(n->u.actuator.target));
        break;
      }
      case mjOBJ_SENSOR: {
        const char* ref = tn__specText(n->u.sensor.refname);
        take = copied(a, n->u.sensor.objtype, tn__specText(n->u.sensor.objname)) &&
               (!ref[0] || copied(a, n->u.sensor.reftype, ref));
        break;
      }
      case mjOBJ_EQUALITY: {
        const mjsEquality* e = &n->u.equality;
        int type = e->objtype == mjOBJ_UNKNOWN ? mjOBJ_BODY : e->objtype;
        const char* n2 = tn__specText(e->name2);
        take = copied(a, type, tn__specText(e->name1)) && (!n2[0] || copied(a, type, n2));
        break;
      }
      case mjOBJ_EXCLUDE:
        take = copied(a, mjOBJ_BODY, tn__specText(n->u.exclude.bodyname1)) &&
               copied(a, mjOBJ_BODY, tn__specText(n->u.exclude.bodyname2));
        break;
      case mjOBJ_PAIR:
        take = copied(a, mjOBJ_GEOM, tn__specText(n->u.pair.geomname1)) &&
               copied(a, mjOBJ_GEOM, tn__specText(n->u.pair.geomname2));
        break;
      default: break;
    }
    if (!take) {
      continue;
    }
    tnsNode* c = clone(a, n);
    if (a->failed) {
      return;
    }
    switch (n->type) {
      case mjOBJ_MATERIAL: {
        tnsHandle* tex = c->u.material.textures;
        for (int i = 0; i < tex->n; i++) {
          char** s = (char**)tex->data + i;
          if ((*s)[0]) {
            size_t len = strlen(a->prefix) + strlen(*s) + strlen(a->suffix) + 1;
            char* r = malloc(len);
            if (!r) {
              a->failed = 1;
              return;
            }
            snprintf(r, len, "%s%s%s", a->prefix, *s, a->suffix);
            free(*s);
            *s = r;
          }
        }
        break;
      }
      case mjOBJ_TENDON:
        rename_handle(a, c->u.tendon.material);
        for (const tnsNode* w = n->first; w; w = w->sib_next) {
          tnsNode* cw = clone(a, w);
          if (a->failed) {
            return;
          }
          cw->hidden = 1;
          cw->wrap_prm = w->wrap_prm;
          cw->wrap_target = tn__specHandle(a->dst, TNS_STR);
          cw->wrap_side = tn__specHandle(a->dst, TNS_STR);
          if (!cw->wrap_target || !cw->wrap_side ||
              !tn__specHandleCopy(cw->wrap_target, w->wrap_target) ||
              !tn__specHandleCopy(cw->wrap_side, w->wrap_side)) {
            a->failed = 1;
            return;
          }
          rename_handle(a, cw->wrap_target);
          rename_handle(a, cw->wrap_side);
          tn__specAdopt(c, cw);
        }
        break;
      case mjOBJ_ACTUATOR:
        rename_handle(a, c->u.actuator.target);
        rename_handle(a, c->u.actuator.refsite);
        rename_handle(a, c->u.actuator.slidersite);
        break;
      case mjOBJ_SENSOR:
        rename_handle(a, c->u.sensor.objname);
        rename_handle(a, c->u.sensor.refname);
        break;
      case mjOBJ_EQUALITY:
        rename_handle(a, c->u.equality.name1);
        rename_handle(a, c->u.equality.name2);
        break;
      case mjOBJ_EXCLUDE:
        rename_handle(a, c->u.exclude.bodyname1);
        rename_handle(a, c->u.exclude.bodyname2);
        break;
      case mjOBJ_PAIR:
        rename_handle(a, c->u.pair.geomname1);
        rename_handle(a, c->u.pair.geomname2);
        break;
      default: break;
    }
  }
}

mjsElement* mjs_attach(mjsElement* parent, const mjsElement* child, const char* prefix,
                       const char* suffix) {
  if (!parent || !child) {
    mju_error("mjs_attach: parent and child are required");
    return NULL;
  }
  tnsNode* p = TNS_NODE(parent);
  const tnsNode* c = TNS_NODE(child);
  tnsSpec* dst = p->owner;
  if (c->type != mjOBJ_BODY || c == c->owner->world) {
    tn__specError(dst, "mjs_attach: only a body (not the world body) can be attached yet");
    return NULL;
  }

  // where the copy goes: a body, a frame in a body, or a new frame at a site's pose
  tnsNode *body = NULL, *frame = NULL;
  if (p->type == mjOBJ_BODY) {
    body = p;
  } else if (p->type == mjOBJ_FRAME) {
    body = p->parent;
    frame = p;
  } else if (p->type == mjOBJ_SITE) {
    body = p->parent;
    mjsFrame* f = mjs_addFrame(&body->u.body, p->frame ? &p->frame->u.frame : NULL);
    if (!f) {
      return NULL;
    }
    memcpy(f->pos, p->u.site.pos, sizeof(f->pos));
    memcpy(f->quat, p->u.site.quat, sizeof(f->quat));
    f->alt = p->u.site.alt;
    frame = TNS_NODE(f->element);
  } else {
    tn__specError(dst, "mjs_attach: the parent must be a body, a frame or a site");
    return NULL;
  }
  for (const tnsNode* up = body; up; up = up->parent) {
    if (up == c) {
      tn__specError(dst, "mjs_attach: a body cannot be attached inside itself");
      return NULL;
    }
  }

  tnsAttach a = {dst, c->owner, prefix ? prefix : "", suffix ? suffix : "", NULL, NULL, 0, 0, 0};
  tnsNode* copy = copy_subtree(&a, c, body, frame);
  if (!a.failed) {
    copy_globals(&a);
  }
  free(a.from);
  free(a.to);
  if (a.failed) {
    tn__specError(dst, "mjs_attach: out of memory");
    return NULL;
  }
  return &copy->element;
}

/* turn a body into a frame of its parent: its children move to the parent (appended), in a
 * frame with the body's pose; the body is deleted and *body set to NULL */
mjsFrame* mjs_bodyToFrame(mjsBody** body) {
  if (!body || !*body) {
    mju_error("mjs_bodyToFrame: body is NULL");
    return NULL;
  }
  tnsNode* b = TNS_NODE((*body)->element);
  tnsNode* p = b->parent;
  if (!p) {
    tn__specError(b->owner, "mjs_bodyToFrame: the world body cannot become a frame");
    return NULL;
  }
  mjsFrame* f = mjs_addFrame(&p->u.body, b->frame ? &b->frame->u.frame : NULL);
  if (!f) {
    return NULL;
  }
  memcpy(f->pos, b->u.body.pos, sizeof(f->pos));
  memcpy(f->quat, b->u.body.quat, sizeof(f->quat));
  f->alt = b->u.body.alt;
  tnsNode* fn = TNS_NODE(f->element);
  tn__specHandleCopy(f->childclass, b->u.body.childclass);

  // move the children, in order, to the parent
  tnsNode* k = b->first;
  b->first = b->last = NULL;
  while (k) {
    tnsNode* next = k->sib_next;
    k->sib_prev = k->sib_next = NULL;
    if (!k->frame) {
      k->frame = fn;
    }
    tn__specAdopt(p, k);
    k = next;
  }
  mjs_delete(&b->owner->root->u.spec, &b->element);
  *body = NULL;
  return f;
}
