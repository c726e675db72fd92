/* compiler/compile_skin.c — skins: .skn files loaded before sizes are computed, then the
 * skin_* arrays of the model.
 *
 * As MuJoCo compiles a skin: bones name bodies, the material is optional; every vertex
 * needs a positive total weight over the bones, and each bone's weights are divided by
 * their vertex's total (float arithmetic); bind quaternions are normalized in double
 * precision (left as given when their norm is below mjMINVAL). Faces are stored as given. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/asset_load.h"
#include "compiler/compile_internal.h"

/* a copy of n elements of `size` bytes in the spec's pool (NULL on OOM) */
static void* pool_copy(tnCompiler* c, const void* src, size_t n, size_t size) {
  void* dst = tn__poolAlloc(&c->spec->pool, size * (n ? n : 1));
  if (dst && n) {
    memcpy(dst, src, size * n);
  }
  return dst;
}

/* one skin file into its spec skin (data into the pool, bones appended) */
static int load_skin_file(tnCompiler* c, tnSpecSkin* sk, const tnSkinData* d) {
  sk->nvert = d->nvert;
  sk->ntexcoord = d->ntexcoord;
  sk->nface = d->nface;
  sk->vert = pool_copy(c, d->vert, 3 * (size_t)d->nvert, sizeof(float));
  sk->texcoord = pool_copy(c, d->texcoord, 2 * (size_t)d->ntexcoord, sizeof(float));
  sk->face = pool_copy(c, d->face, 3 * (size_t)d->nface, sizeof(int));
  if (!sk->vert || !sk->texcoord || !sk->face) {
    return 0;
  }
  sk->boneadr = c->spec->skinbones.n;
  sk->nbone = d->nbone;
  for (int i = 0; i < d->nbone; i++) {
    const tnSkinBoneData* src = &d->bones[i];
    tnSpecSkinBone* b = tn__vecPush(&c->spec->skinbones, sizeof(tnSpecSkinBone));
    if (!b) {
      return 0;
    }
    b->body = tn__poolStrdup(&c->spec->pool, src->body);
    memcpy(b->bindpos, src->bindpos, sizeof(b->bindpos));
    memcpy(b->bindquat, src->bindquat, sizeof(b->bindquat));
    b->nvert = src->nvert;
    b->vertid = pool_copy(c, src->vertid, (size_t)src->nvert, sizeof(int));
    b->vertweight = pool_copy(c, src->vertweight, (size_t)src->nvert, sizeof(float));
    b->src = sk->src;
    if (!b->body || !b->vertid || !b->vertweight) {
      return 0;
    }
  }
  return 1;
}

/* skin files: loaded before sizes are computed */
int tn__compileSkinFiles(tnCompiler* c) {
  for (int i = 0; i < c->spec->skins.n; i++) {
    tnSpecSkin* sk = TN_AT(c->spec->skins, tnSpecSkin, i);
    if (!sk->path) {
      continue;
    }
    char why[300] = "";
    tnSkinData d;
    if (!tn__skinLoad(c->spec->files, sk->path, &d, why, sizeof(why))) {
      return tn__compileFail(c, sk->src, "file", "skin '%s', file '%s': %s",
                             sk->name ? sk->name : "", sk->path, why);
    }
    int ok = load_skin_file(c, sk, &d);
    tn__skinDataFree(&d);
    if (!ok) {
      return tn__compileFail(c, sk->src, "file", "out of memory");
    }
  }
  return 1;
}

/* the skin sizes of the model */
int tn__compileSkinSizes(tnCompiler* c, mjModel* sz) {
  long long vert = 0, tex = 0, face = 0, bonevert = 0;
  for (int i = 0; i < c->spec->skins.n; i++) {
    const tnSpecSkin* sk = TN_AT(c->spec->skins, tnSpecSkin, i);
    vert += sk->nvert;
    tex += sk->ntexcoord;
    face += sk->nface;
  }
  for (int i = 0; i < c->spec->skinbones.n; i++) {
    bonevert += TN_AT(c->spec->skinbones, tnSpecSkinBone, i)->nvert;
  }
  if (vert > 0x7fffffff / 3 || face > 0x7fffffff / 3 || bonevert > 0x7fffffff) {
    return tn__compileFail(c, NULL, NULL, "model too large (skin data)");
  }
  sz->nskin = c->spec->skins.n;
  sz->nskinvert = (int)vert;
  sz->nskintexvert = (int)tex;
  sz->nskinface = (int)face;
  sz->nskinbone = c->spec->skinbones.n;
  sz->nskinbonevert = (int)bonevert;
  return 1;
}

/* normalize a float quaternion as MuJoCo does: in double precision, rounded back to float
 * (unchanged when its norm is below mjMINVAL) */
static void normalize_quat(float q[4]) {
  double norm = 0;
  for (int k = 0; k < 4; k++) {
    norm += (double)q[k] * (double)q[k];
  }
  norm = sqrt(norm);
  if (norm < mjMINVAL) {
    return;
  }
  for (int k = 0; k < 4; k++) {
    q[k] = (float)((double)q[k] / norm);
  }
}

/* the bones of skin i: bodies, bind poses, normalized vertex weights */
static int compile_bones(tnCompiler* c, int i, int* bone, int* bonevert) {
  mjModel* m = c->m;
  const tnSpecSkin* sk = TN_AT(c->spec->skins, tnSpecSkin, i);

  // total weight per vertex over all bones
  float* total = calloc((size_t)(sk->nvert ? sk->nvert : 1), sizeof(float));
  if (!total) {
    return tn__compileFail(c, sk->src, NULL, "out of memory");
  }
  for (int b = 0; b < sk->nbone; b++) {
    const tnSpecSkinBone* sb = TN_AT(c->spec->skinbones, tnSpecSkinBone, sk->boneadr + b);
    for (int j = 0; j < sb->nvert; j++) {
      int v = sb->vertid[j];
      if (v < 0 || v >= sk->nvert) {
        free(total);
        return tn__compileFail(c, sb->src, "vertid", "vertid %d out of range in skin", v);
      }
      total[v] += sb->vertweight[j];
    }
  }
  for (int v = 0; v < sk->nvert; v++) {
    if (total[v] <= (float)mjMINVAL) {
      free(total);
      return tn__compileFail(c, sk->src, NULL, "vertex %d must have positive total weight in skin",
                             v);
    }
  }

  // bones in order, each with its vertices
  for (int b = 0; b < sk->nbone; b++, (*bone)++) {
    const tnSpecSkinBone* sb = TN_AT(c->spec->skinbones, tnSpecSkinBone, sk->boneadr + b);
    int body = tn__compileFind(c, mjOBJ_BODY, sb->body);
    if (body < 0) {
      free(total);
      return tn__compileFail(c, sb->src, "body", "unknown body '%s' in skin", sb->body);
    }
    int k = *bone;
    m->skin_bonebodyid[k] = body;
    memcpy(m->skin_bonebindpos + 3 * k, sb->bindpos, sizeof(sb->bindpos));
    memcpy(m->skin_bonebindquat + 4 * k, sb->bindquat, sizeof(sb->bindquat));
    normalize_quat(m->skin_bonebindquat + 4 * k);
    m->skin_bonevertadr[k] = *bonevert;
    m->skin_bonevertnum[k] = sb->nvert;
    for (int j = 0; j < sb->nvert; j++, (*bonevert)++) {
      m->skin_bonevertid[*bonevert] = sb->vertid[j];
      m->skin_bonevertweight[*bonevert] = sb->vertweight[j] / total[sb->vertid[j]];
    }
  }
  free(total);
  return 1;
}

/* the skin_* arrays */
int tn__compileSkins(tnCompiler* c) {
  mjModel* m = c->m;
  int vert = 0, tex = 0, face = 0, bone = 0, bonevert = 0;
  for (int i = 0; i < m->nskin; i++) {
    const tnSpecSkin* sk = TN_AT(c->spec->skins, tnSpecSkin, i);
    m->skin_matid[i] = -1;
    if (sk->material && sk->material[0]) {
      m->skin_matid[i] = tn__compileRequire(c, mjOBJ_MATERIAL, sk->material, sk->src, "material");
      if (m->skin_matid[i] < 0) {
        return 0;
      }
    }
    m->skin_group[i] = sk->group;
    memcpy(m->skin_rgba + 4 * i, sk->rgba, sizeof(sk->rgba));
    m->skin_inflate[i] = sk->inflate;

    // vertices, texture coordinates, faces
    m->skin_vertadr[i] = vert;
    m->skin_vertnum[i] = sk->nvert;
    memcpy(m->skin_vert + 3 * vert, sk->vert, sizeof(float) * 3 * (size_t)sk->nvert);
    vert += sk->nvert;
    m->skin_texcoordadr[i] = sk->ntexcoord ? tex : -1;
    if (sk->ntexcoord) {
      memcpy(m->skin_texcoord + 2 * tex, sk->texcoord, sizeof(float) * 2 * (size_t)sk->ntexcoord);
      tex += sk->ntexcoord;
    }
    m->skin_faceadr[i] = face;
    m->skin_facenum[i] = sk->nface;
    memcpy(m->skin_face + 3 * face, sk->face, sizeof(int) * 3 * (size_t)sk->nface);
    face += sk->nface;

    // bones
    m->skin_boneadr[i] = bone;
    m->skin_bonenum[i] = sk->nbone;
    if (!compile_bones(c, i, &bone, &bonevert)) {
      return 0;
    }
  }
  return 1;
}
