/* compiler/const_qpos0.c — model constants evaluated in the reference configuration.
 *
 * MuJoCo runs the smooth pipeline once at qpos0 after compiling and stores what the
 * solver and the actuators need as scales: tendon and actuator lengths, the diagonal of
 * the inertia (dof_M0), inverse weights of bodies, dofs and tendons (diagonals of
 * J M^-1 J'), actuator_acc0 = |M^-1 moment|, the qpos0 anchors and relative poses of
 * connect and weld equalities, and the reference poses of cameras and lights. Tendon
 * spring lengths left at -1 are the tendon lengths at qpos_spring. */
#include <math.h>
#include <stdio.h>

#include "compiler/const_internal.h"
#include "smooth/smooth.h"

/* body_simple code of a body whose dofs are all orthogonal sliders */
#define SIMPLE_SLIDERS 2

/* x = M^-1 y for one vector, with the factorization in d */
static void qpos0_solve(const mjModel* m, mjData* d, mjtNum* x, const mjtNum* y) {
  mju_copy(x, y, m->nv);
  mj_solveM(m, d, x, x, 1);
}

/* y' M^-1 y for one vector (scratch: nv numbers) */
static mjtNum qpos0_quad(const mjModel* m, mjData* d, const mjtNum* y, mjtNum* scratch) {
  qpos0_solve(m, d, scratch, y);
  return mju_dot(y, scratch, m->nv);
}

/* dof_M0 (diagonal of M, which mj_crb reuses for simple dofs), then M as the pipeline
 * computes it; saved: nv ints of scratch for dof_simplenum */
static void qpos0_inertia(mjModel* m, mjData* d, int* saved) {
  // full composite-inertia pass with the simple-dof shortcut and tendon armature switched
  // off (MuJoCo's dof_M0 excludes tendon armature)
  mj_markStack(d);
  mjtNum* armature = mj_stackAllocNum(d, m->ntendon + 1);
  for (int i = 0; i < m->nv; i++) {
    saved[i] = m->dof_simplenum[i];
    m->dof_simplenum[i] = 0;
  }
  for (int t = 0; armature && t < m->ntendon; t++) {
    armature[t] = m->tendon_armature[t];
    m->tendon_armature[t] = 0;
  }
  mj_crb(m, d);
  for (int i = 0; i < m->nv; i++) {
    m->dof_M0[i] = d->M[m->M_rowadr[i] + m->M_rownnz[i] - 1];
    m->dof_simplenum[i] = saved[i];
  }
  for (int t = 0; armature && t < m->ntendon; t++) {
    m->tendon_armature[t] = armature[t];
  }
  mj_freeStack(d);

  // M and its factorization as the pipeline will compute them
  mju_zero(d->M, m->nC);
  mj_crb(m, d);
  mj_factorM(m, d);
}

/* dof_invweight0: diagonal of M^-1, averaged within free and ball joints */
static void qpos0_dofs(const mjModel* m, mjData* d, mjtNum* e, mjtNum* x) {
  int nv = m->nv;
  for (int i = 0; i < nv; i++) {
    mju_zero(e, nv);
    e[i] = 1;
    qpos0_solve(m, d, x, e);
    m->dof_invweight0[i] = x[i];
  }

  // sliders-only simple bodies: inverse body mass, armature ignored (as MuJoCo)
  for (int i = 0; i < nv; i++) {
    int b = m->dof_bodyid[i];
    if (m->body_simple[b] == SIMPLE_SLIDERS && m->body_mass[b] > mjMINVAL) {
      m->dof_invweight0[i] = 1 / m->body_mass[b];
    }
  }

  // average over the translational and rotational parts of free and ball joints
  for (int j = 0; j < m->njnt; j++) {
    int adr = m->jnt_dofadr[j], type = m->jnt_type[j];
    int groups = type == mjJNT_FREE ? 2 : type == mjJNT_BALL ? 1 : 0;
    for (int g = 0; g < groups; g++) {
      mjtNum* w = m->dof_invweight0 + adr + 3 * g;
      mjtNum mean = (w[0] + w[1] + w[2]) / 3;
      w[0] = w[1] = w[2] = mean;
    }
  }
}

/* body_invweight0: mean diagonal of J M^-1 J' for the com's translation and rotation */
static void qpos0_bodies(const mjModel* m, mjData* d, mjtNum* jacp, mjtNum* jacr, mjtNum* x) {
  int nv = m->nv;
  m->body_invweight0[0] = m->body_invweight0[1] = 0;
  for (int b = 1; b < m->nbody; b++) {
    mjtNum* w = m->body_invweight0 + 2 * b;

    // welded to the world: immovable
    if (m->body_weldid[b] == 0) {
      w[0] = w[1] = 0;
      continue;
    }

    // sliders-only simple bodies: inverse mass, no rotation (as MuJoCo)
    if (m->body_simple[b] == SIMPLE_SLIDERS) {
      w[0] = m->body_mass[b] > mjMINVAL ? 1 / m->body_mass[b] : 0;
      w[1] = 0;
      continue;
    }

    // traces of the translational and rotational blocks
    mj_jacBodyCom(m, d, jacp, jacr, b);
    mjtNum tran = 0, rot = 0;
    for (int k = 0; k < 3; k++) {
      tran += qpos0_quad(m, d, jacp + k * nv, x);
      rot += qpos0_quad(m, d, jacr + k * nv, x);
    }
    w[0] = tran / 3;
    w[1] = rot / 3;
  }
}

/* tendon_length0, tendon_invweight0, actuator_length0 and actuator_acc0; row: nv scratch for
 * a tendon's dense Jacobian row */
static void qpos0_tendons_actuators(const mjModel* m, mjData* d, mjtNum* row, mjtNum* x) {
  for (int t = 0; t < m->ntendon; t++) {
    m->tendon_length0[t] = d->ten_length[t];
    tn__tendonRowDense(m, d, t, row);
    m->tendon_invweight0[t] = qpos0_quad(m, d, row, x);
  }
  for (int u = 0; u < m->nu; u++) {
    m->actuator_length0[u] = d->actuator_length[u];
    mju_sparse2dense(x, d->actuator_moment, 1, m->nv, d->moment_rownnz + u, d->moment_rowadr + u,
                     d->moment_colind);
    mj_solveM(m, d, x, x, 1);
    m->actuator_acc0[u] = mju_norm(x, m->nv);
  }
}

/* global position of a point given in body b's frame */
static void qpos0_global(const mjData* d, int b, const mjtNum local[3], mjtNum res[3]) {
  mju_mulMatVec3(res, d->xmat + 9 * b, local);
  mju_addTo3(res, d->xpos + 3 * b);
}

/* body b's frame coordinates of a global point */
static void qpos0_local(const mjData* d, int b, const mjtNum global[3], mjtNum res[3]) {
  mjtNum dif[3];
  mju_sub3(dif, global, d->xpos + 3 * b);
  mju_mulMatTVec3(res, d->xmat + 9 * b, dif);
}

/* connect: anchor on body2; weld: relative pose of body2 in body1 unless given */
static void qpos0_equality(const mjModel* m, mjData* d) {
  for (int e = 0; e < m->neq; e++) {
    int type = m->eq_type[e];
    if ((type != mjEQ_CONNECT && type != mjEQ_WELD) || m->eq_objtype[e] != mjOBJ_BODY) {
      continue;
    }
    int b1 = m->eq_obj1id[e], b2 = m->eq_obj2id[e] < 0 ? 0 : m->eq_obj2id[e];
    mjtNum* data = m->eq_data + mjNEQDATA * e;
    mjtNum global[3];

    // connect: body1's anchor expressed in body2
    if (type == mjEQ_CONNECT) {
      qpos0_global(d, b1, data, global);
      qpos0_local(d, b2, global, data + 3);
      continue;
    }

    // weld: body2's anchor in body1 and the relative orientation, when no relpose is given
    if (mju_isZero(data + 6, 4)) {
      mjtNum neg[4];
      qpos0_global(d, b2, data, global);
      qpos0_local(d, b1, global, data + 3);
      mju_negQuat(neg, d->xquat + 4 * b1);
      mju_mulQuat(data + 6, neg, d->xquat + 4 * b2);
    }
  }
}

/* camera and light poses at qpos0, before any tracking or targeting */
static void qpos0_camlight(const mjModel* m, mjData* d) {
  for (int c = 0; c < m->ncam; c++) {
    int b = m->cam_bodyid[c], t = m->cam_targetbodyid[c];
    mjtNum pos[3], quat[4];
    qpos0_global(d, b, m->cam_pos + 3 * c, pos);
    mju_sub3(m->cam_pos0 + 3 * c, pos, d->xpos + 3 * b);
    mju_sub3(m->cam_poscom0 + 3 * c, pos, d->subtree_com + 3 * (t >= 0 ? t : b));
    mju_mulQuat(quat, d->xquat + 4 * b, m->cam_quat + 4 * c);
    mju_quat2Mat(m->cam_mat0 + 9 * c, quat);
  }
  for (int l = 0; l < m->nlight; l++) {
    int b = m->light_bodyid[l], t = m->light_targetbodyid[l];
    mjtNum pos[3];
    qpos0_global(d, b, m->light_pos + 3 * l, pos);
    mju_sub3(m->light_pos0 + 3 * l, pos, d->xpos + 3 * b);
    mju_sub3(m->light_poscom0 + 3 * l, pos, d->subtree_com + 3 * (t >= 0 ? t : b));
    mju_mulMatVec3(m->light_dir0 + 3 * l, d->xmat + 9 * b, m->light_dir + 3 * l);
  }
}

/* tendon spring lengths left at (-1, -1): tendon lengths at qpos_spring */
static void qpos0_springlength(const mjModel* m, mjData* d) {
  int any = 0;
  for (int t = 0; t < m->ntendon; t++) {
    any |= m->tendon_lengthspring[2 * t] == -1 && m->tendon_lengthspring[2 * t + 1] == -1;
  }
  if (!any) {
    return;
  }
  mju_copy(d->qpos, m->qpos_spring, m->nq);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  for (int t = 0; t < m->ntendon; t++) {
    mjtNum* ls = m->tendon_lengthspring + 2 * t;
    if (ls[0] == -1 && ls[1] == -1) {
      ls[0] = ls[1] = d->ten_length[t];
    }
  }
}

/* tn__fillQpos0's evaluation: its model, scratch data, error buffer and result */
typedef struct qpos0Eval_ {
  mjModel* m;
  mjData* d;
  char* err;
  int errsz;
  int ok;
} qpos0Eval;

/* everything evaluated at qpos0 on a->d (under an unwinding point) */
static void qpos0_eval(void* arg) {
  qpos0Eval* a = arg;
  mjModel* m = a->m;
  mjData* d = a->d;
  char* err = a->err;
  int errsz = a->errsz;
  a->ok = 0;

  // smooth pipeline at qpos0 up to the factorized inertia
  mju_copy(d->qpos, m->qpos0, m->nq);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  mj_transmission(m, d);

  // scratch for unit vectors, solves and body Jacobians
  int nv = m->nv;
  mj_markStack(d);
  mjtNum* e = mj_stackAllocNum(d, (size_t)nv + 1);
  mjtNum* x = mj_stackAllocNum(d, (size_t)nv + 1);
  mjtNum* jacp = mj_stackAllocNum(d, 3 * (size_t)nv + 1);
  mjtNum* jacr = mj_stackAllocNum(d, 3 * (size_t)nv + 1);
  int* saved = mj_stackAllocInt(d, (size_t)nv + 1);
  if (!e || !x || !jacp || !jacr || !saved) {
    mj_freeStack(d);
    snprintf(err, (size_t)errsz, "arena too small evaluating the model at qpos0");
    return;
  }

  // inertia (dof_M0 first), inverse weights, lengths and scales
  qpos0_inertia(m, d, saved);
  qpos0_dofs(m, d, e, x);
  qpos0_bodies(m, d, jacp, jacr, x);
  qpos0_tendons_actuators(m, d, e, x);
  qpos0_equality(m, d);
  qpos0_camlight(m, d);
  mj_freeStack(d);

  // statistics use the same configuration
  a->ok = tn__fillStatistics(m, d, err, errsz);

  // spring lengths need their own configuration
  qpos0_springlength(m, d);
}

/* everything evaluated at qpos0; an engine error (the model's <size memory> too small for
 * its own pipeline) fails the compilation with its message */
int tn__fillQpos0(mjModel* m, char* err, int errsz) {
  mjData* d = mj_makeData(m);
  if (!d) {
    snprintf(err, (size_t)errsz, "out of memory evaluating the model at qpos0");
    return 0;
  }
  qpos0Eval a = {m, d, err, errsz, 0};
  char why[1000];
  if (tn_run(d, qpos0_eval, &a, why, (int)sizeof(why))) {
    snprintf(err, (size_t)errsz, "evaluating the model at qpos0: %s", why);
    a.ok = 0;
  }
  mj_deleteData(d);
  return a.ok;
}
