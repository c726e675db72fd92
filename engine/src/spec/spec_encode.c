/* spec/spec_encode.c — mj_encode: a spec or a model written to a file by type, as MuJoCo
 * 3.14 does it: MJCF (.xml or "text/xml") from the spec, or without a spec from the model
 * through the last loaded XML (mj_saveLastXML); a binary model (.mjb, mj_saveModel, Torsion's
 * format); the model as text (.txt or "text/plain", mj_printModel). Torsion has no encoder
 * plugins, so every other type fails with MuJoCo's "no encoder found". Returns the size of
 * the written file, or -1 with a message. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "spec/spec_tree.h"

/* a message into the caller's buffer (which may be NULL) */
static void set_error(char* error, int error_sz, const char* msg) {
  if (error && error_sz > 0) {
    snprintf(error, (size_t)error_sz, "%s", msg);
  }
}

/* size of the written file, -1 when it cannot be found */
static mjtSize file_size(const char* filename) {
  struct stat st;
  return stat(filename, &st) == 0 ? (mjtSize)st.st_size : -1;
}

/* the file's extension in lower case, with its dot ("" when none) */
static void lower_ext(const char* filename, char* ext, size_t sz) {
  const char* slash = strrchr(filename, '/');
  const char* dot = strrchr(filename, '.');
  ext[0] = 0;
  if (dot && (!slash || dot > slash)) {
    size_t i = 0;
    for (; dot[i] && i + 1 < sz; i++) {
      ext[i] = (char)tolower((unsigned char)dot[i]);
    }
    ext[i] = 0;
  }
}

/* write a spec or a model to filename by extension or content type */
mjtSize mj_encode(const mjSpec* s, const mjModel* m, const char* filename, const char* content_type,
                  const mjVFS* vfs, char* error, int error_sz) {
  (void)vfs;
  if (!filename) {
    set_error(error, error_sz, "no file name given");
    return -1;
  }
  char ext[16];
  lower_ext(filename, ext, sizeof(ext));
  int is_type_xml = content_type && strcmp(content_type, "text/xml") == 0;
  int is_type_text = content_type && strcmp(content_type, "text/plain") == 0;

  // MJCF: the spec itself, else the last loaded XML updated from the model
  if (!strcmp(ext, ".xml") || is_type_xml) {
    if (s) {
      if (mj_saveXML(s, filename, error, error_sz) < 0) {
        return -1;
      }
    } else if (!m) {
      set_error(error, error_sz, "model is required for XML encoding when spec is null");
      return -1;
    } else if (!mj_saveLastXML(filename, m, error, error_sz)) {
      return -1;
    }
    return file_size(filename);
  }

  // binary model and model text need the model
  if (!strcmp(ext, ".mjb")) {
    if (!m) {
      set_error(error, error_sz, "model is required for MJB encoding");
      return -1;
    }
    mj_saveModel(m, filename, NULL, 0);
    return file_size(filename);
  }
  if (!strcmp(ext, ".txt") || is_type_text) {
    if (!m) {
      set_error(error, error_sz, "model is required for TXT encoding");
      return -1;
    }
    mj_printModel(m, filename);
    return file_size(filename);
  }

  // no encoder plugins
  if (!ext[0] && !content_type) {
    mju_warning("Must provide extension or content_type to mjp_findEncoder.");
  }
  set_error(error, error_sz, "no encoder found");
  return -1;
}
