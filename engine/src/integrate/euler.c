/* integrate/euler.c — semi-implicit Euler with implicit joint damping, and the state
 * update shared by all integrators.
 *
 * Semi-implicit: v' = v + h*a, then q' = q + h*v' (positions use the new velocity). When
 * any dof has damping (and neither mjDSBL_EULERDAMP nor mjDSBL_DAMPER is set) it is integrated
 * implicitly: a = (M + h*diag(damping))^-1 (qfrc_smooth + qfrc_constraint), with the
 * modified inertia factored in d->qH / d->qHDiagInv (same CSR layout as M). */
#include <math.h>

#include <torsion/torsion.h>

#include "actuation/actuation.h"
#include "integrate/integrate.h"
#include "lanes/lanes.h"
#include "smooth/smooth.h"
#include "util/timer.h"

/* 1 if actuator u's group is disabled by mjOption.disableactuator */
static int actuator_disabled(const mjModel* m, int u) {
  int group = m->actuator_group[u];
  return group >= 0 && group <= 30 && (m->opt.disableactuator & (1 << group));
}

/* advance activations, velocities, positions and time by one timestep */
void tn__advance(const mjModel* m, mjData* d, const mjtNum* act_dot, const mjtNum* qacc,
                 const mjtNum* qvel) {
  mjtNum h = m->opt.timestep;

  // activations of stateful actuators (stateless ones have actnum = 0); frozen, not even
  // clamped, while actuation is disabled; those of disabled groups advance with act_dot 0
  if (m->na && !(m->opt.disableflags & mjDSBL_ACTUATION)) {
    for (int u = 0; u < m->nu; u++) {
      int adr = m->actuator_actadr[u], num = m->actuator_actnum[u];
      int off = actuator_disabled(m, u);
      for (int k = adr; k < adr + num; k++) {
        d->act[k] = tn__nextActivation(m, u, d->act[k], off ? 0 : act_dot[k]);
      }
    }
  }

  // keep the acceleration for the solver's warmstart
  mju_copy(d->qacc_warmstart, d->qacc, m->nv);

  // velocities, then positions (with the new velocity unless one is given), then time
  mju_addToScl(d->qvel, qacc, h, m->nv);
  mj_integratePos(m, d->qpos, qvel ? qvel : d->qvel, h);
  d->time += h;
}

/* does any dof need implicit damping? (not when damping or eulerdamp is disabled) */
int tn__eulerDamped(const mjModel* m) {
  if (m->opt.disableflags & (mjDSBL_EULERDAMP | mjDSBL_DAMPER)) {
    return 0;
  }
  for (int i = 0; i < m->nv; i++) {
    if (m->dof_damping[i] > 0) {
      return 1;
    }
  }
  return 0;
}

/* the damped Euler's right-hand side: every force, constraint included */
static void euler_rhs(const mjModel* m, const mjData* d, mjtNum* qacc) {
  mju_add(qacc, d->qfrc_smooth, d->qfrc_constraint, m->nv);
}

/* qacc with damping integrated implicitly: (M + h*diag(damping)) qacc = total force */
static void euler_damped_qacc(const mjModel* m, mjData* d, mjtNum* qacc) {
  int nv = m->nv;
  mjtNum h = m->opt.timestep;
  euler_rhs(m, d, qacc);

  // qH = M + h*diag(damping), factored in place
  mju_copy(d->qH, d->M, m->nC);
  for (int i = 0; i < nv; i++) {
    d->qH[m->M_rowadr[i] + m->M_rownnz[i] - 1] += h * m->dof_damping[i];
  }
  tn__factorLD(m, d, d->qH, d->qHDiagInv);

  // solve
  tn__solveLD(m, qacc, 1, d->qH, d->qHDiagInv);
}

/* semi-implicit Euler step */
void mj_Euler(const mjModel* m, mjData* d) {
  mjtNum t = timer_start();

  // no damping: use the forward dynamics' acceleration
  if (!tn__eulerDamped(m)) {
    tn__advance(m, d, d->act_dot, d->qacc, NULL);
    timer_end(d, mjTIMER_ADVANCE, t);
    return;
  }

  // damping: implicit in velocity
  mj_markStack(d);
  mjtNum* qacc = mj_stackAllocNum(d, m->nv);
  if (qacc) {
    euler_damped_qacc(m, d, qacc);
    tn__advance(m, d, d->act_dot, qacc, NULL);
  }
  mj_freeStack(d);
  timer_end(d, mjTIMER_ADVANCE, t);
}

/* Euler for a group of TN_LANES datas: the damped factor in lanes (the advance timer takes
 * a share of the group's time) */
void tn__eulerLanes(const mjModel* m, mjData* const* d) {
  mjtNum t = timer_start();
  if (!tn__eulerDamped(m)) {
    for (int l = 0; l < TN_LANES; l++) {
      tn__advance(m, d[l], d[l]->act_dot, d[l]->qacc, NULL);
    }
    tn__lanesTimerEnd(d, mjTIMER_ADVANCE, t);
    return;
  }

  // right-hand sides, the factors of M + h*diag(damping) together, then each solve
  mjtNum* qacc[TN_LANES];
  for (int l = 0; l < TN_LANES; l++) {
    mj_markStack(d[l]);
    qacc[l] = mj_stackAllocNum(d[l], m->nv);
    if (qacc[l]) {
      euler_rhs(m, d[l], qacc[l]);
    }
  }
  tn__factorHLanes(m, d);
  if (qacc[0] && qacc[1] && qacc[2] && qacc[3]) {
    tn__solveLanes(m, d, qacc, 1);
  } else {
    for (int l = 0; l < TN_LANES; l++) {
      if (qacc[l]) {
        tn__solveLD(m, qacc[l], 1, d[l]->qH, d[l]->qHDiagInv);
      }
    }
  }
  for (int l = 0; l < TN_LANES; l++) {
    if (qacc[l]) {
      tn__advance(m, d[l], d[l]->act_dot, qacc[l], NULL);
    }
    mj_freeStack(d[l]);
  }
  tn__lanesTimerEnd(d, mjTIMER_ADVANCE, t);
}
