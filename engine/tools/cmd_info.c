/* tools/cmd_info.c — `torsion-sim info`: model sizes, body masses and qpos0 as JSON. */
#include <stdio.h>

#include "sim.h"

/* info subcommand */
int cmd_info(const simArgs* args) {
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }

  // sizes, then the timestep and arrays
  json_t* doc = json_pack(
      "{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, "
      "s:o, s:o, s:o}",
      "nq", (int)m->nq, "nv", (int)m->nv, "nu", (int)m->nu, "na", (int)m->na, "nbody",
      (int)m->nbody, "njnt", (int)m->njnt, "ngeom", (int)m->ngeom, "nsite", (int)m->nsite, "nmesh",
      (int)m->nmesh, "ntendon", (int)m->ntendon, "neq", (int)m->neq, "nsensor", (int)m->nsensor,
      "nsensordata", (int)m->nsensordata, "nkey", (int)m->nkey, "nmocap", (int)m->nmocap, "nwrap",
      (int)m->nwrap, "nstate", (int)mj_stateSize(m, mjSTATE_FULLPHYSICS), "timestep",
      sim_json_real(m->opt.timestep, -1), "body_mass", sim_json_reals(m->body_mass, (long)m->nbody),
      "qpos0", sim_json_reals(m->qpos0, (long)m->nq));
  int rc = sim_json_print(doc, 17);
  mj_deleteModel(m);
  return rc;
}
