/* util/log.c — MuJoCo 3.14's logging API: the log handler, its configuration, the default
 * handler (console and MUJOCO_LOG.TXT), mju_info, mju_message and mju_writeLog.
 *
 * Every error, warning and info message is an mjLogMessage. The installed log handler
 * takes all of them; without one, errors and warnings go to the legacy mju_user_error and
 * mju_user_warning when those are set (subject only), and everything else to the default
 * handler. The default handler filters info and debug messages by topic, prints
 * "LEVEL[ func][ (file:line)][ time]: subject[\nbody]" (debug and info on stdout, the rest
 * on stderr, a blank line after all but debug), appends the same line with the time to
 * the log file, and ends the process with status 1 after an error that no unwinding point
 * (tn_run) will receive: the one place where the library exits, as MuJoCo's default does,
 * for programs that install no handler of their own. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"

/* the installed handler (NULL: default) and the default handler's configuration */
static mjfLogHandler log_handler = NULL;
static mjLogConfig log_config = {1, 1, "MUJOCO_LOG.TXT", 0};

/* name printed for a level; unknown levels print as debug */
static const char* level_name(int level) {
  switch (level) {
    case mjLOG_INFO: return "INFO";
    case mjLOG_WARNING: return "WARNING";
    case mjLOG_ERROR: return "ERROR";
    default: return "DEBUG";
  }
}

/* local date and time as "Thu Nov 26 03:03:18 2026" */
static void format_time(char* buf, size_t n) {
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  if (!strftime(buf, n, "%a %b %e %H:%M:%S %Y", &tm)) {
    buf[0] = '\0';
  }
}

/* write one message to f: header, subject, body, and a blank line unless debug */
static void write_message(FILE* f, const mjLogMessage* msg, const char* when) {
  fputs(level_name(msg->level), f);
  if (msg->func) {
    fprintf(f, " %s", msg->func);
  }
  if (msg->file && msg->line > 0) {
    fprintf(f, " (%s:%d)", msg->file, msg->line);
  }
  if (when) {
    fprintf(f, " %s", when);
  }
  fprintf(f, ": %s\n", msg->subject);
  if (msg->body) {
    fprintf(f, "%s\n", msg->body);
  }
  if (msg->level != mjLOG_DEBUG) {
    fputc('\n', f);
  }
}

/* the default handler: filter, console, log file, exit after an error */
static void default_handler(const mjLogMessage* msg) {
  // info and debug of a topic need that topic's bit
  int filtered = msg->level == mjLOG_INFO || msg->level == mjLOG_DEBUG;
  if (filtered && msg->topic > 0 &&
      (msg->topic > 31 || !(log_config.topics & (1 << (msg->topic - 1))))) {
    return;
  }
  char when[64];
  format_time(when, sizeof(when));

  // console
  if (log_config.logto_console) {
    FILE* out = (msg->level == mjLOG_DEBUG || msg->level == mjLOG_INFO) ? stdout : stderr;
    write_message(out, msg, msg->timestamp ? when : NULL);
    fflush(out);
  }

  // log file, always with the time
  if (log_config.logto_file) {
    FILE* f = fopen(log_config.logfile, "a");
    if (f) {
      write_message(f, msg, when);
      fclose(f);
    }
  }

  // an error nobody catches ends the program (the library's only exit: see above)
  if (msg->level == mjLOG_ERROR && !tn_unwinding()) {
    exit(EXIT_FAILURE);
  }
}

/* route a message to whichever handler is in charge */
void tn__logSend(const mjLogMessage* msg, int skip_default) {
  if (log_handler) {
    log_handler(msg);
  } else if (msg->level == mjLOG_ERROR && mju_user_error) {
    mju_user_error(msg->subject);
  } else if (msg->level == mjLOG_WARNING && mju_user_warning) {
    mju_user_warning(msg->subject);
  } else if (!skip_default) {
    default_handler(msg);
  }
}

/* install a handler; return the previous one */
mjfLogHandler mju_setLogHandler(mjfLogHandler handler) {
  mjfLogHandler prev = log_handler;
  log_handler = handler;
  return prev;
}

/* the default handler's configuration */
mjLogConfig mju_getLogConfig(void) {
  return log_config;
}

void mju_setLogConfig(mjLogConfig config) {
  config.logfile[sizeof(config.logfile) - 1] = '\0';
  log_config = config;
}

/* info message of a topic */
void mju_info(int topic, const char* msg, ...) {
  mjLogMessage m;
  memset(&m, 0, sizeof(m));
  m.level = mjLOG_INFO;
  m.topic = topic;
  va_list args;
  va_start(args, msg);
  vsnprintf(m.subject, sizeof(m.subject), msg, args);
  va_end(args);
  tn__logSend(&m, 0);
}

/* a structured message from the user */
void mju_message(const mjLogMessage* msg) {
  if (msg) {
    tn__logSend(msg, 0);
  }
}

/* append "<time>\n<type>: <msg>\n\n" to MUJOCO_LOG.TXT */
void mju_writeLog(const char* type, const char* msg) {
  char when[64];
  format_time(when, sizeof(when));
  FILE* f = fopen("MUJOCO_LOG.TXT", "a");
  if (f) {
    fprintf(f, "%s\n%s: %s\n\n", when, type ? type : "", msg ? msg : "");
    fclose(f);
  }
}
