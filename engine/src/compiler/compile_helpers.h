/* compiler/compile_helpers.h — internal contract between the MJCF compiler and its numeric
 * helpers: orientation conversions, geom mass and inertia, fromto frames, sparsity counts,
 * and the post-compilation pass that derives constants from a filled model.
 *
 * Implemented in compiler/frame_*.c, compiler/inertia_*.c and compiler/const_*.c. */
#ifndef TORSION_COMPILE_HELPERS_H
#define TORSION_COMPILE_HELPERS_H

#include <torsion/torsion.h>

/* which orientation attribute an element specified */
typedef enum tnOrientKind_ {
  TN_ORIENT_NONE = 0,  /* none given: identity */
  TN_ORIENT_QUAT,      /* v[0..3] = w x y z (normalized by the helper) */
  TN_ORIENT_AXISANGLE, /* v[0..2] axis, v[3] angle (in compiler units) */
  TN_ORIENT_EULER,     /* v[0..2] angles (in compiler units), sequence from eulerseq */
  TN_ORIENT_XYAXES,    /* v[0..2] x axis, v[3..5] y axis (orthogonalized) */
  TN_ORIENT_ZAXIS      /* v[0..2] z axis: minimal rotation taking (0,0,1) to it */
} tnOrientKind;

/* an orientation as written in MJCF */
typedef struct tnOrientation_ {
  tnOrientKind kind;
  mjtNum v[6];
} tnOrientation;

/* Convert an MJCF orientation to a unit quaternion. `degree` is 1 when compiler angle is
 * "degree"; eulerseq is the compiler's 3-letter sequence (xyzXYZ, lowercase = intrinsic
 * (rotating) axes, uppercase = extrinsic). Returns 0 and writes a reason into err on
 * invalid input (zero axis, zero quaternion, parallel xyaxes). */
/* tolerance of the compiler's geometric tests (MuJoCo's compiler constant mjEPS) */
#define TN_COMPILER_EPS 1E-14

/* normalize an n-vector in place as MuJoCo's compiler does (returns the length; 0 and the
 * vector unchanged when its squared length is below TN_COMPILER_EPS; a length within it of 1 is
 * kept) */
mjtNum tn__normVec(mjtNum* v, int n);

int tn__orientationToQuat(mjtNum quat[4], const tnOrientation* o, int degree,
                          const char eulerseq[3], char* err, int errsz);

/* Frame of a geom or site given by fromto (x1 y1 z1 x2 y2 z2): pos = midpoint, quat takes
 * +z to the segment direction, and the half-length goes into size as MuJoCo does for the
 * type (capsule/cylinder: size[1]; box and ellipsoid: size[2]; size[0] (radius) kept, and
 * for box/ellipsoid size[1] = size[0]). Returns 0 with a reason for a zero-length segment
 * or a type that does not accept fromto. */
int tn__fromtoFrame(int geomtype, const mjtNum fromto[6], mjtNum pos[3], mjtNum quat[4],
                    mjtNum size[3], char* err, int errsz);

/* Volume of a primitive geom (sphere, capsule, ellipsoid, cylinder, box) with MuJoCo's size
 * convention; 0 for plane/hfield. */
mjtNum tn__geomVolume(int geomtype, const mjtNum size[3]);

/* Mass and principal inertia (about the geom frame axes, at the geom center) of a primitive
 * geom. mass < 0 means "use density * volume". shellinertia selects MuJoCo's shell formulas.
 * Returns 0 with a reason for invalid sizes. */
int tn__geomInertia(int geomtype, const mjtNum size[3], mjtNum mass, mjtNum density,
                    int shellinertia, mjtNum* mass_out, mjtNum inertia[3], char* err, int errsz);

/* Combine the mass properties of n parts (mass, center pos, frame quat, principal inertia
 * in that frame) into one body inertial frame: ipos, iquat, principal inertia (MuJoCo's
 * eigen-ordering and sign conventions), total mass. */
void tn__combineInertia(int n, const mjtNum* mass, const mjtNum* pos, const mjtNum* quat,
                        const mjtNum* inertia, mjtNum* mass_out, mjtNum ipos[3], mjtNum iquat[4],
                        mjtNum inertia_out[3]);

/* Add a second part's mass properties (mass, center, frame, principal inertia, already in
 * the body's frame) to a body's inertial frame, in place, as MuJoCo's fusestatic does.
 * Returns 0 when the combined inertia is not positive definite. */
int tn__accumulateInertia(mjtNum* mass, mjtNum ipos[3], mjtNum iquat[4], mjtNum inertia[3],
                          mjtNum omass, const mjtNum oipos[3], const mjtNum oiquat[4],
                          const mjtNum oinertia[3]);

/* Full (symmetric) inertia fullinertia="ixx iyy izz ixy ixz iyz" -> principal inertia and
 * the frame rotation. Returns 0 with a reason when not positive definite. */
int tn__fullInertiaToPrincipal(const mjtNum full[6], mjtNum inertia[3], mjtNum quat[4], char* err,
                               int errsz);

/* mju_eig3 as MuJoCo's compiler applies it to body inertias: identical, except that the
 * quarter turns that sort the eigenvalues are not renormalized (implemented in
 * util/math_eig3.c; used by tn__combineInertia and tn__fullInertiaToPrincipal). */
int tn__eig3Compiler(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]);

/* the same Jacobi decomposition with explicit tolerances relative to the input's largest
 * entry (eps: stop rotating; sorteps: leave nearly equal eigenvalues unsorted) and the
 * choice of renormalizing the frame after sorting turns (util/math_eig3.c) */
int tn__eig3Tol(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9], mjtNum eps,
                mjtNum sorteps, int renormalize);

/* Sizes of the sparse patterns, from the dof tree (dof_parentid, -1 for roots) and the
 * body tree: nM (= nC: the full ancestor pattern of M), nD (full symmetric dof pattern),
 * nB (body-dof pattern: each body with the dofs of its ancestors and itself... as MuJoCo's
 * B_rownnz). Call before tn__allocModel. */
void tn__countSparsity(int nv, const int* dof_parentid, int nbody, const int* body_parentid,
                       const int* body_dofnum, const int* body_dofadr, int* nM, int* nC, int* nD,
                       int* nB);

/* The post-compilation pass. Precondition: every field read from MJCF and every address,
 * tree and count field has been filled by the compiler (body_parentid/rootid/weldid, jnt_*,
 * dof_bodyid/jntid/parentid/treeid, qpos0, qpos_spring, masses and inertias, geoms, sites,
 * tendons/wraps, actuators, sensors, keyframes, names). This computes everything MuJoCo
 * derives after that: dof_Madr and the M/D/B sparsity arrays, body_subtreemass,
 * body_simple, body_sameframe, geom/site_sameframe, dof_simplenum, geom_rbound and
 * geom_aabb, the fluid virtual mass/inertia coefficients, tendon_length0 and
 * tendon_lengthspring defaults, actuator_length0, body/dof/tendon invweight0, dof_M0,
 * actuator_acc0, equality defaults computed at qpos0 (connect/weld anchors and relpose),
 * camera/light *0 fields and stat (meaninertia, meanmass, meansize, extent, center).
 * Returns 0 with a reason in err on failure (e.g. singular inertia). */
int tn__compileFinish(mjModel* m, char* err, int errsz);

#endif /* TORSION_COMPILE_HELPERS_H */
