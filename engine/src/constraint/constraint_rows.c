/* constraint/constraint_rows.c — mj_makeConstraint: the scalar constraint rows.
 *
 * Rows are ordered by type — equality, friction loss, limit, contact — and by model element
 * within a type (MuJoCo's order). Every instantiation function runs twice: a counting pass
 * (rows and sparse non-zeros, so the efc arrays can be allocated exactly from the arena)
 * and a filling pass. A row's Jacobian is built on the chain of dofs that can move it, then
 * stored densely or sparsely by tn__addRows. Impedance and regularization follow in
 * constraint_impedance.c. */
#include <string.h>

#include "constraint/constraint.h"
#include "smooth/smooth.h"
#include "util/util_inline.h"

/* ---------------------------------------------------------------------------------------
 * Row storage
 * ------------------------------------------------------------------------------------- */

/* append rows; in the counting pass (efc_type == NULL) only sizes are accumulated */
void tn__addRows(const mjModel* m, mjData* d, const mjtNum* jac, const int* chain, int n,
                 const mjtNum* pos, mjtNum margin, mjtNum frictionloss, int size, int type,
                 int id) {
  int nv = m->nv, sparse = is_sparse(m);

  // counting pass
  if (!d->efc_type) {
    d->nefc += size;
    d->nJ += sparse ? size * (chain ? n : nv) : size * nv;
    return;
  }

  for (int r = 0; r < size; r++) {
    int row = d->nefc + r;
    const mjtNum* src = jac + (size_t)r * (chain ? n : nv);

    // descriptors
    d->efc_type[row] = type;
    d->efc_id[row] = id;
    d->efc_pos[row] = pos ? pos[r] : 0;
    d->efc_margin[row] = margin;
    d->efc_frictionloss[row] = frictionloss;

    // sparse: values at the chain's dofs
    if (sparse) {
      int adr = d->nJ, cnt = chain ? n : nv;
      d->efc_J_rownnz[row] = cnt;
      d->efc_J_rowadr[row] = adr;
      for (int k = 0; k < cnt; k++) {
        d->efc_J_colind[adr + k] = chain ? chain[k] : k;
      }
      mju_copy(d->efc_J + adr, src, cnt);
      d->nJ += cnt;
    }

    // dense: scatter into a cleared row
    else {
      mjtNum* dst = d->efc_J + (size_t)row * nv;
      if (chain) {
        mju_zero(dst, nv);
        for (int k = 0; k < n; k++) {
          dst[chain[k]] = src[k];
        }
      } else {
        mju_copy(dst, src, nv);
      }
    }
  }
  d->nefc += size;
}

/* dofs with a non-zero entry in tendon t's structure: its joints, or the chains of the
 * bodies its path visits; ascending */
static int tendon_chain(const mjModel* m, const mjData* d, int t, int* chain, int* mark) {
  int nv = m->nv, n = 0;

  // mark every dof with a non-zero moment, and every dof a path body moves
  memset(mark, 0, sizeof(int) * (size_t)nv);
  for (int k = m->ten_J_rowadr[t]; k < m->ten_J_rowadr[t] + m->ten_J_rownnz[t]; k++) {
    if (d->ten_J[k] != 0) {
      mark[m->ten_J_colind[k]] = 1;
    }
  }
  int adr = m->tendon_adr[t], num = m->tendon_num[t];
  for (int w = adr; w < adr + num; w++) {
    int type = m->wrap_type[w], obj = m->wrap_objid[w], body = -1;
    if (type == mjWRAP_JOINT) {
      int j = obj, dof = m->jnt_dofadr[j];
      mark[dof] = 1;
    } else if (type == mjWRAP_SITE) {
      body = m->site_bodyid[obj];
    } else if (type == mjWRAP_SPHERE || type == mjWRAP_CYLINDER) {
      body = m->geom_bodyid[obj];
    }
    if (body > 0) {
      int b = body;
      while (b > 0 && m->body_dofnum[b] == 0) {
        b = m->body_parentid[b];
      }
      for (int i = b > 0 ? m->body_dofadr[b] + m->body_dofnum[b] - 1 : -1; i >= 0;
           i = m->dof_parentid[i]) {
        mark[i] = 1;
      }
    }
  }

  // collect in order
  for (int i = 0; i < nv; i++) {
    if (mark[i]) {
      chain[n++] = i;
    }
  }
  return n;
}

/* gather tendon t's Jacobian at the chain's dofs (ascending), scaled: each dof takes the
 * first of its sparse entries, zero off the pattern */
static void tendon_jac(const mjModel* m, const mjData* d, int t, const int* chain, int n,
                       mjtNum scl, mjtNum* jac) {
  int adr = m->ten_J_rowadr[t], end = adr + m->ten_J_rownnz[t], p = adr;
  for (int k = 0; k < n; k++) {
    while (p < end && m->ten_J_colind[p] < chain[k]) {
      p++;
    }
    jac[k] = scl * (p < end && m->ten_J_colind[p] == chain[k] ? d->ten_J[p] : 0);
  }
}

/* ---------------------------------------------------------------------------------------
 * Friction loss
 * ------------------------------------------------------------------------------------- */

/* dof and tendon friction loss rows */
static void instantiate_friction(const mjModel* m, mjData* d) {
  if (TN_CDISABLED(m, mjDSBL_FRICTIONLOSS)) {
    return;
  }
  mj_markStack(d);
  int* chain = mj_stackAllocInt(d, (size_t)m->nv);
  int* mark = mj_stackAllocInt(d, (size_t)m->nv);
  mjtNum* jac = mj_stackAllocNum(d, (size_t)m->nv);

  // dofs: unit row
  for (int i = 0; i < m->nv; i++) {
    if (m->dof_frictionloss[i] > 0) {
      mjtNum one = 1;
      tn__addRows(m, d, &one, &i, 1, NULL, 0, m->dof_frictionloss[i], 1, mjCNSTR_FRICTION_DOF, i);
    }
  }

  // tendons: the tendon's Jacobian
  for (int t = 0; t < m->ntendon; t++) {
    if (m->tendon_frictionloss[t] > 0) {
      int n = tendon_chain(m, d, t, chain, mark);
      tendon_jac(m, d, t, chain, n, 1, jac);
      tn__addRows(m, d, jac, chain, n, NULL, 0, m->tendon_frictionloss[t], 1,
                  mjCNSTR_FRICTION_TENDON, t);
    }
  }
  mj_freeStack(d);
}

/* ---------------------------------------------------------------------------------------
 * Limits
 * ------------------------------------------------------------------------------------- */

/* one scalar joint's lower and upper limit rows */
static void limit_scalar(const mjModel* m, mjData* d, int j) {
  mjtNum value = d->qpos[m->jnt_qposadr[j]], margin = m->jnt_margin[j];
  int dof = m->jnt_dofadr[j];

  // lower side (-1), then upper side (+1)
  for (int side = -1; side <= 1; side += 2) {
    mjtNum dist = side * (m->jnt_range[2 * j + (side + 1) / 2] - value);
    if (dist < margin) {
      mjtNum jac = -side;
      tn__addRows(m, d, &jac, &dof, 1, &dist, margin, 0, 1, mjCNSTR_LIMIT_JOINT, j);
    }
  }
}

/* a ball joint's rotation-angle limit row */
static void limit_ball(const mjModel* m, mjData* d, int j) {
  mjtNum quat[4], axis[3], margin = m->jnt_margin[j];
  int dof = m->jnt_dofadr[j];

  // rotation angle and axis of the normalized joint quaternion
  mju_copy4(quat, d->qpos + m->jnt_qposadr[j]);
  mju_normalize4(quat);
  mju_quat2Vel(axis, quat, 1);
  mjtNum angle = mju_normalize3(axis);

  // distance to the larger range value
  mjtNum value = mju_max(m->jnt_range[2 * j], m->jnt_range[2 * j + 1]);
  mjtNum dist = value - angle;
  if (dist < margin) {
    int chain[3] = {dof, dof + 1, dof + 2};
    mjtNum jac[3] = {-axis[0], -axis[1], -axis[2]};
    tn__addRows(m, d, jac, chain, 3, &dist, margin, 0, 1, mjCNSTR_LIMIT_JOINT, j);
  }
}

/* one tendon's lower and upper limit rows */
static void limit_tendon(const mjModel* m, mjData* d, int t, int* chain, int* mark, mjtNum* jac) {
  mjtNum value = d->ten_length[t], margin = m->tendon_margin[t];
  int n = -1;

  // lower side (-1), then upper side (+1)
  for (int side = -1; side <= 1; side += 2) {
    mjtNum dist = side * (m->tendon_range[2 * t + (side + 1) / 2] - value);
    if (dist < margin) {
      if (n < 0) {
        n = tendon_chain(m, d, t, chain, mark);
      }
      tendon_jac(m, d, t, chain, n, -side, jac);
      tn__addRows(m, d, jac, chain, n, &dist, margin, 0, 1, mjCNSTR_LIMIT_TENDON, t);
    }
  }
}

/* what the counting pass found, so that the filling pass visits only what makes rows: the
 * friction and limit rows counted, the first and last joint with a limit row (njnt, -1:
 * none) and the tendon limit rows */
typedef struct rowScan_ {
  int nf, nl;
  int jfirst, jlast;
  int ntendon_limit;
} rowScan;

/* joint and tendon limit rows (counting pass: scan records where they are) */
static void instantiate_limit(const mjModel* m, mjData* d, rowScan* scan) {
  if (TN_CDISABLED(m, mjDSBL_LIMIT)) {
    return;
  }
  int counting = !d->efc_type;

  // joints (filling: only those between the first and last that counted a row)
  int jbegin = counting ? 0 : scan->jfirst, jend = counting ? m->njnt : scan->jlast + 1;
  for (int j = jbegin; j < jend; j++) {
    if (!m->jnt_limited[j]) {
      continue;
    }
    int type = m->jnt_type[j], before = d->nefc;
    if (type == mjJNT_SLIDE || type == mjJNT_HINGE) {
      limit_scalar(m, d, j);
    } else if (type == mjJNT_BALL) {
      limit_ball(m, d, j);
    }
    if (counting && d->nefc > before) {
      scan->jfirst = j < scan->jfirst ? j : scan->jfirst;
      scan->jlast = j;
    }
  }

  // tendons
  int before = d->nefc;
  if (m->ntendon && (counting || scan->ntendon_limit)) {
    mj_markStack(d);
    int* chain = mj_stackAllocInt(d, (size_t)m->nv);
    int* mark = mj_stackAllocInt(d, (size_t)m->nv);
    mjtNum* jac = mj_stackAllocNum(d, (size_t)m->nv);
    for (int t = 0; t < m->ntendon; t++) {
      if (m->tendon_limited[t]) {
        limit_tendon(m, d, t, chain, mark, jac);
      }
    }
    mj_freeStack(d);
  }
  if (counting) {
    scan->ntendon_limit = d->nefc - before;
  }
}

/* ---------------------------------------------------------------------------------------
 * Contacts
 * ------------------------------------------------------------------------------------- */

/* frame row f times a 3-vector, summed as mju_mulMatMat sums it (from +0, skipping zero
 * frame entries, in column order) */
static inline mjtNum frame_dot(const mjtNum f[3], const mjtNum v[3]) {
  mjtNum s = 0;
  if (f[0] != 0) {
    s += v[0] * f[0];
  }
  if (f[1] != 0) {
    s += v[1] * f[1];
  }
  if (f[2] != 0) {
    s += v[2] * f[2];
  }
  return s;
}

/* out[k] = frame row f times (x[k], y[k], z[k]) for the n dofs, each summed as frame_dot
 * sums it: the frame's zero entries are the same for every dof, so four dofs go in one
 * vector with the same terms skipped */
static inline void frame_row(mjtNum* out, const mjtNum f[3], const mjtNum* x, const mjtNum* y,
                             const mjtNum* z, int n) {
  mjtNum f0 = f[0], f1 = f[1], f2 = f[2];
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    tn_vec4 s = {0, 0, 0, 0};
    if (f0 != 0) {
      s += *(const tn_vec4*)(x + k) * f0;
    }
    if (f1 != 0) {
      s += *(const tn_vec4*)(y + k) * f1;
    }
    if (f2 != 0) {
      s += *(const tn_vec4*)(z + k) * f2;
    }
    *(tn_vec4*)(out + k) = s;
  }
  for (; k < n; k++) {
    mjtNum v[3] = {x[k], y[k], z[k]};
    out[k] = frame_dot(f, v);
  }
}

/* contact rows in the contact frame: dif = J(body2) - J(body1) at the contact point, then
 * rows n, t1, t2 (translation) and spin, roll1, roll2 (rotation) of frame * dif. Each
 * distinct chain dof moves one body only, so its column of dif is that body's column, or
 * +0 minus it (the subtraction of the other body's cleared entry, kept for the bits). The
 * columns of dif go to dif (six rows of n: translation x, y, z, rotation x, y, z) first */
TN_CLONE_AVX2
static void contact_frame_jac(const mjModel* m, const mjData* d, const mjContact* con,
                              const int* chain, const int* side, int n, mjtNum* frm,
                              mjtNum* dif) {
  int b1 = m->geom_bodyid[con->geom[0]], b2 = m->geom_bodyid[con->geom[1]];
  int rot = con->dim > 3;
  const mjtNum* f = con->frame;

  // the contact point relative to each body's tree com
  mjtNum offset[2][3];
  mju_sub3(offset[0], con->pos, d->subtree_com + 3 * m->body_rootid[b1]);
  mju_sub3(offset[1], con->pos, d->subtree_com + 3 * m->body_rootid[b2]);

  // one column per chain dof: its point velocity (and angular velocity), signed by body
  for (int k = 0; k < n; k++) {
    const mjtNum* cdof = d->cdof + 6 * chain[k];
    mjtNum vel[3];
    dof_point_vel(vel, cdof, offset[side[k]]);
    if (side[k]) {
      dif[k] = vel[0], dif[n + k] = vel[1], dif[2 * n + k] = vel[2];
      dif[3 * n + k] = cdof[0], dif[4 * n + k] = cdof[1], dif[5 * n + k] = cdof[2];
    } else {
      dif[k] = 0 - vel[0], dif[n + k] = 0 - vel[1], dif[2 * n + k] = 0 - vel[2];
      dif[3 * n + k] = 0 - cdof[0], dif[4 * n + k] = 0 - cdof[1];
      dif[5 * n + k] = 0 - cdof[2];
    }
  }

  // rotate into the contact frame: rows 0-2 translation, 3-5 rotation
  for (int r = 0; r < 3; r++) {
    frame_row(frm + r * n, f + 3 * r, dif, dif + n, dif + 2 * n, n);
  }
  if (rot) {
    for (int r = 0; r < 3; r++) {
      frame_row(frm + (3 + r) * n, f + 3 * r, dif + 3 * n, dif + 4 * n, dif + 5 * n, n);
    }
  }
}

/* one contact's rows (pyramidal edges or elliptic components) */
static void contact_rows(const mjModel* m, mjData* d, mjContact* con, int ic, const int* chain,
                         const int* side, int n, mjtNum* scratch) {
  int dim = con->dim, pyramid = dim > 1 && m->opt.cone == mjCONE_PYRAMIDAL;
  int nrow = dim == 1 ? 1 : (pyramid ? 2 * (dim - 1) : dim);
  int type = dim == 1 ? mjCNSTR_CONTACT_FRICTIONLESS
                      : (pyramid ? mjCNSTR_CONTACT_PYRAMIDAL : mjCNSTR_CONTACT_ELLIPTIC);
  mjtNum pos[10];
  for (int r = 0; r < nrow; r++) {
    pos[r] = (r == 0 || pyramid) ? con->dist : 0;
  }
  con->efc_address = d->nefc;

  // counting pass: sizes only
  if (!d->efc_type) {
    tn__addRows(m, d, NULL, chain, n, pos, con->includemargin, 0, nrow, type, ic);
    return;
  }

  // frame Jacobian: 6 rows of n (then up to 10 edge rows, and the 6 rows of dif)
  mjtNum *frm = scratch, *rows = frm + 6 * n, *dif = rows + 10 * n;
  contact_frame_jac(m, d, con, chain, side, n, frm, dif);

  // pyramidal: edges J_n +- mu_k J_k
  if (pyramid) {
    for (int k = 1; k < dim; k++) {
      mjtNum mu = con->friction[k - 1];
      const mjtNum* jk = frm + k * n;
      mjtNum* plus = rows + (2 * k - 2) * n;
      mjtNum* minus = rows + (2 * k - 1) * n;
      for (int c = 0; c < n; c++) {
        plus[c] = frm[c] + mu * jk[c];
        minus[c] = frm[c] + (-mu) * jk[c];
      }
    }
  }

  // elliptic or frictionless: the frame rows themselves
  else {
    rows = frm;
  }
  tn__addRows(m, d, rows, chain, n, pos, con->includemargin, 0, nrow, type, ic);

  // an elliptic contact's friction rows have no position: no margin either (as MuJoCo)
  if (type == mjCNSTR_CONTACT_ELLIPTIC) {
    for (int r = 1; r < nrow; r++) {
      d->efc_margin[con->efc_address + r] = 0;
    }
  }
}

/* contact rows for every included contact */
static void instantiate_contact(const mjModel* m, mjData* d) {
  if (TN_CDISABLED(m, mjDSBL_CONTACT) || !d->ncon) {
    return;
  }
  mj_markStack(d);
  int* chain = mj_stackAllocInt(d, (size_t)m->nv);
  int* side = mj_stackAllocInt(d, (size_t)m->nv);
  // contact_rows' scratch: frame rows, edge rows and dif rows, 22 of nv at most
  mjtNum* scratch = mj_stackAllocNum(d, (size_t)(22 * (m->nv > 0 ? m->nv : 1)));

  for (int i = 0; i < d->ncon; i++) {
    mjContact* con = d->contact + i;
    con->efc_address = -1;
    if (con->exclude) {
      continue;
    }

    // dofs moving one geom's body but not the other; none (both bodies' chains end at the
    // same dof): nothing to constrain. A dense counting pass needs only whether there are
    // any, not the chain
    int b1 = m->geom_bodyid[con->geom[0]], b2 = m->geom_bodyid[con->geom[1]];
    if (!d->efc_type && !is_sparse(m)) {
      if (tn__bodyLastDof(m, b1) != tn__bodyLastDof(m, b2)) {
        contact_rows(m, d, con, i, chain, side, 0, scratch);
      }
      continue;
    }
    int n = tn__mergeChainSides(m, b1, b2, chain, side);
    if (!n) {
      continue;
    }
    contact_rows(m, d, con, i, chain, side, n, scratch);
  }
  mj_freeStack(d);
}

/* ---------------------------------------------------------------------------------------
 * Driver
 * ------------------------------------------------------------------------------------- */

/* every row type in MuJoCo's order; ne/nf/nl from the running counts. The counting pass
 * (efc_type NULL) fills scan; the filling pass skips the kinds that counted no rows */
static void instantiate_all(const mjModel* m, mjData* d, rowScan* scan) {
  int counting = !d->efc_type;
  if (counting) {
    *scan = (rowScan){0, 0, m->njnt, -1, 0};
  }
  tn__instantiateEquality(m, d);
  int ne = d->nefc;
  if (counting || scan->nf) {
    instantiate_friction(m, d);
  }
  int nf = d->nefc - ne;
  if (counting || scan->nl) {
    instantiate_limit(m, d, scan);
  }
  int nl = d->nefc - ne - nf;
  instantiate_contact(m, d);
  d->ne = ne;
  d->nf = nf;
  d->nl = nl;
  if (counting) {
    scan->nf = nf;
    scan->nl = nl;
  }
}

/* no rows this step (arena full or inconsistent): release and unlink the contacts */
static void drop_rows(mjData* d) {
  tn__efcRelease(d);
  d->ne = d->nf = d->nl = 0;
  for (int i = 0; i < d->ncon; i++) {
    d->contact[i].efc_address = -1;
  }
}

/* build the constraint rows, their impedance and regularization */
void mj_makeConstraint(const mjModel* m, mjData* d) {
  // release last step's rows
  drop_rows(d);
  d->nisland = d->nidof = 0;
  if (TN_CDISABLED(m, mjDSBL_CONSTRAINT)) {
    return;
  }

  // counting pass (efc_type NULL marks it)
  rowScan scan;
  d->efc_type = NULL;
  instantiate_all(m, d, &scan);
  if (!d->nefc) {
    d->ne = d->nf = d->nl = 0;
    return;
  }
  if (!is_sparse(m)) {
    d->nJ = d->nefc * m->nv;
  }

  // allocate (the AR pattern follows when a dual solver needs it)
  int nefc = d->nefc, nJ = d->nJ;
  if (!tn__efcAllocate(m, d, 0)) {
    drop_rows(d);
    return;
  }

  // filling pass
  d->nefc = 0;
  d->nJ = is_sparse(m) ? 0 : nJ;
  instantiate_all(m, d, &scan);
  if (d->nefc != nefc || d->nJ != nJ) {
    mju_error("mj_makeConstraint: row count changed between passes");
    drop_rows(d);
    return;
  }
  if (is_sparse(m)) {
    tn__makeRowSuper(d);
  }

  // AR storage for PGS and noslip
  if (tn__isDual(m) && !tn__allocAR(m, d)) {
    drop_rows(d);
    return;
  }

  // impedance, diagA, R, D, KBIP
  tn__makeImpedance(m, d);
}
