/* fuzz/fuzz_npy.c — libFuzzer target: the .npy reader of the host programs (common/npy.c).
 *
 * npy_read takes a path, so each input goes through one temporary file (created once per
 * process, rewritten per input). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "npy.h"

/* the temporary file, and whether it exists yet */
static char tmp_path[64];
static int tmp_ready;

/* make the temporary file once; it is removed when the process exits */
static void remove_tmp(void) {
  unlink(tmp_path);
}

/* one input: write it to the file, read it back as an array */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!tmp_ready) {
    snprintf(tmp_path, sizeof(tmp_path), "/tmp/torsion-fuzz-npy-XXXXXX");
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
      return 0;
    }
    close(fd);
    atexit(remove_tmp);
    tmp_ready = 1;
  }
  FILE* f = fopen(tmp_path, "wb");
  if (!f) {
    return 0;
  }
  if (size && fwrite(data, 1, size, f) != size) {
    fclose(f);
    return 0;
  }
  fclose(f);

  // read it; a success must describe an array whose elements are all there
  npyArray a = {0};
  char err[300] = "";
  if (npy_read(tmp_path, &a, err, sizeof(err)) == 0) {
    volatile double sum = 0;
    size_t n = a.n;
    for (size_t i = 0; i < n; i++) {
      sum += a.data[i];
    }
    (void)sum;
    npy_free(&a);
  } else if (!err[0]) {
    __builtin_trap();
  }
  return 0;
}
