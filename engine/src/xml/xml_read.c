/* xml/xml_read.c — reading MJCF text into a tnXmlNode tree: files, mxml, lines, includes.
 *
 * mxml 3.3 parses the text but keeps no line numbers, so we scan the raw text for start
 * tags (skipping comments, CDATA, declarations and processing instructions) in document
 * order: the k-th element of mxml's depth-first walk is the k-th start tag. mxml's own parse
 * errors arrive through its error callback, which we collect in a thread-local buffer so
 * concurrent loads stay independent. <include file="..."/> elements are replaced by the
 * children of the included file's root element (<mujocoinclude> or <mujoco>); the file is
 * looked up in the main model's directory, then beside the including file; a file may be
 * included only once. Every file is read through the load's tnFiles (VFS first, then the
 * disk where the load may read). */
#include <mxml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file_source.h"
#include "xml/xml_tree.h"

/* largest accepted file (bytes) and include depth */
#define TN_XML_MAXFILE (256L << 20)
#define TN_XML_MAXINCLUDE 64
#define TN_XML_MAXDEPTH 1000

/* the last mxml error of this thread */
static _Thread_local char mxml_error_text[512];

/* mxml error callback: remember the message */
static void on_mxml_error(const char* msg) {
  if (!mxml_error_text[0]) {
    snprintf(mxml_error_text, sizeof(mxml_error_text), "%s", msg ? msg : "parse error");
  }
}

/* state shared while building one document */
typedef struct tnReadCtx_ {
  tnXmlDoc* doc;
  char* err;
  int errsz;
  const char* dir;                         /* include directory, NULL: includes disabled */
  tnFiles* files;                          /* where files may be read (NULL: anywhere) */
  const char* included[TN_XML_MAXINCLUDE]; /* every file included so far */
  int nincluded;
} tnReadCtx;

/* write an error message (first one wins) */
static void read_error(tnReadCtx* ctx, const char* file, int line, const char* msg,
                       const char* arg) {
  if (!ctx->err || ctx->errsz <= 0) {
    return;
  }
  if (line > 0) {
    snprintf(ctx->err, (size_t)ctx->errsz, "%s:%d: %s%s", file, line, msg, arg ? arg : "");
  } else {
    snprintf(ctx->err, (size_t)ctx->errsz, "%s: %s%s", file, msg, arg ? arg : "");
  }
}

/* ---------------------------------------------------------------------------------------
 * raw text: reading and scanning for start-tag lines
 * ------------------------------------------------------------------------------------- */

/* read a whole MJCF file (VFS first, under the load's rules) into a malloc'ed,
 * NUL-terminated buffer (NULL with the reason in why, of at most whysz bytes) */
static char* read_file(tnFiles* files, const char* path, char* why, int whysz) {
  unsigned char* data = NULL;
  size_t size = 0;
  if (!tn__filesRead(files, path, TN_XML_MAXFILE, &data, &size, why, whysz)) {
    return NULL;
  }
  if (strlen((char*)data) != size) {
    free(data);
    snprintf(why, (size_t)whysz, "file contains NUL bytes (not an XML text file)");
    return NULL;
  }
  return (char*)data;
}

/* advance p past the terminator `end`, counting newlines; NULL if not found */
static const char* skip_past(const char* p, const char* end, int* line) {
  size_t n = strlen(end);
  while (*p) {
    if (strncmp(p, end, n) == 0) {
      return p + n;
    }
    if (*p == '\n') {
      (*line)++;
    }
    p++;
  }
  return NULL;
}

/* advance p past the '>' closing a tag, honoring quoted attribute values */
static const char* skip_tag(const char* p, int* line) {
  char quote = 0;
  while (*p) {
    if (*p == '\n') {
      (*line)++;
    }
    if (quote) {
      if (*p == quote) {
        quote = 0;
      }
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '>') {
      return p + 1;
    }
    p++;
  }
  return NULL;
}

/* true for characters that may start an element name */
static int is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
         (unsigned char)c >= 0x80;
}

/* lines of all start tags in document order; returns the count (-1 on OOM) */
static int scan_start_lines(const char* text, int** lines_out) {
  int cap = 256, n = 0, line = 1;
  int* lines = malloc(sizeof(int) * (size_t)cap);
  if (!lines) {
    return -1;
  }
  const char* p = text;
  while (p && *p) {
    // count lines in text content
    if (*p != '<') {
      if (*p == '\n') {
        line++;
      }
      p++;
      continue;
    }

    // comments, CDATA, declarations and processing instructions
    if (strncmp(p, "<!--", 4) == 0) {
      p = skip_past(p + 4, "-->", &line);
    } else if (strncmp(p, "<![CDATA[", 9) == 0) {
      p = skip_past(p + 9, "]]>", &line);
    } else if (p[1] == '?') {
      p = skip_past(p + 2, "?>", &line);
    } else if (p[1] == '!' || p[1] == '/') {
      p = skip_tag(p + 1, &line);
    } else if (is_name_start(p[1])) {
      // a start tag: record its line
      if (n == cap) {
        cap *= 2;
        int* grown = realloc(lines, sizeof(int) * (size_t)cap);
        if (!grown) {
          free(lines);
          return -1;
        }
        lines = grown;
      }
      lines[n++] = line;
      p = skip_tag(p + 1, &line);
    } else {
      p++;
    }
  }
  *lines_out = lines;
  return n;
}

/* ---------------------------------------------------------------------------------------
 * mxml tree -> tnXmlNode tree
 * ------------------------------------------------------------------------------------- */

/* true for mxml "elements" that are really comments, declarations or PIs */
static int is_pseudo(mxml_node_t* node) {
  const char* name = mxmlGetElement(node);
  return !name || name[0] == '!' || name[0] == '?';
}

/* one parsed text with its line table */
typedef struct tnParsed_ {
  mxml_node_t* top; /* our own container holding everything parsed */
  int* lines;
  int nlines;
  int next; /* index of the next start tag to assign */
  const char* file;
} tnParsed;

/* line of the next real element in document order */
static int take_line(tnParsed* ps) {
  int k = ps->next++;
  return k < ps->nlines ? ps->lines[k] : 0;
}

static int convert_children(tnReadCtx* ctx, tnParsed* ps, mxml_node_t* src, tnXmlNode* dst,
                            int depth);

/* resolve a path against the include directory */
static char* include_path(tnReadCtx* ctx, const char* file) {
  size_t n = strlen(ctx->dir) + strlen(file) + 2;
  char* path = tn__poolAlloc(&ctx->doc->pool, n);
  if (!path) {
    return NULL;
  }
  if (file[0] == '/' || !ctx->dir[0]) {
    snprintf(path, n, "%s", file);
  } else {
    snprintf(path, n, "%s/%s", ctx->dir, file);
  }
  return path;
}

/* the same file name against the directory of the including file (NULL when that is the
 * include directory itself, or the name is absolute) */
static char* include_path_local(tnReadCtx* ctx, const char* includer, const char* file) {
  const char* slash = strrchr(includer, '/');
  if (file[0] == '/' || !slash) {
    return NULL;
  }
  size_t dirlen = (size_t)(slash - includer);
  if (strlen(ctx->dir) == dirlen && strncmp(ctx->dir, includer, dirlen) == 0) {
    return NULL;
  }
  size_t n = dirlen + strlen(file) + 2;
  char* path = tn__poolAlloc(&ctx->doc->pool, n);
  if (path) {
    snprintf(path, n, "%.*s/%s", (int)dirlen, includer, file);
  }
  return path;
}

/* the canonical form of a path (realpath when the file is read from disk and exists), in
 * the pool; VFS names and refused paths stay as written */
static const char* canonical_path(tnReadCtx* ctx, const char* path) {
  char* real = tn__filesOnDisk(ctx->files, path) ? realpath(path, NULL) : NULL;
  const char* res = real ? tn__poolStrdup(&ctx->doc->pool, real) : NULL;
  free(real);
  return res ? res : path;
}

/* append a node to dst's children (grown in the pool) */
static int add_child(tnReadCtx* ctx, tnXmlNode* dst, tnXmlNode* child, int* cap) {
  if (dst->nchild == *cap) {
    int ncap = *cap ? 2 * *cap : 8;
    tnXmlNode** grown = tn__poolAlloc(&ctx->doc->pool, sizeof(tnXmlNode*) * (size_t)ncap);
    if (!grown) {
      return 0;
    }
    if (dst->nchild) {
      memcpy(grown, dst->child, sizeof(tnXmlNode*) * (size_t)dst->nchild);
    }
    dst->child = grown;
    *cap = ncap;
  }
  child->parent = dst;
  dst->child[dst->nchild++] = child;
  return 1;
}

/* copy one mxml element (name, attributes, position) into a new node */
static tnXmlNode* copy_element(tnReadCtx* ctx, tnParsed* ps, mxml_node_t* src, int line) {
  tnPool* pool = &ctx->doc->pool;
  tnXmlNode* node = tn__poolAlloc(pool, sizeof(tnXmlNode));
  if (!node) {
    return NULL;
  }
  node->name = tn__poolStrdup(pool, mxmlGetElement(src));
  node->pos.element = node->name;
  node->pos.file = ps->file;
  node->pos.line = line;

  // attributes, in document order
  int na = mxmlElementGetAttrCount(src);
  node->attr = tn__poolAlloc(pool, sizeof(tnXmlAttr) * (size_t)(na > 0 ? na : 1));
  if (!node->name || !node->attr) {
    return NULL;
  }
  for (int i = 0; i < na; i++) {
    const char* name = NULL;
    const char* value = mxmlElementGetAttrByIndex(src, i, &name);
    node->attr[i].name = tn__poolStrdup(pool, name ? name : "");
    node->attr[i].value = tn__poolStrdup(pool, value ? value : "");
    if (!node->attr[i].name || !node->attr[i].value) {
      return NULL;
    }
  }
  node->nattr = na;
  return node;
}

static tnParsed* parse_text(tnReadCtx* ctx, const char* text, const char* file);
static void free_parsed(tnParsed* ps);
static mxml_node_t* find_root(tnReadCtx* ctx, tnParsed* ps, int main_file);

/* splice the children of an included file's <mujoco> root into dst */
static int do_include(tnReadCtx* ctx, tnParsed* ps, tnXmlNode* inc, tnXmlNode* dst, int* cap,
                      int depth) {
  // validate the include element
  const char* file = tn__xmlAttr(inc, "file");
  if (!file || !file[0]) {
    read_error(ctx, inc->pos.file, inc->pos.line, "element 'include': missing attribute 'file'",
               NULL);
    return 0;
  }
  for (int i = 0; i < inc->nattr; i++) {
    if (strcmp(inc->attr[i].name, "file") != 0) {
      read_error(ctx, inc->pos.file, inc->pos.line, "element 'include': unknown attribute ",
                 inc->attr[i].name);
      return 0;
    }
  }
  if (!ctx->dir) {
    read_error(ctx, inc->pos.file, inc->pos.line,
               "element 'include': includes need a directory (none given for this text): ", file);
    return 0;
  }
  // MuJoCo looks for the file in the main model's directory first, then in the directory
  // of the file that holds the include
  char* path = include_path(ctx, file);
  if (!path) {
    read_error(ctx, inc->pos.file, inc->pos.line, "out of memory", NULL);
    return 0;
  }
  if (!tn__filesHas(ctx->files, path)) {
    char* local = include_path_local(ctx, inc->pos.file, file);
    if (local && tn__filesHas(ctx->files, local)) {
      path = local;
    }
  }

  // each file may be included once (this also stops cycles); compare canonical paths
  const char* canon = canonical_path(ctx, path);
  for (int i = 0; i < ctx->nincluded; i++) {
    if (strcmp(ctx->included[i], canon) == 0) {
      read_error(ctx, inc->pos.file, inc->pos.line,
                 "element 'include': attribute 'file': file already included: ", file);
      return 0;
    }
  }
  if (ctx->nincluded == TN_XML_MAXINCLUDE) {
    read_error(ctx, inc->pos.file, inc->pos.line, "element 'include': too many included files",
               NULL);
    return 0;
  }
  ctx->included[ctx->nincluded++] = canon;

  // read and parse the included file
  char why[200];
  char* text = read_file(ctx->files, path, why, sizeof(why));
  if (!text) {
    char msg[256];
    snprintf(msg, sizeof(msg), "element 'include': attribute 'file': %s: ", why);
    read_error(ctx, inc->pos.file, inc->pos.line, msg, path);
    return 0;
  }
  tnParsed* sub = parse_text(ctx, text, path);
  free(text);
  if (!sub) {
    return 0;
  }
  mxml_node_t* root = find_root(ctx, sub, 0);
  int ok = root != NULL;

  // its root's children become dst's children
  if (ok) {
    take_line(sub);
    tnXmlNode holder = {0};
    holder.name = "mujoco";
    holder.pos.element = holder.name;
    holder.pos.file = sub->file;
    ok = convert_children(ctx, sub, root, &holder, depth + 1);
    for (int i = 0; ok && i < holder.nchild; i++) {
      ok = add_child(ctx, dst, holder.child[i], cap);
    }
  }
  free_parsed(sub);
  (void)ps;
  return ok;
}

/* copy the element children of src under dst, resolving includes */
static int convert_children(tnReadCtx* ctx, tnParsed* ps, mxml_node_t* src, tnXmlNode* dst,
                            int depth) {
  if (depth > TN_XML_MAXDEPTH) {
    read_error(ctx, dst->pos.file, dst->pos.line, "elements nested too deeply", NULL);
    return 0;
  }
  int cap = dst->nchild;
  for (mxml_node_t* c = mxmlGetFirstChild(src); c; c = mxmlGetNextSibling(c)) {
    if (mxmlGetType(c) != MXML_ELEMENT) {
      continue;
    }

    // comments and declarations may contain (pseudo) children: look through them
    if (is_pseudo(c)) {
      if (!convert_children(ctx, ps, c, dst, depth + 1)) {
        return 0;
      }
      cap = dst->nchild;
      continue;
    }

    // a real element
    tnXmlNode* node = copy_element(ctx, ps, c, take_line(ps));
    if (!node) {
      read_error(ctx, ps->file, 0, "out of memory", NULL);
      return 0;
    }
    node->parent = dst;
    if (!convert_children(ctx, ps, c, node, depth + 1)) {
      return 0;
    }

    // includes splice; everything else is appended
    if (strcmp(node->name, "include") == 0) {
      if (node->nchild) {
        read_error(ctx, node->pos.file, node->pos.line, "element 'include': must be empty", NULL);
        return 0;
      }
      if (!do_include(ctx, ps, node, dst, &cap, depth)) {
        return 0;
      }
    } else if (!add_child(ctx, dst, node, &cap)) {
      read_error(ctx, ps->file, 0, "out of memory", NULL);
      return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * parsing one text
 * ------------------------------------------------------------------------------------- */

/* parse text with mxml and scan its lines */
static tnParsed* parse_text(tnReadCtx* ctx, const char* text, const char* file) {
  tnParsed* ps = calloc(1, sizeof(tnParsed));
  if (!ps) {
    read_error(ctx, file, 0, "out of memory", NULL);
    return NULL;
  }
  ps->file = file;
  ps->nlines = scan_start_lines(text, &ps->lines);
  if (ps->nlines < 0) {
    free(ps);
    read_error(ctx, file, 0, "out of memory", NULL);
    return NULL;
  }

  // parse under our own container so declarations and comments stay inside it
  mxml_error_text[0] = 0;
  mxmlSetErrorCallback(on_mxml_error);
  ps->top = mxmlNewElement(MXML_NO_PARENT, "torsion-document");
  mxml_node_t* res = ps->top ? mxmlLoadString(ps->top, text, MXML_OPAQUE_CALLBACK) : NULL;
  if (!res || mxml_error_text[0]) {
    // mxml ends its messages with " on line N.": move the line to the prefix
    int line = 0;
    const char* at = strstr(mxml_error_text, " on line ");
    if (at && sscanf(at, " on line %d", &line) == 1) {
      mxml_error_text[at - mxml_error_text] = 0;
    }
    read_error(ctx, file, line,
               "XML parse error: ", mxml_error_text[0] ? mxml_error_text : "malformed document");
    free_parsed(ps);
    return NULL;
  }
  return ps;
}

/* release mxml's tree and the line table */
static void free_parsed(tnParsed* ps) {
  if (ps) {
    if (ps->top) {
      mxmlDelete(ps->top);
    }
    free(ps->lines);
    free(ps);
  }
}

/* collect the real elements at document level (looking through declarations) */
static void top_elements(mxml_node_t* src, mxml_node_t** found, int* n) {
  for (mxml_node_t* c = mxmlGetFirstChild(src); c; c = mxmlGetNextSibling(c)) {
    if (mxmlGetType(c) != MXML_ELEMENT) {
      continue;
    }
    if (is_pseudo(c)) {
      top_elements(c, found, n);
    } else {
      if (*n == 0) {
        *found = c;
      }
      (*n)++;
    }
  }
}

/* the single root of a parsed text: <mujoco> for the main file; an included file's root
 * (by convention <mujocoinclude>) only holds the elements spliced in, so any name is taken */
static mxml_node_t* find_root(tnReadCtx* ctx, tnParsed* ps, int main_file) {
  mxml_node_t* root = NULL;
  int n = 0;
  top_elements(ps->top, &root, &n);
  if (n == 0) {
    read_error(ctx, ps->file, 0, "no XML element found (empty or not an MJCF file)", NULL);
    return NULL;
  }
  if (n > 1) {
    read_error(ctx, ps->file, 0, "more than one top-level element", NULL);
    return NULL;
  }
  if (main_file && strcmp(mxmlGetElement(root), "mujoco") != 0) {
    read_error(ctx, ps->file, ps->nlines ? ps->lines[0] : 0,
               "top-level element must be 'mujoco', got: ", mxmlGetElement(root));
    return NULL;
  }
  return root;
}

/* build the document from one parsed main text */
static tnXmlDoc* build_doc(tnReadCtx* ctx, const char* text, const char* file) {
  tnParsed* ps = parse_text(ctx, text, file);
  if (!ps) {
    return NULL;
  }
  mxml_node_t* root = find_root(ctx, ps, 1);
  tnXmlNode* node = root ? copy_element(ctx, ps, root, take_line(ps)) : NULL;
  int ok = node && convert_children(ctx, ps, root, node, 1);
  if (root && !node) {
    read_error(ctx, file, 0, "out of memory", NULL);
  }
  free_parsed(ps);
  if (!ok) {
    return NULL;
  }
  ctx->doc->root = node;
  return ctx->doc;
}

/* a fresh document with its pool */
static tnXmlDoc* new_doc(void) {
  tnXmlDoc* doc = calloc(1, sizeof(tnXmlDoc));
  return doc;
}

/* ---------------------------------------------------------------------------------------
 * public entry points
 * ------------------------------------------------------------------------------------- */

/* parse a file */
tnXmlDoc* tn__xmlLoadFile(const char* path, tnFiles* files, char* err, int errsz) {
  tnReadCtx ctx = {0};
  ctx.files = files;
  ctx.err = err;
  ctx.errsz = errsz;
  ctx.doc = new_doc();
  if (!ctx.doc) {
    read_error(&ctx, path, 0, "out of memory", NULL);
    return NULL;
  }

  // the directory of the main file
  char* file = tn__poolStrdup(&ctx.doc->pool, path);
  char* dir = tn__poolStrdup(&ctx.doc->pool, path);
  if (!file || !dir) {
    tn__xmlFree(ctx.doc);
    read_error(&ctx, path, 0, "out of memory", NULL);
    return NULL;
  }
  char* slash = strrchr(dir, '/');
  if (slash) {
    slash[slash == dir ? 1 : 0] = 0;
  } else {
    dir[0] = 0;
  }
  ctx.dir = dir;
  ctx.doc->dir = dir;
  ctx.doc->files = files;
  ctx.included[ctx.nincluded++] = canonical_path(&ctx, file);

  // read and build
  char why[200];
  char* text = read_file(files, path, why, sizeof(why));
  if (!text) {
    read_error(&ctx, path, 0, why, NULL);
    tn__xmlFree(ctx.doc);
    return NULL;
  }
  tnXmlDoc* doc = build_doc(&ctx, text, file);
  free(text);
  if (!doc) {
    tn__xmlFree(ctx.doc);
  }
  return doc;
}

/* parse text held in memory */
tnXmlDoc* tn__xmlLoadString(const char* text, const char* dir, const char* label, tnFiles* files,
                            char* err, int errsz) {
  tnReadCtx ctx = {0};
  ctx.files = files;
  ctx.err = err;
  ctx.errsz = errsz;
  ctx.doc = new_doc();
  const char* name = label ? label : "<string>";
  if (!ctx.doc || !text) {
    read_error(&ctx, name, 0, ctx.doc ? "no XML text given" : "out of memory", NULL);
    tn__xmlFree(ctx.doc);
    return NULL;
  }
  ctx.dir = dir ? tn__poolStrdup(&ctx.doc->pool, dir) : NULL;
  ctx.doc->dir = ctx.dir ? ctx.dir : "";
  ctx.doc->files = files;
  char* file = tn__poolStrdup(&ctx.doc->pool, name);
  if (!file || (dir && !ctx.dir)) {
    read_error(&ctx, name, 0, "out of memory", NULL);
    tn__xmlFree(ctx.doc);
    return NULL;
  }
  tnXmlDoc* doc = build_doc(&ctx, text, file);
  if (!doc) {
    tn__xmlFree(ctx.doc);
  }
  return doc;
}

/* free a document */
void tn__xmlFree(tnXmlDoc* doc) {
  if (doc) {
    tn__poolFree(&doc->pool);
    free(doc);
  }
}

/* value of an attribute, or NULL when absent */
const char* tn__xmlAttr(const tnXmlNode* node, const char* name) {
  for (int i = 0; i < node->nattr; i++) {
    if (strcmp(node->attr[i].name, name) == 0) {
      return node->attr[i].value;
    }
  }
  return NULL;
}
