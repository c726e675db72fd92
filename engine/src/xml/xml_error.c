/* xml/xml_error.c — formatting load errors with their source position. */
#include <stdarg.h>
#include <stdio.h>

#include "xml/xml_error.h"

/* "FILE:LINE: element 'NAME': attribute 'ATTR': MESSAGE" */
void tn_xmlError(char* err, int errsz, const tnXmlNode* node, const char* attr, const char* fmt,
                 ...) {
  if (!err || errsz <= 0) {
    return;
  }

  // position and element
  int n = 0;
  if (node && node->line > 0) {
    n = snprintf(err, (size_t)errsz, "%s:%d: element '%s': ", node->file, node->line, node->name);
  } else if (node) {
    n = snprintf(err, (size_t)errsz, "%s: element '%s': ", node->file, node->name);
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
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + n, (size_t)(errsz - n), fmt, ap);
  va_end(ap);
}
