/* xml/xml_schema.h — internal: validating an MJCF tree against MuJoCo's schema. */
#ifndef TORSION_XML_SCHEMA_H
#define TORSION_XML_SCHEMA_H

#include "xml/xml_tree.h"

/* how Torsion treats an element of the schema */
typedef enum tnSchemaStatus_ {
  TN_SCHEMA_OK = 0, /* read and compiled */
  TN_SCHEMA_IGNORE, /* purely visual: validated, then skipped */
  TN_SCHEMA_NOTIMPL /* known to MuJoCo, not implemented yet: an error */
} tnSchemaStatus;

/* Check every element and attribute below the <mujoco> root. Returns 0 with a message. */
int tn__xmlValidate(tnXmlNode* root, char* err, int errsz);

/* After reading: report an attribute no reader consumed ("not implemented yet"). */
int tn__xmlCheckUsed(const tnXmlNode* node, char* err, int errsz);

#endif /* TORSION_XML_SCHEMA_H */
