/* xml/xml_elements_asset.c — <asset>: textures, materials, meshes, height fields and skins
 * (also the skins of <deformable>).
 *
 * Textures are kept for their type and dimensions only (Torsion does not render, so no
 * pixels are produced). Height fields hold elevation data given inline; without it they are
 * flat. Meshes keep their options and data source (a file path resolved here, like
 * MuJoCo: against compiler meshdir, else assetdir, relative to the model's directory; or
 * inline vertex/face lists); the compiler loads and processes them. Height field files are
 * resolved like mesh files and loaded by the compiler; so are skin (.skn) files. Skins are
 * kept in the model (not rendered) with their bones. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/mesh.h"

#include "xml/xml_reader.h"

static const tnKeyword texture_types[] = {
    {"2d", mjTEXTURE_2D}, {"cube", mjTEXTURE_CUBE}, {"skybox", mjTEXTURE_SKYBOX}, {NULL, 0}};

/* texture attributes that only affect pixels */
static const char* const texture_pixels[] = {"colorspace", "content_type", "file",    "gridlayout",
                                             "fileright",  "fileleft",     "fileup",  "filedown",
                                             "filefront",  "fileback",     "builtin", "mark",
                                             "hflip",      "vflip",        NULL};

/* shapes of the pixel attributes, as MuJoCo validates them (1/0) */
static int check_texture_values(tnReader* r, tnXmlNode* node) {
  float rgb[3];
  float random = 0;
  int grid[2];
  TN_TRY(tn__rdFloats(r, node, "rgb1", rgb, 3, 3));
  TN_TRY(tn__rdFloats(r, node, "rgb2", rgb, 3, 3));
  TN_TRY(tn__rdFloats(r, node, "markrgb", rgb, 3, 3));
  TN_TRY(tn__rdFloats(r, node, "random", &random, 1, 1));
  TN_TRY(tn__rdInts(r, node, "gridsize", grid, 2, 2));
  return 1;
}

static const char* name_from_file(tnReader* r, const char* file);

/* <texture> */
static int read_texture(tnReader* r, tnXmlNode* node) {
  tnSpecTexture* t = tn__vecPush(&r->spec->textures, sizeof(tnSpecTexture));
  if (!t) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  t->type = mjTEXTURE_CUBE;
  t->nchannel = 3;
  t->src = &node->pos;
  int builtin = tn__rdStr(node, "builtin") != NULL && strcmp(tn__rdStr(node, "builtin"), "none");
  for (int i = 0; texture_pixels[i]; i++) {
    tn__rdStr(node, texture_pixels[i]);
  }
  TN_OK(check_texture_values(r, node));
  TN_TRY(tn__rdName(r, node, "name", &t->name));
  TN_TRY(tn__rdKeyword(r, node, "type", texture_types, &t->type));

  // an unnamed texture loaded from a file is named after the file, as meshes are
  const char* file = tn__xmlAttr(node, "file");
  if (!t->name && file && file[0]) {
    t->name = name_from_file(r, file);
    if (!t->name) {
      return tn__rdFail(r, node, NULL, "out of memory") + 1;
    }
  }
  TN_TRY(tn__rdInts(r, node, "width", &t->width, 1, 1));
  TN_TRY(tn__rdInts(r, node, "height", &t->height, 1, 1));
  TN_TRY(tn__rdInts(r, node, "nchannel", &t->nchannel, 1, 1));

  // builtin textures need their dimensions; cube and skybox ones are six square faces
  if (builtin && t->width < 1) {
    return tn__rdFail(r, node, "width", "invalid width of builtin texture") + 1;
  }
  if (builtin && t->type == mjTEXTURE_2D && t->height < 1) {
    return tn__rdFail(r, node, "height", "invalid height of builtin texture") + 1;
  }
  if (builtin && t->type != mjTEXTURE_2D) {
    t->height = 6 * t->width;
  }
  if (!builtin) {
    t->width = t->height = 0;
  }
  return 1;
}

/* <material> */
static int read_material(tnReader* r, tnXmlNode* node) {
  int cls = tn__elementClass(r, node, 0);
  if (cls < 0) {
    return 0;
  }
  tnSpecMaterial m = TN_AT(r->spec->defaults, tnDefault, cls)->material;
  TN_OK(tn__readMaterialAttrs(r, node, &m));
  TN_TRY(tn__rdName(r, node, "name", &m.name));
  if (!m.name) {
    return tn__rdFail(r, node, "name", "materials must be named") + 1;
  }
  m.src = &node->pos;
  tnSpecMaterial* dst = tn__vecPush(&r->spec->materials, sizeof(tnSpecMaterial));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = m;
  return 1;
}

static const char* mesh_path(tnReader* r, const char* file);
static const char* name_from_file(tnReader* r, const char* file);

/* <hfield>: a file (loaded by the compiler; its dimensions replace nrow and ncol), else
 * nrow x ncol with optional inline elevation */
static int read_hfield(tnReader* r, tnXmlNode* node) {
  tnSpecHField* h = tn__vecPush(&r->spec->hfields, sizeof(tnSpecHField));
  if (!h) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  h->src = &node->pos;
  TN_TRY(tn__rdName(r, node, "content_type", &h->content_type));
  TN_TRY(tn__rdName(r, node, "file", &h->file));
  TN_TRY(tn__rdName(r, node, "name", &h->name));
  TN_TRY(tn__rdInts(r, node, "nrow", &h->nrow, 1, 1));
  TN_TRY(tn__rdInts(r, node, "ncol", &h->ncol, 1, 1));
  if (tn__rdNums(r, node, "size", h->size, 4, 4) <= 0) {
    return tn__rdFail(r, node, "size", "required: 4 positive numbers") + 1;
  }
  for (int i = 0; i < 4; i++) {
    if (h->size[i] <= 0) {
      return tn__rdFail(r, node, "size", "all 4 sizes must be positive") + 1;
    }
  }
  int got = tn__rdNumArray(r, node, "elevation", &h->elevation, &h->nelevation);
  TN_TRY(got);

  // a file provides the data (nrow, ncol and elevation are then unused, as in MuJoCo)
  if (h->file) {
    h->path = mesh_path(r, h->file);
    if (!h->path) {
      return tn__rdFail(r, node, "file", "out of memory") + 1;
    }
    if (!h->name) {
      h->name = name_from_file(r, h->file);
    }
    h->elevation = NULL;
    h->nelevation = 0;
    return 1;
  }
  if (h->nrow < 1 || h->ncol < 1 || h->nrow > 1 << 14 || h->ncol > 1 << 14) {
    return tn__rdFail(r, node, h->nrow < 1 || h->nrow > 1 << 14 ? "nrow" : "ncol",
                      "nrow and ncol must be in 1..16384") +
           1;
  }
  if (got && h->nelevation != h->nrow * h->ncol) {
    return tn__rdFail(r, node, "elevation", "needs nrow*ncol values") + 1;
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <mesh>
 * ------------------------------------------------------------------------------------- */

static const tnKeyword mesh_inertias[] = {{"convex", TN_MESH_INERTIA_CONVEX},
                                          {"exact", TN_MESH_INERTIA_EXACT},
                                          {"legacy", TN_MESH_INERTIA_LEGACY},
                                          {"shell", TN_MESH_INERTIA_SHELL},
                                          {NULL, 0}};

/* mesh attributes that only affect rendering: accepted, not kept */
static const char* const mesh_visual[] = {"normal", "texcoord", "smoothnormal", "material", NULL};

int tn__readMeshAttrs(tnReader* r, tnXmlNode* node, tnSpecMesh* m) {
  TN_TRY(tn__rdNums(r, node, "scale", m->scale, 3, 3));
  TN_TRY(tn__rdInts(r, node, "maxhullvert", &m->maxhullvert, 1, 1));
  TN_TRY(tn__rdKeyword(r, node, "inertia", mesh_inertias, &m->inertia));
  return 1;
}

/* true for an absolute path */
static int is_absolute(const char* path) {
  return path[0] == '/';
}

/* join a directory and a name into the pool ("" or NULL directory: the name itself) */
static const char* join_path(tnReader* r, const char* dir, const char* name) {
  if (!dir || !dir[0] || is_absolute(name)) {
    return tn__poolStrdup(&r->spec->pool, name);
  }
  size_t n = strlen(dir) + strlen(name) + 2;
  char* out = tn__poolAlloc(&r->spec->pool, n);
  if (out) {
    snprintf(out, n, "%s/%s", dir, name);
  }
  return out;
}

/* an asset file of an element read from an included file: MuJoCo opens `primary` (the
 * path against the model's directory) when it exists, else the file name as written
 * against the directory of the included file */
static const char* asset_path_fallback(tnReader* r, tnXmlNode* node, const char* primary,
                                       const char* file) {
  tnFiles* files = r->doc ? r->doc->files : NULL;
  if (!primary || tn__filesHas(files, primary) || is_absolute(file) || !node->pos.file) {
    return primary;
  }
  const char* slash = strrchr(node->pos.file, '/');
  const char* base = r->doc && r->doc->dir ? r->doc->dir : "";
  if (!slash || ((size_t)(slash - node->pos.file) == strlen(base) &&
                 strncmp(node->pos.file, base, strlen(base)) == 0)) {
    return primary;
  }
  size_t n = (size_t)(slash - node->pos.file) + strlen(file) + 2;
  char* local = tn__poolAlloc(&r->spec->pool, n);
  if (!local) {
    return NULL;
  }
  snprintf(local, n, "%.*s/%s", (int)(slash - node->pos.file), node->pos.file, file);
  return tn__filesHas(files, local) ? local : primary;
}

/* a mesh file's path: meshdir (else assetdir), relative to the model's directory unless
 * absolute, then the file itself unless absolute (strippath: its directories dropped) */
static const char* mesh_path(tnReader* r, const char* file) {
  const tnCompilerSettings* c = &r->spec->compiler;
  const char* dir = c->meshdir ? c->meshdir : c->assetdir;
  const char* base = r->doc && r->doc->dir ? r->doc->dir : "";
  const char* slash = strrchr(file, '/');
  if (c->strippath && slash) {
    file = slash + 1;
  }
  if (dir && !is_absolute(dir)) {
    dir = join_path(r, base, dir);
  } else if (!dir) {
    dir = base;
  }
  return dir ? join_path(r, dir, file) : NULL;
}

/* the asset name MuJoCo gives an unnamed mesh or texture: its file name without directory and
 * extension */
static const char* name_from_file(tnReader* r, const char* file) {
  const char* slash = strrchr(file, '/');
  char* name = tn__poolStrdup(&r->spec->pool, slash ? slash + 1 : file);
  char* dot = name ? strrchr(name, '.') : NULL;
  if (dot && dot != name) {
    *dot = 0;
  }
  return name;
}

/* face="..." as vertex indices (integers) */
static int read_faces(tnReader* r, tnXmlNode* node, tnSpecMesh* m) {
  mjtNum* v = NULL;
  int n = 0;
  int got = tn__rdNumArray(r, node, "face", &v, &n);
  if (got <= 0) {
    return got;
  }
  m->face = tn__poolAlloc(&r->spec->pool, sizeof(int) * (size_t)(n ? n : 1));
  if (!m->face) {
    return tn__rdFail(r, node, "face", "out of memory");
  }
  for (int i = 0; i < n; i++) {
    if (v[i] != floor(v[i]) || v[i] < 0 || v[i] > 2147483647.0) {
      return tn__rdFail(r, node, "face", "face indices must be non-negative integers");
    }
    m->face[i] = (int)v[i];
  }
  m->nface = n;
  return 1;
}

/* the data source: file (with content_type) or inline vertex/face lists */
static int read_mesh_source(tnReader* r, tnXmlNode* node, tnSpecMesh* m) {
  TN_TRY(tn__rdName(r, node, "file", &m->file));
  TN_TRY(tn__rdName(r, node, "content_type", &m->content_type));
  int got = tn__rdNumArray(r, node, "vertex", &m->vertex, &m->nvertex);
  TN_TRY(got);
  TN_TRY(read_faces(r, node, m));
  if (m->file && m->vertex) {
    return tn__rdFail(r, node, "vertex", "mesh cannot have both a file and vertex data") + 1;
  }
  if (!m->file && !m->vertex) {
    return tn__rdFail(r, node, NULL, "mesh needs a file or vertex data") + 1;
  }
  if (m->vertex && m->nvertex % 3) {
    return tn__rdFail(r, node, "vertex", "vertex data must be a multiple of 3") + 1;
  }
  if (m->face && m->nface % 3) {
    return tn__rdFail(r, node, "face", "face data must be a multiple of 3") + 1;
  }
  if (m->file && !(m->path = asset_path_fallback(r, node, mesh_path(r, m->file), m->file))) {
    return tn__rdFail(r, node, "file", "out of memory") + 1;
  }
  return 1;
}

/* <mesh> */
static int read_mesh(tnReader* r, tnXmlNode* node) {
  int cls = tn__elementClass(r, node, 0);
  if (cls < 0) {
    return 0;
  }
  tnSpecMesh m = TN_AT(r->spec->defaults, tnDefault, cls)->mesh;
  for (int i = 0; mesh_visual[i]; i++) {
    tn__rdStr(node, mesh_visual[i]);
  }
  TN_OK(tn__readMeshAttrs(r, node, &m));
  TN_TRY(tn__rdNums(r, node, "refpos", m.refpos, 3, 3));
  TN_TRY(tn__rdNums(r, node, "refquat", m.refquat, 4, 4));
  TN_OK(read_mesh_source(r, node, &m));
  TN_TRY(tn__rdName(r, node, "name", &m.name));
  if (!m.name && m.file) {
    m.name = name_from_file(r, m.file);
  }
  m.src = &node->pos;
  tnSpecMesh* dst = tn__vecPush(&r->spec->meshes, sizeof(tnSpecMesh));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = m;
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <skin> (asset or deformable): kept in the model, not rendered
 * ------------------------------------------------------------------------------------- */

/* a list of numbers as floats in pool memory (count in *n); >0 present, 0 absent, -1 error */
static int read_float_list(tnReader* r, tnXmlNode* node, const char* attr, float** out, int* n) {
  mjtNum* v = NULL;
  int got = tn__rdNumArray(r, node, attr, &v, n);
  if (got <= 0) {
    return got;
  }
  *out = tn__poolAlloc(&r->spec->pool, sizeof(float) * (size_t)(*n ? *n : 1));
  if (!*out) {
    return tn__rdFail(r, node, attr, "out of memory");
  }
  for (int i = 0; i < *n; i++) {
    (*out)[i] = (float)v[i];
  }
  return 1;
}

/* a list of non-negative integers in pool memory (count in *n) */
static int read_index_list(tnReader* r, tnXmlNode* node, const char* attr, int** out, int* n) {
  mjtNum* v = NULL;
  int got = tn__rdNumArray(r, node, attr, &v, n);
  if (got <= 0) {
    return got;
  }
  *out = tn__poolAlloc(&r->spec->pool, sizeof(int) * (size_t)(*n ? *n : 1));
  if (!*out) {
    return tn__rdFail(r, node, attr, "out of memory");
  }
  for (int i = 0; i < *n; i++) {
    if (v[i] != floor(v[i]) || v[i] < -2147483648.0 || v[i] > 2147483647.0) {
      return tn__rdFail(r, node, attr, "expected integers");
    }
    (*out)[i] = (int)v[i];
  }
  return 1;
}

/* <bone> of a skin: every attribute is required */
static int read_skin_bone(tnReader* r, tnXmlNode* node) {
  tnSpecSkinBone* b = tn__vecPush(&r->spec->skinbones, sizeof(tnSpecSkinBone));
  if (!b) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  b->src = &node->pos;
  int nweight = 0;
  TN_TRY(tn__rdName(r, node, "body", &b->body));
  if (!b->body) {
    return tn__rdFail(r, node, "body", "required attribute missing") + 1;
  }
  if (tn__rdFloats(r, node, "bindpos", b->bindpos, 3, 3) <= 0) {
    return tn__rdFail(r, node, "bindpos", "required attribute missing") + 1;
  }
  if (tn__rdFloats(r, node, "bindquat", b->bindquat, 4, 4) <= 0) {
    return tn__rdFail(r, node, "bindquat", "required attribute missing") + 1;
  }
  if (read_index_list(r, node, "vertid", &b->vertid, &b->nvert) <= 0) {
    return tn__rdFail(r, node, "vertid", "required attribute missing") + 1;
  }
  if (read_float_list(r, node, "vertweight", &b->vertweight, &nweight) <= 0) {
    return tn__rdFail(r, node, "vertweight", "required attribute missing") + 1;
  }
  if (nweight != b->nvert || nweight == 0) {
    return tn__rdFail(r, node, "vertweight",
                      "vertid and vertweight must have the same non-zero size") +
           1;
  }
  return 1;
}

/* <skin>: a .skn file or inline vertex/texcoord/face data with <bone> children */
static int read_skin(tnReader* r, tnXmlNode* node) {
  tnSpecSkin sk;
  memset(&sk, 0, sizeof(sk));
  sk.src = &node->pos;
  sk.rgba[0] = sk.rgba[1] = sk.rgba[2] = 0.5f;
  sk.rgba[3] = 1.0f;
  TN_TRY(tn__rdName(r, node, "name", &sk.name));
  TN_TRY(tn__rdName(r, node, "file", &sk.file));
  TN_TRY(tn__rdName(r, node, "material", &sk.material));
  TN_TRY(tn__rdFloats(r, node, "rgba", sk.rgba, 4, 4));
  TN_TRY(tn__rdFloats(r, node, "inflate", &sk.inflate, 1, 1));
  TN_TRY(tn__rdInts(r, node, "group", &sk.group, 1, 1));
  int nv = 0, nt = 0, nf = 0;
  TN_TRY(read_float_list(r, node, "vertex", &sk.vert, &nv));
  TN_TRY(read_float_list(r, node, "texcoord", &sk.texcoord, &nt));
  TN_TRY(read_index_list(r, node, "face", &sk.face, &nf));

  // bones follow the skin's own data
  sk.boneadr = r->spec->skinbones.n;
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    TN_OK(strcmp(c->name, "bone") == 0 ? read_skin_bone(r, c)
                                       : tn__rdFail(r, c, NULL, "not implemented yet") + 1);
  }
  sk.nbone = r->spec->skinbones.n - sk.boneadr;

  // a file, or complete inline data (MuJoCo's checks)
  if (sk.file) {
    if (nv || nt || nf || sk.nbone) {
      return tn__rdFail(r, node, "file", "both skin data and file were specified") + 1;
    }
    if (!(sk.path = mesh_path(r, sk.file))) {
      return tn__rdFail(r, node, "file", "out of memory") + 1;
    }
    if (!sk.name) {
      sk.name = name_from_file(r, sk.file);
    }
  } else {
    if (!nv || !nf || !sk.nbone) {
      return tn__rdFail(r, node, NULL, "missing data in skin (vertex, face and bones needed)") + 1;
    }
    if (nv % 3) {
      return tn__rdFail(r, node, "vertex", "vertex data must be a multiple of 3") + 1;
    }
    if (nf % 3) {
      return tn__rdFail(r, node, "face", "face data must be a multiple of 3") + 1;
    }
    if (nt && nt != 2 * (nv / 3)) {
      return tn__rdFail(r, node, "texcoord", "vertex and texcoord data incompatible size") + 1;
    }
    sk.nvert = nv / 3;
    sk.ntexcoord = nt / 2;
    sk.nface = nf / 3;
  }
  tnSpecSkin* dst = tn__vecPush(&r->spec->skins, sizeof(tnSpecSkin));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = sk;
  return 1;
}

/* <deformable>: skins (flexes are not implemented yet) */
int tn__readDeformable(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    TN_OK(strcmp(c->name, "skin") == 0 ? read_skin(r, c)
                                       : tn__rdFail(r, c, NULL, "not implemented yet") + 1);
  }
  return 1;
}

int tn__readAsset(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    int ok;
    if (strcmp(c->name, "texture") == 0) {
      ok = read_texture(r, c);
    } else if (strcmp(c->name, "material") == 0) {
      ok = read_material(r, c);
    } else if (strcmp(c->name, "hfield") == 0) {
      ok = read_hfield(r, c);
    } else if (strcmp(c->name, "mesh") == 0) {
      ok = read_mesh(r, c);
    } else if (strcmp(c->name, "skin") == 0) {
      ok = read_skin(r, c);
    } else if (strcmp(c->name, "model") == 0) {
      ok = tn__readModelAsset(r, c);
    } else {
      ok = tn__rdFail(r, c, NULL, "not implemented yet") + 1;
    }
    if (!ok) {
      return 0;
    }
  }
  return 1;
}
