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
#define mjVERSION_HEADER 3014

/* ---------------------------------------------------------------------------------------
 * Errors and warnings
 * ------------------------------------------------------------------------------------- */

/* Handler for fatal engine errors. The library never exits or aborts: mju_error formats the
 * message and calls this handler (default: print to stderr, skipped when an unwinding point
 * will receive the message), then unwinds to the thread's innermost tn_run, or, when none
 * is active, returns to its caller, which abandons the current computation. Install a
 * handler to route errors elsewhere (it is process-wide and may run on any thread). */
extern void (*mju_user_error)(const char* msg);

/* Clock for the pipeline timers in mjData.timer (NULL: no timing, the default). Install a
 * function returning the current time (any unit); set it before starting threads. */
typedef mjtNum (*mjfTime)(void);
extern mjfTime mjcb_time;

/* Handler for warnings (default: print to stderr). */
extern void (*mju_user_warning)(const char* msg);

/* Report a fatal error (printf-style). Calls mju_user_error, then jumps to the innermost
 * unwinding point of this thread (tn_run) or, without one, returns. */
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

/* Size in bytes of the model's buffer. */
size_t mj_sizeModel(const mjModel* m);

/* Allocate and reset mjData for model m. Returns NULL (and reports) if out of memory. */
mjData* mj_makeData(const mjModel* m);

/* Copy all of src (state and derived quantities) into dest; allocates when dest is NULL. */
mjData* mj_copyData(mjData* dest, const mjModel* m, const mjData* src);

/* Free mjData. NULL is allowed. */
void mj_deleteData(mjData* d);

/* Reset data to the model's defaults (qpos0, zero velocity, mocap at body poses). */
void mj_resetData(const mjModel* m, mjData* d);

/* Reset data, then apply keyframe `key` (out-of-range keys are reported and ignored). */
void mj_resetDataKeyframe(const mjModel* m, mjData* d, int key);

/* ---------------------------------------------------------------------------------------
 * Binary models, printing and version
 * ------------------------------------------------------------------------------------- */

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

/* Ray casting: distance from pnt along vec to the first geom hit (-1: none) and its id in
 * geomid; geomgroup (NULL: all groups) and flg_static filter, bodyexclude skips a body. */
mjtNum mj_ray(const mjModel* m, const mjData* d, const mjtNum pnt[3], const mjtNum vec[3],
              const mjtByte* geomgroup, mjtByte flg_static, int bodyexclude, int geomid[1]);

/* Ray against one height-field geom (the solid between its base and its surface) or one
 * mesh geom (its triangles); distance along vec, -1 on a miss. */
mjtNum mj_rayHfield(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                    const mjtNum vec[3]);
mjtNum mj_rayMesh(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                  const mjtNum vec[3]);

/* Ray against a primitive shape (plane, sphere, capsule, ellipsoid, cylinder, box) with
 * global position pos, orientation mat and MuJoCo's size parameters; -1 for other types. */
mjtNum mju_rayGeom(const mjtNum pos[3], const mjtNum mat[9], const mjtNum size[3],
                   const mjtNum pnt[3], const mjtNum vec[3], int geomtype);

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

/* Dense nv x nv inertia from the sparse d->M (`M` is the CSR array, usually d->M). */
void mj_fullM(const mjModel* m, mjtNum* dst, const mjtNum* M);

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
/* cross products of 6D motion with motion (crossMotion) and with force (crossForce) */
void mju_crossMotion(mjtNum res[6], const mjtNum vel[6], const mjtNum v[6]);
void mju_crossForce(mjtNum res[6], const mjtNum vel[6], const mjtNum f[6]);
/* com-based inertia (10 numbers) from principal inertia, rotation and offset */
void mju_inertCom(mjtNum res[10], const mjtNum inert[3], const mjtNum mat[9],
                  const mjtNum dif[3], mjtNum mass);
/* com-based motion dof from an axis (and its offset for translation dofs) */
void mju_dofCom(mjtNum res[6], const mjtNum axis[3], const mjtNum offset[3]);
/* res = cinert * vec (6D) */
void mju_mulInertVec(mjtNum res[6], const mjtNum inert[10], const mjtNum vec[6]);
/* res (6D) = sum over n dofs of dof[i] (6D each, consecutive) * vec[i] */
void mju_mulDofVec(mjtNum* res, const mjtNum* dof, const mjtNum* vec, int n);

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
mjtNum mju_muscleGainLength(mjtNum length, mjtNum lmin, mjtNum lmax);
mjtNum mju_muscleGain(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]);
mjtNum mju_muscleBias(mjtNum len, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]);
mjtNum mju_muscleDynamicsTimescale(mjtNum dctrl, mjtNum tau_act, mjtNum tau_deact,
                                   mjtNum smoothing);
mjtNum mju_muscleDynamics(mjtNum ctrl, mjtNum act, const mjtNum prm[3]);

/* ---------------------------------------------------------------------------------------
 * Math: band and sparse matrices, decompositions, box-constrained QP, conversions
 * ------------------------------------------------------------------------------------- */

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
 * Rollout: mj_resetData, mj_setState(state0), then per step the control row and mj_step,
 * recording state (mj_getState) and sensordata after the recorded steps. As mujoco.rollout
 * does, the warning counters are checked before every step: once one is set, the item stops
 * and every remaining row gets the current state and sensordata. Engine errors raise
 * mju_error: call it under tn_run. Returns 0 when the item ran to its end or stopped on a
 * warning, 1 when after_step stopped it, -1 after mju_error on invalid arguments. */
int tn_rolloutItem(const mjModel* m, mjData* d, tnRolloutItem* item);

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
  tnFIELD_CHAR     /* char */
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
void mjd_transitionFD(const mjModel* m, mjData* d, mjtNum eps, mjtByte flg_centered,
                      mjtNum* A, mjtNum* B, mjtNum* C, mjtNum* D);

/* Finite-differenced Jacobians of (force, sensors) = mj_inverse(state, qacc), forward
 * differences. All outputs optional (NULL) and transposed w.r.t. control theory (row i is
 * the derivative with respect to input i): DfDq, DfDv, DfDa (nv x nv), DsDq, DsDv, DsDa
 * (nv x nsensordata; need every sensor evaluated), DmDq (nv x nC, derivative
 * of d->M in its CSR layout). With flg_actuation, qfrc_actuator is subtracted from
 * qfrc_inverse. The RK4 integrator is not supported (as in MuJoCo). */
void mjd_inverseFD(const mjModel* m, mjData* d, mjtNum eps, mjtByte flg_actuation,
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

#ifdef __cplusplus
}
#endif

#endif /* TORSION_TORSION_H */
