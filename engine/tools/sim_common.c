/* tools/sim_common.c — shared helpers of torsion-sim: the engine error
 * handler, model loading with flag overrides, array shape checks, per-thread mjData, and the
 * growable column tables that `contacts` and `efc` stack over states. */
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "sim.h"

/* a JSON number, null when not finite */
json_t* sim_json_real(double v, int decimals) {
  if (!isfinite(v)) {
    return json_null();
  }
  if (decimals >= 0) {
    double scale = pow(10.0, decimals);
    v = round(v * scale) / scale;
  }
  return json_real(v);
}

/* a JSON array of doubles (NULL when out of memory) */
json_t* sim_json_reals(const double* v, long n) {
  json_t* a = json_array();
  for (long i = 0; a && i < n; i++) {
    if (json_array_append_new(a, sim_json_real(v[i], -1))) {
      json_decref(a);
      a = NULL;
    }
  }
  return a;
}

/* print and free a document */
int sim_json_print(json_t* doc, int digits) {
  char* text = doc ? json_dumps(doc, JSON_REAL_PRECISION(digits)) : NULL;
  json_decref(doc);
  if (!text) {
    return sim_fail("out of memory printing JSON");
  }
  puts(text);
  free(text);
  return 0;
}

/* engine errors seen (the engine reports through mju_user_error, then unwinds to the
 * item's tn_run, or returns when none is active) */
static atomic_int engine_errors;

/* engine error handler: count, and report unless an unwinding point will (the command
 * then names the failed item itself, on one line) */
static void on_engine_error(const char* msg) {
  atomic_fetch_add(&engine_errors, 1);
  if (!tn_unwinding()) {
    fprintf(stderr, "torsion-sim: engine error: %s\n", msg);
  }
}

/* engine warnings: printed as before (the default handler would also write
 * MUJOCO_LOG.TXT into the working directory) */
static void on_engine_warning(const char* msg) {
  fprintf(stderr, "WARNING: %s\n", msg);
}

/* install the engine handlers: an engine error never ends the tool (the default handler
 * would exit, as MuJoCo's does); it is counted and makes the command fail */
void sim_install_handlers(void) {
  mju_user_error = on_engine_error;
  mju_user_warning = on_engine_warning;
}

/* report a batch whose items failed (rc > 0), or pass rc through */
int sim_batch_failed(const char* cmd, int rc, const tnBatchStatus* status, long B) {
  if (rc <= 0) {
    return rc ? 1 : 0;
  }
  return sim_fail("%s: item %d of %ld failed (%d failed in all): %s", cmd, status->item, B,
                  status->nfailed, status->error);
}

/* one forward item's inputs, for tn_run */
typedef struct simForwardItem_ {
  const mjModel* m;
  mjData* d;
  int spec;
  const mjtNum* state;
  const mjtNum* ctrl;
} simForwardItem;

/* the engine's one forward path on an item's arguments */
static void forward_item(void* arg) {
  simForwardItem* a = arg;
  tn_forwardItem(a->m, a->d, a->spec, a->state, a->ctrl, NULL, NULL);
}

/* mj_forward at state b under an unwinding point; 0, or 1 after printing why */
int sim_forward_state(const mjModel* m, mjData* d, int spec, const mjtNum* state,
                      const mjtNum* ctrl, long b) {
  simForwardItem a = {m, d, spec, state, ctrl};
  char err[1000];
  if (tn_run(d, forward_item, &a, err, (int)sizeof(err))) {
    mj_resetData(m, d);
    return sim_fail("mj_forward at state %ld failed: %s", b, err);
  }
  return 0;
}

/* number of engine errors */
int sim_engine_errors(void) {
  return atomic_load(&engine_errors);
}

/* MuJoCo's flag names, bit i = name[i] */
static const char* disable_names[mjNDISABLE] = {
    "constraint", "equality", "frictionloss", "limit", "contact", "spring", "damper",
    "gravity", "clampctrl", "warmstart", "filterparent", "actuation", "refsafe", "sensor",
    "midphase", "eulerdamp", "autoreset", "nativeccd", "island", "multiccd"};
static const char* enable_names[mjNENABLE] = {"override", "energy",  "fwdinv", "invdiscrete",
                                              "sleep",    "diagexact", "ipc"};

/* parse a comma list of flag names into a bitmask; -1 on an unknown name */
static int parse_flags(const char* list, const char** names, int n, const char* what) {
  int mask = 0;
  char buf[512];
  snprintf(buf, sizeof(buf), "%s", list);
  for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int found = -1;
    for (int i = 0; i < n; i++) {
      if (!strcmp(tok, names[i])) {
        found = i;
      }
    }
    if (found < 0) {
      sim_fail("unknown %s flag '%s'", what, tok);
      return -1;
    }
    mask |= 1 << found;
  }
  return mask;
}

/* index of `v` in a NULL-terminated list of names, or -1 */
static int name_index(const char* v, const char* const* names) {
  for (int i = 0; names[i]; i++) {
    if (!strcmp(v, names[i])) {
      return i;
    }
  }
  return -1;
}

/* apply "key=value,key=value" overrides to the model's options; -1 after printing why */
static int apply_options(mjModel* m, const char* list) {
  static const char* const solvers[] = {"pgs", "cg", "newton", NULL};
  static const char* const cones[] = {"pyramidal", "elliptic", NULL};
  static const char* const jacobians[] = {"dense", "sparse", "auto", NULL};
  char buf[1024];
  snprintf(buf, sizeof(buf), "%s", list);
  for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    char* eq = strchr(tok, '=');
    if (!eq) {
      sim_fail("--option: expected key=value, got '%s'", tok);
      return -1;
    }
    *eq = '\0';
    const char *key = tok, *val = eq + 1;
    char* end;
    double num = strtod(val, &end);
    int isnum = *val && !*end;

    // enumerated options
    int idx = -1;
    if (!strcmp(key, "solver") && (idx = name_index(val, solvers)) >= 0) {
      m->opt.solver = idx;
    } else if (!strcmp(key, "cone") && (idx = name_index(val, cones)) >= 0) {
      m->opt.cone = idx;
    } else if (!strcmp(key, "jacobian") && (idx = name_index(val, jacobians)) >= 0) {
      m->opt.jacobian = idx;
    }
    // integer options
    else if (isnum && num >= 0 && num == (int)num && !strcmp(key, "iterations")) {
      m->opt.iterations = (int)num;
    } else if (isnum && num >= 0 && num == (int)num && !strcmp(key, "ls_iterations")) {
      m->opt.ls_iterations = (int)num;
    } else if (isnum && num >= 0 && num == (int)num && !strcmp(key, "noslip_iterations")) {
      m->opt.noslip_iterations = (int)num;
    }
    // real options
    else if (isnum && num >= 0 && !strcmp(key, "tolerance")) {
      m->opt.tolerance = num;
    } else if (isnum && num >= 0 && !strcmp(key, "ls_tolerance")) {
      m->opt.ls_tolerance = num;
    } else if (isnum && num >= 0 && !strcmp(key, "noslip_tolerance")) {
      m->opt.noslip_tolerance = num;
    } else if (isnum && num > 0 && !strcmp(key, "impratio")) {
      m->opt.impratio = num;
    } else if (isnum && num > 0 && !strcmp(key, "timestep")) {
      m->opt.timestep = num;
    } else if (isnum && !strcmp(key, "o_margin")) {
      m->opt.o_margin = num;
    } else {
      sim_fail("--option: unknown key or bad value '%s=%s'", key, val);
      return -1;
    }
  }
  return 0;
}

/* add the file at path to vfs as name; 0, or 2 (repeated) / -1 (unreadable) */
static int add_file(mjVFS* vfs, const char* name, const char* path) {
  size_t n = 0;
  char* buf = host_read_file(path, &n);
  int rc = buf && n <= INT_MAX ? mj_addBufferVFS(vfs, name, buf, (int)n) : -1;
  free(buf);
  return rc;
}

/* the VFS and the directory being added by --vfs-dir (nftw passes no user pointer) */
static mjVFS* walk_vfs;
static size_t walk_prefix;
static int walk_rc;

/* nftw callback: add one regular file under its path relative to the directory */
static int add_walked(const char* path, const struct stat* st, int flag, struct FTW* ftw) {
  (void)st;
  (void)ftw;
  if (flag == FTW_F && path[walk_prefix] == '/') {
    walk_rc = add_file(walk_vfs, path + walk_prefix + 1, path);
    if (walk_rc) {
      sim_fail("--vfs-dir: %s: %s", path, walk_rc == 2 ? "repeated name" : "cannot read");
      return 1;
    }
  }
  return 0;
}

/* put the --vfs files (each NAME=PATH read whole) and the --vfs-dir tree into vfs; 0, or -1
 * after printing why */
static int fill_vfs(mjVFS* vfs, const simArgs* args) {
  if (args->vfs_dir) {
    walk_vfs = vfs;
    walk_prefix = strlen(args->vfs_dir);
    while (walk_prefix > 1 && args->vfs_dir[walk_prefix - 1] == '/') walk_prefix--;
    walk_rc = 0;
    if (nftw(args->vfs_dir, add_walked, 16, FTW_PHYS) || walk_rc) {
      if (!walk_rc) {
        sim_fail("--vfs-dir: cannot read '%s'", args->vfs_dir);
      }
      return -1;
    }
  }
  for (int i = 0; i < args->nvfs; i++) {
    const char* eq = strchr(args->vfs[i], '=');
    char name[1024];
    snprintf(name, sizeof(name), "%.*s", (int)(eq - args->vfs[i]), args->vfs[i]);
    int rc = add_file(vfs, name, eq + 1);
    if (rc) {
      sim_fail("--vfs %s: %s", args->vfs[i], rc == 2 ? "repeated name" : "cannot read the file");
      return -1;
    }
  }
  return 0;
}

/* compile: mj_loadXML, or tn_loadXMLWith when a VFS, a root or a byte limit is given */
static mjModel* load_model(const simArgs* args, char* err, int errsz) {
  if (!args->nvfs && !args->vfs_dir && !args->vfs_only && !args->root && !args->max_bytes) {
    return mj_loadXML(args->model, NULL, err, errsz);
  }
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mjModel* m = NULL;
  if (!fill_vfs(&vfs, args)) {
    tnLoadOptions opt;
    tn_defaultLoadOptions(&opt);
    opt.vfs = &vfs;
    opt.vfs_only = args->vfs_only;
    opt.root = args->root;
    opt.max_bytes = args->max_bytes;
    m = tn_loadXMLWith(args->model, &opt, err, errsz);
  }
  mj_deleteVFS(&vfs);
  return m;
}

/* load the model and apply command-line overrides */
mjModel* sim_load(const simArgs* args) {
  sim_install_handlers();

  // overrides are validated before the (slower) load
  int dis = 0, en = 0, integ = -1;
  if (args->disable && (dis = parse_flags(args->disable, disable_names, mjNDISABLE,
                                          "disable")) < 0) {
    return NULL;
  }
  if (args->enable && (en = parse_flags(args->enable, enable_names, mjNENABLE, "enable")) < 0) {
    return NULL;
  }
  if (args->integrator) {
    const char* names[] = {"euler", "rk4", "implicit", "implicitfast"};
    for (int i = 0; i < 4; i++) {
      if (!strcmp(args->integrator, names[i])) {
        integ = i;
      }
    }
    if (integ < 0) {
      sim_fail("unknown integrator '%s' (euler, rk4, implicit, implicitfast)",
               args->integrator);
      return NULL;
    }
  }

  // compile
  char err[1024] = "";
  mjModel* m = load_model(args, err, sizeof(err));
  if (!m) {
    sim_fail("%s", err[0] ? err : "model failed to load");
    return NULL;
  }
  m->opt.disableflags |= dis;
  m->opt.enableflags |= en;
  if (integ >= 0) {
    m->opt.integrator = integ;
  }
  if (args->option && apply_options(m, args->option)) {
    mj_deleteModel(m);
    return NULL;
  }
  return m;
}

/* read states and check the row size */
long sim_read_states(const char* path, int nstate, npyArray* arr) {
  char err[512];
  if (!path) {
    sim_fail("missing --state");
    return -1;
  }
  if (npy_read(path, arr, err, sizeof(err))) {
    sim_fail("%s", err);
    return -1;
  }
  long B = arr->ndim == 1 ? 1 : (long)arr->shape[0];
  size_t row = arr->ndim == 1 ? arr->shape[0] : arr->shape[1];
  if (arr->ndim < 1 || arr->ndim > 2 || row != (size_t)nstate) {
    sim_fail("%s: states must be [B, %d] (see --spec), got %s%zu columns", path,
             nstate, arr->ndim > 2 ? "more than 2 dimensions, " : "", row);
    npy_free(arr);
    return -1;
  }
  return B;
}

/* read controls [B, nu] */
int sim_read_ctrl2(const char* path, long B, int nu, npyArray* arr) {
  char err[512];
  if (npy_read(path, arr, err, sizeof(err))) {
    sim_fail("%s", err);
    return -1;
  }
  int ok = (arr->ndim == 2 && arr->shape[0] == (size_t)B && arr->shape[1] == (size_t)nu) ||
           (arr->ndim == 1 && B == 1 && arr->shape[0] == (size_t)nu);
  if (!ok) {
    sim_fail("%s: controls must be [%ld, %d]", path, B, nu);
    npy_free(arr);
    return -1;
  }
  return 0;
}

/* one mjData per thread */
mjData** sim_make_datas(const mjModel* m, int nthread) {
  mjData** datas = calloc((size_t)nthread, sizeof(mjData*));
  for (int i = 0; datas && i < nthread; i++) {
    if (!(datas[i] = mj_makeData(m))) {
      sim_free_datas(datas, i);
      datas = NULL;
    }
  }
  if (!datas) {
    sim_fail("out of memory allocating mjData");
  }
  return datas;
}

/* free them */
void sim_free_datas(mjData** datas, int nthread) {
  for (int i = 0; datas && i < nthread; i++) {
    mj_deleteData(datas[i]);
  }
  free(datas);
}

/* write PREFIX_index.json: per-state row counts and offsets of a stacked table */
int sim_write_index(const char* prefix, long B, const long* count) {
  char path[1024];
  snprintf(path, sizeof(path), "%s_index.json", prefix);
  json_t* counts = json_array();
  json_t* offsets = json_array();
  long off = 0;
  for (long b = 0; b < B; b++) {
    json_array_append_new(counts, json_integer(count[b]));
    json_array_append_new(offsets, json_integer(off));
    off += count[b];
  }
  json_t* doc =
      json_pack("{s:I, s:o, s:o}", "nstate", (json_int_t)B, "count", counts, "offset", offsets);
  if (!doc) {
    return sim_fail("%s: out of memory", path);
  }
  int rc = json_dump_file(doc, path, 0);
  json_decref(doc);
  return rc ? sim_fail("%s: cannot write", path) : 0;
}

/* numbers a row of column i takes in memory (a zero-width column still gets one) */
static size_t table_stride(const simTable* t, int i) {
  return (size_t)(t->width[i] > 0 ? t->width[i] : 1);
}

/* add a column */
void sim_table_column(simTable* t, const char* name, int width, int ndim) {
  if (t->ncol < SIM_MAXCOL) {
    t->name[t->ncol] = name;
    t->width[t->ncol] = width;
    t->ndim[t->ncol] = ndim;
    t->ncol++;
  }
}

/* room for k more rows: the capacity doubles from 256 */
int sim_table_reserve(simTable* t, size_t k) {
  if (t->n + k <= t->cap) {
    return 0;
  }
  size_t cap = t->cap ? t->cap : 256;
  while (cap < t->n + k) {
    cap *= 2;
  }
  for (int i = 0; i < t->ncol; i++) {
    double* p = realloc(t->col[i], sizeof(double) * table_stride(t, i) * cap);
    if (!p) {
      return -1;
    }
    t->col[i] = p;
  }
  t->cap = cap;
  return 0;
}

/* write each column (an empty table writes empty arrays) */
int sim_table_write(const simTable* t, const char* prefix) {
  static const double empty = 0;
  for (int i = 0; i < t->ncol; i++) {
    char path[1024], err[512];
    snprintf(path, sizeof(path), "%s_%s.npy", prefix, t->name[i]);
    size_t shape[2] = {t->n, (size_t)t->width[i]};
    const double* col = t->col[i] ? t->col[i] : &empty;
    if (npy_write(path, col, NPY_F64, t->ndim[i], shape, err, sizeof(err))) {
      return sim_fail("%s", err);
    }
  }
  return 0;
}

/* free the columns */
void sim_table_free(simTable* t) {
  for (int i = 0; i < t->ncol; i++) {
    free(t->col[i]);
    t->col[i] = NULL;
  }
  t->n = t->cap = 0;
}

/* rows stacked over the states, after mj_forward at each */
int sim_stack_states(const simArgs* args, const simStackOps* ops, void* ctx) {
  if (!args->out) {
    return sim_fail("missing --out");
  }
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  int rc = 1, nstate = mj_stateSize(m, args->spec);
  npyArray st = {0};
  simTable t = {0};
  long* count = NULL;
  mjData* d = NULL;

  // the states, the table, then one forward pass per state
  long B = sim_read_states(args->state, nstate, &st);
  if (B < 0 || !(d = mj_makeData(m)) || !(count = calloc((size_t)B + 1, sizeof(long))) ||
      ops->setup(ctx, m, B, &t)) {
    goto done;
  }
  for (long b = 0; b < B; b++) {
    if (sim_forward_state(m, d, args->spec, st.data + b * nstate, NULL, b)) {
      goto done;
    }
    size_t n0 = t.n;
    if (ops->append(ctx, m, d, b, &t)) {
      sim_fail("out of memory");
      goto done;
    }
    count[b] = (long)(t.n - n0);
  }

  // the columns, the subcommand's own files, the index
  rc = sim_table_write(&t, args->out) || (ops->write && ops->write(ctx, args->out, B)) ||
       sim_write_index(args->out, B, count);

done:
  sim_table_free(&t);
  free(count);
  mj_deleteData(d);
  npy_free(&st);
  mj_deleteModel(m);
  return rc;
}
