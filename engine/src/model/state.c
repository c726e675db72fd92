/* model/state.c — mj_stateSize, mj_getState and mj_setState.
 *
 * The state vector is the concatenation of the components selected by an mjtState spec, in
 * the order of the mjtState bits, exactly as MuJoCo lays it out. */
#include <string.h>

#include <torsion/torsion.h>

/* size of one state component */
static int component_size(const mjModel* m, int bit) {
  switch (bit) {
    case mjSTATE_TIME: return 1;
    case mjSTATE_QPOS: return m->nq;
    case mjSTATE_QVEL: return m->nv;
    case mjSTATE_ACT: return m->na;
    case mjSTATE_HISTORY: return m->nhistory;
    case mjSTATE_WARMSTART: return m->nv;
    case mjSTATE_CTRL: return m->nu;
    case mjSTATE_QFRC_APPLIED: return m->nv;
    case mjSTATE_XFRC_APPLIED: return 6 * m->nbody;
    case mjSTATE_EQ_ACTIVE: return m->neq;
    case mjSTATE_MOCAP_POS: return 3 * m->nmocap;
    case mjSTATE_MOCAP_QUAT: return 4 * m->nmocap;
    case mjSTATE_USERDATA: return m->nuserdata;
    case mjSTATE_PLUGIN: return m->npluginstate;
    default: return 0;
  }
}

/* mjtNum array behind a component (NULL for time and eq_active, handled separately) */
static mjtNum* component_ptr(const mjData* d, int bit) {
  switch (bit) {
    case mjSTATE_QPOS: return d->qpos;
    case mjSTATE_QVEL: return d->qvel;
    case mjSTATE_ACT: return d->act;
    case mjSTATE_HISTORY: return d->history;
    case mjSTATE_WARMSTART: return d->qacc_warmstart;
    case mjSTATE_CTRL: return d->ctrl;
    case mjSTATE_QFRC_APPLIED: return d->qfrc_applied;
    case mjSTATE_XFRC_APPLIED: return d->xfrc_applied;
    case mjSTATE_MOCAP_POS: return d->mocap_pos;
    case mjSTATE_MOCAP_QUAT: return d->mocap_quat;
    case mjSTATE_USERDATA: return d->userdata;
    case mjSTATE_PLUGIN: return d->plugin_state;
    default: return NULL;
  }
}

/* a spec with bits outside mjSTATE_INTEGRATION is an error */
static int check_spec(int spec, const char* fn) {
  if (spec < 0 || (spec & ~(int)mjSTATE_INTEGRATION)) {
    mju_error("%s: invalid state spec %d", fn, spec);
    return 0;
  }
  return 1;
}

/* number of mjtNums in the selected state */
int mj_stateSize(const mjModel* m, int spec) {
  if (!check_spec(spec, "mj_stateSize")) {
    return 0;
  }
  int size = 0;
  for (int i = 0; i < mjNSTATE; i++) {
    if (spec & (1 << i)) {
      size += component_size(m, 1 << i);
    }
  }
  return size;
}

/* copy state components out of d */
void mj_getState(const mjModel* m, const mjData* d, mjtNum* state, int spec) {
  if (!check_spec(spec, "mj_getState")) {
    return;
  }
  int adr = 0;
  for (int i = 0; i < mjNSTATE; i++) {
    int bit = 1 << i;
    if (!(spec & bit)) {
      continue;
    }
    int n = component_size(m, bit);
    if (bit == mjSTATE_TIME) {
      state[adr] = d->time;
    } else if (bit == mjSTATE_EQ_ACTIVE) {
      for (int j = 0; j < n; j++) {
        state[adr + j] = d->eq_active[j];
      }
    } else if (n) {
      memcpy(state + adr, component_ptr(d, bit), sizeof(mjtNum) * n);
    }
    adr += n;
  }
}

/* copy state components into d */
void mj_setState(const mjModel* m, mjData* d, const mjtNum* state, int spec) {
  if (!check_spec(spec, "mj_setState")) {
    return;
  }
  int adr = 0;
  for (int i = 0; i < mjNSTATE; i++) {
    int bit = 1 << i;
    if (!(spec & bit)) {
      continue;
    }
    int n = component_size(m, bit);
    if (bit == mjSTATE_TIME) {
      d->time = state[adr];
    } else if (bit == mjSTATE_EQ_ACTIVE) {
      for (int j = 0; j < n; j++) {
        d->eq_active[j] = (mjtByte)(state[adr + j] != 0);
      }
    } else if (n) {
      memcpy(component_ptr(d, bit), state + adr, sizeof(mjtNum) * n);
    }
    adr += n;
  }
}
