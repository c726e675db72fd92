/* xml/xml_defaults.c — default classes: <default class="..."> trees.
 *
 * A class starts as a copy of its parent (the top-level class "main" starts from MuJoCo's
 * built-in defaults), then its joint/geom/site/... children overwrite attributes through the
 * same readers that model elements use. Nested classes are read after their parent's own
 * elements, so they inherit the parent's final values. An element picks its class from its
 * `class` attribute, else from the nearest enclosing body's `childclass`, else "main". */
#include <string.h>

#include "xml/xml_reader.h"

/* index of a class by name */
int tn__findClass(const tnSpec* spec, const char* name) {
  for (int i = 0; i < spec->defaults.n; i++) {
    if (strcmp(TN_AT(spec->defaults, tnDefault, i)->name, name) == 0) {
      return i;
    }
  }
  return -1;
}

/* class of an element: its class attribute, else `inherited` */
int tn__elementClass(tnReader* r, tnXmlNode* node, int inherited) {
  const char* cls = tn__rdStr(node, "class");
  if (!cls) {
    return inherited;
  }
  int id = tn__findClass(r->spec, cls);
  if (id < 0) {
    tn__xmlError(r->err, r->errsz, node, "class", "unknown default class '%s'", cls);
  }
  return id;
}

/* read one element of a class into its slot (1/0) */
static int read_default_element(tnReader* r, tnXmlNode* c, tnDefault* d) {
  const char* n = c->name;
  int kind = tn__actuatorKind(n);
  if (kind >= 0) {
    return tn__readActuatorAttrs(r, c, kind, &d->actuator);
  }
  if (strcmp(n, "joint") == 0) {
    return tn__readJointAttrs(r, c, &d->joint);
  }
  if (strcmp(n, "geom") == 0) {
    return tn__readGeomAttrs(r, c, &d->geom);
  }
  if (strcmp(n, "site") == 0) {
    return tn__readSiteAttrs(r, c, &d->site);
  }
  if (strcmp(n, "camera") == 0) {
    return tn__readCameraAttrs(r, c, &d->camera);
  }
  if (strcmp(n, "light") == 0) {
    return tn__readLightAttrs(r, c, &d->light);
  }
  if (strcmp(n, "material") == 0) {
    return tn__readMaterialAttrs(r, c, &d->material);
  }
  if (strcmp(n, "pair") == 0) {
    return tn__readPairAttrs(r, c, &d->pair);
  }
  if (strcmp(n, "equality") == 0) {
    return tn__readEqualityAttrs(r, c, &d->equality);
  }
  if (strcmp(n, "tendon") == 0) {
    return tn__readTendonAttrs(r, c, &d->tendon);
  }
  if (strcmp(n, "mesh") == 0) {
    return tn__readMeshAttrs(r, c, &d->mesh);
  }
  return tn__rdFail(r, c, NULL, "not implemented yet in default classes") + 1;
}

/* the name of a class element (top-level: "main" unless named) */
static const char* class_name(tnReader* r, tnXmlNode* node, int parent) {
  const char* name = tn__rdStr(node, "class");
  if (!name) {
    if (parent >= 0) {
      tn__rdFail(r, node, "class", "nested default classes need a class name");
      return NULL;
    }
    return "main";
  }
  return tn__poolStrdup(&r->spec->pool, name);
}

static int read_class(tnReader* r, tnXmlNode* node, int parent, int detached);

/* read a <default> element as a class whose parent is `parent` (-1 for top level) */
int tn__readDefaults(tnReader* r, tnXmlNode* node, int parent) {
  return read_class(r, node, parent, 0);
}

/* read a synthesized top-level <default class="NAME"> as a new root class (copying main),
 * not as main reopened: an attached model's prefixed main class */
int tn__readDetachedDefaults(tnReader* r, tnXmlNode* node) {
  return read_class(r, node, -1, 1);
}

/* one class and its nested classes; `detached`: a named top-level class is a new class */
static int read_class(tnReader* r, tnXmlNode* node, int parent, int detached) {
  const char* name = class_name(r, node, parent);
  if (!name) {
    return 0;
  }

  // every top-level <default> reopens "main" (created with the spec): its elements change
  // main from here on, and classes nested in it copy main as it is then; others are new
  int id;
  if (parent < 0 && !detached) {
    if (strcmp(name, "main") != 0) {
      tn__xmlError(r->err, r->errsz, node, "class",
                   "top-level default class 'main' cannot be renamed");
      return 0;
    }
    id = 0;
  } else {
    if (tn__findClass(r->spec, name) >= 0) {
      tn__xmlError(r->err, r->errsz, node, "class", "repeated default class name '%s'", name);
      return 0;
    }
    tnDefault* d = tn__vecPush(&r->spec->defaults, sizeof(tnDefault));
    if (!d) {
      return tn__rdFail(r, node, NULL, "out of memory") + 1;
    }
    id = r->spec->defaults.n - 1;
    int from = parent >= 0 ? parent : 0;
    *d = *TN_AT(r->spec->defaults, tnDefault, from);
    d->name = name;
    d->parent = parent;
  }

  // this class's own elements first
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    if (strcmp(c->name, "default") == 0) {
      continue;
    }
    if (!read_default_element(r, c, TN_AT(r->spec->defaults, tnDefault, id))) {
      return 0;
    }
  }

  // then nested classes, which inherit the final values
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    if (strcmp(c->name, "default") == 0 && !read_class(r, c, id, 0)) {
      return 0;
    }
  }
  return 1;
}
