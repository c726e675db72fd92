/* tools/cmd_efc.c — `torsion-sim efc`: the constraint rows (efc_*) after mj_forward at each
 * given state, stacked over states, so tests can compare them row by row with MuJoCo's.
 *
 * Files (R = total rows over all states): PREFIX_{type,id,state}.npy [R] (integers stored
 * as float64), PREFIX_{pos,margin,frictionloss,D,R,aref,force}.npy [R], PREFIX_J.npy
 * [R, nv] (dense whatever the jacobian option), PREFIX_niter.npy [B] (solver iterations of
 * the first island, d->solver_niter[0]), PREFIX_index.json {"nstate", "count", "offset"}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* the stacked output columns: name and width (nv for J) */
enum { COL_TYPE, COL_ID, COL_STATE, COL_POS, COL_MARGIN, COL_FRICTION, COL_D, COL_R,
       COL_AREF, COL_FORCE, COL_J, NCOL };
static const char* const col_names[NCOL] = {"type", "id", "state", "pos", "margin",
                                            "frictionloss", "D", "R", "aref", "force", "J"};

/* growable table of rows (tool side: allocation is fine here) */
typedef struct efcTable_ {
  size_t n, cap;
  int nv;
  double* col[NCOL];
} efcTable;

/* width of column i */
static size_t col_width(const efcTable* t, int i) {
  return i == COL_J ? (size_t)(t->nv > 0 ? t->nv : 1) : 1;
}

/* make room for k more rows */
static int table_reserve(efcTable* t, size_t k) {
  if (t->n + k <= t->cap) {
    return 0;
  }
  size_t cap = t->cap ? t->cap : 256;
  while (cap < t->n + k) {
    cap *= 2;
  }
  for (int i = 0; i < NCOL; i++) {
    double* p = realloc(t->col[i], sizeof(double) * col_width(t, i) * cap);
    if (!p) {
      return -1;
    }
    t->col[i] = p;
  }
  t->cap = cap;
  return 0;
}

/* row r of efc_J as a dense row of nv values */
static void dense_row(const mjModel* m, const mjData* d, int r, double* out) {
  if (!mj_isSparse(m)) {
    memcpy(out, d->efc_J + (size_t)r * m->nv, sizeof(double) * m->nv);
    return;
  }
  memset(out, 0, sizeof(double) * m->nv);
  int adr = d->efc_J_rowadr[r];
  for (int k = 0; k < d->efc_J_rownnz[r]; k++) {
    out[d->efc_J_colind[adr + k]] = d->efc_J[adr + k];
  }
}

/* append the rows currently in d */
static int table_append(efcTable* t, const mjModel* m, const mjData* d) {
  if (table_reserve(t, (size_t)d->nefc)) {
    return -1;
  }
  for (int r = 0; r < d->nefc; r++) {
    size_t i = t->n++;
    t->col[COL_TYPE][i] = d->efc_type[r];
    t->col[COL_ID][i] = d->efc_id[r];
    t->col[COL_STATE][i] = d->efc_state[r];
    t->col[COL_POS][i] = d->efc_pos[r];
    t->col[COL_MARGIN][i] = d->efc_margin[r];
    t->col[COL_FRICTION][i] = d->efc_frictionloss[r];
    t->col[COL_D][i] = d->efc_D[r];
    t->col[COL_R][i] = d->efc_R[r];
    t->col[COL_AREF][i] = d->efc_aref[r];
    t->col[COL_FORCE][i] = d->efc_force[r];
    if (m->nv > 0) {
      dense_row(m, d, r, t->col[COL_J] + i * (size_t)m->nv);
    }
  }
  return 0;
}

/* write every column, then the per-state iteration counts */
static int table_write(const efcTable* t, const char* prefix, const double* niter, long B) {
  static const double empty = 0;
  char path[1024], err[512];
  for (int i = 0; i < NCOL; i++) {
    snprintf(path, sizeof(path), "%s_%s.npy", prefix, col_names[i]);
    size_t shape[2] = {t->n, (size_t)t->nv};
    if (npy_write(path, t->col[i] ? t->col[i] : &empty, i == COL_J ? 2 : 1, shape, err,
                  sizeof(err))) {
      return sim_fail("%s", err);
    }
  }
  snprintf(path, sizeof(path), "%s_niter.npy", prefix);
  size_t shape[1] = {(size_t)B};
  if (npy_write(path, niter ? niter : &empty, 1, shape, err, sizeof(err))) {
    return sim_fail("%s", err);
  }
  return 0;
}

/* efc subcommand */
int cmd_efc(const simArgs* args) {
  if (!args->out) {
    return sim_fail("missing --out");
  }
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  int rc = 1, nstate = mj_stateSize(m, args->spec);
  npyArray st = {0};
  efcTable t = {.nv = m->nv};
  long* count = NULL;
  double* niter = NULL;
  mjData* d = NULL;

  // states, then one forward pass per state
  long B = sim_read_states(args->state, nstate, &st);
  if (B < 0 || !(d = mj_makeData(m)) || !(count = calloc((size_t)B + 1, sizeof(long))) ||
      !(niter = calloc((size_t)B + 1, sizeof(double)))) {
    goto done;
  }
  for (long b = 0; b < B; b++) {
    mj_resetData(m, d);
    mj_setState(m, d, st.data + b * nstate, args->spec);
    mj_forward(m, d);
    count[b] = d->nefc;
    niter[b] = d->solver_niter[0];
    if (table_append(&t, m, d)) {
      sim_fail("out of memory");
      goto done;
    }
  }
  rc = table_write(&t, args->out, niter, B) || sim_write_index(args->out, B, count);

done:
  for (int i = 0; i < NCOL; i++) {
    free(t.col[i]);
  }
  free(niter);
  free(count);
  mj_deleteData(d);
  npy_free(&st);
  mj_deleteModel(m);
  return rc;
}
