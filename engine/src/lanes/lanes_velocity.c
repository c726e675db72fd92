/* lanes/lanes_velocity.c — the velocity stage's smooth kinematics and dynamics for TN_LANES
 * datas at once: mj_comVel (body velocities cvel and the dofs' rates cdof_dot) and the bias
 * force mj_rne(flg_acc = 0), each lane doing smooth/velocity.c's and smooth/rne.c's
 * operations in their order.
 *
 * Each gathers its inputs from the datas into a tnVelLanes workspace (cdof and qvel for
 * mj_comVel; cinert for the bias, and cdof, cdof_dot, cvel and qvel too unless it follows
 * mj_comVel in the same workspace) and scatters its results (cvel, cdof_dot; qfrc_bias). */
#include <torsion/torsion.h>

#include "lanes/lanes.h"
#include "util/util_inline.h"

/* res = [vel]x motion v, in every lane (tn_crossMotion's expressions) */
static inline void cross_motion(tnLane* restrict res, const tnLane* vel, const tnLane* v) {
  res[0] = vel[1] * v[2] - vel[2] * v[1];
  res[1] = vel[2] * v[0] - vel[0] * v[2];
  res[2] = vel[0] * v[1] - vel[1] * v[0];
  res[3] = vel[1] * v[5] - vel[2] * v[4];
  res[4] = vel[2] * v[3] - vel[0] * v[5];
  res[5] = vel[0] * v[4] - vel[1] * v[3];
  res[3] += vel[4] * v[2] - vel[5] * v[1];
  res[4] += vel[5] * v[0] - vel[3] * v[2];
  res[5] += vel[3] * v[1] - vel[4] * v[0];
}

/* res = [vel]x* force f, in every lane (tn_crossForce's expressions) */
static inline void cross_force(tnLane* restrict res, const tnLane* vel, const tnLane* f) {
  res[0] = vel[1] * f[2] - vel[2] * f[1];
  res[1] = vel[2] * f[0] - vel[0] * f[2];
  res[2] = vel[0] * f[1] - vel[1] * f[0];
  res[3] = vel[1] * f[5] - vel[2] * f[4];
  res[4] = vel[2] * f[3] - vel[0] * f[5];
  res[5] = vel[0] * f[4] - vel[1] * f[3];
  res[0] += vel[4] * f[5] - vel[5] * f[4];
  res[1] += vel[5] * f[3] - vel[3] * f[5];
  res[2] += vel[3] * f[4] - vel[4] * f[3];
}

/* res = sum over n consecutive dofs of dof[i] * vec[i], in dof order (zero for n = 0) */
static inline void mul_dof_vec(tnLane* restrict res, const tnLane* dof, const tnLane* vec, int n) {
  for (int k = 0; k < 6; k++) {
    res[k] = (tnLane){0, 0, 0, 0};
  }
  if (n > 0) {
    for (int k = 0; k < 6; k++) {
      res[k] = dof[k] * vec[0];
    }
    for (int i = 1; i < n; i++) {
      for (int k = 0; k < 6; k++) {
        res[k] += dof[6 * i + k] * vec[i];
      }
    }
  }
}

/* cvel and cdof_dot of every body and dof in lanes (smooth/velocity.c's vel_body) */
TN_CLONE_AVX2
static void com_vel_lanes(const mjModel* m, tnVelLanes* w) {
  for (int k = 0; k < 6; k++) {
    w->cvel[k] = (tnLane){0, 0, 0, 0};
  }
  for (int b = 1; b < m->nbody; b++) {
    int dofadr = m->body_dofadr[b], dofnum = m->body_dofnum[b];
    tnLane cvel[6], tmp[6];
    for (int k = 0; k < 6; k++) {
      cvel[k] = w->cvel[6 * m->body_parentid[b] + k];
    }

    for (int j = 0; j < dofnum; j++) {
      int dof = dofadr + j;
      tnLane* cdofdot = w->cdofdot + 6 * dof;
      const tnLane* cdof = w->cdof + 6 * dof;

      switch (m->jnt_type[m->dof_jntid[dof]]) {
        // free: translations first (no cdof_dot), then rotations like a ball
        case mjJNT_FREE:
          for (int k = 0; k < 18; k++) {
            cdofdot[k] = (tnLane){0, 0, 0, 0};
          }
          mul_dof_vec(tmp, cdof, w->qvel + dof, 3);
          for (int k = 0; k < 6; k++) {
            cvel[k] += tmp[k];
          }
          cdofdot += 18;
          cdof += 18;
          dof += 3;
          j += 3;
          // fall through

        // ball: three rotations, all from the velocity before the ball
        case mjJNT_BALL:
          for (int k = 0; k < 3; k++) {
            cross_motion(cdofdot + 6 * k, cvel, cdof + 6 * k);
          }
          mul_dof_vec(tmp, cdof, w->qvel + dof, 3);
          for (int k = 0; k < 6; k++) {
            cvel[k] += tmp[k];
          }
          j += 2;
          break;

        // hinge or slide: cdof_dot from the velocity before this dof
        default:
          cross_motion(cdofdot, cvel, cdof);
          for (int k = 0; k < 6; k++) {
            cvel[k] += cdof[k] * w->qvel[dof];
          }
          break;
      }
    }
    for (int k = 0; k < 6; k++) {
      w->cvel[6 * b + k] = cvel[k];
    }
  }
}

/* the bias force in lanes: smooth/rne.c's forward pass without qacc, backward pass, and the
 * projection on the dofs (mju_dot's order for 6 entries) */
TN_CLONE_AVX2
static void rne_bias_lanes(const mjModel* m, tnVelLanes* w) {
  tnLane* cacc = w->cacc;
  tnLane* cfrc = w->cfrc;

  // world acceleration: minus gravity
  for (int k = 0; k < 6; k++) {
    cacc[k] = (tnLane){0, 0, 0, 0};
  }
  if (!(m->opt.disableflags & mjDSBL_GRAVITY)) {
    for (int k = 0; k < 3; k++) {
      mjtNum g = m->opt.gravity[k] * -1;
      cacc[3 + k] = (tnLane){g, g, g, g};
    }
  }

  // forward: cacc = cacc_parent + cdof_dot * qvel; cfrc = cinert * cacc + cvel x* (cinert * cvel)
  for (int b = 1; b < m->nbody; b++) {
    int dofadr = m->body_dofadr[b];
    tnLane* acc = cacc + 6 * b;
    const tnLane* cinert = w->cinert + 10 * b;
    const tnLane* cvel = w->cvel + 6 * b;
    tnLane tmp[6], frc[6], mom[6], gyro[6];
    mul_dof_vec(tmp, w->cdofdot + 6 * dofadr, w->qvel + dofadr, m->body_dofnum[b]);
    for (int k = 0; k < 6; k++) {
      acc[k] = cacc[6 * m->body_parentid[b] + k];
      acc[k] += tmp[k];
    }
    tn__mulInertVecLanes(frc, cinert, acc);
    tn__mulInertVecLanes(mom, cinert, cvel);
    cross_force(gyro, cvel, mom);
    for (int k = 0; k < 6; k++) {
      cfrc[6 * b + k] = frc[k] + gyro[k];
    }
  }

  // backward: each body carries the forces of its descendants (world excluded)
  for (int k = 0; k < 6; k++) {
    cfrc[k] = (tnLane){0, 0, 0, 0};
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    int parent = m->body_parentid[b];
    if (parent > 0) {
      for (int k = 0; k < 6; k++) {
        cfrc[6 * parent + k] += cfrc[6 * b + k];
      }
    }
  }

  // projection on the dofs (mju_dot's order for 6 entries)
  for (int i = 0; i < m->nv; i++) {
    tn__dot6Lanes(w->bias + i, w->cdof + 6 * i, cfrc + 6 * m->dof_bodyid[i]);
  }
}

/* numbers of tnLanes the workspace takes */
size_t tn__velLanesSize(const mjModel* m) {
  return 28 * (size_t)m->nbody + 14 * (size_t)m->nv;
}

/* carve the workspace out of n = tn__velLanesSize lanes */
void tn__velLanesInit(const mjModel* m, tnVelLanes* w, tnLane* buf) {
  int nbody = m->nbody, nv = m->nv;
  w->cdof = buf;
  w->cdofdot = w->cdof + 6 * nv;
  w->qvel = w->cdofdot + 6 * nv;
  w->bias = w->qvel + nv;
  w->cvel = w->bias + nv;
  w->cinert = w->cvel + 6 * nbody;
  w->cacc = w->cinert + 10 * nbody;
  w->cfrc = w->cacc + 6 * nbody;
  w->transient = 0;
}

/* mj_comVel for the lanes */
void tn__comVelLanes(const mjModel* m, mjData* const* d, tnVelLanes* w) {
  int nv = m->nv;
  tn__lanesGather(w->cdof, LANES_OF(d, cdof), 6 * nv);
  tn__lanesGather(w->qvel, LANES_OF(d, qvel), nv);
  com_vel_lanes(m, w);
  if (!w->transient) {
    tn__lanesScatter(LANES_OF(d, cvel), w->cvel, 6 * m->nbody);
    tn__lanesScatter(LANES_OF(d, cdof_dot), w->cdofdot, 6 * nv);
  }
}

/* mj_rne(flg_acc = 0) into each data's qfrc_bias */
void tn__rneBiasLanes(const mjModel* m, mjData* const* d, tnVelLanes* w, int after_com_vel) {
  int nv = m->nv, nbody = m->nbody;
  if (!after_com_vel) {
    tn__lanesGather(w->cdof, LANES_OF(d, cdof), 6 * nv);
    tn__lanesGather(w->cdofdot, LANES_OF(d, cdof_dot), 6 * nv);
    tn__lanesGather(w->qvel, LANES_OF(d, qvel), nv);
    tn__lanesGather(w->cvel, LANES_OF(d, cvel), 6 * nbody);
  }
  tn__lanesGather(w->cinert, LANES_OF(d, cinert), 10 * nbody);
  rne_bias_lanes(m, w);
  tn__lanesScatter(LANES_OF(d, qfrc_bias), w->bias, m->nv);
}
