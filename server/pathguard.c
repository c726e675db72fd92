/* server/pathguard.c — file-reference checks, model-root resolution and asset staging
 * (see pathguard.h). */
#include "pathguard.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* deepest include nesting followed when checking server-side files */
#define TD_MAX_INCLUDE_DEPTH 8
/* largest server-side file read for checking */
#define TD_MAX_CHECK_BYTES (256L << 20)

/* ---------------------------------------------------------------------------------------
 * scanning MJCF text for file-like attributes
 * ------------------------------------------------------------------------------------- */

/* write a reason */
static int fail(char* why, size_t whysz, const char* fmt, const char* arg) {
  if (why && whysz) {
    snprintf(why, whysz, fmt, arg);
  }
  return -1;
}

/* attributes that name files or directories: file*, *dir */
static int is_file_attr(const char* name, size_t n) {
  return (n >= 4 && !strncmp(name, "file", 4)) || (n >= 3 && !strncmp(name + n - 3, "dir", 3));
}

/* a relative path with no '..' component, no entity, no backslash, no home prefix */
static int safe_relative(const char* v) {
  if (v[0] == '/' || v[0] == '~' || strchr(v, '\\') || strchr(v, '&')) {
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

/* skip past `end` starting at i; returns len when not found */
static size_t skip_past(const char* t, size_t len, size_t i, const char* end) {
  size_t k = strlen(end);
  for (; i + k <= len; i++) {
    if (!memcmp(t + i, end, k)) {
      return i + k;
    }
  }
  return len;
}

/* is c a character of an XML name */
static int name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == ':' || c == '.';
}

/* scan one start tag's attributes from i (just after '<'); returns the index after it */
static size_t scan_tag(const char* t, size_t len, size_t i, int* count, tdRefVisitor visit,
                       void* user, char* why, size_t whysz, int* err) {
  // element name
  while (i < len && name_char(t[i])) i++;
  for (;;) {
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    if (i >= len || t[i] == '>' || t[i] == '/' || !name_char(t[i])) {
      return i;
    }

    // attribute name, '=', quoted value
    size_t a0 = i;
    while (i < len && name_char(t[i])) i++;
    size_t an = i - a0;
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    if (i >= len || t[i] != '=') {
      return i;
    }
    i++;
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    if (i >= len || (t[i] != '"' && t[i] != '\'')) {
      return i;
    }
    char q = t[i++];
    size_t v0 = i;
    while (i < len && t[i] != q) i++;
    size_t vn = i - v0;
    if (i < len)
      i++;

    // check file-like attributes
    if (is_file_attr(t + a0, an)) {
      char attr[64], value[1024];
      if (an >= sizeof(attr) || vn >= sizeof(value)) {
        *err = fail(why, whysz, "%s", "file attribute too long");
        return len;
      }
      memcpy(attr, t + a0, an);
      attr[an] = '\0';
      memcpy(value, t + v0, vn);
      value[vn] = '\0';
      if (!safe_relative(value)) {
        char msg[1200];
        snprintf(msg, sizeof(msg), "attribute '%s' = '%s' leaves the request's assets", attr,
                 value);
        *err = fail(why, whysz, "%s", msg);
        return len;
      }
      (*count)++;
      if (visit && visit(user, attr, value)) {
        *err = -1;
        return len;
      }
    }
  }
}

/* scan the whole text */
int td_scan_file_refs(const char* t, size_t len, tdRefVisitor visit, void* user, char* why,
                      size_t whysz) {
  int count = 0, err = 0;
  for (size_t i = 0; i < len && !err;) {
    if (t[i] != '<') {
      i++;
      continue;
    }

    // comments, CDATA and processing instructions hold no attributes
    if (i + 4 <= len && !memcmp(t + i, "<!--", 4)) {
      i = skip_past(t, len, i + 4, "-->");
    } else if (i + 9 <= len && !memcmp(t + i, "<![CDATA[", 9)) {
      i = skip_past(t, len, i + 9, "]]>");
    } else if (i + 2 <= len && t[i + 1] == '?') {
      i = skip_past(t, len, i + 2, "?>");
    } else if (i + 2 <= len && t[i + 1] == '!') {
      // DTDs could declare external entities: refused
      return fail(why, whysz, "%s", "DOCTYPE/ENTITY declarations are not accepted");
    } else {
      i = scan_tag(t, len, i + 1, &count, visit, user, why, whysz, &err);
    }
  }
  return err ? -1 : count;
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
  struct stat st;
  if (!realpath(joined, real) || stat(real, &st) || !S_ISREG(st.st_mode)) {
    return fail(why, whysz, "model path '%s' is not a file under model_root", rel);
  }
  if (!is_under(realroot, real)) {
    return fail(why, whysz, "model path '%s' resolves outside model_root", rel);
  }
  if (strlen(real) >= outsz) {
    return fail(why, whysz, "%s", "model path too long");
  }
  memcpy(out, real, strlen(real) + 1);
  return 0;
}

/* read a whole file (bounded) */
static char* slurp(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  char* buf = NULL;
  if (!fseek(f, 0, SEEK_END)) {
    long n = ftell(f);
    if (n >= 0 && n <= TD_MAX_CHECK_BYTES && !fseek(f, 0, SEEK_SET)) {
      buf = malloc((size_t)n + 1);
      if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
      } else if (buf) {
        buf[n] = '\0';
        *len = (size_t)n;
      }
    }
  }
  fclose(f);
  return buf;
}

/* state of the recursive server-side check */
typedef struct checkCtx_ {
  const char* realroot;
  const char* modeldir;
  char dirs[8][256];
  int ndir;
  int depth;
  char* why;
  size_t whysz;
} checkCtx;

static int check_file(checkCtx* ctx, const char* path);

/* one candidate location of a reference: must stay under the root when it exists */
static int check_candidate(checkCtx* ctx, const char* joined, int recurse) {
  char real[PATH_MAX];
  struct stat st;
  if (lstat(joined, &st)) {
    return 0;
  }
  if (!realpath(joined, real) || !is_under(ctx->realroot, real)) {
    return fail(ctx->why, ctx->whysz, "reference '%s' resolves outside model_root", joined);
  }
  return recurse ? check_file(ctx, real) : 0;
}

/* visitor: remember *dir values, check the candidates of file values */
static int check_ref(void* user, const char* attr, const char* value) {
  checkCtx* ctx = user;
  size_t n = strlen(attr);
  char joined[PATH_MAX * 2];
  if (n >= 3 && !strcmp(attr + n - 3, "dir")) {
    if (ctx->ndir < 8 && strlen(value) < 256) {
      snprintf(ctx->dirs[ctx->ndir++], 256, "%s", value);
    }
    snprintf(joined, sizeof(joined), "%s/%s", ctx->modeldir, value);
    return check_candidate(ctx, joined, 0);
  }
  int include = !strcmp(attr, "file") && n > 0 && strlen(value) > 4 &&
                !strcmp(value + strlen(value) - 4, ".xml");
  snprintf(joined, sizeof(joined), "%s/%s", ctx->modeldir, value);
  if (check_candidate(ctx, joined, include)) {
    return -1;
  }
  for (int i = 0; i < ctx->ndir; i++) {
    snprintf(joined, sizeof(joined), "%s/%s/%s", ctx->modeldir, ctx->dirs[i], value);
    if (check_candidate(ctx, joined, 0)) {
      return -1;
    }
  }
  return 0;
}

/* scan one server-side file */
static int check_file(checkCtx* ctx, const char* path) {
  if (++ctx->depth > TD_MAX_INCLUDE_DEPTH) {
    return fail(ctx->why, ctx->whysz, "%s", "includes nested too deeply");
  }
  size_t len = 0;
  char* text = slurp(path, &len);
  if (!text) {
    return fail(ctx->why, ctx->whysz, "cannot read '%s'", path);
  }
  int rc = td_scan_file_refs(text, len, check_ref, ctx, ctx->why, ctx->whysz);
  free(text);
  ctx->depth--;
  return rc < 0 ? -1 : 0;
}

/* check a resolved server-side model file */
int td_check_model_file(const char* root, const char* path, char* why, size_t whysz) {
  char realroot[PATH_MAX], dir[PATH_MAX];
  if (!realpath(root, realroot)) {
    return fail(why, whysz, "%s", "model_root does not exist");
  }
  snprintf(dir, sizeof(dir), "%s", path);
  char* slash = strrchr(dir, '/');
  if (slash) {
    *slash = '\0';
  }
  checkCtx ctx = {realroot, dir, {{0}}, 0, 0, why, whysz};
  return check_file(&ctx, path);
}

/* ---------------------------------------------------------------------------------------
 * staging client blobs
 * ------------------------------------------------------------------------------------- */

/* create the parent directories of `rel` inside dir */
static int make_parents(const char* dir, const char* rel) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, rel);
  for (char* p = path + strlen(dir) + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      if (mkdir(path, 0700) && errno != EEXIST) {
        return -1;
      }
      *p = '/';
    }
  }
  return 0;
}

/* write the blobs */
int td_stage_blobs(const char* tmpdir, const tdBlob* blobs, int nblob, char* dir_out, size_t dirsz,
                   char* why, size_t whysz) {
  snprintf(dir_out, dirsz, "%s/torsiond-assets-XXXXXX", tmpdir);
  if (!mkdtemp(dir_out)) {
    dir_out[0] = '\0';
    return fail(why, whysz, "cannot create a staging directory in '%s'", tmpdir);
  }

  // each blob: a new regular file, never following a link
  for (int i = 0; i < nblob; i++) {
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", dir_out, blobs[i].name);
    int fd = -1;
    if (!make_parents(dir_out, blobs[i].name)) {
      fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    }
    if (fd < 0) {
      td_unstage_blobs(dir_out);
      dir_out[0] = '\0';
      return fail(why, whysz, "cannot stage asset '%s' (duplicate name?)", blobs[i].name);
    }
    const char* p = blobs[i].data;
    size_t left = blobs[i].len;
    while (left > 0) {
      ssize_t k = write(fd, p, left);
      if (k < 0 && errno == EINTR) {
        continue;
      }
      if (k <= 0) {
        break;
      }
      p += k;
      left -= (size_t)k;
    }
    close(fd);
    if (left) {
      td_unstage_blobs(dir_out);
      dir_out[0] = '\0';
      return fail(why, whysz, "cannot write asset '%s'", blobs[i].name);
    }
  }
  return 0;
}

/* nftw callback: remove one entry */
static int remove_entry(const char* path, const struct stat* st, int flag, struct FTW* ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

/* remove the staging directory, depth first, not following links */
void td_unstage_blobs(const char* dir) {
  if (dir && dir[0]) {
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
}
