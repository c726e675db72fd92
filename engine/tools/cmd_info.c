/* tools/cmd_info.c — `torsion-sim info`: model sizes, body masses and qpos0 as JSON. */
#include <stdio.h>

#include "sim.h"

/* print a JSON array of doubles with round-trip precision */
static void print_array(const char* key, const mjtNum* v, int n) {
  printf(", \"%s\": [", key);
  for (int i = 0; i < n; i++) {
    printf("%s%.17g", i ? ", " : "", v[i]);
  }
  printf("]");
}

/* info subcommand */
int cmd_info(const simArgs* args) {
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }

  // sizes, then the timestep and arrays
  printf("{\"nq\": %d, \"nv\": %d, \"nu\": %d, \"na\": %d, \"nbody\": %d, \"njnt\": %d, "
         "\"ngeom\": %d, \"nsite\": %d, \"nmesh\": %d, \"ntendon\": %d, \"neq\": %d, "
         "\"nsensor\": %d, \"nsensordata\": %d, \"nkey\": %d, \"nmocap\": %d, "
         "\"nwrap\": %d, \"nstate\": %d, \"timestep\": %.17g",
         (int)m->nq, (int)m->nv, (int)m->nu, (int)m->na, (int)m->nbody, (int)m->njnt,
         (int)m->ngeom, (int)m->nsite, (int)m->nmesh, (int)m->ntendon, (int)m->neq,
         (int)m->nsensor, (int)m->nsensordata, (int)m->nkey, (int)m->nmocap, (int)m->nwrap,
         mj_stateSize(m, mjSTATE_FULLPHYSICS), m->opt.timestep);
  print_array("body_mass", m->body_mass, m->nbody);
  print_array("qpos0", m->qpos0, m->nq);
  printf("}\n");
  mj_deleteModel(m);
  return 0;
}
