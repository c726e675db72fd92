/* util/file_source.c — the file rules of one load: VFS first, then the filesystem unless
 * VFS-only, confined to a root directory when one is given, within a total byte limit
 * (util/file_source.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file_read.h"
#include "util/file_source.h"
#include "util/vfs.h"

/* the reasons given for refused files */
#define TN_NOT_IN_VFS "not in the VFS (this load reads only the files of its VFS)"
#define TN_NOT_UNDER_ROOT "no readable file of that name under the load's root directory"

/* set up the rules */
int tn__filesInit(tnFiles* fs, const tnLoadOptions* opt, char* why, int whysz) {
  memset(fs, 0, sizeof(*fs));
  fs->limit = -1;
  if (!opt) {
    return 1;
  }
  fs->vfs = opt->vfs;
  fs->vfs_only = opt->vfs_only != 0;
  fs->limit = opt->max_bytes > 0 ? opt->max_bytes : -1;
  fs->model_limit = opt->max_model_bytes;
  if (opt->root && opt->root[0]) {
    fs->root = realpath(opt->root, NULL);
    if (!fs->root) {
      snprintf(why, (size_t)whysz, "the root directory '%s' does not exist", opt->root);
      return 0;
    }
  }
  return 1;
}

/* release the rules */
void tn__filesFree(tnFiles* fs) {
  if (fs) {
    free(fs->root);
    fs->root = NULL;
  }
}

/* is the absolute, normalized path `p` the root itself or inside it */
static int inside(const char* root, const char* p) {
  size_t n = strlen(root);
  if (n == 1 && root[0] == '/') {
    return 1;
  }
  return strncmp(root, p, n) == 0 && (p[n] == '/' || p[n] == 0);
}

/* the path made absolute and normalized by its text alone ('.', '..', '//' removed);
 * 0 when too long */
static int lexical_path(const char* path, char* out, size_t outsz) {
  char joined[PATH_MAX * 2];
  int len;
  if (path[0] == '/') {
    len = snprintf(joined, sizeof(joined), "%s", path);
  } else {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof(cwd))) {
      return 0;
    }
    len = snprintf(joined, sizeof(joined), "%s/%s", cwd, path);
  }
  if (len < 0 || (size_t)len >= sizeof(joined)) {
    return 0;
  }
  size_t n = 0;
  out[0] = 0;
  for (const char* p = joined; *p;) {
    // one component
    while (*p == '/') p++;
    const char* end = p;
    while (*end && *end != '/') end++;
    size_t k = (size_t)(end - p);
    if (k == 0 || (k == 1 && p[0] == '.')) {
      // nothing
    } else if (k == 2 && p[0] == '.' && p[1] == '.') {
      while (n > 0 && out[n - 1] != '/') n--;
      if (n > 0)
        n--;
      out[n] = 0;
    } else {
      if (n + k + 2 > outsz) {
        return 0;
      }
      out[n++] = '/';
      memcpy(out + n, p, k);
      n += k;
      out[n] = 0;
    }
    p = end;
  }
  if (n == 0) {
    snprintf(out, outsz, "/");
  }
  return 1;
}

/* may the load read `path` from disk; with a root, its real path (inside the root) goes into
 * `real` and is what must be opened */
static int allowed_on_disk(const tnFiles* fs, const char* path, char* real) {
  if (fs && fs->vfs_only) {
    return 0;
  }
  if (!fs || !fs->root) {
    return 1; /* read at `path` itself */
  }

  // by its text first (nothing outside is looked at), then with symlinks resolved
  char lex[PATH_MAX];
  if (!lexical_path(path, lex, sizeof(lex)) || !inside(fs->root, lex)) {
    return 0;
  }
  return realpath(lex, real) != NULL && inside(fs->root, real);
}

/* the file the descriptor really has open is still under the root (a path component may
 * have been swapped for a symlink after realpath) */
static int fd_inside(const tnFiles* fs, int fd) {
  if (!fs || !fs->root) {
    return 1;
  }
  char link[64], target[PATH_MAX];
  snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
  ssize_t k = readlink(link, target, sizeof(target) - 1);
  if (k < 0) {
    return 1; /* no /proc: the realpath check stands */
  }
  target[k] = 0;
  return inside(fs->root, target);
}

/* the limit for the next file: the caller's, lowered to what the load has left */
static long long next_limit(const tnFiles* fs, long long maxsize, int* budget) {
  *budget = 0;
  if (fs && fs->limit >= 0 && fs->limit - fs->used < maxsize) {
    *budget = 1;
    return fs->limit - fs->used;
  }
  return maxsize;
}

/* read one file under the rules */
int tn__filesRead(tnFiles* fs, const char* path, long long maxsize, unsigned char** data,
                  size_t* size, char* why, int whysz) {
  int budget = 0;
  long long limit = next_limit(fs, maxsize, &budget);

  // the VFS
  const unsigned char* vdata = NULL;
  size_t vsize = 0;
  if (fs && tn__vfsFind(fs->vfs, path, &vdata, &vsize)) {
    if ((long long)vsize > limit) {
      snprintf(why, (size_t)whysz,
               budget ? "the load's byte limit (%lld bytes in all) is exceeded"
                      : "file too large (more than %lld bytes)",
               budget ? fs->limit : maxsize);
      return 0;
    }
    unsigned char* copy = malloc(vsize + 1);
    if (!copy) {
      snprintf(why, (size_t)whysz, "out of memory");
      return 0;
    }
    memcpy(copy, vdata, vsize);
    copy[vsize] = 0;
    fs->used += (long long)vsize;
    *data = copy;
    *size = vsize;
    return 1;
  }

  // the disk, where allowed
  char real[PATH_MAX];
  if (!allowed_on_disk(fs, path, real)) {
    snprintf(why, (size_t)whysz, "%s", fs && fs->vfs_only ? TN_NOT_IN_VFS : TN_NOT_UNDER_ROOT);
    return 0;
  }
  int fd = tn__openRegular(fs && fs->root ? real : path, why, whysz);
  if (fd >= 0 && !fd_inside(fs, fd)) {
    close(fd);
    fd = -1;
  }
  if (fd < 0) {
    if (fs && fs->root) {
      snprintf(why, (size_t)whysz, "%s", TN_NOT_UNDER_ROOT);
    }
    return 0;
  }
  if (!tn__readFd(fd, limit, data, size, why, whysz)) {
    if (budget && strncmp(why, "file too large", 14) == 0) {
      snprintf(why, (size_t)whysz, "the load's byte limit (%lld bytes in all) is exceeded",
               fs->limit);
    }
    return 0;
  }
  if (fs) {
    fs->used += (long long)*size;
  }
  return 1;
}

/* could the file be read */
int tn__filesHas(const tnFiles* fs, const char* path) {
  const unsigned char* vdata;
  size_t vsize;
  if (fs && tn__vfsFind(fs->vfs, path, &vdata, &vsize)) {
    return 1;
  }
  char real[PATH_MAX], why[8];
  if (!allowed_on_disk(fs, path, real)) {
    return 0;
  }
  int fd = tn__openRegular(fs && fs->root ? real : path, why, (int)sizeof(why));
  if (fd < 0) {
    return 0;
  }
  int ok = fd_inside(fs, fd);
  close(fd);
  return ok;
}

/* is the path read from disk, where the load may look */
int tn__filesOnDisk(const tnFiles* fs, const char* path) {
  const unsigned char* vdata;
  size_t vsize;
  char real[PATH_MAX];
  if (fs && tn__vfsFind(fs->vfs, path, &vdata, &vsize)) {
    return 0;
  }
  return allowed_on_disk(fs, path, real);
}
