/* forward/check.c — divergence checks on qpos, qvel and qacc.
 *
 * A NaN, an infinity or a magnitude above mjMAXVAL means the simulation has diverged: the
 * warning is counted (mj_warning), the state is reset to the model's defaults unless
 * mjDSBL_AUTORESET is set, and the warning is recorded once more afterwards, so that it
 * survives the reset (a reset clears the counters). After a reset caused by qacc, the
 * pipeline is re-run so that the derived quantities match the reset state. */
#include <torsion/torsion.h>

/* index of the first bad entry of vec (as mju_isBad: NaN or |x| > mjMAXVAL), or -1 */
static int check_first_bad(const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    mjtNum x = vec[i];
    if (x != x || x > mjMAXVAL || x < -mjMAXVAL) {
      return i;
    }
  }
  return -1;
}

/* warn, reset unless disabled, and record the warning again; returns 1 after a reset */
static int check_react(const mjModel* m, mjData* d, int warning, int index) {
  int reset = !(m->opt.disableflags & mjDSBL_AUTORESET);
  mj_warning(d, warning, index);
  if (reset) {
    mj_resetData(m, d);
  }
  d->warning[warning].number++;
  d->warning[warning].lastinfo = index;
  return reset;
}

/* check positions */
void mj_checkPos(const mjModel* m, mjData* d) {
  int i = check_first_bad(d->qpos, m->nq);
  if (i >= 0) {
    check_react(m, d, mjWARN_BADQPOS, i);
  }
}

/* check velocities */
void mj_checkVel(const mjModel* m, mjData* d) {
  int i = check_first_bad(d->qvel, m->nv);
  if (i >= 0) {
    check_react(m, d, mjWARN_BADQVEL, i);
  }
}

/* check accelerations; after a reset, recompute the pipeline for the reset state */
void mj_checkAcc(const mjModel* m, mjData* d) {
  int i = check_first_bad(d->qacc, m->nv);
  if (i >= 0 && check_react(m, d, mjWARN_BADQACC, i)) {
    mj_forward(m, d);
  }
}
