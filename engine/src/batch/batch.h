/* batch/batch.h — internal include for the OpenMP batch helpers, whose declarations
 * (tn_rolloutBatch, tn_forwardBatch, ...) are public in torsion.h. These are the only OpenMP
 * users in the engine; the daemon calls them with nthread = 1 from its workers so the two
 * parallel layers never nest. */
#ifndef TORSION_BATCH_H
#define TORSION_BATCH_H

#include <torsion/torsion.h>

/* clear a batch status (NULL allowed): no failed item */
void tn__batchStatusClear(tnBatchStatus* status);

/* run item b as fn(arg) on d under an unwinding point; on an engine error reset d, record
 * the item in status (the lowest failing index is kept; safe from any OpenMP thread) and
 * return -1, else 0 */
int tn__batchRunItem(const mjModel* m, mjData* d, int b, tnRunFn fn, void* arg,
                     tnBatchStatus* status);

/* the result of a batch: 0, or the number of failed items */
int tn__batchResult(const tnBatchStatus* status);

/* fill an optional output block of n numbers with NaN (a failed item's results) */
void tn__batchFillNaN(mjtNum* out, size_t n);

#endif /* TORSION_BATCH_H */
