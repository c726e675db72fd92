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

/* the contact table's columns: name, numbers per contact */
enum { COL_GEOM, COL_DIST, COL_POS, COL_FRAME, COL_DIM, NCOL };
static const char* const col_names[NCOL] = {"geom", "dist", "pos", "frame", "dim"};
static const int col_widths[NCOL] = {2, 1, 3, 9, 1};

/* the columns */
static int setup(void* ctx, const mjModel* m, long B, simTable* t) {
  (void)ctx;
  (void)m;
  (void)B;
  for (int i = 0; i < NCOL; i++) {
    sim_table_column(t, col_names[i], col_widths[i], col_widths[i] == 1 ? 1 : 2);
  }
  return 0;
}

/* append the contacts currently in d */
static int table_append(void* ctx, const mjModel* m, const mjData* d, long b, simTable* t) {
  (void)ctx;
  (void)m;
  (void)b;
  if (sim_table_reserve(t, (size_t)d->ncon)) {
    return -1;
  }
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* c = d->contact + i;
    size_t r = t->n++;
    t->col[COL_GEOM][2 * r] = c->geom1;
    t->col[COL_GEOM][2 * r + 1] = c->geom2;
    t->col[COL_DIST][r] = c->dist;
    memcpy(t->col[COL_POS] + 3 * r, c->pos, sizeof(double) * 3);
    memcpy(t->col[COL_FRAME] + 9 * r, c->frame, sizeof(double) * 9);
    t->col[COL_DIM][r] = c->dim;
  }
  return 0;
}

/* contacts subcommand */
int cmd_contacts(const simArgs* args) {
  static const simStackOps ops = {setup, table_append, NULL};
  return sim_stack_states(args, &ops, NULL);
}
