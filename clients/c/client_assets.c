/* clients/c/client_assets.c — the files an MJCF model references, gathered to travel with
 * its text to torsiond (used by the torsion CLI and the benchmarks).
 *
 * The server compiles client text from memory: the text and its asset blobs go into a VFS
 * and nothing else is read, so every referenced file must be sent, named by its path
 * relative to the model's directory. The model is read with mxml and walked as the engine
 * resolves files: <include file> against the main model's directory, else the including
 * file's; <compiler meshdir/texturedir/assetdir/strippath> (the last one wins); <mesh>,
 * <hfield> and <skin> files under meshdir (else assetdir), a mesh of an included file
 * falling back to that file's directory; <texture> files under texturedir (else assetdir);
 * <model file> (attached models) against the model's directory, walked in turn with its
 * own directory and compiler settings. Names are normalized ("./" and "a/.." removed);
 * absolute paths and paths leaving the model's directory are errors, because the server
 * accepts only plain relative names. */
#include <mxml.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "torsion_client.h"

/* deepest nesting of includes and attached models */
#define CLI_MAX_DEPTH 16

/* longest asset name the server accepts */
#define CLI_MAX_NAME 255

/* texture attributes that name files */
static const char* const texture_files[] = {"file",     "fileright", "fileleft", "fileup",
                                            "filedown", "filefront", "fileback", NULL};

/* one parsed XML file of a model (the main text or an included one) */
typedef struct cliDoc_ {
  mxml_node_t* tree;
  char name[CLI_MAX_NAME + 1]; /* relative to the top model's directory; "" for the top */
} cliDoc;

/* the directories of one model (the top one or an attached one) */
typedef struct cliCompiler_ {
  char meshdir[CLI_MAX_NAME + 1], texturedir[CLI_MAX_NAME + 1], assetdir[CLI_MAX_NAME + 1];
  int has_mesh, has_texture, has_asset;
  int strippath;
} cliCompiler;

/* the state of one collection */
typedef struct cliWalk_ {
  tncAssets* out;
  const char* topdir; /* the top model's directory on disk */
  const char* model;  /* the model argument, for messages */
  char* err;
  size_t errsz;
  cliDoc* docs; /* the files of the model being walked, in document order */
  int ndoc, capdoc;
} cliWalk;

/* mxml reports parse errors through a callback; the walk reports them itself */
static void quiet_mxml(const char* msg) {
  (void)msg;
}

/* parse XML text under a node of its own, so that comments or a declaration before the root
 * element stay siblings of it; NULL when the text is not XML */
static mxml_node_t* parse_xml(const char* text) {
  mxml_node_t* top = mxmlNewElement(MXML_NO_PARENT, "cli-document");
  if (top && !mxmlLoadString(top, text, MXML_OPAQUE_CALLBACK)) {
    mxmlDelete(top);
    top = NULL;
  }
  return top;
}

/* record an error, after the model's name; returns -1 */
__attribute__((format(printf, 2, 3))) static int walk_fail(cliWalk* w, const char* fmt, ...) {
  int n = snprintf(w->err, w->errsz, "%s: ", w->model);
  if (n >= 0 && (size_t)n < w->errsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err + n, w->errsz - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* the directory part of a relative name ("" when none) */
static void dir_of(const char* name, char* dir, size_t sz) {
  const char* slash = strrchr(name, '/');
  size_t n = slash ? (size_t)(slash - name) : 0;
  snprintf(dir, sz, "%.*s", (int)n, name);
}

/* dir/file normalized into out ('.', '..' and repeated '/' removed); -1 when the result is
 * absolute, leaves the model's directory, is empty or too long */
static int normalize(const char* dir, const char* file, char* out, size_t outsz) {
  char joined[2 * CLI_MAX_NAME + 8];
  if (file[0] == '/' || (dir[0] == '/')) {
    return -1;
  }
  int len = snprintf(joined, sizeof(joined), "%s%s%s", dir, dir[0] ? "/" : "", file);
  if (len < 0 || (size_t)len >= sizeof(joined)) {
    return -1;
  }
  size_t n = 0;
  out[0] = '\0';
  for (const char* p = joined; *p;) {
    while (*p == '/') p++;
    const char* end = p;
    while (*end && *end != '/') end++;
    size_t k = (size_t)(end - p);
    if (k == 2 && p[0] == '.' && p[1] == '.') {
      if (n == 0) {
        return -1;  // above the model's directory
      }
      while (n > 0 && out[n - 1] != '/') n--;
      if (n > 0) {
        n--;
      }
      out[n] = '\0';
    } else if (k > 0 && !(k == 1 && p[0] == '.')) {
      if (n + k + 2 > outsz) {
        return -1;
      }
      if (n > 0) {
        out[n++] = '/';
      }
      memcpy(out + n, p, k);
      n += k;
      out[n] = '\0';
    }
    p = end;
  }
  return n > 0 ? 0 : -1;
}

/* is the named file (relative to the top directory) a regular file on disk */
static int exists(const cliWalk* w, const char* name) {
  char path[4096];
  struct stat st;
  snprintf(path, sizeof(path), "%s/%s", w->topdir, name);
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* index of the asset of that name, or -1 */
static int find_asset(const tncAssets* s, const char* name) {
  for (int i = 0; i < s->n; i++) {
    if (!strcmp(s->a[i].name, name)) {
      return i;
    }
  }
  return -1;
}

/* add an asset; the set takes name_copy and data (either may be NULL for caller-owned ones);
 * 0, or -1 when out of memory */
int tnc_assets_add(tncAssets* s, const char* name, const void* data, size_t len, char* name_owned,
                   char* data_owned) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    tncAsset* a = realloc(s->a, sizeof(tncAsset) * (size_t)cap);
    if (a) {
      s->a = a;
    }
    char** owned = a ? realloc(s->owned, sizeof(char*) * 2 * (size_t)cap) : NULL;
    if (!owned) {
      return -1;
    }
    s->owned = owned;
    s->cap = cap;
  }
  s->a[s->n] = (tncAsset){name, data, len};
  s->owned[2 * s->n] = name_owned;
  s->owned[2 * s->n + 1] = data_owned;
  s->n++;
  return 0;
}

/* release the set */
void tnc_assets_free(tncAssets* s) {
  for (int i = 0; i < 2 * s->n; i++) {
    free(s->owned[i]);
  }
  free(s->owned);
  free(s->a);
  memset(s, 0, sizeof(*s));
}

/* read the named file (once) into the set; its index, or -1 after recording why */
static int add_file(cliWalk* w, const char* name, const char* what, const char* where) {
  int k = find_asset(w->out, name);
  if (k >= 0) {
    return k;
  }
  char path[4096];
  size_t len = 0;
  snprintf(path, sizeof(path), "%s/%s", w->topdir, name);
  char* data = exists(w, name) ? tnc_read_file(path, &len) : NULL;
  if (!data) {
    return walk_fail(w, "cannot read %s (%s in %s)", path, what, where);
  }
  char* copy = strdup(name);
  if (!copy || tnc_assets_add(w->out, copy, data, len, copy, data)) {
    free(copy);
    free(data);
    return walk_fail(w, "out of memory reading %s", path);
  }
  return w->out->n - 1;
}

/* resolve a reference: dir/file normalized into name, or -1 after recording why */
static int resolve(cliWalk* w, const char* dir, const char* file, char* name, const char* what,
                   const char* where) {
  if (!normalize(dir, file, name, CLI_MAX_NAME + 1)) {
    return 0;
  }
  if (file[0] == '/' || dir[0] == '/') {
    return walk_fail(w,
                     "%s in %s: absolute path '%s' cannot be sent to the server (use "
                     "relative paths, or load it with --server-path)",
                     what, where, file);
  }
  return walk_fail(w,
                   "%s in %s: '%s' leaves the model's directory (or is empty or too "
                   "long); the server only accepts files under it",
                   what, where, file);
}

/* the label of a document in messages */
static const char* doc_label(const cliWalk* w, const cliDoc* d) {
  return d->name[0] ? d->name : w->model;
}

/* add a parsed document to the walk's list; its index, or -1 */
static int push_doc(cliWalk* w, mxml_node_t* tree, const char* name) {
  if (w->ndoc == w->capdoc) {
    int cap = w->capdoc ? 2 * w->capdoc : 16;
    cliDoc* d = realloc(w->docs, sizeof(cliDoc) * (size_t)cap);
    if (!d) {
      return walk_fail(w, "out of memory");
    }
    w->docs = d;
    w->capdoc = cap;
  }
  w->docs[w->ndoc].tree = tree;
  snprintf(w->docs[w->ndoc].name, sizeof(w->docs[w->ndoc].name), "%s", name);
  return w->ndoc++;
}

/* take one <compiler>'s directory settings (a later one overrides) */
static void read_compiler(mxml_node_t* e, cliCompiler* c) {
  const char* v;
  if ((v = mxmlElementGetAttr(e, "meshdir"))) {
    snprintf(c->meshdir, sizeof(c->meshdir), "%s", v);
    c->has_mesh = 1;
  }
  if ((v = mxmlElementGetAttr(e, "texturedir"))) {
    snprintf(c->texturedir, sizeof(c->texturedir), "%s", v);
    c->has_texture = 1;
  }
  if ((v = mxmlElementGetAttr(e, "assetdir"))) {
    snprintf(c->assetdir, sizeof(c->assetdir), "%s", v);
    c->has_asset = 1;
  }
  if ((v = mxmlElementGetAttr(e, "strippath"))) {
    c->strippath = !strcmp(v, "true");
  }
}

/* walk a document in order: compiler settings, and included files read, listed and walked
 * where they appear; 0 or -1 */
static int walk_includes(cliWalk* w, int doc, mxml_node_t* node, const char* maindir,
                         cliCompiler* c, int depth) {
  for (mxml_node_t* e = mxmlGetFirstChild(node); e; e = mxmlGetNextSibling(e)) {
    if (mxmlGetType(e) != MXML_ELEMENT) {
      continue;
    }
    const char* tag = mxmlGetElement(e);
    if (!strcmp(tag, "compiler")) {
      read_compiler(e, c);
    }
    if (strcmp(tag, "include") != 0) {
      if (walk_includes(w, doc, e, maindir, c, depth)) {
        return -1;
      }
      continue;
    }

    // an include: the main directory first, then the including file's
    const char* file = mxmlElementGetAttr(e, "file");
    char name[CLI_MAX_NAME + 1], local[CLI_MAX_NAME + 1], docdir[CLI_MAX_NAME + 1];
    char where[CLI_MAX_NAME + 64];
    snprintf(where, sizeof(where), "%s", doc_label(w, &w->docs[doc]));
    if (!file || !file[0]) {
      continue;  // the server names the missing attribute
    }
    if (resolve(w, maindir, file, name, "<include file>", where)) {
      return -1;
    }
    dir_of(w->docs[doc].name, docdir, sizeof(docdir));
    if (!exists(w, name) && !normalize(docdir, file, local, sizeof(local)) && exists(w, local)) {
      snprintf(name, sizeof(name), "%s", local);
    }
    int seen = 0;
    for (int i = 0; i < w->ndoc; i++) {
      seen |= !strcmp(w->docs[i].name, name);
    }
    int k = add_file(w, name, "<include file>", where);
    if (k < 0) {
      return -1;
    }
    if (seen) {
      continue;  // included twice: the server reports it
    }
    if (depth >= CLI_MAX_DEPTH) {
      return walk_fail(w, "<include file='%s'> in %s: includes nested deeper than %d", file, where,
                       CLI_MAX_DEPTH);
    }
    mxml_node_t* tree = parse_xml(w->out->a[k].data);
    if (!tree) {
      continue;  // not XML: the server reports where
    }
    int d = push_doc(w, tree, name);
    if (d < 0) {
      mxmlDelete(tree);
      return -1;
    }
    if (walk_includes(w, d, tree, maindir, c, depth + 1)) {
      return -1;
    }
  }
  return 0;
}

static int walk_model(cliWalk* w, mxml_node_t* tree, const char* name, int depth);

/* a mesh, height field or skin file (under meshdir, else assetdir) */
static int add_mesh_like(cliWalk* w, const cliDoc* doc, const char* maindir, const cliCompiler* c,
                         mxml_node_t* e, const char* file) {
  char what[64], dir[2 * CLI_MAX_NAME + 4], name[CLI_MAX_NAME + 1];
  snprintf(what, sizeof(what), "<%s file>", mxmlGetElement(e));
  const char* sub = c->has_mesh ? c->meshdir : (c->has_asset ? c->assetdir : "");
  if (sub[0] == '/') {
    return walk_fail(w, "%s in %s: absolute meshdir/assetdir '%s' cannot be sent to the server",
                     what, doc_label(w, doc), sub);
  }
  const char* slash = strrchr(file, '/');
  const char* f = c->strippath && slash ? slash + 1 : file;
  snprintf(dir, sizeof(dir), "%s%s%s", maindir, maindir[0] && sub[0] ? "/" : "", sub);
  if (resolve(w, dir, f, name, what, doc_label(w, doc))) {
    return -1;
  }

  // a mesh of an included file: that file's directory when the model's has no such file
  char docdir[CLI_MAX_NAME + 1], local[CLI_MAX_NAME + 1];
  dir_of(doc->name, docdir, sizeof(docdir));
  if (!strcmp(mxmlGetElement(e), "mesh") && doc->name[0] && strcmp(docdir, maindir) != 0 &&
      !exists(w, name) && !normalize(docdir, file, local, sizeof(local)) && exists(w, local)) {
    snprintf(name, sizeof(name), "%s", local);
  }
  return add_file(w, name, what, doc_label(w, doc)) < 0 ? -1 : 0;
}

/* the files of one element (and its children, outside <default>) of a document */
static int walk_files(cliWalk* w, const cliDoc* doc, mxml_node_t* node, const char* maindir,
                      const cliCompiler* c, int depth) {
  for (mxml_node_t* e = mxmlGetFirstChild(node); e; e = mxmlGetNextSibling(e)) {
    if (mxmlGetType(e) != MXML_ELEMENT) {
      continue;
    }
    const char* tag = mxmlGetElement(e);
    const char* file = mxmlElementGetAttr(e, "file");
    int rc = 0;
    if (!strcmp(tag, "default")) {
      continue;  // defaults name no files
    }
    if (!strcmp(tag, "mesh") || !strcmp(tag, "hfield") || !strcmp(tag, "skin")) {
      rc = file && file[0] ? add_mesh_like(w, doc, maindir, c, e, file) : 0;
    } else if (!strcmp(tag, "texture")) {
      // every face file, under texturedir (else assetdir)
      const char* sub = c->has_texture ? c->texturedir : (c->has_asset ? c->assetdir : "");
      char dir[2 * CLI_MAX_NAME + 4], name[CLI_MAX_NAME + 1], what[64];
      snprintf(dir, sizeof(dir), "%s%s%s", maindir, maindir[0] && sub[0] ? "/" : "", sub);
      for (int i = 0; !rc && texture_files[i]; i++) {
        const char* f = mxmlElementGetAttr(e, texture_files[i]);
        snprintf(what, sizeof(what), "<texture %s>", texture_files[i]);
        if (f && f[0]) {
          const char* slash = strrchr(f, '/');
          f = c->strippath && slash ? slash + 1 : f;
          rc = resolve(w, dir, f, name, what, doc_label(w, doc)) ||
                       add_file(w, name, what, doc_label(w, doc)) < 0
                   ? -1
                   : 0;
        }
      }
    } else if (!strcmp(tag, "model") && file && file[0]) {
      // an attached model: walked with its own directory and compiler
      char name[CLI_MAX_NAME + 1];
      int seen;
      if (resolve(w, maindir, file, name, "<model file>", doc_label(w, doc))) {
        return -1;
      }
      seen = find_asset(w->out, name) >= 0;
      int k = add_file(w, name, "<model file>", doc_label(w, doc));
      if (k < 0) {
        return -1;
      }
      if (!seen) {
        if (depth >= CLI_MAX_DEPTH) {
          return walk_fail(w, "<model file='%s'> in %s: models nested deeper than %d", file,
                           doc_label(w, doc), CLI_MAX_DEPTH);
        }
        mxml_node_t* tree = parse_xml(w->out->a[k].data);
        rc = tree ? walk_model(w, tree, name, depth + 1) : 0;
      }
    } else {
      rc = walk_files(w, doc, e, maindir, c, depth);
    }
    if (rc) {
      return -1;
    }
  }
  return 0;
}

/* one model (the top one, name "", or an attached one): its includes and compiler settings
 * in document order, then the files of every element; takes the tree; 0 or -1 */
static int walk_model(cliWalk* w, mxml_node_t* tree, const char* name, int depth) {
  cliDoc* saved = w->docs;
  int nsaved = w->ndoc, capsaved = w->capdoc;
  w->docs = NULL;
  w->ndoc = w->capdoc = 0;
  char maindir[CLI_MAX_NAME + 1];
  dir_of(name, maindir, sizeof(maindir));
  cliCompiler c;
  memset(&c, 0, sizeof(c));
  int rc = push_doc(w, tree, name) < 0 ? -1 : 0;
  if (rc) {
    mxmlDelete(tree);
  }
  if (!rc) {
    rc = walk_includes(w, 0, tree, maindir, &c, depth);
  }
  for (int i = 0; !rc && i < w->ndoc; i++) {
    rc = walk_files(w, &w->docs[i], w->docs[i].tree, maindir, &c, depth);
  }
  for (int i = 0; i < w->ndoc; i++) {
    mxmlDelete(w->docs[i].tree);
  }
  free(w->docs);
  w->docs = saved;
  w->ndoc = nsaved;
  w->capdoc = capsaved;
  return rc;
}

/* gather the files the model at path (whose text is xml) references */
int tnc_assets_collect(const char* path, const char* xml, tncAssets* out, char* err, size_t errsz) {
  char topdir[4096];
  dir_of(path, topdir, sizeof(topdir));
  if (!topdir[0]) {
    snprintf(topdir, sizeof(topdir), path[0] == '/' ? "/" : ".");
  }
  cliWalk w = {out, topdir, path, err, errsz, NULL, 0, 0};
  mxmlSetErrorCallback(quiet_mxml);
  mxml_node_t* tree = parse_xml(xml);
  if (!tree) {
    return 0;  // not XML: sent as is, the server reports where
  }
  return walk_model(&w, tree, "", 0);
}
