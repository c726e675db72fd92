/* smooth/rne_post.c — mj_rnePostConstraint: body accelerations and forces once the
 * constraint forces are known, for the acceleration-stage sensors (accelerometer, force,
 * torque, frame accelerations) and for users reading cacc / cfrc_int / cfrc_ext.
 *
 * cfrc_ext: every body's external spatial force in the com-based frame of its tree:
 * xfrc_applied (acting at the body's com), contact forces (the contact frame's force and
 * torque at the contact point, pushing geom2's body along the normal and geom1's body
 * back) and the forces of connect and weld equality constraints (each body pulled at its
 * own anchor; a weld's rotation rows act as the torque their Jacobian maps them to).
 * cacc: body accelerations from qacc, with the world accelerating against gravity so that
 * accelerometers read proper acceleration. cfrc_int: the force each body receives from its
 * parent, by recursive Newton-Euler: I a + v x* (I v) - cfrc_ext, summed over subtrees (the
 * world's entry holds the total over its children). */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* contact force in the contact frame; pyramidal edge forces decoded */
void mj_contactForce(const mjModel* m, const mjData* d, int id, mjtNum result[6]) {
  const mjContact* con = d->contact + id;
  int adr = con->efc_address, dim = con->dim;
  mju_zero(result, 6);
  if (adr < 0 || dim < 1) {
    return;
  }

  // elliptic cone or frictionless: the rows are the components
  if (m->opt.cone == mjCONE_ELLIPTIC || dim == 1) {
    mju_copy(result, d->efc_force + adr, dim);
    return;
  }

  // pyramidal: normal = sum of edge forces, friction j = mu_j (f+ - f-)
  const mjtNum* pyr = d->efc_force + adr;
  for (int k = 0; k < 2 * (dim - 1); k++) {
    result[0] += pyr[k];
  }
  for (int j = 0; j < dim - 1; j++) {
    result[j + 1] = (pyr[2 * j] - pyr[2 * j + 1]) * con->friction[j];
  }
}

/* cfrc_ext[body] += sign * (force, torque) acting at global point `pnt`, in the com frame */
static void add_external(const mjModel* m, mjData* d, int body, const mjtNum force[3],
                         const mjtNum torque[3], const mjtNum pnt[3], mjtNum sign) {
  if (body <= 0) {
    return;
  }
  mjtNum wrench[6], spatial[6];
  if (torque) {
    mju_copy3(wrench, torque);
  } else {
    mju_zero3(wrench);
  }
  mju_copy3(wrench + 3, force);
  mju_transformSpatial(spatial, wrench, 1, d->subtree_com + 3 * m->body_rootid[body], pnt,
                       NULL);
  mju_addToScl(d->cfrc_ext + 6 * body, spatial, sign, 6);
}

/* contact forces: global force and torque at the contact point on both bodies */
static void external_contacts(const mjModel* m, mjData* d) {
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* con = d->contact + i;
    if (con->efc_address < 0) {
      continue;
    }
    mjtNum local[6], force[3], torque[3];
    mj_contactForce(m, d, i, local);
    mju_mulMatTVec3(force, con->frame, local);
    mju_mulMatTVec3(torque, con->frame, local + 3);
    add_external(m, d, m->geom_bodyid[con->geom1], force, torque, con->pos, -1);
    add_external(m, d, m->geom_bodyid[con->geom2], force, torque, con->pos, 1);
  }
}

/* body and global anchor point of object k (0/1) of a connect or weld: a site, or a body
 * with its anchor `local` in the body frame */
static int eq_anchor(const mjModel* m, const mjData* d, int eq, int k, const mjtNum* local,
                     mjtNum pnt[3]) {
  int id = k ? m->eq_obj2id[eq] : m->eq_obj1id[eq];
  if (m->eq_objtype[eq] == mjOBJ_SITE) {
    mju_copy3(pnt, d->site_xpos + 3 * id);
    return m->site_bodyid[id];
  }
  mju_mulMatVec3(pnt, d->xmat + 9 * id, local);
  mju_addTo3(pnt, d->xpos + 3 * id);
  return id;
}

/* global orientation of object k of a weld: site or body frame */
static void eq_quat(const mjModel* m, const mjData* d, int eq, int k, mjtNum quat[4]) {
  int id = k ? m->eq_obj2id[eq] : m->eq_obj1id[eq];
  if (m->eq_objtype[eq] == mjOBJ_SITE) {
    mju_mulQuat(quat, d->xquat + 4 * m->site_bodyid[id], m->site_quat + 4 * id);
  } else {
    mju_copy4(quat, d->xquat + 4 * id);
  }
}

/* world torque of a weld's rotation rows: J_rot' f with J_rot(w) = 0.5 torquescale *
 * vec(neg(q2) [0 w] q1 relquat), one world axis at a time */
static void weld_torque(const mjModel* m, const mjData* d, int eq, const mjtNum frot[3],
                        mjtNum torque[3]) {
  const mjtNum* data = m->eq_data + mjNEQDATA * eq;
  mjtNum q1[4], q2[4], q1r[4], negq2[4];
  eq_quat(m, d, eq, 0, q1);
  eq_quat(m, d, eq, 1, q2);
  if (m->eq_objtype[eq] == mjOBJ_SITE) {
    mju_copy4(q1r, q1);
  } else {
    mju_mulQuat(q1r, q1, data + 6);
  }
  mju_negQuat(negq2, q2);
  for (int k = 0; k < 3; k++) {
    mjtNum axis[3] = {0, 0, 0}, qa[4], qb[4];
    axis[k] = 1;
    mju_mulQuatAxis(qa, negq2, axis);
    mju_mulQuat(qb, qa, q1r);
    torque[k] = 0.5 * data[10] * mju_dot3(qb + 1, frot);
  }
}

/* one connect (3 rows) or weld (6 rows) starting at efc row i */
static void external_equality(const mjModel* m, mjData* d, int eq, int i) {
  const mjtNum* data = m->eq_data + mjNEQDATA * eq;
  const mjtNum* f = d->efc_force + i;
  int weld = m->eq_type[eq] == mjEQ_WELD;
  mjtNum p1[3], p2[3], torque[3];

  // anchors: connect (anchor1, anchor2); weld (relpos on body 1, anchor on body 2)
  int b1 = eq_anchor(m, d, eq, 0, weld ? data + 3 : data, p1);
  int b2 = eq_anchor(m, d, eq, 1, weld ? data : data + 3, p2);

  // translation rows pull body 1 at p1, body 2 back at p2; weld rotation rows: torques
  if (weld) {
    weld_torque(m, d, eq, f + 3, torque);
  }
  add_external(m, d, b1, f, weld ? torque : NULL, p1, 1);
  add_external(m, d, b2, f, weld ? torque : NULL, p2, -1);
}

/* connect and weld constraint forces, from their constraint rows */
static void external_equalities(const mjModel* m, mjData* d) {
  int i = 0;
  while (i < d->nefc) {
    int eq = d->efc_id[i];
    int type = d->efc_type[i] == mjCNSTR_EQUALITY ? m->eq_type[eq] : -1;
    if (type == mjEQ_CONNECT || type == mjEQ_WELD) {
      external_equality(m, d, eq, i);
      i += type == mjEQ_WELD ? 6 : 3;
    } else {
      i++;
    }
  }
}

/* cfrc_ext: applied, contact and equality forces */
static void external_forces(const mjModel* m, mjData* d) {
  mju_zero(d->cfrc_ext, 6 * m->nbody);

  // xfrc_applied at each body's com
  for (int b = 1; b < m->nbody; b++) {
    const mjtNum* xfrc = d->xfrc_applied + 6 * b;
    if (!mju_isZero(xfrc, 6)) {
      add_external(m, d, b, xfrc, xfrc + 3, d->xipos + 3 * b, 1);
    }
  }
  external_contacts(m, d);
  external_equalities(m, d);
}

/* cacc: accelerations from qvel and qacc, the world accelerating against gravity */
static void body_accelerations(const mjModel* m, mjData* d) {
  mju_zero(d->cacc, 6);
  if (!(m->opt.disableflags & mjDSBL_GRAVITY)) {
    mju_scl3(d->cacc + 3, m->opt.gravity, -1);
  }
  for (int b = 1; b < m->nbody; b++) {
    int dofadr = m->body_dofadr[b], dofnum = m->body_dofnum[b];
    mjtNum* acc = d->cacc + 6 * b;
    mjtNum tmp[6];

    // cacc = cacc_parent + cdof_dot * qvel + cdof * qacc
    mul_dof_vec(tmp, d->cdof_dot + 6 * dofadr, d->qvel + dofadr, dofnum);
    copy6(acc, d->cacc + 6 * m->body_parentid[b]);
    add_to6(acc, tmp);
    mul_dof_vec(tmp, d->cdof + 6 * dofadr, d->qacc + dofadr, dofnum);
    add_to6(acc, tmp);
  }
}

/* cfrc_int: I a + v x* (I v) - cfrc_ext, accumulated from the leaves into the world */
static void internal_forces(const mjModel* m, mjData* d) {
  mju_zero(d->cfrc_int, 6);
  for (int b = 1; b < m->nbody; b++) {
    const mjtNum* cinert = d->cinert + 10 * b;
    const mjtNum* cvel = d->cvel + 6 * b;
    mjtNum* frc = d->cfrc_int + 6 * b;
    mjtNum tmp[6], tmp1[6];
    tn_mulInertVec(frc, cinert, d->cacc + 6 * b);
    tn_mulInertVec(tmp, cinert, cvel);
    tn_crossForce(tmp1, cvel, tmp);
    add_to6(frc, tmp1);
    mju_subFrom(frc, d->cfrc_ext + 6 * b, 6);
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    add_to6(d->cfrc_int + 6 * m->body_parentid[b], d->cfrc_int + 6 * b);
  }
}

/* body accelerations and interaction forces after the constraint solve */
void mj_rnePostConstraint(const mjModel* m, mjData* d) {
  external_forces(m, d);
  body_accelerations(m, d);
  internal_forces(m, d);
}
