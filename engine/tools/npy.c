/* tools/npy.c — a small reader/writer for NumPy's .npy format.
 *
 * Only what torsion-sim needs: float64, little-endian, C order; versions 1.0 and 2.0 on
 * read, 1.0 on write. The header is a Python dict literal; we parse its three keys. */
#include "npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the file magic */
static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* product of the shape */
size_t npy_count(const npyArray* a) {
  size_t n = 1;
  for (int i = 0; i < a->ndim; i++) {
    n *= a->shape[i];
  }
  return n;
}

/* free data */
void npy_free(npyArray* a) {
  free(a->data);
  a->data = NULL;
  a->ndim = 0;
}

/* parse "(a, b, c)" after 'shape' in the header */
static int parse_shape(const char* hdr, npyArray* out) {
  const char* p = strstr(hdr, "'shape'");
  if (!p || !(p = strchr(p, '('))) {
    return -1;
  }
  p++;
  out->ndim = 0;
  while (*p && *p != ')') {
    while (*p == ' ' || *p == ',') {
      p++;
    }
    if (*p == ')') {
      break;
    }
    char* end;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || out->ndim >= NPY_MAXDIM) {
      return -1;
    }
    out->shape[out->ndim++] = (size_t)v;
    p = end;
  }
  return *p == ')' ? 0 : -1;
}

/* read an array */
int npy_read(const char* path, npyArray* out, char* err, size_t errsz) {
  memset(out, 0, sizeof(*out));
  FILE* f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errsz, "%s: cannot open", path);
    return -1;
  }

  // magic, version and header length
  unsigned char pre[8];
  if (fread(pre, 1, 8, f) != 8 || memcmp(pre, npy_magic, 6) != 0) {
    snprintf(err, errsz, "%s: not a .npy file", path);
    fclose(f);
    return -1;
  }
  size_t hlen;
  if (pre[6] == 1) {
    unsigned char l[2];
    if (fread(l, 1, 2, f) != 2) {
      goto truncated;
    }
    hlen = (size_t)l[0] | ((size_t)l[1] << 8);
  } else if (pre[6] == 2 || pre[6] == 3) {
    unsigned char l[4];
    if (fread(l, 1, 4, f) != 4) {
      goto truncated;
    }
    hlen = (size_t)l[0] | ((size_t)l[1] << 8) | ((size_t)l[2] << 16) | ((size_t)l[3] << 24);
  } else {
    snprintf(err, errsz, "%s: unsupported .npy version %d", path, pre[6]);
    fclose(f);
    return -1;
  }
  if (hlen > 65536) {
    snprintf(err, errsz, "%s: .npy header too long", path);
    fclose(f);
    return -1;
  }

  // header dict: dtype, order, shape
  char* hdr = calloc(hlen + 1, 1);
  if (!hdr || fread(hdr, 1, hlen, f) != hlen) {
    free(hdr);
    goto truncated;
  }
  int ok_descr = strstr(hdr, "'<f8'") != NULL || strstr(hdr, "'float64'") != NULL;
  int fortran = strstr(hdr, "'fortran_order': True") != NULL;
  int ok_shape = parse_shape(hdr, out) == 0;
  free(hdr);
  if (!ok_descr || fortran || !ok_shape) {
    snprintf(err, errsz, "%s: need a little-endian float64 C-order array%s", path,
             ok_shape ? "" : " (bad shape)");
    fclose(f);
    return -1;
  }

  // data
  size_t n = npy_count(out);
  if (n > ((size_t)1 << 34)) {
    snprintf(err, errsz, "%s: array too large", path);
    fclose(f);
    return -1;
  }

  // a seekable file must hold the elements the header announces: nothing is allocated
  // for data that is not there (a pipe is read as before)
  long here = ftell(f);
  if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
    long end = ftell(f);
    if (end < here || (size_t)(end - here) / sizeof(double) < n || fseek(f, here, SEEK_SET) != 0) {
      goto truncated;
    }
  }
  out->data = malloc(n ? n * sizeof(double) : sizeof(double));
  if (!out->data) {
    snprintf(err, errsz, "%s: out of memory", path);
    fclose(f);
    return -1;
  }
  if (fread(out->data, sizeof(double), n, f) != n) {
    npy_free(out);
    goto truncated;
  }
  fclose(f);
  return 0;

truncated:
  snprintf(err, errsz, "%s: truncated .npy file", path);
  fclose(f);
  return -1;
}

/* write an array */
int npy_write(const char* path, const double* data, int ndim, const size_t* shape, char* err,
              size_t errsz) {
  // header dict, padded with spaces so the data starts on a 64-byte boundary
  char dict[512];
  int len = snprintf(dict, sizeof(dict), "{'descr': '<f8', 'fortran_order': False, 'shape': (");
  size_t n = 1;
  for (int i = 0; i < ndim; i++) {
    len += snprintf(dict + len, sizeof(dict) - len, "%zu,%s", shape[i],
                    (i + 1 < ndim) ? " " : "");
    n *= shape[i];
  }
  len += snprintf(dict + len, sizeof(dict) - len, "), }");
  int total = 10 + len + 1;
  int pad = (64 - total % 64) % 64;
  memset(dict + len, ' ', pad);
  len += pad;
  dict[len++] = '\n';

  FILE* f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errsz, "%s: cannot create", path);
    return -1;
  }
  unsigned char pre[10];
  memcpy(pre, npy_magic, 6);
  pre[6] = 1;
  pre[7] = 0;
  pre[8] = (unsigned char)(len & 0xff);
  pre[9] = (unsigned char)(len >> 8);
  int ok = fwrite(pre, 1, 10, f) == 10 && fwrite(dict, 1, len, f) == (size_t)len &&
           fwrite(data, sizeof(double), n, f) == n;
  ok = (fclose(f) == 0) && ok;
  if (!ok) {
    snprintf(err, errsz, "%s: write failed", path);
    return -1;
  }
  return 0;
}
