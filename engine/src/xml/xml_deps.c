/* xml/xml_deps.c — the files an MJCF file depends on, as MuJoCo's mju_getXMLDependencies
 * lists them: the file itself, every <include> and <model> file with their own
 * dependencies (each resolved against its own directory and read with its own <compiler>
 * settings), <texture> files under texturedir (else assetdir), <mesh>, <skin> and
 * <flexcomp> files under meshdir (else assetdir) and <hfield> files under assetdir, all
 * relative to the file's directory unless absolute. Paths are joined and normalized as
 * MuJoCo's file paths are: "." segments dropped, ".." removing the segment before it
 * (repeated separators are kept). Files are parsed one at a time with mxml, without
 * splicing includes; nothing but the XML files is read.
 *
 * Order: the file, the dependencies of its include and model files (by file name), then
 * texture, mesh and hfield files (each group by name), each path once. MuJoCo returns the
 * same set in the order of a hash set, which no caller can rely on. */
#include <mxml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml/xml_reader.h"

/* longest path handled */
#define TN_DEP_PATH 4096

/* deepest nesting of include and model files */
#define TN_DEP_DEPTH 64

/* a sorted set of attribute values of one kind */
typedef struct tnDepSet_ {
  char** item;
  int n, cap;
} tnDepSet;

/* state of one walk */
typedef struct tnDepWalk_ {
  void (*add)(void* ctx, const char* path);
  void* ctx;
  char* err;
  int errsz;
} tnDepWalk;

/* mxml reports parse errors through a callback; the walk reports its own message */
static void quiet_mxml(const char* msg) {
  (void)msg;
}

/* insert a copy of text into a set kept in strcmp order (no duplicates); 0 on OOM */
static int set_insert(tnDepSet* s, const char* text) {
  int lo = 0, hi = s->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = strcmp(s->item[mid], text);
    if (c == 0) {
      return 1;
    }
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 16;
    char** grown = realloc(s->item, sizeof(char*) * (size_t)cap);
    if (!grown) {
      return 0;
    }
    s->item = grown;
    s->cap = cap;
  }
  char* copy = strdup(text);
  if (!copy) {
    return 0;
  }
  memmove(s->item + lo + 1, s->item + lo, sizeof(char*) * (size_t)(s->n - lo));
  s->item[lo] = copy;
  s->n++;
  return 1;
}

/* free a set */
static void set_free(tnDepSet* s) {
  for (int i = 0; i < s->n; i++) {
    free(s->item[i]);
  }
  free(s->item);
}

/* normalize a path in place: "." segments dropped, ".." removes the segment before it
 * (unless there is none or it is ".." itself); empty segments are kept */
static void normalize(char* path) {
  char* seg[TN_DEP_PATH / 2 + 1];
  int nseg = 0, absolute = path[0] == '/';
  char* p = path + absolute;
  char copy[TN_DEP_PATH];
  snprintf(copy, sizeof(copy), "%s", p);
  for (char* tok = copy;;) {
    char* slash = strchr(tok, '/');
    if (slash) {
      *slash = 0;
    }
    if (strcmp(tok, ".") == 0) {
      // dropped
    } else if (strcmp(tok, "..") == 0 && nseg > 0 && strcmp(seg[nseg - 1], "..") != 0) {
      nseg--;
    } else {
      seg[nseg++] = tok;
    }
    if (!slash) {
      break;
    }
    tok = slash + 1;
  }
  char out[TN_DEP_PATH];
  size_t n = 0;
  out[0] = 0;
  if (absolute) {
    out[n++] = '/';
    out[n] = 0;
  }
  for (int i = 0; i < nseg; i++) {
    int w = snprintf(out + n, sizeof(out) - n, "%s%s", i ? "/" : "", seg[i]);
    if (w < 0 || (size_t)w >= sizeof(out) - n) {
      break;
    }
    n += (size_t)w;
  }
  snprintf(path, TN_DEP_PATH, "%s", out);
}

/* a joined to b (b as is when absolute or a is empty), normalized, into out (cut at
 * TN_DEP_PATH - 1 characters) */
static void join(char out[TN_DEP_PATH], const char* a, const char* b) {
  int len;
  if (b[0] == '/' || !a[0]) {
    len = snprintf(out, TN_DEP_PATH, "%s", b);
  } else {
    size_t la = strlen(a);
    len = snprintf(out, TN_DEP_PATH, "%s%s%s", a, a[la - 1] == '/' ? "" : "/", b);
  }
  if (len < 0) {
    out[0] = 0;
  }
  normalize(out);
}

/* read a whole file; NULL when it cannot be read */
static char* read_text(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  char* buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = cap ? 2 * cap : 65536;
      char* grown = realloc(buf, cap);
      if (!grown) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    size_t k = fread(buf + n, 1, cap - n - 1, f);
    n += k;
    if (k == 0) {
      break;
    }
  }
  fclose(f);
  buf[n] = 0;
  return buf;
}

/* the candidate files of a group, each under its prefix, relative to dir */
static void add_group(tnDepWalk* w, const tnDepSet* files, const char* dir, const char* prefix) {
  for (int i = 0; i < files->n; i++) {
    char under[TN_DEP_PATH], full[TN_DEP_PATH];
    if (prefix) {
      join(under, prefix, files->item[i]);
    } else {
      snprintf(under, sizeof(under), "%s", files->item[i]);
    }
    if (under[0] == '/') {
      w->add(w->ctx, under);
    } else {
      join(full, dir, under);
      w->add(w->ctx, full);
    }
  }
}

static int walk_file(tnDepWalk* w, const char* filename, const char* shown, int depth);

/* the elements of one parsed file, depth first as a stack pops them */
static int walk_tree(tnDepWalk* w, mxml_node_t* root, const char* dir, int depth) {
  tnDepSet inc = {0}, tex = {0}, mesh = {0}, hf = {0};
  const char *assetdir = NULL, *meshdir = NULL, *texturedir = NULL;
  int ok = 1, nstack = 0, capstack = 64;
  mxml_node_t** stack = malloc(sizeof(*stack) * (size_t)capstack);
  if (!stack) {
    return 0;
  }
  stack[nstack++] = root;
  while (ok && nstack > 0) {
    mxml_node_t* e = stack[--nstack];
    const char* name = mxmlGetElement(e);
    const char* file = mxmlElementGetAttr(e, "file");
    if (!strcmp(name, "include") || !strcmp(name, "model")) {
      if (file) {
        ok = set_insert(&inc, file);
        continue;
      }
    } else if (!strcmp(name, "compiler")) {
      const char* v;
      if ((v = mxmlElementGetAttr(e, "assetdir")))
        assetdir = v;
      if ((v = mxmlElementGetAttr(e, "meshdir")))
        meshdir = v;
      if ((v = mxmlElementGetAttr(e, "texturedir")))
        texturedir = v;
      continue;
    } else if (!strcmp(name, "mesh") || !strcmp(name, "flexcomp") || !strcmp(name, "skin")) {
      ok = !file || set_insert(&mesh, file);
      continue;
    } else if (!strcmp(name, "hfield")) {
      ok = !file || set_insert(&hf, file);
      continue;
    } else if (!strcmp(name, "texture")) {
      static const char* const attrs[] = {"file",     "fileright", "fileup",  "fileleft",
                                          "filedown", "filefront", "fileback"};
      for (int i = 0; ok && i < 7; i++) {
        const char* v = mxmlElementGetAttr(e, attrs[i]);
        ok = !v || set_insert(&tex, v);
      }
    }

    // children, pushed in document order
    for (mxml_node_t* c = mxmlGetFirstChild(e); ok && c; c = mxmlGetNextSibling(c)) {
      if (mxmlGetType(c) != MXML_ELEMENT || mxmlGetElement(c)[0] == '!' ||
          mxmlGetElement(c)[0] == '?') {
        continue;
      }
      if (nstack == capstack) {
        capstack *= 2;
        mxml_node_t** grown = realloc(stack, sizeof(*stack) * (size_t)capstack);
        if (!grown) {
          ok = 0;
          break;
        }
        stack = grown;
      }
      stack[nstack++] = c;
    }
  }
  free(stack);

  // included and attached models first, then the asset files
  for (int i = 0; ok && i < inc.n; i++) {
    char full[TN_DEP_PATH];
    join(full, dir, inc.item[i]);
    ok = walk_file(w, full, full, depth + 1);
  }
  if (ok) {
    add_group(w, &tex, dir, texturedir ? texturedir : assetdir);
    add_group(w, &mesh, dir, meshdir ? meshdir : assetdir);
    add_group(w, &hf, dir, assetdir);
  }
  set_free(&inc);
  set_free(&tex);
  set_free(&mesh);
  set_free(&hf);
  return ok;
}

/* one XML file: itself (as `shown`), then what it references; 0 with a message */
static int walk_file(tnDepWalk* w, const char* filename, const char* shown, int depth) {
  if (depth > TN_DEP_DEPTH) {
    snprintf(w->err, (size_t)w->errsz, "Problem reading XML file '%s': includes nested too deep",
             filename);
    return 0;
  }
  char* text = read_text(filename);
  if (!text) {
    snprintf(w->err, (size_t)w->errsz, "Problem reading XML file '%s': cannot read the file",
             filename);
    return 0;
  }
  mxmlSetErrorCallback(quiet_mxml);
  mxml_node_t* top = mxmlNewElement(MXML_NO_PARENT, "tn-document");
  int parsed = top && mxmlLoadString(top, text, MXML_OPAQUE_CALLBACK) != NULL;
  free(text);
  mxml_node_t* root = NULL;
  for (mxml_node_t* c = parsed ? mxmlGetFirstChild(top) : NULL; c; c = mxmlGetNextSibling(c)) {
    const char* name = mxmlGetType(c) == MXML_ELEMENT ? mxmlGetElement(c) : NULL;
    if (name && name[0] != '!' && name[0] != '?') {
      root = c;
      break;
    }
  }
  if (!parsed) {
    snprintf(w->err, (size_t)w->errsz, "Problem reading XML file '%s': not valid XML", filename);
  } else if (!root) {
    snprintf(w->err, (size_t)w->errsz, "XML root element not found");
  }
  if (!root) {
    mxmlDelete(top);
    return 0;
  }

  // the file itself, then its references relative to its directory
  w->add(w->ctx, shown);
  char dir[TN_DEP_PATH];
  const char* slash = strrchr(filename, '/');
  snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - filename + 1) : 0, filename);
  normalize(dir);
  int ok = walk_tree(w, root, dir, depth);
  mxmlDelete(top);
  if (!ok && !w->err[0]) {
    snprintf(w->err, (size_t)w->errsz, "out of memory");
  }
  return ok;
}

/* every file filename depends on, given to add(ctx, path) (repeats possible); 0 with a
 * message in err */
int tn__xmlDependencies(const char* filename, void (*add)(void* ctx, const char* path), void* ctx,
                        char* err, int errsz) {
  tnDepWalk w = {add, ctx, err, errsz};
  err[0] = 0;
  return walk_file(&w, filename, filename, 0);
}
