/* xml/xml_error.c — load errors at a node of the MJCF tree, through its source position. */
#include <stdarg.h>

#include "xml/xml_error.h"

/* "FILE:LINE: element 'NAME': attribute 'ATTR': MESSAGE" at the node's position */
void tn__xmlError(char* err, int errsz, const tnXmlNode* node, const char* attr, const char* fmt,
                  ...) {
  va_list ap;
  va_start(ap, fmt);
  tn__srcErrorV(err, errsz, node ? &node->pos : NULL, attr, fmt, ap);
  va_end(ap);
}
