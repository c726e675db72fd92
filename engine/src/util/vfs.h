/* util/vfs.h — internal: looking files up in an mjVFS (the API itself is in torsion.h).
 *
 * As in MuJoCo 3.14, a reference finds a VFS file whose name equals the path as the loader
 * built it (directory prefixes included), else the first file added whose base name (after
 * the last '/' or '\\') equals the reference's base name, compared case-insensitively. */
#ifndef TORSION_VFS_H
#define TORSION_VFS_H

#include <stddef.h>

#include <torsion/torsion.h>

/* the file that `path` names in vfs (NULL vfs allowed): 1 with its bytes (owned by the VFS),
 * or 0 when the VFS holds no such file */
int tn__vfsFind(const mjVFS* vfs, const char* path, const unsigned char** data, size_t* size);

#endif /* TORSION_VFS_H */
