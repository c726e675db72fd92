/* smooth/tendon_wrap.h — internal interface of the tendon wrapping geometry.
 *
 * A spatial tendon segment between two sites may wrap around a sphere or an (infinite)
 * cylinder. tendon_wrap.c computes the shortest path around the obstacle; mj_tendon
 * (tendon.c) assembles lengths and Jacobians from the resulting points. */
#ifndef TORSION_SMOOTH_TENDON_WRAP_H
#define TORSION_SMOOTH_TENDON_WRAP_H

#include <torsion/torsion.h>

/* Wrap the segment x0-x1 around the obstacle of type `type` (mjWRAP_SPHERE or
 * mjWRAP_CYLINDER) with frame (xpos, xmat) and radius `radius`. `side` (global position of
 * the side site) may be NULL. Returns -1 when the segment does not wrap; otherwise writes
 * the two tangent points (global) into wpnt[0..5] and returns the length of the path on
 * the obstacle's surface between them. */
mjtNum tn__wrap(mjtNum wpnt[6], const mjtNum x0[3], const mjtNum x1[3], const mjtNum xpos[3],
                const mjtNum xmat[9], mjtNum radius, int type, const mjtNum* side);

#endif /* TORSION_SMOOTH_TENDON_WRAP_H */
