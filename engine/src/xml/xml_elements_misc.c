/* xml/xml_elements_misc.c — model-level sections without a tree: <contact> (pair,
 * exclude), <equality> (connect, weld, joint, tendon), <keyframe> and <custom> (numeric,
 * text, tuple). */
#include <string.h>

#include "xml/xml_reader.h"

/* ---------------------------------------------------------------------------------------
 * <contact>
 * ------------------------------------------------------------------------------------- */

/* a required name-valued attribute */
static int rd_required(tnReader* r, tnXmlNode* node, const char* attr, const char** out) {
  int got = tn__rdName(r, node, attr, out);
  if (got == 0) {
    return tn__rdFail(r, node, attr, "required attribute missing");
  }
  return got;
}

/* <pair> */
static int read_pair(tnReader* r, tnXmlNode* node) {
  int cls = tn__elementClass(r, node, 0);
  if (cls < 0) {
    return 0;
  }
  tnSpecPair p = TN_AT(r->spec->defaults, tnDefault, cls)->pair;
  TN_OK(tn__readPairAttrs(r, node, &p));
  TN_TRY(tn__rdName(r, node, "name", &p.name));
  TN_TRY(rd_required(r, node, "geom1", &p.geom1));
  TN_TRY(rd_required(r, node, "geom2", &p.geom2));
  p.src = &node->pos;
  tnSpecPair* dst = tn__vecPush(&r->spec->pairs, sizeof(tnSpecPair));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = p;
  return 1;
}

/* <exclude> */
static int read_exclude(tnReader* r, tnXmlNode* node) {
  tnSpecExclude* e = tn__vecPush(&r->spec->excludes, sizeof(tnSpecExclude));
  if (!e) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  e->src = &node->pos;
  TN_TRY(tn__rdName(r, node, "name", &e->name));
  TN_TRY(rd_required(r, node, "body1", &e->body1));
  TN_TRY(rd_required(r, node, "body2", &e->body2));
  return 1;
}

int tn__readContact(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    int ok = strcmp(c->name, "pair") == 0 ? read_pair(r, c) : read_exclude(r, c);
    if (!ok) {
      return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <equality>
 * ------------------------------------------------------------------------------------- */

/* connect and weld: bodies or sites */
static int read_eq_frames(tnReader* r, tnXmlNode* node, tnSpecEquality* e) {
  const char *b1 = NULL, *b2 = NULL, *s1 = NULL, *s2 = NULL;
  TN_TRY(tn__rdName(r, node, "body1", &b1));
  TN_TRY(tn__rdName(r, node, "body2", &b2));
  TN_TRY(tn__rdName(r, node, "site1", &s1));
  TN_TRY(tn__rdName(r, node, "site2", &s2));
  int anchor = tn__rdNums(r, node, "anchor", e->anchor, 3, 3);
  TN_TRY(anchor);

  // either body1 (+ optional body2, anchor) or site1 + site2
  if (b1 && !s1 && !s2) {
    e->name1 = b1;
    e->name2 = b2;
    if (e->type == mjEQ_CONNECT && !anchor) {
      return tn__rdFail(r, node, "anchor", "required with body1") + 1;
    }
    return 1;
  }
  if (s1 && s2 && !b1 && !b2 && (anchor || tn__xmlAttr(node, "relpose"))) {
    return tn__rdFail(r, node, anchor ? "anchor" : "relpose",
                      "anchor and relpose cannot be used with site1/site2") +
           1;
  }
  if (s1 && s2 && !b1 && !b2) {
    e->use_sites = 1;
    e->name1 = s1;
    e->name2 = s2;
    return 1;
  }
  return tn__rdFail(r, node, NULL, "either body1 (and body2) or site1 and site2 are required") + 1;
}

/* one equality element */
static int read_equality(tnReader* r, tnXmlNode* node) {
  int cls = tn__elementClass(r, node, 0);
  if (cls < 0) {
    return 0;
  }
  tnSpecEquality e = TN_AT(r->spec->defaults, tnDefault, cls)->equality;
  e.src = &node->pos;
  TN_OK(tn__readEqualityAttrs(r, node, &e));
  TN_TRY(tn__rdName(r, node, "name", &e.name));
  const char* n = node->name;
  if (strcmp(n, "connect") == 0 || strcmp(n, "weld") == 0) {
    e.type = n[0] == 'c' ? mjEQ_CONNECT : mjEQ_WELD;
    if (!read_eq_frames(r, node, &e)) {
      return 0;
    }
    if (e.type == mjEQ_WELD) {
      int got = tn__rdNums(r, node, "relpose", e.relpose, 7, 7);
      TN_TRY(got);
      e.has_relpose = got > 0;
      TN_TRY(tn__rdNums(r, node, "torquescale", &e.torquescale, 1, 1));
    }
  } else {
    int joint = strcmp(n, "joint") == 0;
    e.type = joint ? mjEQ_JOINT : mjEQ_TENDON;
    TN_TRY(rd_required(r, node, joint ? "joint1" : "tendon1", &e.name1));
    TN_TRY(tn__rdName(r, node, joint ? "joint2" : "tendon2", &e.name2));
    TN_TRY(tn__rdNums(r, node, "polycoef", e.polycoef, 1, 5));
  }
  tnSpecEquality* dst = tn__vecPush(&r->spec->equalities, sizeof(tnSpecEquality));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = e;
  return 1;
}

int tn__readEquality(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    if (!read_equality(r, node->child[i])) {
      return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <keyframe>
 * ------------------------------------------------------------------------------------- */

/* a keyframe array: -1 when absent */
static int rd_key_array(tnReader* r, tnXmlNode* node, const char* attr, mjtNum** v, int* n) {
  *n = -1;
  return tn__rdNumArray(r, node, attr, v, n);
}

int tn__readKeyframe(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    tnSpecKey* k = tn__vecPush(&r->spec->keys, sizeof(tnSpecKey));
    if (!k) {
      return tn__rdFail(r, c, NULL, "out of memory") + 1;
    }
    k->src = &c->pos;
    TN_TRY(tn__rdName(r, c, "name", &k->name));
    TN_TRY(tn__rdNums(r, c, "time", &k->time, 1, 1));
    TN_TRY(rd_key_array(r, c, "qpos", &k->qpos, &k->nqpos));
    TN_TRY(rd_key_array(r, c, "qvel", &k->qvel, &k->nqvel));
    TN_TRY(rd_key_array(r, c, "act", &k->act, &k->nact));
    TN_TRY(rd_key_array(r, c, "ctrl", &k->ctrl, &k->nctrl));
    TN_TRY(rd_key_array(r, c, "mpos", &k->mpos, &k->nmpos));
    TN_TRY(rd_key_array(r, c, "mquat", &k->mquat, &k->nmquat));
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <custom>
 * ------------------------------------------------------------------------------------- */

/* object types accepted in tuples and frame sensors */
static const tnKeyword object_types[] = {{"body", mjOBJ_BODY},
                                         {"xbody", mjOBJ_XBODY},
                                         {"joint", mjOBJ_JOINT},
                                         {"dof", mjOBJ_DOF},
                                         {"geom", mjOBJ_GEOM},
                                         {"site", mjOBJ_SITE},
                                         {"camera", mjOBJ_CAMERA},
                                         {"light", mjOBJ_LIGHT},
                                         {"mesh", mjOBJ_MESH},
                                         {"hfield", mjOBJ_HFIELD},
                                         {"texture", mjOBJ_TEXTURE},
                                         {"material", mjOBJ_MATERIAL},
                                         {"pair", mjOBJ_PAIR},
                                         {"exclude", mjOBJ_EXCLUDE},
                                         {"equality", mjOBJ_EQUALITY},
                                         {"tendon", mjOBJ_TENDON},
                                         {"actuator", mjOBJ_ACTUATOR},
                                         {"sensor", mjOBJ_SENSOR},
                                         {"numeric", mjOBJ_NUMERIC},
                                         {"text", mjOBJ_TEXT},
                                         {"tuple", mjOBJ_TUPLE},
                                         {"key", mjOBJ_KEY},
                                         {NULL, 0}};

/* <numeric> */
static int read_numeric(tnReader* r, tnXmlNode* node) {
  tnSpecNumeric* n = tn__vecPush(&r->spec->numerics, sizeof(tnSpecNumeric));
  if (!n) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  n->src = &node->pos;
  n->size = -1;
  TN_TRY(rd_required(r, node, "name", &n->name));
  TN_TRY(tn__rdInts(r, node, "size", &n->size, 1, 1));
  TN_TRY(tn__rdNumArray(r, node, "data", &n->data, &n->ndata));
  if (n->size < 0 && n->ndata == 0) {
    return tn__rdFail(r, node, "size", "size or data is required") + 1;
  }
  if (n->size >= 0 && n->ndata > n->size) {
    return tn__rdFail(r, node, "data", "more values than size") + 1;
  }
  return 1;
}

/* <text> */
static int read_text(tnReader* r, tnXmlNode* node) {
  tnSpecText* t = tn__vecPush(&r->spec->texts, sizeof(tnSpecText));
  if (!t) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  t->src = &node->pos;
  TN_TRY(rd_required(r, node, "name", &t->name));
  TN_TRY(rd_required(r, node, "data", &t->data));
  return 1;
}

/* <tuple> with its <element>s */
static int read_tuple(tnReader* r, tnXmlNode* node) {
  tnSpecTuple* t = tn__vecPush(&r->spec->tuples, sizeof(tnSpecTuple));
  if (!t) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  t->src = &node->pos;
  TN_TRY(rd_required(r, node, "name", &t->name));
  t->adr = r->spec->tuple_elems.n;
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    tnSpecTupleElem* e = tn__vecPush(&r->spec->tuple_elems, sizeof(tnSpecTupleElem));
    if (!e) {
      return tn__rdFail(r, c, NULL, "out of memory") + 1;
    }
    e->src = &c->pos;
    int got = tn__rdKeyword(r, c, "objtype", object_types, &e->objtype);
    TN_TRY(got);
    if (!got) {
      return tn__rdFail(r, c, "objtype", "required attribute missing") + 1;
    }
    TN_TRY(rd_required(r, c, "objname", &e->objname));
    TN_TRY(tn__rdNums(r, c, "prm", &e->prm, 1, 1));
  }
  t->num = r->spec->tuple_elems.n - t->adr;
  return 1;
}

int tn__readCustom(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    int ok;
    if (strcmp(c->name, "numeric") == 0) {
      ok = read_numeric(r, c);
    } else if (strcmp(c->name, "text") == 0) {
      ok = read_text(r, c);
    } else {
      ok = read_tuple(r, c);
    }
    if (!ok) {
      return 0;
    }
  }
  return 1;
}
