/* model/efc_arena.h — internal: the region of mjData's arena that holds the efc_* arrays.
 *
 * The arena belongs to mjData (model/data.c makes, copies and resets it); the scratch stack
 * grows up from its bottom and the efc region down from its top (model/efc_arena.c). The
 * constraint stage fills the region; mj_copyData and mj_resetData copy or release it. */
#ifndef TORSION_MODEL_EFC_ARENA_H
#define TORSION_MODEL_EFC_ARENA_H

#include <stddef.h>

#include <torsion/torsion.h>

/* Release the efc arrays (parena = 0, nefc = 0). */
void tn__efcRelease(mjData* d);

/* Allocate every efc array for d->nefc rows and d->nJ Jacobian non-zeros, plus `nA` AR
 * values when known (else tn__allocAR adds them). Returns 0 (with mjWARN_CNSTRFULL) if the
 * arena is too small, leaving nefc = 0. */
int tn__efcAllocate(const mjModel* m, mjData* d, int nA);

/* Allocate `n` more ints from the efc region (the sparse AR pattern); NULL if full. */
int* tn__efcAllocInt(mjData* d, size_t n);
mjtNum* tn__efcAllocNum(mjData* d, size_t n);

/* After copying mjData src into dest (same model): copy src's efc region into dest's arena
 * and point dest's efc arrays into it (for mj_copyData). */
void tn__efcCopy(mjData* dest, const mjData* src);

#endif /* TORSION_MODEL_EFC_ARENA_H */
