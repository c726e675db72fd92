/* compiler/set_const.c — mj_setConst: recompute the model constants that depend on masses,
 * inertias and the reference configuration after the user edited a compiled model (for
 * example with mj_setTotalmass): subtree masses, then everything the compiler evaluates at
 * qpos0 and qpos_spring (dof_M0, inverse weights, actuator_acc0 and lengths, equality
 * anchors, camera/light references, statistics). Length ranges are left as they are. */
#include <torsion/torsion.h>

#include "compiler/const_internal.h"

/* the model constants at qpos0; d is not needed (the evaluation uses its own data) */
void mj_setConst(mjModel* m, mjData* d) {
  (void)d;

  // subtree masses: each body's mass plus its descendants'
  for (int b = 0; b < m->nbody; b++) {
    m->body_subtreemass[b] = m->body_mass[b];
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    m->body_subtreemass[m->body_parentid[b]] += m->body_subtreemass[b];
  }

  // the quantities evaluated at qpos0 and qpos_spring
  char err[512];
  if (!tn__fillQpos0(m, err, (int)sizeof(err))) {
    mju_error("mj_setConst: %s", err);
  }
}
