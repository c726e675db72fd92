/* fd/fd_inverse.c — mjd_inverseFD: finite-differenced Jacobians of the inverse
 * dynamics (mj_inverse) with respect to qpos (tangent space), qvel and qacc, and of the
 * inertia matrix with respect to qpos.
 *
 * Forward differences only. Accelerations are nudged with the position and velocity stages
 * skipped, velocities with the position stage skipped. Outputs are transposed with respect
 * to control theory: row i holds the derivative with respect to input coordinate i. With
 * flg_actuation the actuator forces (mj_fwdActuation at the same state) are subtracted from
 * qfrc_inverse. DsDq, DsDv and DsDa difference the sensor values mj_inverse computes; a
 * skipped stage keeps the sensor values of the unperturbed inputs. */
#include <torsion/torsion.h>

#include "fd/fd_util.h"
#include "inverse/inverse.h"

/* scratch of one call */
typedef struct fdInverse_ {
  int flg_actuation;
  mjtNum* force;       /* nominal output force (nv) */
  mjtNum* force_plus;  /* nudged output force (nv) */
  mjtNum* mass;        /* nominal d->M (nC) */
  mjtNum* pos;         /* input qpos (nq) */
  mjtNum* dpos;        /* tangent-space position nudge (nv) */
  int sensors;         /* evaluate and difference the sensors (a Ds matrix requested) */
  mjtNum* sens;        /* nominal sensordata (nsensordata) */
} fdInverse;

/* inverse dynamics with the given skip (sensors when wanted); the output force into
 * `force` */
static void inv_eval(const mjModel* m, mjData* d, const fdInverse* w, int skipstage,
                     mjtNum* force) {
  tn__inverseSkip(m, d, skipstage, !w->sensors);
  mju_copy(force, d->qfrc_inverse, m->nv);
  if (w->flg_actuation) {
    mj_fwdActuation(m, d);
    mju_subFrom(force, d->qfrc_actuator, m->nv);
  }
}

/* row i of a Jacobian: (plus - nominal) / eps */
static void fd_row(mjtNum* row, const mjtNum* plus, const mjtNum* nominal, int n, mjtNum eps) {
  mju_sub(row, plus, nominal, n);
  mju_scl(row, row, 1 / eps, n);
}

/* row i of a sensor Jacobian (NULL: not wanted) from the sensordata of the last
 * evaluation */
static void fd_sensor_row(const mjModel* m, const mjData* d, const fdInverse* w,
                          mjtNum* DsDx, int i, mjtNum eps) {
  int ns = m->nsensordata;
  if (DsDx && w->sensors) {
    fd_row(DsDx + (size_t)i * ns, d->sensordata, w->sens, ns, eps);
  }
}

/* nudge each coordinate of `x` (qacc or qvel), with the given skip */
static void fd_vector(const mjModel* m, mjData* d, const fdInverse* w, mjtNum* x,
                      int skipstage, mjtNum eps, mjtNum* DfDx, mjtNum* DsDx) {
  int nv = m->nv;
  for (int i = 0; i < nv; i++) {
    mjtNum save = x[i];
    x[i] += eps;
    inv_eval(m, d, w, skipstage, w->force_plus);
    x[i] = save;
    if (DfDx) {
      fd_row(DfDx + (size_t)i * nv, w->force_plus, w->force, nv, eps);
    }
    fd_sensor_row(m, d, w, DsDx, i, eps);
  }
}

/* nudge each position in the tangent space; force and inertia derivatives */
static void fd_positions(const mjModel* m, mjData* d, const fdInverse* w, mjtNum eps,
                         mjtNum* DfDq, mjtNum* DsDq, mjtNum* DmDq) {
  int nv = m->nv, nC = m->nC;
  for (int i = 0; i < nv; i++) {
    mju_zero(w->dpos, nv);
    w->dpos[i] = 1;
    mj_integratePos(m, d->qpos, w->dpos, eps);
    inv_eval(m, d, w, mjSTAGE_NONE, w->force_plus);
    if (DfDq) {
      fd_row(DfDq + (size_t)i * nv, w->force_plus, w->force, nv, eps);
    }
    if (DmDq) {
      fd_row(DmDq + (size_t)i * nC, d->M, w->mass, nC, eps);
    }
    fd_sensor_row(m, d, w, DsDq, i, eps);
    mju_copy(d->qpos, w->pos, m->nq);
  }
}

/* reasons the call cannot run; 1 if it can */
static int inverse_ok(const mjModel* m, mjtNum eps, const mjtNum* DsDq, const mjtNum* DsDv,
                      const mjtNum* DsDa) {
  if (!tn__fdCheckEps("mjd_inverseFD", eps)) {
    return 0;
  }
  if (m->opt.integrator == mjINT_RK4) {
    mju_error("mjd_inverseFD: RK4 integrator is not supported");
    return 0;
  }
  if ((DsDq || DsDv || DsDa) && !tn_sensorsEvaluated(m)) {
    mju_error("mjd_inverseFD: sensor Jacobians need sensor data, but the model has a sensor "
              "type Torsion does not evaluate yet");
    return 0;
  }
  return 1;
}

/* finite-differenced inverse-dynamics Jacobians */
void mjd_inverseFD(const mjModel* m, mjData* d, mjtNum eps, mjtBool flg_actuation, mjtNum* DfDq,
                   mjtNum* DfDv, mjtNum* DfDa, mjtNum* DsDq, mjtNum* DsDv, mjtNum* DsDa,
                   mjtNum* DmDq) {
  int nq = m->nq, nv = m->nv, nC = m->nC, ns = m->nsensordata;
  if (!inverse_ok(m, eps, DsDq, DsDv, DsDa)) {
    return;
  }

  // scratch
  fdInverse w;
  w.flg_actuation = flg_actuation;
  mj_markStack(d);
  w.force = mj_stackAllocNum(d, nv ? nv : 1);
  w.force_plus = mj_stackAllocNum(d, nv ? nv : 1);
  w.mass = mj_stackAllocNum(d, nC ? nC : 1);
  w.pos = mj_stackAllocNum(d, nq ? nq : 1);
  w.dpos = mj_stackAllocNum(d, nv ? nv : 1);
  w.sensors = (DsDq || DsDv || DsDa) && ns > 0;
  w.sens = mj_stackAllocNum(d, w.sensors ? ns : 1);
  if (!w.force || !w.force_plus || !w.mass || !w.pos || !w.dpos || !w.sens) {
    mj_freeStack(d);
    mju_error("mjd_inverseFD: arena too small for the scratch vectors");
    return;
  }

  // nominal outputs
  mju_copy(w.pos, d->qpos, nq);
  inv_eval(m, d, &w, mjSTAGE_NONE, w.force);
  mju_copy(w.mass, d->M, nC);
  if (w.sensors) {
    mju_copy(w.sens, d->sensordata, ns);
  }
  int dsa = DsDa && w.sensors, dsv = DsDv && w.sensors, dsq = DsDq && w.sensors;

  // accelerations (position and velocity stages unchanged), then velocities
  if (DfDa || dsa) {
    fd_vector(m, d, &w, d->qacc, mjSTAGE_VEL, eps, DfDa, DsDa);
  }
  if (DfDv || dsv) {
    fd_vector(m, d, &w, d->qvel, mjSTAGE_POS, eps, DfDv, DsDv);
  }

  // positions
  if (DfDq || DmDq || dsq) {
    fd_positions(m, d, &w, eps, DfDq, DsDq, DmDq);
  }

  // leave d consistent with the nominal input
  if (DfDv || DfDq || DmDq || dsv || dsq) {
    inv_eval(m, d, &w, mjSTAGE_NONE, w.force_plus);
  }
  mj_freeStack(d);
}
