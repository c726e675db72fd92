/* passive/passive.c — mj_passive: all forces that depend only on position and velocity.
 *
 * qfrc_passive = qfrc_spring + qfrc_damper + qfrc_gravcomp (joints whose gravity
 * compensation is not routed to actuators) + qfrc_fluid. Each part keeps its own vector so
 * that users (and the implicit integrators) can inspect them separately. */

#include "passive/fluid.h"
#include "passive/passive_internal.h"

/* add qfrc_gravcomp to qfrc_passive for joints that do not route it to actuators */
static void add_gravcomp(const mjModel* m, mjData* d) {
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_actgravcomp[j]) {
      continue;
    }
    int adr = m->jnt_dofadr[j];
    int num = (m->jnt_type[j] == mjJNT_FREE ? 6 : m->jnt_type[j] == mjJNT_BALL ? 3 : 1);
    mju_addTo(d->qfrc_passive + adr, d->qfrc_gravcomp + adr, num);
  }
}

/* passive forces */
void mj_passive(const mjModel* m, mjData* d) {
  int nv = m->nv;

  // clear all passive force vectors
  mju_zero(d->qfrc_spring, nv);
  mju_zero(d->qfrc_damper, nv);
  mju_zero(d->qfrc_gravcomp, nv);
  mju_zero(d->qfrc_fluid, nv);
  mju_zero(d->qfrc_passive, nv);

  // springs and dampers both disabled: no passive forces at all
  if ((m->opt.disableflags & mjDSBL_SPRING) && (m->opt.disableflags & mjDSBL_DAMPER)) {
    return;
  }

  // spring-dampers, gravity compensation, fluid
  tn__springDamper(m, d);
  int has_gravcomp = tn__gravcomp(m, d);
  int has_fluid = (m->opt.density != 0 || m->opt.viscosity != 0);
  if (has_fluid) {
    tn__fluidForces(m, d);
  }

  // sum the parts
  mju_add(d->qfrc_passive, d->qfrc_spring, d->qfrc_damper, nv);
  if (has_gravcomp) {
    add_gravcomp(m, d);
  }
  if (has_fluid) {
    mju_addTo(d->qfrc_passive, d->qfrc_fluid, nv);
  }

  // the user's passive forces
  if (mjcb_passive) {
    mjcb_passive(m, d);
  }
}
