/* clients/cli/npy.c — minimal .npy reader/writer (format version 1.0 and 2.0 headers). */
#include "npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* parse the shape tuple "(a, b, c)" following "'shape':" */
static int parse_shape(const char* hdr, npyData* out) {
  const char* p = strstr(hdr, "'shape'");
  p = p ? strchr(p, '(') : NULL;
  if (!p) {
    return -1;
  }
  p++;
  out->ndim = 0;
  out->n = 1;
  while (*p && *p != ')') {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')')
      break;
    char* end;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || out->ndim == 8) {
      return -1;
    }
    out->shape[out->ndim++] = (size_t)v;
    out->n *= (size_t)v;
    p = end;
  }
  return *p == ')' ? 0 : -1;
}

/* read */
int npy_load(const char* path, npyData* out, char* err, size_t errsz) {
  memset(out, 0, sizeof(*out));
  FILE* f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errsz, "%s: cannot open", path);
    return -1;
  }

  // magic, version, header length
  unsigned char pre[12];
  int rc = -1;
  char* hdr = NULL;
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6)) {
    snprintf(err, errsz, "%s: not a .npy file", path);
    goto done;
  }
  size_t hlen = pre[8] | (size_t)pre[9] << 8;
  if (pre[6] >= 2) {
    if (fread(pre + 10, 1, 2, f) != 2)
      goto done;
    hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  }
  hdr = malloc(hlen + 1);
  if (!hdr || fread(hdr, 1, hlen, f) != hlen) {
    snprintf(err, errsz, "%s: truncated header", path);
    goto done;
  }
  hdr[hlen] = '\0';

  // dtype, order and shape
  int f32 = strstr(hdr, "'<f4'") != NULL;
  if ((!strstr(hdr, "'<f8'") && !f32) || strstr(hdr, "True")) {
    snprintf(err, errsz, "%s: need a C-order little-endian float64 or float32 array", path);
    goto done;
  }
  if (parse_shape(hdr, out)) {
    snprintf(err, errsz, "%s: cannot parse the shape", path);
    goto done;
  }

  // data, widened from float32 when needed
  out->data = malloc(sizeof(double) * (out->n ? out->n : 1));
  if (!out->data) {
    snprintf(err, errsz, "%s: out of memory", path);
    goto done;
  }
  if (f32) {
    float* tmp = malloc(sizeof(float) * (out->n ? out->n : 1));
    if (!tmp || fread(tmp, sizeof(float), out->n, f) != out->n) {
      free(tmp);
      snprintf(err, errsz, "%s: truncated data", path);
      goto done;
    }
    for (size_t i = 0; i < out->n; i++) out->data[i] = tmp[i];
    free(tmp);
  } else if (fread(out->data, sizeof(double), out->n, f) != out->n) {
    snprintf(err, errsz, "%s: truncated data", path);
    goto done;
  }
  rc = 0;

done:
  free(hdr);
  fclose(f);
  if (rc) {
    npy_release(out);
  }
  return rc;
}

/* free an array read by npy_load */
void npy_release(npyData* a) {
  free(a->data);
  memset(a, 0, sizeof(*a));
}

/* write with a version 1.0 header padded to a multiple of 64 bytes */
int npy_save(const char* path, const void* data, int f32, int ndim, const size_t* shape, char* err,
             size_t errsz) {
  char dict[512], shp[256] = "";
  size_t n = 1, k = 0;
  for (int i = 0; i < ndim; i++) {
    k += (size_t)snprintf(shp + k, sizeof(shp) - k, "%zu%s", shape[i],
                          ndim == 1 ? "," : (i + 1 < ndim ? ", " : ""));
    n *= shape[i];
  }
  int len = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                     f32 ? "<f4" : "<f8", shp);
  int total = 10 + len + 1;
  int pad = (64 - total % 64) % 64;
  FILE* f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errsz, "%s: cannot create", path);
    return -1;
  }
  unsigned hl = (unsigned)(len + pad + 1);
  unsigned char pre[10] = {
      0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
  fwrite(pre, 1, 10, f);
  fwrite(dict, 1, (size_t)len, f);
  for (int i = 0; i < pad; i++) fputc(' ', f);
  fputc('\n', f);
  size_t wrote = fwrite(data, f32 ? 4 : 8, n, f);
  if (fclose(f) != 0 || wrote != n) {
    snprintf(err, errsz, "%s: write failed", path);
    return -1;
  }
  return 0;
}
