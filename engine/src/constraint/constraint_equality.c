/* constraint/constraint_equality.c — equality constraint rows: connect (3), weld (6),
 * joint (1) and tendon (1), for every constraint active in d->eq_active.
 *
 * connect: residual pos1 - pos2 of the two anchors, Jacobian the difference of the point
 * Jacobians. weld: the same 3 rows, then 3 rows of orientation error, the vector part of
 * neg(q2) q1 relquat scaled by torquescale, with Jacobian 0.5 neg(q2) (w1 - w2) q1 relquat.
 * joint/tendon: y - y0 = a0 + a1 x + a2 x^2 + a3 x^3 + a4 x^4 with x, y measured from
 * qpos0 (joints) or length0 (tendons).
 *
 * The reference acceleration of connect and weld rows also removes the velocity-product
 * term Jdot qvel (as MuJoCo 3.14 does), so the spring-damper acts on the true residual
 * acceleration; tn__equalityBias computes it from cvel and cdof_dot. */
#include "constraint/constraint.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* body and global position of an equality's object k (0 or 1): a body with its anchor
 * (eq_data[3k..3k+2]) or a site */
static int anchor_point(const mjModel* m, const mjData* d, int eq, int k, const mjtNum* anchor,
                        mjtNum pos[3]) {
  int id = k ? m->eq_obj2id[eq] : m->eq_obj1id[eq];

  // site: its global position
  if (m->eq_objtype[eq] == mjOBJ_SITE) {
    mju_copy3(pos, d->site_xpos + 3 * id);
    return m->site_bodyid[id];
  }

  // body: anchor in the body frame
  mju_mulMatVec3(pos, d->xmat + 9 * id, anchor);
  mju_addTo3(pos, d->xpos + 3 * id);
  return id;
}

/* global orientation of an equality's object k: body or site frame */
static void object_quat(const mjModel* m, const mjData* d, int eq, int k, mjtNum quat[4]) {
  int id = k ? m->eq_obj2id[eq] : m->eq_obj1id[eq];
  if (m->eq_objtype[eq] == mjOBJ_SITE) {
    mju_mulQuat(quat, d->xquat + 4 * m->site_bodyid[id], m->site_quat + 4 * id);
  } else {
    mju_copy4(quat, d->xquat + 4 * id);
  }
}

/* translational (and rotational) Jacobian difference body1 at pos1 minus body2 at pos2 */
static int jac_dif(const mjModel* m, const mjData* d, int b1, int b2, const mjtNum pos1[3],
                   const mjtNum pos2[3], int* chain, mjtNum* jacp, mjtNum* jacr, mjtNum* tmp) {
  int n = tn__mergeChain(m, b1, b2, chain);
  tn__jacChain(m, d, b1, pos1, chain, n, jacp, jacr);
  tn__jacChain(m, d, b2, pos2, chain, n, tmp, jacr ? tmp + 3 * n : NULL);
  for (int k = 0; k < 3 * n; k++) {
    jacp[k] -= tmp[k];
  }
  if (jacr) {
    for (int k = 0; k < 3 * n; k++) {
      jacr[k] -= tmp[3 * n + k];
    }
  }
  return n;
}

/* connect: 3 rows */
static void rows_connect(const mjModel* m, mjData* d, int eq, int* chain, mjtNum* buf) {
  const mjtNum* data = m->eq_data + mjNEQDATA * eq;
  mjtNum pos1[3], pos2[3], cpos[3];

  // anchors and residual
  int b1 = anchor_point(m, d, eq, 0, data, pos1);
  int b2 = anchor_point(m, d, eq, 1, data + 3, pos2);
  mju_sub3(cpos, pos1, pos2);

  // Jacobian difference
  int nv = m->nv;
  mjtNum *jacp = buf, *tmp = buf + 3 * nv;
  int n = jac_dif(m, d, b1, b2, pos1, pos2, chain, jacp, NULL, tmp);
  tn__addRows(m, d, jacp, chain, n, cpos, 0, 0, 3, mjCNSTR_EQUALITY, eq);
}

/* weld: 3 position rows and 3 orientation rows */
static void rows_weld(const mjModel* m, mjData* d, int eq, int* chain, mjtNum* buf) {
  const mjtNum* data = m->eq_data + mjNEQDATA * eq;
  mjtNum pos1[3], pos2[3], cpos[6], q1[4], q2[4], q1r[4], negq2[4], qerr[4];
  mjtNum torquescale = data[10];
  int site = m->eq_objtype[eq] == mjOBJ_SITE;

  // position residual: relpos on body 1, anchor on body 2
  int b1 = anchor_point(m, d, eq, 0, data + 3, pos1);
  int b2 = anchor_point(m, d, eq, 1, data, pos2);
  mju_sub3(cpos, pos1, pos2);

  // orientation residual: vector part of neg(q2) q1 relquat
  object_quat(m, d, eq, 0, q1);
  object_quat(m, d, eq, 1, q2);
  if (site) {
    mju_copy4(q1r, q1);
  } else {
    mju_mulQuat(q1r, q1, data + 6);
  }
  mju_negQuat(negq2, q2);
  mju_mulQuat(qerr, negq2, q1r);
  mju_scl3(cpos + 3, qerr + 1, torquescale);

  // Jacobian difference, translation (rows 0-2 of jac) and rotation (jacr)
  int nv = m->nv;
  mjtNum *jac = buf, *tmp = buf + 6 * nv, *jacr = buf + 12 * nv;
  int n = jac_dif(m, d, b1, b2, pos1, pos2, chain, jac, jacr, tmp);

  // rotation rows 3-5: 0.5 neg(q2) (w1 - w2) q1 relquat, scaled
  mjtNum* rot = jac + 3 * n;
  for (int k = 0; k < n; k++) {
    mjtNum axis[3] = {jacr[k], jacr[n + k], jacr[2 * n + k]}, qa[4], qb[4];
    mju_mulQuatAxis(qa, negq2, axis);
    mju_mulQuat(qb, qa, q1r);
    rot[k] = 0.5 * qb[1] * torquescale;
    rot[n + k] = 0.5 * qb[2] * torquescale;
    rot[2 * n + k] = 0.5 * qb[3] * torquescale;
  }
  tn__addRows(m, d, jac, chain, n, cpos, 0, 0, 6, mjCNSTR_EQUALITY, eq);
}

/* polynomial coupling: residual and derivative of a0 + a1 x + ... + a4 x^4 */
static mjtNum poly_value(const mjtNum* a, mjtNum x, mjtNum* deriv) {
  *deriv = a[1] + 2 * a[2] * x + 3 * a[3] * x * x + 4 * a[4] * x * x * x;
  return a[1] * x + a[2] * x * x + a[3] * x * x * x + a[4] * x * x * x * x;
}

/* joint coupling: 1 row on the two joints' dofs */
static void rows_joint(const mjModel* m, mjData* d, int eq) {
  const mjtNum* data = m->eq_data + mjNEQDATA * eq;
  int j1 = m->eq_obj1id[eq], j2 = m->eq_obj2id[eq];
  int a1 = m->jnt_qposadr[j1], dof1 = m->jnt_dofadr[j1];

  // single joint: lock to a0
  mjtNum y = d->qpos[a1] - m->qpos0[a1], cpos;
  if (j2 < 0) {
    cpos = y - data[0];
    mjtNum one = 1;
    tn__addRows(m, d, &one, &dof1, 1, &cpos, 0, 0, 1, mjCNSTR_EQUALITY, eq);
    return;
  }

  // two joints: y - y0 = poly(x - x0)
  int a2 = m->jnt_qposadr[j2], dof2 = m->jnt_dofadr[j2];
  mjtNum x = d->qpos[a2] - m->qpos0[a2], deriv;
  cpos = y - data[0] - poly_value(data, x, &deriv);

  // Jacobian at the dofs, ascending
  int chain[2];
  mjtNum jac[2];
  int n;
  if (dof1 == dof2) {
    chain[0] = dof1, jac[0] = 1 - deriv, n = 1;
  } else if (dof1 < dof2) {
    chain[0] = dof1, jac[0] = 1, chain[1] = dof2, jac[1] = -deriv, n = 2;
  } else {
    chain[0] = dof2, jac[0] = -deriv, chain[1] = dof1, jac[1] = 1, n = 2;
  }
  tn__addRows(m, d, jac, chain, n, &cpos, 0, 0, 1, mjCNSTR_EQUALITY, eq);
}

/* tendon coupling: 1 row, ten_J[t1] - deriv * ten_J[t2] */
static void rows_tendon(const mjModel* m, mjData* d, int eq, int* chain, mjtNum* jac) {
  const mjtNum* data = m->eq_data + mjNEQDATA * eq;
  int t1 = m->eq_obj1id[eq], t2 = m->eq_obj2id[eq], nv = m->nv;
  mjtNum y = d->ten_length[t1] - m->tendon_length0[t1], cpos, deriv = 0;

  // residual
  if (t2 < 0) {
    cpos = y - data[0];
  } else {
    mjtNum x = d->ten_length[t2] - m->tendon_length0[t2];
    cpos = y - data[0] - poly_value(data, x, &deriv);
  }

  // dense Jacobians (scratch after the nv of jac), then their non-zero dofs
  mjtNum* J1 = jac + nv;
  mjtNum* J2 = t2 >= 0 ? jac + 2 * nv : NULL;
  tn__tendonRowDense(m, d, t1, J1);
  if (J2) {
    tn__tendonRowDense(m, d, t2, J2);
  }
  int n = 0;
  for (int i = 0; i < nv; i++) {
    if (J1[i] != 0 || (J2 && J2[i] != 0)) {
      chain[n] = i;
      jac[n++] = J2 ? J1[i] - deriv * J2[i] : J1[i];
    }
  }
  tn__addRows(m, d, jac, chain, n, &cpos, 0, 0, 1, mjCNSTR_EQUALITY, eq);
}

/* all active equality constraints */
void tn__instantiateEquality(const mjModel* m, mjData* d) {
  if (!m->neq || TN_CDISABLED(m, mjDSBL_EQUALITY)) {
    return;
  }
  mj_markStack(d);
  int nv = m->nv > 0 ? m->nv : 1;
  int* chain = mj_stackAllocInt(d, (size_t)nv);
  mjtNum* buf = mj_stackAllocNum(d, (size_t)(15 * nv));

  for (int eq = 0; eq < m->neq; eq++) {
    if (!d->eq_active[eq]) {
      continue;
    }

    // counting pass: a connect or weld adds 3 or 6 rows over its two bodies' merged chain
    // (its length matters to a sparse Jacobian only); nothing else to compute
    int type = m->eq_type[eq];
    if (!d->efc_type && (type == mjEQ_CONNECT || type == mjEQ_WELD)) {
      int n = is_sparse(m) ? tn__mergeChain(m, tn__eqBody(m, eq, 0), tn__eqBody(m, eq, 1), chain)
                           : 0;
      tn__addRows(m, d, NULL, chain, n, NULL, 0, 0, type == mjEQ_CONNECT ? 3 : 6,
                  mjCNSTR_EQUALITY, eq);
      continue;
    }
    switch (type) {
      case mjEQ_CONNECT: rows_connect(m, d, eq, chain, buf); break;
      case mjEQ_WELD: rows_weld(m, d, eq, chain, buf); break;
      case mjEQ_JOINT: rows_joint(m, d, eq); break;
      case mjEQ_TENDON: rows_tendon(m, d, eq, chain, buf); break;
      default:
        mju_error("mj_makeConstraint: equality type %d is not implemented",
                  m->eq_type[eq]);
        break;
    }
  }
  mj_freeStack(d);
}

/* ---------------------------------------------------------------------------------------
 * Velocity-product term of connect and weld rows
 * ------------------------------------------------------------------------------------- */

/* Jdot qvel of a point on body b: linear acceleration bias of the point (accp) and the
 * body's angular acceleration bias (acca), plus its angular velocity (omega) */
static void point_bias(const mjModel* m, const mjData* d, int b, const mjtNum point[3],
                       mjtNum accp[3], mjtNum acca[3], mjtNum omega[3]) {
  mjtNum offset[3], pvel[6], lin[3] = {0, 0, 0}, tmp[3];
  mju_zero3(acca);
  mju_sub3(offset, point, d->subtree_com + 3 * m->body_rootid[b]);

  // velocity of the point, angular velocity of the body
  mju_transformSpatial(pvel, d->cvel + 6 * b, 0, point,
                       d->subtree_com + 3 * m->body_rootid[b], NULL);
  mju_copy3(omega, pvel);

  // sums over the body's dofs of qvel * cdof_dot
  int dof = -1, body = b;
  while (body > 0 && m->body_dofnum[body] == 0) {
    body = m->body_parentid[body];
  }
  if (body > 0) {
    dof = m->body_dofadr[body] + m->body_dofnum[body] - 1;
  }
  for (int i = dof; i >= 0; i = m->dof_parentid[i]) {
    const mjtNum* cd = d->cdof_dot + 6 * i;
    mju_addToScl3(acca, cd, d->qvel[i]);
    mju_addToScl3(lin, cd + 3, d->qvel[i]);
  }

  // accp = lin + acca x offset + omega x pvel
  mju_cross(tmp, acca, offset);
  mju_add3(accp, lin, tmp);
  mju_cross(tmp, omega, pvel + 3);
  mju_addTo3(accp, tmp);
}

/* Jdot qvel of one connect (3) or weld (6) constraint */
static int equality_bias(const mjModel* m, const mjData* d, int eq, mjtNum bias[6]) {
  const mjtNum* data = m->eq_data + mjNEQDATA * eq;
  int weld = m->eq_type[eq] == mjEQ_WELD;
  mjtNum pos1[3], pos2[3], acc1[3], acc2[3], aa1[3], aa2[3], w1[3], w2[3];

  // anchors as in the rows: connect data[0..2], data[3..5]; weld relpos, anchor
  int b1 = anchor_point(m, d, eq, 0, weld ? data + 3 : data, pos1);
  int b2 = anchor_point(m, d, eq, 1, weld ? data : data + 3, pos2);
  point_bias(m, d, b1, pos1, acc1, aa1, w1);
  point_bias(m, d, b2, pos2, acc2, aa2, w2);
  mju_sub3(bias, acc1, acc2);
  if (!weld) {
    return 3;
  }

  // weld orientation: d/dt of 0.5 neg(q2) (w1 - w2) q1r at fixed qvel
  mjtNum q1[4], q2[4], q1r[4], negq2[4], dw[3], da[3], qa[4], qb[4], qc[4], qd[4];
  object_quat(m, d, eq, 0, q1);
  object_quat(m, d, eq, 1, q2);
  if (m->eq_objtype[eq] == mjOBJ_SITE) {
    mju_copy4(q1r, q1);
  } else {
    mju_mulQuat(q1r, q1, data + 6);
  }
  mju_negQuat(negq2, q2);
  mju_sub3(dw, w1, w2);
  mju_sub3(da, aa1, aa2);

  // neg(q2) da q1r
  mju_mulQuatAxis(qa, negq2, da);
  mju_mulQuat(qb, qa, q1r);

  // -0.5 neg(q2) w2 dw q1r + 0.5 neg(q2) dw w1 q1r
  mjtNum w2q[4] = {0, w2[0], w2[1], w2[2]}, dwq[4] = {0, dw[0], dw[1], dw[2]};
  mjtNum w1q[4] = {0, w1[0], w1[1], w1[2]}, t1[4], t2[4];
  mju_mulQuat(t1, negq2, w2q);
  mju_mulQuat(t2, t1, dwq);
  mju_mulQuat(qc, t2, q1r);
  mju_mulQuat(t1, negq2, dwq);
  mju_mulQuat(t2, t1, w1q);
  mju_mulQuat(qd, t2, q1r);
  for (int k = 0; k < 3; k++) {
    bias[3 + k] = 0.5 * (qb[k + 1] - 0.5 * qc[k + 1] + 0.5 * qd[k + 1]) * data[10];
  }
  return 6;
}

/* efc_aref -= Jdot qvel for connect and weld rows */
void tn__equalityBias(const mjModel* m, mjData* d) {
  for (int i = 0; i < d->ne;) {
    int eq = d->efc_id[i], type = m->eq_type[eq];
    if (type != mjEQ_CONNECT && type != mjEQ_WELD) {
      i++;
      continue;
    }
    mjtNum bias[6];
    int n = equality_bias(m, d, eq, bias);
    for (int k = 0; k < n; k++) {
      d->efc_aref[i + k] -= bias[k];
    }
    i += n;
  }
}
