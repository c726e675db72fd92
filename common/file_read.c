/* common/file_read.c — reading a whole file into memory (common/file_read.h). */
#include <stdio.h>
#include <stdlib.h>

#include "file_read.h"

/* the whole file, NUL-terminated */
char* host_read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }

  // its size, then all of it
  char* buf = NULL;
  long n = -1;
  if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  if (buf) {
    buf[n] = '\0';
    if (len) {
      *len = (size_t)n;
    }
  }
  return buf;
}
