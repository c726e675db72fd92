/* server/log.c — structured logfmt lines on stderr (see log.h). */
#include "log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* the current threshold (read by every thread, set once at startup) */
static atomic_int log_level = TD_LOG_INFO;

/* level names, indexed by tdLogLevel */
static const char* level_names[] = {"debug", "info", "warn", "error", "off"};

/* set the threshold */
void td_log_set_level(tdLogLevel level) {
  atomic_store(&log_level, (int)level);
}

/* parse a level name */
int td_log_parse_level(const char* name) {
  for (int i = 0; i <= TD_LOG_OFF; i++) {
    if (!strcmp(name, level_names[i])) {
      return i;
    }
  }
  return -1;
}

/* is this level printed */
int td_log_enabled(tdLogLevel level) {
  return (int)level >= atomic_load(&log_level) && level < TD_LOG_OFF;
}

/* quote a value when it holds spaces, quotes, '=' or control characters */
const char* td_log_quote(char* out, int outsz, const char* s) {
  int plain = s[0] != '\0';
  for (const char* p = s; *p; p++) {
    if (*p <= ' ' || *p == '"' || *p == '=' || *p == '\\' || *p == 0x7f) {
      plain = 0;
    }
  }
  if (plain) {
    snprintf(out, (size_t)outsz, "%s", s);
    return out;
  }

  // escape into a quoted string, truncating at the buffer's end
  int n = 0;
  out[n++] = '"';
  for (const char* p = s; *p && n < outsz - 6; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '"' || c == '\\') {
      out[n++] = '\\';
      out[n++] = (char)c;
    } else if (c == '\n') {
      out[n++] = '\\';
      out[n++] = 'n';
    } else if (c < ' ' || c == 0x7f) {
      n += snprintf(out + n, (size_t)(outsz - n), "\\x%02x", c);
    } else {
      out[n++] = (char)c;
    }
  }
  out[n++] = '"';
  out[n] = '\0';
  return out;
}

/* print one line */
void td_log(tdLogLevel level, const char* event, const char* fields, ...) {
  if (!td_log_enabled(level)) {
    return;
  }

  // timestamp in UTC with milliseconds
  char line[2048];
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  int n = snprintf(line, sizeof(line), "ts=%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ level=%s event=%s",
                   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                   ts.tv_nsec / 1000000, level_names[level], event);

  // the caller's fields
  if (fields && fields[0] && n < (int)sizeof(line) - 2) {
    line[n++] = ' ';
    va_list ap;
    va_start(ap, fields);
    int k = vsnprintf(line + n, sizeof(line) - (size_t)n, fields, ap);
    va_end(ap);
    n = (k < 0) ? n : (n + k >= (int)sizeof(line) - 1 ? (int)sizeof(line) - 2 : n + k);
  }
  line[n++] = '\n';
  line[n] = '\0';
  fputs(line, stderr);
}
