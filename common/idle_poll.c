/* common/idle_poll.c — waiting a short while for a counter to change (see idle_poll.h). */
#include "idle_poll.h"

#include <sched.h>
#include <time.h>

/* look, yield, look again until the counter moves or the time is up */
int tn_pollChange(atomic_ulong* counter, unsigned long seen, long ns) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    if (atomic_load_explicit(counter, memory_order_relaxed) != seen) {
      return 1;
    }
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > ns) {
      return 0;
    }
  }
}
