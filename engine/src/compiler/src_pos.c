/* compiler/src_pos.c — formatting load errors with their source position. */
#include <stdarg.h>
#include <stdio.h>

#include "compiler/src_pos.h"

/* "FILE:LINE: element 'NAME': attribute 'ATTR': MESSAGE", with the message's arguments */
void tn__srcErrorV(char* err, int errsz, const tnSrcPos* pos, const char* attr, const char* fmt,
                   va_list ap) {
  if (!err || errsz <= 0) {
    return;
  }

  // position and element
  int n = 0;
  if (pos && pos->line > 0) {
    n = snprintf(err, (size_t)errsz, "%s:%d: element '%s': ", pos->file, pos->line,
                 pos->element);
  } else if (pos) {
    n = snprintf(err, (size_t)errsz, "%s: element '%s': ", pos->file, pos->element);
  }
  if (n < 0 || n >= errsz) {
    return;
  }

  // attribute
  if (attr) {
    int k = snprintf(err + n, (size_t)(errsz - n), "attribute '%s': ", attr);
    if (k < 0 || n + k >= errsz) {
      return;
    }
    n += k;
  }

  // message
  vsnprintf(err + n, (size_t)(errsz - n), fmt, ap);
}

/* the same with the message's arguments given directly */
void tn__srcError(char* err, int errsz, const tnSrcPos* pos, const char* attr, const char* fmt,
                  ...) {
  va_list ap;
  va_start(ap, fmt);
  tn__srcErrorV(err, errsz, pos, attr, fmt, ap);
  va_end(ap);
}
