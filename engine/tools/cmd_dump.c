/* tools/cmd_dump.c — `torsion-sim dump`: any named mjModel array, or mjData arrays after
 * mj_forward at given states, as .npy files. The debugging aid for comparing the compiled
 * model field by field and the pipeline stage by stage against MuJoCo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* option and statistic scalars/vectors addressed as "opt.x" / "stat.x" */
static int option_field(const mjModel* m, const char* name, mjtNum* buf, int* n) {
  const mjOption* o = &m->opt;
  struct { const char* name; const mjtNum* v; int n; } nums[] = {
      {"opt.timestep", &o->timestep, 1},   {"opt.impratio", &o->impratio, 1},
      {"opt.tolerance", &o->tolerance, 1}, {"opt.ls_tolerance", &o->ls_tolerance, 1},
      {"opt.gravity", o->gravity, 3},      {"opt.wind", o->wind, 3},
      {"opt.magnetic", o->magnetic, 3},    {"opt.density", &o->density, 1},
      {"opt.viscosity", &o->viscosity, 1}, {"opt.o_margin", &o->o_margin, 1},
      {"opt.o_solref", o->o_solref, 2},    {"opt.o_solimp", o->o_solimp, 5},
      {"opt.o_friction", o->o_friction, 5},
      {"stat.meaninertia", &m->stat.meaninertia, 1},
      {"stat.meanmass", &m->stat.meanmass, 1}, {"stat.meansize", &m->stat.meansize, 1},
      {"stat.extent", &m->stat.extent, 1},  {"stat.center", m->stat.center, 3}};
  for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
    if (!strcmp(name, nums[i].name)) {
      memcpy(buf, nums[i].v, sizeof(mjtNum) * nums[i].n);
      *n = nums[i].n;
      return 1;
    }
  }
  struct { const char* name; int v; } ints[] = {
      {"opt.integrator", o->integrator}, {"opt.cone", o->cone},
      {"opt.jacobian", o->jacobian},     {"opt.solver", o->solver},
      {"opt.iterations", o->iterations}, {"opt.ls_iterations", o->ls_iterations},
      {"opt.disableflags", o->disableflags}, {"opt.enableflags", o->enableflags},
      {"opt.noslip_iterations", o->noslip_iterations}};
  for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
    if (!strcmp(name, ints[i].name)) {
      buf[0] = ints[i].v;
      *n = 1;
      return 1;
    }
  }
  return 0;
}

/* write one registered field (optionally batched: out holds B copies) */
static int write_field(const char* prefix, const char* name, const mjtNum* data, long B,
                       int rows, int cols) {
  char path[1024], err[512];
  snprintf(path, sizeof(path), "%s_%s.npy", prefix, name);
  size_t shape[3];
  int nd = 0;
  if (B >= 0) {
    shape[nd++] = (size_t)B;
  }
  shape[nd++] = (size_t)rows;
  shape[nd++] = (size_t)cols;
  if (npy_write(path, data, NPY_F64, nd, shape, err, sizeof(err))) {
    return sim_fail("%s", err);
  }
  return 0;
}

/* copy a field into doubles */
static void field_to_num(const tnField* f, mjtNum* out) {
  for (int i = 0; i < f->rows * f->cols; i++) {
    out[i] = tn_fieldValue(f, i);
  }
}

/* dump one model field */
static int dump_model_field(const mjModel* m, const simArgs* args, const char* name) {
  tnField f;
  mjtNum small[16];
  int n;
  if (option_field(m, name, small, &n)) {
    return write_field(args->out, name, small, -1, 1, n);
  }
  if (!tn_modelField(m, name, &f)) {
    return sim_fail("unknown field '%s'", name);
  }
  mjtNum* buf = malloc(sizeof(mjtNum) * ((size_t)f.rows * f.cols + 1));
  if (!buf) {
    return sim_fail("out of memory");
  }
  field_to_num(&f, buf);
  int rc = write_field(args->out, name, buf, -1, f.rows, f.cols);
  free(buf);
  return rc;
}

/* dump one data field after mj_forward at each state */
static int dump_data_field(const mjModel* m, mjData* d, const simArgs* args,
                           const char* name, const npyArray* st, const npyArray* ct,
                           long B) {
  tnField f;
  if (!tn_dataField(m, d, name, &f)) {
    return sim_fail("unknown field '%s'", name);
  }
  int nstate = mj_stateSize(m, args->spec);
  size_t per = (size_t)f.rows * f.cols;
  mjtNum* buf = malloc(sizeof(mjtNum) * (per * B + 1));
  if (!buf) {
    return sim_fail("out of memory");
  }

  // recompute for every state and collect
  for (long b = 0; b < B; b++) {
    if (sim_forward_state(m, d, args->spec, st->data + b * nstate,
                          ct->data ? ct->data + b * m->nu : NULL, b)) {
      free(buf);
      return 1;
    }
    tn_dataField(m, d, name, &f);
    field_to_num(&f, buf + b * per);
  }
  int rc = write_field(args->out, name, buf, B, f.rows, f.cols);
  free(buf);
  return rc;
}

/* dump subcommand */
int cmd_dump(const simArgs* args) {
  if (!args->fields || !args->out) {
    return sim_fail("dump needs --fields and --out");
  }
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  npyArray st = {0}, ct = {0};
  mjData* d = NULL;
  long B = 0;
  int rc = 1;

  // optional states and controls for data fields
  if (args->state) {
    B = sim_read_states(args->state, mj_stateSize(m, args->spec), &st);
    if (B < 0 || (args->ctrl && sim_read_ctrl2(args->ctrl, B, m->nu, &ct))) {
      goto done;
    }
  }
  if (!(d = mj_makeData(m))) {
    goto done;
  }

  // each requested field: model first, then data (data needs --state)
  char list[4096];
  snprintf(list, sizeof(list), "%s", args->fields);
  rc = 0;
  for (char* name = strtok(list, ","); name && !rc; name = strtok(NULL, ",")) {
    tnField f;
    if (tn_modelField(m, name, &f) || !strncmp(name, "opt.", 4) ||
        !strncmp(name, "stat.", 5)) {
      rc = dump_model_field(m, args, name);
    } else if (tn_dataField(m, d, name, &f)) {
      rc = args->state ? dump_data_field(m, d, args, name, &st, &ct, B)
                       : sim_fail("data field '%s' needs --state", name);
    } else {
      rc = sim_fail("unknown field '%s'", name);
    }
  }

done:
  mj_deleteData(d);
  npy_free(&st);
  npy_free(&ct);
  mj_deleteModel(m);
  return rc;
}
