/* util/log.h — the message dispatch shared by mju_error, mju_warning and the logging API. */
#ifndef TORSION_UTIL_LOG_H
#define TORSION_UTIL_LOG_H

#include <torsion/torsion.h>

/* Give msg to the installed log handler, else to the legacy mju_user_error or
 * mju_user_warning (errors and warnings), else to the default handler unless
 * skip_default is set. */
void tn__logSend(const mjLogMessage* msg, int skip_default);

#endif
