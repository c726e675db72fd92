/* bench/bench_common.h — what the C benchmarks (bench_daemon, bench_fd) share: the clock,
 * medians, and starting a private torsiond to measure against. */
#ifndef TORSION_BENCH_COMMON_H
#define TORSION_BENCH_COMMON_H

#include <sys/types.h>

/* monotonic wall clock in seconds */
double bench_now_s(void);

/* sort n values in increasing order */
void bench_sort(double* v, int n);

/* median of n values (sorts them) */
double bench_median(double* v, int n);

/* start `torsiond` on the Unix socket sock with `workers` worker threads (and a TCP listener
 * on tcp_port when > 0); its pid once the socket answers, or -1 */
pid_t bench_start_daemon(const char* torsiond, const char* sock, int workers, int tcp_port);

/* install engine error and warning handlers that print and return: an engine error fails
 * the measurement that raised it (under tn_run or the batch APIs), never the process (the
 * engine's default handler exits, as MuJoCo's does) */
void bench_install_engine_handlers(void);

#endif /* TORSION_BENCH_COMMON_H */
