/* model/model_query.c — MuJoCo's small model and data utilities: option defaults, solver
 * and cone queries, total mass, keyframes from the current state, copying and extracting
 * state components, resetting controls, and the debug-filled reset.
 *
 * State components follow the mjtState bit order of mj_getState (model/state.c). */
#include <string.h>

#include <torsion/torsion.h>

#include "model/model_alloc.h"

/* MuJoCo's default physics options */
void mj_defaultOption(mjOption* opt) {
  tn__defaultOption(opt);
}

/* MuJoCo's default length-range options */
void mj_defaultLROpt(mjLROpt* opt) {
  memset(opt, 0, sizeof(*opt));
  opt->mode = mjLRMODE_MUSCLE;
  opt->useexisting = 1;
  opt->uselimit = 0;
  opt->accel = 20;
  opt->maxforce = 0;
  opt->timeconst = 1;
  opt->timestep = 0.01;
  opt->inttotal = 10;
  opt->interval = 2;
  opt->tolrange = 0.05;
}

/* MuJoCo's default solref (timeconst, dampratio) and solimp; either may be NULL */
void mj_defaultSolRefImp(mjtNum* solref, mjtNum* solimp) {
  if (solref) {
    solref[0] = 0.02;
    solref[1] = 1;
  }
  if (solimp) {
    solimp[0] = 0.9;
    solimp[1] = 0.95;
    solimp[2] = 0.001;
    solimp[3] = 0.5;
    solimp[4] = 2;
  }
}

/* 1 when the constraint problem is solved in its dual form: PGS, or noslip enabled */
int mj_isDual(const mjModel* m) {
  return m->opt.solver == mjSOL_PGS || m->opt.noslip_iterations > 0;
}

/* 1 for pyramidal friction cones */
int mj_isPyramidal(const mjModel* m) {
  return m->opt.cone == mjCONE_PYRAMIDAL;
}

/* sum of the body masses (the world body excluded) */
mjtNum mj_getTotalmass(const mjModel* m) {
  mjtNum total = 0;
  for (int b = 1; b < m->nbody; b++) {
    total += m->body_mass[b];
  }
  return total;
}

/* scale masses and inertias to reach `newmass` in total (call mj_setConst afterwards) */
void mj_setTotalmass(mjModel* m, mjtNum newmass) {
  mjtNum scale = mju_max(mjMINVAL, newmass / mju_max(mjMINVAL, mj_getTotalmass(m)));
  for (int b = 1; b < m->nbody; b++) {
    m->body_mass[b] *= scale;
    for (int k = 0; k < 3; k++) {
      m->body_inertia[3 * b + k] *= scale;
    }
  }
}

/* actuator input names come with input signatures, which Torsion's actuators do not have */
const char* mj_actuatorInputName(const mjModel* m, int id, int input) {
  (void)m;
  (void)id;
  (void)input;
  return NULL;
}

/* store the current state (time, qpos, qvel, act, mocap, ctrl) in keyframe k */
void mj_setKeyframe(mjModel* m, const mjData* d, int k) {
  if (k >= m->nkey) {
    mju_error("mj_setKeyframe: index must be smaller than %d (keyframes allocated in model)",
              (int)m->nkey);
    return;
  }
  if (k < 0) {
    mju_error("mj_setKeyframe: keyframe index cannot be negative");
    return;
  }
  size_t key = (size_t)k;
  m->key_time[k] = d->time;
  mju_copy(m->key_qpos + key * m->nq, d->qpos, m->nq);
  mju_copy(m->key_qvel + key * m->nv, d->qvel, m->nv);
  mju_copy(m->key_act + key * m->na, d->act, m->na);
  mju_copy(m->key_mpos + key * 3 * m->nmocap, d->mocap_pos, 3 * m->nmocap);
  mju_copy(m->key_mquat + key * 4 * m->nmocap, d->mocap_quat, 4 * m->nmocap);
  mju_copy(m->key_ctrl + key * m->nu, d->ctrl, m->nu);
}

/* copy the state components selected by sig from src to dst (through dst's stack) */
void mj_copyState(const mjModel* m, const mjData* src, mjData* dst, int sig) {
  int n = mj_stateSize(m, sig);
  mj_markStack(dst);
  mjtNum* state = mj_stackAllocNum(dst, (size_t)n + 1);
  mj_getState(m, src, state, sig);
  mj_setState(m, dst, state, sig);
  mj_freeStack(dst);
}

/* the components of dstsig out of a state vector laid out by srcsig */
void mj_extractState(const mjModel* m, const mjtNum* src, int srcsig, mjtNum* dst, int dstsig) {
  mj_stateSize(m, srcsig);  // validates srcsig
  if (dstsig & ~srcsig) {
    mju_error("mj_extractState: dstsig is not a subset of srcsig");
    return;
  }
  int srcadr = 0, dstadr = 0;
  for (int i = 0; i < mjNSTATE; i++) {
    int bit = 1 << i;
    if (!(srcsig & bit)) {
      continue;
    }
    int n = mj_stateSize(m, bit);
    if (dstsig & bit) {
      mju_copy(dst + dstadr, src + srcadr, n);
      dstadr += n;
    }
    srcadr += n;
  }
}

/* neutral controls: zero (Torsion's actuators have no quaternion inputs) */
void mj_resetCtrl(const mjModel* m, mjData* d) {
  mju_zero(d->ctrl, m->nu);
}

/* mj_resetData with every array not set by the reset filled with the byte debug_value, so
 * reads of quantities the pipeline has not computed yet stand out */
void mj_resetDataDebug(const mjModel* m, mjData* d, unsigned char debug_value) {
  mj_resetData(m, d);
  memset(d->buffer, (int)debug_value, d->nbuffer);

  // the inputs and outputs the reset defines (MuJoCo's list)
  mju_zero(d->qvel, m->nv);
  mju_zero(d->act, m->na);
  mju_zero(d->ctrl, m->nu);
  mju_zero(d->qfrc_applied, m->nv);
  mju_zero(d->xfrc_applied, 6 * m->nbody);
  mju_zero(d->qacc, m->nv);
  mju_zero(d->qacc_warmstart, m->nv);
  mju_zero(d->act_dot, m->na);
  mju_zero(d->userdata, m->nuserdata);
  mju_zero(d->sensordata, m->nsensordata);
  mju_zero(d->history, m->nhistory);
  mju_zero(d->plugin_state, m->npluginstate);
  mju_copy(d->qpos, m->qpos0, m->nq);
  for (int i = 0; i < m->neq; i++) {
    d->eq_active[i] = m->eq_active0[i];
  }

  // mocap bodies at their model poses
  mju_zero(d->mocap_pos, 3 * m->nmocap);
  mju_zero(d->mocap_quat, 4 * m->nmocap);
  for (int b = 0; b < m->nbody; b++) {
    int id = m->body_mocapid[b];
    if (id >= 0) {
      mju_copy3(d->mocap_pos + 3 * id, m->body_pos + 3 * b);
      mju_copy4(d->mocap_quat + 4 * id, m->body_quat + 4 * b);
    }
  }
}
