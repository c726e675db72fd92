/* common/idle_poll.h — waiting a short while for a counter to change, without sleeping.
 *
 * A worker thread that has just run out of work is usually given more within a fraction of
 * a millisecond (a trainer's next step, a session client's next request), and on a virtual
 * machine a sleeping thread's wake-up costs about as long. tn_pollChange looks at a counter
 * the producer bumps, yielding the core to any other runnable thread between looks, for up
 * to a time limit; the caller sleeps on its condition variable after a timeout as before.
 * Used by the daemon's scheduler and the Python package's worker pool. */
#ifndef TORSION_COMMON_IDLE_POLL_H
#define TORSION_COMMON_IDLE_POLL_H

#include <stdatomic.h>

/* 1 as soon as *counter differs from seen, 0 after about ns nanoseconds without a change */
int tn_pollChange(atomic_ulong* counter, unsigned long seen, long ns);

#endif /* TORSION_COMMON_IDLE_POLL_H */
