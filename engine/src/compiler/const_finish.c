/* compiler/const_finish.c — tn__compileFinish: constants MuJoCo derives after compiling.
 *
 * The MJCF compiler fills every field read from the model file plus the trees and
 * addresses; this pass derives the rest, in dependency order: sparsity patterns (needed
 * by the inertia), body/geom/site flags and geom bounds (needed by the statistics), fluid
 * coefficients, then everything evaluated by running the smooth pipeline at qpos0. */
#include <stdio.h>

#include "compiler/compile_helpers.h"
#include "compiler/const_internal.h"

/* the post-compilation pass */
int tn__compileFinish(mjModel* m, char* err, int errsz) {
  char none[1];
  if (!err || errsz <= 0) {
    err = none;
    errsz = 1;
  }
  err[0] = 0;

  // structure: sparsity, frame flags, bounds, fluid coefficients
  tn__fillSparsity(m);
  tn__fillBodyFlags(m);
  tn__fillGeomBounds(m);
  tn__fillFluid(m);

  // inertia must be usable before the pipeline runs at qpos0
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_mass[b] < 0 || m->body_inertia[3 * b] < 0 || m->body_inertia[3 * b + 1] < 0 ||
        m->body_inertia[3 * b + 2] < 0) {
      snprintf(err, (size_t)errsz, "body %d has negative mass or inertia", b);
      return 0;
    }
  }

  // constants at qpos0, and the statistics
  return tn__fillQpos0(m, err, errsz);
}
