/* fd/fd_util.c — helpers shared by the finite-difference derivatives: argument
 * checks, a step skipping the pipeline stages whose inputs were not perturbed, and
 * differences of physics states in the tangent space of the joint positions. */
#include <math.h>

#include <torsion/torsion.h>

#include "fd/fd_util.h"
#include "forward/forward.h"
#include "integrate/implicit.h"

/* eps must be positive and finite */
int tn__fdCheckEps(const char* who, mjtNum eps) {
  if (!(eps > 0) || !isfinite(eps)) {
    mju_error("%s: eps must be a positive finite number, got %g", who, (double)eps);
    return 0;
  }
  return 1;
}

/* mj_step with a forward pass that skips unchanged stages */
void tn__fdStepSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  // check the state, forward dynamics, check the result
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  tn__forwardSkip(m, d, skipstage, skipsensor);
  mj_checkAcc(m, d);

  // optional forward/inverse comparison
  if (m->opt.enableflags & mjENBL_FWDINV) {
    mj_compareFwdInv(m, d);
  }

  // integrate with the model's integrator
  switch (m->opt.integrator) {
    case mjINT_EULER: mj_Euler(m, d); break;
    case mjINT_RK4: mj_RungeKutta(m, d, 4); break;
    case mjINT_IMPLICIT:
    case mjINT_IMPLICITFAST: mj_implicit(m, d); break;
    default: mju_error("finite differences: invalid integrator %d", m->opt.integrator); break;
  }
}

/* qpos, qvel, act */
void tn__fdGetState(const mjModel* m, const mjData* d, mjtNum* state) {
  mju_copy(state, d->qpos, m->nq);
  mju_copy(state + m->nq, d->qvel, m->nv);
  mju_copy(state + m->nq + m->nv, d->act, m->na);
}

/* (s2 - s1) / h in the tangent space */
void tn__fdStateDiff(const mjModel* m, mjtNum* ds, const mjtNum* s1, const mjtNum* s2, mjtNum h) {
  int nq = m->nq, nv = m->nv, na = m->na;

  // no quaternions: plain differences of the whole state
  if (nq == nv) {
    mju_sub(ds, s2, s1, nq + nv + na);
    mju_scl(ds, ds, 1 / h, nq + nv + na);
    return;
  }

  // positions on the manifold, then velocities and activations
  mj_differentiatePos(m, ds, h, s1, s2);
  mju_sub(ds + nv, s2 + nq, s1 + nq, nv + na);
  mju_scl(ds + nv, ds + nv, 1 / h, nv + na);
}

/* forward, backward or centered difference, by which neighbours exist */
void tn__fdClampedStateDiff(const mjModel* m, mjtNum* ds, const mjtNum* s, const mjtNum* s_plus,
                            const mjtNum* s_minus, mjtNum h) {
  if (s_plus && !s_minus) {
    tn__fdStateDiff(m, ds, s, s_plus, h);
  } else if (!s_plus && s_minus) {
    tn__fdStateDiff(m, ds, s_minus, s, h);
  } else if (s_plus && s_minus) {
    tn__fdStateDiff(m, ds, s_minus, s_plus, 2 * h);
  } else {
    mju_zero(ds, 2 * m->nv + m->na);
  }
}

/* column j of a row-major matrix */
void tn__fdSetColumn(mjtNum* mat, const mjtNum* col, int n, int ncol, int j) {
  for (int i = 0; i < n; i++) {
    mat[(size_t)i * ncol + j] = col[i];
  }
}
