/* tools/cmd_efc.c — `torsion-sim efc`: the constraint rows (efc_*) after mj_forward at each
 * given state, stacked over states, so tests can compare them row by row with MuJoCo's.
 *
 * Files (R = total rows over all states): PREFIX_{type,id,state}.npy [R] (integers stored
 * as float64), PREFIX_{pos,margin,frictionloss,D,R,aref,force}.npy [R], PREFIX_J.npy
 * [R, nv] (dense whatever the jacobian option), PREFIX_niter.npy [B] (solver iterations of
 * the first island, d->solver_niter[0]), PREFIX_AR.npy [sum of nefc^2] (with a dual solver,
 * PGS: each state's efc_AR, dense row-major, states one after another; empty otherwise),
 * PREFIX_index.json {"nstate", "count", "offset"}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* the stacked output columns: name and width (nv for J) */
enum { COL_TYPE, COL_ID, COL_STATE, COL_POS, COL_MARGIN, COL_FRICTION, COL_D, COL_R,
       COL_AREF, COL_FORCE, COL_J, NCOL };
static const char* const col_names[NCOL] = {"type", "id", "state", "pos", "margin",
                                            "frictionloss", "D", "R", "aref", "force", "J"};

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

/* the per-state solver iterations (d->solver_niter[0]) and the dense efc_AR of each state */
typedef struct efcExtra_ {
  double* niter; /* [B] */
  double* ar;    /* [nar], grown as states come */
  size_t nar, capar;
} efcExtra;

/* append state's efc_AR (dense, row-major; sparse storage expanded) to x->ar */
static int append_ar(efcExtra* x, const mjModel* m, const mjData* d) {
  size_t n = (size_t)d->nefc, need = x->nar + n * n;
  if (!d->efc_AR || !n) {
    return 0;
  }
  if (need > x->capar) {
    size_t cap = need > 2 * x->capar ? need : 2 * x->capar;
    double* p = realloc(x->ar, cap * sizeof(double));
    if (!p) {
      return -1;
    }
    x->ar = p;
    x->capar = cap;
  }
  double* out = x->ar + x->nar;
  if (!mj_isSparse(m)) {
    memcpy(out, d->efc_AR, n * n * sizeof(double));
  } else {
    memset(out, 0, n * n * sizeof(double));
    for (size_t r = 0; r < n; r++) {
      int adr = d->efc_AR_rowadr[r];
      for (int k = 0; k < d->efc_AR_rownnz[r]; k++) {
        out[r * n + (size_t)d->efc_AR_colind[adr + k]] = d->efc_AR[adr + k];
      }
    }
  }
  x->nar = need;
  return 0;
}

/* the columns (J: a dense row of nv) and the iteration counts */
static int setup(void* ctx, const mjModel* m, long B, simTable* t) {
  efcExtra* x = ctx;
  for (int i = 0; i < NCOL; i++) {
    sim_table_column(t, col_names[i], i == COL_J ? m->nv : 1, i == COL_J ? 2 : 1);
  }
  x->niter = calloc((size_t)B + 1, sizeof(double));
  return x->niter ? 0 : -1;
}

/* append the rows currently in d, and state b's iteration count */
static int table_append(void* ctx, const mjModel* m, const mjData* d, long b, simTable* t) {
  efcExtra* x = ctx;
  x->niter[b] = d->solver_niter[0];
  if (append_ar(x, m, d) || sim_table_reserve(t, (size_t)d->nefc)) {
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

/* write the per-state iteration counts and the stacked efc_AR */
static int write_niter(void* ctx, const char* prefix, long B) {
  const efcExtra* x = ctx;
  static const double empty = 0;
  char path[1024], err[512];
  snprintf(path, sizeof(path), "%s_niter.npy", prefix);
  size_t shape[1] = {(size_t)B};
  if (npy_write(path, x->niter ? x->niter : &empty, NPY_F64, 1, shape, err, sizeof(err))) {
    return sim_fail("%s", err);
  }
  snprintf(path, sizeof(path), "%s_AR.npy", prefix);
  shape[0] = x->nar;
  if (npy_write(path, x->ar ? x->ar : &empty, NPY_F64, 1, shape, err, sizeof(err))) {
    return sim_fail("%s", err);
  }
  return 0;
}

/* efc subcommand */
int cmd_efc(const simArgs* args) {
  static const simStackOps ops = {setup, table_append, write_niter};
  efcExtra x = {NULL, NULL, 0, 0};
  int rc = sim_stack_states(args, &ops, &x);
  free(x.niter);
  free(x.ar);
  return rc;
}
