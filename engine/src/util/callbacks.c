/* util/callbacks.c — the user's pipeline callbacks (MuJoCo's mjcb_*), user memory handlers
 * and the aligned allocator mju_malloc/mju_free.
 *
 * The callbacks are plain process-wide pointers, NULL by default; each stage that has a
 * hook tests its pointer in one line, so with none installed nothing changes. mjcb_time
 * lives with the stage timers (forward/forward.c). */
#include <stdint.h>
#include <stdlib.h>

#include <torsion/torsion.h>

/* the pipeline hooks */
mjfGeneric mjcb_control = NULL;
mjfGeneric mjcb_passive = NULL;
mjfConFilt mjcb_contactfilter = NULL;
mjfSensor mjcb_sensor = NULL;
mjfAct mjcb_act_dyn = NULL;
mjfAct mjcb_act_gain = NULL;
mjfAct mjcb_act_bias = NULL;

/* the user's allocator (NULL: 64-byte aligned system allocation) */
void* (*mju_user_malloc)(size_t size) = NULL;
void (*mju_user_free)(void* ptr) = NULL;

/* alignment and size granule of mju_malloc */
#define TN_MALLOC_ALIGN 64

/* every callback back to NULL */
void mj_resetCallbacks(void) {
  mjcb_control = NULL;
  mjcb_passive = NULL;
  mjcb_contactfilter = NULL;
  mjcb_sensor = NULL;
  mjcb_time = NULL;
  mjcb_act_dyn = NULL;
  mjcb_act_gain = NULL;
  mjcb_act_bias = NULL;
}

/* legacy error handlers and user memory back to the defaults */
void mju_clearHandlers(void) {
  mju_user_error = NULL;
  mju_user_warning = NULL;
  mju_user_malloc = NULL;
  mju_user_free = NULL;
}

/* allocate through the user's allocator or 64-byte aligned, padded to 64 bytes; NULL when
 * the allocation fails (the callers report it: a failed load, mj_makeData's error) */
void* mju_malloc(size_t size) {
  if (size == 0) {
    return NULL;
  }
  void* ptr;
  if (mju_user_malloc) {
    ptr = mju_user_malloc(size);
  } else if (size > SIZE_MAX - TN_MALLOC_ALIGN) {
    ptr = NULL;
  } else {
    size_t padded = (size + TN_MALLOC_ALIGN - 1) / TN_MALLOC_ALIGN * TN_MALLOC_ALIGN;
    ptr = aligned_alloc(TN_MALLOC_ALIGN, padded);
  }
  return ptr;
}

/* free through the user's allocator or the system's */
void mju_free(void* ptr) {
  if (!ptr) {
    return;
  }
  if (mju_user_free) {
    mju_user_free(ptr);
  } else {
    free(ptr);
  }
}
