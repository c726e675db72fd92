/* compiler/asset_load.h — internal: reading asset files other than meshes (height field
 * images and binaries, skin binaries) into plain arrays.
 *
 * Every loader returns 1 on success and 0 with a one-line reason in `why` (the caller adds
 * the element, attribute and file). Output arrays are malloc'ed and owned by the caller. */
#ifndef TORSION_ASSET_LOAD_H
#define TORSION_ASSET_LOAD_H

#include <stddef.h>

/* the whole file in a malloc'ed buffer */
int tn_assetReadFile(const char* path, unsigned char** data, size_t* size, char* why, int whysz);

/* true when `path` ends with `ext` (".png"), ignoring case */
int tn_assetHasExtension(const char* path, const char* ext);

/* A height field file: PNG (by content_type "image/png", else a ".png" name) or MuJoCo's
 * binary format ("image/vnd.mujoco.hfield", else any other name: int32 nrow, int32 ncol,
 * then nrow*ncol float32 values, row by row). PNG samples are the red (or gray) channel at
 * 8 bits, rows flipped so that the image's bottom row comes first, as MuJoCo reads them;
 * binary rows are kept in file order. Values are not normalized. */
int tn_hfieldLoad(const char* path, const char* content_type, int* nrow, int* ncol,
                  float** data, char* why, int whysz);

#endif /* TORSION_ASSET_LOAD_H */
