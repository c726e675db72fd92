/* smooth/tendon.c — tendon lengths and Jacobians (mj_tendon).
 *
 * A fixed tendon is a linear combination of scalar joint positions. A spatial tendon is a
 * path through sites, possibly wrapping around spheres and cylinders between two sites
 * (geometry in tendon_wrap.c) and split into branches by pulleys, each branch's length
 * divided by the pulley's divisor. The tendon Jacobian d->ten_J holds MuJoCo's sparse rows on
 * the model's static pattern (ten_J_rownnz/rowadr/colind, nJten entries): a fixed tendon's
 * coefficients (a joint listed twice sums into its first entry, the second stays zero, as in
 * MuJoCo), and for a spatial tendon the sum over path segments of the segment direction
 * projected on the difference of the point Jacobians of its two ends, formed on the two
 * ends' dof chains in a dense scratch row and gathered on the pattern. The path points
 * are recorded in ten_wrapadr, ten_wrapnum, wrap_obj and wrap_xpos for visualisation, as
 * MuJoCo records them. */

#include "smooth/smooth.h"
#include "smooth/tendon_wrap.h"

/* fixed tendon: length and Jacobian are linear in the joint coordinates */
static void fixed_tendon(const mjModel* m, mjData* d, int i) {
  int adr = m->tendon_adr[i], num = m->tendon_num[i];
  int radr = m->ten_J_rowadr[i], nnz = m->ten_J_rownnz[i];
  mjtNum* J = d->ten_J + radr;
  const int* colind = m->ten_J_colind + radr;

  mju_zero(J, nnz);
  for (int j = adr; j < adr + num; j++) {
    int jnt = m->wrap_objid[j], dof = m->jnt_dofadr[jnt];
    mjtNum coef = m->wrap_prm[j];

    // length: coef * joint position; Jacobian: coef at the dof's first entry
    d->ten_length[i] += coef * d->qpos[m->jnt_qposadr[jnt]];
    int k = 0;
    while (k < nnz - 1 && colind[k] != dof) {
      k++;
    }
    J[k] += coef;
  }
}

/* add the gradient of |p1 - p0| (p0 on body b0, p1 on body b1), scaled, to J */
static void add_segment_jacobian(const mjModel* m, mjData* d, mjtNum* J, const mjtNum p0[3], int b0,
                                 const mjtNum p1[3], int b1, mjtNum scale) {
  mjtNum dir[3];

  // unit direction of the segment
  mju_sub3(dir, p1, p0);
  mju_normalize3(dir);

  // dir' times the difference of the end-point Jacobians, on their dof chains
  tn__jacSegmentAdd(m, d, J, dir, p0, b0, p1, b1, scale);
}

/* record one path point for visualisation */
static void record_point(mjData* d, int* wrapcount, int tendon, const mjtNum pos[3], int obj) {
  mju_copy3(d->wrap_xpos + 3*(*wrapcount), pos);
  d->wrap_obj[*wrapcount] = obj;
  d->ten_wrapnum[tendon]++;
  (*wrapcount)++;
}

/* spatial tendon: sites, wrapping geoms and pulleys */
static void spatial_tendon(const mjModel* m, mjData* d, int i, int* wrapcount, mjtNum* J) {
  int adr = m->tendon_adr[i], num = m->tendon_num[i];
  int radr = m->ten_J_rowadr[i], nnz = m->ten_J_rownnz[i];
  const int* colind = m->ten_J_colind + radr;
  mjtNum divisor = 1;

  // the dense scratch row is zero on the pattern (segments only touch those dofs)
  for (int k = 0; k < nnz; k++) {
    J[colind[k]] = 0;
  }

  for (int j = 0; j < num - 1; j++) {
    int type0 = m->wrap_type[adr + j], type1 = m->wrap_type[adr + j + 1];
    int id0 = m->wrap_objid[adr + j];

    // pulley: start a new branch with its divisor, record a separator point
    if (type0 == mjWRAP_PULLEY || type1 == mjWRAP_PULLEY) {
      if (type0 == mjWRAP_PULLEY) {
        mjtNum zero[3] = {0, 0, 0};
        divisor = m->wrap_prm[adr + j];
        record_point(d, wrapcount, i, zero, -2);
      }
      continue;
    }

    // path points of this piece and the bodies carrying them
    mjtNum pnt[12];
    int body[4];
    int npnt = 2, geom = -1;
    mju_copy3(pnt, d->site_xpos + 3*id0);
    body[0] = m->site_bodyid[id0];

    // site - geom - site: try to wrap
    int id1 = m->wrap_objid[adr + j + 1];
    mjtNum wlen = -1;
    if (type1 == mjWRAP_SPHERE || type1 == mjWRAP_CYLINDER) {
      int sideid = mju_round(m->wrap_prm[adr + j + 1]);
      geom = id1;
      id1 = m->wrap_objid[adr + j + 2];
      wlen = tn__wrap(pnt + 3, d->site_xpos + 3 * id0, d->site_xpos + 3 * id1,
                      d->geom_xpos + 3 * geom, d->geom_xmat + 9 * geom, m->geom_size[3 * geom],
                      type1, sideid >= 0 ? d->site_xpos + 3 * sideid : NULL);
    }

    // complete the piece: straight, or straight - surface - straight
    if (wlen < 0) {
      mju_copy3(pnt + 3, d->site_xpos + 3*id1);
      body[1] = m->site_bodyid[id1];
      d->ten_length[i] += mju_dist3(pnt, pnt + 3) / divisor;
    } else {
      npnt = 4;
      mju_copy3(pnt + 9, d->site_xpos + 3*id1);
      body[1] = body[2] = m->geom_bodyid[geom];
      body[3] = m->site_bodyid[id1];
      d->ten_length[i] += (mju_dist3(pnt, pnt + 3) + wlen + mju_dist3(pnt + 6, pnt + 9)) /
                          divisor;
    }

    // Jacobian: straight pieces whose ends move with different bodies
    for (int k = 0; k < npnt - 1; k++) {
      if (body[k] != body[k + 1]) {
        add_segment_jacobian(m, d, J, pnt + 3 * k, body[k], pnt + 3 * k + 3, body[k + 1],
                             1 / divisor);
      }
    }

    // record the start site and the tangent points
    record_point(d, wrapcount, i, pnt, -1);
    if (npnt == 4) {
      record_point(d, wrapcount, i, pnt + 3, geom);
      record_point(d, wrapcount, i, pnt + 6, geom);
    }

    // skip the geom; record the end site at the end of a branch
    if (geom >= 0) {
      j++;
    }
    if (j == num - 2 || m->wrap_type[adr + j + 2] == mjWRAP_PULLEY) {
      record_point(d, wrapcount, i, d->site_xpos + 3 * id1, -1);
    }
  }

  // gather the row on the pattern
  for (int k = 0; k < nnz; k++) {
    d->ten_J[radr + k] = J[colind[k]];
  }
}

void tn__tendonRowDense(const mjModel* m, const mjData* d, int t, mjtNum* row) {
  int adr = m->ten_J_rowadr[t], nnz = m->ten_J_rownnz[t];
  mju_zero(row, m->nv);
  for (int k = 0; k < nnz; k++) {
    int col = m->ten_J_colind[adr + k];
    if (k == 0 || col != m->ten_J_colind[adr + k - 1]) {
      row[col] = d->ten_J[adr + k];
    }
  }
}

/* tendon lengths, Jacobians and visualisation paths */
void mj_tendon(const mjModel* m, mjData* d) {
  int nv = m->nv, ntendon = m->ntendon;
  if (!ntendon) {
    return;
  }

  // clear lengths (every Jacobian row is rewritten); scratch: a dense row for spatial
  // tendons
  mju_zero(d->ten_length, ntendon);
  mj_markStack(d);
  mjtNum* row = mj_stackAllocNum(d, (size_t)nv + 1);
  if (!row) {
    mj_freeStack(d);
    return;
  }

  // each tendon: fixed or spatial
  int wrapcount = 0;
  for (int i = 0; i < ntendon; i++) {
    d->ten_wrapadr[i] = wrapcount;
    d->ten_wrapnum[i] = 0;
    if (m->tendon_num[i] == 0) {
      continue;
    }
    if (m->wrap_type[m->tendon_adr[i]] == mjWRAP_JOINT) {
      fixed_tendon(m, d, i);
    } else {
      spatial_tendon(m, d, i, &wrapcount, row);
    }
  }
  mj_freeStack(d);
}
