/* xml/xml_elements_body.c — the kinematic tree: <worldbody>, <body> and what bodies hold
 * (<inertial>, <joint>, <freejoint>, <geom>, <site>, <camera>, <light>, <frame>).
 *
 * Bodies are numbered in document (depth-first pre-) order, the world being body 0. Each
 * object records its body; the compiler later groups objects by body as MuJoCo does. An
 * element's class comes from its `class` attribute, else the nearest `childclass`. A
 * <frame> only contributes a pose (and childclass): objects inside it record the
 * accumulated frame pose, which the compiler applies to their own pose. */
#include <string.h>

#include "xml/xml_reader.h"

/* freejoint alignment keywords (auto: as compiler alignfree says) */
static const tnKeyword align_words[] = {{"false", 0}, {"true", 1}, {"auto", 2}, {NULL, 0}};

/* the class record of index cls */
static tnDefault* class_of(tnReader* r, int cls) {
  return TN_AT(r->spec->defaults, tnDefault, cls);
}

/* <inertial> of body b */
static int read_inertial(tnReader* r, tnXmlNode* node, int b, const tnFrame* frame) {
  tnSpecBody* body = TN_AT(r->spec->bodies, tnSpecBody, b);
  body->iframe = *frame;
  if (body->has_inertial) {
    return tn__rdFail(r, node, NULL, "a body can have only one <inertial>") + 1;
  }
  body->has_inertial = 1;
  body->inertial_src = &node->pos;
  if (tn__rdNums(r, node, "pos", body->ipos, 3, 3) <= 0) {
    return tn__rdFail(r, node, "pos", "required attribute missing") + 1;
  }
  TN_TRY(tn__rdOrientation(r, node, &body->iorient));
  if (tn__rdNums(r, node, "mass", &body->mass, 1, 1) <= 0) {
    return tn__rdFail(r, node, "mass", "required attribute missing") + 1;
  }
  int got = tn__rdNums(r, node, "diaginertia", body->inertia, 3, 3);
  TN_TRY(got);
  body->has_diaginertia = got > 0;
  got = tn__rdNums(r, node, "fullinertia", body->fullinertia, 6, 6);
  TN_TRY(got);
  body->has_fullinertia = got > 0;
  if (body->has_diaginertia && body->has_fullinertia) {
    return tn__rdFail(r, node, "fullinertia", "diaginertia and fullinertia both given") + 1;
  }
  if (!body->has_diaginertia && !body->has_fullinertia) {
    return tn__rdFail(r, node, "diaginertia", "diaginertia or fullinertia is required") + 1;
  }
  return 1;
}

/* <joint> or <freejoint> */
static int read_joint(tnReader* r, tnXmlNode* node, int b, int cls, const tnFrame* frame) {
  tnSpecJoint j;
  if (strcmp(node->name, "freejoint") == 0) {
    // not affected by default classes
    tn__specDefaultJoint(&j);
    j.type = mjJNT_FREE;
    TN_TRY(tn__rdInts(r, node, "group", &j.group, 1, 1));
    TN_TRY(tn__rdKeyword(r, node, "align", align_words, &j.align));
  } else {
    cls = tn__elementClass(r, node, cls);
    if (cls < 0) {
      return 0;
    }
    j = class_of(r, cls)->joint;
    TN_OK(tn__readJointAttrs(r, node, &j));
  }
  TN_TRY(tn__rdName(r, node, "name", &j.name));
  j.body = b;
  j.frame = *frame;
  j.src = &node->pos;
  tnSpecJoint* dst = tn__vecPush(&r->spec->joints, sizeof(tnSpecJoint));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = j;
  return 1;
}

/* A body-level element that takes its class defaults, its own attributes and a name, and is
 * stored in the spec with its body, frame and source node: <geom>, <site>, <camera>,
 * <light> differ only in their types, so one definition serves them all. */
#define TN_BODY_ELEMENT_READER(FUNC, TYPE, DEFAULTS, READ_ATTRS, VEC)                   \
  static int FUNC(tnReader* r, tnXmlNode* node, int b, int cls, const tnFrame* frame) { \
    cls = tn__elementClass(r, node, cls);                                               \
    if (cls < 0) {                                                                      \
      return 0;                                                                         \
    }                                                                                   \
    TYPE e = class_of(r, cls)->DEFAULTS;                                                \
    TN_OK(READ_ATTRS(r, node, &e));                                                     \
    TN_TRY(tn__rdName(r, node, "name", &e.name));                                       \
    e.body = b;                                                                         \
    e.frame = *frame;                                                                   \
    e.src = &node->pos;                                                                 \
    TYPE* dst = tn__vecPush(&r->spec->VEC, sizeof(TYPE));                               \
    if (!dst) {                                                                         \
      return tn__rdFail(r, node, NULL, "out of memory") + 1;                            \
    }                                                                                   \
    *dst = e;                                                                           \
    return 1;                                                                           \
  }

/* <geom>, <site>, <camera>, <light> */
TN_BODY_ELEMENT_READER(read_geom, tnSpecGeom, geom, tn__readGeomAttrs, geoms)
TN_BODY_ELEMENT_READER(read_site, tnSpecSite, site, tn__readSiteAttrs, sites)
TN_BODY_ELEMENT_READER(read_camera, tnSpecCamera, camera, tn__readCameraAttrs, cameras)
TN_BODY_ELEMENT_READER(read_light, tnSpecLight, light, tn__readLightAttrs, lights)

static int read_body_children(tnReader* r, tnXmlNode* node, int b, int cls, const tnFrame* frame);

/* <body>: a new body under `parent`, then its children */
static int read_body(tnReader* r, tnXmlNode* node, int parent, int cls, const tnFrame* frame) {
  tnSpecBody* body = tn__vecPush(&r->spec->bodies, sizeof(tnSpecBody));
  if (!body) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  int b = r->spec->bodies.n - 1;
  body->parent = parent;
  body->frame = *frame;
  body->src = &node->pos;
  TN_TRY(tn__rdName(r, node, "name", &body->name));
  TN_TRY(tn__rdNums(r, node, "pos", body->pos, 3, 3));
  TN_TRY(tn__rdOrientation(r, node, &body->orient));
  TN_TRY(tn__rdBool(r, node, "mocap", &body->mocap));
  TN_TRY(tn__rdNums(r, node, "gravcomp", &body->gravcomp, 1, 1));
  TN_TRY(tn__rdUser(r, node, &body->user));

  // childclass applies to everything below
  const char* cc = tn__rdStr(node, "childclass");
  if (cc) {
    cls = tn__findClass(r->spec, cc);
    if (cls < 0) {
      tn__xmlError(r->err, r->errsz, node, "childclass", "unknown default class '%s'", cc);
      return 0;
    }
  }
  const tnFrame none = {0, {0, 0, 0}, {1, 0, 0, 0}};
  return read_body_children(r, node, b, cls, &none);
}

/* <frame>: a pose (and class) applied to its children, which belong to body b */
static int read_frame(tnReader* r, tnXmlNode* node, int b, int cls, const tnFrame* outer) {
  mjtNum pos[3] = {0, 0, 0}, quat[4] = {1, 0, 0, 0};
  tnOrientation orient = {TN_ORIENT_NONE, {0}};
  tn__rdStr(node, "name");
  TN_TRY(tn__rdNums(r, node, "pos", pos, 3, 3));
  TN_TRY(tn__rdOrientation(r, node, &orient));
  const tnCompilerSettings* cs = &r->spec->compiler;
  char why[256] = "";
  if (orient.kind != TN_ORIENT_NONE &&
      !tn__orientationToQuat(quat, &orient, cs->degree, cs->eulerseq, why, sizeof(why))) {
    return tn__rdFail(r, node, NULL, why[0] ? why : "invalid orientation") + 1;
  }
  const char* cc = tn__rdStr(node, "childclass");
  if (cc) {
    cls = tn__findClass(r->spec, cc);
    if (cls < 0) {
      tn__xmlError(r->err, r->errsz, node, "childclass", "unknown default class '%s'", cc);
      return 0;
    }
  }

  // compose with the enclosing frames: outer * this
  tnFrame f = {1, {0, 0, 0}, {1, 0, 0, 0}};
  if (outer->active) {
    mju_rotVecQuat(f.pos, pos, outer->quat);
    mju_addTo3(f.pos, outer->pos);
    mju_mulQuat(f.quat, outer->quat, quat);
  } else {
    mju_copy3(f.pos, pos);
    mju_copy4(f.quat, quat);
  }
  return read_body_children(r, node, b, cls, &f);
}

/* the children of body b (or of the world), inside `frame` */
static int read_body_children(tnReader* r, tnXmlNode* node, int b, int cls, const tnFrame* frame) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    const char* n = c->name;
    int ok;
    if (strcmp(n, "body") == 0) {
      ok = read_body(r, c, b, cls, frame);
    } else if (strcmp(n, "frame") == 0) {
      ok = read_frame(r, c, b, cls, frame);
    } else if (strcmp(n, "inertial") == 0) {
      ok = read_inertial(r, c, b, frame);
    } else if (strcmp(n, "joint") == 0 || strcmp(n, "freejoint") == 0) {
      ok = read_joint(r, c, b, cls, frame);
    } else if (strcmp(n, "geom") == 0) {
      ok = read_geom(r, c, b, cls, frame);
    } else if (strcmp(n, "site") == 0) {
      ok = read_site(r, c, b, cls, frame);
    } else if (strcmp(n, "camera") == 0) {
      ok = read_camera(r, c, b, cls, frame);
    } else if (strcmp(n, "light") == 0) {
      ok = read_light(r, c, b, cls, frame);
    } else if (strcmp(n, "attach") == 0) {
      ok = tn__readAttach(r, c, b, frame);
    } else {
      ok = tn__rdFail(r, c, NULL, "not implemented yet") + 1;
    }
    if (!ok) {
      return 0;
    }
  }
  return 1;
}

/* a body subtree, or a worldbody's content, read on behalf of <attach> */
int tn__readBodySubtree(tnReader* r, tnXmlNode* node, int parent, int cls, const tnFrame* frame) {
  return read_body(r, node, parent, cls, frame);
}
int tn__readBodyChildren(tnReader* r, tnXmlNode* node, int b, int cls, const tnFrame* frame) {
  return read_body_children(r, node, b, cls, frame);
}

/* <worldbody> (replicates expanded first, see xml_replicate.c) */
int tn__readWorldbody(tnReader* r, tnXmlNode* node) {
  const tnFrame none = {0, {0, 0, 0}, {1, 0, 0, 0}};
  TN_OK(tn__xmlExpandReplicates(r, node));
  return read_body_children(r, node, 0, 0, &none);
}
