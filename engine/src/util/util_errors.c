/* util/util_errors.c — fatal errors, warnings and the mjData warning counters.
 *
 * mju_error and mju_warning format a printf-style message and hand it to an installable
 * handler (default: print to stderr). The library never exits or aborts: mju_error returns
 * and its caller abandons the current computation. mj_warning counts run-time warnings in
 * mjData.warning and prints only the first occurrence of each kind. */
#include <stdarg.h>
#include <stdio.h>

#include <torsion/torsion.h>

/* length of the formatting buffer for error and warning messages */
#define TN_MSG_LEN 1000

/* installable handlers; NULL means "print to stderr" */
void (*mju_user_error)(const char* msg) = NULL;
void (*mju_user_warning)(const char* msg) = NULL;

/* report a fatal error to the handler, then return */
void mju_error(const char* msg, ...) {
  char buf[TN_MSG_LEN];
  va_list args;

  // format the message
  va_start(args, msg);
  vsnprintf(buf, sizeof(buf), msg, args);
  va_end(args);

  // dispatch to the user handler or stderr
  if (mju_user_error) {
    mju_user_error(buf);
  } else {
    fprintf(stderr, "ERROR: %s\n", buf);
  }
}

/* report a warning to the handler */
void mju_warning(const char* msg, ...) {
  char buf[TN_MSG_LEN];
  va_list args;

  // format the message
  va_start(args, msg);
  vsnprintf(buf, sizeof(buf), msg, args);
  va_end(args);

  // dispatch to the user handler or stderr
  if (mju_user_warning) {
    mju_user_warning(buf);
  } else {
    fprintf(stderr, "WARNING: %s\n", buf);
  }
}

/* print the text describing warning `warning` with its info number */
static void warn_first(int warning, int info) {
  switch (warning) {
    case mjWARN_INERTIA:
      mju_warning("Joint-space inertia is nearly singular at DOF %d; check the model's "
                  "masses, inertias and armature.", info);
      break;
    case mjWARN_CONTACTFULL:
      mju_warning("Contact buffer is full (ncon = %d): the arena is exhausted or nconmax "
                  "is exceeded; enlarge the arena or raise/remove nconmax.", info);
      break;
    case mjWARN_CNSTRFULL:
      mju_warning("Arena too small for the constraints generated; allocate more than %d "
                  "bytes of arena memory.", info);
      break;
    case mjWARN_BADQPOS:
      mju_warning("NaN, Inf or huge value in QPOS at DOF %d; the simulation is unstable.",
                  info);
      break;
    case mjWARN_BADQVEL:
      mju_warning("NaN, Inf or huge value in QVEL at DOF %d; the simulation is unstable.",
                  info);
      break;
    case mjWARN_BADQACC:
      mju_warning("NaN, Inf or huge value in QACC at DOF %d; the simulation is unstable.",
                  info);
      break;
    case mjWARN_BADCTRL:
      mju_warning("NaN, Inf or huge value in CTRL at actuator %d; the simulation is "
                  "unstable.", info);
      break;
    default:
      mju_warning("Unknown warning type %d (info %d).", warning, info);
  }
}

/* count warning `warning`, remember its info, print it the first time it happens */
void mj_warning(mjData* d, int warning, int info) {
  // reject out-of-range kinds
  if (warning < 0 || warning >= mjNWARNING) {
    mju_error("mj_warning: invalid warning type %d", warning);
    return;
  }

  // first occurrence: tell the user
  if (d->warning[warning].number == 0) {
    warn_first(warning, info);
  }

  // record and count
  d->warning[warning].lastinfo = info;
  d->warning[warning].number++;
}
