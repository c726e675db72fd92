/* xml/xml_attach.c — <asset><model> and <attach model body prefix>: a body subtree of
 * another MJCF file grafted into this model, every name prefixed.
 *
 * As MuJoCo 3.14 attaches: the child's body (with its local pose) becomes a child of the
 * body or frame holding <attach>; all of the child's assets come along, named prefix + name;
 * its default classes come along (prefix + class; its "main" class as prefix + "main", built
 * on MuJoCo's built-in defaults, not on this model's main class), and the attached elements
 * keep the classes they had in the child (their own, else the nearest childclass above them
 * in the child, else the child's main). Elements of the child's contact, equality, tendon,
 * actuator and sensor sections whose references all lie in the attached subtree (or in
 * elements brought along before them) are appended, prefixed, to this model's sections.
 *
 * Without `body`, the child's whole worldbody content is attached to the body holding
 * <attach> (in its frame). Each attach reads prefixed copies of the child's nodes (so the
 * child document is shared by every attach of it, and errors point at the child's file and
 * line); the child's replicates are expanded once, before its first attach. The child's
 * keyframes come along, prefixed, after this model's own: their qpos, qvel, ctrl, mpos and
 * mquat values are placed joint by joint, actuator by actuator and mocap body by mocap body
 * on the attached objects (everything else keeps its defaults), as MuJoCo maps them. A child
 * whose <compiler> angle or eulerseq differ from this model's has its orientations rewritten
 * as quaternions and its hinge and ball joint angles rescaled. Not implemented yet, and
 * refused by name: attached keyframes with activations. */
#include <stdio.h>
#include <string.h>

#include "xml/xml_reader.h"
#include "xml/xml_schema.h"

/* attributes that name objects: the element's own name, classes and references */
static const char* const named_attrs[] = {
    "name",     "class",      "childclass", "joint",     "joint1",   "joint2",    "body",
    "body1",    "body2",      "geom",       "geom1",     "geom2",    "site",      "site1",
    "site2",    "tendon",     "tendon1",    "tendon2",   "actuator", "objname",   "refname",
    "sidesite", "refsite",    "cranksite",  "slidersite", "jointinparent", "subtree1",
    "subtree2", "camera",     "target",     "mesh",      "material", "hfield",    "texture",
    NULL};

/* the attributes of the above that refer to objects of the kinematic tree (and to elements
 * of the sections brought along) */
static const char* const tree_refs[] = {
    "joint",   "joint1",   "joint2",   "body",       "body1",     "body2",
    "geom",    "geom1",    "geom2",    "site",       "site1",     "site2",
    "tendon",  "tendon1",  "tendon2",  "actuator",   "objname",   "refname",
    "sidesite", "refsite", "cranksite", "slidersite", "jointinparent", "subtree1",
    "subtree2", "camera",  NULL};

/* sections of the child brought along, in reading order */
static const char* const child_sections[] = {"contact", "equality", "tendon", "actuator",
                                             "sensor",  NULL};

/* state of one attach */
typedef struct tnAttach_ {
  tnReader* r;
  tnPool* pool;           /* the main document's pool: copies live there */
  const char* prefix;
  const char** names;     /* names defined in the attached subtree (and brought along) */
  int nnames, capnames;
  tnXmlNode** act_copy;   /* per actuator of the child (in order): its copy, or NULL */
  int nact;
  const tnCompilerSettings* child_cs; /* the child's angle settings when they differ, else NULL */
} tnAttach;

/* true when `word` is in the NULL-terminated list */
static int in_list(const char* const* list, const char* word) {
  for (int i = 0; list[i]; i++) {
    if (strcmp(list[i], word) == 0) {
      return 1;
    }
  }
  return 0;
}

/* prefix + value in the pool */
static const char* prefixed(tnAttach* a, const char* value) {
  size_t n = strlen(a->prefix) + strlen(value) + 1;
  char* out = tn__poolAlloc(a->pool, n);
  if (out) {
    snprintf(out, n, "%s%s", a->prefix, value);
  }
  return out;
}

/* a copy of a subtree with every object name, class and reference prefixed */
static tnXmlNode* copy_prefixed(tnAttach* a, const tnXmlNode* src, tnXmlNode* parent) {
  tnXmlNode* node = tn__poolAlloc(a->pool, sizeof(tnXmlNode));
  if (!node) {
    return NULL;
  }
  *node = *src;
  node->parent = parent;
  node->attr = tn__poolAlloc(a->pool, sizeof(tnXmlAttr) * (size_t)(src->nattr + 1));
  node->child = tn__poolAlloc(a->pool, sizeof(tnXmlNode*) * (size_t)(src->nchild + 1));
  if (!node->attr || !node->child) {
    return NULL;
  }
  for (int i = 0; i < src->nattr; i++) {
    tnXmlAttr at = src->attr[i];
    at.used = 0;
    if (in_list(named_attrs, at.name) && at.value[0]) {
      at.value = prefixed(a, at.value);
      if (!at.value) {
        return NULL;
      }
    }
    node->attr[i] = at;
  }
  for (int i = 0; i < src->nchild; i++) {
    node->child[i] = copy_prefixed(a, src->child[i], node);
    if (!node->child[i]) {
      return NULL;
    }
  }
  return node;
}

/* remember a (prefixed) name as attached */
static int add_name(tnAttach* a, const char* name) {
  if (a->nnames == a->capnames) {
    int cap = a->capnames ? 2 * a->capnames : 32;
    const char** grown = tn__poolAlloc(a->pool, sizeof(char*) * (size_t)cap);
    if (!grown) {
      return 0;
    }
    if (a->nnames) {
      memcpy(grown, a->names, sizeof(char*) * (size_t)a->nnames);
    }
    a->names = grown;
    a->capnames = cap;
  }
  a->names[a->nnames++] = name;
  return 1;
}

/* true when the name was attached */
static int has_name(const tnAttach* a, const char* name) {
  for (int i = 0; i < a->nnames; i++) {
    if (strcmp(a->names[i], name) == 0) {
      return 1;
    }
  }
  return 0;
}

/* every name of a (prefixed) subtree */
static int collect(tnAttach* a, const tnXmlNode* node) {
  const char* name = tn__xmlAttr(node, "name");
  if (name && name[0] && !add_name(a, name)) {
    return 0;
  }
  for (int i = 0; i < node->nchild; i++) {
    if (!collect(a, node->child[i])) {
      return 0;
    }
  }
  return 1;
}

/* true when every tree reference of a (prefixed) subtree was attached */
static int refs_attached(const tnAttach* a, const tnXmlNode* node) {
  for (int i = 0; i < node->nattr; i++) {
    if (in_list(tree_refs, node->attr[i].name) && !has_name(a, node->attr[i].value)) {
      return 0;
    }
  }
  for (int i = 0; i < node->nchild; i++) {
    if (!refs_attached(a, node->child[i])) {
      return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * children written with other angle units or euler sequence: their angles rewritten in
 * this model's terms (orientations as quaternions, joint angles rescaled), as MuJoCo reads
 * every element with its own model's compiler settings
 * ------------------------------------------------------------------------------------- */

/* replace attribute `name` of node by new_name="value" (value formatted here) */
static int set_attr(tnAttach* a, tnXmlNode* node, const char* name, const char* new_name,
                    const mjtNum* v, int n) {
  char buf[256];
  int len = 0;
  for (int i = 0; i < n; i++) {
    len += snprintf(buf + len, sizeof(buf) - (size_t)len, i ? " %.17g" : "%.17g", v[i]);
  }
  const char* value = tn__poolStrdup(a->pool, buf);
  if (!value) {
    return 0;
  }
  for (int i = 0; i < node->nattr; i++) {
    if (strcmp(node->attr[i].name, name) == 0) {
      node->attr[i] = (tnXmlAttr){new_name, value, 0};
      return 1;
    }
  }
  tnXmlAttr* attr = tn__poolAlloc(a->pool, sizeof(tnXmlAttr) * (size_t)(node->nattr + 1));
  if (!attr) {
    return 0;
  }
  memcpy(attr, node->attr, sizeof(tnXmlAttr) * (size_t)node->nattr);
  attr[node->nattr++] = (tnXmlAttr){new_name, value, 0};
  node->attr = attr;
  return 1;
}

/* euler or axisangle as a quaternion, with the child's settings */
static int convert_orientation(tnAttach* a, tnXmlNode* node) {
  tnReader* r = a->r;
  tnOrientation o = {TN_ORIENT_NONE, {0, 0, 0, 0, 0, 0}};
  const char* attr = tn__xmlAttr(node, "euler") ? "euler" : "axisangle";
  if (tn__xmlAttr(node, "euler")) {
    o.kind = TN_ORIENT_EULER;
    TN_TRY(tn__rdNums(r, node, "euler", o.v, 3, 3));
  } else if (tn__xmlAttr(node, "axisangle")) {
    o.kind = TN_ORIENT_AXISANGLE;
    TN_TRY(tn__rdNums(r, node, "axisangle", o.v, 4, 4));
  } else {
    return 1;
  }
  mjtNum quat[4];
  char why[256] = "";
  if (!tn__orientationToQuat(quat, &o, a->child_cs->degree, a->child_cs->eulerseq, why,
                             sizeof(why))) {
    return tn__rdFail(r, node, attr, why[0] ? why : "invalid orientation") + 1;
  }
  return set_attr(a, node, attr, "quat", quat, 4) || tn__rdFail(r, node, NULL, "out of memory") + 1;
}

/* a hinge or ball joint's range, ref and springref rescaled to this model's angle unit */
static int convert_joint(tnAttach* a, tnXmlNode* node, const char* cls) {
  tnReader* r = a->r;
  const char* own = tn__xmlAttr(node, "class");
  int id = tn__findClass(r->spec, own ? own : cls);
  if (id < 0) {
    return 1; /* reported when the joint is read */
  }
  tnSpecJoint j = TN_AT(r->spec->defaults, tnDefault, id)->joint;
  const char* type = tn__xmlAttr(node, "type");
  if (type) {
    j.type = strcmp(type, "ball") == 0    ? mjJNT_BALL
             : strcmp(type, "hinge") == 0 ? mjJNT_HINGE
                                          : mjJNT_SLIDE;
  }
  if (strcmp(node->name, "joint") != 0 || (j.type != mjJNT_HINGE && j.type != mjJNT_BALL)) {
    return 1;
  }
  mjtNum scale = (a->child_cs->degree ? mjPI / 180.0 : 1.0) /
                 (r->spec->compiler.degree ? mjPI / 180.0 : 1.0);
  TN_TRY(tn__rdNums(r, node, "range", j.range, 2, 2));
  TN_TRY(tn__rdNums(r, node, "ref", &j.ref, 1, 1));
  TN_TRY(tn__rdNums(r, node, "springref", &j.springref, 1, 1));
  mjtNum range[2] = {j.range[0] * scale, j.range[1] * scale};
  mjtNum ref = j.ref * scale, springref = j.springref * scale;
  if (!set_attr(a, node, "range", "range", range, 2) || !set_attr(a, node, "ref", "ref", &ref, 1) ||
      !set_attr(a, node, "springref", "springref", &springref, 1)) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  return 1;
}

/* every angle of a copied subtree; `cls` is the class its elements inherit (NULL inside
 * default classes, where only orientations are rewritten) */
static int convert_angles(tnAttach* a, tnXmlNode* node, const char* cls) {
  TN_OK(convert_orientation(a, node));
  if (cls && strcmp(node->name, "joint") == 0) {
    TN_OK(convert_joint(a, node, cls));
  }
  const char* cc = cls ? tn__xmlAttr(node, "childclass") : NULL;
  for (int i = 0; i < node->nchild; i++) {
    TN_OK(convert_angles(a, node->child[i], cc ? cc : cls));
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <asset><model>: child documents, parsed and validated once
 * ------------------------------------------------------------------------------------- */

/* release an attached model's document with the spec (tnSpecModel.doc_free) */
static void free_doc(void* doc) {
  tn__xmlFree(doc);
}

/* <model name file>: parse and validate the child file (relative to this model's dir) */
int tn__readModelAsset(tnReader* r, tnXmlNode* node) {
  const char* name = NULL;
  const char* file = NULL;
  TN_TRY(tn__rdName(r, node, "name", &name));
  TN_TRY(tn__rdName(r, node, "file", &file));
  const char* type = tn__rdStr(node, "content_type");
  if (type && strcmp(type, "text/xml") != 0) {
    return tn__rdFail(r, node, "content_type", "only text/xml models can be attached") + 1;
  }
  if (!file) {
    return tn__rdFail(r, node, "file", "required attribute missing") + 1;
  }
  if (!name) {
    return tn__rdFail(r, node, "name", "required attribute missing") + 1;
  }

  // the child document, relative to the main file's directory
  const char* dir = r->doc && r->doc->dir ? r->doc->dir : "";
  char path[4096];
  snprintf(path, sizeof(path), "%s%s%s", file[0] == '/' || !dir[0] ? "" : dir,
           file[0] == '/' || !dir[0] ? "" : "/", file);
  char why[1024] = "";
  tnXmlDoc* child = tn__xmlLoadFile(path, r->doc ? r->doc->files : NULL, why, sizeof(why));
  if (child && !tn__xmlValidate(child->root, why, sizeof(why))) {
    tn__xmlFree(child);
    child = NULL;
  }
  if (!child) {
    return tn__rdFail(r, node, "file", why) + 1;
  }
  tnSpecModel* m = tn__vecPush(&r->spec->models, sizeof(tnSpecModel));
  if (!m) {
    tn__xmlFree(child);
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  m->name = name;
  m->doc = child;
  m->doc_free = free_doc;
  m->src = &node->pos;
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <attach>
 * ------------------------------------------------------------------------------------- */

/* the body named `name` below node, NULL when none */
static tnXmlNode* find_body(tnXmlNode* node, const char* name) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    const char* n = tn__xmlAttr(c, "name");
    if (strcmp(c->name, "body") == 0 && n && strcmp(n, name) == 0) {
      return c;
    }
    tnXmlNode* found = find_body(c, name);
    if (found) {
      return found;
    }
  }
  return NULL;
}

/* the first child element of node named `name` (NULL when none) */
static tnXmlNode* child_named(tnXmlNode* node, const char* name) {
  for (int i = 0; i < node->nchild; i++) {
    if (strcmp(node->child[i]->name, name) == 0) {
      return node->child[i];
    }
  }
  return NULL;
}

/* the child's compiler settings (read into a scratch spec); 0 after an error */
static int child_compiler(tnReader* r, tnXmlDoc* child, tnCompilerSettings* out) {
  tnSpec* scratch = tn__specNew();
  if (!scratch) {
    return tn__rdFail(r, child->root, NULL, "out of memory") + 1;
  }
  tnReader cr = {scratch, child, r->err, r->errsz};
  int ok = 1;
  for (int i = 0; ok && i < child->root->nchild; i++) {
    if (strcmp(child->root->child[i]->name, "compiler") == 0) {
      ok = tn__readCompiler(&cr, child->root->child[i]);
    }
  }
  *out = scratch->compiler;
  out->meshdir = out->meshdir ? tn__poolStrdup(&r->spec->pool, out->meshdir) : NULL;
  out->texturedir = out->texturedir ? tn__poolStrdup(&r->spec->pool, out->texturedir) : NULL;
  out->assetdir = out->assetdir ? tn__poolStrdup(&r->spec->pool, out->assetdir) : NULL;
  tn__specFree(scratch);
  return ok;
}

/* the child's default classes, prefixed; its main class built on the built-in defaults
 * (every top-level <default> of the child adds to its main class) */
static int attach_defaults(tnAttach* a, tnXmlDoc* child) {
  tnReader* r = a->r;
  tnXmlNode* root = child->root;
  tnXmlNode* node = tn__poolAlloc(a->pool, sizeof(tnXmlNode));
  tnXmlAttr* attr = tn__poolAlloc(a->pool, sizeof(tnXmlAttr));
  tnXmlNode** kids = tn__poolAlloc(a->pool, sizeof(tnXmlNode*) * (size_t)(root->nchild + 1));
  const char* main_name = prefixed(a, "main");
  if (!node || !attr || !kids || !main_name) {
    return tn__rdFail(r, root, NULL, "out of memory") + 1;
  }
  attr[0] = (tnXmlAttr){"class", main_name, 0};
  *node = (tnXmlNode){"default", {"default", root->pos.file, root->pos.line}, 1, attr, 0, kids,
                      NULL};

  // the children of every top-level <default>, prefixed, under one main class
  for (int i = 0; i < root->nchild; i++) {
    tnXmlNode* def = root->child[i];
    if (strcmp(def->name, "default") != 0) {
      continue;
    }
    tnXmlNode* copy = copy_prefixed(a, def, NULL);
    tnXmlNode** grown =
        copy
            ? tn__poolAlloc(a->pool, sizeof(tnXmlNode*) * (size_t)(node->nchild + copy->nchild + 1))
            : NULL;
    if (!grown) {
      return tn__rdFail(r, def, NULL, "out of memory") + 1;
    }
    memcpy(grown, node->child, sizeof(tnXmlNode*) * (size_t)node->nchild);
    memcpy(grown + node->nchild, copy->child, sizeof(tnXmlNode*) * (size_t)copy->nchild);
    node->child = grown;
    node->nchild += copy->nchild;
  }
  for (int i = 0; i < node->nchild; i++) {
    node->child[i]->parent = node;
    if (a->child_cs && !convert_angles(a, node->child[i], NULL)) {
      return 0;
    }
  }

  // read it as a top-level class while the main class holds the built-in defaults
  tnDefault saved = *TN_AT(r->spec->defaults, tnDefault, 0);
  tnDefault* main_class = TN_AT(r->spec->defaults, tnDefault, 0);
  tn__specDefaultJoint(&main_class->joint);
  tn__specDefaultGeom(&main_class->geom);
  tn__specDefaultSite(&main_class->site);
  tn__specDefaultCamera(&main_class->camera);
  tn__specDefaultLight(&main_class->light);
  tn__specDefaultMaterial(&main_class->material);
  tn__specDefaultPair(&main_class->pair);
  tn__specDefaultEquality(&main_class->equality);
  tn__specDefaultTendon(&main_class->tendon);
  tn__specDefaultActuator(&main_class->actuator);
  tn__specDefaultMesh(&main_class->mesh);
  int ok = tn__readDetachedDefaults(r, node);
  *TN_AT(r->spec->defaults, tnDefault, 0) = saved;
  return ok && tn__xmlCheckUsed(node, r->err, r->errsz);
}

/* the child's assets, prefixed (file paths resolved against the child's directories) */
static int attach_assets(tnAttach* a, tnXmlDoc* child, const tnCompilerSettings* cs) {
  tnReader* r = a->r;
  tnXmlDoc* doc = r->doc;
  tnCompilerSettings saved = r->spec->compiler;
  int ok = 1;
  for (int i = 0; ok && i < child->root->nchild; i++) {
    tnXmlNode* sec = child->root->child[i];
    if (strcmp(sec->name, "asset") != 0) {
      continue;
    }
    tnXmlNode* copy = copy_prefixed(a, sec, NULL);
    if (!copy) {
      return tn__rdFail(r, sec, NULL, "out of memory") + 1;
    }

    // unnamed file assets get the prefixed name MuJoCo derives from the file
    for (int k = 0; k < copy->nchild; k++) {
      tnXmlNode* e = copy->child[k];
      const char* file = tn__xmlAttr(e, "file");
      if (!tn__xmlAttr(e, "name") && file) {
        const char* slash = strrchr(file, '/');
        char* stem = tn__poolStrdup(a->pool, slash ? slash + 1 : file);
        char* dot = stem ? strrchr(stem, '.') : NULL;
        tnXmlAttr* attr = tn__poolAlloc(a->pool, sizeof(tnXmlAttr) * (size_t)(e->nattr + 1));
        if (!stem || !attr) {
          return tn__rdFail(r, e, NULL, "out of memory") + 1;
        }
        if (dot && dot != stem) {
          *dot = 0;
        }
        memcpy(attr, e->attr, sizeof(tnXmlAttr) * (size_t)e->nattr);
        attr[e->nattr] = (tnXmlAttr){"name", prefixed(a, stem), 0};
        e->attr = attr;
        e->nattr++;
      }
    }

    // read with the child's directories
    r->doc = child;
    r->spec->compiler.meshdir = cs->meshdir;
    r->spec->compiler.texturedir = cs->texturedir;
    r->spec->compiler.assetdir = cs->assetdir;
    r->spec->compiler.strippath = cs->strippath;
    ok = tn__readAsset(r, copy);
    r->doc = doc;
    r->spec->compiler = saved;
    ok = ok && tn__xmlCheckUsed(copy, r->err, r->errsz);
  }
  return ok;
}

/* the root element of this document (to append sections to) */
static tnXmlNode* doc_root(tnXmlNode* node) {
  while (node->parent) {
    node = node->parent;
  }
  return node;
}

/* this model's last section named `name`, created at the end of the root when missing */
static tnXmlNode* own_section(tnAttach* a, tnXmlNode* root, const char* name) {
  tnXmlNode* sec = NULL;
  for (int i = 0; i < root->nchild; i++) {
    if (strcmp(root->child[i]->name, name) == 0) {
      sec = root->child[i];
    }
  }
  if (sec) {
    return sec;
  }
  sec = tn__poolAlloc(a->pool, sizeof(tnXmlNode));
  tnXmlNode** child = tn__poolAlloc(a->pool, sizeof(tnXmlNode*) * (size_t)(root->nchild + 1));
  if (!sec || !child) {
    return NULL;
  }
  *sec = (tnXmlNode){name, {name, root->pos.file, 0}, 0, NULL, 0, NULL, root};
  memcpy(child, root->child, sizeof(tnXmlNode*) * (size_t)root->nchild);
  child[root->nchild] = sec;
  root->child = child;
  root->nchild++;
  return sec;
}

/* append a node to a section's children */
static int append(tnAttach* a, tnXmlNode* sec, tnXmlNode* node) {
  tnXmlNode** child = tn__poolAlloc(a->pool, sizeof(tnXmlNode*) * (size_t)(sec->nchild + 1));
  if (!child) {
    return 0;
  }
  if (sec->nchild) {
    memcpy(child, sec->child, sizeof(tnXmlNode*) * (size_t)sec->nchild);
  }
  child[sec->nchild++] = node;
  sec->child = child;
  node->parent = sec;
  return 1;
}

/* the child's elements that refer only to attached objects, into this model's sections */
static int attach_sections(tnAttach* a, tnXmlDoc* child, tnXmlNode* here) {
  tnXmlNode* root = doc_root(here);
  for (int s = 0; child_sections[s]; s++) {
    for (int i = 0; i < child->root->nchild; i++) {
      tnXmlNode* sec = child->root->child[i];
      if (strcmp(sec->name, child_sections[s]) != 0) {
        continue;
      }
      int is_act = strcmp(sec->name, "actuator") == 0;
      if (is_act) {
        tnXmlNode** grown =
            tn__poolAlloc(a->pool, sizeof(tnXmlNode*) * (size_t)(a->nact + sec->nchild + 1));
        if (!grown) {
          return tn__rdFail(a->r, sec, NULL, "out of memory") + 1;
        }
        if (a->nact) {
          memcpy(grown, a->act_copy, sizeof(tnXmlNode*) * (size_t)a->nact);
        }
        a->act_copy = grown;
      }
      for (int k = 0; k < sec->nchild; k++) {
        tnXmlNode* copy = copy_prefixed(a, sec->child[k], NULL);
        if (!copy) {
          return tn__rdFail(a->r, sec->child[k], NULL, "out of memory") + 1;
        }
        int keep = refs_attached(a, copy);
        if (is_act) {
          a->act_copy[a->nact++] = keep ? copy : NULL;
        }
        if (!keep) {
          continue;
        }
        tnXmlNode* dst = own_section(a, root, child_sections[s]);
        if (!dst || !append(a, dst, copy) || !collect(a, copy)) {
          return tn__rdFail(a->r, sec->child[k], NULL, "out of memory") + 1;
        }
      }
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * keyframes of the child: copied with the prefix, their values placed object by object
 * ------------------------------------------------------------------------------------- */

static const tnKeyword joint_types[] = {{"free", mjJNT_FREE},
                                        {"ball", mjJNT_BALL},
                                        {"slide", mjJNT_SLIDE},
                                        {"hinge", mjJNT_HINGE},
                                        {NULL, 0}};

/* where the child's layout walk stands: offsets into its qpos, qvel and mocap arrays */
typedef struct tnKeyLayout_ {
  int qpos, qvel, mocap;
} tnKeyLayout;

/* add a run of values for the object read from `target` */
static int add_seg(tnAttach* a, int field, const tnXmlNode* target, int from, int n) {
  tnSpecKeySeg* seg = tn__vecPush(&a->r->spec->keysegs, sizeof(tnSpecKeySeg));
  if (!seg) {
    return 0;
  }
  *seg = (tnSpecKeySeg){field, &target->pos, from, n};
  return 1;
}

/* the type of a joint of the child (its type attribute, else its class's) */
static int child_joint_type(tnAttach* a, const tnXmlNode* joint) {
  if (strcmp(joint->name, "freejoint") == 0) {
    return mjJNT_FREE;
  }
  const char* type = tn__xmlAttr(joint, "type");
  for (int i = 0; type && joint_types[i].word; i++) {
    if (strcmp(joint_types[i].word, type) == 0) {
      return joint_types[i].value;
    }
  }
  const char* cls = tn__xmlAttr(joint, "class");
  for (const tnXmlNode* p = joint->parent; !cls && p; p = p->parent) {
    cls = tn__xmlAttr(p, "childclass");
  }
  const char* name = prefixed(a, cls ? cls : "main");
  int id = name ? tn__findClass(a->r->spec, name) : -1;
  return id >= 0 ? TN_AT(a->r->spec->defaults, tnDefault, id)->joint.type : mjJNT_HINGE;
}

static int layout_body(tnAttach* a, const tnXmlNode* body, const tnXmlNode* copy,
                       tnKeyLayout* at);

/* the joints of a body (through frames) in document order; `copy` mirrors `node` or is NULL
 * outside the attached subtree */
static int layout_joints(tnAttach* a, const tnXmlNode* node, const tnXmlNode* copy,
                         tnKeyLayout* at) {
  for (int i = 0; i < node->nchild; i++) {
    const tnXmlNode* c = node->child[i];
    const tnXmlNode* cc = copy ? copy->child[i] : NULL;
    if (strcmp(c->name, "frame") == 0) {
      TN_OK(layout_joints(a, c, cc, at));
    } else if (strcmp(c->name, "joint") == 0 || strcmp(c->name, "freejoint") == 0) {
      int type = child_joint_type(a, c);
      int nq = type == mjJNT_FREE ? 7 : type == mjJNT_BALL ? 4 : 1;
      int nv = type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
      if (cc && (!add_seg(a, TN_KEY_QPOS, cc, at->qpos, nq) ||
                 !add_seg(a, TN_KEY_QVEL, cc, at->qvel, nv))) {
        return 0;
      }
      at->qpos += nq;
      at->qvel += nv;
    }
  }
  return 1;
}

/* the child bodies of node (through frames), in document order */
static int layout_children(tnAttach* a, const tnXmlNode* node, const tnXmlNode* copy,
                           const tnXmlNode* src, const tnXmlNode* src_copy, tnKeyLayout* at) {
  for (int i = 0; i < node->nchild; i++) {
    const tnXmlNode* c = node->child[i];
    const tnXmlNode* cc = c == src ? src_copy : copy ? copy->child[i] : NULL;
    if (strcmp(c->name, "frame") == 0) {
      TN_OK(layout_children(a, c, cc, src, src_copy, at));
    } else if (strcmp(c->name, "body") == 0) {
      TN_OK(layout_body(a, c, cc, at));
      TN_OK(layout_children(a, c, cc, src, src_copy, at));
    }
  }
  return 1;
}

/* a body's mocap index and joints */
static int layout_body(tnAttach* a, const tnXmlNode* body, const tnXmlNode* copy,
                       tnKeyLayout* at) {
  const char* mocap = tn__xmlAttr(body, "mocap");
  if (mocap && strcmp(mocap, "true") == 0) {
    if (copy && (!add_seg(a, TN_KEY_MPOS, copy, 3 * at->mocap, 3) ||
                 !add_seg(a, TN_KEY_MQUAT, copy, 4 * at->mocap, 4))) {
      return 0;
    }
    at->mocap++;
  }
  return layout_joints(a, body, copy, at);
}

/* the child's keyframes into this model's keyframe section, with their value runs */
static int attach_keys(tnAttach* a, tnXmlDoc* child, tnXmlNode* world, const tnXmlNode* src,
                       const tnXmlNode* src_copy, tnXmlNode* here) {
  tnReader* r = a->r;
  int seg_adr = r->spec->keysegs.n;
  tnKeyLayout at = {0, 0, 0};

  // runs: joints and mocap bodies in the child's model order, then its actuators
  int whole = src == world;
  if (world && !(whole ? layout_children(a, world, src_copy, NULL, NULL, &at)
                       : layout_children(a, world, NULL, src, src_copy, &at))) {
    return tn__rdFail(r, child->root, NULL, "out of memory") + 1;
  }
  for (int k = 0; k < a->nact; k++) {
    if (a->act_copy[k] && !add_seg(a, TN_KEY_CTRL, a->act_copy[k], k, 1)) {
      return tn__rdFail(r, child->root, NULL, "out of memory") + 1;
    }
  }
  int nseg = r->spec->keysegs.n - seg_adr;

  // each key, prefixed, after this model's own keys
  for (int i = 0; i < child->root->nchild; i++) {
    tnXmlNode* sec = child->root->child[i];
    if (strcmp(sec->name, "keyframe") != 0) {
      continue;
    }
    for (int k = 0; k < sec->nchild; k++) {
      tnXmlNode* copy = copy_prefixed(a, sec->child[k], NULL);
      tnXmlNode* dst = copy ? own_section(a, doc_root(here), "keyframe") : NULL;
      tnSpecKeyMap* map = dst ? tn__vecPush(&r->spec->keymaps, sizeof(tnSpecKeyMap)) : NULL;
      if (!map || !append(a, dst, copy)) {
        return tn__rdFail(r, sec->child[k], NULL, "out of memory") + 1;
      }
      *map = (tnSpecKeyMap){&copy->pos, seg_adr, nseg};
    }
  }
  return 1;
}

/* the class the attached body inherits in the child: nearest childclass above it (the
 * worldbody inherits the child's main class) */
static const char* inherited_class(tnAttach* a, const tnXmlNode* body) {
  for (const tnXmlNode* p = strcmp(body->name, "body") == 0 ? body->parent : NULL; p;
       p = p->parent) {
    const char* cc = tn__xmlAttr(p, "childclass");
    if (cc) {
      return prefixed(a, cc);
    }
  }
  return prefixed(a, "main");
}

/* <attach model body prefix> inside body b, within `frame` */
int tn__readAttach(tnReader* r, tnXmlNode* node, int b, const tnFrame* frame) {
  const char* model = tn__rdStr(node, "model");
  const char* body = tn__rdStr(node, "body");
  const char* prefix = tn__rdStr(node, "prefix");
  if (!model) {
    return tn__rdFail(r, node, "model", "required attribute missing") + 1;
  }
  tnSpecModel* m = NULL;
  for (int i = 0; i < r->spec->models.n; i++) {
    tnSpecModel* mi = TN_AT(r->spec->models, tnSpecModel, i);
    if (strcmp(mi->name, model) == 0) {
      m = mi;
    }
  }
  if (!m) {
    tn__xmlError(r->err, r->errsz, node, "model", "unknown model asset '%s'", model);
    return 0;
  }

  // the child's compiler settings (angles are converted when they differ); keyframe
  // activations are not implemented yet
  tnXmlDoc* child = m->doc;
  tnCompilerSettings cs;
  TN_OK(child_compiler(r, child, &cs));
  int convert = cs.degree != r->spec->compiler.degree ||
                memcmp(cs.eulerseq, r->spec->compiler.eulerseq, sizeof(cs.eulerseq)) != 0;
  for (int i = 0; i < child->root->nchild; i++) {
    tnXmlNode* sec = child->root->child[i];
    for (int k = 0; strcmp(sec->name, "keyframe") == 0 && k < sec->nchild; k++) {
      if (tn__xmlAttr(sec->child[k], "act")) {
        return tn__rdFail(r, node, "model",
                          "activations in an attached model's keyframes are not implemented yet") +
               1;
      }
    }
  }

  // the child's replicates, expanded once; then the body (none: the whole worldbody)
  tnXmlNode* world = child_named(child->root, "worldbody");
  if (world && !m->expanded) {
    TN_OK(tn__xmlExpandReplicates(r, world));
    m->expanded = 1;
  }
  tnXmlNode* src = world && body ? find_body(world, body) : world;
  if (!src) {
    tn__xmlError(r->err, r->errsz, node, "body", "no body '%s' in model '%s'", body ? body : "",
                 model);
    return 0;
  }

  // defaults and assets, then the body, then the elements that refer to it
  tnAttach a = {r, &r->doc->pool, prefix ? prefix : "", NULL, 0, 0, NULL, 0, convert ? &cs : NULL};
  TN_OK(attach_defaults(&a, child));
  TN_OK(attach_assets(&a, child, &cs));
  tnXmlNode* copy = copy_prefixed(&a, src, node->parent);
  const char* cls_name = inherited_class(&a, src);
  if (!copy || !cls_name || !collect(&a, copy)) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  int cls = tn__findClass(r->spec, cls_name);
  if (cls < 0) {
    tn__xmlError(r->err, r->errsz, src, "childclass", "unknown default class '%s'", cls_name);
    return 0;
  }
  if (convert) {
    TN_OK(convert_angles(&a, copy, cls_name));
  }
  if (body) {
    TN_OK(tn__readBodySubtree(r, copy, b, cls, frame));
  } else {
    TN_OK(tn__readBodyChildren(r, copy, b, cls, frame));
  }
  TN_OK(tn__xmlCheckUsed(copy, r->err, r->errsz));
  TN_OK(attach_sections(&a, child, node));
  return attach_keys(&a, child, world, src, copy, node);
}
