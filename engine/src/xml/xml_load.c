/* xml/xml_load.c — the loaders: mj_loadXML's model (tn__loadXMLModel), tn_loadXMLWith and
 * tn_loadXMLString.
 *
 * Parse (xml_read.c), validate against the schema (xml_schema.c), read the sections into a
 * spec in MuJoCo's section order (settings and default classes before the objects that use
 * them), check that every attribute was consumed, then compile (src/compiler). */
#include <stdio.h>
#include <string.h>

#include "xml/xml_reader.h"
#include "xml/xml_schema.h"

/* one section reader */
typedef int (*tnSectionFn)(tnReader*, tnXmlNode*);

/* section names in reading order, with their readers (NULL: read by a special case below) */
static const struct {
  const char* name;
  tnSectionFn fn;
} sections[] = {
    {"compiler", tn__readCompiler},
    {"option", tn__readOption},
    {"size", tn__readSize},
    {"statistic", tn__readStatistic},
    {"visual", tn__readVisual},
    {"default", NULL},
    {"extension", tn__readExtension},
    {"custom", tn__readCustom},
    {"asset", tn__readAsset},
    {"deformable", tn__readDeformable},
    {"worldbody", tn__readWorldbody},
    {"contact", tn__readContact},
    {"equality", tn__readEquality},
    {"tendon", tn__readTendon},
    {"actuator", tn__readActuator},
    {"sensor", tn__readSensor},
    {"keyframe", tn__readKeyframe},
};

/* read every top-level section of the document into the spec */
static int read_sections(tnReader* r, tnXmlNode* root) {
  TN_TRY(tn__rdName(r, root, "model", &r->spec->modelname));
  for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
    for (int i = 0; i < root->nchild; i++) {
      tnXmlNode* c = root->child[i];
      if (strcmp(c->name, sections[s].name) != 0) {
        continue;
      }
      int ok = 1;
      if (strcmp(c->name, "default") == 0) {
        ok = tn__readDefaults(r, c, -1);
      } else if (sections[s].fn) {
        ok = sections[s].fn(r, c);
      }
      if (!ok) {
        return 0;
      }
    }
  }
  return 1;
}

/* spec from a parsed document, then the model */
static mjModel* load_doc(tnXmlDoc* doc, char* error, int error_sz) {
  if (!doc) {
    return NULL;
  }
  mjModel* m = NULL;
  tnSpec* spec = NULL;
  if (tn__xmlValidate(doc->root, error, error_sz)) {
    spec = tn__specNew();
    if (!spec) {
      snprintf(error, (size_t)error_sz, "out of memory");
    }
  }
  if (spec) {
    tnReader r = {spec, doc, error, error_sz};
    spec->filename = doc->root->pos.file;
    spec->files = doc->files;
    if (read_sections(&r, doc->root) && tn__xmlCheckUsed(doc->root, error, error_sz)) {
      m = tn__compileSpec(spec, error, error_sz);
    }
  }
  tn__specFree(spec);
  tn__xmlFree(doc);
  return m;
}

/* a scratch buffer when the caller passes none */
typedef struct tnErrBuf_ {
  char* err;
  int errsz;
  char local[1024];
} tnErrBuf;

static void errbuf_init(tnErrBuf* b, char* error, int error_sz) {
  b->err = error && error_sz > 0 ? error : b->local;
  b->errsz = error && error_sz > 0 ? error_sz : (int)sizeof(b->local);
  b->err[0] = 0;
}

/* parse and compile an MJCF file under the load's file rules */
static mjModel* load_file(const char* filename, const tnLoadOptions* opt, const char* who,
                          char* error, int error_sz) {
  tnErrBuf b;
  errbuf_init(&b, error, error_sz);
  if (!filename) {
    snprintf(b.err, (size_t)b.errsz, "%s: no file name given", who);
    return NULL;
  }
  tnFiles files;
  if (!tn__filesInit(&files, opt, b.err, b.errsz)) {
    return NULL;
  }
  mjModel* m = load_doc(tn__xmlLoadFile(filename, &files, b.err, b.errsz), b.err, b.errsz);
  tn__filesFree(&files);
  return m;
}

/* parse and compile an MJCF file, VFS first (mj_loadXML without keeping the spec) */
mjModel* tn__loadXMLModel(const char* filename, const mjVFS* vfs, char* error, int error_sz) {
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.vfs = vfs;
  return load_file(filename, &opt, "mj_loadXML", error, error_sz);
}

/* zero options: no VFS, no root, no limit */
void tn_defaultLoadOptions(tnLoadOptions* opt) {
  memset(opt, 0, sizeof(*opt));
}

/* parse and compile an MJCF file under options */
mjModel* tn_loadXMLWith(const char* filename, const tnLoadOptions* opt, char* error, int error_sz) {
  return load_file(filename, opt, "tn_loadXMLWith", error, error_sz);
}

/* parse and compile MJCF text */
mjModel* tn_loadXMLString(const char* xml, const char* dir, char* error, int error_sz) {
  tnErrBuf b;
  errbuf_init(&b, error, error_sz);
  return load_doc(tn__xmlLoadString(xml, dir, "<string>", NULL, b.err, b.errsz), b.err, b.errsz);
}

/* an MJCF file (or text) read into a spec without compiling it, for the model-editing API */
tnSpec* tn__xmlReadSpec(const char* filename, const char* xml, const mjVFS* vfs, tnFiles* files,
                        tnXmlDoc** docout, char* error, int error_sz) {
  *docout = NULL;
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.vfs = vfs;
  if (!tn__filesInit(files, &opt, error, error_sz)) {
    return NULL;
  }
  tnXmlDoc* doc = filename ? tn__xmlLoadFile(filename, files, error, error_sz)
                           : tn__xmlLoadString(xml, NULL, "<string>", files, error, error_sz);
  if (!doc) {
    return NULL;
  }
  *docout = doc;
  if (!tn__xmlValidate(doc->root, error, error_sz)) {
    return NULL;
  }
  tnSpec* spec = tn__specNew();
  if (!spec) {
    snprintf(error, (size_t)error_sz, "out of memory");
    return NULL;
  }
  tnReader r = {spec, doc, error, error_sz};
  spec->filename = doc->root->pos.file;
  spec->files = doc->files;
  if (!read_sections(&r, doc->root) || !tn__xmlCheckUsed(doc->root, error, error_sz)) {
    tn__specFree(spec);
    return NULL;
  }
  return spec;
}
