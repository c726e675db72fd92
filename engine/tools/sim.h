/* tools/sim.h — shared pieces of torsion-sim: argument parsing, model loading with
 * option overrides, state/control array checks, and the subcommand entry points. */
#ifndef TORSION_SIM_H
#define TORSION_SIM_H

#include <err.h>
#include <jansson.h>

#include <torsion/torsion.h>

#include "npy.h"

/* options common to the subcommands */
typedef struct simArgs_ {
  const char* model;
  const char* state;
  const char* ctrl;
  const char* qacc;
  const char* out;
  const char* sensordata; /* forward/rollout: also write sensordata here (--sensordata) */
  const char* fields;
  const char* disable;
  const char* enable;
  const char* integrator;
  const char* option;
  int nstep;
  int threads;
  double ctrlnoise;
  double eps;
  int centered;
  int actuation; /* inversefd: subtract qfrc_actuator (--actuation) */
  int profile;
  int seed;
  int spec;            /* mjtState spec of --state and rollout output (default FULLPHYSICS) */
  const char* vfs[64]; /* --vfs NAME=PATH: files put into an mjVFS before loading */
  int nvfs;
  const char* vfs_dir; /* --vfs-dir DIR: every file under DIR, named by its path in DIR */
  int vfs_only;        /* --vfs-only: the load reads nothing outside the VFS */
  const char* root;    /* --root DIR: files only under DIR */
  long long max_bytes; /* --max-bytes N: total bytes over all files read */
} simArgs;

/* print "torsion-sim: <reason>" to stderr with the C library's warnx (which names the program)
 * and evaluate to exit status 1 */
#define sim_fail(...)   \
  __extension__({       \
    warnx(__VA_ARGS__); \
    1;                  \
  })

/* a JSON number (jansson), null when v is not finite; rounded to `decimals` places when
 * decimals >= 0 (measurements), else kept whole */
json_t* sim_json_real(double v, int decimals);

/* a JSON array of n doubles */
json_t* sim_json_reals(const double* v, long n);

/* print one JSON document on a line of stdout (reals with `digits` significant digits: 17
 * round-trips every double, 15 prints rounded measurements cleanly) and free it; 0, or 1
 * after printing why */
int sim_json_print(json_t* doc, int digits);

/* Install the engine's error and warning handlers (errors are counted, never fatal). */
void sim_install_handlers(void);

/* load args->model and apply --disable/--enable/--integrator; NULL after printing why */
mjModel* sim_load(const simArgs* args);

/* read a state array [B, nstate] (2-D, or 1-D meaning B = 1); returns B or -1 */
long sim_read_states(const char* path, int nstate, npyArray* arr);

/* read a control array [B, nu] (forward) ; returns 0 or -1 */
int sim_read_ctrl2(const char* path, long B, int nu, npyArray* arr);

/* number of engine errors reported since start (the tool installs a handler) */
int sim_engine_errors(void);

/* report a batch helper's failed items in one line ("CMD: item i of B failed (n failed in
 * all): message") when rc > 0; returns the exit status (0 when rc is 0, else 1) */
int sim_batch_failed(const char* cmd, int rc, const tnBatchStatus* status, long B);

/* mj_resetData, mj_setState (spec), the control row (optional) and mj_forward on d under an
 * unwinding point; 0, or 1 after printing "mj_forward at state b failed: message" */
int sim_forward_state(const mjModel* m, mjData* d, int spec, const mjtNum* state,
                      const mjtNum* ctrl, long b);

/* allocate nthread mjData; NULL after printing why */
mjData** sim_make_datas(const mjModel* m, int nthread);
void sim_free_datas(mjData** datas, int nthread);

/* write PREFIX_index.json {"nstate": B, "count": [...], "offset": [...]} for a table whose
 * rows are stacked over B states; returns 0 or 1 after printing why */
int sim_write_index(const char* prefix, long B, const long* count);

/* most columns of a simTable */
#define SIM_MAXCOL 16

/* a growable table of float64 columns whose rows are stacked over states (tool side:
 * allocation is fine here). Column i holds width[i] numbers a row and is written as
 * PREFIX_<name[i]>.npy, [n] when ndim[i] is 1, else [n, width[i]]. Zero-initialize it. */
typedef struct simTable_ {
  int ncol;
  const char* name[SIM_MAXCOL];
  int width[SIM_MAXCOL], ndim[SIM_MAXCOL];
  double* col[SIM_MAXCOL]; /* [cap, max(width, 1)] each */
  size_t n, cap;           /* rows held and allocated */
} simTable;

/* add a column (before the first row) */
void sim_table_column(simTable* t, const char* name, int width, int ndim);

/* make room for k more rows; 0, or -1 when out of memory */
int sim_table_reserve(simTable* t, size_t k);

/* write every column as PREFIX_<name>.npy; 0, or 1 after printing why */
int sim_table_write(const simTable* t, const char* prefix);

/* free the columns */
void sim_table_free(simTable* t);

/* what a subcommand that stacks rows over states (contacts, efc) adds to sim_stack_states */
typedef struct simStackOps_ {
  /* add the table's columns (and the subcommand's per-state buffers for B states); 0 or -1 */
  int (*setup)(void* ctx, const mjModel* m, long B, simTable* t);
  /* append the rows of state b, whose mj_forward d holds; 0, or -1 when out of memory */
  int (*append)(void* ctx, const mjModel* m, const mjData* d, long b, simTable* t);
  /* write the subcommand's own files beside the table (NULL: none); 0 or 1 after printing why */
  int (*write)(void* ctx, const char* prefix, long B);
} simStackOps;

/* load the model and --state, then per state mj_resetData, mj_setState, mj_forward and the
 * rows ops->append adds; write PREFIX_<column>.npy, the subcommand's files and
 * PREFIX_index.json (rows per state). Returns the exit status. */
int sim_stack_states(const simArgs* args, const simStackOps* ops, void* ctx);

/* subcommands */
int cmd_info(const simArgs* args);
int cmd_forward(const simArgs* args);
int cmd_rollout(const simArgs* args);
int cmd_speed(const simArgs* args);
int cmd_dump(const simArgs* args);
int cmd_contacts(const simArgs* args);
int cmd_efc(const simArgs* args);
int cmd_islands(const simArgs* args);
int cmd_inverse(const simArgs* args);
int cmd_transitionfd(const simArgs* args);
int cmd_inversefd(const simArgs* args);

#endif /* TORSION_SIM_H */
