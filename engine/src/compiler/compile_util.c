/* compiler/compile_util.c — helpers shared by the compile stages: errors at an element,
 * user data rows, limited-flag resolution and orientation conversion. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* error at a spec element */
int tn__compileFail(tnCompiler* c, const tnSrcPos* src, const char* attr, const char* fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (src) {
    tn__srcError(c->err, c->errsz, src, attr, "%s", msg);
  } else if (c->err && c->errsz > 0) {
    snprintf(c->err, (size_t)c->errsz, "%s: %s", c->spec->filename, msg);
  }
  return 0;
}

/* user data row */
int tn__compileUser(tnCompiler* c, mjtNum* dst, int n, const tnUser* user, const tnSrcPos* src) {
  if (user->n > n) {
    return tn__compileFail(c, src, "user", "too many values (%d, at most %d)", user->n, n);
  }
  memset(dst, 0, sizeof(mjtNum) * (size_t)n);
  if (user->n) {
    memcpy(dst, user->v, sizeof(mjtNum) * (size_t)user->n);
  }
  return 1;
}

/* resolve limited="auto" (autolimits: limited iff range[0] < range[1]) and validate a used
 * range */
int tn__compileLimited(tnCompiler* c, int flag, const mjtNum range[2], const tnSrcPos* src,
                       const char* flagattr, const char* rangeattr, int* out) {
  int hasrange = !(range[0] == 0 && range[1] == 0);
  if (flag == TN_AUTO) {
    if (!c->spec->compiler.autolimits && hasrange) {
      return tn__compileFail(c, src, rangeattr,
                             "range given but '%s' is not set and compiler autolimits is false",
                             flagattr);
    }
    flag = c->spec->compiler.autolimits && range[0] < range[1];
  }
  if (flag && range[0] >= range[1]) {
    return tn__compileFail(c, src, rangeattr, "invalid range: lower bound must be below upper");
  }
  *out = flag;
  return 1;
}

/* orientation -> quaternion */
int tn__compileQuat(tnCompiler* c, mjtNum quat[4], const tnOrientation* o, const tnSrcPos* src) {
  char why[256] = "";
  if (o->kind == TN_ORIENT_NONE) {
    quat[0] = 1;
    quat[1] = quat[2] = quat[3] = 0;
    return 1;
  }
  if (!tn__orientationToQuat(quat, o, c->spec->compiler.degree, c->spec->compiler.eulerseq, why,
                             sizeof(why))) {
    static const char* const attrs[] = {NULL, "quat", "axisangle", "euler", "xyaxes", "zaxis"};
    return tn__compileFail(c, src, attrs[o->kind], "%s", why[0] ? why : "invalid orientation");
  }
  return 1;
}

/* pos = frame.pos + R(frame) pos, quat = frame.quat * quat */
void tn__frameApply(const tnFrame* f, mjtNum pos[3], mjtNum quat[4]) {
  if (!f->active) {
    return;
  }
  mjtNum p[3], q[4];
  mju_rotVecQuat(p, pos, f->quat);
  mju_add3(pos, p, f->pos);
  if (quat) {
    mju_mulQuat(q, f->quat, quat);
    mju_copy4(quat, q);
  }
}

/* vec = R(frame) vec */
void tn__frameRotate(const tnFrame* f, mjtNum vec[3]) {
  if (f->active) {
    mjtNum v[3];
    mju_rotVecQuat(v, vec, f->quat);
    mju_copy3(vec, v);
  }
}
