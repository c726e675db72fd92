/* util/file_read.h — internal: reading a whole file into memory, bounded, for the MJCF
 * reader (model and included files) and the asset loaders (meshes, height fields, skins). */
#ifndef TORSION_FILE_READ_H
#define TORSION_FILE_READ_H

#include <stddef.h>

/* Read the file at path into a malloc'ed buffer followed by one NUL byte (not counted in
 * *size). Files longer than maxsize bytes are refused. Returns 1, or 0 with a one-line
 * reason in why ("cannot open file: ...", "file too large", ...). A device or pipe whose
 * size cannot be told reads as empty. */
int tn__readFile(const char* path, long long maxsize, unsigned char** data, size_t* size, char* why,
                 int whysz);

#endif /* TORSION_FILE_READ_H */
