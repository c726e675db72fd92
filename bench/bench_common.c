/* bench/bench_common.c — the clock, medians and daemon start-up of the C benchmarks (see
 * bench_common.h). */
#include "bench_common.h"

#include <stdio.h>
#include <stdlib.h>
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
