/* fuzz/fuzz_mjcf.c — libFuzzer target: the MJCF reader and the compiler, from a string.
 *
 * The input is the model text given to tn_loadXMLString without a directory, so includes
 * and asset files do not resolve against the disk. A model that compiles is freed at once;
 * one that does not must fail with a message, never crash, leak or trip UBSan. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <torsion/torsion.h>

/* engine errors return instead of ending the process (the default handler exits, as
 * MuJoCo's does): a load reports them through its error string */
static void quiet_error(const char* msg) {
  (void)msg;
}

int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  mju_user_error = quiet_error;
  return 0;
}

/* one input: zero-terminate it, load it, free whatever came back */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char* xml = malloc(size + 1);
  if (!xml) {
    return 0;
  }
  memcpy(xml, data, size);
  xml[size] = 0;
  char error[1000] = "";
  mjModel* m = tn_loadXMLString(xml, NULL, error, sizeof(error));

  // a failure always says why
  if (!m && !error[0]) {
    __builtin_trap();
  }
  mj_deleteModel(m);
  free(xml);
  return 0;
}
