/* xml/xml_tree.h — internal: the MJCF document as a plain tree with source positions.
 *
 * mxml parses the text; xml_read.c copies its elements into this tree, splices <include>d
 * files in place and records, for every element, the file and line it came from (mxml keeps
 * no line numbers), so every later error can name FILE:LINE. All memory of a document lives
 * in one pool freed with tn__xmlFree. */
#ifndef TORSION_XML_TREE_H
#define TORSION_XML_TREE_H

#include <stddef.h>

#include "compiler/src_pos.h"
#include "util/file_source.h"
#include "util/pool.h"

/* one attribute: name="value" */
typedef struct tnXmlAttr_ {
  const char* name;
  const char* value;
  int used; /* set when a reader consumed it; leftovers are "not implemented yet" */
} tnXmlAttr;

/* one element with its attributes, children and source position */
typedef struct tnXmlNode_ {
  const char* name;
  tnSrcPos pos; /* element (= name), file and line of its start tag; the spec points here */
  int nattr;
  tnXmlAttr* attr;
  int nchild;
  struct tnXmlNode_** child;
  struct tnXmlNode_* parent;
} tnXmlNode;

/* a parsed document: the <mujoco> root and the pool owning everything */
typedef struct tnXmlDoc_ {
  tnPool pool;
  tnXmlNode* root;
  const char* dir; /* directory of the main file ("" when none), for assets and includes */
  tnFiles* files;  /* where the load may read files (NULL: anywhere on disk) */
} tnXmlDoc;

/* Parse a file (includes resolved relative to its directory), reading every file through
 * `files` (NULL: anywhere on disk). NULL with a message. */
tnXmlDoc* tn__xmlLoadFile(const char* path, tnFiles* files, char* err, int errsz);

/* Parse text held in memory; `label` names it in messages; includes resolve relative to
 * `dir`, or are an error when dir is NULL. NULL with a message. */
tnXmlDoc* tn__xmlLoadString(const char* text, const char* dir, const char* label, tnFiles* files,
                            char* err, int errsz);

/* free a document (NULL allowed) */
void tn__xmlFree(tnXmlDoc* doc);

/* value of an attribute, or NULL when absent */
const char* tn__xmlAttr(const tnXmlNode* node, const char* name);

#endif /* TORSION_XML_TREE_H */
