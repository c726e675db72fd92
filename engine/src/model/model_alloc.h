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

/* MuJoCo's default arena size in bytes for a model without <size memory> (nstack: the
 * <size nstack> value, or -1 when not given). */
size_t tn__mujocoArena(const mjModel* m, long long nstack);

/* Torsion's default arena size in bytes (used when <size memory> is not given): MuJoCo's
 * less Torsion's mjData struct and array buffer. */
size_t tn__defaultArena(const mjModel* m, long long nstack);

/* Bytes of the array buffer mj_makeData allocates for model m. */
size_t tn__dataBufferBytes(const mjModel* m);

#endif /* TORSION_MODEL_ALLOC_H */
