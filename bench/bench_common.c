/* bench/bench_common.c — the clock, medians and daemon start-up of the C benchmarks (see
 * bench_common.h). */
#include "bench_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <torsion/torsion.h>

#include "torsion_client.h"

/* engine errors outside an unwinding point, and warnings: printed */
static void on_engine_error(const char* msg) {
  if (!tn_unwinding()) {
    fprintf(stderr, "bench: engine error: %s\n", msg);
  }
}

static void on_engine_warning(const char* msg) {
  fprintf(stderr, "bench: engine warning: %s\n", msg);
}

/* see bench_common.h */
void bench_install_engine_handlers(void) {
  mju_user_error = on_engine_error;
  mju_user_warning = on_engine_warning;
}

/* wall clock */
double bench_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* sort helper */
static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* increasing order */
void bench_sort(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), cmp_double);
}

/* median of n values (sorts them) */
double bench_median(double* v, int n) {
  bench_sort(v, n);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* start torsiond, then wait until its socket answers */
pid_t bench_start_daemon(const char* torsiond, const char* sock, int workers, int tcp_port) {
  char nworkers[16], port[16], addr[640], err[256];
  snprintf(nworkers, sizeof(nworkers), "%d", workers);
  snprintf(port, sizeof(port), "%d", tcp_port);

  // the daemon, quiet, with the TCP listener only when asked
  const char* argv[12] = {torsiond, "--socket", sock, "--workers", nworkers, "--log-level", "warn"};
  int argc = 7;
  if (tcp_port > 0) {
    argv[argc++] = "--tcp-port";
    argv[argc++] = port;
    argv[argc++] = "--insecure-loopback=true";  // a benchmark on loopback, without a token
  }
  argv[argc] = NULL;
  pid_t pid = fork();
  if (pid == 0) {
    execv(torsiond, (char* const*)argv);
    _exit(127);
  }

  // poll its socket for up to ten seconds
  snprintf(addr, sizeof(addr), "unix:%s", sock);
  for (int i = 0; i < 200 && pid > 0; i++) {
    tnClient* c = tnc_connect(addr, err, sizeof(err));
    if (c) {
      tnc_close(c);
      return pid;
    }
    usleep(50000);
  }
  return -1;
}

/* options and the positional argument */
int bench_getopt(int argc, char** argv, const struct option* longopts, benchTakeFn take, void* ctx,
                 const char** positional, const char* prog, const char* usage) {
  opterr = 0;  // the messages below name the program and the option
  optind = 0;  // GNU getopt initializes itself afresh
  int opt;
  while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    const char* given = argv[optind - 1];
    if (opt == 'h') {
      fputs(usage, stdout);
      return -1;
    }
    if (opt == ':') {
      fprintf(stderr, "%s: option %s needs a value\n", prog, given);
      return 1;
    }
    if (opt == '?') {
      if (optopt) {
        fprintf(stderr, "%s: unknown option '-%c'\n", prog, optopt);
      } else {
        fprintf(stderr, "%s: unknown option '%s'\n", prog, given);
      }
      return 1;
    }
    if (take(ctx, opt, optarg)) {
      return 1;
    }
  }
  for (; optind < argc; optind++) {
    if (!positional || *positional) {
      fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[optind]);
      return 1;
    }
    *positional = argv[optind];
  }
  return 0;
}

/* a whole int in range */
int bench_int(const char* prog, const char* name, const char* v, int lo, int hi, int* out) {
  char* end;
  long n = strtol(v, &end, 10);
  if (!*v || *end || n < lo || n > hi) {
    fprintf(stderr, "%s: %s must be an integer in [%d, %d], got '%s'\n", prog, name, lo, hi, v);
    return 1;
  }
  *out = (int)n;
  return 0;
}

/* a finite number above a bound */
int bench_real(const char* prog, const char* name, const char* v, double lo, int inclusive,
               double* out) {
  char* end;
  double x = strtod(v, &end);
  if (!*v || *end || !isfinite(x) || x < lo || (!inclusive && x == lo)) {
    fprintf(stderr, "%s: %s must be a number %s %g, got '%s'\n", prog, name, inclusive ? ">=" : ">",
            lo, v);
    return 1;
  }
  *out = x;
  return 0;
}

/* a rounded JSON number */
json_t* bench_json_real(double v, int decimals) {
  if (!isfinite(v)) {
    return json_null();
  }
  double scale = pow(10.0, decimals);
  return json_real(round(v * scale) / scale);
}

/* one line of JSON */
char* bench_json_text(json_t* doc) {
  char* text = doc ? json_dumps(doc, JSON_REAL_PRECISION(15)) : NULL;
  json_decref(doc);
  size_t n = text ? strlen(text) : 0;
  char* line = text ? realloc(text, n + 2) : NULL;
  if (!line) {
    free(text);
    return NULL;
  }
  line[n] = '\n';
  line[n + 1] = '\0';
  return line;
}
