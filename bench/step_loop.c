/* bench/step_loop.c — the benchmarks' step loop: calls an engine's mj_step through a function
 * pointer n times in a row. The Python benchmarks time both engines through this one loop, so
 * neither pays a per-step Python call (MuJoCo's bindings and ctypes cost different amounts,
 * several hundred nanoseconds each, a sizeable share of a small model's step). Neither engine
 * is linked: the benchmarks pass the addresses of the mj_step functions they loaded. */

/* one engine's mj_step(m, d) */
typedef void (*bench_step_fn)(const void* m, void* d);

/* n steps of (m, d) */
void bench_steps(bench_step_fn step, const void* m, void* d, int n) {
  for (int i = 0; i < n; i++) {
    step(m, d);
  }
}
