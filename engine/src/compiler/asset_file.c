/* compiler/asset_file.c — whole-file reading and file-name checks for asset loaders. */
#include <ctype.h>
#include <string.h>

#include "compiler/asset_load.h"

/* largest asset file accepted (bytes) */
#define TN_ASSET_MAXFILE (1LL << 31)

/* read a whole asset file (at most TN_ASSET_MAXFILE bytes) */
int tn__assetReadFile(tnFiles* files, const char* path, unsigned char** data, size_t* size,
                      char* why, int whysz) {
  return tn__filesRead(files, path, TN_ASSET_MAXFILE, data, size, why, whysz);
}

/* case-insensitive suffix test */
int tn__assetHasExtension(const char* path, const char* ext) {
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
