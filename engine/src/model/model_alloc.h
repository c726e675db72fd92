/* model/model_alloc.h — internal: allocating an mjModel from its sizes.
 *
 * The compiler fills an mjModel's int sizes, calls tn__allocModel to get every array laid
 * out in one zeroed buffer, then fills the arrays. */
#ifndef TORSION_MODEL_ALLOC_H
#define TORSION_MODEL_ALLOC_H

#include <torsion/torsion.h>

/* Allocate a model whose int sizes are copied from `sizes` (other fields of `sizes` are
 * ignored). Arrays are zeroed; opt and stat are set to MuJoCo's defaults. NULL on OOM. */
mjModel* tn__allocModel(const mjModel* sizes);

/* Set opt to MuJoCo's default options. */
void tn__defaultOption(mjOption* opt);

/* Default arena size in bytes for a model (used when <size memory> is not given). */
size_t tn__defaultArena(const mjModel* m);

#endif /* TORSION_MODEL_ALLOC_H */
