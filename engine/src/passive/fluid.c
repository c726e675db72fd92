/* passive/fluid.c — forces of the surrounding fluid (density, viscosity, wind).
 *
 * Two models, chosen per body. The inertia-box model treats the body as the box with the
 * same inertia and applies quadratic drag (density) and Stokes drag (viscosity) in the
 * box's frame. The ellipsoid model, used for bodies with at least one geom whose
 * fluidshape is "ellipsoid" (geom_fluid[0] > 0), treats each such geom as its equivalent
 * ellipsoid and adds added-mass, blunt/slender/angular drag, Kutta and Magnus lift and
 * viscous terms. Forces are computed in the local frame with the wind subtracted from the
 * linear velocity, rotated to world and mapped to joint space into qfrc_fluid. */

#include <math.h>

#include "passive/fluid.h"
#include "passive/passive_internal.h"

/* 6D velocity (angular, linear) of the frame (pos, rot) rigidly attached to `body`,
 * expressed in that frame, with the wind removed from the linear part (also the velocity
 * derivatives' point of linearization) */
void tn__fluidLocalVelocity(const mjModel* m, const mjData* d, int body, const mjtNum pos[3],
                            const mjtNum rot[9], mjtNum res[6]) {
  const mjtNum* cvel = d->cvel + 6*body;
  const mjtNum* com = d->subtree_com + 3*m->body_rootid[body];
  mjtNum dif[3], cross[3], lin[3], lwind[3];

  // linear velocity at pos: v_com - (pos - com) x omega
  mju_sub3(dif, pos, com);
  mju_cross(cross, dif, cvel);
  mju_sub3(lin, cvel + 3, cross);

  // rotate both parts into the local frame, subtract the local wind
  mju_mulMatTVec3(res, rot, cvel);
  mju_mulMatTVec3(res + 3, rot, lin);
  mju_mulMatTVec3(lwind, rot, m->opt.wind);
  mju_subFrom3(res + 3, lwind);
}

/* rotate a local force/torque to world and apply it at pos on body */
static void apply_local(const mjModel* m, mjData* d, const mjtNum lfrc[6], const mjtNum rot[9],
                        const mjtNum pos[3], int body) {
  mjtNum torque[3], force[3];
  mju_mulMatVec3(torque, rot, lfrc);
  mju_mulMatVec3(force, rot, lfrc + 3);
  tn__applyFT(m, d, force, torque, pos, body, d->qfrc_fluid);
}

/* inertia-box model for one body */
static void inertia_box_model(const mjModel* m, mjData* d, int b) {
  const mjtNum* inertia = m->body_inertia + 3*b;
  mjtNum mass = m->body_mass[b];
  mjtNum rho = m->opt.density, beta = m->opt.viscosity;
  mjtNum box[3], lvel[6], lfrc[6];

  // full sides of the box with the body's inertia
  for (int i = 0; i < 3; i++) {
    int j = (i+1) % 3, k = (i+2) % 3;
    box[i] = sqrt(mju_max(mjMINVAL, inertia[j] + inertia[k] - inertia[i]) / mass * 6.0);
  }

  // local velocity at the center of mass, in the inertia frame
  tn__fluidLocalVelocity(m, d, b, d->xipos + 3 * b, d->ximat + 9 * b, lvel);

  // viscous resistance of the equivalent sphere (diameter = mean side)
  mjtNum diam = (box[0] + box[1] + box[2]) / 3.0;
  for (int i = 0; i < 3; i++) {
    lfrc[i] = -lvel[i] * diam*diam*diam * mjPI * beta;
    lfrc[3+i] = -3.0 * lvel[3+i] * diam * mjPI * beta;
  }

  // quadratic drag: torque and force per axis
  for (int i = 0; i < 3; i++) {
    int j = (i+1) % 3, k = (i+2) % 3;
    mjtNum bj2 = box[j]*box[j], bk2 = box[k]*box[k];
    lfrc[i] -= rho * box[i] * (bj2*bj2 + bk2*bk2) * fabs(lvel[i]) * lvel[i] / 64.0;
    lfrc[3+i] -= 0.5 * rho * box[j] * box[k] * fabs(lvel[3+i]) * lvel[3+i];
  }

  apply_local(m, d, lfrc, d->ximat + 9 * b, d->xipos + 3 * b, b);
}

/* added-mass forces of the ellipsoid model (acceleration terms omitted) */
static void added_mass_forces(mjtNum lfrc[6], const mjtNum lvel[6], mjtNum rho,
                              const mjtNum vmass[3], const mjtNum vinertia[3]) {
  const mjtNum* w = lvel;
  const mjtNum* v = lvel + 3;
  mjtNum linmom[3], angmom[3], tmp[3];

  // virtual linear and angular momenta
  for (int i = 0; i < 3; i++) {
    linmom[i] = rho * vmass[i] * v[i];
    angmom[i] = rho * vinertia[i] * w[i];
  }

  // torque: p x v + L x w;  force: p x w
  mju_cross(tmp, linmom, v);
  mju_addTo3(lfrc, tmp);
  mju_cross(tmp, angmom, w);
  mju_addTo3(lfrc, tmp);
  mju_cross(tmp, linmom, w);
  mju_addTo3(lfrc + 3, tmp);
}

/* drag, lift and viscous forces of the ellipsoid model; coef = fluid[1..5] */
static void viscous_forces(mjtNum lfrc[6], const mjtNum lvel[6], mjtNum rho, mjtNum beta,
                           const mjtNum r[3], const mjtNum coef[5]) {
  const mjtNum* w = lvel;
  const mjtNum* v = lvel + 3;
  mjtNum blunt = coef[0], slender = coef[1], angular = coef[2];
  mjtNum kutta = coef[3], magnus = coef[4];

  // size measures of the ellipsoid
  mjtNum volume = 4.0 / 3.0 * mjPI * r[0] * r[1] * r[2];
  mjtNum dmax = mju_max(mju_max(r[0], r[1]), r[2]);
  mjtNum dmin = mju_min(mju_min(r[0], r[1]), r[2]);
  mjtNum dmid = r[0] + r[1] + r[2] - dmax - dmin;
  mjtNum area_max = mjPI * dmax * dmid;
  mjtNum speed = mju_norm3(v);

  // projected area normal to the velocity
  mjtNum yz = r[1]*r[2], zx = r[2]*r[0], xy = r[0]*r[1];
  mjtNum a2 = yz*yz*v[0]*v[0] + zx*zx*v[1]*v[1] + xy*xy*v[2]*v[2];
  mjtNum a4 = yz*yz*yz*yz*v[0]*v[0] + zx*zx*zx*zx*v[1]*v[1] + xy*xy*xy*xy*v[2]*v[2];
  mjtNum area_proj = mjPI * sqrt(a4 / mju_max(mjMINVAL, a2));

  // Magnus lift: C_M rho V (w x v)
  mjtNum f_magnus[3];
  mju_cross(f_magnus, w, v);
  mju_scl3(f_magnus, f_magnus, magnus * rho * volume);

  // Kutta lift: C_K rho A_proj cos(alpha) (n x v) x v, n the cross-section normal
  mjtNum nrm[3] = {yz / r[0] * v[0], zx / r[1] * v[1], xy / r[2] * v[2]};
  mju_normalize3(nrm);
  mjtNum cos_alpha = a2 / mju_max(mjMINVAL, speed * sqrt(a4));
  mjtNum circ[3], f_kutta[3];
  mju_cross(circ, nrm, v);
  mju_scl3(circ, circ, kutta * rho * cos_alpha * area_proj);
  mju_cross(f_kutta, circ, v);

  // angular drag: reference inertia of the swept ellipsoid per axis
  mjtNum inert[3], mom[3];
  for (int i = 0; i < 3; i++) {
    mjtNum rj = r[(i+1) % 3], rk = r[(i+2) % 3];
    mjtNum rm = mju_max(rj, rk);
    inert[i] = 8.0 / 15.0 * mjPI * r[i] * rm*rm*rm*rm;
  }
  mjtNum inert_max = mju_max(mju_max(inert[0], inert[1]), inert[2]);
  for (int i = 0; i < 3; i++) {
    mom[i] = w[i] * (angular * inert[i] + slender * (inert_max - inert[i]));
  }

  // linear and angular drag coefficients: Stokes plus quadratic
  mjtNum diam = 2.0 / 3.0 * (r[0] + r[1] + r[2]);
  mjtNum drag_lin = beta * 3.0 * mjPI * diam +
                    rho * speed * (blunt * area_proj + slender * (area_max - area_proj));
  mjtNum drag_ang = beta * mjPI * diam*diam*diam + rho * mju_norm3(mom);

  // accumulate
  for (int i = 0; i < 3; i++) {
    lfrc[i] -= drag_ang * w[i];
    lfrc[3+i] += f_magnus[i] + f_kutta[i] - drag_lin * v[i];
  }
}

/* ellipsoid model for the geoms of one body that use it */
static void ellipsoid_model(const mjModel* m, mjData* d, int b) {
  for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
    const mjtNum* fluid = m->geom_fluid + mjNFLUID*g;
    if (fluid[0] == 0) {
      continue;
    }
    const mjtNum* pos = d->geom_xpos + 3*g;
    const mjtNum* rot = d->geom_xmat + 9*g;
    mjtNum r[3], lvel[6], lfrc[6] = {0, 0, 0, 0, 0, 0};

    // equivalent ellipsoid and local velocity of the geom
    tn__geomSemiAxes(m->geom_size + 3 * g, m->geom_type[g], r);
    tn__fluidLocalVelocity(m, d, b, pos, rot, lvel);

    // added mass, then drag, lift and viscosity
    added_mass_forces(lfrc, lvel, m->opt.density, fluid + 6, fluid + 9);
    viscous_forces(lfrc, lvel, m->opt.density, m->opt.viscosity, r, fluid + 1);

    // scale by the interaction coefficient, apply at the geom center
    mju_scl(lfrc, lfrc, fluid[0], 6);
    apply_local(m, d, lfrc, rot, pos, b);
  }
}

/* fluid forces of all bodies into qfrc_fluid */
void tn__fluidForces(const mjModel* m, mjData* d) {
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_mass[b] < mjMINVAL) {
      continue;
    }

    // any geom with the ellipsoid shape disables the inertia box for the body
    int ellipsoid = 0;
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
      if (m->geom_fluid[mjNFLUID*g] > 0) {
        ellipsoid = 1;
        break;
      }
    }

    if (ellipsoid) {
      ellipsoid_model(m, d, b);
    } else {
      inertia_box_model(m, d, b);
    }
  }
}
