/* xml/xml_elements_actuator.c — <actuator>: general actuators and their shortcuts
 * (motor, position, velocity, intvelocity, damper, cylinder, muscle, adhesion), and engine
 * plugin actuators (<plugin>: general attributes plus a plugin instance), with joint,
 * jointinparent, tendon, site (optionally relative to a refsite), slider-crank (cranksite
 * with slidersite) or body transmission. */
#include <string.h>

#include "xml/xml_reader.h"

/* transmission attributes and their types */
static const struct {
  const char* attr;
  int trntype;
} transmissions[] = {{"joint", mjTRN_JOINT},
                     {"jointinparent", mjTRN_JOINTINPARENT},
                     {"tendon", mjTRN_TENDON},
                     {"site", mjTRN_SITE},
                     {"body", mjTRN_BODY},
                     {"cranksite", mjTRN_SLIDERCRANK}};

/* the one transmission target of an actuator */
static int read_target(tnReader* r, tnXmlNode* node, tnSpecActuator* a) {
  const char* found = NULL;
  for (int i = 0; i < 6; i++) {
    const char* attr = transmissions[i].attr;
    if (!tn__xmlAttr(node, attr)) {
      continue;
    }
    if (found) {
      tn__xmlError(r->err, r->errsz, node, attr, "actuator already has a target ('%s')", found);
      return 0;
    }
    found = attr;
    a->trntype = transmissions[i].trntype;
    TN_TRY(tn__rdName(r, node, attr, &a->target));
  }

  // second sites: refsite (site transmission), slidersite (slider-crank)
  TN_TRY(tn__rdName(r, node, "refsite", &a->refsite));
  TN_TRY(tn__rdName(r, node, "slidersite", &a->slidersite));
  if (a->refsite && a->trntype != mjTRN_SITE) {
    return tn__rdFail(r, node, "refsite", "refsite needs a site transmission") + 1;
  }
  if (a->trntype == mjTRN_SLIDERCRANK && !a->slidersite) {
    return tn__rdFail(r, node, "cranksite", "slider-crank transmission needs a slidersite") + 1;
  }
  if (a->slidersite && a->trntype != mjTRN_SLIDERCRANK) {
    return tn__rdFail(r, node, "slidersite", "slidersite needs a cranksite") + 1;
  }
  if (!found) {
    return tn__rdFail(r, node, NULL, "actuator needs a transmission target (joint, tendon, ...)") +
           1;
  }
  return 1;
}

/* one actuator element */
static int read_actuator(tnReader* r, tnXmlNode* node) {
  int is_plugin = strcmp(node->name, "plugin") == 0;
  int kind = is_plugin ? TN_ACT_GENERAL : tn__actuatorKind(node->name);
  if (kind < 0) {
    return tn__rdFail(r, node, NULL, "not implemented yet") + 1;
  }
  int cls = tn__elementClass(r, node, 0);
  if (cls < 0) {
    return 0;
  }
  tnSpecActuator a = TN_AT(r->spec->defaults, tnDefault, cls)->actuator;
  a.src = &node->pos;
  TN_OK(tn__readActuatorAttrs(r, node, kind, &a));
  TN_TRY(tn__rdName(r, node, "name", &a.name));
  if (!read_target(r, node, &a)) {
    return 0;
  }
  if (is_plugin) {
    TN_OK(tn__readActuatorPlugin(r, node, &a));
  }

  // the element's own checks
  if (kind == TN_ACT_DAMPER && (a.ctrlrange[0] < 0 || a.ctrlrange[1] < 0)) {
    return tn__rdFail(r, node, "ctrlrange", "damper control range must be nonnegative") + 1;
  }
  if (kind == TN_ACT_ADHESION && (a.ctrlrange[0] < 0 || a.ctrlrange[1] < 0)) {
    return tn__rdFail(r, node, "ctrlrange", "adhesion control range cannot be negative") + 1;
  }
  tnSpecActuator* dst = tn__vecPush(&r->spec->actuators, sizeof(tnSpecActuator));
  if (!dst) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  *dst = a;
  return 1;
}

int tn__readActuator(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    if (!read_actuator(r, node->child[i])) {
      return 0;
    }
  }
  return 1;
}
