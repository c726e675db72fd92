/* xml/xml_elements_visual.c — the <visual> section (global, quality, headlight, map, scale,
 * rgba) read into the spec's mjVisual, which the compiler copies to m->vis. Torsion does
 * not render; the settings are kept because viewers and tools read them from the model. */
#include <stddef.h>
#include <string.h>

#include "xml/xml_reader.h"

/* how an attribute is stored */
typedef enum tnVisKind_ { VIS_FLOAT, VIS_INT, VIS_BOOL } tnVisKind;

/* one attribute of a <visual> child: name, storage, offset in mjVisual, count */
typedef struct tnVisAttr_ {
  const char* element;
  const char* attr;
  tnVisKind kind;
  size_t offset;
  int n;
} tnVisAttr;

#define VF(el, grp, f, n) \
  { el, #f, VIS_FLOAT, offsetof(mjVisual, grp.f), n }
#define VI(el, grp, f) \
  { el, #f, VIS_INT, offsetof(mjVisual, grp.f), 1 }
#define VB(el, grp, f) \
  { el, #f, VIS_BOOL, offsetof(mjVisual, grp.f), 1 }

/* every attribute of every child of <visual> (MuJoCo 3.14's schema) */
static const tnVisAttr vis_attrs[] = {
    VI("global", global, cameraid),
    VB("global", global, orthographic),
    VF("global", global, fovy, 1),
    VF("global", global, ipd, 1),
    VF("global", global, azimuth, 1),
    VF("global", global, elevation, 1),
    VF("global", global, linewidth, 1),
    VF("global", global, glow, 1),
    VI("global", global, offwidth),
    VI("global", global, offheight),
    VF("global", global, realtime, 1),
    VB("global", global, ellipsoidinertia),
    VB("global", global, bvactive),
    VI("quality", quality, shadowsize),
    VI("quality", quality, offsamples),
    VI("quality", quality, numslices),
    VI("quality", quality, numstacks),
    VI("quality", quality, numquads),
    VF("headlight", headlight, ambient, 3),
    VF("headlight", headlight, diffuse, 3),
    VF("headlight", headlight, specular, 3),
    VI("headlight", headlight, active),
    VF("map", map, stiffness, 1),
    VF("map", map, stiffnessrot, 1),
    VF("map", map, force, 1),
    VF("map", map, torque, 1),
    VF("map", map, alpha, 1),
    VF("map", map, fogstart, 1),
    VF("map", map, fogend, 1),
    VF("map", map, znear, 1),
    VF("map", map, zfar, 1),
    VF("map", map, haze, 1),
    VF("map", map, shadowclip, 1),
    VF("map", map, shadowscale, 1),
    VF("map", map, actuatortendon, 1),
    VF("scale", scale, forcewidth, 1),
    VF("scale", scale, contactwidth, 1),
    VF("scale", scale, contactheight, 1),
    VF("scale", scale, connect, 1),
    VF("scale", scale, com, 1),
    VF("scale", scale, camera, 1),
    VF("scale", scale, light, 1),
    VF("scale", scale, selectpoint, 1),
    VF("scale", scale, jointlength, 1),
    VF("scale", scale, jointwidth, 1),
    VF("scale", scale, actuatorlength, 1),
    VF("scale", scale, actuatorwidth, 1),
    VF("scale", scale, framelength, 1),
    VF("scale", scale, framewidth, 1),
    VF("scale", scale, constraint, 1),
    VF("scale", scale, slidercrank, 1),
    VF("scale", scale, frustum, 1),
    VF("rgba", rgba, fog, 4),
    VF("rgba", rgba, haze, 4),
    VF("rgba", rgba, force, 4),
    VF("rgba", rgba, inertia, 4),
    VF("rgba", rgba, joint, 4),
    VF("rgba", rgba, actuator, 4),
    VF("rgba", rgba, actuatornegative, 4),
    VF("rgba", rgba, actuatorpositive, 4),
    VF("rgba", rgba, com, 4),
    VF("rgba", rgba, camera, 4),
    VF("rgba", rgba, light, 4),
    VF("rgba", rgba, selectpoint, 4),
    VF("rgba", rgba, connect, 4),
    VF("rgba", rgba, contactpoint, 4),
    VF("rgba", rgba, contactforce, 4),
    VF("rgba", rgba, contactfriction, 4),
    VF("rgba", rgba, contacttorque, 4),
    VF("rgba", rgba, contactgap, 4),
    VF("rgba", rgba, rangefinder, 4),
    VF("rgba", rgba, constraint, 4),
    VF("rgba", rgba, slidercrank, 4),
    VF("rgba", rgba, crankbroken, 4),
    VF("rgba", rgba, frustum, 4),
    VF("rgba", rgba, bv, 4),
    VF("rgba", rgba, bvactive, 4),
};

#undef VF
#undef VI
#undef VB

/* the attributes of one child element into vis */
static int read_child(tnReader* r, tnXmlNode* node, mjVisual* vis) {
  for (size_t i = 0; i < sizeof(vis_attrs) / sizeof(vis_attrs[0]); i++) {
    const tnVisAttr* a = vis_attrs + i;
    if (strcmp(a->element, node->name) != 0) {
      continue;
    }
    char* dst = (char*)vis + a->offset;
    switch (a->kind) {
      case VIS_FLOAT: TN_TRY(tn__rdFloats(r, node, a->attr, (float*)dst, a->n, a->n)); break;
      case VIS_INT: TN_TRY(tn__rdInts(r, node, a->attr, (int*)dst, 1, 1)); break;
      case VIS_BOOL: TN_TRY(tn__rdBool(r, node, a->attr, (int*)dst)); break;
    }
  }
  return 1;
}

int tn__readVisual(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    TN_OK(read_child(r, node->child[i], &r->spec->vis));
  }
  return 1;
}
