/* util/timer.h — internal: the pipeline's optional stage timers (mjData.timer), active
 * only when the user installed the clock mjcb_time (the forward stages and the collision
 * stage's broad/narrow split). */
#ifndef TORSION_UTIL_TIMER_H
#define TORSION_UTIL_TIMER_H

#include <torsion/torsion.h>

/* current time, or 0 when no clock is installed */
static inline mjtNum timer_start(void) {
  return mjcb_time ? mjcb_time() : 0;
}

/* add the time since `start` to timer `id` */
static inline void timer_end(mjData* d, int id, mjtNum start) {
  if (mjcb_time) {
    d->timer[id].duration += mjcb_time() - start;
    d->timer[id].number++;
  }
}

/* add the time since `start` to timer `id` without counting a call (the second half of a
 * call timed in two parts) */
static inline void timer_add(mjData* d, int id, mjtNum start) {
  if (mjcb_time) {
    d->timer[id].duration += mjcb_time() - start;
  }
}

#endif /* TORSION_UTIL_TIMER_H */
