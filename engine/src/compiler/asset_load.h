/* compiler/asset_load.h — internal: reading asset files other than meshes (height field
 * images and binaries, skin binaries) into plain arrays (hfield_load.c, skin_load.c;
 * asset_file.c reads files).
 *
 * Every loader returns 1 on success and 0 with a one-line reason in `why` (the caller adds
 * the element, attribute and file). Output arrays are malloc'ed and owned by the caller. */
#ifndef TORSION_ASSET_LOAD_H
#define TORSION_ASSET_LOAD_H

#include <stddef.h>

#include "util/file_source.h"

/* the whole file in a malloc'ed buffer, read under the load's rules (`files`: VFS first, then
 * the disk where allowed; NULL: anywhere on disk) */
int tn__assetReadFile(tnFiles* files, const char* path, unsigned char** data, size_t* size,
                      char* why, int whysz);

/* true when `path` ends with `ext` (".png"), ignoring case */
int tn__assetHasExtension(const char* path, const char* ext);

/* A height field file: PNG (by content_type "image/png", else a ".png" name) or MuJoCo's
 * binary format ("image/vnd.mujoco.hfield", else any other name: int32 nrow, int32 ncol,
 * then nrow*ncol float32 values, row by row). PNG samples are the red (or gray) channel at
 * 8 bits, rows flipped so that the image's bottom row comes first, as MuJoCo reads them;
 * binary rows are kept in file order. Values are not normalized. */
int tn__hfieldLoad(tnFiles* files, const char* path, const char* content_type, int* nrow, int* ncol,
                   float** data, char* why, int whysz);

/* one bone of a skin file */
typedef struct tnSkinBoneData_ {
  char body[41]; /* body name (at most 40 characters in the file) */
  float bindpos[3];
  float bindquat[4];
  int nvert;
  int* vertid;
  float* vertweight;
} tnSkinBoneData;

/* the content of a skin file (all arrays malloc'ed; free with tn__skinDataFree) */
typedef struct tnSkinData_ {
  int nvert, ntexcoord, nface, nbone;
  float* vert;     /* 3 * nvert */
  float* texcoord; /* 2 * ntexcoord */
  int* face;       /* 3 * nface */
  tnSkinBoneData* bones;
} tnSkinData;

/* A MuJoCo skin file (.skn): int32 nvert, ntexcoord, nface, nbone; float32 vertices
 * (3 each), texture coordinates (2 each); int32 faces (3 each); then per bone a 40-byte body
 * name, float32 bindpos[3], bindquat[4], int32 vertex count, int32 vertex ids and float32
 * weights. The file must hold exactly that many bytes. */
int tn__skinLoad(tnFiles* files, const char* path, tnSkinData* out, char* why, int whysz);

/* free the arrays of a loaded (or partly loaded) skin file and zero it */
void tn__skinDataFree(tnSkinData* skin);

#endif /* TORSION_ASSET_LOAD_H */
