/* smooth/kinematics.c — forward kinematics: the global poses of bodies, joints, geoms,
 * sites, cameras and lights from qpos (and the mocap poses).
 *
 * Bodies are visited in order, so a parent's pose is always known before its children's.
 * Each body starts from its fixed pose in the parent frame (or its mocap pose, given in the
 * world frame), then its joints are applied in order; a joint's global anchor and axis are
 * taken before that joint's own motion, as MuJoCo does. Child frames (inertial frame, geoms,
 * sites) are mapped with tn__local2Global, which copies the body's pose when the compiler
 * found the frames coincide ("sameframe"), exactly as the general formula would give. */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* global pose of a frame given in body coordinates, with the sameframe shortcuts (inlined
 * into the kinematics' loops, where the compiler specializes each call) */
static inline void local_to_global(mjData* d, mjtNum xpos[3], mjtNum xmat[9], const mjtNum pos[3],
                                   const mjtNum quat[4], int body, int sameframe) {
  // position: copy a coinciding frame's origin, or xmat*pos + xpos
  if (xpos && pos) {
    if (sameframe == tnSAMEFRAME_BODY) {
      mju_copy3(xpos, d->xpos + 3 * body);
    } else if (sameframe == tnSAMEFRAME_INERTIA) {
      mju_copy3(xpos, d->xipos + 3 * body);
    } else {
      mju_mulMatVec3(xpos, d->xmat + 9 * body, pos);
      mju_addTo3(xpos, d->xpos + 3 * body);
    }
  }

  // orientation: copy a coinciding frame's matrix, or the matrix of xquat*quat
  if (xmat && quat) {
    if (sameframe == tnSAMEFRAME_BODY || sameframe == tnSAMEFRAME_BODYROT) {
      copy9(xmat, d->xmat + 9 * body);
    } else if (sameframe == tnSAMEFRAME_INERTIA || sameframe == tnSAMEFRAME_INERTIAROT) {
      copy9(xmat, d->ximat + 9 * body);
    } else {
      mjtNum q[4];
      mju_mulQuat(q, d->xquat + 4 * body, quat);
      mju_quat2Mat(xmat, q);
    }
  }
}

/* global pose of a frame given in body coordinates, with the sameframe shortcuts */
void tn__local2Global(mjData* d, mjtNum xpos[3], mjtNum xmat[9], const mjtNum pos[3],
                      const mjtNum quat[4], int body, int sameframe) {
  local_to_global(d, xpos, xmat, pos, quat, body, sameframe);
}

/* body with a single free joint: the pose comes straight from qpos */
static void body_free(const mjModel* m, mjData* d, int jnt, mjtNum xpos[3], mjtNum xquat[4]) {
  const mjtNum* q = d->qpos + m->jnt_qposadr[jnt];

  // position and normalized orientation
  mju_copy3(xpos, q);
  mju_copy4(xquat, q + 3);
  mju_normalize4(xquat);

  // the anchor is the body origin, the axis is kept as given
  mju_copy3(d->xanchor + 3 * jnt, xpos);
  mju_copy3(d->xaxis + 3 * jnt, m->jnt_axis + 3 * jnt);
}

/* fixed pose of body b relative to its parent (or its mocap pose), composed with the
 * parent's global pose */
static void body_fixed(const mjModel* m, mjData* d, int b, mjtNum xpos[3], mjtNum xquat[4]) {
  const mjtNum* pos = m->body_pos + 3 * b;
  const mjtNum* quat = m->body_quat + 4 * b;
  mjtNum mquat[4];

  // mocap bodies take their pose from mjData (normalized orientation)
  int mocap = m->body_mocapid[b];
  if (mocap >= 0) {
    pos = d->mocap_pos + 3 * mocap;
    mju_copy4(mquat, d->mocap_quat + 4 * mocap);
    mju_normalize4(mquat);
    quat = mquat;
  }

  // compose with the parent frame, unless the parent is the world
  int parent = m->body_parentid[b];
  if (parent > 0) {
    mju_mulMatVec3(xpos, d->xmat + 9 * parent, pos);
    mju_addTo3(xpos, d->xpos + 3 * parent);
    mju_mulQuat(xquat, d->xquat + 4 * parent, quat);
  } else {
    mju_copy3(xpos, pos);
    mju_copy4(xquat, quat);
  }
}

/* 1 if the three numbers are all +0 (bitwise) */
static inline int at_origin(const mjtNum v[3]) {
  return v[0] == 0 && v[1] == 0 && v[2] == 0 && !signbit(v[0]) && !signbit(v[1]) && !signbit(v[2]);
}

/* apply joint j to the running body pose, after recording its global anchor and axis.
 * A joint at the body origin (jnt_pos all +0, the common case) skips both rotations of
 * its position: a +0 vector rotates to +0 exactly, so the anchor is 0 + xpos and the body
 * origin stays at the anchor, the same bits as the general formula (a NaN rotation, which
 * the general formula would spread to xpos, is passed on through fabs(0 * sum)) */
static void joint_apply(const mjModel* m, mjData* d, int j, mjtNum xpos[3], mjtNum xquat[4]) {
  int qadr = m->jnt_qposadr[j];
  mjtNum* xaxis = d->xaxis + 3 * j;
  mjtNum* xanchor = d->xanchor + 3 * j;
  const mjtNum* jpos = m->jnt_pos + 3 * j;
  int origin = at_origin(jpos);

  // global axis and anchor, before this joint's motion (a NaN xquat here comes with a NaN
  // xpos, so the origin shortcut gives the general formula's NaN anchor too)
  mju_rotVecQuat(xaxis, m->jnt_axis + 3 * j, xquat);
  if (origin) {
    xanchor[0] = 0.0 + xpos[0];
    xanchor[1] = 0.0 + xpos[1];
    xanchor[2] = 0.0 + xpos[2];
  } else {
    mju_rotVecQuat(xanchor, jpos, xquat);
    mju_addTo3(xanchor, xpos);
  }

  // slide: translate along the axis by the displacement from qpos0
  if (m->jnt_type[j] == mjJNT_SLIDE) {
    mju_addToScl3(xpos, xaxis, d->qpos[qadr] - m->qpos0[qadr]);
    return;
  }

  // ball or hinge: local rotation (normalized quaternion, or angle from qpos0 about axis)
  mjtNum qloc[4], vec[3];
  if (m->jnt_type[j] == mjJNT_BALL) {
    mju_copy4(qloc, d->qpos + qadr);
    mju_normalize4(qloc);
  } else {
    mju_axisAngle2Quat(qloc, m->jnt_axis + 3 * j, d->qpos[qadr] - m->qpos0[qadr]);
  }
  mju_mulQuat(xquat, xquat, qloc);

  // keep the anchor fixed: the body origin moves around it (at the origin: the anchor,
  // less +0, or NaN when the rotation is not finite)
  if (origin) {
    mjtNum zero = fabs(0 * (xquat[0] + xquat[1] + xquat[2] + xquat[3]));
    mju_sub3(xpos, xanchor, (mjtNum[3]){zero, zero, zero});
  } else {
    mju_rotVecQuat(vec, jpos, xquat);
    mju_sub3(xpos, xanchor, vec);
  }
}

/* global pose of every body */
static void kin_bodies(const mjModel* m, mjData* d) {
  for (int b = 1; b < m->nbody; b++) {
    mjtNum xpos[3], xquat[4];
    int jntadr = m->body_jntadr[b];
    int jntnum = m->body_jntnum[b];

    // free joint: pose from qpos; otherwise fixed pose, then the joints in order
    if (jntnum == 1 && m->jnt_type[jntadr] == mjJNT_FREE) {
      body_free(m, d, jntadr, xpos, xquat);
    } else {
      body_fixed(m, d, b, xpos, xquat);
      for (int j = jntadr; j < jntadr + jntnum; j++) {
        joint_apply(m, d, j, xpos, xquat);
      }
    }

    // store the normalized pose and its rotation matrix
    mju_normalize4(xquat);
    mju_copy4(d->xquat + 4 * b, xquat);
    mju_copy3(d->xpos + 3 * b, xpos);
    mju_quat2Mat(d->xmat + 9 * b, xquat);
  }
}

/* the world body: identity pose */
static void kin_world(mjData* d) {
  mju_zero3(d->xpos);
  mju_unit4(d->xquat);
  mju_zero3(d->xipos);
  mju_zero(d->xmat, 9);
  mju_zero(d->ximat, 9);
  d->xmat[0] = d->xmat[4] = d->xmat[8] = 1;
  d->ximat[0] = d->ximat[4] = d->ximat[8] = 1;
}

/* forward kinematics */
void mj_kinematics(const mjModel* m, mjData* d) {
  // world, then bodies in tree order
  kin_world(d);
  kin_bodies(m, d);

  // inertial frames
  for (int b = 1; b < m->nbody; b++) {
    local_to_global(d, d->xipos + 3 * b, d->ximat + 9 * b, m->body_ipos + 3 * b,
                     m->body_iquat + 4 * b, b, m->body_sameframe[b]);
  }

  // geoms
  for (int g = 0; g < m->ngeom; g++) {
    local_to_global(d, d->geom_xpos + 3 * g, d->geom_xmat + 9 * g, m->geom_pos + 3 * g,
                     m->geom_quat + 4 * g, m->geom_bodyid[g], m->geom_sameframe[g]);
  }

  // sites
  for (int s = 0; s < m->nsite; s++) {
    local_to_global(d, d->site_xpos + 3 * s, d->site_xmat + 9 * s, m->site_pos + 3 * s,
                     m->site_quat + 4 * s, m->site_bodyid[s], m->site_sameframe[s]);
  }
}

/* camera frame looking from its position at a target point, with x horizontal */
static void camera_target(mjData* d, int c, const mjtNum target[3]) {
  mjtNum matT[9];

  // z axis: from the target to the camera
  mju_sub3(matT + 6, d->cam_xpos + 3 * c, target);
  mju_normalize3(matT + 6);

  // x axis: orthogonal to z and to the world's vertical
  matT[3] = 0;
  matT[4] = 0;
  matT[5] = 1;
  mju_cross(matT, matT + 3, matT + 6);
  mju_normalize3(matT);

  // y axis: completes the frame
  mju_cross(matT + 3, matT + 6, matT);
  mju_normalize3(matT + 3);

  // rows of matT are the frame's axes: xmat is its transpose
  mju_transpose(d->cam_xmat + 9 * c, matT, 3, 3);
}

/* pose of camera c according to its tracking mode */
static void camlight_camera(const mjModel* m, mjData* d, int c) {
  int body = m->cam_bodyid[c];
  int target = m->cam_targetbodyid[c];

  // fixed pose in the body frame
  tn__local2Global(d, d->cam_xpos + 3 * c, d->cam_xmat + 9 * c, m->cam_pos + 3 * c,
                   m->cam_quat + 4 * c, body, tnSAMEFRAME_NONE);

  switch (m->cam_mode[c]) {
    // tracking: fixed global orientation, offset from the body or its subtree com
    case mjCAMLIGHT_TRACK:
    case mjCAMLIGHT_TRACKCOM:
      copy9(d->cam_xmat + 9 * c, m->cam_mat0 + 9 * c);
      if (m->cam_mode[c] == mjCAMLIGHT_TRACK) {
        mju_add3(d->cam_xpos + 3 * c, d->xpos + 3 * body, m->cam_pos0 + 3 * c);
      } else {
        mju_add3(d->cam_xpos + 3 * c, d->subtree_com + 3 * body, m->cam_poscom0 + 3 * c);
      }
      break;

    // targeting: look at the target body or its subtree com
    case mjCAMLIGHT_TARGETBODY:
    case mjCAMLIGHT_TARGETBODYCOM:
      if (target >= 0) {
        const mjtNum* pos = m->cam_mode[c] == mjCAMLIGHT_TARGETBODY ? d->xpos + 3 * target
                                                                    : d->subtree_com + 3 * target;
        camera_target(d, c, pos);
      }
      break;

    default: break;
  }
}

/* position and direction of light l according to its tracking mode */
static void camlight_light(const mjModel* m, mjData* d, int l) {
  int body = m->light_bodyid[l];
  int target = m->light_targetbodyid[l];
  mjtNum* xpos = d->light_xpos + 3 * l;
  mjtNum* xdir = d->light_xdir + 3 * l;

  // fixed pose in the body frame
  tn__local2Global(d, xpos, NULL, m->light_pos + 3 * l, NULL, body, tnSAMEFRAME_NONE);
  mju_rotVecQuat(xdir, m->light_dir + 3 * l, d->xquat + 4 * body);

  switch (m->light_mode[l]) {
    // tracking: fixed global direction, offset from the body or its subtree com
    case mjCAMLIGHT_TRACK:
    case mjCAMLIGHT_TRACKCOM:
      mju_copy3(xdir, m->light_dir0 + 3 * l);
      if (m->light_mode[l] == mjCAMLIGHT_TRACK) {
        mju_add3(xpos, d->xpos + 3 * body, m->light_pos0 + 3 * l);
      } else {
        mju_add3(xpos, d->subtree_com + 3 * body, m->light_poscom0 + 3 * l);
      }
      break;

    // targeting: point at the target body or its subtree com
    case mjCAMLIGHT_TARGETBODY:
    case mjCAMLIGHT_TARGETBODYCOM:
      if (target >= 0) {
        const mjtNum* pos = m->light_mode[l] == mjCAMLIGHT_TARGETBODY ? d->xpos + 3 * target
                                                                      : d->subtree_com + 3 * target;
        mju_sub3(xdir, pos, xpos);
      }
      break;

    default: break;
  }

  // unit direction
  mju_normalize3(xdir);
}

/* camera and light poses (tracking modes need subtree_com from mj_comPos) */
void mj_camlight(const mjModel* m, mjData* d) {
  for (int c = 0; c < m->ncam; c++) {
    camlight_camera(m, d, c);
  }
  for (int l = 0; l < m->nlight; l++) {
    camlight_light(m, d, l);
  }
}
