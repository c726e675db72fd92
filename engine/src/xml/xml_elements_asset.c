/* xml/xml_elements_asset.c — <asset>: textures, materials and height fields.
 *
 * Textures are kept for their type and dimensions only (Torsion does not render, so no
 * pixels are produced). Height fields hold elevation data given inline; without it they are
 * flat. Meshes, skins and asset files that need decoding are not implemented yet. */
#include <string.h>

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
  TN_TRY(tn_rdFloats(r, node, "rgb1", rgb, 3, 3));
  TN_TRY(tn_rdFloats(r, node, "rgb2", rgb, 3, 3));
  TN_TRY(tn_rdFloats(r, node, "markrgb", rgb, 3, 3));
  TN_TRY(tn_rdFloats(r, node, "random", &random, 1, 1));
  TN_TRY(tn_rdInts(r, node, "gridsize", grid, 2, 2));
  return 1;
}

/* <texture> */
static int read_texture(tnReader* r, tnXmlNode* node) {
  tnSpecTexture* t = tn_vecPush(&r->spec->textures, sizeof(tnSpecTexture));
  if (!t) {
    return tn_rdFail(r, node, NULL, "out of memory") + 1;
  }
  t->type = mjTEXTURE_CUBE;
  t->nchannel = 3;
  t->src = node;
  int builtin = tn_rdStr(node, "builtin") != NULL && strcmp(tn_rdStr(node, "builtin"), "none");
  for (int i = 0; texture_pixels[i]; i++) {
    tn_rdStr(node, texture_pixels[i]);
  }
  TN_OK(check_texture_values(r, node));
  TN_TRY(tn_rdName(r, node, "name", &t->name));
  TN_TRY(tn_rdKeyword(r, node, "type", texture_types, &t->type));
  TN_TRY(tn_rdInts(r, node, "width", &t->width, 1, 1));
  TN_TRY(tn_rdInts(r, node, "height", &t->height, 1, 1));
  TN_TRY(tn_rdInts(r, node, "nchannel", &t->nchannel, 1, 1));

  // builtin textures need their dimensions; cube and skybox ones are six square faces
  if (builtin && t->width < 1) {
    return tn_rdFail(r, node, "width", "invalid width of builtin texture") + 1;
  }
  if (builtin && t->type == mjTEXTURE_2D && t->height < 1) {
    return tn_rdFail(r, node, "height", "invalid height of builtin texture") + 1;
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
  int cls = tn_elementClass(r, node, 0);
  if (cls < 0) {
    return 0;
  }
  tnSpecMaterial m = TN_AT(r->spec->defaults, tnDefault, cls)->material;
  TN_OK(tn_readMaterialAttrs(r, node, &m));
  TN_TRY(tn_rdName(r, node, "name", &m.name));
  if (!m.name) {
    return tn_rdFail(r, node, "name", "materials must be named") + 1;
  }
  m.src = node;
  tnSpecMaterial* dst = tn_vecPush(&r->spec->materials, sizeof(tnSpecMaterial));
  if (!dst) {
    return tn_rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = m;
  return 1;
}

/* <hfield> */
static int read_hfield(tnReader* r, tnXmlNode* node) {
  tnSpecHField* h = tn_vecPush(&r->spec->hfields, sizeof(tnSpecHField));
  if (!h) {
    return tn_rdFail(r, node, NULL, "out of memory") + 1;
  }
  h->src = node;
  tn_rdStr(node, "content_type");
  if (tn_xmlAttr(node, "file")) {
    return tn_rdFail(r, node, "file", "height field files are not implemented yet") + 1;
  }
  TN_TRY(tn_rdName(r, node, "name", &h->name));
  TN_TRY(tn_rdInts(r, node, "nrow", &h->nrow, 1, 1));
  TN_TRY(tn_rdInts(r, node, "ncol", &h->ncol, 1, 1));
  if (tn_rdNums(r, node, "size", h->size, 4, 4) <= 0) {
    return tn_rdFail(r, node, "size", "required: 4 positive numbers") + 1;
  }
  for (int i = 0; i < 4; i++) {
    if (h->size[i] <= 0) {
      return tn_rdFail(r, node, "size", "all 4 sizes must be positive") + 1;
    }
  }
  if (h->nrow < 1 || h->ncol < 1 || h->nrow > 1 << 14 || h->ncol > 1 << 14) {
    return tn_rdFail(r, node, h->nrow < 1 || h->nrow > 1 << 14 ? "nrow" : "ncol",
                     "nrow and ncol must be in 1..16384") +
           1;
  }
  int got = tn_rdNumArray(r, node, "elevation", &h->elevation, &h->nelevation);
  TN_TRY(got);
  if (got && h->nelevation != h->nrow * h->ncol) {
    return tn_rdFail(r, node, "elevation", "needs nrow*ncol values") + 1;
  }
  return 1;
}

int tn_readAsset(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* c = node->child[i];
    int ok;
    if (strcmp(c->name, "texture") == 0) {
      ok = read_texture(r, c);
    } else if (strcmp(c->name, "material") == 0) {
      ok = read_material(r, c);
    } else if (strcmp(c->name, "hfield") == 0) {
      ok = read_hfield(r, c);
    } else {
      ok = tn_rdFail(r, c, NULL, "not implemented yet") + 1;
    }
    if (!ok) {
      return 0;
    }
  }
  return 1;
}
