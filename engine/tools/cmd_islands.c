/* tools/cmd_islands.c — `torsion-sim islands`: the constraint islands (mj_island's fields)
 * after mj_forward at each given state, as one JSON file, so tests can compare them with
 * MuJoCo's field by field.
 *
 * OUT is a JSON list with one object per state: the scalars nisland, nidof, nefc and every
 * island array with its run-time length (ntree, nv, nisland, nidof or nefc); then the
 * solver's results (qacc, qfrc_constraint, efc_force, efc_state and their island-order
 * counterparts) and statistics: solver_niter and solver_nnz of every island slot, and per
 * recorded island the recorded iterations' mjSolverStat fields as lists of lists. */
#include <stdio.h>
#include <stdlib.h>

#include "sim.h"

/* one integer array as "name": [...] */
static void put_ints(FILE* fp, const char* name, const int* v, int n) {
  fprintf(fp, ", \"%s\": [", name);
  for (int i = 0; i < n; i++) {
    fprintf(fp, i ? ", %d" : "%d", v[i]);
  }
  fprintf(fp, "]");
}

/* one real array as "name": [...] (round-trip precision) */
static void put_nums(FILE* fp, const char* name, const mjtNum* v, int n) {
  fprintf(fp, ", \"%s\": [", name);
  for (int i = 0; i < n; i++) {
    fprintf(fp, i ? ", %.17g" : "%.17g", v[i]);
  }
  fprintf(fp, "]");
}

/* the solver statistics of the recorded islands (at least slot 0): each field of
 * mjSolverStat as one list per island of its recorded iterations */
static void put_stats(FILE* fp, const mjData* d) {
  static const char* names[] = {"improvement", "gradient", "lineslope", "nactive",
                                "nchange",     "neval",    "nupdate"};
  int nisl = d->nisland < 1 ? 1 : d->nisland < mjNISLAND ? d->nisland : mjNISLAND;
  put_ints(fp, "solver_niter", d->solver_niter, mjNISLAND);
  put_ints(fp, "solver_nnz", d->solver_nnz, mjNISLAND);
  for (int f = 0; f < 7; f++) {
    fprintf(fp, ", \"solver_%s\": [", names[f]);
    for (int k = 0; k < nisl; k++) {
      int n = d->solver_niter[k] < mjNSOLVER ? d->solver_niter[k] : mjNSOLVER;
      fprintf(fp, k ? ", [" : "[");
      for (int i = 0; i < n; i++) {
        const mjSolverStat* s = d->solver + k * mjNSOLVER + i;
        mjtNum v[7] = {s->improvement, s->gradient, s->lineslope, s->nactive,
                       s->nchange,     s->neval,    s->nupdate};
        fprintf(fp, i ? ", %.17g" : "%.17g", v[f]);
      }
      fprintf(fp, "]");
    }
    fprintf(fp, "]");
  }
}

/* the island fields of d (empty arrays when there are no islands), then the solver's */
static void put_state(FILE* fp, const mjModel* m, const mjData* d) {
  int k = d->nisland, ntree = k ? m->ntree : 0, nv = k ? m->nv : 0, nidof = d->nidof;
  int nefc = k ? d->nefc : 0;
  fprintf(fp, "{\"nisland\": %d, \"nidof\": %d, \"nefc\": %d", k, nidof, d->nefc);
  put_ints(fp, "tree_island", d->tree_island, ntree);
  put_ints(fp, "island_ntree", d->island_ntree, k);
  put_ints(fp, "island_itreeadr", d->island_itreeadr, k);
  put_ints(fp, "map_itree2tree", d->map_itree2tree, ntree);
  put_ints(fp, "dof_island", d->dof_island, nv);
  put_ints(fp, "island_nv", d->island_nv, k);
  put_ints(fp, "island_idofadr", d->island_idofadr, k);
  put_ints(fp, "island_dofadr", d->island_dofadr, k);
  put_ints(fp, "map_dof2idof", d->map_dof2idof, nv);
  put_ints(fp, "map_idof2dof", d->map_idof2dof, nv);
  put_nums(fp, "ifrc_smooth", d->ifrc_smooth, nidof);
  put_nums(fp, "iacc_smooth", d->iacc_smooth, nidof);
  put_ints(fp, "efc_island", d->efc_island, nefc);
  put_ints(fp, "island_ne", d->island_ne, k);
  put_ints(fp, "island_nf", d->island_nf, k);
  put_ints(fp, "island_nefc", d->island_nefc, k);
  put_ints(fp, "island_iefcadr", d->island_iefcadr, k);
  put_ints(fp, "map_efc2iefc", d->map_efc2iefc, nefc);
  put_ints(fp, "map_iefc2efc", d->map_iefc2efc, nefc);
  put_ints(fp, "iefc_type", d->iefc_type, nefc);
  put_ints(fp, "iefc_id", d->iefc_id, nefc);
  put_nums(fp, "iefc_frictionloss", d->iefc_frictionloss, nefc);
  put_nums(fp, "iefc_D", d->iefc_D, nefc);
  put_nums(fp, "iefc_R", d->iefc_R, nefc);
  put_nums(fp, "iefc_aref", d->iefc_aref, nefc);
  put_nums(fp, "iefc_force", d->iefc_force, nefc);
  put_ints(fp, "iefc_state", d->iefc_state, nefc);
  put_nums(fp, "iacc", d->iacc, nidof);
  put_nums(fp, "ifrc_constraint", d->ifrc_constraint, nidof);
  put_nums(fp, "qacc", d->qacc, m->nv);
  put_nums(fp, "qfrc_constraint", d->qfrc_constraint, m->nv);
  put_nums(fp, "efc_force", d->efc_force, d->nefc);
  put_ints(fp, "efc_state", d->efc_state, d->nefc);
  put_stats(fp, d);
  fprintf(fp, "}");
}

/* islands subcommand */
int cmd_islands(const simArgs* args) {
  if (!args->state || !args->out) {
    return sim_fail("islands needs --state and --out");
  }
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  npyArray st = {0}, ct = {0};
  mjData* d = NULL;
  FILE* fp = NULL;
  int rc = 1;
  long B = sim_read_states(args->state, mj_stateSize(m, args->spec), &st);
  if (B < 0 || (args->ctrl && sim_read_ctrl2(args->ctrl, B, m->nu, &ct))) {
    goto done;
  }
  if (!(d = mj_makeData(m))) {
    goto done;
  }
  if (!(fp = fopen(args->out, "w"))) {
    rc = sim_fail("cannot write '%s'", args->out);
    goto done;
  }

  // every state: mj_forward, then its islands
  fprintf(fp, "[");
  for (long b = 0; b < B; b++) {
    if (sim_forward_state(m, d, args->spec, st.data + b * mj_stateSize(m, args->spec),
                          ct.data ? ct.data + b * m->nu : NULL, b)) {
      goto done;
    }
    fprintf(fp, b ? ",\n" : "\n");
    put_state(fp, m, d);
  }
  fprintf(fp, "\n]\n");
  rc = 0;

done:
  if (fp) {
    fclose(fp);
  }
  mj_deleteData(d);
  npy_free(&st);
  npy_free(&ct);
  mj_deleteModel(m);
  return rc;
}
