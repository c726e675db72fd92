/* compiler/hfield_load.c — height field files: PNG images (libpng) and MuJoCo's binary
 * format.
 *
 * MuJoCo decodes a PNG to 8-bit gray by taking the red channel (gray images: the gray
 * value; palettes: the entry's red; 16-bit samples: the high byte; 1-, 2- and 4-bit gray
 * scaled to 0..255; alpha ignored) and stores the image's bottom row first. libpng's
 * transforms give the same samples when we expand palettes and low bit depths, strip 16-bit
 * samples to their high byte and apply no gamma correction; we then keep the first channel
 * of each pixel. The binary format is two int32 (nrow, ncol) followed by exactly nrow*ncol
 * float32 values, stored in file order. */
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/asset_load.h"

/* largest accepted dimension and number of values of a height field */
#define TN_HFIELD_MAXDIM (1 << 16)
#define TN_HFIELD_MAXDATA (1LL << 28)

/* a PNG held in memory, read by libpng through png_set_read_fn */
typedef struct tnPngSource_ {
  const unsigned char* data;
  size_t size;
  size_t pos;
  char message[200]; /* libpng's error text */
} tnPngSource;

/* libpng read callback: copy the next bytes or fail */
static void png_read_memory(png_structp png, png_bytep out, png_size_t n) {
  tnPngSource* src = png_get_io_ptr(png);
  if (n > src->size - src->pos) {
    png_error(png, "file is truncated");
  }
  memcpy(out, src->data + src->pos, n);
  src->pos += n;
}

/* libpng error callback: keep the message, then unwind to the setjmp point */
static void png_fail(png_structp png, png_const_charp msg) {
  tnPngSource* src = png_get_error_ptr(png);
  snprintf(src->message, sizeof(src->message), "%s", msg ? msg : "decoding error");
  png_longjmp(png, 1);
}

/* libpng warnings are not errors */
static void png_warn(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

/* decode an 8-bit first-channel image, bottom row first, into floats */
static int load_png(const unsigned char* bytes, size_t size, int* nrow, int* ncol, float** out,
                    char* why, int whysz) {
  if (size < 8 || png_sig_cmp(bytes, 0, 8) != 0) {
    snprintf(why, (size_t)whysz, "not a PNG file (incorrect signature)");
    return 0;
  }
  tnPngSource src = {bytes, size, 0, ""};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_fail, png_warn);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
    snprintf(why, (size_t)whysz, "out of memory");
    return 0;
  }
  unsigned char* volatile pixels = NULL;
  png_bytep* volatile rows = NULL;
  float* volatile values = NULL;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(pixels);
    free(rows);
    free(values);
    snprintf(why, (size_t)whysz, "error decoding PNG file: %s", src.message);
    return 0;
  }

  // header, then the transforms that reproduce MuJoCo's 8-bit samples
  png_set_read_fn(png, &src, png_read_memory);
  png_read_info(png, info);
  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);
  int color = png_get_color_type(png, info);
  if (width < 1 || height < 1 || width > TN_HFIELD_MAXDIM || height > TN_HFIELD_MAXDIM ||
      (long long)width * height > TN_HFIELD_MAXDATA) {
    png_error(png, "image dimensions out of range");
  }
  if (color == PNG_COLOR_TYPE_PALETTE) {
    png_set_palette_to_rgb(png);
  }
  if (color == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) {
    png_set_expand_gray_1_2_4_to_8(png);
  }
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);

  // decode every row
  size_t stride = png_get_rowbytes(png, info);
  int channels = png_get_channels(png, info);
  pixels = malloc(stride * height);
  rows = malloc(sizeof(png_bytep) * height);
  values = malloc(sizeof(float) * (size_t)width * height);
  if (!pixels || !rows || !values) {
    png_error(png, "out of memory");
  }
  for (png_uint_32 r = 0; r < height; r++) {
    rows[r] = pixels + stride * r;
  }
  png_read_image(png, rows);
  png_read_end(png, NULL);

  // first channel, image rows bottom-up
  for (png_uint_32 r = 0; r < height; r++) {
    const unsigned char* row = rows[height - 1 - r];
    for (png_uint_32 k = 0; k < width; k++) {
      values[(size_t)r * width + k] = (float)row[(size_t)k * channels];
    }
  }
  png_destroy_read_struct(&png, &info, NULL);
  free(pixels);
  free(rows);
  *nrow = (int)height;
  *ncol = (int)width;
  *out = values;
  return 1;
}

/* MuJoCo's binary height field: int32 nrow, int32 ncol, nrow*ncol float32 */
static int load_binary(const unsigned char* bytes, size_t size, int* nrow, int* ncol, float** out,
                       char* why, int whysz) {
  int32_t dims[2] = {0, 0};
  if (size >= sizeof(dims)) {
    memcpy(dims, bytes, sizeof(dims));
  }
  if (size < sizeof(dims) || dims[0] < 1 || dims[1] < 1 || dims[0] > TN_HFIELD_MAXDIM ||
      dims[1] > TN_HFIELD_MAXDIM || (long long)dims[0] * dims[1] > TN_HFIELD_MAXDATA) {
    snprintf(why, (size_t)whysz, "invalid nrow or ncol in height field file");
    return 0;
  }
  size_t n = (size_t)dims[0] * (size_t)dims[1];
  if (size != sizeof(dims) + sizeof(float) * n) {
    snprintf(why, (size_t)whysz, "unexpected file size (%zu bytes for %d x %d values)", size,
             dims[0], dims[1]);
    return 0;
  }
  float* values = malloc(sizeof(float) * n);
  if (!values) {
    snprintf(why, (size_t)whysz, "out of memory");
    return 0;
  }
  memcpy(values, bytes + sizeof(dims), sizeof(float) * n);
  *nrow = dims[0];
  *ncol = dims[1];
  *out = values;
  return 1;
}

/* a height field file, by content type or extension */
int tn__hfieldLoad(tnFiles* files, const char* path, const char* content_type, int* nrow, int* ncol,
                   float** data, char* why, int whysz) {
  int png;
  if (content_type && content_type[0]) {
    if (strcmp(content_type, "image/png") == 0) {
      png = 1;
    } else if (strcmp(content_type, "image/vnd.mujoco.hfield") == 0) {
      png = 0;
    } else {
      snprintf(why, (size_t)whysz, "unsupported content type: '%s'", content_type);
      return 0;
    }
  } else {
    png = tn__assetHasExtension(path, ".png");
  }
  unsigned char* bytes = NULL;
  size_t size = 0;
  if (!tn__assetReadFile(files, path, &bytes, &size, why, whysz)) {
    return 0;
  }
  int ok = png ? load_png(bytes, size, nrow, ncol, data, why, whysz)
               : load_binary(bytes, size, nrow, ncol, data, why, whysz);
  free(bytes);
  return ok;
}
