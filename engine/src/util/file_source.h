/* util/file_source.h — internal: where one load may read its files.
 *
 * Every file a load reads (the model file, includes, meshes, height fields, skins) goes
 * through one tnFiles: the VFS first, then the filesystem unless the load is VFS-only,
 * only under the root directory when one is set (resolved with realpath: symlinks and '..'
 * may not leave it), and within a total byte limit over all files. A NULL tnFiles reads
 * any regular file from disk. */
#ifndef TORSION_FILE_SOURCE_H
#define TORSION_FILE_SOURCE_H

#include <stddef.h>

#include <torsion/torsion.h>

/* the file rules of one load */
typedef struct tnFiles_ {
  const mjVFS* vfs; /* consulted first (NULL: none) */
  int vfs_only;     /* 1: nothing is read from disk */
  char* root;       /* real path of the root directory (malloc'ed), NULL: anywhere */
  long long limit;  /* bytes allowed over all files read, < 0: no limit */
  long long used;   /* bytes read so far */
  long long model_limit; /* the compiled model's largest size in bytes, <= 0: no limit */
} tnFiles;

/* Set up from load options (NULL: no VFS, no root, no limit). Returns 1, or 0 with a reason
 * (the root does not exist). Free with tn__filesFree. */
int tn__filesInit(tnFiles* fs, const tnLoadOptions* opt, char* why, int whysz);
void tn__filesFree(tnFiles* fs);

/* Read the file a path names (at most maxsize bytes) into a malloc'ed, NUL-terminated
 * buffer, as tn__readFile does. Returns 1, or 0 with a reason in why: a VFS-only load names
 * the VFS, a rooted load gives one reason for a missing file and for a file outside the root
 * (so the message tells nothing about files outside). */
int tn__filesRead(tnFiles* fs, const char* path, long long maxsize, unsigned char** data,
                  size_t* size, char* why, int whysz);

/* 1 when tn__filesRead could open the file (a VFS file, or a regular file it may read) */
int tn__filesHas(const tnFiles* fs, const char* path);

/* 1 when the path is read from disk (not from the VFS) and the load may look at it there:
 * callers may then canonicalize it with realpath */
int tn__filesOnDisk(const tnFiles* fs, const char* path);

#endif /* TORSION_FILE_SOURCE_H */
