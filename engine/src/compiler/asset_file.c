/* compiler/asset_file.c — whole-file reading and file-name checks for asset loaders. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/asset_load.h"

/* largest asset file accepted (bytes) */
#define TN_ASSET_MAXFILE (1LL << 31)

/* read a whole file into a malloc'ed buffer */
int tn_assetReadFile(const char* path, unsigned char** data, size_t* size, char* why, int whysz) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    snprintf(why, (size_t)whysz, "cannot open file: %s", strerror(errno));
    return 0;
  }

  // find the size
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0) {
    n = ftell(f);
  }
  if (n < 0 || (long long)n > TN_ASSET_MAXFILE || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    snprintf(why, (size_t)whysz, n < 0 ? "cannot read file" : "file too large");
    return 0;
  }

  // read it all
  unsigned char* buf = malloc((size_t)n + 1);
  if (!buf) {
    fclose(f);
    snprintf(why, (size_t)whysz, "out of memory");
    return 0;
  }
  size_t got = fread(buf, 1, (size_t)n, f);
  fclose(f);
  if (got != (size_t)n) {
    free(buf);
    snprintf(why, (size_t)whysz, "read error");
    return 0;
  }
  *data = buf;
  *size = got;
  return 1;
}

/* case-insensitive suffix test */
int tn_assetHasExtension(const char* path, const char* ext) {
  size_t n = strlen(path), k = strlen(ext);
  if (n < k) {
    return 0;
  }
  for (size_t i = 0; i < k; i++) {
    if (tolower((unsigned char)path[n - k + i]) != tolower((unsigned char)ext[i])) {
      return 0;
    }
  }
  return 1;
}
