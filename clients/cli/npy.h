/* clients/cli/npy.h — reading and writing NumPy .npy arrays (little-endian float64 and
 * float32, C order) for the torsion CLI. */
#ifndef TORSION_CLI_NPY_H
#define TORSION_CLI_NPY_H

#include <stddef.h>

/* an array read from a file: float64 data, C order */
typedef struct npyData_ {
  int ndim;
  size_t shape[8];
  double* data;
  size_t n;
} npyData;

/* read a float64 (or float32, widened) array; 0 or -1 with a message in err */
int npy_load(const char* path, npyData* out, char* err, size_t errsz);
void npy_release(npyData* a);

/* write n elements of float64 (f32 = 0) or float32 (f32 = 1) data with this shape */
int npy_save(const char* path, const void* data, int f32, int ndim, const size_t* shape, char* err,
             size_t errsz);

#endif /* TORSION_CLI_NPY_H */
