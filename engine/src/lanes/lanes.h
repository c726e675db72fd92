/* lanes/lanes.h — internal: pipeline stages computed for TN_LANES datas of one model at
 * once, one data per SIMD lane.
 *
 * A group of datas steps in lockstep (tn_stepGroup); where a stage's control flow depends
 * only on the model, its arithmetic is done for every lane of the group together, on
 * scratch arrays laid out entry-major, lane-minor (entry a of lane l at [a][l], a tnLane).
 * Every lane performs exactly the scalar code's operations in the scalar code's order, so
 * each data's result is bitwise the one the one-data stage gives. The scratch comes from the
 * first data's arena (tn__lanesFit says whether it fits; when it does not, the caller runs
 * the one-data stages) and is freed before any one-data stage runs, so a group never needs
 * more arena than its datas stepped alone. */
#ifndef TORSION_LANES_H
#define TORSION_LANES_H

#include <stddef.h>

#include <torsion/torsion.h>

/* datas per group (the gathers spell out four lanes) */
#define TN_LANES 4
_Static_assert(TN_LANES == 4, "the lanes' gathers and scatters are written for 4 lanes");

/* one entry in every lane: a vector of TN_LANES doubles (GCC's vector extension; one AVX2
 * register, two SSE2 ones; each element rounds exactly as the scalar operation would) */
typedef mjtNum tnLane __attribute__((vector_size(8 * TN_LANES)));

/* lane masks: all bits set in the lanes where a comparison holds */
typedef long long tnLaneMask __attribute__((vector_size(8 * TN_LANES)));

/* where mask: a, elsewhere b, bit for bit (a macro: a vector return's ABI differs with and
 * without AVX, and the files including this header are compiled both ways) */
#define TN_SELECT_LANES(mask, a, b) \
  ((tnLane)(((mask) & (tnLaneMask)(a)) | (~(mask) & (tnLaneMask)(b))))

/* res = a' * b over 6 entries in every lane, rounded as mju_dot(a, b, 6):
 * (p0+p2)+(p1+p3), plus the tail p4+p5 */
static inline void tn__dot6Lanes(tnLane* res, const tnLane* a, const tnLane* b) {
  tnLane s02 = a[0] * b[0] + a[2] * b[2];
  tnLane s13 = a[1] * b[1] + a[3] * b[3];
  tnLane tail = a[4] * b[4] + a[5] * b[5];
  *res = (s02 + s13) + tail;
}

/* res = cinert * v in every lane (util_inline.h's tn_mulInertVec, its expressions) */
static inline void tn__mulInertVecLanes(tnLane* restrict res, const tnLane* i, const tnLane* v) {
  res[0] = i[0] * v[0] + i[3] * v[1] + i[4] * v[2] - i[8] * v[4] + i[7] * v[5];
  res[1] = i[3] * v[0] + i[1] * v[1] + i[5] * v[2] + i[8] * v[3] - i[6] * v[5];
  res[2] = i[4] * v[0] + i[5] * v[1] + i[2] * v[2] - i[7] * v[3] + i[6] * v[4];
  res[3] = i[8] * v[1] - i[7] * v[2] + i[9] * v[3];
  res[4] = i[6] * v[2] - i[8] * v[0] + i[9] * v[4];
  res[5] = i[7] * v[0] - i[6] * v[1] + i[9] * v[5];
}

/* 1 if `n` tnLanes more fit on d's stack (above a new mark, at 32-byte alignment) */
int tn__lanesFit(const mjData* d, size_t n);

/* n tnLanes from d's stack, 32-byte aligned (inside a mark; tn__lanesFit first) */
tnLane* tn__lanesAlloc(mjData* d, size_t n);

/* dst[k] = (src[0][k], ..., src[3][k]) for k < n: an array of each data into lanes */
void tn__lanesGather(tnLane* dst, mjtNum* const* src, int n);

/* dst[l][k] = src[k][l] for k < n: lanes into an array of each data */
void tn__lanesScatter(mjtNum* const* dst, const tnLane* src, int n);

/* the same array of each of the group's datas d (e.g. LANES_OF(d, qvel)) */
#define LANES_OF(d, field) \
  ((mjtNum* const[TN_LANES]){(d)[0]->field, (d)[1]->field, (d)[2]->field, (d)[3]->field})

/* the end of a stage timed for the whole group: each data's timer `id` counts one call and
 * a TN_LANES-th of the time since `start` (util/timer.h's timer_start; nothing without the
 * user's clock mjcb_time) */
static inline void tn__lanesTimerEnd(mjData* const* d, int id, mjtNum start) {
  if (mjcb_time) {
    mjtNum share = (mjcb_time() - start) / TN_LANES;
    for (int l = 0; l < TN_LANES; l++) {
      d[l]->timer[id].duration += share;
      d[l]->timer[id].number++;
    }
  }
}

/* the position stage's workspace, kept in lanes from the kinematics to the factorization:
 * qpos (gathered), the poses, the com quantities, the composite inertias and M */
typedef struct tnPosLanes_ {
  tnLane *qpos, *xpos, *xquat, *xmat, *xipos, *ximat, *xanchor, *xaxis;
  tnLane *geom_xpos, *geom_xmat, *site_xpos, *site_xmat;
  tnLane *subtree_com, *cinert, *cdof;
  tnLane *crb, *mat;
  int transient; /* 1: a later forward of the step overwrites the poses; only those the rest
                    of this forward reads go out to the datas (forward_lanes.c's lean) */
} tnPosLanes;

/* tnLanes the workspace takes, and its arrays carved out of that many at buf */
size_t tn__posLanesSize(const mjModel* m);
void tn__posLanesInit(const mjModel* m, tnPosLanes* w, tnLane* buf);

/* mj_kinematics for the lanes, the poses left in w too (models with mocap bodies: each
 * data's mj_kinematics, then the poses the com stage reads gathered into w) */
void tn__kinematicsLanes(const mjModel* m, mjData* const* d, tnPosLanes* w);

/* mj_comPos for the lanes, from the poses in w (the com quantities left in w too) */
void tn__comPosLanes(const mjModel* m, mjData* const* d, tnPosLanes* w);

/* 1 if the model's inertia matrix includes tendon armature (added per data: the lanes'
 * mj_crb does not apply) */
int tn__lanesTendonArmature(const mjModel* m);

/* mj_crb for the lanes, for a model without tendon armature, from cinert and cdof in w:
 * d[l]->crb and d[l]->M, and M left in w->mat */
void tn__crbLanes(const mjModel* m, mjData* const* d, tnPosLanes* w);

/* factor the lanes' matrices in `mat` (nC tnLanes, overwritten) into each data's qLD and
 * qLDiagInv, or with `damped` into qH and qHDiagInv */
void tn__factorLanes(const mjModel* m, mjData* const* d, tnLane* mat, int damped);

/* the damped Euler integrator's factor for the lanes: qH = M + h*diag(damping) from each
 * data's M, factored into d->qH, d->qHDiagInv */
void tn__factorHLanes(const mjModel* m, mjData* const* d);

/* x[l] <- inv(M) x[l] for each data of the group (mj_solveM's bits), with the factor in
 * d[l]->qLD, or with `damped` the damped Euler's in d[l]->qH */
void tn__solveLanes(const mjModel* m, mjData* const* d, mjtNum* const* x, int damped);

/* the velocity stage's workspace: inputs gathered and results kept in lanes */
typedef struct tnVelLanes_ {
  tnLane* cdof;    /* 6*nv: motion dofs (gathered) */
  tnLane* cdofdot; /* 6*nv: their rates (computed) */
  tnLane* qvel;    /* nv (gathered) */
  tnLane* bias;    /* nv: qfrc_bias (computed) */
  tnLane* cvel;    /* 6*nbody: body velocities (computed) */
  tnLane* cinert;  /* 10*nbody: body inertias (gathered) */
  tnLane* cacc;    /* 6*nbody: RNE's body accelerations */
  tnLane* cfrc;    /* 6*nbody: RNE's body forces */
  int transient;   /* 1: cvel and cdof_dot stay in the lanes (see tnPosLanes) */
} tnVelLanes;

/* tnLanes the workspace takes, and its arrays carved out of that many at buf */
size_t tn__velLanesSize(const mjModel* m);
void tn__velLanesInit(const mjModel* m, tnVelLanes* w, tnLane* buf);

/* mj_comVel for the lanes (d[l]->cvel, d[l]->cdof_dot) */
void tn__comVelLanes(const mjModel* m, mjData* const* d, tnVelLanes* w);

/* mj_rne(m, d[l], 0, d[l]->qfrc_bias) for the lanes, from each data's cinert and, unless
 * after_com_vel (w holds tn__comVelLanes' inputs and results), cdof, cdof_dot, cvel and qvel
 * (gathered into w) */
void tn__rneBiasLanes(const mjModel* m, mjData* const* d, tnVelLanes* w, int after_com_vel);

#endif /* TORSION_LANES_H */
