/* xml/xml_elements_tendon.c — <tendon>: fixed tendons (weighted joint sums) and spatial
 * tendons (paths through sites, wrapping around sphere/cylinder geoms, split by pulleys). */
#include <string.h>

#include "xml/xml_reader.h"

/* one path element of a tendon */
static int read_wrap(tnReader* r, tnXmlNode* node, int spatial) {
  tnSpecWrap* w = tn__vecPush(&r->spec->wraps, sizeof(tnSpecWrap));
  if (!w) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  w->src = &node->pos;
  const char* n = node->name;
  const char* attr = n;
  if (!spatial) {
    // fixed: <joint joint coef>
    w->type = mjWRAP_JOINT;
    attr = "joint";
    if (tn__rdNums(r, node, "coef", &w->prm, 1, 1) <= 0) {
      return tn__xmlAttr(node, "coef") ? 0 : tn__rdFail(r, node, "coef", "required") + 1;
    }
  } else if (strcmp(n, "site") == 0) {
    w->type = mjWRAP_SITE;
  } else if (strcmp(n, "geom") == 0) {
    w->type = mjWRAP_SPHERE; /* sphere or cylinder: decided from the geom at compile */
    TN_TRY(tn__rdName(r, node, "sidesite", &w->side));
  } else {
    w->type = mjWRAP_PULLEY;
    if (tn__rdNums(r, node, "divisor", &w->prm, 1, 1) <= 0) {
      return tn__xmlAttr(node, "divisor") ? 0 : tn__rdFail(r, node, "divisor", "required") + 1;
    }
    if (w->prm < 0) {
      return tn__rdFail(r, node, "divisor", "pulley has negative divisor") + 1;
    }
    return 1;
  }
  if (tn__rdName(r, node, attr, &w->obj) <= 0) {
    return tn__xmlAttr(node, attr) ? 0 : tn__rdFail(r, node, attr, "required attribute") + 1;
  }
  return 1;
}

/* <fixed> or <spatial> */
static int read_one_tendon(tnReader* r, tnXmlNode* node) {
  int cls = tn__elementClass(r, node, 0);
  if (cls < 0) {
    return 0;
  }
  tnSpecTendon t = TN_AT(r->spec->defaults, tnDefault, cls)->tendon;
  t.spatial = strcmp(node->name, "spatial") == 0;
  t.src = &node->pos;
  TN_OK(tn__readTendonAttrs(r, node, &t));
  TN_TRY(tn__rdName(r, node, "name", &t.name));

  // the path
  t.wrapadr = r->spec->wraps.n;
  for (int i = 0; i < node->nchild; i++) {
    if (!read_wrap(r, node->child[i], t.spatial)) {
      return 0;
    }
  }
  t.wrapnum = r->spec->wraps.n - t.wrapadr;
  if (t.wrapnum == 0) {
    return tn__rdFail(r, node, NULL, "tendon has no path elements") + 1;
  }
  tnSpecTendon* dst = tn__vecPush(&r->spec->tendons, sizeof(tnSpecTendon));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = t;
  return 1;
}

int tn__readTendon(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    if (!read_one_tendon(r, node->child[i])) {
      return 0;
    }
  }
  return 1;
}
