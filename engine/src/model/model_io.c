/* model/model_io.c — binary models (mj_saveModel, mj_loadModel, mj_loadModelBuffer,
 * mj_sizeModel) and the version functions.
 *
 * The format is Torsion's own (docs/model-format.md): a fixed header, every size field of
 * MJMODEL_INTS as int64, the raw mjOption and mjStatistic, then every array of
 * MJMODEL_POINTERS packed in table order. Writer and reader are generated from the same
 * tables, so a field added to mjxmacro.h is saved and loaded without further code; a hash
 * of the tables in the header makes a reader built from other tables refuse the file.
 * The reader trusts nothing: every length is checked against the bytes present before
 * anything is allocated, and a failure is reported with mju_warning and returns NULL. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_alloc.h"
#include "util/file_read.h"
#include "util/vfs.h"

/* the first bytes of every file, and the format version this code writes and reads */
static const char TN_MJB_MAGIC[8] = {'T', 'O', 'R', 'S', 'N', 'M', 'J', 'B'};
#define TN_MJB_VERSION 1u

/* written as a native uint32; read back differently on a machine of the other byte order */
#define TN_MJB_BYTEORDER 0x01020304u

/* header: magic, then 10 uint32 (version, byte order, 6 type sizes, nints, narrays), then
 * 2 uint64 (table hash, total bytes) */
#define TN_MJB_HEADER (8 + 10 * 4 + 2 * 8)

/* largest size field (arrays are indexed with int), and largest byte count (narena) */
#define TN_MJB_MAXSIZE ((int64_t)INT_MAX)
#define TN_MJB_MAXBYTES ((int64_t)1 << 48)

/* largest file mj_loadModel reads */
#define TN_MJB_MAXFILE ((long long)INT_MAX)

/* the size and array tables as one string, hashed into the header */
#define X_INT(name) #name ";"
#define X_ARR(type, name, rows, cols) #type " " #name " " #rows " " #cols ";"
static const char TN_MJB_TABLE[] = MJMODEL_INTS(X_INT) "|" MJMODEL_POINTERS(X_ARR);
#undef X_INT
#undef X_ARR

/* number of size fields and of arrays in the tables */
#define X_INT(name) +1
#define X_ARR(type, name, rows, cols) +1
enum { TN_MJB_NINTS = 0 MJMODEL_INTS(X_INT), TN_MJB_NARRAYS = 0 MJMODEL_POINTERS(X_ARR) };
#undef X_INT
#undef X_ARR

/* 64-bit FNV-1a of the tables */
static uint64_t table_hash(void) {
  uint64_t h = 14695981039346656037ull;
  for (const char* p = TN_MJB_TABLE; *p; p++) {
    h = (h ^ (unsigned char)*p) * 1099511628211ull;
  }
  return h;
}

/* ---- sizes ---------------------------------------------------------------------------- */

/* bytes of every array of a model with m's sizes, packed; 0 when a row or column count is
 * negative or a product or the sum overflows (*ok cleared) */
static uint64_t arrays_bytes(const mjModel* m, int* ok) {
  uint64_t total = 0;
  // MJ_M(n): a size as used in a column count
#define MJ_M(n) ((int64_t)m->n)
#define X(type, name, rows, cols)                                                 \
  {                                                                               \
    int64_t r = (int64_t)m->rows, c = (int64_t)(cols);                            \
    uint64_t n;                                                                   \
    if (r < 0 || c < 0 || __builtin_mul_overflow((uint64_t)r, (uint64_t)c, &n) || \
        __builtin_mul_overflow(n, (uint64_t)sizeof(type), &n) ||                  \
        __builtin_add_overflow(total, n, &total)) {                               \
      *ok = 0;                                                                    \
      return 0;                                                                   \
    }                                                                             \
  }
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  return total;
}

/* bytes before the arrays: header, sizes, options, statistics */
static uint64_t head_bytes(void) {
  return TN_MJB_HEADER + 8 * (uint64_t)TN_MJB_NINTS + sizeof(mjOption) + sizeof(mjStatistic);
}

/* bytes mj_saveModel writes for m (only m's size fields are read) */
mjtSize mj_sizeModel(const mjModel* m) {
  int ok = 1;
  uint64_t n = arrays_bytes(m, &ok);
  return ok ? (mjtSize)(head_bytes() + n) : 0;
}

/* ---- writing -------------------------------------------------------------------------- */

/* append n bytes at *p */
static void put(unsigned char** p, const void* src, size_t n) {
  if (n) {
    memcpy(*p, src, n);
    *p += n;
  }
}

/* append one uint32 / uint64 in native byte order */
static void put32(unsigned char** p, uint32_t v) {
  put(p, &v, 4);
}
static void put64(unsigned char** p, uint64_t v) {
  put(p, &v, 8);
}

/* the whole file into out (mj_sizeModel(m) bytes) */
static void write_model(const mjModel* m, unsigned char* out, uint64_t total) {
  unsigned char* p = out;

  // header
  put(&p, TN_MJB_MAGIC, sizeof(TN_MJB_MAGIC));
  put32(&p, TN_MJB_VERSION);
  put32(&p, TN_MJB_BYTEORDER);
  put32(&p, sizeof(mjtNum));
  put32(&p, sizeof(int));
  put32(&p, sizeof(float));
  put32(&p, sizeof(mjtSize));
  put32(&p, sizeof(mjOption));
  put32(&p, sizeof(mjStatistic));
  put32(&p, TN_MJB_NINTS);
  put32(&p, TN_MJB_NARRAYS);
  put64(&p, table_hash());
  put64(&p, total);

  // sizes, options, statistics
#define X(name) put64(&p, (uint64_t)(int64_t)m->name);
  MJMODEL_INTS(X)
#undef X
  put(&p, &m->opt, sizeof(mjOption));
  put(&p, &m->stat, sizeof(mjStatistic));

  // arrays in table order
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols) put(&p, m->name, sizeof(type) * (size_t)m->rows * (cols));
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
}

/* save m into buffer (when given, at least mj_sizeModel(m) bytes) or into filename */
void mj_saveModel(const mjModel* m, const char* filename, void* buffer, int buffer_sz) {
  if (!m) {
    mju_warning("mj_saveModel: no model");
    return;
  }
  mjtSize total = mj_sizeModel(m);
  if (total <= 0) {
    mju_warning("mj_saveModel: the model's sizes are invalid");
    return;
  }

  // into the caller's buffer
  if (buffer) {
    if (buffer_sz < 0 || (mjtSize)buffer_sz < total) {
      mju_warning("mj_saveModel: buffer of %d bytes is too small, the model needs %lld", buffer_sz,
                  (long long)total);
      return;
    }
    write_model(m, buffer, (uint64_t)total);
    return;
  }

  // into a file, through a temporary buffer
  if (!filename) {
    mju_warning("mj_saveModel: neither a file name nor a buffer given");
    return;
  }
  unsigned char* tmp = malloc((size_t)total);
  if (!tmp) {
    mju_warning("mj_saveModel: out of memory (%lld bytes)", (long long)total);
    return;
  }
  write_model(m, tmp, (uint64_t)total);
  FILE* f = fopen(filename, "wb");
  if (!f) {
    mju_warning("mj_saveModel: could not open file '%s'", filename);
    free(tmp);
    return;
  }
  size_t wrote = fwrite(tmp, 1, (size_t)total, f);
  int closed = fclose(f);
  free(tmp);
  if (wrote != (size_t)total || closed != 0) {
    mju_warning("mj_saveModel: could not write file '%s'", filename);
  }
}

/* ---- reading -------------------------------------------------------------------------- */

/* a cursor over the input; reads past the end are refused by the callers' length checks */
typedef struct tnMjbReader_ {
  const unsigned char* p;
  const unsigned char* end;
} tnMjbReader;

/* take n bytes into dst (1), or 0 when fewer remain */
static int take(tnMjbReader* r, void* dst, size_t n) {
  if ((size_t)(r->end - r->p) < n) {
    return 0;
  }
  if (n) {
    memcpy(dst, r->p, n);
    r->p += n;
  }
  return 1;
}

/* take one uint32 / uint64 in native byte order */
static uint32_t take32(tnMjbReader* r) {
  uint32_t v = 0;
  take(r, &v, 4);
  return v;
}
static uint64_t take64(tnMjbReader* r) {
  uint64_t v = 0;
  take(r, &v, 8);
  return v;
}

/* check the header; 1, or 0 after a warning */
static int check_header(tnMjbReader* r, uint64_t nbytes) {
  char magic[8];
  if (nbytes < TN_MJB_HEADER) {
    mju_warning("mj_loadModel: %llu bytes are too few for a model header",
                (unsigned long long)nbytes);
    return 0;
  }
  take(r, magic, sizeof(magic));
  if (memcmp(magic, TN_MJB_MAGIC, sizeof(magic)) != 0) {
    mju_warning(
        "mj_loadModel: not a Torsion binary model (bad magic; MuJoCo's MJB files are "
        "not readable, load the MJCF instead)");
    return 0;
  }
  uint32_t version = take32(r), order = take32(r);
  if (order != TN_MJB_BYTEORDER) {
    mju_warning("mj_loadModel: the model was written on a machine of another byte order");
    return 0;
  }
  if (version != TN_MJB_VERSION) {
    mju_warning("mj_loadModel: format version %u, this Torsion reads version %u", version,
                TN_MJB_VERSION);
    return 0;
  }

  // type sizes, then the tables
  uint32_t want[6] = {sizeof(mjtNum),  sizeof(int),      sizeof(float),
                      sizeof(mjtSize), sizeof(mjOption), sizeof(mjStatistic)};
  static const char* what[6] = {"mjtNum", "int", "float", "mjtSize", "mjOption", "mjStatistic"};
  for (int i = 0; i < 6; i++) {
    uint32_t got = take32(r);
    if (got != want[i]) {
      mju_warning("mj_loadModel: sizeof(%s) is %u in the file, %u here", what[i], got, want[i]);
      return 0;
    }
  }
  uint32_t nints = take32(r), narrays = take32(r);
  uint64_t hash = take64(r), total = take64(r);
  if (nints != TN_MJB_NINTS || narrays != TN_MJB_NARRAYS || hash != table_hash()) {
    mju_warning(
        "mj_loadModel: the file's field tables (%u sizes, %u arrays) differ from this "
        "Torsion's (%d sizes, %d arrays)",
        nints, narrays, TN_MJB_NINTS, TN_MJB_NARRAYS);
    return 0;
  }
  if (total != nbytes) {
    mju_warning("mj_loadModel: the header says %llu bytes, the input has %llu",
                (unsigned long long)total, (unsigned long long)nbytes);
    return 0;
  }
  return 1;
}

/* read and check the size fields into sizes; 1, or 0 after a warning */
static int read_sizes(tnMjbReader* r, mjModel* sizes) {
  if ((uint64_t)(r->end - r->p) < 8 * (uint64_t)TN_MJB_NINTS) {
    mju_warning("mj_loadModel: truncated in the size fields");
    return 0;
  }
  // njmax and nconmax may be -1 ("not set"); narena and nbuffer count bytes
#define X(name)                                                                               \
  {                                                                                           \
    int64_t v = (int64_t)take64(r);                                                           \
    int bytes = !strcmp(#name, "narena") || !strcmp(#name, "nbuffer");                        \
    int64_t lo = (!strcmp(#name, "njmax") || !strcmp(#name, "nconmax")) ? -1 : 0;             \
    if (v < lo || v > (bytes ? TN_MJB_MAXBYTES : TN_MJB_MAXSIZE)) {                           \
      mju_warning("mj_loadModel: size field %s = %lld is out of range", #name, (long long)v); \
      return 0;                                                                               \
    }                                                                                         \
    sizes->name = v;                                                                          \
  }
  MJMODEL_INTS(X)
#undef X
  return 1;
}

/* checks of contents that lookups by name rely on: name addresses inside the name buffer,
 * which ends with a NUL; 1, or 0 after a warning */
static int check_names(const mjModel* m) {
  if (m->nnames > 0 && m->names[m->nnames - 1] != 0) {
    mju_warning("mj_loadModel: the name buffer does not end with a NUL");
    return 0;
  }
#define MJ_M(n) ((int64_t)m->n)
#define X(type, name, rows, cols)                                                                  \
  if (!strncmp(#name, "name_", 5) && !strcmp(#type, "int") && (int64_t)(cols) == 1) {              \
    const int* adr = (const int*)(const void*)m->name;                                             \
    for (int64_t i = 0; i < (int64_t)m->rows; i++) {                                               \
      if (adr[i] < 0 || adr[i] >= m->nnames) {                                                     \
        mju_warning("mj_loadModel: %s[%lld] = %d is outside the name buffer", #name, (long long)i, \
                    adr[i]);                                                                       \
        return 0;                                                                                  \
      }                                                                                            \
    }                                                                                              \
  }
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  return 1;
}

/* a model from the bytes of a binary model (never trusts them) */
mjModel* mj_loadModelBuffer(const void* buffer, int buffer_sz) {
  if (!buffer || buffer_sz < 0) {
    mju_warning("mj_loadModel: no buffer");
    return NULL;
  }
  tnMjbReader r = {buffer, (const unsigned char*)buffer + buffer_sz};
  if (!check_header(&r, (uint64_t)buffer_sz)) {
    return NULL;
  }

  // sizes; the arrays they imply must be exactly what remains after options and statistics
  mjModel sizes;
  memset(&sizes, 0, sizeof(sizes));
  if (!read_sizes(&r, &sizes)) {
    return NULL;
  }
  int ok = 1;
  uint64_t need = arrays_bytes(&sizes, &ok);
  uint64_t left = (uint64_t)(r.end - r.p);
  if (!ok || left < sizeof(mjOption) + sizeof(mjStatistic) ||
      need != left - sizeof(mjOption) - sizeof(mjStatistic)) {
    mju_warning("mj_loadModel: the size fields imply %s bytes of arrays, the input holds %llu",
                ok ? "a different number of" : "an overflowing number of",
                (unsigned long long)left);
    return NULL;
  }

  // allocate, then options, statistics and arrays
  mjModel* m = tn__allocModel(&sizes);
  if (!m) {
    mju_warning("mj_loadModel: out of memory");
    return NULL;
  }
  take(&r, &m->opt, sizeof(mjOption));
  take(&r, &m->stat, sizeof(mjStatistic));
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols) take(&r, m->name, sizeof(type) * (size_t)m->rows * (cols));
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  if (!check_names(m)) {
    mj_deleteModel(m);
    return NULL;
  }
  return m;
}

/* a binary model from the VFS (when it holds filename) or from disk */
mjModel* mj_loadModel(const char* filename, const mjVFS* vfs) {
  if (!filename) {
    mju_warning("mj_loadModel: no file name");
    return NULL;
  }
  const unsigned char* vdata;
  size_t vsize;
  if (tn__vfsFind(vfs, filename, &vdata, &vsize)) {
    if (vsize > (size_t)INT_MAX) {
      mju_warning("mj_loadModel: '%s' is too large", filename);
      return NULL;
    }
    return mj_loadModelBuffer(vdata, (int)vsize);
  }
  unsigned char* data = NULL;
  size_t size = 0;
  char why[300] = "";
  if (!tn__readFile(filename, TN_MJB_MAXFILE, &data, &size, why, sizeof(why))) {
    mju_warning("mj_loadModel: '%s': %s", filename, why);
    return NULL;
  }
  mjModel* m = mj_loadModelBuffer(data, (int)size);
  free(data);
  return m;
}

/* ---- version -------------------------------------------------------------------------- */

/* MuJoCo's version number whose semantics Torsion follows (3.14.0 is 3014000) */
int mj_version(void) {
  return mjVERSION_HEADER;
}

/* that version as text */
const char* mj_versionString(void) {
  return "3.14.0";
}
