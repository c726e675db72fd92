/* common/npy.h — reading and writing NumPy .npy files, the array format of torsion-sim, the
 * torsion CLI and the examples.
 *
 * Read: little-endian float64 ('<f8') or float32 ('<f4', widened to float64), C order, format
 * versions 1.0, 2.0 and 3.0, at most NPY_MAXDIM dimensions of at most NPY_MAXLEN each. Any
 * other file is refused with a one-line reason naming the file. Write: float64 or float32,
 * C order, version 1.0 (2.0 when the header does not fit 1.0's 16-bit length). */
#ifndef TORSION_COMMON_NPY_H
#define TORSION_COMMON_NPY_H

#include <stddef.h>

/* maximum number of dimensions */
#define NPY_MAXDIM 8

/* largest accepted dimension: Torsion counts items and rows in int */
#define NPY_MAXLEN 2147483647

/* element types of a file */
typedef enum npyType_ {
  NPY_F64 = 0, /* '<f8' */
  NPY_F32 = 1, /* '<f4' */
} npyType;

/* an array read from a file; the data is float64 whatever the file holds */
typedef struct npyArray_ {
  int ndim;
  size_t shape[NPY_MAXDIM];
  size_t n;       /* number of elements: the product of the shape (1 for ndim 0) */
  npyType stored; /* the element type in the file */
  double* data;   /* owned, n elements (never NULL after a successful read); npy_free */
} npyArray;

/* Read an array. Returns 0, or -1 with "PATH: reason" in err and *out empty. */
int npy_read(const char* path, npyArray* out, char* err, size_t errsz);

/* Write the elements of `data` (double* for NPY_F64, float* for NPY_F32) with the given
 * shape. Returns 0, or -1 with "PATH: reason" in err. */
int npy_write(const char* path, const void* data, npyType type, int ndim, const size_t* shape,
              char* err, size_t errsz);

/* free an array's data and empty it (safe on an empty or zeroed array) */
void npy_free(npyArray* a);

#endif /* TORSION_COMMON_NPY_H */
