/* batch/batch.h — internal include for the OpenMP batch helpers, whose declarations
 * (tn_rolloutBatch, tn_forwardBatch) are public in torsion.h. These are the only OpenMP
 * users in the engine; the daemon calls them with nthread = 1 from its workers so the two
 * parallel layers never nest. */
#ifndef TORSION_BATCH_H
#define TORSION_BATCH_H

#include <torsion/torsion.h>

#endif /* TORSION_BATCH_H */
