/* smooth/velocity.c — velocity kinematics: com-based body velocities (cvel), the rates of
 * change of the motion dofs (cdof_dot), and subtree linear velocity / angular momentum.
 *
 * cdof_dot = cvel x cdof uses the body velocity accumulated up to the joint: a hinge or
 * slide uses the velocity before its own motion (its own term would vanish anyway), a ball
 * joint's three dofs all use the velocity before the ball, and a free joint's rotations
 * use the velocity after its translation (its translations have cdof_dot = 0). */
#include <torsion/torsion.h>

#include "smooth/smooth.h"
#include "util/util_inline.h"

/* cvel += the motion of n consecutive dofs (sum of cdof*qvel in dof order, then added) */
static inline void vel_add_dofs(mjtNum cvel[6], const mjtNum* cdof, const mjtNum* qvel, int n) {
  mjtNum tmp[6];
  mul_dof_vec_scalar(tmp, cdof, qvel, n);
  for (int k = 0; k < 6; k++) {
    cvel[k] += tmp[k];
  }
}

/* cvel and cdof_dot of body b from its parent's velocity and its own dofs. The running
 * velocity is read and written as scalars only, so the compiler keeps it in registers
 * (lane-pair stores read back as scalars, or the reverse, stall store forwarding) */
static void vel_body(const mjModel* m, mjData* d, int b) {
  int dofadr = m->body_dofadr[b], dofnum = m->body_dofnum[b];
  const mjtNum* parent = d->cvel + 6 * m->body_parentid[b];
  mjtNum cvel[6];

  // start from the parent's velocity
  for (int k = 0; k < 6; k++) {
    cvel[k] = parent[k];
  }

  for (int j = 0; j < dofnum; j++) {
    int dof = dofadr + j;
    mjtNum* cdofdot = d->cdof_dot + 6 * dof;
    const mjtNum* cdof = d->cdof + 6 * dof;

    switch (m->jnt_type[m->dof_jntid[dof]]) {
      // free: translations first (no cdof_dot), then rotations like a ball
      case mjJNT_FREE:
        for (int k = 0; k < 18; k++) {
          cdofdot[k] = 0;
        }
        vel_add_dofs(cvel, cdof, d->qvel + dof, 3);
        cdofdot += 18;
        cdof += 18;
        dof += 3;
        j += 3;
        // fall through

      // ball: three rotations, all from the velocity before the ball
      case mjJNT_BALL:
        for (int k = 0; k < 3; k++) {
          tn_crossMotion(cdofdot + 6 * k, cvel, cdof + 6 * k);
        }
        vel_add_dofs(cvel, cdof, d->qvel + dof, 3);
        j += 2;
        break;

      // hinge or slide: cdof_dot from the velocity before this dof
      default:
        tn_crossMotion(cdofdot, cvel, cdof);
        for (int k = 0; k < 6; k++) {
          cvel[k] += cdof[k] * d->qvel[dof];
        }
        break;
    }
  }

  for (int k = 0; k < 6; k++) {
    d->cvel[6 * b + k] = cvel[k];
  }
}

/* com-based velocities of all bodies and cdof_dot of all dofs */
void mj_comVel(const mjModel* m, mjData* d) {
  mju_zero(d->cvel, 6);
  for (int b = 1; b < m->nbody; b++) {
    vel_body(m, d, b);
  }
}

/* velocity of body b's com (rotation, translation) in the global frame */
static void vel_bodycom(const mjModel* m, const mjData* d, int b, mjtNum res[6]) {
  mju_transformSpatial(res, d->cvel + 6 * b, 0, d->xipos + 3 * b,
                       d->subtree_com + 3 * m->body_rootid[b], NULL);
}

/* per body: com velocity, linear momentum and angular momentum about its own com */
static void subtree_bodies(const mjModel* m, mjData* d, mjtNum* body_vel) {
  for (int b = 0; b < m->nbody; b++) {
    mjtNum* vel = body_vel + 6 * b;
    const mjtNum* ximat = d->ximat + 9 * b;
    const mjtNum* inertia = m->body_inertia + 3 * b;
    mjtNum w[3];

    // linear momentum
    vel_bodycom(m, d, b, vel);
    mju_scl3(d->subtree_linvel + 3 * b, vel + 3, m->body_mass[b]);

    // angular momentum: inertia applied in the principal frame
    mju_mulMatTVec3(w, ximat, vel);
    w[0] *= inertia[0];
    w[1] *= inertia[1];
    w[2] *= inertia[2];
    mju_mulMatVec3(d->subtree_angmom + 3 * b, ximat, w);
  }
}

/* subtree linear velocity: momenta summed towards the root, divided by subtree mass */
static void subtree_linvel(const mjModel* m, mjData* d) {
  for (int b = m->nbody - 1; b >= 0; b--) {
    if (b > 0) {
      mju_addTo3(d->subtree_linvel + 3 * m->body_parentid[b], d->subtree_linvel + 3 * b);
    }
    mju_scl3(d->subtree_linvel + 3 * b, d->subtree_linvel + 3 * b,
             1 / mju_max(mjMINVAL, m->body_subtreemass[b]));
  }
}

/* subtree angular momentum about each subtree's com, accumulated towards the root */
static void subtree_angmom(const mjModel* m, mjData* d, const mjtNum* body_vel) {
  for (int b = m->nbody - 1; b > 0; b--) {
    int parent = m->body_parentid[b];
    mjtNum dx[3], dv[3], dp[3], dL[3];

    // the body's own momentum relative to its subtree's com
    mju_sub3(dx, d->xipos + 3 * b, d->subtree_com + 3 * b);
    mju_sub3(dv, body_vel + 6 * b + 3, d->subtree_linvel + 3 * b);
    mju_scl3(dp, dv, m->body_mass[b]);
    mju_cross(dL, dx, dp);
    mju_addTo3(d->subtree_angmom + 3 * b, dL);

    // the subtree's momentum, moved to the parent's subtree com
    mju_addTo3(d->subtree_angmom + 3 * parent, d->subtree_angmom + 3 * b);
    mju_sub3(dx, d->subtree_com + 3 * b, d->subtree_com + 3 * parent);
    mju_sub3(dv, d->subtree_linvel + 3 * b, d->subtree_linvel + 3 * parent);
    mju_scl3(dv, dv, m->body_subtreemass[b]);
    mju_cross(dL, dx, dv);
    mju_addTo3(d->subtree_angmom + 3 * parent, dL);
  }
}

/* subtree linear velocity and angular momentum */
void mj_subtreeVel(const mjModel* m, mjData* d) {
  mj_markStack(d);
  mjtNum* body_vel = mj_stackAllocNum(d, 6 * (size_t)m->nbody);
  if (!body_vel) {
    mj_freeStack(d);
    return;
  }

  subtree_bodies(m, d, body_vel);
  subtree_linvel(m, d);
  subtree_angmom(m, d, body_vel);

  mj_freeStack(d);
}
