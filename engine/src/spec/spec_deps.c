/* spec/spec_deps.c — mju_getXMLDependencies: the list of files an MJCF file depends on
 * (walked by xml/xml_deps.c) in a string vector, and Torsion's readers of string vectors
 * (C code has no other way to read an mjStringVec, which is opaque in C). */
#include <string.h>

#include "spec/spec_tree.h"
#include "xml/xml_reader.h"

/* append a path unless the vector holds it already */
static void add_unique(void* ctx, const char* path) {
  tnsHandle* h = ctx;
  char** items = h->data;
  for (int i = 0; i < h->n; i++) {
    if (!strcmp(items[i], path)) {
      return;
    }
  }
  mjs_appendString(h, path);
}

/* replace the vector's contents with the file and every file it depends on; unreadable or
 * invalid XML raises mju_error (as in MuJoCo) */
void mju_getXMLDependencies(const char* filename, mjStringVec* dependencies) {
  if (!filename || !dependencies) {
    mju_error("mju_getXMLDependencies: NULL argument");
    return;
  }
  tnsHandle* h = dependencies;
  tn__specSetArray(h, NULL, 0);
  char err[1024];
  if (!tn__xmlDependencies(filename, add_unique, h, err, sizeof(err))) {
    mju_error("%s", err);
  }
}

/* number of strings in a string vector (0 for NULL) */
int tn_stringVecSize(const mjStringVec* vec) {
  const tnsHandle* h = vec;
  return h ? h->n : 0;
}

/* string i of a string vector, NULL when out of range */
const char* tn_stringVecItem(const mjStringVec* vec, int i) {
  const tnsHandle* h = vec;
  if (!h || i < 0 || i >= h->n) {
    return NULL;
  }
  return ((char* const*)h->data)[i];
}
