/* util/vfs.c — mjVFS, MuJoCo's virtual file system: named in-memory files that the MJCF
 * reader and the asset loaders consult before the filesystem (util/vfs.h).
 *
 * The files are kept in insertion order in one growing array; names are compared as given
 * (exact match) and by their lower-case base name (MuJoCo's fallback match). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/file_read.h"
#include "util/vfs.h"

/* largest file mj_addFileVFS reads (bytes) */
#define TN_VFS_MAXFILE (1LL << 31)

/* one file: its name and its bytes (one NUL after them) */
typedef struct tnVfsFile_ {
  char* name;
  unsigned char* data;
  size_t size;
} tnVfsFile;

/* the files of one mjVFS (what mjVFS.impl_ points to) */
typedef struct tnVfs_ {
  tnVfsFile* file;
  int nfile;
  int cap;
} tnVfs;

/* the part of a path after its last separator */
static const char* base_name(const char* path) {
  const char* base = path;
  for (const char* p = path; *p; p++) {
    if (*p == '/' || *p == '\\') {
      base = p + 1;
    }
  }
  return base;
}

/* the lower-case base name of a path, as mj_addFileVFS names a file (malloc'ed; NULL when
 * out of memory) */
static char* lower_base_name(const char* path) {
  char* name = strdup(base_name(path));
  for (char* p = name; p && *p; p++) {
    *p = (char)tolower((unsigned char)*p);
  }
  return name;
}

/* case-insensitive equality of two strings */
static int same_ignoring_case(const char* a, const char* b) {
  for (; *a && *b; a++, b++) {
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
      return 0;
    }
  }
  return *a == *b;
}

/* index of the file named exactly `name`, or -1 */
static int find_exact(const tnVfs* v, const char* name) {
  for (int i = 0; i < v->nfile; i++) {
    if (strcmp(v->file[i].name, name) == 0) {
      return i;
    }
  }
  return -1;
}

/* index of the first file whose base name matches that of `path` (any case), or -1 */
static int find_base(const tnVfs* v, const char* path) {
  const char* want = base_name(path);
  for (int i = 0; i < v->nfile; i++) {
    if (same_ignoring_case(base_name(v->file[i].name), want)) {
      return i;
    }
  }
  return -1;
}

/* append a file that owns `name` and `data`; 0, or -1 when out of memory */
static int append(tnVfs* v, char* name, unsigned char* data, size_t size) {
  if (v->nfile == v->cap) {
    int cap = v->cap ? 2 * v->cap : 16;
    tnVfsFile* grown = realloc(v->file, sizeof(tnVfsFile) * (size_t)cap);
    if (!grown) {
      return -1;
    }
    v->file = grown;
    v->cap = cap;
  }
  v->file[v->nfile++] = (tnVfsFile){name, data, size};
  return 0;
}

/* the implementation behind a VFS handle, or NULL */
static tnVfs* impl_of(const mjVFS* vfs) {
  return vfs ? (tnVfs*)vfs->impl_ : NULL;
}

/* start an empty VFS */
void mj_defaultVFS(mjVFS* vfs) {
  if (!vfs) {
    mju_error("mjVFS is null.");
    return;
  }
  vfs->impl_ = calloc(1, sizeof(tnVfs));
  if (!vfs->impl_) {
    mju_error("mj_defaultVFS: out of memory");
  }
}

/* read directory/filename from disk into a file named by its lower-case base name */
int mj_addFileVFS(mjVFS* vfs, const char* directory, const char* filename) {
  tnVfs* v = impl_of(vfs);
  if (!v) {
    mju_error("mjVFS is null.");
    return -1;
  }
  if (!filename || !filename[0]) {
    return -1;
  }

  // the name: base name in lower case
  char* name = lower_base_name(filename);
  if (!name) {
    return -1;
  }
  if (find_exact(v, name) >= 0) {
    free(name);
    return 2;
  }

  // the path: directory joined to filename
  size_t dn = directory ? strlen(directory) : 0;
  char* path = malloc(dn + strlen(filename) + 2);
  if (!path) {
    free(name);
    return -1;
  }
  if (dn && directory[dn - 1] != '/' && directory[dn - 1] != '\\') {
    strcpy(path, directory);
    strcat(path, "/");
    strcat(path, filename);
  } else {
    strcpy(path, dn ? directory : "");
    strcat(path, filename);
  }

  // its bytes
  unsigned char* data = NULL;
  size_t size = 0;
  char why[160];
  int ok = tn__readFile(path, TN_VFS_MAXFILE, &data, &size, why, (int)sizeof(why));
  free(path);
  if (!ok || append(v, name, data, size)) {
    free(name);
    free(data);
    return -1;
  }
  return 0;
}

/* copy a buffer into a file named `name` */
int mj_addBufferVFS(mjVFS* vfs, const char* name, const void* buffer, int nbuffer) {
  tnVfs* v = impl_of(vfs);
  if (!v) {
    mju_error("mjVFS is null.");
    return -1;
  }
  if (!name || nbuffer < 0 || (nbuffer > 0 && !buffer)) {
    return -1;
  }
  if (find_exact(v, name) >= 0) {
    return 2;
  }
  char* copy = strdup(name);
  unsigned char* data = malloc((size_t)nbuffer + 1);
  if (!copy || !data) {
    free(copy);
    free(data);
    return -1;
  }
  if (nbuffer > 0) {
    memcpy(data, buffer, (size_t)nbuffer);
  }
  data[nbuffer] = 0;
  if (append(v, copy, data, (size_t)nbuffer)) {
    free(copy);
    free(data);
    return -1;
  }
  return 0;
}

/* remove one file: by its exact name, else by its lower-case base name */
int mj_deleteFileVFS(mjVFS* vfs, const char* filename) {
  tnVfs* v = impl_of(vfs);
  if (!v || !filename) {
    return -1;
  }
  int i = find_exact(v, filename);
  if (i < 0) {
    char* lower = lower_base_name(filename);
    if (!lower) {
      return -1;
    }
    i = find_exact(v, lower);
    free(lower);
  }
  if (i < 0) {
    return -1;
  }

  // keep the insertion order of the others
  free(v->file[i].name);
  free(v->file[i].data);
  memmove(v->file + i, v->file + i + 1, sizeof(tnVfsFile) * (size_t)(v->nfile - i - 1));
  v->nfile--;
  return 0;
}

/* 1 if a file is stored under exactly this name (a buffer's name as given), else 0 */
int mj_containsBufferVFS(mjVFS* vfs, const char* name) {
  tnVfs* v = impl_of(vfs);
  return v && name && find_exact(v, name) >= 0;
}

/* 1 if a file added as directory/filename would be found: its lower-case base name is
 * stored (the directory plays no part, as in MuJoCo), else 0 */
int mj_containsFileVFS(mjVFS* vfs, const char* directory, const char* filename) {
  (void)directory;
  tnVfs* v = impl_of(vfs);
  if (!v || !filename) {
    return 0;
  }
  char* lower = lower_base_name(filename);
  if (!lower) {
    return 0;
  }
  int found = find_exact(v, lower) >= 0;
  free(lower);
  return found;
}

/* free every file and the VFS's memory */
void mj_deleteVFS(mjVFS* vfs) {
  tnVfs* v = impl_of(vfs);
  if (!v) {
    return;
  }
  for (int i = 0; i < v->nfile; i++) {
    free(v->file[i].name);
    free(v->file[i].data);
  }
  free(v->file);
  free(v);
  vfs->impl_ = NULL;
}

/* the file a reference names: exact name, then base name */
int tn__vfsFind(const mjVFS* vfs, const char* path, const unsigned char** data, size_t* size) {
  const tnVfs* v = impl_of(vfs);
  if (!v || !path) {
    return 0;
  }
  int i = find_exact(v, path);
  if (i < 0) {
    i = find_base(v, path);
  }
  if (i < 0) {
    return 0;
  }
  *data = v->file[i].data;
  *size = v->file[i].size;
  return 1;
}
