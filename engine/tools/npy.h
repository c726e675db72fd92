/* tools/npy.h — reading and writing NumPy .npy files (format 1.0/2.0, little-endian
 * float64, C order), the array format of torsion-sim. */
#ifndef TORSION_NPY_H
#define TORSION_NPY_H

#include <stddef.h>

/* maximum number of dimensions handled */
#define NPY_MAXDIM 8

/* an array read from or written to a file */
typedef struct npyArray_ {
  int ndim;
  size_t shape[NPY_MAXDIM];
  double* data; /* owned; free with npy_free */
} npyArray;

/* number of elements */
size_t npy_count(const npyArray* a);

/* Read a float64 .npy file. Returns 0, or -1 with a one-line reason in err. */
int npy_read(const char* path, npyArray* out, char* err, size_t errsz);

/* Write `data` with the given shape as a float64 .npy (v1.0). Returns 0, or -1 with err. */
int npy_write(const char* path, const double* data, int ndim, const size_t* shape, char* err,
              size_t errsz);

/* free an array's data */
void npy_free(npyArray* a);

#endif /* TORSION_NPY_H */
