/* server/pathguard.c — asset names and the resolution of request paths under model_root
 * (see pathguard.h). */
#include "pathguard.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* write a reason */
static int fail(char* why, size_t whysz, const char* fmt, const char* arg) {
  if (why && whysz) {
    snprintf(why, whysz, fmt, arg);
  }
  return -1;
}

/* is c a character of an asset name other than '/' */
static int name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == ':' || c == '.';
}

/* a relative path with no '..' component, no backslash, no home prefix */
static int safe_relative(const char* v) {
  if (v[0] == '/' || v[0] == '~' || strchr(v, '\\')) {
    return 0;
  }
  for (const char* p = v; *p;) {
    const char* end = strchr(p, '/');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      return 0;
    }
    p += n + (end ? 1 : 0);
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * asset names and the model root
 * ------------------------------------------------------------------------------------- */

/* asset names: [A-Za-z0-9._-/], relative, no '..' or empty component */
int td_check_asset_name(const char* name, char* why, size_t whysz) {
  size_t n = strlen(name);
  if (n == 0 || n > 255) {
    return fail(why, whysz, "asset name '%s' must have 1 to 255 characters", name);
  }
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    if (!name_char(c) && c != '/') {
      return fail(why, whysz, "asset name '%s' has a character outside [A-Za-z0-9._-/]", name);
    }
  }
  if (name[0] == '/' || name[n - 1] == '/' || strstr(name, "//") || !safe_relative(name) ||
      strchr(name, ':')) {
    return fail(why, whysz, "asset name '%s' is not a plain relative path", name);
  }
  for (const char* p = name; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL) {
    if (p[0] == '.' && (p[1] == '/' || p[1] == '\0')) {
      return fail(why, whysz, "asset name '%s' has a '.' component", name);
    }
  }
  return 0;
}

/* is real path `p` inside real directory `root` */
static int is_under(const char* root, const char* p) {
  size_t n = strlen(root);
  if (n == 1 && root[0] == '/') {
    return 1;
  }
  return !strncmp(root, p, n) && p[n] == '/';
}

/* resolve rel under root */
int td_resolve_under_root(const char* root, const char* rel, char* out, size_t outsz, char* why,
                          size_t whysz) {
  char realroot[PATH_MAX], joined[PATH_MAX * 2], real[PATH_MAX];
  if (!root[0]) {
    return fail(why, whysz, "%s", "this server has no model_root: model paths are refused");
  }
  if (!rel[0] || !safe_relative(rel)) {
    return fail(why, whysz, "model path '%s' must be relative without '..'", rel);
  }
  if (!realpath(root, realroot)) {
    return fail(why, whysz, "%s", "model_root does not exist");
  }
  snprintf(joined, sizeof(joined), "%s/%s", realroot, rel);

  // follow symlinks, then demand the result still lies under the root
  // one reason for missing, outside and not regular: the reply tells nothing about files
  // outside the root
  struct stat st;
  if (!realpath(joined, real) || !is_under(realroot, real) || stat(real, &st) ||
      !S_ISREG(st.st_mode)) {
    return fail(why, whysz, "model path '%s' is not a regular file under model_root", rel);
  }
  if (strlen(real) >= outsz) {
    return fail(why, whysz, "%s", "model path too long");
  }
  memcpy(out, real, strlen(real) + 1);
  return 0;
}
