/* rest_deps.c — mju_getXMLDependencies: the files a model depends on, one per line, read
 * back through Torsion's string vector readers (an mjStringVec is opaque in C, so this
 * program is built against Torsion only; the test compares its list with MuJoCo's from the
 * Python bindings). The vector is filled twice to check that the call replaces it.
 * Usage: rest_deps MODEL.xml */
#include <stdio.h>
#include MJ_INCLUDE

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
    return 2;
  }
  mjSpec* spec = mj_makeSpec();
  mjsTuple* holder = mjs_addTuple(spec);
  mjs_setStringVec(holder->objname, "stale entries");
  mju_getXMLDependencies(argv[1], holder->objname);
  mju_getXMLDependencies(argv[1], holder->objname);
  for (int i = 0; i < tn_stringVecSize(holder->objname); i++) {
    printf("%s\n", tn_stringVecItem(holder->objname, i));
  }
  mj_deleteSpec(spec);
  return 0;
}
