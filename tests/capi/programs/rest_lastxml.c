/* rest_lastxml.c — mj_saveLastXML and mj_freeLastXML of MuJoCo's C API: saving with no
 * model loaded fails, then a model is loaded with mj_loadXML, edited in mjModel (a geom
 * size, a body mass and position, a joint range, damping, a gear, an option), saved with
 * mj_saveLastXML and loaded again; the reloaded model's fields are printed. The saved file
 * is named after the library (saved_mujoco.xml / saved_torsion.xml) so the test can load
 * both in MuJoCo. Written against MuJoCo's C API only.
 * Usage: rest_lastxml MODEL.xml */
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

#ifdef TORSION_TORSION_H
#define SAVED "saved_torsion.xml"
#else
#define SAVED "saved_mujoco.xml"
#endif

/* print n numbers on one line after a label */
static void print_vec(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.9g", v[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
    return 2;
  }
  char error[1000] = "";

  /* nothing kept */
  mj_freeLastXML();
  int rc = mj_saveLastXML(SAVED, NULL, error, sizeof(error));
  printf("empty: %d '%s'\n", rc, error);

  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }

  /* edits in the model */
  int ng = (int)m->ngeom, nb = (int)m->nbody;
  m->geom_size[3 * (ng > 1 ? 1 : 0)] *= 1.25;
  m->body_mass[nb > 1 ? 1 : 0] += 1.5;
  m->body_pos[3 * (nb - 1) + 2] += 0.05;
  if (m->njnt > 1) {
    m->jnt_range[2 * (m->njnt - 1)] *= 0.5;
    m->dof_damping[m->nv - 1] += 0.7;
  }
  if (m->nu) m->actuator_gear[0] *= 1.5;
  m->opt.timestep *= 0.5;

  rc = mj_saveLastXML(SAVED, m, error, sizeof(error));
  printf("saved: %d '%s'\n", rc, error);
  mjModel* r = mj_loadXML(SAVED, NULL, error, sizeof(error));
  if (!r) {
    printf("reload error: %s\n", error);
    return 1;
  }
  printf("sizes %d %d %d %d %d %d\n", (int)r->nq, (int)r->nv, (int)r->nbody, (int)r->ngeom,
         (int)r->njnt, (int)r->nu);
  printf("timestep %.9g\n", r->opt.timestep);
  print_vec("body_pos", r->body_pos, 3 * (int)r->nbody);
  print_vec("body_quat", r->body_quat, 4 * (int)r->nbody);
  print_vec("body_mass", r->body_mass, (int)r->nbody);
  print_vec("body_inertia", r->body_inertia, 3 * (int)r->nbody);
  print_vec("body_ipos", r->body_ipos, 3 * (int)r->nbody);
  print_vec("geom_size", r->geom_size, 3 * (int)r->ngeom);
  print_vec("geom_pos", r->geom_pos, 3 * (int)r->ngeom);
  print_vec("geom_quat", r->geom_quat, 4 * (int)r->ngeom);
  print_vec("geom_friction", r->geom_friction, 3 * (int)r->ngeom);
  print_vec("site_pos", r->site_pos, 3 * (int)r->nsite);
  print_vec("site_size", r->site_size, 3 * (int)r->nsite);
  print_vec("jnt_range", r->jnt_range, 2 * (int)r->njnt);
  print_vec("jnt_axis", r->jnt_axis, 3 * (int)r->njnt);
  print_vec("qpos0", r->qpos0, (int)r->nq);
  print_vec("dof_damping", r->dof_damping, (int)r->nv);
  print_vec("dof_armature", r->dof_armature, (int)r->nv);
  print_vec("actuator_gear", r->actuator_gear, 6 * (int)r->nu);
  print_vec("actuator_gainprm", r->actuator_gainprm, 10 * (int)r->nu);
  print_vec("actuator_ctrlrange", r->actuator_ctrlrange, 2 * (int)r->nu);
  print_vec("tendon_stiffness", r->tendon_stiffness, (int)r->ntendon);
  print_vec("sensor_noise", r->sensor_noise, (int)r->nsensor);
  print_vec("key_qpos", r->key_qpos, (int)(r->nq * r->nkey));

  /* a second save of the reloaded model without edits, then nothing kept again */
  rc = mj_saveLastXML(SAVED, NULL, error, sizeof(error));
  printf("resaved: %d\n", rc);
  mj_freeLastXML();
  rc = mj_saveLastXML(SAVED ".none", r, error, sizeof(error));
  printf("freed: %d '%s'\n", rc, error);
  mj_deleteModel(r);
  mj_deleteModel(m);
  return 0;
}
