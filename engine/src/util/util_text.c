/* util/util_text.c — MuJoCo's string utilities: bounded copy, object type names, warning
 * texts and human-readable byte counts.
 *
 * mju_warningText and mju_writeNumBytes return a per-thread static buffer (valid until the
 * thread's next call), as MuJoCo does. */
#include <stdio.h>
#include <string.h>

#include <torsion/torsion.h>

/* strncpy, then dst[n-1] = 0 (nothing when an argument is NULL or n <= 0); returns dst */
char* mju_strncpy(char* dst, const char* src, int n) {
  if (dst && src && n > 0) {
    strncpy(dst, src, n);
    dst[n - 1] = 0;
  }
  return dst;
}

/* names of the object types mjOBJ_BODY .. mjOBJ_PLUGIN, indexed by mjtObj */
static const char* const kTypeNames[] = {
    NULL,     "body",     "xbody",  "joint",   "dof",     "geom",     "site", "camera",  "light",
    "flex",   "mesh",     "skin",   "hfield",  "texture", "material", "pair", "exclude", "equality",
    "tendon", "actuator", "sensor", "numeric", "text",    "tuple",    "key",  "plugin"};
static const int kNumTypeNames = (int)(sizeof(kTypeNames) / sizeof(kTypeNames[0]));

/* name of object type `type` (mjtObj), or NULL for an unknown type */
const char* mju_type2Str(int type) {
  if (type == mjOBJ_FRAME) {
    return "frame";
  }
  if (type <= mjOBJ_UNKNOWN || type >= kNumTypeNames) {
    return NULL;
  }
  return kTypeNames[type];
}

/* object type (mjtObj) of a name, or mjOBJ_UNKNOWN ("frame" is not recognized, as in
 * MuJoCo) */
int mju_str2Type(const char* str) {
  for (int i = 1; i < kNumTypeNames; i++) {
    if (!strcmp(str, kTypeNames[i])) {
      return i;
    }
  }
  return mjOBJ_UNKNOWN;
}

/* nbytes with the largest binary suffix (K, M, G, T, P, E) that divides it exactly */
const char* mju_writeNumBytes(size_t nbytes) {
  static _Thread_local char text[20];
  static const char suffix[] = " KMGTPE";
  for (int p = 6; p > 0; p--) {
    size_t unit = (size_t)1 << (10 * p);
    if (nbytes >= unit && !(nbytes & (unit - 1))) {
      snprintf(text, sizeof(text), "%zu%c", nbytes >> (10 * p), suffix[p]);
      return text;
    }
  }
  snprintf(text, sizeof(text), "%zu", nbytes);
  return text;
}

/* MuJoCo's message for warning type `warning` with its info number */
const char* mju_warningText(int warning, size_t info) {
  static _Thread_local char text[1000];
  switch (warning) {
    case mjWARN_INERTIA:
      snprintf(text, sizeof(text),
               "Inertia matrix is too close to singular at DOF %zu. Check model.", info);
      break;
    case mjWARN_CONTACTFULL:
      snprintf(text, sizeof(text),
               "Too many contacts. The arena memory is full, increase arena memory "
               "allocation.(ncon = %zu)",
               info);
      break;
    case mjWARN_CNSTRFULL:
      snprintf(text, sizeof(text),
               "Insufficient arena memory for the number of constraints generated. Increase "
               "arena memory allocation above %s bytes.",
               mju_writeNumBytes(info));
      break;
    case mjWARN_BADQPOS:
      snprintf(text, sizeof(text),
               "Nan, Inf or huge value in QPOS at DOF %zu. The simulation is unstable.", info);
      break;
    case mjWARN_BADQVEL:
      snprintf(text, sizeof(text),
               "Nan, Inf or huge value in QVEL at DOF %zu. The simulation is unstable.", info);
      break;
    case mjWARN_BADQACC:
      snprintf(text, sizeof(text),
               "Nan, Inf or huge value in QACC at DOF %zu. The simulation is unstable.", info);
      break;
    case mjWARN_BADCTRL:
      snprintf(text, sizeof(text),
               "Nan, Inf or huge value in CTRL at ACTUATOR %zu. The simulation is unstable.", info);
      break;
    default: snprintf(text, sizeof(text), "Unknown warning type %d.", warning);
  }
  return text;
}
