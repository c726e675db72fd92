/* collision/collision_separation.h — internal: separating directions kept across steps.
 *
 * A convex pair the native solver found apart is usually still apart at the next step, and
 * along nearly the same direction. The direction GJK ended with is kept per geom pair in
 * the mjData's persistent cache (a small direct-mapped table); the next time the pair comes
 * to the native solver, one support point of each shape along it shows whether the pair is
 * still apart by more than GJK could misjudge (twice the ccd tolerance, plus round-off). If
 * so the answer is the solver's own: no contact, without running it; else the solver runs
 * as always. Only speed depends on the table: it holds hints, validated at every use. */
#ifndef TORSION_COLLISION_SEPARATION_H
#define TORSION_COLLISION_SEPARATION_H

#include <stddef.h>

#include <torsion/torsion.h>

#include "collision/collision_support.h"

/* one geom pair's last separating direction: shape 1 lies beyond shape 2 along x; warm1,
 * warm2: the shapes' hill-climbing starts (tnConvex.meshindex) */
typedef struct tnSepSlot_ {
  int g1, g2;
  int warm1, warm2;
  mjtNum x[3];
  mjtNum spare;
} tnSepSlot;

/* the table slot of pair (g1, g2) in d's cache, NULL when d has no table */
tnSepSlot* tn__separationSlot(const mjData* d, int g1, int g2);

/* 1 if the slot holds pair (obj1, obj2) and its direction still separates them (with their
 * margins: each shape grown by half of obj->margin) by more than the native solver's
 * tolerance could hide: the solver would find no contact */
int tn__separationHolds(const tnSepSlot* slot, const tnConvex* obj1, const tnConvex* obj2);

/* remember that pair (obj1, obj2) is apart along x (NULL or a zero vector: forget it) */
void tn__separationStore(tnSepSlot* slot, const tnConvex* obj1, const tnConvex* obj2,
                         const mjtNum* x);

#endif /* TORSION_COLLISION_SEPARATION_H */
