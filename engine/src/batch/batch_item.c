/* batch/batch_item.c — one batch item under its own unwinding point, and the record of
 * which items failed.
 *
 * Every batch helper runs each item through tn__batchRunItem: an engine error inside the
 * item (an exhausted arena, an unbalanced stack, ...) unwinds to here, the item's mjData is
 * reset for the next item, and the failure is counted in the caller's tnBatchStatus. The
 * lowest failing index is the one reported, so the report does not depend on how items
 * were spread over threads. */
#include <math.h>
#include <stdio.h>

#include "batch/batch.h"

/* no failed item */
void tn__batchStatusClear(tnBatchStatus* status) {
  if (status) {
    status->nfailed = 0;
    status->item = -1;
    status->error[0] = '\0';
  }
}

/* run one item; on failure reset d and record it */
int tn__batchRunItem(const mjModel* m, mjData* d, int b, tnRunFn fn, void* arg,
                     tnBatchStatus* status) {
  char error[sizeof(((tnBatchStatus*)0)->error)];
  if (tn_run(d, fn, arg, error, (int)sizeof(error)) == 0) {
    return 0;
  }

  // the next item on this mjData starts clean
  mj_resetData(m, d);

  // count it; keep the message of the lowest failing index
  if (status) {
#pragma omp critical(tn__batch_status)
    {
      status->nfailed++;
      if (status->item < 0 || b < status->item) {
        status->item = b;
        snprintf(status->error, sizeof(status->error), "%s", error);
      }
    }
  }
  return -1;
}

/* 0, or the number of failed items */
int tn__batchResult(const tnBatchStatus* status) {
  return status ? status->nfailed : 0;
}

/* NaN over a failed item's output block */
void tn__batchFillNaN(mjtNum* out, size_t n) {
  if (out) {
    for (size_t i = 0; i < n; i++) {
      out[i] = NAN;
    }
  }
}
