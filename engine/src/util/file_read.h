/* util/file_read.h — internal: reading a whole regular file into memory, bounded, for the
 * MJCF reader (model and included files), the asset loaders (meshes, height fields, skins)
 * and mj_addFileVFS. */
#ifndef TORSION_FILE_READ_H
#define TORSION_FILE_READ_H

#include <stddef.h>

/* Open path read-only (O_NONBLOCK|O_NOCTTY, so a FIFO or a terminal never blocks) and keep
 * it only when it is a regular file. Returns the descriptor, or -1 with a one-line reason in
 * why ("cannot open file: ...", "not a regular file"). */
int tn__openRegular(const char* path, char* why, int whysz);

/* Read the regular file open on fd into a malloc'ed buffer followed by one NUL byte (not
 * counted in *size) and close fd. Files longer than maxsize bytes are refused. Returns 1, or
 * 0 with a reason in why. */
int tn__readFd(int fd, long long maxsize, unsigned char** data, size_t* size, char* why, int whysz);

/* tn__openRegular, then tn__readFd. Devices, FIFOs, sockets and directories are refused. */
int tn__readFile(const char* path, long long maxsize, unsigned char** data, size_t* size, char* why,
                 int whysz);

#endif /* TORSION_FILE_READ_H */
