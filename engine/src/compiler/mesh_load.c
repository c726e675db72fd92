/* compiler/mesh_load.c — reading mesh assets: binary and ASCII STL, MuJoCo's MSH, the
 * inline vertex/face lists, and the OBJ entry point (parser in mesh_obj.c).
 *
 * Every loader produces the same raw mesh: float-rounded vertex coordinates (MuJoCo keeps
 * user vertices in single precision) and triangles of vertex indices. STL triangles carry
 * their own corner coordinates, so identical corners are merged into one vertex in order
 * of first appearance, as MuJoCo does. The loaded mesh is then checked once: not empty,
 * finite coordinates, face indices in range. Errors name the asset and the file. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/asset_load.h"
#include "compiler/mesh_internal.h"

/* size of a binary STL header and of one triangle record */
#define STL_HEADER 80
#define STL_RECORD 50

/* size of an MSH header: vertex, normal, texcoord and face counts */
#define MSH_HEADER 16

/* ---------------------------------------------------------------------------------------
 * shared helpers
 * ------------------------------------------------------------------------------------- */

/* "mesh 'NAME' (file 'FILE'): message" into err; returns -1 */
int tn__meshError(char* err, int errsz, const char* name, const char* file, const char* fmt, ...) {
  if (!err || errsz <= 0) {
    return -1;
  }
  int len;
  if (file && file[0]) {
    len = snprintf(err, (size_t)errsz, "mesh '%s' (file '%s'): ", name ? name : "", file);
  } else {
    len = snprintf(err, (size_t)errsz, "mesh '%s': ", name ? name : "");
  }
  if (len >= 0 && len < errsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + len, (size_t)(errsz - len), fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* grow *arr to hold at least need elements (doubling) */
int tn__meshReserve(void** arr, int* cap, int need, size_t elsize) {
  if (need <= *cap) {
    return 0;
  }
  int ncap = *cap > 0 ? *cap : 16;
  while (ncap < need) {
    if (ncap > (1 << 29)) {
      return -1;
    }
    ncap *= 2;
  }
  void* p = realloc(*arr, (size_t)ncap * elsize);
  if (!p) {
    return -1;
  }
  *arr = p;
  *cap = ncap;
  return 0;
}

/* copy a string (NULL stays NULL) */
static char* mesh_strdup(const char* s) {
  if (!s) {
    return NULL;
  }
  size_t n = strlen(s) + 1;
  char* p = malloc(n);
  if (p) {
    memcpy(p, s, n);
  }
  return p;
}

/* release the arrays and zero the struct */
void tn__meshFree(tnMesh* mesh) {
  if (!mesh) {
    return;
  }
  free(mesh->name);
  free(mesh->file);
  free(mesh->vert);
  free(mesh->face);
  free(mesh->graph);
  tn__meshFreePolygons(mesh);
  memset(mesh, 0, sizeof(*mesh));
}

/* zero the mesh and record its name and file for messages */
static int mesh_begin(tnMesh* mesh, const char* name, const char* file, char* err, int errsz) {
  memset(mesh, 0, sizeof(*mesh));
  mesh->name = mesh_strdup(name ? name : "");
  mesh->file = mesh_strdup(file);
  if (!mesh->name || (file && !mesh->file)) {
    tn__meshFree(mesh);
    return tn__meshError(err, errsz, name, file, "out of memory");
  }
  return 0;
}

/* the checks every loaded mesh must pass: vertices present, finite, faces in range */
static int mesh_check(const tnMesh* mesh, char* err, int errsz) {
  const char *name = mesh->name, *file = mesh->file;
  if (mesh->nvert == 0) {
    return tn__meshError(err, errsz, name, file, "no vertices (empty mesh)");
  }

  // every coordinate finite
  for (int i = 0; i < mesh->nvert; i++) {
    for (int k = 0; k < 3; k++) {
      if (!isfinite(mesh->vert[3 * i + k])) {
        return tn__meshError(err, errsz, name, file, "vertex %d has a non-finite coordinate", i);
      }
    }
  }

  // every face index names an existing vertex
  for (int i = 0; i < 3 * mesh->nface; i++) {
    if (mesh->face[i] < 0 || mesh->face[i] >= mesh->nvert) {
      return tn__meshError(err, errsz, name, file,
                           "face %d uses vertex %d, which does not exist "
                           "(%d vertices)",
                           i / 3, mesh->face[i], mesh->nvert);
    }
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * formats and files
 * ------------------------------------------------------------------------------------- */

/* case-insensitive comparison of a string's end with a suffix */
static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  if (k > n) {
    return 0;
  }
  for (size_t i = 0; i < k; i++) {
    char a = s[n - k + i], b = suffix[i];
    if (a >= 'A' && a <= 'Z') {
      a = (char)(a - 'A' + 'a');
    }
    if (a != b) {
      return 0;
    }
  }
  return 1;
}

/* format from the content type, else from the extension */
tnMeshFormat tn__meshFormat(const char* filename, const char* content_type) {
  if (content_type && content_type[0]) {
    if (strcmp(content_type, "model/stl") == 0) {
      return TN_MESH_FORMAT_STL;
    }
    if (strcmp(content_type, "model/obj") == 0) {
      return TN_MESH_FORMAT_OBJ;
    }
    if (strcmp(content_type, "model/vnd.mujoco.msh") == 0) {
      return TN_MESH_FORMAT_MSH;
    }
    return TN_MESH_FORMAT_AUTO;
  }
  if (filename) {
    if (ends_with(filename, ".stl")) {
      return TN_MESH_FORMAT_STL;
    }
    if (ends_with(filename, ".obj")) {
      return TN_MESH_FORMAT_OBJ;
    }
    if (ends_with(filename, ".msh")) {
      return TN_MESH_FORMAT_MSH;
    }
  }
  return TN_MESH_FORMAT_AUTO;
}

/* ---------------------------------------------------------------------------------------
 * STL: corners merged into vertices through a hash of their float coordinates
 * ------------------------------------------------------------------------------------- */

/* the vertex-merging table: open addressing over vertex indices (-1 = empty) */
typedef struct corner_table_ {
  int* slot;
  unsigned mask;
} corner_table;

/* hash of three float coordinates' bit patterns */
static unsigned corner_hash(const float p[3]) {
  uint32_t h = 2166136261u;
  for (int k = 0; k < 3; k++) {
    uint32_t bits;
    memcpy(&bits, p + k, sizeof(bits));
    h = (h ^ bits) * 16777619u;
    h ^= h >> 15;
  }
  return h;
}

/* add one triangle corner: the index of an earlier vertex with the same bits (as MuJoCo
 * merges them: -0 and +0 stay apart), or a new vertex */
static int stl_corner(tnMesh* mesh, corner_table* tab, const float p[3]) {
  unsigned h = corner_hash(p) & tab->mask;
  while (tab->slot[h] >= 0) {
    const mjtNum* q = mesh->vert + 3 * tab->slot[h];
    float qf[3] = {(float)q[0], (float)q[1], (float)q[2]};
    if (memcmp(qf, p, sizeof(qf)) == 0) {
      return tab->slot[h];
    }
    h = (h + 1) & tab->mask;
  }
  int id = mesh->nvert++;
  tab->slot[h] = id;
  for (int k = 0; k < 3; k++) {
    mesh->vert[3 * id + k] = p[k];
  }
  return id;
}

/* build the mesh from ntri triangles of 9 floats each */
static int stl_build(tnMesh* mesh, const float* corners, int ntri, char* err, int errsz) {
  // room for the worst case: every corner a new vertex
  unsigned size = 16;
  while (size < 2u * 3u * (unsigned)ntri) {
    size *= 2;
  }
  corner_table tab = {malloc(size * sizeof(int)), size - 1};
  mesh->vert = malloc(sizeof(mjtNum) * 9 * (size_t)ntri);
  mesh->face = malloc(sizeof(int) * 3 * (size_t)ntri);
  if (!tab.slot || !mesh->vert || !mesh->face) {
    free(tab.slot);
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  for (unsigned i = 0; i < size; i++) {
    tab.slot[i] = -1;
  }

  // faces in file order, vertices in order of first appearance
  for (int t = 0; t < ntri; t++) {
    for (int c = 0; c < 3; c++) {
      mesh->face[3 * t + c] = stl_corner(mesh, &tab, corners + 9 * t + 3 * c);
    }
  }
  mesh->nface = ntri;
  free(tab.slot);
  return 0;
}

/* read a little-endian float / uint32 from bytes */
static float le_float(const unsigned char* b) {
  uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}
static uint32_t le_uint(const unsigned char* b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* binary STL: 80-byte header, triangle count, 50-byte records (normal, 3 corners, attr) */
static int stl_binary(tnMesh* mesh, const unsigned char* data, uint32_t ntri, char* err,
                      int errsz) {
  float* corners = malloc(sizeof(float) * 9 * (size_t)ntri);
  if (!corners) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  for (uint32_t t = 0; t < ntri; t++) {
    const unsigned char* rec = data + STL_HEADER + 4 + (size_t)STL_RECORD * t;
    for (int k = 0; k < 9; k++) {
      corners[9 * t + k] = le_float(rec + 12 + 4 * k);
    }
  }
  int r = stl_build(mesh, corners, (int)ntri, err, errsz);
  free(corners);
  return r;
}

/* skip whitespace; returns the next token's start and its length in *len */
static const char* next_token(const char* p, const char* end, size_t* len) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\f' ||
                     *p == '\v')) {
    p++;
  }
  const char* q = p;
  while (q < end && !(*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n' || *q == '\f' ||
                      *q == '\v')) {
    q++;
  }
  *len = (size_t)(q - p);
  return p;
}

/* does the token equal the keyword */
static int token_is(const char* tok, size_t len, const char* word) {
  return len == strlen(word) && strncmp(tok, word, len) == 0;
}

/* three coordinates after "vertex", each a complete number, as floats; the parse position
 * moves past them. Returns -1 when one is missing or malformed. */
static int ascii_coords(const char** p, const char* end, float out[3]) {
  char num[64];
  size_t len;
  for (int k = 0; k < 3; k++) {
    const char* t = next_token(*p, end, &len);
    if (len == 0 || len >= sizeof(num)) {
      return -1;
    }
    memcpy(num, t, len);
    num[len] = 0;
    char* stop = NULL;
    out[k] = strtof(num, &stop);
    if (*stop) {
      return -1;
    }
    *p = t + len;
  }
  return 0;
}

/* ASCII STL: "vertex x y z" triples grouped by facet; everything else is structure */
static int stl_ascii(tnMesh* mesh, const char* data, size_t size, char* err, int errsz) {
  const char *p = data, *end = data + size, *why = NULL;
  float* corners = NULL;
  int cap = 0, ncorner = 0, infacet = 0, facetcorners = 0;
  size_t len;

  // walk the tokens, collecting the corners of each facet
  for (const char* tok = next_token(p, end, &len); len && !why; tok = next_token(p, end, &len)) {
    p = tok + len;
    if (token_is(tok, len, "facet")) {
      infacet = 1;
      facetcorners = 0;
    } else if (token_is(tok, len, "endfacet")) {
      why = !infacet || facetcorners != 3 ? "a facet does not have 3 vertices" : NULL;
      infacet = 0;
    } else if (token_is(tok, len, "vertex")) {
      // a corner: inside a facet, with room, and three good numbers
      if (!infacet) {
        why = "vertex outside a facet";
      } else if (tn__meshReserve((void**)&corners, &cap, 3 * ncorner + 3, sizeof(float))) {
        why = "out of memory";
      } else if (ascii_coords(&p, end, corners + 3 * ncorner)) {
        why = "missing or malformed vertex coordinate";
      } else {
        ncorner++;
        facetcorners++;
      }
    }
  }

  // complete facets only
  if (!why && (infacet || ncorner == 0)) {
    why = ncorner ? "file ends inside a facet (truncated)" : "no facets";
  }
  int r = why ? tn__meshError(err, errsz, mesh->name, mesh->file,
                              "ASCII STL: %s (near vertex "
                              "%d)",
                              why, ncorner)
              : stl_build(mesh, corners, ncorner / 3, err, errsz);
  free(corners);
  return r;
}

/* does the text start (after blanks) with "solid" */
static int starts_with_solid(const char* data, size_t size) {
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) {
    i++;
  }
  return size - i >= 5 && strncmp(data + i, "solid", 5) == 0;
}

/* STL: binary when the size matches the triangle count, else ASCII when it says "solid" */
static int load_stl(tnMesh* mesh, const char* data, size_t size, char* err, int errsz) {
  const unsigned char* b = (const unsigned char*)data;
  uint32_t ntri = size >= STL_HEADER + 4 ? le_uint(b + STL_HEADER) : 0;
  if (size >= STL_HEADER + 4 &&
      (uint64_t)size == STL_HEADER + 4 + (uint64_t)STL_RECORD * ntri) {
    if (ntri == 0) {
      return tn__meshError(err, errsz, mesh->name, mesh->file, "binary STL has no triangles");
    }
    if (ntri > (1u << 26)) {
      return tn__meshError(err, errsz, mesh->name, mesh->file,
                           "binary STL has too many "
                           "triangles (%u)",
                           ntri);
    }
    return stl_binary(mesh, b, ntri, err, errsz);
  }
  if (starts_with_solid(data, size)) {
    return stl_ascii(mesh, data, size, err, errsz);
  }
  if (size < STL_HEADER + 4) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "binary STL is truncated (%zu "
                         "bytes, header needs %d)",
                         size, STL_HEADER + 4);
  }
  return tn__meshError(err, errsz, mesh->name, mesh->file,
                       "binary STL is truncated or corrupt "
                       "(%u triangles need %llu bytes, file has %zu)",
                       ntri, (unsigned long long)(STL_HEADER + 4 + (uint64_t)STL_RECORD * ntri),
                       size);
}

/* ---------------------------------------------------------------------------------------
 * MSH: counts (vertices, normals, texcoords, faces), then float and int arrays
 * ------------------------------------------------------------------------------------- */

static int load_msh(tnMesh* mesh, const char* data, size_t size, char* err, int errsz) {
  const unsigned char* b = (const unsigned char*)data;
  if (size < MSH_HEADER) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "MSH file is truncated");
  }
  int32_t cnt[4];
  for (int k = 0; k < 4; k++) {
    cnt[k] = (int32_t)le_uint(b + 4 * k);
  }
  if (cnt[0] < 1 || cnt[1] < 0 || cnt[2] < 0 || cnt[3] < 0 || cnt[0] > (1 << 26) ||
      cnt[1] > (1 << 26) || cnt[2] > (1 << 26) || cnt[3] > (1 << 26)) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "MSH header has invalid counts");
  }

  // the size must match the counts exactly
  uint64_t need = MSH_HEADER + 4 * (3 * (uint64_t)cnt[0] + 3 * (uint64_t)cnt[1] +
                                    2 * (uint64_t)cnt[2] + 3 * (uint64_t)cnt[3]);
  if (need != size) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "MSH size %zu does not match its "
                         "header (%llu bytes)",
                         size, (unsigned long long)need);
  }
  mesh->vert = malloc(sizeof(mjtNum) * 3 * (size_t)cnt[0]);
  mesh->face = malloc(sizeof(int) * (3 * (size_t)cnt[3] + 1));
  if (!mesh->vert || !mesh->face) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }

  // vertices first, faces after normals and texture coordinates
  const unsigned char* v = b + MSH_HEADER;
  for (int i = 0; i < 3 * cnt[0]; i++) {
    mesh->vert[i] = le_float(v + 4 * i);
  }
  const unsigned char* f = v + 4 * (3 * (size_t)cnt[0] + 3 * (size_t)cnt[1] + 2 * (size_t)cnt[2]);
  for (int i = 0; i < 3 * cnt[3]; i++) {
    mesh->face[i] = (int32_t)le_uint(f + 4 * i);
  }
  mesh->nvert = cnt[0];
  mesh->nface = cnt[3];
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * entry points
 * ------------------------------------------------------------------------------------- */

/* parse a file's contents */
int tn__meshLoadBuffer(tnMesh* mesh, const char* name, const char* filename, const void* data,
                       size_t size, tnMeshFormat format, char* err, int errsz) {
  if (mesh_begin(mesh, name, filename ? filename : "(memory)", err, errsz)) {
    return -1;
  }
  if (format == TN_MESH_FORMAT_AUTO) {
    format = tn__meshFormat(filename, NULL);
  }

  // a zero-terminated copy, so that text parsers cannot run past the end
  char* text = malloc(size + 1);
  if (!text) {
    tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
    tn__meshFree(mesh);
    return -1;
  }
  if (size) {
    memcpy(text, data, size);
  }
  text[size] = 0;

  // an empty file is never a mesh
  int r;
  if (!data || size == 0) {
    r = tn__meshError(err, errsz, mesh->name, mesh->file, "file is empty");
  } else if (format == TN_MESH_FORMAT_STL) {
    r = load_stl(mesh, text, size, err, errsz);
  } else if (format == TN_MESH_FORMAT_OBJ) {
    r = tn__meshParseOBJ(mesh, text, size, err, errsz);
  } else if (format == TN_MESH_FORMAT_MSH) {
    r = load_msh(mesh, text, size, err, errsz);
  } else {
    r = tn__meshError(err, errsz, mesh->name, mesh->file,
                      "unknown mesh format (expected .stl, "
                      ".obj or .msh, or a content_type)");
  }

  // the common checks
  free(text);
  if (r == 0) {
    r = mesh_check(mesh, err, errsz);
  }
  if (r) {
    tn__meshFree(mesh);
  }
  return r;
}

/* read the file, then parse it (read_file's buffer is already zero-terminated, but the
 * buffer entry point copies it anyway: simplicity over one copy) */
int tn__meshLoadFile(tnFiles* files, tnMesh* mesh, const char* name, const char* path,
                     tnMeshFormat format, char* err, int errsz) {
  unsigned char* data = NULL;
  size_t size = 0;
  char why[128];
  memset(mesh, 0, sizeof(*mesh));
  if (!path || !tn__assetReadFile(files, path, &data, &size, why, sizeof(why))) {
    return tn__meshError(err, errsz, name, path ? path : "", "%s", path ? why : "no file name");
  }
  int r = tn__meshLoadBuffer(mesh, name, path, (const char*)data, size, format, err, errsz);
  free(data);
  return r;
}

/* the inline vertex and face attributes */
int tn__meshFromLists(tnMesh* mesh, const char* name, const mjtNum* vert, int nvert,
                      const int* face, int nface, char* err, int errsz) {
  if (mesh_begin(mesh, name, NULL, err, errsz)) {
    return -1;
  }
  if (nvert < 0 || nface < 0 || (nvert > 0 && !vert) || (nface > 0 && !face)) {
    tn__meshFree(mesh);
    return tn__meshError(err, errsz, name, NULL, "invalid vertex or face list");
  }
  mesh->vert = malloc(sizeof(mjtNum) * (3 * (size_t)nvert + 1));
  mesh->face = malloc(sizeof(int) * (3 * (size_t)nface + 1));
  if (!mesh->vert || !mesh->face) {
    tn__meshFree(mesh);
    return tn__meshError(err, errsz, name, NULL, "out of memory");
  }

  // coordinates rounded to single precision, as MuJoCo stores user vertices
  for (int i = 0; i < 3 * nvert; i++) {
    mesh->vert[i] = (float)vert[i];
  }
  if (nface) {
    memcpy(mesh->face, face, sizeof(int) * 3 * (size_t)nface);
  }
  mesh->nvert = nvert;
  mesh->nface = nface;
  if (mesh_check(mesh, err, errsz)) {
    tn__meshFree(mesh);
    return -1;
  }
  return 0;
}
