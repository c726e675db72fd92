/* util/file_read.c — reading a whole file into memory, bounded (util/file_read.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file_read.h"

/* read a whole file (at most maxsize bytes) into a malloc'ed, NUL-terminated buffer */
int tn__readFile(const char* path, long long maxsize, unsigned char** data, size_t* size, char* why,
                 int whysz) {
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
  if (n < 0 || (long long)n > maxsize || fseek(f, 0, SEEK_SET) != 0) {
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
  buf[got] = 0;
  *data = buf;
  *size = got;
  return 1;
}
