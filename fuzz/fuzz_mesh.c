/* fuzz/fuzz_mesh.c — libFuzzer target: the mesh loaders (binary and ASCII STL, OBJ, MuJoCo's
 * MSH) from bytes, then the processing a compiled mesh goes through (hull, mass properties).
 *
 * The first input byte picks the format (and whether to process); the rest is the file. */
#include <stdint.h>
#include <stdlib.h>

#include "compiler/mesh.h"

/* the formats, indexed by the selector byte */
static const tnMeshFormat formats[3] = {TN_MESH_FORMAT_STL, TN_MESH_FORMAT_OBJ, TN_MESH_FORMAT_MSH};

/* one input: load it as the chosen format; process what loads */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) {
    return 0;
  }
  tnMeshFormat format = formats[data[0] % 3];
  int process = (data[0] / 3) % 2;
  char err[500] = "";
  tnMesh mesh;
  if (tn__meshLoadBuffer(&mesh, "fuzz", "fuzz", data + 1, size - 1, format, err, sizeof(err))) {
    // a failure always says why
    if (!err[0]) {
      __builtin_trap();
    }
    return 0;
  }
  if (process) {
    tnMeshOptions opt;
    tn__meshDefaultOptions(&opt);
    err[0] = 0;
    if (tn__meshProcess(&mesh, &opt, err, sizeof(err)) && !err[0]) {
      __builtin_trap();
    }
  }
  tn__meshFree(&mesh);
  return 0;
}
