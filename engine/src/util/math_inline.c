/* util/math_inline.c — the exported symbols of the inlined mju_* operations: the bodies of
 * util/util_inline.h compiled once as ordinary functions. */
#define TN_MATH_EMIT
#include "util/util_inline.h"
