/* batch/batch.h — OpenMP helpers that run many independent simulations over one model.
 *
 * Each thread owns one mjData (datas[thread]); every item is reset and set from its own
 * initial state, so results are identical for every thread count. These are the only
 * OpenMP users in the engine; the daemon calls them with nthread = 1 from its workers so the
 * two parallel layers never nest. */
#ifndef TORSION_BATCH_H
#define TORSION_BATCH_H

#include <torsion/torsion.h>

/* Rollouts with mujoco.rollout semantics. state0: [B, nstate] (spec `spec`); ctrl: NULL or
 * [B, ctrl_nt, nu] with ctrl_nt = nstep or 1 (control held); out: [B, nstep, nstate] where
 * row t is the state after step t. warnings (optional, [B]) receives, per item, the
 * bitmask of mjtWarning kinds raised during the rollout. Returns 0 on success. */
int tn_rolloutBatch(const mjModel* m, mjData** datas, int nthread, int B, int nstep,
                    int spec, const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt,
                    mjtNum* out, int* warnings);

/* mj_forward for B states (spec `spec`) with optional controls [B, nu]; copies qacc into
 * qacc_out [B, nv]. Returns 0 on success. */
int tn_forwardBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* ctrl, mjtNum* qacc_out);

#endif /* TORSION_BATCH_H */
