/* common/file_read.h — reading a whole file into memory, for the host programs (torsion-sim,
 * the torsion CLI and C client, the examples and benchmarks). */
#ifndef TORSION_HOST_FILE_READ_H
#define TORSION_HOST_FILE_READ_H

#include <stddef.h>

/* The file at path in a malloc'ed buffer followed by a NUL byte (not counted in *len, which
 * may be NULL); NULL when it cannot be opened or read. */
char* host_read_file(const char* path, size_t* len);

#endif /* TORSION_HOST_FILE_READ_H */
