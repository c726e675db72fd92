/* spec_roundtrip.c — for each MJCF file given: load it (mj_loadXML), parse it into a spec
 * (mj_parseXML) and compile that (mj_compile), and check that the two models are the same
 * byte for byte (mj_sizeModel and the model's buffer). Prints one line per file. Written
 * against MuJoCo's C API only; MJ_INCLUDE names the header. Usage: spec_roundtrip FILE... */
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

int main(int argc, char** argv) {
  for (int a = 1; a < argc; a++) {
    const char* name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
    char err[1000] = "";
    mjModel* loaded = mj_loadXML(argv[a], NULL, err, sizeof(err));
    mjSpec* s = mj_parseXML(argv[a], NULL, err, sizeof(err));
    mjModel* compiled = s ? mj_compile(s, NULL) : NULL;
    if (!loaded || !compiled) {
      printf("%s: failed (%s)\n", name, loaded ? "parse or compile" : "load");
    } else {
      long long n1 = (long long)mj_sizeModel(loaded), n2 = (long long)mj_sizeModel(compiled);
      long long differ = 0;
      if (n1 == n2) {
        const unsigned char* b1 = loaded->buffer;
        const unsigned char* b2 = compiled->buffer;
        for (long long i = 0; i < n1; i++) differ += b1[i] != b2[i];
      }
      printf("%s: nbody %d ngeom %d nu %d same size %d differing bytes %lld\n", name,
             (int)loaded->nbody, (int)loaded->ngeom, (int)loaded->nu, n1 == n2, differ);
    }
    mj_deleteModel(compiled);
    mj_deleteModel(loaded);
    mj_deleteSpec(s);
  }
  return 0;
}
