/* xml/xml_reader.h — internal: reading attribute values into the spec.
 *
 * Every reader returns >0 when the attribute was present and valid, 0 when absent, and -1
 * after writing an error naming file, line, element and attribute. Reading an attribute
 * marks it consumed (see tn__xmlCheckUsed). */
#ifndef TORSION_XML_READER_H
#define TORSION_XML_READER_H

#include "compiler/spec.h"
#include "xml/xml_error.h"
#include "xml/xml_tree.h"

/* state of one MJCF reading */
typedef struct tnReader_ {
  tnSpec* spec;
  tnXmlDoc* doc;
  char* err;
  int errsz;
} tnReader;

/* a keyword and its value */
typedef struct tnKeyword_ {
  const char* word;
  int value;
} tnKeyword;

/* Two conventions: attribute readers (tn__rd*) return >0 present, 0 absent, -1 error;
 * element and object readers (tn__read*, read_*) return 1 on success and 0 on error. Both
 * macros below are used inside the latter and return 0 on failure. */

/* return 0 from the enclosing function when an attribute reader failed (< 0) */
#define TN_TRY(expr)  \
  do {                \
    if ((expr) < 0) { \
      return 0;       \
    }                 \
  } while (0)

/* return 0 from the enclosing function when an element reader failed (== 0) */
#define TN_OK(expr) \
  do {              \
    if (!(expr)) {  \
      return 0;     \
    }               \
  } while (0)

/* the raw value (marks it consumed), NULL when absent */
const char* tn__rdStr(tnXmlNode* node, const char* attr);

/* a string copied into the spec's pool */
int tn__rdName(tnReader* r, tnXmlNode* node, const char* attr, const char** out);

/* nmin..nmax finite numbers; writes only the numbers given; returns how many */
int tn__rdNums(tnReader* r, tnXmlNode* node, const char* attr, mjtNum* out, int nmin, int nmax);
/* the same into floats */
int tn__rdFloats(tnReader* r, tnXmlNode* node, const char* attr, float* out, int nmin, int nmax);
/* nmin..nmax integers */
int tn__rdInts(tnReader* r, tnXmlNode* node, const char* attr, int* out, int nmin, int nmax);
/* any number of numbers into pool memory (*n = count) */
int tn__rdNumArray(tnReader* r, tnXmlNode* node, const char* attr, mjtNum** out, int* n);

/* one of the keywords of a NULL-terminated table */
int tn__rdKeyword(tnReader* r, tnXmlNode* node, const char* attr, const tnKeyword* table, int* out);
/* "true"/"false" -> 1/0 */
int tn__rdBool(tnReader* r, tnXmlNode* node, const char* attr, int* out);
/* "false"/"true"/"auto" -> TN_FALSE/TN_TRUE/TN_AUTO */
int tn__rdTri(tnReader* r, tnXmlNode* node, const char* attr, int* out);

/* quat/axisangle/euler/xyaxes/zaxis (at most one) into an orientation */
int tn__rdOrientation(tnReader* r, tnXmlNode* node, tnOrientation* o);
/* user="..." data */
int tn__rdUser(tnReader* r, tnXmlNode* node, tnUser* user);

/* error helper: message at node/attr, returns -1 */
int tn__rdFail(tnReader* r, tnXmlNode* node, const char* attr, const char* msg);

/* per-object attribute readers shared by default classes and elements (xml_objects.c);
 * 1 on success, 0 on error */
int tn__readJointAttrs(tnReader* r, tnXmlNode* node, tnSpecJoint* j);
int tn__readGeomAttrs(tnReader* r, tnXmlNode* node, tnSpecGeom* g);
int tn__readSiteAttrs(tnReader* r, tnXmlNode* node, tnSpecSite* s);
int tn__readCameraAttrs(tnReader* r, tnXmlNode* node, tnSpecCamera* c);
int tn__readLightAttrs(tnReader* r, tnXmlNode* node, tnSpecLight* l);
int tn__readMaterialAttrs(tnReader* r, tnXmlNode* node, tnSpecMaterial* m);
int tn__readPairAttrs(tnReader* r, tnXmlNode* node, tnSpecPair* p);
int tn__readEqualityAttrs(tnReader* r, tnXmlNode* node, tnSpecEquality* e);
int tn__readTendonAttrs(tnReader* r, tnXmlNode* node, tnSpecTendon* t);
/* mesh attributes that default classes provide: scale, maxhullvert, inertia
 * (xml_elements_asset.c) */
int tn__readMeshAttrs(tnReader* r, tnXmlNode* node, tnSpecMesh* m);
/* actuator: `kind` is the element (TN_ACT_*); shortcut semantics applied as MuJoCo does */
int tn__readActuatorAttrs(tnReader* r, tnXmlNode* node, int kind, tnSpecActuator* a);
/* the TN_ACT_* kind of an actuator element name, -1 if none */
int tn__actuatorKind(const char* name);

/* default classes (xml_defaults.c) */
int tn__readDefaults(tnReader* r, tnXmlNode* node, int parent);
/* a synthesized top-level <default class="NAME"> read as a new root class (attach) */
int tn__readDetachedDefaults(tnReader* r, tnXmlNode* node);
/* index of a class by name, -1 when unknown */
int tn__findClass(const tnSpec* spec, const char* name);
/* class of an element: its class attribute, else `inherited`; -1 after an error */
int tn__elementClass(tnReader* r, tnXmlNode* node, int inherited);

/* sections (xml_elements_*.c) */
int tn__readCompiler(tnReader* r, tnXmlNode* node);
int tn__readOption(tnReader* r, tnXmlNode* node);
int tn__readSize(tnReader* r, tnXmlNode* node);
int tn__readStatistic(tnReader* r, tnXmlNode* node);
int tn__readVisual(tnReader* r, tnXmlNode* node);
int tn__readWorldbody(tnReader* r, tnXmlNode* node);
/* <asset><model> and <attach> (xml_attach.c); 1 or 0 */
int tn__readModelAsset(tnReader* r, tnXmlNode* node);
int tn__readAttach(tnReader* r, tnXmlNode* node, int b, const tnFrame* frame);
/* a <body> element and its subtree under body `parent` (xml_elements_body.c); 1 or 0 */
int tn__readBodySubtree(tnReader* r, tnXmlNode* node, int parent, int cls, const tnFrame* frame);
/* the body-level children of node into body b (xml_elements_body.c); 1 or 0 */
int tn__readBodyChildren(tnReader* r, tnXmlNode* node, int b, int cls, const tnFrame* frame);
/* expand the <replicate>s below <worldbody> in the tree (xml_replicate.c); 1 or 0 */
int tn__xmlExpandReplicates(tnReader* r, tnXmlNode* worldbody);
int tn__readAsset(tnReader* r, tnXmlNode* node);
int tn__readDeformable(tnReader* r, tnXmlNode* node);
int tn__readContact(tnReader* r, tnXmlNode* node);
int tn__readEquality(tnReader* r, tnXmlNode* node);
int tn__readTendon(tnReader* r, tnXmlNode* node);
int tn__readActuator(tnReader* r, tnXmlNode* node);
int tn__readSensor(tnReader* r, tnXmlNode* node);
int tn__readKeyframe(tnReader* r, tnXmlNode* node);
int tn__readCustom(tnReader* r, tnXmlNode* node);
/* <extension>: engine plugin declarations and named instances (xml_extension.c) */
int tn__readExtension(tnReader* r, tnXmlNode* node);
/* the plugin reference of an actuator <plugin> element into a->plugin (xml_extension.c) */
int tn__readActuatorPlugin(tnReader* r, tnXmlNode* node, tnSpecActuator* a);

/* Read an MJCF file (filename) or text (xml, when filename is NULL; files relative to the
 * current directory) into a new spec without compiling it (xml_load.c), files looked up in
 * vfs first. The spec's source positions point into *doc: free the spec (tn__specFree),
 * then *doc (tn__xmlFree, when not NULL), then files (tn__filesFree), also after a failure
 * (NULL with a message in error). */
tnSpec* tn__xmlReadSpec(const char* filename, const char* xml, const mjVFS* vfs, tnFiles* files,
                        tnXmlDoc** doc, char* error, int error_sz);

/* mj_loadXML's model: parse and compile an MJCF file, VFS first (mj_loadXML, in the spec
 * stage, also keeps the file's spec for mj_saveLastXML). */
mjModel* tn__loadXMLModel(const char* filename, const mjVFS* vfs, char* error, int error_sz);

/* Every file an MJCF file depends on, as mju_getXMLDependencies lists them (xml_deps.c):
 * add(ctx, path) is called for the file and each dependency (a path may come more than
 * once). 0 with a message in err when a file cannot be read or parsed. */
int tn__xmlDependencies(const char* filename, void (*add)(void* ctx, const char* path), void* ctx,
                        char* err, int errsz);

#endif /* TORSION_XML_READER_H */
