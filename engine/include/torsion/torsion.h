/* torsion/torsion.h — the public API of the Torsion physics engine.
 *
 * Types and functions carry MuJoCo's names and meanings: code written against MuJoCo's
 * mujoco.h should need only this #include changed. Functions that MuJoCo does not have use
 * the prefix tn_. Everything declared here is implemented; a feature that is not implemented
 * yet is reported as an error at load time, never silently ignored. */
#ifndef TORSION_TORSION_H
#define TORSION_TORSION_H

#include <stddef.h>

#include "mjdata.h"
#include "mjmodel.h"
#include "mjtnum.h"
#include "mjspec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Torsion's version, and the MuJoCo version whose semantics it follows */
#define TORSION_VERSION "0.1.0"
#define mjVERSION_HEADER 3014000

/* ---------------------------------------------------------------------------------------
 * Errors and warnings
 * ------------------------------------------------------------------------------------- */

/* Handler for fatal engine errors. mju_error formats the message and gives it to the log
 * handler (mju_setLogHandler) if one is installed, else to this handler if installed, else
 * (unless an unwinding point will receive the message) to the default handler, which
 * prints "ERROR: <msg>" to stderr, appends it to MUJOCO_LOG.TXT and exits the process with
 * status 1, as MuJoCo does. Then mju_error unwinds to the thread's innermost tn_run, or,
 * when none is active, returns to its caller (as MuJoCo's does after a handler that
 * returns), which abandons the current computation. Hosts that must survive engine errors
 * install a handler (it is process-wide and may run on any thread). */
extern void (*mju_user_error)(const char* msg);

/* Clock for the pipeline timers in mjData.timer (NULL: no timing, the default). Install a
 * function returning the current time (any unit); set it before starting threads. */
typedef mjtNum (*mjfTime)(void);
extern mjfTime mjcb_time;

/* Handler for warnings (used when no log handler is installed; default: print
 * "WARNING: <msg>" to stderr and append it to MUJOCO_LOG.TXT). */
extern void (*mju_user_warning)(const char* msg);

/* Report a fatal error (printf-style). Calls the handler (see mju_user_error), then jumps
 * to the innermost unwinding point of this thread (tn_run) or, without one, returns. */
void mju_error(const char* msg, ...);

/* Unwinding points (Torsion). An arena that is too small for a step (MuJoCo's
 * "mj_stackAlloc: out of memory" error), a mark/free imbalance or an invalid argument deep
 * in the pipeline raise mju_error; a host that must survive them runs each unit of work
 * through tn_run. On an error inside fn (on this thread, at any depth), control leaves fn
 * without returning into it: d's scratch stack goes back to where it was when tn_run was
 * called and its constraint rows are dropped (nefc = 0); the rest of d (state, contacts,
 * partial results) is unspecified until the host resets or sets it. The message (also
 * given to mju_user_error when installed) is copied into error (at most error_sz bytes,
 * may be NULL). Points nest; each thread has its own. Cost: one setjmp per call, so wrap
 * whole items (a rollout, a forward evaluation), not single stages. fn must not hold
 * resources (malloc'ed memory, locks) across engine calls that may fail. d may be NULL.
 * Returns 0 when fn returned normally, -1 after an error. */
typedef void (*tnRunFn)(void* arg);
int tn_run(mjData* d, tnRunFn fn, void* arg, char* error, int error_sz);

/* 1 when an unwinding point (tn_run) is active on the calling thread, else 0. */
int tn_unwinding(void);

/* Report a warning (printf-style). Calls mju_user_warning. */
void mju_warning(const char* msg, ...);

/* Count warning `warning` in d->warning and record `info`; prints the first occurrence. */
void mj_warning(mjData* d, int warning, int info);

/* ---------------------------------------------------------------------------------------
 * Callbacks and user memory (MuJoCo's mjcb_* hooks, mju_user_malloc/free)
 * ------------------------------------------------------------------------------------- */

/* Pipeline callbacks (MuJoCo's mjcb_*; all NULL by default; process-wide, set them before
 * starting threads). With none installed the pipeline computes exactly what it computes
 * without this feature. */
typedef void (*mjfGeneric)(const mjModel* m, mjData* d);
typedef int (*mjfConFilt)(const mjModel* m, mjData* d, int geom1, int geom2);
typedef void (*mjfSensor)(const mjModel* m, mjData* d, int stage);
typedef mjtNum (*mjfAct)(const mjModel* m, const mjData* d, int id);

/* called in mj_forward before the actuator forces (unless actuation is disabled) and at the
 * end of mj_step1: set d->ctrl, qfrc_applied, xfrc_applied */
extern mjfGeneric mjcb_control;
/* called at the end of mj_passive (not when springs and dampers are both disabled): add to
 * d->qfrc_passive */
extern mjfGeneric mjcb_passive;
/* replaces the contype/conaffinity test of geom pairs found by the broad phase (not
 * explicit <pair>s); geoms are passed ordered by type; return 1 to discard the pair */
extern mjfConFilt mjcb_contactfilter;
/* fills the user sensors of a stage (mjSTAGE_POS/VEL/ACC) in d->sensordata; called only
 * for stages that have user sensors, after they are zeroed and before the cutoff */
extern mjfSensor mjcb_sensor;
/* user activation dynamics (returns act_dot; an actuator with more than one activation
 * writes d->act_dot itself), user gain (default 1) and user bias (default 0) */
extern mjfAct mjcb_act_dyn;
extern mjfAct mjcb_act_gain;
extern mjfAct mjcb_act_bias;

/* Set every mjcb_* callback (mjcb_time included) back to NULL. */
void mj_resetCallbacks(void);

/* User memory: when set, mju_malloc and mju_free call these instead of the 64-byte aligned
 * system allocator; mjModel and mjData buffers are allocated through them. */
extern void* (*mju_user_malloc)(size_t size);
extern void (*mju_user_free)(void* ptr);

/* Allocate memory aligned on 64 bytes, size padded to a multiple of 64; NULL for size 0
 * or when the allocation fails. */
void* mju_malloc(size_t size);

/* Free memory from mju_malloc (NULL is ignored). */
void mju_free(void* ptr);

/* Clear mju_user_error, mju_user_warning, mju_user_malloc and mju_user_free. */
void mju_clearHandlers(void);

/* Allocate `bytes` on d's scratch stack at `alignment` (a power of 2); raises mju_error on
 * stack overflow (see mj_stackAllocNum). */
void* mj_stackAllocByte(mjData* d, size_t bytes, size_t alignment);

/* Logging (MuJoCo 3.14). Every error, warning and info message becomes an mjLogMessage and
 * goes to one handler: the one installed with mju_setLogHandler, else the legacy
 * mju_user_error/mju_user_warning (given the subject only), else the default handler,
 * which prints "LEVEL: subject" (errors and warnings on stderr, info and debug on stdout),
 * appends it with a timestamp to the log file, and for an error ends the process with
 * exit status 1 (except inside tn_run, which unwinds instead). */

/* how serious a message is */
typedef enum mjtLogLevel {
  mjLOG_DEBUG = 0, /* tracing; shown only for enabled topics (or topic 0) */
  mjLOG_INFO,      /* information; shown only for enabled topics (or topic 0) */
  mjLOG_WARNING,
  mjLOG_ERROR
} mjtLogLevel;

/* what an info or debug message is about (the default handler's filter) */
typedef enum mjtLogTopic {
  mjTOPIC_NONE = 0,     /* never filtered */
  mjTOPIC_TIME_STP = 1, /* step timings */
  mjTOPIC_TIME_CMP = 2, /* compiler timings */
  mjTOPIC_SLEEP = 3,    /* bodies falling asleep and waking */
  mjNTOPIC = 3          /* topics 1..mjNTOPIC can be enabled */
} mjtLogTopic;

/* one message */
typedef struct mjLogMessage_ {
  int level;          /* mjtLogLevel */
  int topic;          /* mjtLogTopic; 0 for errors and warnings */
  char subject[1024]; /* the message itself, one line */
  const char* body;   /* further lines printed below it (NULL: none) */
  const char* func;   /* name of the reporting function (NULL: none) */
  const char* file;   /* its source file (NULL: none; printed only with line > 0) */
  int line;           /* its line */
  mjtBool timestamp;  /* the console line shows the date and time too */
} mjLogMessage;

/* what the default handler does (initially: console and file on, MUJOCO_LOG.TXT, no
 * topics) */
typedef struct mjLogConfig_ {
  mjtBool logto_console; /* print on stdout (info, debug) or stderr (the rest) */
  mjtBool logto_file;    /* append to logfile */
  char logfile[1024];    /* where, relative to the working directory */
  int topics;            /* bit topic-1 set: info and debug messages of that topic shown */
} mjLogConfig;

/* A log handler. It may be called from any thread at once and may not raise errors. */
typedef void (*mjfLogHandler)(const mjLogMessage* msg);

/* Install a log handler (NULL: the default); returns the previous one (NULL: the default;
 * MuJoCo returns its default handler there, which restores the default just the same). */
mjfLogHandler mju_setLogHandler(mjfLogHandler handler);

/* The default handler's configuration. */
mjLogConfig mju_getLogConfig(void);
void mju_setLogConfig(mjLogConfig config);

/* Log an info message (printf-style) of a topic (0: always shown by the default handler). */
void mju_info(int topic, const char* msg, ...);

/* Send a message to the active handler. */
void mju_message(const mjLogMessage* msg);

/* Append "<date and time>\n<type>: <msg>" to MUJOCO_LOG.TXT in the working directory. */
void mju_writeLog(const char* type, const char* msg);

/* ---------------------------------------------------------------------------------------
 * Loading and lifetime
 * ------------------------------------------------------------------------------------- */

/* Virtual file system (MuJoCo 3.14's API): named in-memory files that the MJCF reader and
 * the asset loaders consult before the filesystem. A reference finds the file whose name
 * equals the path the loader built (model directory, meshdir/assetdir and the attribute
 * joined), else the first file added whose base name equals the reference's base name,
 * ignoring case. Start one with mj_defaultVFS and free it with mj_deleteVFS. */
typedef struct mjVFS_ mjVFS;
struct mjVFS_ {
  void* impl_; /* the files (internal) */
};

/* Initialize an empty VFS; mj_deleteVFS must be called to free it. */
void mj_defaultVFS(mjVFS* vfs);

/* Add the file directory/filename from disk under its lower-case base name; return 0:
 * success, 2: repeated name, -1: failed to load (missing, not a regular file, ...). */
int mj_addFileVFS(mjVFS* vfs, const char* directory, const char* filename);

/* Add a copy of a buffer under `name`; return 0: success, 2: repeated name, -1: failed to
 * load (negative size, out of memory). */
int mj_addBufferVFS(mjVFS* vfs, const char* name, const void* buffer, int nbuffer);

/* Delete a file (by its name, else by its lower-case base name); return 0: success, -1: not
 * found in VFS. */
int mj_deleteFileVFS(mjVFS* vfs, const char* filename);

/* Check if a buffer exists in the VFS under exactly `name`; return 1: exists, 0: not found. */
int mj_containsBufferVFS(mjVFS* vfs, const char* name);

/* Check if a file added as directory/filename exists in the VFS (by its lower-case base
 * name, as mj_addFileVFS stores it); return 1: exists, 0: not found. */
int mj_containsFileVFS(mjVFS* vfs, const char* directory, const char* filename);

/* Delete all files from the VFS and free its internal memory. */
void mj_deleteVFS(mjVFS* vfs);

/* How tn_loadXMLWith may read files. Zero-initialized (or tn_defaultLoadOptions): no VFS,
 * the whole filesystem, no byte limit, as mj_loadXML(filename, NULL, ...). */
typedef struct tnLoadOptions_ {
  const mjVFS* vfs;    /* files looked up here first (the model file included); NULL: none */
  int vfs_only;        /* 1: never open a file outside the VFS; a reference to anything else
                          fails the load naming element, attribute and file */
  const char* root;    /* when set: files are read from disk only under this directory (paths
                          resolved with realpath: symlinks and '..' may not leave it) */
  long long max_bytes; /* when > 0: the most bytes read over all files of the load */
  long long max_model_bytes; /* when > 0: a model whose compiled size (mj_sizeModel) would be
                                larger fails the load before its arrays are allocated */
} tnLoadOptions;

/* Zero options: see tnLoadOptions. */
void tn_defaultLoadOptions(tnLoadOptions* opt);

/* MuJoCo's default visualization settings (what a model without <visual> gets). */
void mj_defaultVisual(mjVisual* vis);

/* Parse and compile an MJCF file. On failure returns NULL and writes a message naming file,
 * line, element and attribute into `error` (if not NULL, at most error_sz bytes).
 * Every file (the model file, includes, meshes, height fields, skins) is looked up in `vfs`
 * first, then on disk relative to the model's directory; `vfs` may be NULL. */
mjModel* mj_loadXML(const char* filename, const mjVFS* vfs, char* error, int error_sz);

/* Parse and compile an MJCF file under `opt` (NULL: as mj_loadXML with no VFS). The file
 * itself is looked up in the VFS first, so a host holding MJCF text in memory adds it to the
 * VFS under a name and loads that name (MuJoCo's from_xml_string does the same); the model's
 * directory is the name's directory part. A refused file fails the load with a message
 * naming file, line, element and attribute; under `root` the message is the same whether a
 * file outside the root exists or not, and nothing outside is opened. */
mjModel* tn_loadXMLWith(const char* filename, const tnLoadOptions* opt, char* error, int error_sz);

/* Parse and compile MJCF text held in memory. Includes resolve relative to `dir` when
 * given, or not at all when `dir` is NULL. Returns NULL with a message on failure. */
mjModel* tn_loadXMLString(const char* xml, const char* dir, char* error, int error_sz);

/* Free a model returned by mj_loadXML or mj_copyModel. NULL is allowed. */
void mj_deleteModel(mjModel* m);

/* Set actuator_lengthrange of actuator `index` as MuJoCo's compiler does: skipped by mode or
 * an existing range, copied from joint/tendon limits with uselimit, else found by pulling the
 * transmission both ways in simulation (d is used as scratch). Returns 1, or 0 with a message
 * in `error` when the simulation is unstable or does not converge. */
int mj_setLengthRange(mjModel* m, mjData* d, int index, const mjLROpt* opt, char* error,
                      int error_sz);

/* Deep copy of a model into `dest` (allocated when NULL). Returns dest. */
mjModel* mj_copyModel(mjModel* dest, const mjModel* m);

/* Allocate and reset mjData for model m. Returns NULL (and reports) if out of memory. */
mjData* mj_makeData(const mjModel* m);

/* Copy all of src (state and derived quantities) into dest; allocates when dest is NULL. */
mjData* mj_copyData(mjData* dest, const mjModel* m, const mjData* src);

/* Free mjData. NULL is allowed. */
void mj_deleteData(mjData* d);

/* Bytes mj_makeData allocated for d (Torsion): the struct, the array buffer, the arena and
 * the contact array; compare MuJoCo's sizeof(mjData) + nbuffer + narena. */
size_t tn_dataBytes(const mjData* d);

/* Reset data to the model's defaults (qpos0, zero velocity, mocap at body poses). */
void mj_resetData(const mjModel* m, mjData* d);

/* Reset data, then apply keyframe `key` (out-of-range keys are reported and ignored). */
void mj_resetDataKeyframe(const mjModel* m, mjData* d, int key);

/* ---------------------------------------------------------------------------------------
 * Binary models, printing and version
 * ------------------------------------------------------------------------------------- */

/* Bytes mj_saveModel writes for m: the size of Torsion's binary model format
 * (docs/model-format.md). Only m's size fields are read. 0 when they are invalid. */
mjtSize mj_sizeModel(const mjModel* m);

/* Save m in Torsion's binary format into `buffer` when it is not NULL (it must hold
 * mj_sizeModel(m) bytes; buffer_sz says how many it holds), else into the file `filename`.
 * Failures (buffer too small, file not writable) are reported with mju_warning. MuJoCo's
 * MJB files and Torsion's are not interchangeable. */
void mj_saveModel(const mjModel* m, const char* filename, void* buffer, int buffer_sz);

/* Load a binary model written by mj_saveModel from the VFS (when it holds `filename`, vfs
 * may be NULL) or from disk. Returns NULL after a warning naming the problem when the input
 * is not a complete, consistent model of this format version. */
mjModel* mj_loadModel(const char* filename, const mjVFS* vfs);

/* Load a binary model from buffer_sz bytes in memory (as mj_loadModel). */
mjModel* mj_loadModelBuffer(const void* buffer, int buffer_sz);

/* MuJoCo's version number whose semantics this library follows: 3.14.0 is 3014000, equal
 * to mjVERSION_HEADER. */
int mj_version(void);

/* That version as text ("3.14.0"). */
const char* mj_versionString(void);

/* Print the model as text in MuJoCo's layout into `filename` (NULL: stdout), every real
 * number with float_format (a printf conversion of one double such as "%.6g"; an invalid
 * one is reported with mju_warning and replaced by the default "% -9.2g"). Sections and
 * lines of fields Torsion does not have (mjVisual, BVHs, plugins, ...) are absent. */
void mj_printFormattedModel(const mjModel* m, const char* filename, const char* float_format);

/* mj_printFormattedModel with the default float format. */
void mj_printModel(const mjModel* m, const char* filename);

/* Print the data as text in MuJoCo's layout (see mj_printFormattedModel). */
void mj_printFormattedData(const mjModel* m, const mjData* d, const char* filename,
                           const char* float_format);

/* mj_printFormattedData with the default float format. */
void mj_printData(const mjModel* m, const mjData* d, const char* filename);

/* The asset cache of the compiler (MuJoCo 3.14's API): one per process, bounded in bytes,
 * least recently used entries evicted first. It holds processed mesh files (vertices,
 * faces, convex hull, mass properties) keyed by real path, modification time, size and the
 * mesh's attributes, so loading a model again skips parsing and hull building. Files from
 * the VFS and loads that restrict their files (tnLoadOptions root, vfs_only, max_bytes) do
 * not use it. Height fields, skins and textures are not cached. Thread-safe. */
typedef struct mjCache_ {
  void* impl_; /* the entries (internal) */
} mjCache;

/* Bytes the cache holds. */
size_t mj_getCacheSize(const mjCache* cache);

/* Most bytes the cache may hold (default 500 MB). */
size_t mj_getCacheCapacity(const mjCache* cache);

/* Set the capacity in bytes (0 disables the cache), evicting down to it; returns it. */
size_t mj_setCacheCapacity(mjCache* cache, size_t size);

/* The cache the compiler uses. */
mjCache* mj_getCache(void);

/* Remove every entry (the capacity stays). */
void mj_clearCache(mjCache* cache);

/* ---------------------------------------------------------------------------------------
 * Scratch memory on mjData's arena (stack discipline; used by the pipeline, never malloc)
 * ------------------------------------------------------------------------------------- */

/* Remember the current top of the stack. */
void mj_markStack(mjData* d);

/* Pop everything allocated since the matching mj_markStack. */
void mj_freeStack(mjData* d);

/* Allocate n mjtNums / ints on the stack (8-byte aligned). When the arena is exhausted,
 * raises mju_error ("mj_stackAlloc: out of memory, stack overflow ...", as MuJoCo), which
 * unwinds to the innermost tn_run; only without an unwinding point does it return NULL.
 * mj_markStack fails the same way; mj_freeStack without a matching mark is an error. */
mjtNum* mj_stackAllocNum(mjData* d, size_t n);
int* mj_stackAllocInt(mjData* d, size_t n);

/* ---------------------------------------------------------------------------------------
 * Simulation
 * ------------------------------------------------------------------------------------- */

/* Advance the simulation by one timestep with the model's integrator. */
void mj_step(const mjModel* m, mjData* d);

/* Torsion: advance n datas of model m by one step each; each data's result is bitwise
 * mj_step's on it. Under an unwinding point (tn_run), groups of four datas with the Euler or
 * Runge-Kutta integrator step in lockstep, with some stages computed for the whole group at
 * once (SIMD lanes; such a stage's timer, when mjcb_time is installed, counts a call for each
 * data and a quarter of the group's time); the rest step one by one. An mju_error inside
 * leaves every data of the call in an unspecified state: a caller that must keep the
 * others restores them (e.g. from mj_getState) and steps them one by one. */
void tn_stepGroup(const mjModel* m, mjData* const* d, int n);

/* First half of mj_step: everything up to and including velocity-dependent computations,
 * so the user can set controls that depend on them before mj_step2. */
void mj_step1(const mjModel* m, mjData* d);

/* Second half of mj_step: actuation, acceleration and integration (Euler/implicit only;
 * RK4 falls back to Euler as in MuJoCo). */
void mj_step2(const mjModel* m, mjData* d);

/* Forward dynamics: compute qacc and act_dot without integrating. */
void mj_forward(const mjModel* m, mjData* d);

/* The position, velocity and acceleration stages of mj_forward. */
void mj_fwdPosition(const mjModel* m, mjData* d);
void mj_fwdVelocity(const mjModel* m, mjData* d);
void mj_fwdActuation(const mjModel* m, mjData* d);
void mj_fwdAcceleration(const mjModel* m, mjData* d);
void mj_fwdConstraint(const mjModel* m, mjData* d);

/* Integrators: semi-implicit Euler (with implicit joint damping), 4th-order Runge-Kutta,
 * implicit and implicitfast. */
void mj_Euler(const mjModel* m, mjData* d);
void mj_RungeKutta(const mjModel* m, mjData* d, int N);

/* Implicit-in-velocity integration after mj_forward (mjINT_IMPLICIT: full velocity
 * derivative, LU in qLU; mjINT_IMPLICITFAST: without the RNE term, symmetric, L'DL in qH). */
void mj_implicit(const mjModel* m, mjData* d);

/* Divergence checks: warn and reset when qpos/qvel/qacc hold NaN, Inf or |x| > mjMAXVAL. */
void mj_checkPos(const mjModel* m, mjData* d);
void mj_checkVel(const mjModel* m, mjData* d);
void mj_checkAcc(const mjModel* m, mjData* d);

/* ---------------------------------------------------------------------------------------
 * Pipeline components
 * ------------------------------------------------------------------------------------- */

/* Forward kinematics: body, joint, geom, site, camera and light poses (mocap included). */
void mj_kinematics(const mjModel* m, mjData* d);

/* Subtree centers of mass, com-based inertias (cinert) and motion dofs (cdof). */
void mj_comPos(const mjModel* m, mjData* d);

/* Collision detection: broad phase, filters and narrow phase into d->contact[0..ncon). */
void mj_collision(const mjModel* m, mjData* d);

/* Constraint rows (efc_*: J, pos, margin, frictionloss, diagA, KBIP, D, R; ne, nf, nl,
 * nefc) for equality, friction loss, limit and contact constraints, in that order. */
void mj_makeConstraint(const mjModel* m, mjData* d);

/* 1 when efc_J is stored sparse (CSR): option jacobian="sparse", or "auto" with nv >= 60. */
int mj_isSparse(const mjModel* m);

/* efc_AR = J inv(M) J' + diag(R), when a dual solver (PGS) or noslip needs it. */
void mj_projectConstraint(const mjModel* m, mjData* d);

/* efc_vel = J qvel and the reference acceleration efc_aref. */
void mj_referenceConstraint(const mjModel* m, mjData* d);

/* Given jar = J qacc - aref: efc_force, efc_state, qfrc_constraint and (if cost is not NULL)
 * the constraint cost; flg_coneHessian also fills contact[].H for elliptic cones. */
void mj_constraintUpdate(const mjModel* m, mjData* d, const mjtNum* jar, mjtNum cost[1],
                         int flg_coneHessian);

/* res = J*vec (nefc) and res = J'*vec (nv), for dense or sparse efc_J. */
void mj_mulJacVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);
void mj_mulJacTVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);

/* The solve of mj_fwdConstraint: qacc, qfrc_constraint, efc_force, efc_state and solver
 * statistics with the model's solver (PGS, CG, Newton) and noslip. */
void tn_fwdConstraintSolve(const mjModel* m, mjData* d);

/* Camera and light poses (part of kinematics for tracking modes). */
void mj_camlight(const mjModel* m, mjData* d);

/* Tendon lengths and Jacobians (fixed and spatial with wrapping). */
void mj_tendon(const mjModel* m, mjData* d);

/* Actuator lengths and moment arms. */
void mj_transmission(const mjModel* m, mjData* d);

/* Composite rigid body inertias and the joint-space inertia matrix d->M (plus armature). */
void mj_crb(const mjModel* m, mjData* d);

/* Sparse L'DL factorization of d->M into d->qLD and d->qLDiagInv. */
void mj_factorM(const mjModel* m, mjData* d);

/* Solve M*x = y for n right-hand sides using the factorization (x and y may alias). */
void mj_solveM(const mjModel* m, mjData* d, mjtNum* x, const mjtNum* y, int n);

/* Half of the solve: x = sqrt(inv(D))*inv(L')*y. */
void mj_solveM2(const mjModel* m, mjData* d, mjtNum* x, const mjtNum* y,
                const mjtNum* sqrtInvD, int n);

/* Body velocities (cvel) and cdof_dot. */
void mj_comVel(const mjModel* m, mjData* d);

/* Subtree linear velocity and angular momentum. */
void mj_subtreeVel(const mjModel* m, mjData* d);

/* Recursive Newton-Euler: result = M*qacc + C(q,v) (flg_acc=1) or C(q,v) only (0). */
void mj_rne(const mjModel* m, mjData* d, int flg_acc, mjtNum* result);

/* Whether mj_forward evaluates every sensor of the model into d->sensordata (1), or the
 * model has a sensor type Torsion does not evaluate yet (0); callers must not hand out
 * sensordata then. A model without sensors gives 1. */
int tn_sensorsEvaluated(const mjModel* m);

/* Sensor stages: position-, velocity- and acceleration-dependent sensors into sensordata
 * (called by mj_forward unless the sensor flag is disabled). */
void mj_sensorPos(const mjModel* m, mjData* d);
void mj_sensorVel(const mjModel* m, mjData* d);
void mj_sensorAcc(const mjModel* m, mjData* d);

/* Body accelerations and interaction forces after the constraint solve: cacc, cfrc_int,
 * cfrc_ext (used by accelerometer, force and torque sensors). */
void mj_rnePostConstraint(const mjModel* m, mjData* d);

/* Ray casting: distance from pnt along vec to the first geom hit (-1: none), its id in
 * geomid and the geom's outward unit surface normal at the hit point in normal (global
 * frame; zero on a miss; geomid and normal may be NULL); geomgroup (NULL: all groups) and
 * flg_static filter, bodyexclude skips a body. */
mjtNum mj_ray(const mjModel* m, const mjData* d, const mjtNum pnt[3], const mjtNum vec[3],
              const mjtByte* geomgroup, mjtBool flg_static, int bodyexclude, int geomid[1],
              mjtNum normal[3]);

/* Ray against one height-field geom (the solid between its base and its surface) or one
 * mesh geom (its triangles); distance along vec, -1 on a miss; the outward normal at the
 * hit into normal (may be NULL; zero on a miss). */
mjtNum mj_rayHfield(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                    const mjtNum vec[3], mjtNum normal[3]);
mjtNum mj_rayMesh(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                  const mjtNum vec[3], mjtNum normal[3]);

/* Ray against a primitive shape (plane, sphere, capsule, ellipsoid, cylinder, box) with
 * global position pos, orientation mat and MuJoCo's size parameters; -1 for other types;
 * the outward normal at the hit into normal (may be NULL; zero on a miss). */
mjtNum mju_rayGeom(const mjtNum pos[3], const mjtNum mat[9], const mjtNum size[3],
                   const mjtNum pnt[3], const mjtNum vec[3], int geomtype, mjtNum normal[3]);

/* Force of contact `id` in its contact frame: result[0] normal, [1..2] tangential,
 * [3..5] torsional and rolling (zero beyond the contact's dimension). Pyramidal cones are
 * decoded from their edge forces; zero when the contact has no constraint rows. */
void mj_contactForce(const mjModel* m, const mjData* d, int id, mjtNum result[6]);

/* 6D velocity / acceleration (angular, linear) of an object (mjtObj: body, xbody, geom,
 * site, camera) at its origin, in the global frame or (flg_local) the object's frame; the
 * acceleration's linear part includes w x v and needs cacc (mj_rnePostConstraint). */
void mj_objectVelocity(const mjModel* m, const mjData* d, int objtype, int objid,
                       mjtNum res[6], int flg_local);
void mj_objectAcceleration(const mjModel* m, const mjData* d, int objtype, int objid,
                           mjtNum res[6], int flg_local);

/* Passive forces: springs, dampers, gravity compensation, fluid forces. */
void mj_passive(const mjModel* m, mjData* d);

/* Actuator velocities, activation derivatives, forces and qfrc_actuator. (Declared above
 * with the stages: mj_fwdActuation.) */

/* Potential and kinetic energy into d->energy (when the energy flag is enabled). */
void mj_energyPos(const mjModel* m, mjData* d);
void mj_energyVel(const mjModel* m, mjData* d);

/* ---------------------------------------------------------------------------------------
 * Jacobians and matrix utilities
 * ------------------------------------------------------------------------------------- */

/* Jacobians (3 x nv each, either output may be NULL) of a global point on a body. */
void mj_jac(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr,
            const mjtNum point[3], int body);
void mj_jacBody(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body);
void mj_jacBodyCom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body);
void mj_jacSite(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int site);
void mj_jacGeom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int geom);

/* Dense nv x nv inertia dst from the sparse inertia d->M. */
void mj_fullM(const mjModel* m, const mjData* d, mjtNum* dst);

/* res = M * vec using the sparse inertia d->M. */
void mj_mulM(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);

/* ---------------------------------------------------------------------------------------
 * State, positions and names
 * ------------------------------------------------------------------------------------- */

/* Number of mjtNums in the state selected by `spec` (a combination of mjtState bits). */
int mj_stateSize(const mjModel* m, int spec);

/* Copy the selected state components, in mjtState bit order, into `state`. */
void mj_getState(const mjModel* m, const mjData* d, mjtNum* state, int spec);

/* Set the selected state components from `state` (same layout as mj_getState). */
void mj_setState(const mjModel* m, mjData* d, const mjtNum* state, int spec);

/* qpos = qpos + vel*scale, with quaternions integrated on the sphere. */
void mj_integratePos(const mjModel* m, mjtNum* qpos, const mjtNum* qvel, mjtNum dt);

/* qvel = (qpos2 - qpos1)/dt, with quaternion differences in the tangent space. */
void mj_differentiatePos(const mjModel* m, mjtNum* qvel, mjtNum dt, const mjtNum* qpos1,
                         const mjtNum* qpos2);

/* Normalize all quaternions in qpos. */
void mj_normalizeQuat(const mjModel* m, mjtNum* qpos);

/* Id of the named object of type `type` (mjtObj), or -1. */
int mj_name2id(const mjModel* m, int type, const char* name);

/* Name of object `id` of type `type`, or NULL when it has none. */
const char* mj_id2name(const mjModel* m, int type, int id);

/* ---------------------------------------------------------------------------------------
 * Kinematics, Jacobians, keyframes and model queries (more of MuJoCo's mj_ functions)
 * ------------------------------------------------------------------------------------- */

/* Forward dynamics skipping the stages up to and including skipstage (mjtStage:
 * mjSTAGE_NONE, mjSTAGE_POS, mjSTAGE_VEL); skipsensor: do not evaluate sensors. */
void mj_forwardSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

/* Inverse dynamics with the same skipping (qacc must be set before calling). */
void mj_inverseSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

/* Every kinematics-like computation: mj_kinematics, mj_comPos, mj_camlight, mj_tendon. */
void mj_fwdKinematics(const mjModel* m, mjData* d);

/* Find the constraint islands of the current rows (after mj_makeConstraint): nisland,
 * nidof and the tree_island / dof_island / efc_island families. Nothing when islands are
 * disabled (mjDSBL_ISLAND) or there are no rows (nisland = 0). */
void mj_island(const mjModel* m, mjData* d);

/* Recompute the constants that depend on masses and qpos0 (subtree masses, dof_M0, inverse
 * weights, actuator_acc0, lengths, statistics) after editing a compiled model; length
 * ranges are kept. */
void mj_setConst(mjModel* m, mjData* d);

/* Translational Jacobian (3 x nv) of the center of mass of body's subtree. */
void mj_jacSubtreeCom(const mjModel* m, mjData* d, mjtNum* jacp, int body);

/* Translational Jacobian of a point and rotational Jacobian of an axis (column i:
 * jacr_i x axis), both 3 x nv and nullable. */
void mj_jacPointAxis(const mjModel* m, mjData* d, mjtNum* jacPoint, mjtNum* jacAxis,
                     const mjtNum point[3], const mjtNum axis[3], int body);

/* Time derivative of mj_jac's Jacobians (3 x nv each, nullable); needs mj_kinematics,
 * mj_comPos and mj_comVel at the current state. */
void mj_jacDot(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, const mjtNum point[3],
               int body);

/* 3 x nv matrix H with the subtree angular momentum of body (about its subtree com,
 * d->subtree_angmom) = H qvel. */
void mj_angmomMat(const mjModel* m, mjData* d, mjtNum* mat, int body);

/* qfrc_target += J' [force; torque] for a force and torque (nullable) at a global point on
 * body, outside the xfrc_applied mechanism. */
void mj_applyFT(const mjModel* m, mjData* d, const mjtNum force[3], const mjtNum torque[3],
                const mjtNum point[3], int body, mjtNum* qfrc_target);

/* Global pose of a frame given in body-local coordinates (pos, quat); sameframe
 * (mjtSameFrame) copies the body's or its inertial frame's pose instead. */
void mj_local2Global(mjData* d, mjtNum xpos[3], mjtNum xmat[9], const mjtNum pos[3],
                     const mjtNum quat[4], int body, mjtByte sameframe);

/* The inertia matrix d->M (composite rigid bodies, armature, tendon armature). */
void mj_makeM(const mjModel* m, mjData* d);

/* res = M^(1/2) vec, with M^(1/2) = sqrt(D) L from the factor d->qLD (|res|^2 = vec'M vec). */
void mj_mulM2(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);

/* dst += M (lower triangle): dense nv x nv when rownnz, rowadr, colind are NULL, else a CSR
 * matrix whose rows have room for the union of their pattern and M's (rownnz updated). */
void mj_addM(const mjModel* m, mjData* d, mjtNum* dst, int* rownnz, int* rowadr, int* colind);

/* Store the current time, qpos, qvel, act, mocap and ctrl in keyframe k. */
void mj_setKeyframe(mjModel* m, const mjData* d, int k);

/* Copy the state components selected by sig (mjtState bits) from src to dst. */
void mj_copyState(const mjModel* m, const mjData* src, mjData* dst, int sig);

/* Extract the components dstsig (a subset of srcsig) from a state obtained with srcsig. */
void mj_extractState(const mjModel* m, const mjtNum* src, int srcsig, mjtNum* dst, int dstsig);

/* Sum of the body masses; scale masses and inertias to a new total (then mj_setConst). */
mjtNum mj_getTotalmass(const mjModel* m);
void mj_setTotalmass(mjModel* m, mjtNum newmass);

/* 1 when the solver works on the dual problem (PGS, or noslip enabled); 1 for pyramidal
 * friction cones. */
int mj_isDual(const mjModel* m);
int mj_isPyramidal(const mjModel* m);

/* Neutral controls (zero). */
void mj_resetCtrl(const mjModel* m, mjData* d);

/* mj_resetData, with every array the reset does not define filled with the byte
 * debug_value. */
void mj_resetDataDebug(const mjModel* m, mjData* d, unsigned char debug_value);

/* MuJoCo's defaults for length-range options, physics options, solref and solimp
 * (nullable). */
void mj_defaultLROpt(mjLROpt* opt);
void mj_defaultOption(mjOption* opt);
void mj_defaultSolRefImp(mjtNum* solref, mjtNum* solimp);

/* Name of an actuator's input `input`; NULL when the actuator type defines none (always,
 * for the actuator types Torsion has: input names come with MuJoCo's input signatures). */
const char* mj_actuatorInputName(const mjModel* m, int id, int input);

/* Smallest signed distance between two geoms, at most distmax; fromto (nullable) gets the
 * segment from geom1 to geom2 between the nearest points, zero when nothing was found
 * within distmax. With the native convex solver (mjDSBL_NATIVECCD clear), separated pairs
 * of general convex geoms and boxes are measured by GJK, the others by their colliders. */
mjtNum mj_geomDistance(const mjModel* m, mjData* d, int geom1, int geom2, mjtNum distmax,
                       mjtNum fromto[6]);

/* 1 if a global point is inside site `siteid` (sphere, capsule, ellipsoid, cylinder, box),
 * 0 otherwise. */
int mj_insideSite(const mjModel* m, const mjData* d, int siteid, const mjtNum point[3]);

/* Append a contact to d->contact; returns 0, or 1 (with mjWARN_CONTACTFULL) when full. */
int mj_addContact(const mjModel* m, mjData* d, const mjContact* con);

/* The most contacts a pair of geoms can generate; has_margin -1: from the geoms' margins,
 * else > 0 when the pair has a positive margin. */
int mj_maxContact(const mjModel* m, int g1, int g2, int has_margin);

/* ---------------------------------------------------------------------------------------
 * Math: vectors (3D and n-D), matrices, quaternions, poses, spatial algebra
 * ------------------------------------------------------------------------------------- */

void mju_zero3(mjtNum res[3]);
void mju_copy3(mjtNum res[3], const mjtNum data[3]);
void mju_scl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl);
void mju_add3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3]);
void mju_sub3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3]);
void mju_addTo3(mjtNum res[3], const mjtNum vec[3]);
void mju_subFrom3(mjtNum res[3], const mjtNum vec[3]);
void mju_addToScl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl);
void mju_addScl3(mjtNum res[3], const mjtNum vec1[3], const mjtNum vec2[3], mjtNum scl);
mjtNum mju_normalize3(mjtNum vec[3]);
mjtNum mju_norm3(const mjtNum vec[3]);
mjtNum mju_dot3(const mjtNum vec1[3], const mjtNum vec2[3]);
mjtNum mju_dist3(const mjtNum pos1[3], const mjtNum pos2[3]);
void mju_cross(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]);
void mju_mulMatVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]);
void mju_mulMatTVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]);
void mju_zero4(mjtNum res[4]);
void mju_unit4(mjtNum res[4]);
void mju_copy4(mjtNum res[4], const mjtNum data[4]);
mjtNum mju_normalize4(mjtNum vec[4]);

void mju_zero(mjtNum* res, int n);
void mju_fill(mjtNum* res, mjtNum val, int n);
void mju_copy(mjtNum* res, const mjtNum* data, int n);
mjtNum mju_sum(const mjtNum* vec, int n);
mjtNum mju_L1(const mjtNum* vec, int n);
void mju_scl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n);
void mju_add(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, int n);
void mju_sub(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, int n);
void mju_addTo(mjtNum* res, const mjtNum* vec, int n);
void mju_subFrom(mjtNum* res, const mjtNum* vec, int n);
void mju_addToScl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n);
void mju_addScl(mjtNum* res, const mjtNum* vec1, const mjtNum* vec2, mjtNum scl, int n);
mjtNum mju_normalize(mjtNum* res, int n);
mjtNum mju_norm(const mjtNum* res, int n);
mjtNum mju_dot(const mjtNum* vec1, const mjtNum* vec2, int n);

/* res = mat * vec, mat is nr x nc row-major */
void mju_mulMatVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc);
/* res = mat' * vec, mat is nr x nc row-major */
void mju_mulMatTVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc);
/* vec1' * mat * vec2, mat is n x n */
mjtNum mju_mulVecMatVec(const mjtNum* vec1, const mjtNum* mat, const mjtNum* vec2, int n);
/* res = mat' (res is nc x nr) */
void mju_transpose(mjtNum* res, const mjtNum* mat, int nr, int nc);
/* res = mat1 * mat2 (r1 x c1 times c1 x c2) */
void mju_mulMatMat(mjtNum* res, const mjtNum* mat1, const mjtNum* mat2, int r1, int c1, int c2);
/* res = mat1 * mat2' (r1 x c1 times (r2 x c1)') */
void mju_mulMatMatT(mjtNum* res, const mjtNum* mat1, const mjtNum* mat2, int r1, int c1, int r2);
/* res = mat1' * mat2 ((r1 x c1)' times r1 x c2) */
void mju_mulMatTMat(mjtNum* res, const mjtNum* mat1, const mjtNum* mat2, int r1, int c1, int c2);

/* dense Cholesky: factor in place (returns rank), solve */
int mju_cholFactor(mjtNum* mat, int n, mjtNum mindiag);
void mju_cholSolve(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int n);

/* eigen-decomposition of a symmetric 3x3 matrix: eigval[3], eigvec (columns, 3x3),
 * quat (rotation of the eigenvector frame); returns iterations used */
int mju_eig3(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]);

/* quaternions (w, x, y, z) */
void mju_rotVecQuat(mjtNum res[3], const mjtNum vec[3], const mjtNum quat[4]);
void mju_negQuat(mjtNum res[4], const mjtNum quat[4]);
void mju_mulQuat(mjtNum res[4], const mjtNum quat1[4], const mjtNum quat2[4]);
void mju_mulQuatAxis(mjtNum res[4], const mjtNum quat[4], const mjtNum axis[3]);
void mju_axisAngle2Quat(mjtNum res[4], const mjtNum axis[3], mjtNum angle);
void mju_quat2Vel(mjtNum res[3], const mjtNum quat[4], mjtNum dt);
void mju_subQuat(mjtNum res[3], const mjtNum qa[4], const mjtNum qb[4]);
void mju_quat2Mat(mjtNum res[9], const mjtNum quat[4]);
void mju_mat2Quat(mjtNum quat[4], const mjtNum mat[9]);
void mju_derivQuat(mjtNum res[4], const mjtNum quat[4], const mjtNum vel[3]);
void mju_quatIntegrate(mjtNum quat[4], const mjtNum vel[3], mjtNum scale);
void mju_quatZ2Vec(mjtNum quat[4], const mjtNum vec[3]);

/* poses (position + quaternion) */
void mju_mulPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos1[3],
                 const mjtNum quat1[4], const mjtNum pos2[3], const mjtNum quat2[4]);
void mju_negPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos[3],
                 const mjtNum quat[4]);
void mju_trnVecPose(mjtNum res[3], const mjtNum pos[3], const mjtNum quat[4],
                    const mjtNum vec[3]);

/* spatial algebra: 6D motion/force vectors are (rotation, translation) */
/* transform a 6D motion (flg_force=0) or force (1) vector by a frame shift */
void mju_transformSpatial(mjtNum res[6], const mjtNum vec[6], int flg_force,
                          const mjtNum newpos[3], const mjtNum oldpos[3],
                          const mjtNum rotnew2old[9]);
/* Torsion's own spatial helpers (tn_: MuJoCo keeps these internal) */
/* cross products of 6D motion with motion (crossMotion) and with force (crossForce) */
void tn_crossMotion(mjtNum res[6], const mjtNum vel[6], const mjtNum v[6]);
void tn_crossForce(mjtNum res[6], const mjtNum vel[6], const mjtNum f[6]);
/* com-based inertia (10 numbers) from principal inertia, rotation and offset */
void tn_inertCom(mjtNum res[10], const mjtNum inert[3], const mjtNum mat[9],
                 const mjtNum dif[3], mjtNum mass);
/* com-based motion dof from an axis (and its offset for translation dofs) */
void tn_dofCom(mjtNum res[6], const mjtNum axis[3], const mjtNum offset[3]);
/* res = cinert * vec (6D) */
void tn_mulInertVec(mjtNum res[6], const mjtNum inert[10], const mjtNum vec[6]);
/* res (6D) = sum over n dofs of dof[i] (6D each, consecutive) * vec[i] */
void tn_mulDofVec(mjtNum* res, const mjtNum* dof, const mjtNum* vec, int n);

/* scalars */
mjtNum mju_min(mjtNum a, mjtNum b);
mjtNum mju_max(mjtNum a, mjtNum b);
mjtNum mju_clip(mjtNum x, mjtNum min, mjtNum max);
mjtNum mju_sign(mjtNum x);
int mju_round(mjtNum x);
/* 1 if x is NaN or |x| > mjMAXVAL */
int mju_isBad(mjtNum x);
/* 1 if all n entries are exactly zero */
int mju_isZero(const mjtNum* vec, int n);

/* MuJoCo's muscle model (prm: range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax;
 * dynamics prm: tau_act, tau_deact, tausmooth) and the quintic sigmoid it blends with. */
mjtNum mju_sigmoid(mjtNum x);
mjtNum tn_muscleGainLength(mjtNum length, mjtNum lmin, mjtNum lmax);
mjtNum mju_muscleGain(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]);
mjtNum mju_muscleBias(mjtNum len, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]);
mjtNum tn_muscleDynamicsTimescale(mjtNum dctrl, mjtNum tau_act, mjtNum tau_deact,
                                  mjtNum smoothing);
mjtNum mju_muscleDynamics(mjtNum ctrl, mjtNum act, const mjtNum prm[3]);

/* ---------------------------------------------------------------------------------------
 * Math: band and sparse matrices, decompositions, box-constrained QP, conversions
 * ------------------------------------------------------------------------------------- */

/* square matrices: identity; res = (mat + mat')/2; res (nc x nc) = mat' diag(diag) mat
 * (mat' mat when diag is NULL; mat is nr x nc) */
void mju_eye(mjtNum* mat, int n);
void mju_symmetrize(mjtNum* res, const mjtNum* mat, int n);
void mju_sqrMatTD(mjtNum* res, const mjtNum* mat, const mjtNum* diag, int nr, int nc);

/* rank-one update of a dense Cholesky factor: L L' +/- x x' (x is overwritten); returns
 * the rank */
int mju_cholUpdate(mjtNum* mat, mjtNum* x, int n, int flg_plus);

/* compressed sparse rows (rownnz, rowadr, colind) to and from dense; dense2sparse returns 1
 * when nnz (the size of res and colind) is too small; sym2dense mirrors a lower triangle */
int mju_dense2sparse(mjtNum* res, const mjtNum* mat, int nr, int nc, int* rownnz, int* rowadr,
                     int* colind, int nnz);
void mju_sparse2dense(mjtNum* res, const mjtNum* mat, int nr, int nc, const int* rownnz,
                      const int* rowadr, const int* colind);
void mju_sym2dense(mjtNum* res, const mjtNum* mat, int n, const int* rownnz, const int* rowadr,
                   const int* colind);

/* band-dense symmetric matrices: (ntotal-ndense) band rows of nband numbers (left of the
 * diagonal, diagonal last) then ndense full rows of ntotal numbers. cholFactorBand factors
 * mat + diag(diagadd + diagmul*mat_ii) in place and returns the smallest pivot, or 0 when
 * rank-deficient. */
mjtNum mju_cholFactorBand(mjtNum* mat, int ntotal, int nband, int ndense, mjtNum diagadd,
                          mjtNum diagmul);
void mju_cholSolveBand(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int ntotal,
                       int nband, int ndense);
void mju_band2Dense(mjtNum* res, const mjtNum* mat, int ntotal, int nband, int ndense,
                    mjtBool flg_sym);
void mju_dense2Band(mjtNum* res, const mjtNum* mat, int ntotal, int nband, int ndense);
void mju_bandMulMatVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int ntotal,
                       int nband, int ndense, int nvec, mjtBool flg_sym);
int mju_bandDiag(int i, int ntotal, int nband, int ndense);

/* box-constrained QP: minimize 0.5 x'Hx + x'g s.t. lower <= x <= upper (projected Newton,
 * res is the warm start and the solution; R: n*(n+7) numbers, receives the factor of the
 * free block; index: the free dimensions). Returns the number of free dimensions, or -1 on
 * failure. index, lower, upper may be NULL. boxQPmalloc allocates the arrays (free each
 * with mju_free). */
int mju_boxQP(mjtNum* res, mjtNum* R, int* index, const mjtNum* H, const mjtNum* g, int n,
              const mjtNum* lower, const mjtNum* upper);
void mju_boxQPmalloc(mjtNum** res, mjtNum** R, int** index, mjtNum** H, mjtNum** g, int n,
                     mjtNum** lower, mjtNum** upper);

/* contact force <-> pyramid representation (mu: dim-1 friction coefficients) */
void mju_encodePyramid(mjtNum* pyramid, const mjtNum* force, const mjtNum* mu, int dim);
void mju_decodePyramid(mjtNum* force, const mjtNum* pyramid, const mjtNum* mu, int dim);

/* position after time dt of a unit-mass spring (Kp) and damper (Kv), integrated exactly */
mjtNum mju_springDamper(mjtNum pos0, mjtNum vel0, mjtNum Kp, mjtNum Kv, mjtNum dt);

/* rotations: Euler sequence (seq of 3 in "xyzXYZ", lower-case intrinsic) to quaternion;
 * rotational part of an arbitrary 3x3 matrix, refining quat in place (returns iterations) */
void mju_euler2Quat(mjtNum quat[4], const mjtNum euler[3], const char* seq);
int mju_mat2Rot(mjtNum quat[4], const mjtNum mat[9]);

/* derivatives of mju_subQuat and mju_quatIntegrate (outputs may be NULL) */
void mjd_subQuat(const mjtNum qa[4], const mjtNum qb[4], mjtNum Da[9], mjtNum Db[9]);
void mjd_quatIntegrate(const mjtNum vel[3], mjtNum scale, mjtNum Dquat[9], mjtNum Dvel[9],
                       mjtNum Dscale[3]);

/* Halton sequence; standard normal sample from the C library's rand() (second sample into
 * num2 when given) */
mjtNum mju_Halton(int index, int base);
mjtNum mju_standardNormal(mjtNum* num2);

/* conversions between float, double and mjtNum arrays */
void mju_f2n(mjtNum* res, const float* vec, int n);
void mju_n2f(float* res, const mjtNum* vec, int n);
void mju_d2n(mjtNum* res, const double* vec, int n);
void mju_n2d(double* res, const mjtNum* vec, int n);

/* insertion sorts, increasing order */
void mju_insertionSort(mjtNum* list, int n);
void mju_insertionSortInt(int* list, int n);

/* strings: strncpy that always terminates; object type names (mjtObj); warning message
 * text; byte count with a K/M/G/T/P/E suffix (both return a per-thread static buffer) */
char* mju_strncpy(char* dst, const char* src, int n);
const char* mju_type2Str(int type);
int mju_str2Type(const char* str);
const char* mju_warningText(int warning, size_t info);
const char* mju_writeNumBytes(size_t nbytes);

/* print a dense (nr x nc) or CSR matrix to stdout */
void mju_printMat(const mjtNum* mat, int nr, int nc);
void mju_printMatSparse(const mjtNum* mat, int nr, const int* rownnz, const int* rowadr,
                        const int* colind);

/* ---------------------------------------------------------------------------------------
 * Batch helpers (Torsion): many independent simulations of one model, OpenMP over items
 * ------------------------------------------------------------------------------------- */

/* Which items of a batch call failed (Torsion). Every batch helper runs each item under
 * its own unwinding point (tn_run): an item whose computation raises mju_error (arena
 * exhausted, ...) stops, its outputs are filled with NaN, its mjData is reset, and the other
 * items run on and keep their results. Pass NULL when the details are not needed. */
typedef struct tnBatchStatus_ {
  int nfailed;     /* number of items stopped by an engine error */
  int item;        /* lowest index among them, -1 when none */
  char error[512]; /* that item's mju_error message */
} tnBatchStatus;

/* Rollouts with mujoco.rollout semantics. Thread i of nthread uses datas[i]; every item is
 * reset (mj_resetData) and set from its own initial state, so results are identical for
 * every thread count. state0: [B, nstate] (spec `spec`); ctrl: NULL or [B, ctrl_nt, nu]
 * with ctrl_nt = nstep or 1 (control held); out: [B, nstep, nstate], row t the state after
 * step t; an item that raises a warning stops there and repeats that state in its
 * remaining rows, like mujoco.rollout. warnings (optional, [B]) receives per item the
 * bitmask (1 << mjtWarning) of the warnings raised. status (optional) says which items
 * failed. Returns 0 on success, -1 after mju_error on invalid arguments, or the number of
 * failed items (> 0). */
int tn_rolloutBatch(const mjModel* m, mjData** datas, int nthread, int B, int nstep,
                    int spec, const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt,
                    mjtNum* out, int* warnings, tnBatchStatus* status);

/* tn_rolloutBatch that also records sensordata (NULL allowed): sens [B, nstep, nsensordata],
 * row t the values of the forward pass inside step t (as mujoco.rollout records them). */
int tn_rolloutBatchSensors(const mjModel* m, mjData** datas, int nthread, int B, int nstep,
                           int spec, const mjtNum* state0, const mjtNum* ctrl, int ctrl_nt,
                           mjtNum* out, mjtNum* sens, int* warnings, tnBatchStatus* status);

/* mj_forward for B states (spec `spec`) with optional controls [B, nu]; writes qacc
 * [B, nv]. Same threading and failure contract as tn_rolloutBatch. Returns 0 on success,
 * -1 on invalid arguments, or the number of failed items. */
int tn_forwardBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* ctrl, mjtNum* qacc_out,
                    tnBatchStatus* status);

/* tn_forwardBatch that also writes sensordata (NULL allowed): sens [B, nsensordata]. */
int tn_forwardBatchSensors(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                           const mjtNum* state, const mjtNum* ctrl, mjtNum* qacc_out,
                           mjtNum* sens, tnBatchStatus* status);

/* Called by tn_rolloutItem after step t (0-based) has been taken; non-zero stops the item
 * there (its later rows are left as they are). */
typedef int (*tnStepFn)(void* arg, int t);

/* One rollout item (Torsion): its inputs, and what tn_rolloutItem reports. */
typedef struct tnRolloutItem_ {
  int spec;             /* state spec of state0 and of the recorded rows */
  const mjtNum* state0; /* [nstate] */
  const mjtNum* ctrl;   /* NULL (controls stay as mj_resetData leaves them) or [ctrl_nt, nu] */
  int ctrl_nt;          /* rows of ctrl: nstep (one per step) or 1 (held) */
  int ctrl_spec;        /* mjtState bits of a ctrl row (within mjSTATE_USER; 0: mjSTATE_CTRL,
                           rows of nu); other bits: rows of mj_stateSize(ctrl_spec), applied
                           with mj_setState before each step (mujoco.rollout's control_spec) */
  const mjtNum* warmstart0; /* NULL or [nv]: qacc_warmstart after state0 (0 when NULL) */
  int nstep;            /* steps to take */
  int record_every;     /* a row after every k-th step and after the last; 0 or 1: every step */
  mjtNum* states;       /* NULL or [nrow, nstate] (tn_rolloutRows) */
  mjtNum* sensordata;   /* NULL or [nrow, nsensordata] */
  tnStepFn after_step;  /* NULL, or polled after every step */
  void* after_step_arg;
  int nstep_run;     /* out: steps actually taken */
  int warnings;      /* out: bitmask (1 << mjtWarning) of the warnings raised */
} tnRolloutItem;

/* The number of rows a rollout of nstep steps records with record_every k. */
int tn_rolloutRows(int nstep, int record_every);

/* The one per-item rollout path behind tn_rolloutBatch, torsion-sim rollout and torsiond's
 * Rollout: mj_resetData, mj_setState(state0) (and the warmstart), then per step the control
 * row and mj_step, recording state (mj_getState) and sensordata after the recorded steps.
 * As mujoco.rollout
 * does, the warning counters are checked before every step: once one is set, the item
 * stops and every remaining row gets the current state and sensordata. Engine errors raise
 * mju_error: call it under tn_run. Returns 0 when the item ran to its end or stopped on a
 * warning, 1 when after_step stopped it, -1 after mju_error on invalid arguments. */
int tn_rolloutItem(const mjModel* m, mjData* d, tnRolloutItem* item);

/* Steps [t0, t1) of tn_rolloutItem's sequence (Torsion): the item's reset, state and warmstart
 * when t0 is 0, else nothing is set up and the steps continue from d's state, which the caller
 * has kept or restored (mj_setState with mjSTATE_INTEGRATION and cleared warning counters
 * after the previous range). Rows are written at their place in the item's outputs. Calling
 * it for consecutive ranges covering [0, nstep) gives tn_rolloutItem's results bit for bit.
 * Returns 0 when the range ran, 2 when a warning ended the item (every remaining row is
 * written, later ranges must not run), 1 when after_step stopped it, -1 after mju_error on
 * invalid arguments. */
int tn_rolloutItemSteps(const mjModel* m, mjData* d, tnRolloutItem* item, int t0, int t1);

/* Most items tn_rolloutGroup takes at once (Torsion). */
#define TN_ROLLOUT_GROUP 4

/* Up to TN_ROLLOUT_GROUP rollout items of one model (Torsion), item i on d[i]: each runs
 * tn_rolloutItem's sequence, their steps taken together with tn_stepGroup, so every item's
 * rows, counts and warnings are tn_rolloutItem's bit for bit and rc[i] is what it returns.
 * Engine errors raise mju_error: call it under tn_run (after an error the items' outputs
 * are unspecified; run each alone with tn_rolloutItem). Returns 0, or -1 after mju_error on
 * invalid arguments. */
int tn_rolloutGroup(const mjModel* m, mjData* const* d, tnRolloutItem* const* items, int n,
                    int* rc);

/* The one per-item forward path behind tn_forwardBatch, torsion-sim forward and torsiond's
 * Forward: mj_resetData, mj_setState, the control row (ctrl NULL: none), mj_forward; copies
 * qacc [nv] and sensordata [nsensordata] when the pointers are not NULL (d keeps them too).
 * Engine errors raise mju_error: call it under tn_run. */
void tn_forwardItem(const mjModel* m, mjData* d, int spec, const mjtNum* state,
                    const mjtNum* ctrl, mjtNum* qacc, mjtNum* sensordata);

/* Bitmask (1 << mjtWarning) of the warning kinds whose counters in d are non-zero. */
int tn_warningMask(const mjData* d);

/* ---------------------------------------------------------------------------------------
 * Field registry (Torsion): look up any mjModel/mjData array by its MuJoCo name
 * ------------------------------------------------------------------------------------- */

/* element type of a registered array */
typedef enum tnFieldType_ {
  tnFIELD_NUM = 0, /* mjtNum */
  tnFIELD_INT,     /* int */
  tnFIELD_BYTE,    /* mjtByte */
  tnFIELD_FLOAT,   /* float */
  tnFIELD_CHAR,    /* char */
  tnFIELD_BOOL,    /* mjtBool */
  tnFIELD_SIZE     /* mjtSize */
} tnFieldType;

/* one array of mjModel or mjData */
typedef struct tnField_ {
  const char* name;
  tnFieldType type;
  int rows;
  int cols;
  const void* ptr;
} tnField;

/* Find model array `name` (e.g. "body_mass"). Returns 1 and fills f, or 0 if unknown. */
int tn_modelField(const mjModel* m, const char* name, tnField* f);

/* Find data array `name` (e.g. "qacc", "xpos"). Returns 1 and fills f, or 0 if unknown. */
int tn_dataField(const mjModel* m, const mjData* d, const char* name, tnField* f);

/* Value i of a registered array as mjtNum. */
mjtNum tn_fieldValue(const tnField* f, int i);

/* ---------------------------------------------------------------------------------------
 * Inverse dynamics and derivatives
 * ------------------------------------------------------------------------------------- */

/* Inverse dynamics: qacc must be set before calling. Computes qfrc_inverse = M qacc + bias -
 * passive - constraint, with the soft constraint forces analytic in qacc. With
 * mjENBL_INVDISCRETE, qacc is the discrete-time acceleration of the Euler or implicit(fast)
 * integrator (converted to continuous time internally; d->qacc is left as given). */
void mj_inverse(const mjModel* m, mjData* d);

/* Position-dependent stage of mj_inverse: kinematics, com, tendons, inertia and its
 * factorization, collision, constraint rows, transmission. */
void mj_invPosition(const mjModel* m, mjData* d);

/* Velocity-dependent stage of mj_inverse (the same as mj_fwdVelocity). */
void mj_invVelocity(const mjModel* m, mjData* d);

/* Constraint forces given qacc: efc_force, efc_state and qfrc_constraint from
 * jar = J qacc - aref (no solver). */
void mj_invConstraint(const mjModel* m, mjData* d);

/* Compare forward and inverse dynamics after mj_forward: solver_fwdinv[0] = |efc_force(forward)
 * - efc_force(inverse)|, solver_fwdinv[1] = |qfrc_inverse - (qfrc_applied + J'xfrc_applied +
 * qfrc_actuator)| (MuJoCo 3.14's order). The forward constraint forces are kept. mj_step
 * calls it after mj_checkAcc when mjENBL_FWDINV is set. */
void mj_compareFwdInv(const mjModel* m, mjData* d);

/* Finite-differenced discrete-time transition matrices (control theory notation):
 * d(x_next) = A dx + B du, d(sensor) = C dx + D du, with x = (dq in the tangent space, qvel,
 * act). Row-major outputs, each optional (NULL): A (2nv+na x 2nv+na), B (2nv+na x nu),
 * C (nsensordata x 2nv+na), D (nsensordata x nu). Forward differences, or centered when
 * flg_centered; one-sided at ctrlrange bounds. d's state, controls and warmstart are
 * restored on return. The RK4 integrator is not supported (as in MuJoCo). C and D need every
 * sensor evaluated (tn_sensorsEvaluated); centered D columns are (plus - minus) / 2eps,
 * where MuJoCo 3.14 has the opposite sign (docs/fidelity.md). */
void mjd_transitionFD(const mjModel* m, mjData* d, mjtNum eps, mjtBool flg_centered,
                      mjtNum* A, mjtNum* B, mjtNum* C, mjtNum* D);

/* Finite-differenced Jacobians of (force, sensors) = mj_inverse(state, qacc), forward
 * differences. All outputs optional (NULL) and transposed w.r.t. control theory (row i is
 * the derivative with respect to input i): DfDq, DfDv, DfDa (nv x nv), DsDq, DsDv, DsDa
 * (nv x nsensordata; need every sensor evaluated), DmDq (nv x nC, derivative
 * of d->M in its CSR layout). With flg_actuation, qfrc_actuator is subtracted from
 * qfrc_inverse. The RK4 integrator is not supported (as in MuJoCo). */
void mjd_inverseFD(const mjModel* m, mjData* d, mjtNum eps, mjtBool flg_actuation,
                   mjtNum* DfDq, mjtNum* DfDv, mjtNum* DfDa, mjtNum* DsDq, mjtNum* DsDv,
                   mjtNum* DsDa, mjtNum* DmDq);

/* Batched mj_inverse (Torsion): for each of B states ([B, nstate] in the `spec` layout)
 * and accelerations qacc [B, nv], qfrc_inverse into qfrc_out [B, nv]. Same threading and
 * failure contract as tn_rolloutBatch (datas[i] used by thread i; every item starts from
 * mj_resetData, so results are identical for every thread count; status optional). Returns
 * 0, -1 after mju_error on invalid arguments, or the number of failed items. */
int tn_inverseBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                    const mjtNum* state, const mjtNum* qacc, mjtNum* qfrc_out,
                    tnBatchStatus* status);

/* Batched mjd_transitionFD (Torsion): for each state (and control [B, nu], or NULL for the
 * zero control), the matrices into A [B, 2nv+na, 2nv+na], Bm [B, 2nv+na, nu], C and D
 * [B, nsensordata, ...]; each output may be NULL. Same threading and failure contract as
 * tn_rolloutBatch. Returns 0, -1 after mju_error (invalid arguments, eps <= 0 or NaN,
 * RK4 integrator, sensor matrices requested for a model with unevaluated sensors), or the
 * number of failed items. */
int tn_transitionFDBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                         const mjtNum* state, const mjtNum* ctrl, mjtNum eps, int centered,
                         mjtNum* A, mjtNum* Bm, mjtNum* C, mjtNum* D, tnBatchStatus* status);

/* Batched mjd_inverseFD (Torsion): for each state and qacc [B, nv], the seven optional
 * outputs stacked over the batch ([B, nv, nv], [B, nv, nsensordata], [B, nv, nC]). Same
 * threading and failure contract as tn_rolloutBatch. Returns 0, -1 after mju_error (invalid
 * arguments, eps <= 0 or NaN, RK4 integrator, sensor Jacobians requested for a model with
 * unevaluated sensors), or the number of failed items. */
int tn_inverseFDBatch(const mjModel* m, mjData** datas, int nthread, int B, int spec,
                      const mjtNum* state, const mjtNum* qacc, mjtNum eps, int flg_actuation,
                      mjtNum* DfDq, mjtNum* DfDv, mjtNum* DfDa, mjtNum* DsDq, mjtNum* DsDv,
                      mjtNum* DsDa, mjtNum* DmDq, tnBatchStatus* status);

/* ---------------------------------------------------------------------------------------
 * Remaining MuJoCo functions: multi-ray and skin ray casting, the last loaded XML,
 * XML dependencies, more actuator shortcuts, encoders
 * ------------------------------------------------------------------------------------- */

/* nray rays from pnt along vec[3*i], each as mj_ray (geomgroup, flg_static, bodyexclude
 * alike) into dist[i], geomid[i] and normal[3*i] (geomid and normal may be NULL); geoms
 * whose bounding sphere lies entirely beyond `cutoff` from pnt are ignored. */
void mj_multiRay(const mjModel* m, mjData* d, const mjtNum pnt[3], const mjtNum* vec,
                 const mjtByte* geomgroup, mjtBool flg_static, int bodyexclude, int* geomid,
                 mjtNum* dist, mjtNum* normal, int nray, mjtNum cutoff);

/* Ray against a skin's triangles (face: 3 vertex ids each, vert: 3 floats each): nearest
 * distance (-1: none) and, in vertid (may be NULL), the hit face's vertex nearest to it. */
mjtNum mju_raySkin(int nface, int nvert, const int* face, const float* vert, const mjtNum pnt[3],
                   const mjtNum vec[3], int vertid[1]);

/* Copy the real-valued arrays of a model compiled from spec s back into s (options, poses,
 * masses, joint, geom, actuator, tendon and sensor parameters, keyframes, ...; what MuJoCo's
 * decompiler copies); 1 on success, 0 with the error in mjs_getError(s). */
int mj_copyBack(mjSpec* s, const mjModel* m);

/* Write the spec of the last model loaded with mj_loadXML, updated from m (mj_copyBack; m
 * may be NULL), as MJCF to filename (NULL or "": stdout); 1 on success, 0 with a message in
 * error (NULL allowed). */
int mj_saveLastXML(const char* filename, const mjModel* m, char* error, int error_sz);

/* Free the spec kept by the last mj_loadXML (each mj_loadXML replaces it). */
void mj_freeLastXML(void);

/* Replace the contents of `dependencies` with filename and every file it depends on:
 * include and model files (recursively, each against its own directory and compiler
 * settings), texture, mesh, skin, flexcomp and hfield files under their compiler
 * directories, as MuJoCo lists them (MuJoCo's order is a hash set's; Torsion's: the file,
 * included files' lists, then textures, meshes and hfields by name). Raises mju_error when
 * a file cannot be read or parsed. */
void mju_getXMLDependencies(const char* filename, mjStringVec* dependencies);

/* Torsion: the number of strings in a string vector (0 for NULL). */
int tn_stringVecSize(const mjStringVec* vec);

/* Torsion: string i of a string vector, NULL when i is out of range. */
const char* tn_stringVecItem(const mjStringVec* vec, int i);

/* Actuator shortcuts (MuJoCo 3.14): set an actuator to an orientation servo (SO(3) gain and
 * bias), a PID controller or a DC motor, as MuJoCo fills the fields; "" on success, else
 * MuJoCo's message (fields already written stay written). Torsion's compiler refuses these
 * actuator types for now. Optional (NULL) arguments: kv, dampratio, ki, imax, slewmax; for
 * the DC motor every array argument. */
const char* mjs_setToOrientation(mjsActuator* actuator, double kp, double kv[1],
                                 double dampratio[1], int ctrlspec);
const char* mjs_setToPID(mjsActuator* actuator, double kp, double kv[1], double dampratio[1],
                         double ki[1], double imax[1], double slewmax[1], double inheritrange,
                         int ctrlspec);
const char* mjs_setToDCMotor(mjsActuator* actuator, double motorconst[2], double resistance,
                             double nominal[3], double saturation[3], double inductance[2],
                             double cogging[3], double controller[6], double thermal[6],
                             double lugre[5], int ctrlspec);

/* Write a spec or model to filename by type (MuJoCo 3.14): .xml or "text/xml" from the spec
 * (mj_saveXML), or with no spec from m through the last loaded XML (mj_saveLastXML); .mjb
 * (mj_saveModel) and .txt or "text/plain" (mj_printModel) from m. No encoder plugins: any
 * other type fails. Returns the file's size, or -1 with a message in error (NULL allowed).
 * vfs is not used. */
mjtSize mj_encode(const mjSpec* s, const mjModel* m, const char* filename, const char* content_type,
                  const mjVFS* vfs, char* error, int error_sz);

#ifdef __cplusplus
}
#endif

#endif /* TORSION_TORSION_H */
