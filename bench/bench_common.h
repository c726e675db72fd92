/* bench/bench_common.h — what the C benchmarks (bench_daemon, bench_fd) share: the clock,
 * medians, starting a private torsiond to measure against, option parsing and JSON output. */
#ifndef TORSION_BENCH_COMMON_H
#define TORSION_BENCH_COMMON_H

#include <getopt.h>
#include <jansson.h>
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

/* one option, given to a benchTakeFn: `opt` is its val in the struct option table, `v` its
 * value (NULL when it takes none); 0, or 1 after printing why */
typedef int (*benchTakeFn)(void* ctx, int opt, const char* v);

/* parse argv with getopt_long (options and one positional argument, stored in *positional
 * when that is not NULL, in any order; "--name=value" or "--name value"); -h/--help prints
 * usage to stdout. Returns 0, -1 after the help, or 1 after printing why (with prog). */
int bench_getopt(int argc, char** argv, const struct option* longopts, benchTakeFn take, void* ctx,
                 const char** positional, const char* prog, const char* usage);

/* a whole int in [lo, hi] from text; 0, or 1 after printing "prog: --name must be ..." */
int bench_int(const char* prog, const char* name, const char* v, int lo, int hi, int* out);

/* a finite number > lo (or >= lo when inclusive) from text; 0, or 1 after printing why */
int bench_real(const char* prog, const char* name, const char* v, double lo, int inclusive,
               double* out);

/* a JSON number rounded to `decimals` places (jansson); null when v is not finite */
json_t* bench_json_real(double v, int decimals);

/* the document as one line of text ending in a newline, reals with 15 significant digits
 * (what rounded measurements need), and free it; malloc'd, NULL when out of memory */
char* bench_json_text(json_t* doc);

/* install engine error and warning handlers that print and return: an engine error fails
 * the measurement that raised it (under tn_run or the batch APIs), never the process (the
 * engine's default handler exits, as MuJoCo's does) */
void bench_install_engine_handlers(void);

#endif /* TORSION_BENCH_COMMON_H */
