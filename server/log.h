/* server/log.h — structured logging on stderr for torsiond.
 *
 * One line per event in logfmt ("ts=... level=info event=listen path=/tmp/s"), written
 * with a single stdio call so lines from the loop and the workers never interleave. */
#ifndef TORSIOND_LOG_H
#define TORSIOND_LOG_H

/* severity levels, lowest first */
typedef enum tdLogLevel_ {
  TD_LOG_DEBUG = 0,
  TD_LOG_INFO,
  TD_LOG_WARN,
  TD_LOG_ERROR,
  TD_LOG_OFF
} tdLogLevel;

/* set the lowest level that is printed */
void td_log_set_level(tdLogLevel level);

/* parse "debug" | "info" | "warn" | "error" | "off"; returns -1 if unknown */
int td_log_parse_level(const char* name);

/* 1 when `level` would be printed */
int td_log_enabled(tdLogLevel level);

/* print one event: `fields` is a printf format of space-separated key=value pairs */
void td_log(tdLogLevel level, const char* event, const char* fields, ...)
    __attribute__((format(printf, 3, 4)));

/* copy `s` into `out` as a logfmt value: quoted and escaped when it needs to be */
const char* td_log_quote(char* out, int outsz, const char* s);

#endif /* TORSIOND_LOG_H */
