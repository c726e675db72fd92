/* smooth/jacobian.c — Jacobians of points on bodies, and Cartesian forces mapped to joint
 * space with them (xfrc_applied).
 *
 * Column i of a point's Jacobian is the velocity of the point due to unit velocity of dof
 * i: with cdof_i = (w, v) about the tree's com c, jacr = w and jacp = v + w x (p - c). Only
 * the dofs on the chain from the body to its root are non-zero; they are visited by walking
 * dof_parentid from the body's last dof (bodies without dofs defer to their parent). */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* last dof that moves body (or -1), skipping ancestors without dofs */
static int jac_lastdof(const mjModel* m, int body) {
  while (body > 0 && m->body_dofnum[body] == 0) {
    body = m->body_parentid[body];
  }
  return body > 0 ? m->body_dofadr[body] + m->body_dofnum[body] - 1 : -1;
}

/* translational and rotational Jacobians (3 x nv) of a global point on a body */
void mj_jac(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, const mjtNum point[3],
            int body) {
  int nv = m->nv;
  mjtNum offset[3], tmp[3];

  // clear
  if (jacp) {
    mju_zero(jacp, 3 * nv);
  }
  if (jacr) {
    mju_zero(jacr, 3 * nv);
  }

  // point relative to the tree's com
  tnu_sub3(offset, point, d->subtree_com + 3 * m->body_rootid[body]);

  // walk the dof chain towards the root
  for (int i = jac_lastdof(m, body); i >= 0; i = m->dof_parentid[i]) {
    const mjtNum* cdof = d->cdof + 6 * i;

    // rotation: the dof's angular velocity
    if (jacr) {
      jacr[i] = cdof[0];
      jacr[i + nv] = cdof[1];
      jacr[i + 2 * nv] = cdof[2];
    }

    // translation: linear velocity at the com, corrected for rotation about it
    if (jacp) {
      tnu_cross(tmp, cdof, offset);
      jacp[i] = cdof[3] + tmp[0];
      jacp[i + nv] = cdof[4] + tmp[1];
      jacp[i + 2 * nv] = cdof[5] + tmp[2];
    }
  }
}

/* Jacobian of the body frame's origin */
void mj_jacBody(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body) {
  mj_jac(m, d, jacp, jacr, d->xpos + 3 * body, body);
}

/* Jacobian of the body's center of mass */
void mj_jacBodyCom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body) {
  mj_jac(m, d, jacp, jacr, d->xipos + 3 * body, body);
}

/* Jacobian of a site */
void mj_jacSite(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int site) {
  mj_jac(m, d, jacp, jacr, d->site_xpos + 3 * site, m->site_bodyid[site]);
}

/* Jacobian of a geom's center */
void mj_jacGeom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int geom) {
  mj_jac(m, d, jacp, jacr, d->geom_xpos + 3 * geom, m->geom_bodyid[geom]);
}

/* qfrc += jacp' force + jacr' torque (either may be NULL), visiting only the dofs on the
 * body's chain; the sums run in the same order as a dense J'*f product */
void tn_jacApplyFT(const mjModel* m, const mjData* d, const mjtNum force[3], const mjtNum torque[3],
                   const mjtNum point[3], int body, mjtNum* qfrc) {
  mjtNum offset[3], tmp[3], jp[3];
  tnu_sub3(offset, point, d->subtree_com + 3 * m->body_rootid[body]);

  for (int i = jac_lastdof(m, body); i >= 0; i = m->dof_parentid[i]) {
    const mjtNum* cdof = d->cdof + 6 * i;

    // force through this dof's column of jacp
    if (force) {
      tnu_cross(tmp, cdof, offset);
      tnu_add3(jp, cdof + 3, tmp);
      qfrc[i] += jp[0] * force[0] + jp[1] * force[1] + jp[2] * force[2];
    }

    // torque through its column of jacr
    if (torque) {
      qfrc[i] += cdof[0] * torque[0] + cdof[1] * torque[1] + cdof[2] * torque[2];
    }
  }
}

/* map every non-zero xfrc_applied (force, torque at the body com) to joint space */
void tn_xfrcAccumulate(const mjModel* m, const mjData* d, mjtNum* qfrc) {
  for (int b = 1; b < m->nbody; b++) {
    const mjtNum* xfrc = d->xfrc_applied + 6 * b;
    if (!mju_isZero(xfrc, 6)) {
      tn_jacApplyFT(m, d, xfrc, xfrc + 3, d->xipos + 3 * b, b, qfrc);
    }
  }
}
