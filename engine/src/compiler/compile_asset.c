/* compiler/compile_asset.c — textures (dimensions only), materials, height fields (inline
 * or from files, see hfield_load.c), and
 * the explicit contact pairs and exclusions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/asset_load.h"
#include "compiler/compile_internal.h"

/* textures: type and dimensions; no pixel data is produced */
static int compile_textures(tnCompiler* c) {
  mjModel* m = c->m;
  for (int i = 0; i < m->ntex; i++) {
    const tnSpecTexture* t = TN_AT(c->spec->textures, tnSpecTexture, i);
    m->tex_type[i] = t->type;
    m->tex_width[i] = t->width;
    m->tex_height[i] = t->height;
    m->tex_nchannel[i] = t->nchannel;
    m->tex_adr[i] = 0;
  }
  return 1;
}

/* materials */
static int compile_materials(tnCompiler* c) {
  mjModel* m = c->m;
  for (int i = 0; i < m->nmat; i++) {
    const tnSpecMaterial* s = TN_AT(c->spec->materials, tnSpecMaterial, i);
    m->mat_texid[i] = -1;
    if (s->texture && s->texture[0]) {
      m->mat_texid[i] = tn__compileRequire(c, mjOBJ_TEXTURE, s->texture, s->src, "texture");
      if (m->mat_texid[i] < 0) {
        return 0;
      }
    }
    m->mat_texuniform[i] = (mjtByte)s->texuniform;
    memcpy(m->mat_texrepeat + 2 * i, s->texrepeat, sizeof(float) * 2);
    m->mat_emission[i] = s->emission;
    m->mat_specular[i] = s->specular;
    m->mat_shininess[i] = s->shininess;
    m->mat_reflectance[i] = s->reflectance;
    memcpy(m->mat_rgba + 4 * i, s->rgba, sizeof(float) * 4);
  }
  return 1;
}

/* height field files: loaded before sizes are computed, as they set nrow and ncol */
int tn__compileHFieldFiles(tnCompiler* c) {
  for (int i = 0; i < c->spec->hfields.n; i++) {
    tnSpecHField* h = TN_AT(c->spec->hfields, tnSpecHField, i);
    if (!h->path) {
      continue;
    }
    char why[300] = "";
    float* data = NULL;
    int nrow = 0, ncol = 0;
    if (!tn__hfieldLoad(c->spec->files, h->path, h->content_type, &nrow, &ncol, &data, why,
                        sizeof(why))) {
      return tn__compileFail(c, h->src, "file", "height field '%s', file '%s': %s",
                             h->name ? h->name : "", h->path, why);
    }
    size_t bytes = sizeof(float) * (size_t)nrow * (size_t)ncol;
    h->filedata = tn__poolAlloc(&c->spec->pool, bytes);
    if (h->filedata) {
      memcpy(h->filedata, data, bytes);
    }
    free(data);
    if (!h->filedata) {
      return tn__compileFail(c, h->src, "file", "out of memory");
    }
    h->nrow = nrow;
    h->ncol = ncol;
  }
  return 1;
}

/* height fields: values normalized to [0, 1] in float arithmetic as MuJoCo does; inline
 * elevation rows are stored bottom-up, file data is already in model order */
static int compile_hfields(tnCompiler* c) {
  mjModel* m = c->m;
  int adr = 0;
  for (int i = 0; i < m->nhfield; i++) {
    const tnSpecHField* h = TN_AT(c->spec->hfields, tnSpecHField, i);
    int n = h->nrow * h->ncol;
    mju_copy(m->hfield_size + 4 * i, h->size, 4);
    m->hfield_nrow[i] = h->nrow;
    m->hfield_ncol[i] = h->ncol;
    m->hfield_adr[i] = adr;
    float* dst = m->hfield_data + adr;
    adr += n;
    if (h->filedata) {
      memcpy(dst, h->filedata, sizeof(float) * (size_t)n);
    } else if (h->elevation) {
      for (int r = 0; r < h->nrow; r++) {
        for (int k = 0; k < h->ncol; k++) {
          dst[(h->nrow - 1 - r) * h->ncol + k] = (float)h->elevation[r * h->ncol + k];
        }
      }
    } else {
      continue;
    }

    // range, then (v - min) / range with a range of 1 when flat
    float lo = dst[0], hi = dst[0];
    for (int k = 0; k < n; k++) {
      lo = dst[k] < lo ? dst[k] : lo;
      hi = dst[k] > hi ? dst[k] : hi;
    }
    float range = hi - lo > (float)mjMINVAL ? hi - lo : 1.0f;
    for (int k = 0; k < n; k++) {
      dst[k] = (dst[k] - lo) / range;
    }
  }
  return 1;
}

int tn__compileAssets(tnCompiler* c) {
  return compile_textures(c) && compile_materials(c) && compile_hfields(c);
}

/* ---------------------------------------------------------------------------------------
 * contact pairs and exclusions
 * ------------------------------------------------------------------------------------- */

/* body-pair signature: (smaller body << 16) + larger body */
static int signature(int b1, int b2) {
  return b1 < b2 ? (b1 << 16) + b2 : (b2 << 16) + b1;
}

/* stable order of n signatures: order[k] = spec index, id[spec index] = k */
static int sort_signatures(tnCompiler* c, const int* sig, int n, int** order, int** id) {
  *order = malloc(sizeof(int) * (size_t)(n ? n : 1));
  *id = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!*order || !*id) {
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }

  // insertion sort keeps equal signatures in document order
  for (int k = 0; k < n; k++) {
    int j = k;
    while (j > 0 && sig[(*order)[j - 1]] > sig[k]) {
      (*order)[j] = (*order)[j - 1];
      j--;
    }
    (*order)[j] = k;
  }
  for (int k = 0; k < n; k++) {
    (*id)[(*order)[k]] = k;
  }
  return 1;
}

/* geoms of a pair, the one on the lower body first */
static int pair_geoms(tnCompiler* c, const tnSpecPair* p, int* g1, int* g2) {
  *g1 = tn__compileRequire(c, mjOBJ_GEOM, p->geom1, p->src, "geom1");
  *g2 = *g1 < 0 ? -1 : tn__compileRequire(c, mjOBJ_GEOM, p->geom2, p->src, "geom2");
  if (*g2 < 0) {
    return 0;
  }
  if (c->m->geom_bodyid[*g1] > c->m->geom_bodyid[*g2]) {
    int t = *g1;
    *g1 = *g2;
    *g2 = t;
  }
  return 1;
}

/* one explicit pair into slot i */
static int compile_pair(tnCompiler* c, int i, const tnSpecPair* p) {
  mjModel* m = c->m;
  int g1, g2;
  if (!pair_geoms(c, p, &g1, &g2)) {
    return 0;
  }
  if (p->condim != 1 && p->condim != 3 && p->condim != 4 && p->condim != 6) {
    return tn__compileFail(c, p->src, "condim", "must be 1, 3, 4 or 6");
  }
  m->pair_dim[i] = p->condim;
  m->pair_geom1[i] = g1;
  m->pair_geom2[i] = g2;
  m->pair_signature[i] = signature(m->geom_bodyid[g1], m->geom_bodyid[g2]);
  mju_copy(m->pair_solref + mjNREF * i, p->solref, mjNREF);
  mju_copy(m->pair_solreffriction + mjNREF * i, p->solreffriction, mjNREF);
  mju_copy(m->pair_solimp + mjNIMP * i, p->solimp, mjNIMP);
  m->pair_margin[i] = p->margin;
  m->pair_gap[i] = p->gap;
  mju_copy(m->pair_friction + 5 * i, p->friction, 5);
  return 1;
}

/* body signature of an exclusion (0 on error) */
static int exclude_signature(tnCompiler* c, const tnSpecExclude* e, int* sig) {
  int b1 = tn__compileRequire(c, mjOBJ_BODY, e->body1, e->src, "body1");
  int b2 = b1 < 0 ? -1 : tn__compileRequire(c, mjOBJ_BODY, e->body2, e->src, "body2");
  if (b2 < 0) {
    return 0;
  }
  *sig = signature(b1, b2);
  return 1;
}

/* pairs and excludes, each sorted by signature */
int tn__compileContacts(tnCompiler* c) {
  mjModel* m = c->m;
  const tnSpec* s = c->spec;
  int n = m->npair > m->nexclude ? m->npair : m->nexclude;
  int* sig = malloc(sizeof(int) * (size_t)(n ? n : 1));
  int ok = sig != NULL || tn__compileFail(c, NULL, NULL, "out of memory");

  // pairs
  for (int i = 0; ok && i < m->npair; i++) {
    int g1, g2;
    ok = pair_geoms(c, TN_AT(s->pairs, tnSpecPair, i), &g1, &g2);
    sig[i] = ok ? signature(m->geom_bodyid[g1], m->geom_bodyid[g2]) : 0;
  }
  ok = ok && sort_signatures(c, sig, m->npair, &c->pair_order, &c->pair_id);
  for (int k = 0; ok && k < m->npair; k++) {
    ok = compile_pair(c, k, TN_AT(s->pairs, tnSpecPair, c->pair_order[k]));
  }

  // excludes
  for (int i = 0; ok && i < m->nexclude; i++) {
    ok = exclude_signature(c, TN_AT(s->excludes, tnSpecExclude, i), sig + i);
  }
  ok = ok && sort_signatures(c, sig, m->nexclude, &c->exclude_order, &c->exclude_id);
  for (int k = 0; ok && k < m->nexclude; k++) {
    m->exclude_signature[k] = sig[c->exclude_order[k]];
  }
  free(sig);
  return ok;
}
