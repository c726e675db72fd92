/* tools/cmd_contacts.c — `torsion-sim contacts`: the active contacts after mj_forward at
 * each given state, as flat .npy arrays plus a JSON index of per-state offsets.
 *
 * Files: PREFIX_geom.npy [C, 2], PREFIX_dist.npy [C], PREFIX_pos.npy [C, 3],
 * PREFIX_frame.npy [C, 9], PREFIX_dim.npy [C], PREFIX_index.json
 * {"nstate": B, "count": [..], "offset": [..]}: contacts of state b are rows
 * offset[b] .. offset[b] + count[b] - 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* growable contact table (tool side: allocation is fine here) */
typedef struct contactTable_ {
  size_t n, cap;
  double *geom, *dist, *pos, *frame, *dim;
} contactTable;

/* make room for one more row */
static int table_reserve(contactTable* t) {
  if (t->n < t->cap) {
    return 0;
  }
  size_t cap = t->cap ? 2 * t->cap : 256;
  double** cols[5] = {&t->geom, &t->dist, &t->pos, &t->frame, &t->dim};
  size_t width[5] = {2, 1, 3, 9, 1};
  for (int i = 0; i < 5; i++) {
    double* p = realloc(*cols[i], sizeof(double) * width[i] * cap);
    if (!p) {
      return -1;
    }
    *cols[i] = p;
  }
  t->cap = cap;
  return 0;
}

/* append the contacts currently in d */
static int table_append(contactTable* t, const mjData* d) {
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* c = d->contact + i;
    if (table_reserve(t)) {
      return -1;
    }
    t->geom[2 * t->n] = c->geom1;
    t->geom[2 * t->n + 1] = c->geom2;
    t->dist[t->n] = c->dist;
    memcpy(t->pos + 3 * t->n, c->pos, sizeof(double) * 3);
    memcpy(t->frame + 9 * t->n, c->frame, sizeof(double) * 9);
    t->dim[t->n] = c->dim;
    t->n++;
  }
  return 0;
}

/* write the five arrays */
static int table_write(const contactTable* t, const char* prefix) {
  const char* names[5] = {"geom", "dist", "pos", "frame", "dim"};
  const double* cols[5] = {t->geom, t->dist, t->pos, t->frame, t->dim};
  size_t width[5] = {2, 1, 3, 9, 1};
  static const double empty = 0;
  for (int i = 0; i < 5; i++) {
    char path[1024], err[512];
    snprintf(path, sizeof(path), "%s_%s.npy", prefix, names[i]);
    size_t shape[2] = {t->n, width[i]};
    if (npy_write(path, cols[i] ? cols[i] : &empty, width[i] == 1 ? 1 : 2, shape, err,
                  sizeof(err))) {
      return sim_fail("%s", err);
    }
  }
  return 0;
}

/* contacts subcommand */
int cmd_contacts(const simArgs* args) {
  if (!args->out) {
    return sim_fail("missing --out");
  }
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  int rc = 1, nstate = mj_stateSize(m, args->spec);
  npyArray st = {0};
  contactTable t = {0};
  long* count = NULL;
  mjData* d = NULL;

  // states, then one forward pass per state
  long B = sim_read_states(args->state, nstate, &st);
  if (B < 0 || !(d = mj_makeData(m)) || !(count = calloc((size_t)B + 1, sizeof(long)))) {
    goto done;
  }
  for (long b = 0; b < B; b++) {
    mj_resetData(m, d);
    mj_setState(m, d, st.data + b * nstate, args->spec);
    mj_forward(m, d);
    count[b] = d->ncon;
    if (table_append(&t, d)) {
      sim_fail("out of memory");
      goto done;
    }
  }
  rc = table_write(&t, args->out) || sim_write_index(args->out, B, count);

done:
  free(t.geom);
  free(t.dist);
  free(t.pos);
  free(t.frame);
  free(t.dim);
  free(count);
  mj_deleteData(d);
  npy_free(&st);
  mj_deleteModel(m);
  return rc;
}
