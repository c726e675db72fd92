/* smooth/transmission.c — actuator lengths and moment arms (mj_transmission).
 *
 * Every actuator acts through a transmission with a scalar length l(q) and a moment-arm
 * vector dl/dq, stored as MuJoCo 3.14 stores it: sparse rows (d->moment_rownnz, rowadr,
 * colind, actuator_moment; nJmom entries in all, the bound the compiler sizes with
 * tn__momentBound). Joint rows hold the joint's dofs and tendon rows a copy of the tendon's
 * sparse Jacobian row on its static pattern (explicit zeros included); site, slider-crank
 * and body rows are computed dense and keep their non-zero entries, in column order. Joint
 * transmissions scale the joint coordinate by the gear (3D or 6D gears for ball and free
 * joints, expressed in the child frame, or in the parent frame for jointinparent; a free
 * joint's length is zero, as in MuJoCo); tendon transmissions scale the tendon length and Jacobian.
 * Site transmissions apply the gear as a wrench in the site frame (length zero), or with a refsite
 * measure the site's position and rotation relative to it. Slider-crank transmissions take the
 * slider's travel from the crank rod geometry. Body transmissions (adhesion) average the normal
 * Jacobians of the body's contacts, so they run after collision and constraint
 * construction. */

#include <math.h>
#include <string.h>

#include <torsion/torsion.h>

#include "smooth/smooth.h"

/* rotational part of a ball/free joint: length from the quaternion's rotation vector,
 * moment arm = gear axis (rotated into the child frame for jointinparent) */
static mjtNum rotational_gear(mjtNum moment[3], const mjtNum qpos[4], const mjtNum gear[3],
                              int inparent) {
  mjtNum quat[4], axis[3], gearaxis[3];

  // rotation vector of the normalized joint quaternion
  mju_copy4(quat, qpos);
  mju_normalize4(quat);
  mju_quat2Vel(axis, quat, 1);

  // gear axis in the child frame
  if (inparent) {
    mjtNum qinv[4];
    mju_negQuat(qinv, quat);
    mju_rotVecQuat(gearaxis, gear, qinv);
  } else {
    mju_copy3(gearaxis, gear);
  }

  mju_copy3(moment, gearaxis);
  return mju_dot3(axis, gearaxis);
}

/* joint and jointinparent transmissions: the joint's dofs, in order, at address adr */
static int joint_transmission(const mjModel* m, mjData* d, int i, int adr) {
  int jnt = m->actuator_trnid[2*i];
  int qadr = m->jnt_qposadr[jnt], dadr = m->jnt_dofadr[jnt];
  int inparent = (m->actuator_trntype[i] == mjTRN_JOINTINPARENT);
  const mjtNum* gear = m->actuator_gear + 6*i;
  mjtNum* moment = d->actuator_moment + adr;
  int* colind = d->moment_colind + adr;
  int nnz;

  switch (m->jnt_type[jnt]) {
    case mjJNT_SLIDE:
    case mjJNT_HINGE:
      // scalar joint: gear times the coordinate
      d->actuator_length[i] = d->qpos[qadr] * gear[0];
      moment[0] = gear[0];
      nnz = 1;
      break;

    case mjJNT_BALL:
      // ball joint: 3D gear on the rotation vector
      d->actuator_length[i] = rotational_gear(moment, d->qpos + qadr, gear, inparent);
      nnz = 3;
      break;

    default:
      // free joint: 6D gear on the translation and rotation dofs, length fixed at zero
      d->actuator_length[i] = 0;
      mju_copy3(moment, gear);
      rotational_gear(moment + 3, d->qpos + qadr + 3, gear + 3, inparent);
      nnz = 6;
      break;
  }
  for (int k = 0; k < nnz; k++) {
    colind[k] = dadr + k;
  }
  return nnz;
}

/* add the dofs moving body b (its own and its ancestors') to cols, once each */
static int mark_chain(const mjModel* m, int b, int* cols, int n, int* mark) {
  for (; b > 0; b = m->body_parentid[b]) {
    int adr = m->body_dofadr[b], num = m->body_dofnum[b];
    for (int k = adr; k < adr + num; k++) {
      if (!mark[k]) {
        mark[k] = 1;
        cols[n++] = k;
      }
    }
  }
  return n;
}

/* clear the marks of cols and sort them ascending (insertion sort: short lists) */
static void finish_cols(int* cols, int n, int* mark) {
  for (int k = 0; k < n; k++) {
    mark[cols[k]] = 0;
  }
  for (int k = 1; k < n; k++) {
    int c = cols[k], j = k - 1;
    for (; j >= 0 && cols[j] > c; j--) {
      cols[j + 1] = cols[j];
    }
    cols[j + 1] = c;
  }
}

int tn__tendonPattern(const mjModel* m, int t, int* cols, int* mark) {
  int adr = m->tendon_adr[t], num = m->tendon_num[t], n = 0;
  for (int w = adr; w < adr + num; w++) {
    int obj = m->wrap_objid[w];
    switch (m->wrap_type[w]) {
      case mjWRAP_JOINT: {
        int dof = m->jnt_dofadr[obj];
        if (!mark[dof]) {
          mark[dof] = 1;
          cols[n++] = dof;
        }
        break;
      }
      case mjWRAP_SITE: n = mark_chain(m, m->site_bodyid[obj], cols, n, mark); break;
      case mjWRAP_SPHERE:
      case mjWRAP_CYLINDER: n = mark_chain(m, m->geom_bodyid[obj], cols, n, mark); break;
      default: break;
    }
  }
  finish_cols(cols, n, mark);
  return n;
}

/* tendon transmission: gear times tendon length, and the tendon's sparse Jacobian row
 * (its pattern, repeated dofs of a fixed tendon included, as MuJoCo copies it) */
static int tendon_transmission(const mjModel* m, mjData* d, int i, int adr, int room) {
  int ten = m->actuator_trnid[2*i];
  mjtNum gear = m->actuator_gear[6*i];
  int jadr = m->ten_J_rowadr[ten], nnz = m->ten_J_rownnz[ten];

  d->actuator_length[i] = d->ten_length[ten] * gear;
  if (nnz > room) {
    return 0;
  }
  for (int k = 0; k < nnz; k++) {
    d->moment_colind[adr + k] = m->ten_J_colind[jadr + k];
    d->actuator_moment[adr + k] = d->ten_J[jadr + k] * gear;
  }
  return nnz;
}

/* site transmission without refsite: gear as a wrench in the site frame (dense row); the
 * site's Jacobians are read only (actuators at one site share them), tmp is nv scratch */
static void site_wrench(const mjModel* m, mjData* d, int i, const mjtNum* jac,
                        const mjtNum* jacr, mjtNum* tmp, mjtNum* moment) {
  int nv = m->nv, id = m->actuator_trnid[2*i];
  const mjtNum* gear = m->actuator_gear + 6*i;
  const mjtNum* xmat = d->site_xmat + 9*id;
  mjtNum wrench[6];

  // wrench in the world frame
  mju_mulMatVec3(wrench, xmat, gear);
  mju_mulMatVec3(wrench + 3, xmat, gear + 3);

  // moment: translational and rotational Jacobians projected on the wrench
  mju_mulMatTVec(moment, jac, wrench, 3, nv);
  mju_mulMatTVec(tmp, jacr, wrench + 3, 3, nv);
  mju_addTo(moment, tmp, nv);
  d->actuator_length[i] = 0;
}

/* the deepest dof shared by the kinematic chains of two sites, -1 if none */
static int common_dof(const mjModel* m, int site0, int site1) {
  int b0 = m->body_weldid[m->site_bodyid[site0]], b1 = m->body_weldid[m->site_bodyid[site1]];
  int dof0 = m->body_dofadr[b0] + m->body_dofnum[b0] - 1;
  int dof1 = m->body_dofadr[b1] + m->body_dofnum[b1] - 1;
  if (dof0 < 0 || dof1 < 0) {
    return -1;
  }

  // walk up from the deeper dof until the chains meet or one ends
  while (dof0 != dof1) {
    if (dof0 < dof1) {
      dof1 = m->dof_parentid[dof1];
    } else {
      dof0 = m->dof_parentid[dof0];
    }
    if (dof0 == -1 || dof1 == -1) {
      return -1;
    }
  }
  return dof0;
}

/* zero the columns of a 3 x nv Jacobian for a dof and its ancestors: motion shared by both
 * sites moves the reference frame with the site */
static void clear_common(const mjModel* m, mjtNum* jac, int dof) {
  int nv = m->nv;
  for (; dof >= 0; dof = m->dof_parentid[dof]) {
    jac[dof] = jac[nv + dof] = jac[2*nv + dof] = 0;
  }
}

/* site transmission with refsite: the site's pose relative to the reference site (dense
 * row) */
static void site_relative(const mjModel* m, mjData* d, int i, mjtNum* jac, mjtNum* jacr,
                          mjtNum* jacref, mjtNum* tmp, mjtNum* moment) {
  int nv = m->nv, id = m->actuator_trnid[2*i], ref = m->actuator_trnid[2*i + 1];
  const mjtNum* gear = m->actuator_gear + 6*i;
  const mjtNum* refmat = d->site_xmat + 9*ref;
  mjtNum dif[3], vec[3], wrench[3];

  int common = common_dof(m, id, ref);
  mju_zero(moment, nv);
  d->actuator_length[i] = 0;

  // translation: site position in the refsite frame
  if (!mju_isZero(gear, 3)) {
    mju_sub3(dif, d->site_xpos + 3*id, d->site_xpos + 3*ref);
    mju_mulMatTVec3(vec, refmat, dif);
    d->actuator_length[i] += mju_dot3(vec, gear);

    // relative Jacobian projected on the gear in the world frame
    mj_jacSite(m, d, jacref, NULL, ref);
    mju_subFrom(jac, jacref, 3*nv);
    clear_common(m, jac, common);
    mju_mulMatVec3(wrench, refmat, gear);
    mju_mulMatTVec(moment, jac, wrench, 3, nv);
  }

  // rotation: rotation vector between the two site orientations
  if (!mju_isZero(gear + 3, 3)) {
    mjtNum quat[4], refquat[4];

    // orientations composed as MuJoCo composes them (site_quat first)
    mju_mulQuat(quat, m->site_quat + 4*id, d->xquat + 4*m->site_bodyid[id]);
    mju_mulQuat(refquat, m->site_quat + 4*ref, d->xquat + 4*m->site_bodyid[ref]);
    mju_subQuat(vec, quat, refquat);
    d->actuator_length[i] += mju_dot3(vec, gear + 3);

    // relative rotational Jacobian projected on the gear in the world frame
    mj_jacSite(m, d, NULL, jacref, ref);
    mju_subFrom(jacr, jacref, 3*nv);
    clear_common(m, jacr, common);
    mju_mulMatVec3(wrench, refmat, gear + 3);
    mju_mulMatTVec(tmp, jacr, wrench, 3, nv);
    mju_addTo(moment, tmp, nv);
  }
}

/* slider-crank: slider travel from the crank pin position and the rod length (dense row) */
static void slider_crank(const mjModel* m, mjData* d, int i, mjtNum* jac, mjtNum* jacp,
                         mjtNum* jacaxis, mjtNum* moment) {
  int nv = m->nv, crank = m->actuator_trnid[2*i], slider = m->actuator_trnid[2*i + 1];
  mjtNum gear = m->actuator_gear[6*i], rod = m->actuator_cranklength[i];
  const mjtNum* smat = d->site_xmat + 9*slider;
  mjtNum axis[3] = {smat[2], smat[5], smat[8]}, vec[3], dlda[3], dldv[3];

  // length = a'v - sqrt((a'v)^2 + r^2 - v'v), v from slider to crank pin, a the slider axis
  mju_sub3(vec, d->site_xpos + 3*crank, d->site_xpos + 3*slider);
  mjtNum av = mju_dot3(vec, axis);
  mjtNum det = av*av + rod*rod - mju_dot3(vec, vec);
  mjtNum length;
  if (det <= 0) {
    // rod too short: degenerate length and derivatives
    length = av;
    mju_copy3(dlda, vec);
    mju_copy3(dldv, axis);
  } else {
    mjtNum sdet = sqrt(det);
    length = av - sdet;

    // derivatives with respect to v and a
    mjtNum tmp[3];
    mju_scl(dldv, axis, 1 - av/sdet, 3);
    mju_scl(tmp, vec, 1/sdet, 3);
    mju_addTo(dldv, tmp, 3);
    mju_scl(dlda, vec, 1 - av/sdet, 3);
  }

  // Jacobians of the slider axis and of v
  mjtNum* jacr = jac;  // the rotational Jacobian of the slider body, then v's Jacobian
  mj_jac(m, d, jacp, jacr, d->site_xpos + 3*slider, m->site_bodyid[slider]);
  for (int j = 0; j < nv; j++) {
    mjtNum col[3] = {jacr[j], jacr[nv + j], jacr[2*nv + j]}, cross[3];
    mju_cross(cross, col, axis);
    jacaxis[j] = cross[0];
    jacaxis[nv + j] = cross[1];
    jacaxis[2*nv + j] = cross[2];
  }
  mj_jacSite(m, d, jac, NULL, crank);
  mju_subFrom(jac, jacp, 3*nv);

  // chain rule, then the gear
  mju_zero(moment, nv);
  for (int j = 0; j < nv; j++) {
    for (int k = 0; k < 3; k++) {
      moment[j] += dlda[k]*jacaxis[k*nv + j] + dldv[k]*jac[k*nv + j];
    }
  }
  d->actuator_length[i] = length * gear;
  for (int j = 0; j < nv; j++) {
    moment[j] *= gear;
  }
}

/* body transmission (adhesion): minus the average normal Jacobian of the body's contacts;
 * active contacts through their efc rows, contacts excluded by the gap directly (dense row) */
static void body_contacts(const mjModel* m, mjData* d, int i, mjtNum* weight, mjtNum* excluded,
                          mjtNum* jac1, mjtNum* jac2, mjtNum* moment) {
  int nv = m->nv, body = m->actuator_trnid[2*i];

  mju_zero(moment, nv);
  mju_zero(weight, d->nefc);
  mju_zero(excluded, nv);
  d->actuator_length[i] = 0;

  int count = 0;
  for (int c = 0; c < d->ncon; c++) {
    const mjContact* con = d->contact + c;
    if (con->geom[0] < 0 || con->geom[1] < 0) {
      continue;
    }
    int b1 = m->geom_bodyid[con->geom[0]], b2 = m->geom_bodyid[con->geom[1]];
    if (b1 != body && b2 != body) {
      continue;
    }

    // active contact: weights on its normal row(s)
    if (!con->exclude) {
      count++;
      if (con->dim == 1 || m->opt.cone == mjCONE_ELLIPTIC) {
        weight[con->efc_address] = 1;
      } else {
        int npyramid = con->dim - 1;
        for (int k = 0; k < 2*npyramid; k++) {
          weight[con->efc_address + k] = 0.5/npyramid;
        }
      }
    }

    // contact in the gap: normal projection of the relative point Jacobian
    else if (con->exclude == 1) {
      count++;
      mj_jac(m, d, jac1, NULL, con->pos, b1);
      mj_jac(m, d, jac2, NULL, con->pos, b2);
      mju_subFrom(jac2, jac1, 3*nv);
      for (int j = 0; j < nv; j++) {
        excluded[j] += con->frame[0]*jac2[j] + con->frame[1]*jac2[nv + j] +
                       con->frame[2]*jac2[2*nv + j];
      }
    }
  }

  // average, negative (adhesion pulls)
  if (count) {
    mj_mulJacTVec(m, d, moment, weight);
    mju_addTo(moment, excluded, nv);
    mju_scl(moment, moment, -1.0/count, nv);
  }
}

/* the non-zero entries of a dense row, in column order, as row i at address adr (at most
 * room of them: the row's share of nJmom, which only non-finite values could exceed) */
static int compress_row(mjData* d, int adr, const mjtNum* dense, int nv, int room) {
  int nnz = 0;
  for (int j = 0; j < nv && nnz < room; j++) {
    if (dense[j] != 0) {
      d->actuator_moment[adr + nnz] = dense[j];
      d->moment_colind[adr + nnz] = j;
      nnz++;
    }
  }
  return nnz;
}

/* number of dofs of joint j */
static inline int joint_bound(const mjModel* m, int j) {
  return m->jnt_type[j] == mjJNT_FREE ? 6 : m->jnt_type[j] == mjJNT_BALL ? 3 : 1;
}

int tn__momentBound(const mjModel* m, int i, int* cols, int* mark) {
  int id = m->actuator_trnid[2*i], id1 = m->actuator_trnid[2*i + 1], n;
  switch (m->actuator_trntype[i]) {
    case mjTRN_JOINT:
    case mjTRN_JOINTINPARENT: return joint_bound(m, id);

    case mjTRN_TENDON: return m->ten_J_rownnz[id];

    case mjTRN_SLIDERCRANK:
      // dofs moving the crank site or the slider site
      n = mark_chain(m, m->site_bodyid[id], cols, 0, mark);
      n = mark_chain(m, m->site_bodyid[id1], cols, n, mark);
      finish_cols(cols, n, mark);
      return n;

    case mjTRN_SITE:
      // dofs moving the site or its refsite, less those moving both frames together
      n = mark_chain(m, m->site_bodyid[id], cols, 0, mark);
      if (id1 >= 0) {
        n = mark_chain(m, m->site_bodyid[id1], cols, n, mark);
      }
      finish_cols(cols, n, mark);
      if (id1 >= 0) {
        for (int dof = common_dof(m, id, id1); dof >= 0; dof = m->dof_parentid[dof]) {
          n--;
        }
      }
      return n;

    default:
      // body transmissions (contacts with anything) and unknown types: a full row
      return m->nv;
  }
}

/* scratch of the transmissions computed as dense rows: three 3 x nv Jacobians, two rows
 * and the efc weights of body transmissions (taken from the arena at the first of them) */
typedef struct {
  mjtNum *jac, *jacr, *jac3, *row, *dense, *weight;
} trn_scratch;

/* take the scratch unless already taken (opening an arena frame); 0 when out of room */
static int scratch_take(const mjModel* m, mjData* d, trn_scratch* s) {
  if (s->jac) {
    return 1;
  }
  size_t nv = (size_t)m->nv;
  mj_markStack(d);
  s->jac = mj_stackAllocNum(d, 3*nv + 1);
  s->jacr = mj_stackAllocNum(d, 3*nv + 1);
  s->jac3 = mj_stackAllocNum(d, 3*nv + 1);
  s->row = mj_stackAllocNum(d, nv + 1);
  s->dense = mj_stackAllocNum(d, nv + 1);
  s->weight = mj_stackAllocNum(d, (size_t)d->nefc + 1);
  if (!s->jac || !s->jacr || !s->jac3 || !s->row || !s->dense || !s->weight) {
    mj_freeStack(d);
    s->jac = NULL;
    return 0;
  }
  return 1;
}

/* actuator lengths and moment arms */
void mj_transmission(const mjModel* m, mjData* d) {
  int nv = m->nv, nu = m->nu;
  int reported = 0;

  // clear lengths; every row is rewritten
  mju_zero(d->actuator_length, nu);
  if (!nu) {
    return;
  }

  // joint and tendon rows need no scratch; the dense ones take it when first met
  trn_scratch s = {0};
  int adr = 0;
  int jac_site = -1;  // the site whose Jacobians s.jac and s.jacr hold, -1: none
  for (int i = 0; i < nu; i++) {
    int nnz = 0, room = (int)m->nJmom - adr;
    d->moment_rowadr[i] = adr;
    switch (m->actuator_trntype[i]) {
      case mjTRN_JOINT:
      case mjTRN_JOINTINPARENT:
        // the joint's dofs, when they fit
        if (room >= 6 || joint_bound(m, m->actuator_trnid[2*i]) <= room) {
          nnz = joint_transmission(m, d, i, adr);
        }
        break;

      case mjTRN_TENDON: nnz = tendon_transmission(m, d, i, adr, room); break;

      case mjTRN_SITE:
        if (!scratch_take(m, d, &s)) {
          return;
        }
        // the site's Jacobians once for consecutive actuators at the same site (a drone's
        // thrust and three moments); the refsite case and the other dense rows reuse the
        // scratch
        if (jac_site != m->actuator_trnid[2*i]) {
          jac_site = m->actuator_trnid[2*i];
          mj_jacSite(m, d, s.jac, s.jacr, jac_site);
        }
        if (m->actuator_trnid[2*i + 1] < 0) {
          site_wrench(m, d, i, s.jac, s.jacr, s.row, s.dense);
        } else {
          site_relative(m, d, i, s.jac, s.jacr, s.jac3, s.row, s.dense);
          jac_site = -1;
        }
        nnz = compress_row(d, adr, s.dense, nv, room);
        break;

      case mjTRN_SLIDERCRANK:
        if (!scratch_take(m, d, &s)) {
          return;
        }
        slider_crank(m, d, i, s.jac, s.jacr, s.jac3, s.dense);
        jac_site = -1;
        nnz = compress_row(d, adr, s.dense, nv, room);
        break;

      case mjTRN_BODY:
        if (!scratch_take(m, d, &s)) {
          return;
        }
        body_contacts(m, d, i, s.weight, s.row, s.jac, s.jacr, s.dense);
        jac_site = -1;
        nnz = compress_row(d, adr, s.dense, nv, room);
        break;

      default:
        // unsupported transmission: report once, leave length zero and the row empty
        if (!reported) {
          mju_error("mj_transmission: transmission type %d (actuator %d) not implemented "
                    "yet", m->actuator_trntype[i], i);
          reported = 1;
        }
    }
    d->moment_rownnz[i] = nnz;
    adr += nnz;
  }
  if (s.jac) {
    mj_freeStack(d);
  }
}
