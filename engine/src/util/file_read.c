/* util/file_read.c — reading a whole regular file into memory, bounded (util/file_read.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_read.h"

/* open a file for reading: regular files only, never blocking on a FIFO or a device */
int tn__openRegular(const char* path, char* why, int whysz) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, (size_t)whysz, "cannot open file: %s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    snprintf(why, (size_t)whysz, "not a regular file");
    return -1;
  }
  return fd;
}

/* read an open regular file (at most maxsize bytes) into a malloc'ed, NUL-terminated buffer;
 * the descriptor is closed */
int tn__readFd(int fd, long long maxsize, unsigned char** data, size_t* size, char* why,
               int whysz) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    snprintf(why, (size_t)whysz, "not a regular file");
    return 0;
  }
  if ((long long)st.st_size > maxsize) {
    close(fd);
    snprintf(why, (size_t)whysz, "file too large (more than %lld bytes)", maxsize);
    return 0;
  }

  // read up to the size seen by fstat; a file that grows meanwhile is cut there
  size_t want = (size_t)st.st_size;
  unsigned char* buf = malloc(want + 1);
  if (!buf) {
    close(fd);
    snprintf(why, (size_t)whysz, "out of memory");
    return 0;
  }
  size_t got = 0;
  while (got < want) {
    ssize_t k = read(fd, buf + got, want - got);
    if (k < 0 && errno == EINTR) {
      continue;
    }
    if (k <= 0) {
      break;
    }
    got += (size_t)k;
  }
  close(fd);
  if (got != want) {
    free(buf);
    snprintf(why, (size_t)whysz, "read error");
    return 0;
  }
  buf[got] = 0;
  *data = buf;
  *size = got;
  return 1;
}

/* read a whole regular file (at most maxsize bytes) */
int tn__readFile(const char* path, long long maxsize, unsigned char** data, size_t* size, char* why,
                 int whysz) {
  int fd = tn__openRegular(path, why, whysz);
  if (fd < 0) {
    return 0;
  }
  return tn__readFd(fd, maxsize, data, size, why, whysz);
}
