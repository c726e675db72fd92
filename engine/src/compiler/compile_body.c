/* compiler/compile_body.c — bodies, joints, dofs and kinematic trees.
 *
 * Fills the body frames and tree fields (parent, root, weld, mocap), the joints with their
 * resolved limits and angle units, the dofs (tree, armature, damping, friction loss), the
 * default configurations qpos0 / qpos_spring, and MuJoCo's kinematic-tree arrays: a tree
 * is the subtree of a moving body whose parent is welded to the world. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* radians per compiler angle unit */
static mjtNum angle_scale(const tnCompiler* c) {
  return c->spec->compiler.degree ? mjPI / 180.0 : 1.0;
}

/* one body's frame and flags */
static int compile_body(tnCompiler* c, int b) {
  mjModel* m = c->m;
  const tnSpecBody* body = TN_AT(c->spec->bodies, tnSpecBody, b);
  m->body_parentid[b] = b ? body->parent : 0;
  mju_copy3(m->body_pos + 3 * b, body->pos);
  if (!tn__compileQuat(c, m->body_quat + 4 * b, &body->orient, body->src)) {
    return 0;
  }
  tn__frameApply(&body->frame, m->body_pos + 3 * b, m->body_quat + 4 * b);
  m->body_gravcomp[b] = body->gravcomp;
  m->body_jntnum[b] = c->body_jntnum[b];
  m->body_jntadr[b] = c->body_jntadr[b];
  m->body_dofnum[b] = c->body_dofnum[b];
  m->body_dofadr[b] = c->body_dofadr[b];
  m->body_mocapid[b] = -1;
  m->body_iquat[4 * b] = 1;
  return tn__compileUser(c, m->body_user + m->nuser_body * b, m->nuser_body, &body->user,
                         body->src);
}

/* mocap bodies: children of the world without joints, numbered in body order */
static int compile_mocap(tnCompiler* c, int b, int* nmocap) {
  const tnSpecBody* body = TN_AT(c->spec->bodies, tnSpecBody, b);
  if (!body->mocap) {
    return 1;
  }
  if (body->parent != 0) {
    return tn__compileFail(c, body->src, "mocap", "mocap bodies must be children of the world");
  }
  if (c->body_jntnum[b]) {
    return tn__compileFail(c, body->src, "mocap", "mocap bodies cannot have joints");
  }
  c->m->body_mocapid[b] = (*nmocap)++;
  return 1;
}

/* bodies: frames, tree links, mocap ids */
int tn__compileBodies(tnCompiler* c) {
  mjModel* m = c->m;
  int nmocap = 0;
  for (int b = 0; b < m->nbody; b++) {
    if (!compile_body(c, b) || !compile_mocap(c, b, &nmocap)) {
      return 0;
    }

    // root: the child of the world above b; weld: nearest body with joints
    int p = m->body_parentid[b];
    m->body_rootid[b] = b == 0 ? 0 : (p == 0 ? b : m->body_rootid[p]);
    int own = m->body_jntnum[b] || m->body_mocapid[b] >= 0;
    m->body_weldid[b] = b == 0 ? 0 : (own ? b : m->body_weldid[p]);
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * joints and dofs
 * ------------------------------------------------------------------------------------- */

/* the joint fields read from the spec */
static int compile_joint_fields(tnCompiler* c, int id, const tnSpecJoint* j) {
  mjModel* m = c->m;
  m->jnt_type[id] = j->type;
  m->jnt_bodyid[id] = j->body;
  m->jnt_group[id] = j->group;
  m->jnt_actgravcomp[id] = (mjtByte)j->actgravcomp;
  mju_copy(m->jnt_solref + mjNREF * id, j->solref_limit, mjNREF);
  mju_copy(m->jnt_solimp + mjNIMP * id, j->solimp_limit, mjNIMP);
  mju_copy3(m->jnt_pos + 3 * id, j->pos);
  tn__frameApply(&j->frame, m->jnt_pos + 3 * id, NULL);
  m->jnt_stiffness[id] = j->stiffness;
  m->jnt_margin[id] = j->margin;
  mju_copy(m->jnt_actfrcrange + 2 * id, j->actfrcrange, 2);

  // unit axis (free and ball joints get +z, as MuJoCo stores them)
  mjtNum* axis = m->jnt_axis + 3 * id;
  mju_copy3(axis, j->axis);
  tn__frameRotate(&j->frame, axis);
  if (j->type == mjJNT_FREE || j->type == mjJNT_BALL) {
    axis[0] = axis[1] = 0;
    axis[2] = 1;
  } else {
    if (tn__normVec(axis, 3) < TN_COMPILER_EPS) {
      return tn__compileFail(c, j->src, "axis", "axis of a hinge or slide joint cannot be zero");
    }
  }

  // limits
  // (MuJoCo drops both limits of a free joint before checking them; an explicitly limited
  // ball joint only needs range[0] = 0)
  int limited = 0, actlimited = 0;
  if (j->type == mjJNT_BALL && j->limited == TN_TRUE) {
    limited = 1;
  } else if (j->type != mjJNT_FREE &&
             !tn__compileLimited(c, j->limited, j->range, j->src, "limited", "range", &limited)) {
    return 0;
  }
  if (j->type != mjJNT_FREE &&
      !tn__compileLimited(c, j->actfrclimited, j->actfrcrange, j->src, "actuatorfrclimited",
                          "actuatorfrcrange", &actlimited)) {
    return 0;
  }
  if (limited && j->type == mjJNT_BALL && j->range[0] != 0) {
    return tn__compileFail(c, j->src, "range", "ball joint range must be \"0 max\"");
  }
  m->jnt_limited[id] = (mjtByte)limited;

  // range in radians for limited rotational joints (MuJoCo leaves unused ranges as written)
  int rotational = j->type == mjJNT_HINGE || j->type == mjJNT_BALL;
  mjtNum scale = limited && rotational ? angle_scale(c) : 1;
  m->jnt_range[2 * id] = j->range[0] * scale;
  m->jnt_range[2 * id + 1] = j->range[1] * scale;
  m->jnt_actfrclimited[id] = (mjtByte)actlimited;
  if ((j->springdamper[0] != 0 || j->springdamper[1] != 0) &&
      (j->springdamper[0] <= 0 || j->springdamper[1] <= 0)) {
    return tn__compileFail(c, j->src, "springdamper",
                           "when defined, springdamper values must be positive in joint");
  }
  return tn__compileUser(c, m->jnt_user + m->nuser_jnt * id, m->nuser_jnt, &j->user, j->src);
}

/* qpos0 and qpos_spring of a joint */
static void compile_joint_qpos(tnCompiler* c, int id, const tnSpecJoint* j) {
  mjModel* m = c->m;
  int adr = m->jnt_qposadr[id];
  mjtNum scale = j->type == mjJNT_HINGE ? angle_scale(c) : 1;
  switch (j->type) {
    case mjJNT_FREE:
      mju_copy3(m->qpos0 + adr, m->body_pos + 3 * j->body);
      mju_copy4(m->qpos0 + adr + 3, m->body_quat + 4 * j->body);
      mju_copy(m->qpos_spring + adr, m->qpos0 + adr, 7);
      break;
    case mjJNT_BALL:
      mju_unit4(m->qpos0 + adr);
      mju_unit4(m->qpos_spring + adr);
      break;
    default:
      m->qpos0[adr] = j->ref * scale;
      m->qpos_spring[adr] = j->springref * scale;
      break;
  }
}

/* the dofs of a joint */
static void compile_joint_dofs(tnCompiler* c, int id, const tnSpecJoint* j) {
  mjModel* m = c->m;
  int adr = m->jnt_dofadr[id];
  for (int k = 0; k < tn__jointNv(j->type); k++) {
    int d = adr + k;
    m->dof_bodyid[d] = j->body;
    m->dof_jntid[d] = id;
    m->dof_parentid[d] = c->dof_parentid[d];
    mju_copy(m->dof_solref + mjNREF * d, j->solref_friction, mjNREF);
    mju_copy(m->dof_solimp + mjNIMP * d, j->solimp_friction, mjNIMP);
    m->dof_frictionloss[d] = j->frictionloss;
    m->dof_armature[d] = j->armature;
    m->dof_damping[d] = j->damping;
  }
}

/* joints in model order, with their dofs and default configurations */
int tn__compileJoints(tnCompiler* c) {
  mjModel* m = c->m;
  int qadr = 0, dadr = 0;
  for (int id = 0; id < m->njnt; id++) {
    const tnSpecJoint* j = TN_AT(c->spec->joints, tnSpecJoint, c->jnt_order[id]);
    if (j->type == mjJNT_FREE && TN_AT(c->spec->bodies, tnSpecBody, j->body)->parent != 0 &&
        c->spec->compiler.fusestatic >= 0) {
      // MuJoCo allows free joints only on children of the world (checked after fusing)
      return tn__compileFail(c, j->src, "type", "free joint allowed only in top-level bodies");
    }
    if (c->body_dofnum[j->body] > 6) {
      return tn__compileFail(c, j->src, NULL, "more than 6 dofs in body");
    }
    int rot = j->type == mjJNT_HINGE || j->type == mjJNT_BALL;
    for (int k = c->body_jntadr[j->body]; rot && k < id; k++) {
      if (m->jnt_type[k] == mjJNT_BALL) {
        return tn__compileFail(c, j->src, "type", "ball followed by rotation in body");
      }
    }
    m->jnt_qposadr[id] = qadr;
    m->jnt_dofadr[id] = dadr;
    qadr += tn__jointNq(j->type);
    dadr += tn__jointNv(j->type);
    if (!compile_joint_fields(c, id, j)) {
      return 0;
    }
    compile_joint_qpos(c, id, j);
    compile_joint_dofs(c, id, j);
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * kinematic trees
 * ------------------------------------------------------------------------------------- */

int tn__compileTrees(tnCompiler* c) {
  mjModel* m = c->m;
  int tree = -1;
  for (int b = 0; b < m->nbody; b++) {
    int p = m->body_parentid[b];
    m->body_treeid[b] = -1;
    if (b == 0 || m->body_weldid[b] == 0) {
      continue;
    }

    // a new tree starts at a body with joints whose parent is welded to the world
    if (m->body_jntnum[b] && m->body_weldid[p] == 0) {
      tree++;
      m->tree_bodyadr[tree] = b;
      m->tree_dofadr[tree] = m->body_dofadr[b];
    }
    m->body_treeid[b] = (tree >= 0 && b == m->tree_bodyadr[tree]) ? tree : m->body_treeid[p];
    int t = m->body_treeid[b];
    if (t >= 0) {
      m->tree_bodynum[t]++;
      m->tree_dofnum[t] += m->body_dofnum[b];
    }
  }
  for (int d = 0; d < m->nv; d++) {
    m->dof_treeid[d] = m->body_treeid[m->dof_bodyid[d]];
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * springdamper: stiffness and damping from a time constant and a damping ratio
 * ------------------------------------------------------------------------------------- */

/* after the constants (dof_invweight0 at qpos0): a joint with springdamper="timeconst
 * dampratio" gets the stiffness and damping of a mass-spring-damper with the joint's mean
 * inverse weight, as MuJoCo converts solref */
int tn__compileSpringDamper(tnCompiler* c) {
  mjModel* m = c->m;
  for (int id = 0; id < m->njnt; id++) {
    const tnSpecJoint* j = TN_AT(c->spec->joints, tnSpecJoint, c->jnt_order[id]);
    mjtNum timeconst = j->springdamper[0], dampratio = j->springdamper[1];
    if (timeconst <= 0 || dampratio <= 0) {
      continue;
    }

    // mean inertia of the joint's dofs (free joints: translation and rotation differ)
    int adr = m->jnt_dofadr[id], ndim = tn__jointNv(m->jnt_type[id]);
    mjtNum invweight = 0;
    for (int k = 0; k < ndim; k++) {
      invweight += m->dof_invweight0[adr + k];
    }
    mjtNum inertia = (mjtNum)ndim / mju_max(mjMINVAL, invweight);

    // the same conversion as a solref (timeconst, dampratio)
    mjtNum stiffness = inertia / mju_max(mjMINVAL, timeconst * timeconst * dampratio * dampratio);
    mjtNum damping = 2 * inertia / mju_max(mjMINVAL, timeconst);
    m->jnt_stiffness[id] = stiffness;
    for (int k = 0; k < ndim; k++) {
      m->dof_damping[adr + k] = damping;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * free-joint alignment: the body frame moved onto the inertial frame
 * ------------------------------------------------------------------------------------- */

/* child pose = frame o child pose (quat may be NULL) */
static void pose_accum(const mjtNum fpos[3], const mjtNum fquat[4], mjtNum pos[3], mjtNum quat[4]) {
  mjtNum p[3], q[4];
  mju_rotVecQuat(p, pos, fquat);
  mju_add3(pos, p, fpos);
  if (quat) {
    mju_mulQuat(q, fquat, quat);
    mju_copy4(quat, q);
  }
}

/* true when body b's frame is aligned with its inertial frame: its only joint is free, it
 * has no child bodies, and the joint says align="true", or "auto" with compiler alignfree */
static int aligns(const tnCompiler* c, int b, const int* nchild) {
  const mjModel* m = c->m;
  if (c->spec->compiler.alignfree < 0 || m->body_jntnum[b] != 1 ||
      m->jnt_type[m->body_jntadr[b]] != mjJNT_FREE || nchild[b]) {
    return 0;
  }
  const tnSpecJoint* j = TN_AT(c->spec->joints, tnSpecJoint, c->jnt_order[m->body_jntadr[b]]);
  return j->align == 1 || (j->align == 2 && c->spec->compiler.alignfree);
}

/* move body b onto its inertial frame; its geoms, sites, cameras and lights follow */
static void align_body(mjModel* m, int b) {
  mjtNum* ipos = m->body_ipos + 3 * b;
  mjtNum* iquat = m->body_iquat + 4 * b;

  // the body frame moves onto the inertial frame
  mjtNum inertial[3], inertialq[4];
  mju_copy3(inertial, ipos);
  mju_copy4(inertialq, iquat);
  pose_accum(m->body_pos + 3 * b, m->body_quat + 4 * b, inertial, inertialq);
  mju_copy3(m->body_pos + 3 * b, inertial);
  mju_copy4(m->body_quat + 4 * b, inertialq);

  // the inverse of the inertial offset, applied to everything attached
  mjtNum invpos[3], invquat[4];
  mju_negQuat(invquat, iquat);
  mju_rotVecQuat(invpos, ipos, invquat);
  mju_scl3(invpos, invpos, -1);
  ipos[0] = ipos[1] = ipos[2] = 0;
  iquat[0] = 1, iquat[1] = iquat[2] = iquat[3] = 0;
  for (int g = 0; g < m->ngeom; g++) {
    if (m->geom_bodyid[g] == b) {
      pose_accum(invpos, invquat, m->geom_pos + 3 * g, m->geom_quat + 4 * g);
    }
  }
  for (int i = 0; i < m->nsite; i++) {
    if (m->site_bodyid[i] == b) {
      pose_accum(invpos, invquat, m->site_pos + 3 * i, m->site_quat + 4 * i);
    }
  }
  for (int i = 0; i < m->ncam; i++) {
    if (m->cam_bodyid[i] == b) {
      pose_accum(invpos, invquat, m->cam_pos + 3 * i, m->cam_quat + 4 * i);
    }
  }
  for (int i = 0; i < m->nlight; i++) {
    if (m->light_bodyid[i] == b) {
      mjtNum dir[3];
      pose_accum(invpos, invquat, m->light_pos + 3 * i, NULL);
      mju_rotVecQuat(dir, m->light_dir + 3 * i, invquat);
      mju_copy3(m->light_dir + 3 * i, dir);
    }
  }

  // the free joint's reference configuration is the new body pose
  int adr = m->jnt_qposadr[m->body_jntadr[b]];
  mju_copy3(m->qpos0 + adr, m->body_pos + 3 * b);
  mju_copy4(m->qpos0 + adr + 3, m->body_quat + 4 * b);
  mju_copy(m->qpos_spring + adr, m->qpos0 + adr, 7);
}

/* after the mass properties: free-joint bodies aligned with their inertial frames */
int tn__compileAlignFree(tnCompiler* c) {
  mjModel* m = c->m;
  int* nchild = calloc((size_t)m->nbody, sizeof(int));
  if (!nchild) {
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }
  for (int b = 1; b < m->nbody; b++) {
    nchild[m->body_parentid[b]]++;
  }
  for (int b = 1; b < m->nbody; b++) {
    if (aligns(c, b, nchild)) {
      align_body(m, b);
    }
  }
  free(nchild);
  return 1;
}
