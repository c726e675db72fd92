/* rest_encode.c — mj_encode: a spec and a model written by file type (.xml from the spec,
 * .xml from the model through the last loaded XML, .mjb, .txt, content types) and the
 * failures (no model where one is needed, no encoder for the type); prints whether each
 * call succeeded, whether the returned byte count is the file's size, and the messages.
 * Written against MuJoCo's C API only.
 * Usage: rest_encode MODEL.xml */
#include <stdio.h>
#include <sys/stat.h>
#include MJ_INCLUDE

/* one mj_encode call, reported */
static void encode(const char* label, const mjSpec* s, const mjModel* m, const char* file,
                   const char* type) {
  char error[500] = "";
  mjtSize n = mj_encode(s, m, file, type, NULL, error, sizeof(error));
  struct stat st;
  long size = stat(file, &st) == 0 ? (long)st.st_size : -1;
  printf("%s: %s size_matches %d error '%s'\n", label, n > 0 ? "ok" : (n == -1 ? "-1" : "other"),
         n > 0 && n == size, error);
  remove(file);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjSpec* s = mj_parseXML(argv[1], NULL, error, sizeof(error));
  mjModel* m = s ? mj_compile(s, NULL) : NULL;
  if (!m) {
    printf("load error: %s\n", s ? mjs_getError(s) : error);
    return 1;
  }
  encode("spec xml", s, NULL, "out_spec.xml", NULL);
  encode("spec XML upper", s, NULL, "out_spec.XML", NULL);
  encode("spec xml type", s, NULL, "out_spec.dat", "text/xml");
  encode("model xml no last", NULL, m, "out_model.xml", NULL);
  encode("nothing xml", NULL, NULL, "out_none.xml", NULL);
  mjModel* loaded = mj_loadXML(argv[1], NULL, error, sizeof(error));
  encode("model xml last", NULL, loaded, "out_model.xml", NULL);
  encode("model mjb", NULL, m, "out_model.mjb", NULL);
  encode("spec mjb", s, NULL, "out_spec.mjb", NULL);
  encode("model txt", NULL, m, "out_model.txt", NULL);
  encode("model plain type", NULL, m, "out_model.log", "text/plain");
  encode("spec txt", s, NULL, "out_spec.txt", NULL);
  encode("no encoder", s, m, "out_model.usd", NULL);
  encode("no extension", s, m, "out_model", NULL);
  mj_deleteModel(loaded);
  mj_deleteModel(m);
  mj_deleteSpec(s);
  return 0;
}
