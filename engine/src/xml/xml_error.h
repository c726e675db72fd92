/* xml/xml_error.h — internal: formatting load errors that name file, line, element and
 * attribute, e.g. `hopper.xml:23: element 'geom': attribute 'size': expected ...`. */
#ifndef TORSION_XML_ERROR_H
#define TORSION_XML_ERROR_H

#include "xml/xml_tree.h"

/* Write "FILE:LINE: element 'NAME': [attribute 'ATTR': ]MESSAGE" into err (printf-style
 * message). node may be NULL (no position), attr may be NULL. */
void tn__xmlError(char* err, int errsz, const tnXmlNode* node, const char* attr, const char* fmt,
                  ...) __attribute__((format(printf, 5, 6)));

#endif /* TORSION_XML_ERROR_H */
