/* util/util_errors.c — fatal errors, unwinding points, warnings and the warning counters.
 *
 * mju_error and mju_warning format a printf-style message and hand it to the log dispatch
 * (util/log.c: the log handler, the legacy mju_user_error/mju_user_warning, or the default
 * handler, which ends the process after an error nobody handles, as MuJoCo's). A host runs
 * each unit of work (one rollout, one forward item, one request) through tn_run, which
 * sets an unwinding point on the calling thread: mju_error then jumps back to it, so
 * control never returns into the computation that failed, and the mjData's scratch stack
 * is restored. Without an unwinding point, after a handler that returns, mju_error returns
 * (as MuJoCo's does) and its caller abandons the computation.
 * mj_warning counts run-time warnings in mjData.warning and prints only the first
 * occurrence of each kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <torsion/torsion.h>

#include "util/log.h"

/* length of the formatting buffer for error and warning messages */
#define TN_MSG_LEN 1000

/* installable legacy handlers; NULL means "the default handler" */
void (*mju_user_error)(const char* msg) = NULL;
void (*mju_user_warning)(const char* msg) = NULL;

/* one unwinding point: where mju_error jumps, the enclosing point, where the message goes */
typedef struct tnUnwind_ {
  jmp_buf env;
  struct tnUnwind_* prev;
  char* error;
  int error_sz;
} tnUnwind;

/* innermost unwinding point of this thread (NULL: mju_error returns) */
static _Thread_local tnUnwind* unwind_top;

/* report a fatal error to the handler, then unwind to the innermost point (or return) */
void mju_error(const char* msg, ...) {
  char buf[TN_MSG_LEN];
  va_list args;

  // format the message
  va_start(args, msg);
  vsnprintf(buf, sizeof(buf), msg, args);
  va_end(args);

  // dispatch; the default handler only when no unwinding point will receive the message
  tnUnwind* u = unwind_top;
  mjLogMessage m;
  memset(&m, 0, sizeof(m));
  m.level = mjLOG_ERROR;
  snprintf(m.subject, sizeof(m.subject), "%s", buf);
  tn__logSend(&m, u != NULL);

  // hand the message to the unwinding point and leave the failed computation
  if (u) {
    if (u->error && u->error_sz > 0) {
      snprintf(u->error, (size_t)u->error_sz, "%s", buf);
    }
    longjmp(u->env, 1);
  }
}

/* is an unwinding point active on this thread */
int tn_unwinding(void) {
  return unwind_top != NULL;
}

/* put d's scratch stack back to the marks saved at the unwinding point and drop the
 * constraint rows, which an interrupted mj_makeConstraint may have left half-built */
static void restore_data(mjData* d, size_t pstack, size_t pbase) {
  d->pstack = pstack;
  d->pbase = pbase;
  d->parena = 0;
  d->nefc = 0;
  d->nJ = 0;
  d->nA = 0;
}

/* run fn(arg) under an unwinding point; 0, or -1 after an mju_error inside it */
int tn_run(mjData* d, tnRunFn fn, void* arg, char* error, int error_sz) {
  tnUnwind u = {.prev = unwind_top, .error = error, .error_sz = error_sz};
  size_t pstack = d ? d->pstack : 0, pbase = d ? d->pbase : 0;
  if (error && error_sz > 0) {
    error[0] = '\0';
  }

  // mju_error lands here: pop the point, restore the arena, report
  if (setjmp(u.env)) {
    unwind_top = u.prev;
    if (d) {
      restore_data(d, pstack, pbase);
    }
    return -1;
  }

  // the work, with this point innermost
  unwind_top = &u;
  fn(arg);
  unwind_top = u.prev;
  return 0;
}

/* report a warning to the handler */
void mju_warning(const char* msg, ...) {
  char buf[TN_MSG_LEN];
  va_list args;

  // format the message
  va_start(args, msg);
  vsnprintf(buf, sizeof(buf), msg, args);
  va_end(args);

  // dispatch to the log handler, mju_user_warning or the default handler
  mjLogMessage m;
  memset(&m, 0, sizeof(m));
  m.level = mjLOG_WARNING;
  snprintf(m.subject, sizeof(m.subject), "%s", buf);
  tn__logSend(&m, 0);
}

/* the text of warning `warning` with its info number, as MuJoCo words it */
static void warning_text(char* buf, size_t n, int warning, int info) {
  switch (warning) {
    case mjWARN_INERTIA:
      snprintf(buf, n, "Inertia matrix is too close to singular at DOF %d. Check model.", info);
      break;
    case mjWARN_CONTACTFULL:
      snprintf(buf, n, "Too many contacts. The arena memory is full, increase arena memory "
               "allocation.(ncon = %d)", info);
      break;
    case mjWARN_CNSTRFULL:
      snprintf(buf, n, "Insufficient arena memory for the number of constraints generated. "
               "Increase arena memory allocation above %d bytes.", info);
      break;
    case mjWARN_BADQPOS:
    case mjWARN_BADQVEL:
    case mjWARN_BADQACC:
      snprintf(buf, n, "Nan, Inf or huge value in %s at DOF %d. The simulation is unstable.",
               warning == mjWARN_BADQPOS ? "QPOS" : warning == mjWARN_BADQVEL ? "QVEL" : "QACC",
               info);
      break;
    case mjWARN_BADCTRL:
      snprintf(buf, n, "Nan, Inf or huge value in CTRL at ACTUATOR %d. The simulation is "
               "unstable.", info);
      break;
    default: snprintf(buf, n, "Unknown warning type %d.", warning);
  }
}

/* print warning `warning` (its text and the simulation time) */
static void warn_first(const mjData* d, int warning, int info) {
  char text[TN_MSG_LEN];
  warning_text(text, sizeof(text), warning, info);
  mju_warning("%s Time = %.4f.", text, d->time);
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
    warn_first(d, warning, info);
  }

  // record and count
  d->warning[warning].lastinfo = info;
  d->warning[warning].number++;
}
