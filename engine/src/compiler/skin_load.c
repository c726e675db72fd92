/* compiler/skin_load.c — MuJoCo's binary skin format (.skn).
 *
 * Layout (native little-endian 32-bit values): nvert, ntexcoord, nface, nbone; the vertex
 * positions, texture coordinates and face indices; then, per bone, its body name in 40
 * bytes, bind position, bind quaternion, vertex count, vertex ids and vertex weights. Any
 * size that does not match the file exactly is an error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/asset_load.h"

/* a cursor over the file's bytes */
typedef struct tnSkinCursor_ {
  const unsigned char* data;
  size_t size;
  size_t pos;
} tnSkinCursor;

/* copy n 4-byte values into a new malloc'ed array (NULL when past the end or OOM) */
static void* take(tnSkinCursor* c, long long n) {
  if (n < 0 || (size_t)n > (c->size - c->pos) / 4) {
    return NULL;
  }
  void* out = malloc(4 * (size_t)(n ? n : 1));
  if (out) {
    memcpy(out, c->data + c->pos, 4 * (size_t)n);
    c->pos += 4 * (size_t)n;
  }
  return out;
}

/* copy n bytes into dst (0 when past the end) */
static int take_bytes(tnSkinCursor* c, void* dst, size_t n) {
  if (n > c->size - c->pos) {
    return 0;
  }
  memcpy(dst, c->data + c->pos, n);
  c->pos += n;
  return 1;
}

/* bytes of a bone without its vertices: name, bindpos, bindquat, vertex count */
#define TN_SKIN_BONE_HEAD (40 + 3 * 4 + 4 * 4 + 4)

/* the bones */
static int read_bones(tnSkinCursor* c, tnSkinData* out, char* why, int whysz) {
  if ((size_t)out->nbone > (c->size - c->pos) / TN_SKIN_BONE_HEAD) {
    snprintf(why, (size_t)whysz, "file is truncated (%d bones announced)", out->nbone);
    return 0;
  }
  out->bones = calloc((size_t)(out->nbone ? out->nbone : 1), sizeof(tnSkinBoneData));
  if (!out->bones) {
    snprintf(why, (size_t)whysz, "out of memory");
    return 0;
  }
  for (int i = 0; i < out->nbone; i++) {
    tnSkinBoneData* b = &out->bones[i];
    int32_t n = 0;
    if (!take_bytes(c, b->body, 40) || !take_bytes(c, b->bindpos, sizeof(b->bindpos)) ||
        !take_bytes(c, b->bindquat, sizeof(b->bindquat)) || !take_bytes(c, &n, sizeof(n))) {
      snprintf(why, (size_t)whysz, "file is truncated (bone %d)", i);
      return 0;
    }
    b->body[40] = 0;
    if (n < 1) {
      snprintf(why, (size_t)whysz, "bone %d has no vertices", i);
      return 0;
    }
    b->nvert = n;
    b->vertid = take(c, n);
    b->vertweight = b->vertid ? take(c, n) : NULL;
    if (!b->vertweight) {
      snprintf(why, (size_t)whysz, "file is truncated (bone %d)", i);
      return 0;
    }
  }
  return 1;
}

/* parse a whole file */
static int parse(const unsigned char* bytes, size_t size, tnSkinData* out, char* why, int whysz) {
  tnSkinCursor c = {bytes, size, 0};
  int32_t head[4];
  if (!take_bytes(&c, head, sizeof(head))) {
    snprintf(why, (size_t)whysz, "file is too small for a skin header");
    return 0;
  }
  if (head[0] < 1 || head[1] < 0 || head[2] < 1 || head[3] < 1) {
    snprintf(why, (size_t)whysz, "invalid sizes in skin header (%d vertices, %d texcoords, "
             "%d faces, %d bones)", head[0], head[1], head[2], head[3]);
    return 0;
  }
  if (head[1] && head[1] != head[0]) {
    snprintf(why, (size_t)whysz, "vertex and texcoord data incompatible size");
    return 0;
  }
  out->nvert = head[0];
  out->ntexcoord = head[1];
  out->nface = head[2];
  out->nbone = head[3];
  out->vert = take(&c, 3LL * head[0]);
  out->texcoord = out->vert ? take(&c, 2LL * head[1]) : NULL;
  out->face = out->texcoord ? take(&c, 3LL * head[2]) : NULL;
  if (!out->face) {
    snprintf(why, (size_t)whysz, "file is truncated (vertex, texcoord or face data)");
    return 0;
  }
  if (!read_bones(&c, out, why, whysz)) {
    return 0;
  }
  if (c.pos != size) {
    snprintf(why, (size_t)whysz, "unexpected file size (%zu bytes, the data uses %zu)", size,
             c.pos);
    return 0;
  }
  return 1;
}

/* load a skin file */
int tn__skinLoad(tnFiles* files, const char* path, tnSkinData* out, char* why, int whysz) {
  memset(out, 0, sizeof(*out));
  unsigned char* bytes = NULL;
  size_t size = 0;
  if (!tn__assetReadFile(files, path, &bytes, &size, why, whysz)) {
    return 0;
  }
  int ok = parse(bytes, size, out, why, whysz);
  free(bytes);
  if (!ok) {
    tn__skinDataFree(out);
  }
  return ok;
}

/* free a skin file's arrays */
void tn__skinDataFree(tnSkinData* skin) {
  if (skin->bones) {
    for (int i = 0; i < skin->nbone; i++) {
      free(skin->bones[i].vertid);
      free(skin->bones[i].vertweight);
    }
  }
  free(skin->bones);
  free(skin->vert);
  free(skin->texcoord);
  free(skin->face);
  memset(skin, 0, sizeof(*skin));
}
