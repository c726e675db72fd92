/* lanes/lanes_kinematics.c — mj_kinematics for TN_LANES datas at once: the global poses of
 * bodies, joints (anchors and axes), inertial frames, geoms and sites from each data's qpos,
 * each lane doing smooth/kinematics.c's operations in its order.
 *
 * The scalar code branches on the model (joint types, joints at the body origin, frames
 * that coincide) and on values: a quaternion's normalization (zero, unit, or scaled), a
 * zero hinge angle (the exact identity rotation) and the identity shortcuts of the
 * quaternion-to-matrix and rotation routines. Here the model's branches are taken once for
 * the group and the value branches are computed every way and selected lane by lane, which
 * gives each lane the bits its branch gives. Sines and cosines are libm's, lane by lane.
 * The poses stay in the position stage's workspace for the com stage. Models with mocap
 * bodies run the one-data kinematics (their poses come from mjData) and gather the poses. */
#include <math.h>
#include <stdint.h>

#include <torsion/torsion.h>

#include "lanes/lanes.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* the helpers below return lane vectors; they are static and inlined (the larger ones
 * forced, so that all of it is compiled into kinematics_lanes' AVX2 clone), so the ABI of
 * a vector return (which differs with and without AVX) never applies */
#pragma GCC diagnostic ignored "-Wpsabi"

/* |x| lane by lane (the sign bit cleared) */
static inline tnLane abs_lanes(tnLane x) {
  const tnLaneMask nosign = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
  return (tnLane)((tnLaneMask)x & nosign);
}

/* the same number in every lane */
static inline tnLane broadcast(mjtNum x) {
  return (tnLane){x, x, x, x};
}

/* lanes where the quaternion is exactly (1, 0, 0, 0) */
static inline tnLaneMask is_identity(const tnLane q[4]) {
  return (q[0] == 1) & (q[1] == 0) & (q[2] == 0) & (q[3] == 0);
}

/* mju_normalize4: (near-)zero becomes (1,0,0,0), unit length stays, others are scaled */
static inline void normalize4(tnLane q[4]) {
  tnLane norm = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  for (int l = 0; l < TN_LANES; l++) {
    norm[l] = sqrt(norm[l]);
  }
  tnLaneMask degenerate = norm < mjMINVAL;
  tnLaneMask scale = ~degenerate & (abs_lanes(norm - 1) > mjMINVAL);
  tnLane inv = broadcast(1) / norm;
  const mjtNum unit[4] = {1, 0, 0, 0};
  for (int k = 0; k < 4; k++) {
    tnLane scaled = TN_SELECT_LANES(scale, q[k] * inv, q[k]);
    q[k] = TN_SELECT_LANES(degenerate, broadcast(unit[k]), scaled);
  }
}

/* mju_mulQuat (res may alias either input) */
static inline void mul_quat(tnLane res[4], const tnLane q1[4], const tnLane q2[4]) {
  tnLane w = q1[0] * q2[0] - q1[1] * q2[1] - q1[2] * q2[2] - q1[3] * q2[3];
  tnLane x = q1[0] * q2[1] + q1[1] * q2[0] + q1[2] * q2[3] - q1[3] * q2[2];
  tnLane y = q1[0] * q2[2] - q1[1] * q2[3] + q1[2] * q2[0] + q1[3] * q2[1];
  tnLane z = q1[0] * q2[3] + q1[1] * q2[2] - q1[2] * q2[1] + q1[3] * q2[0];
  res[0] = w;
  res[1] = x;
  res[2] = y;
  res[3] = z;
}

/* mju_quat2Mat, with its identity shortcut lane by lane */
static inline void quat2mat(tnLane res[9], const tnLane q[4]) {
  tnLane q00 = q[0] * q[0], q01 = q[0] * q[1], q02 = q[0] * q[2], q03 = q[0] * q[3];
  tnLane q11 = q[1] * q[1], q12 = q[1] * q[2], q13 = q[1] * q[3];
  tnLane q22 = q[2] * q[2], q23 = q[2] * q[3], q33 = q[3] * q[3];
  tnLane r[9];
  r[0] = q00 + q11 - q22 - q33;
  r[4] = q00 - q11 + q22 - q33;
  r[8] = q00 - q11 - q22 + q33;
  r[1] = 2 * (q12 - q03);
  r[2] = 2 * (q13 + q02);
  r[3] = 2 * (q12 + q03);
  r[5] = 2 * (q23 - q01);
  r[6] = 2 * (q13 - q02);
  r[7] = 2 * (q23 + q01);
  tnLaneMask id = is_identity(q);
  for (int k = 0; k < 9; k++) {
    res[k] = TN_SELECT_LANES(id, broadcast(k % 4 == 0), r[k]);
  }
}

/* mju_rotVecQuat of a model vector (the same in every lane), identity shortcut per lane */
static inline void rot_vec_quat(tnLane res[3], const mjtNum v[3], const tnLane q[4]) {
  tnLane t0 = q[0] * v[0] + q[2] * v[2] - q[3] * v[1];
  tnLane t1 = q[0] * v[1] + q[3] * v[0] - q[1] * v[2];
  tnLane t2 = q[0] * v[2] + q[1] * v[1] - q[2] * v[0];
  tnLane r0 = v[0] + 2 * (q[2] * t2 - q[3] * t1);
  tnLane r1 = v[1] + 2 * (q[3] * t0 - q[1] * t2);
  tnLane r2 = v[2] + 2 * (q[1] * t1 - q[2] * t0);
  tnLaneMask id = is_identity(q);
  res[0] = TN_SELECT_LANES(id, broadcast(v[0]), r0);
  res[1] = TN_SELECT_LANES(id, broadcast(v[1]), r1);
  res[2] = TN_SELECT_LANES(id, broadcast(v[2]), r2);
}

/* res = mat * v for a model vector v (mju_mulMatVec3) */
static inline void mul_mat_vec3(tnLane res[3], const tnLane mat[9], const mjtNum v[3]) {
  tnLane r0 = mat[0] * v[0] + mat[1] * v[1] + mat[2] * v[2];
  tnLane r1 = mat[3] * v[0] + mat[4] * v[1] + mat[5] * v[2];
  tnLane r2 = mat[6] * v[0] + mat[7] * v[1] + mat[8] * v[2];
  res[0] = r0;
  res[1] = r1;
  res[2] = r2;
}

/* the group's poses, in lanes */
/* mju_axisAngle2Quat of a model axis by each lane's angle (exact identity at angle 0) */
static inline void axis_angle_quat(tnLane res[4], const mjtNum axis[3], tnLane angle) {
  tnLane s, c;
  for (int l = 0; l < TN_LANES; l++) {
    s[l] = sin(angle[l] * 0.5);
    c[l] = cos(angle[l] * 0.5);
  }
  tnLaneMask zero = angle == 0;
  res[0] = TN_SELECT_LANES(zero, broadcast(1), c);
  for (int k = 0; k < 3; k++) {
    res[1 + k] = TN_SELECT_LANES(zero, broadcast(0), axis[k] * s);
  }
}

/* apply joint j to the running body pose (smooth/kinematics.c's joint_apply) */
static inline __attribute__((always_inline)) void joint_apply(const mjModel* m, tnPosLanes* w,
                                                              int j, tnLane xpos[3],
                                                              tnLane xquat[4]) {
  int qadr = m->jnt_qposadr[j];
  tnLane* xaxis = w->xaxis + 3 * j;
  tnLane* xanchor = w->xanchor + 3 * j;
  const mjtNum* jpos = m->jnt_pos + 3 * j;
  int origin = jpos[0] == 0 && jpos[1] == 0 && jpos[2] == 0 && !signbit(jpos[0]) &&
               !signbit(jpos[1]) && !signbit(jpos[2]);

  // global axis and anchor, before this joint's motion
  rot_vec_quat(xaxis, m->jnt_axis + 3 * j, xquat);
  if (origin) {
    for (int k = 0; k < 3; k++) {
      xanchor[k] = 0.0 + xpos[k];
    }
  } else {
    rot_vec_quat(xanchor, jpos, xquat);
    for (int k = 0; k < 3; k++) {
      xanchor[k] += xpos[k];
    }
  }

  // slide: translate along the axis by the displacement from qpos0
  if (m->jnt_type[j] == mjJNT_SLIDE) {
    tnLane disp = w->qpos[qadr] - m->qpos0[qadr];
    for (int k = 0; k < 3; k++) {
      xpos[k] += xaxis[k] * disp;
    }
    return;
  }

  // ball or hinge: local rotation
  tnLane qloc[4];
  if (m->jnt_type[j] == mjJNT_BALL) {
    for (int k = 0; k < 4; k++) {
      qloc[k] = w->qpos[qadr + k];
    }
    normalize4(qloc);
  } else {
    axis_angle_quat(qloc, m->jnt_axis + 3 * j, w->qpos[qadr] - m->qpos0[qadr]);
  }
  mul_quat(xquat, xquat, qloc);

  // keep the anchor fixed: the body origin moves around it
  if (origin) {
    tnLane zero = abs_lanes(0 * (xquat[0] + xquat[1] + xquat[2] + xquat[3]));
    for (int k = 0; k < 3; k++) {
      xpos[k] = xanchor[k] - zero;
    }
  } else {
    tnLane vec[3];
    rot_vec_quat(vec, jpos, xquat);
    for (int k = 0; k < 3; k++) {
      xpos[k] = xanchor[k] - vec[k];
    }
  }
}

/* global pose of every body (smooth/kinematics.c's kin_bodies, no mocap bodies) */
static inline __attribute__((always_inline)) void kin_bodies(const mjModel* m, tnPosLanes* w) {
  for (int b = 1; b < m->nbody; b++) {
    tnLane xpos[3], xquat[4];
    int jntadr = m->body_jntadr[b];
    int jntnum = m->body_jntnum[b];

    // free joint: pose from qpos (the anchor at the origin, the axis as given)
    if (jntnum == 1 && m->jnt_type[jntadr] == mjJNT_FREE) {
      const tnLane* q = w->qpos + m->jnt_qposadr[jntadr];
      for (int k = 0; k < 3; k++) {
        xpos[k] = q[k];
        w->xanchor[3 * jntadr + k] = q[k];
        w->xaxis[3 * jntadr + k] = broadcast(m->jnt_axis[3 * jntadr + k]);
      }
      for (int k = 0; k < 4; k++) {
        xquat[k] = q[3 + k];
      }
      normalize4(xquat);
    } else {
      // fixed pose in the parent frame, then the joints in order
      const mjtNum* pos = m->body_pos + 3 * b;
      const mjtNum* quat = m->body_quat + 4 * b;
      int parent = m->body_parentid[b];
      if (parent > 0) {
        mul_mat_vec3(xpos, w->xmat + 9 * parent, pos);
        for (int k = 0; k < 3; k++) {
          xpos[k] += w->xpos[3 * parent + k];
        }
        const tnLane* pq = w->xquat + 4 * parent;
        tnLane q2[4] = {broadcast(quat[0]), broadcast(quat[1]), broadcast(quat[2]),
                        broadcast(quat[3])};
        mul_quat(xquat, pq, q2);
      } else {
        for (int k = 0; k < 3; k++) {
          xpos[k] = broadcast(pos[k]);
        }
        for (int k = 0; k < 4; k++) {
          xquat[k] = broadcast(quat[k]);
        }
      }
      for (int j = jntadr; j < jntadr + jntnum; j++) {
        joint_apply(m, w, j, xpos, xquat);
      }
    }

    // the normalized pose and its rotation matrix
    normalize4(xquat);
    for (int k = 0; k < 4; k++) {
      w->xquat[4 * b + k] = xquat[k];
    }
    for (int k = 0; k < 3; k++) {
      w->xpos[3 * b + k] = xpos[k];
    }
    quat2mat(w->xmat + 9 * b, xquat);
  }
}

/* pose of a frame given in body coordinates (smooth/kinematics.c's local_to_global) */
static inline __attribute__((always_inline)) void local_to_global(
    tnPosLanes* w, tnLane xpos[3], tnLane xmat[9], const mjtNum pos[3], const mjtNum quat[4],
    int body, int sameframe) {
  // position: a coinciding frame's origin, or xmat*pos + xpos
  if (sameframe == tnSAMEFRAME_BODY) {
    for (int k = 0; k < 3; k++) {
      xpos[k] = w->xpos[3 * body + k];
    }
  } else if (sameframe == tnSAMEFRAME_INERTIA) {
    for (int k = 0; k < 3; k++) {
      xpos[k] = w->xipos[3 * body + k];
    }
  } else {
    mul_mat_vec3(xpos, w->xmat + 9 * body, pos);
    for (int k = 0; k < 3; k++) {
      xpos[k] += w->xpos[3 * body + k];
    }
  }

  // orientation: a coinciding frame's matrix, or the matrix of xquat*quat
  if (sameframe == tnSAMEFRAME_BODY || sameframe == tnSAMEFRAME_BODYROT) {
    for (int k = 0; k < 9; k++) {
      xmat[k] = w->xmat[9 * body + k];
    }
  } else if (sameframe == tnSAMEFRAME_INERTIA || sameframe == tnSAMEFRAME_INERTIAROT) {
    for (int k = 0; k < 9; k++) {
      xmat[k] = w->ximat[9 * body + k];
    }
  } else {
    tnLane q[4];
    tnLane q2[4] = {broadcast(quat[0]), broadcast(quat[1]), broadcast(quat[2]),
                    broadcast(quat[3])};
    mul_quat(q, w->xquat + 4 * body, q2);
    quat2mat(xmat, q);
  }
}

/* the world body and every pose in lanes (with an AVX2 clone) */
TN_CLONE_AVX2
static void kinematics_lanes(const mjModel* m, tnPosLanes* w) {
  // world: identity pose
  for (int k = 0; k < 3; k++) {
    w->xpos[k] = w->xipos[k] = broadcast(0);
  }
  for (int k = 0; k < 4; k++) {
    w->xquat[k] = broadcast(k == 0);
  }
  for (int k = 0; k < 9; k++) {
    w->xmat[k] = w->ximat[k] = broadcast(k % 4 == 0);
  }
  kin_bodies(m, w);

  // inertial frames, geoms, sites
  for (int b = 1; b < m->nbody; b++) {
    local_to_global(w, w->xipos + 3 * b, w->ximat + 9 * b, m->body_ipos + 3 * b,
                    m->body_iquat + 4 * b, b, m->body_sameframe[b]);
  }
  for (int g = 0; g < m->ngeom; g++) {
    local_to_global(w, w->geom_xpos + 3 * g, w->geom_xmat + 9 * g, m->geom_pos + 3 * g,
                    m->geom_quat + 4 * g, m->geom_bodyid[g], m->geom_sameframe[g]);
  }
  for (int s = 0; s < m->nsite; s++) {
    local_to_global(w, w->site_xpos + 3 * s, w->site_xmat + 9 * s, m->site_pos + 3 * s,
                    m->site_quat + 4 * s, m->site_bodyid[s], m->site_sameframe[s]);
  }
}

/* mj_kinematics for the lanes (with mocap bodies, each data's own and the poses gathered) */
void tn__kinematicsLanes(const mjModel* m, mjData* const* d, tnPosLanes* w) {
  int nbody = m->nbody, njnt = m->njnt, ngeom = m->ngeom, nsite = m->nsite;
  if (m->nmocap) {
    for (int l = 0; l < TN_LANES; l++) {
      mj_kinematics(m, d[l]);
    }
    tn__lanesGather(w->xipos, LANES_OF(d, xipos), 3 * nbody);
    tn__lanesGather(w->ximat, LANES_OF(d, ximat), 9 * nbody);
    tn__lanesGather(w->xmat, LANES_OF(d, xmat), 9 * nbody);
    tn__lanesGather(w->xanchor, LANES_OF(d, xanchor), 3 * njnt);
    tn__lanesGather(w->xaxis, LANES_OF(d, xaxis), 3 * njnt);
    return;
  }

  // qpos in, the poses computed, the poses out (a transient forward's: only the inertial
  // frames (applied forces, gravity compensation) and the geoms' (collision))
  tn__lanesGather(w->qpos, LANES_OF(d, qpos), m->nq);
  kinematics_lanes(m, w);
  tn__lanesScatter(LANES_OF(d, xipos), w->xipos, 3 * nbody);
  tn__lanesScatter(LANES_OF(d, geom_xpos), w->geom_xpos, 3 * ngeom);
  tn__lanesScatter(LANES_OF(d, geom_xmat), w->geom_xmat, 9 * ngeom);
  if (w->transient) {
    return;
  }
  tn__lanesScatter(LANES_OF(d, xpos), w->xpos, 3 * nbody);
  tn__lanesScatter(LANES_OF(d, xquat), w->xquat, 4 * nbody);
  tn__lanesScatter(LANES_OF(d, xmat), w->xmat, 9 * nbody);
  tn__lanesScatter(LANES_OF(d, ximat), w->ximat, 9 * nbody);
  tn__lanesScatter(LANES_OF(d, xanchor), w->xanchor, 3 * njnt);
  tn__lanesScatter(LANES_OF(d, xaxis), w->xaxis, 3 * njnt);
  tn__lanesScatter(LANES_OF(d, site_xpos), w->site_xpos, 3 * nsite);
  tn__lanesScatter(LANES_OF(d, site_xmat), w->site_xmat, 9 * nsite);
}
