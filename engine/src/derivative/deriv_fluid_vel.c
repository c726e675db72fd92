/* derivative/deriv_fluid_vel.c — derivatives of the fluid forces (passive/fluid.c) with
 * respect to the joint velocities, added to d->qDeriv.
 *
 * Both fluid models compute a local force lfrc (torque, force) from the local velocity
 * lvel (angular, linear; wind removed) of a frame (pos, R) on a body, and apply R*lfrc at
 * pos. With U = blockdiag(R, R)' [jacr; jacp] the map qvel -> lvel (the wind is constant),
 * the derivative is U' B U with B = d(lfrc)/d(lvel), a 6x6 matrix:
 * - inertia box (the body's inertial frame): B is diagonal; viscous terms are linear and
 *   d(|x| x)/dx = 2|x| for the quadratic drag;
 * - ellipsoid (each geom with fluidshape ellipsoid, at the geom frame): added mass, Magnus
 *   and Kutta lift, linear and angular drag, each differentiated analytically below, all
 *   scaled by the interaction coefficient. B is not symmetric; under implicitfast it is
 *   replaced by (B + B')/2, as MuJoCo does, so that qDeriv stays symmetric (not on a free
 *   rigid tree, which implicitfast integrates like implicit: see tn__isFreeRigidTree).
 * A max(mjMINVAL, x) of the force model has zero derivative where it clamps; a vector
 * divided by a vanishing norm is treated as zero. */
#include <math.h>

#include <torsion/torsion.h>

#include "derivative/derivative.h"
#include "passive/fluid.h"
#include "util/util_inline.h"

/* ---- small 3x3 helpers for blocks of B (row-major 6x6) ---- */

/* B(r0.., c0..) += s * [x]x (the matrix of y -> x cross y) */
static void b_add_cross(mjtNum B[36], int r0, int c0, const mjtNum x[3], mjtNum s) {
  B[6 * (r0 + 0) + c0 + 1] -= s * x[2];
  B[6 * (r0 + 0) + c0 + 2] += s * x[1];
  B[6 * (r0 + 1) + c0 + 0] += s * x[2];
  B[6 * (r0 + 1) + c0 + 2] -= s * x[0];
  B[6 * (r0 + 2) + c0 + 0] -= s * x[1];
  B[6 * (r0 + 2) + c0 + 1] += s * x[0];
}

/* B(r0.., c0..) += s * [x]x diag(p) (y -> x cross (p .* y)) */
static void b_add_cross_diag(mjtNum B[36], int r0, int c0, const mjtNum x[3], const mjtNum p[3],
                             mjtNum s) {
  B[6 * (r0 + 0) + c0 + 1] -= s * x[2] * p[1];
  B[6 * (r0 + 0) + c0 + 2] += s * x[1] * p[2];
  B[6 * (r0 + 1) + c0 + 0] += s * x[2] * p[0];
  B[6 * (r0 + 1) + c0 + 2] -= s * x[0] * p[2];
  B[6 * (r0 + 2) + c0 + 0] -= s * x[1] * p[0];
  B[6 * (r0 + 2) + c0 + 1] += s * x[0] * p[1];
}

/* B(r0.., c0..) += s * (x y' + diag(c)) with c = dg (added to the diagonal) */
static void b_add_outer(mjtNum B[36], int r0, int c0, const mjtNum x[3], const mjtNum y[3],
                        mjtNum s, mjtNum dg) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      B[6 * (r0 + i) + c0 + j] += s * x[i] * y[j];
    }
    B[6 * (r0 + i) + c0 + i] += dg;
  }
}

/* M(3x3) = [x]x A (A 3x3 row-major) */
static void cross_mat(mjtNum res[9], const mjtNum x[3], const mjtNum A[9]) {
  for (int j = 0; j < 3; j++) {
    mjtNum a0 = A[j], a1 = A[3 + j], a2 = A[6 + j];
    res[j] = x[1] * a2 - x[2] * a1;
    res[3 + j] = x[2] * a0 - x[0] * a2;
    res[6 + j] = x[0] * a1 - x[1] * a0;
  }
}

/* ---- the map qvel -> local velocity ---- */

/* U = blockdiag(R, R)' [jacr; jacp] (6 x nv) at global pos on body b; jac: 6*nv scratch */
static void fluid_u(const mjModel* m, const mjData* d, int b, const mjtNum pos[3],
                    const mjtNum R[9], mjtNum* jac, mjtNum* U) {
  int nv = m->nv;
  mjtNum* jacp = jac;
  mjtNum* jacr = jac + 3 * nv;
  mj_jac(m, d, jacp, jacr, pos, b);
  for (int l = 0; l < 3; l++) {
    for (int r = 0; r < nv; r++) {
      U[l * nv + r] = R[l] * jacr[r] + R[3 + l] * jacr[nv + r] + R[6 + l] * jacr[2 * nv + r];
      U[(3 + l) * nv + r] = R[l] * jacp[r] + R[3 + l] * jacp[nv + r] + R[6 + l] * jacp[2 * nv + r];
    }
  }
}

/* qDeriv += U' B U on the D pattern (U 6 x nv, B 6x6 row-major) */
static void fluid_add_ut_bu(const mjModel* m, mjtNum* qDeriv, const mjtNum* U, const mjtNum B[36]) {
  int nv = m->nv;
  for (int r = 0; r < nv; r++) {
    // t = U(:, r)' B
    mjtNum t[6] = {0, 0, 0, 0, 0, 0};
    int any = 0;
    for (int l = 0; l < 6; l++) {
      mjtNum u = U[l * nv + r];
      if (u != 0) {
        any = 1;
        for (int c = 0; c < 6; c++) {
          t[c] += u * B[6 * l + c];
        }
      }
    }
    if (!any) {
      continue;
    }

    // row r: t U(:, col) for every column of the pattern
    int adr = m->D_rowadr[r], end = adr + m->D_rownnz[r];
    for (int k = adr; k < end; k++) {
      int col = m->D_colind[k];
      mjtNum sum = 0;
      for (int c = 0; c < 6; c++) {
        sum += t[c] * U[c * nv + col];
      }
      qDeriv[k] += sum;
    }
  }
}

/* ---- inertia-box model ---- */

/* diagonal of B for the inertia box of body b at local velocity lvel */
static void box_b(const mjModel* m, int b, const mjtNum lvel[6], mjtNum Bdiag[6]) {
  const mjtNum* inertia = m->body_inertia + 3 * b;
  mjtNum mass = m->body_mass[b];
  mjtNum rho = m->opt.density, beta = m->opt.viscosity;
  mjtNum box[3];

  // full sides of the box with the body's inertia
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    box[i] = sqrt(mju_max(mjMINVAL, inertia[j] + inertia[k] - inertia[i]) / mass * 6.0);
  }

  // viscous (linear) and quadratic drag, per axis
  mjtNum diam = (box[0] + box[1] + box[2]) / 3.0;
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    mjtNum bj2 = box[j] * box[j], bk2 = box[k] * box[k];
    Bdiag[i] = -diam * diam * diam * mjPI * beta -
               2 * rho * box[i] * (bj2 * bj2 + bk2 * bk2) * fabs(lvel[i]) / 64.0;
    Bdiag[3 + i] = -3.0 * diam * mjPI * beta - rho * box[j] * box[k] * fabs(lvel[3 + i]);
  }
}

/* qDeriv += derivative of the inertia-box force of body b */
static void box_derivative(const mjModel* m, mjData* d, int b, mjtNum* jac, mjtNum* U) {
  const mjtNum* pos = d->xipos + 3 * b;
  const mjtNum* R = d->ximat + 9 * b;
  mjtNum lvel[6], Bdiag[6];

  tn__fluidLocalVelocity(m, d, b, pos, R, lvel);
  box_b(m, b, lvel, Bdiag);

  // diagonal B: one rank-one update per local axis
  fluid_u(m, d, b, pos, R, jac, U);
  for (int l = 0; l < 6; l++) {
    if (Bdiag[l] != 0) {
      tn__addOuterD(m, d->qDeriv, U + (size_t)l * m->nv, Bdiag[l]);
    }
  }
}

/* ---- ellipsoid model ---- */

/* added mass: T += p x v + L x w, F += p x w with p = rho vm .* v, L = rho vi .* w */
static void ell_added_mass(mjtNum B[36], const mjtNum lvel[6], mjtNum rho, const mjtNum vm[3],
                           const mjtNum vi[3]) {
  const mjtNum* w = lvel;
  const mjtNum* v = lvel + 3;
  mjtNum p[3], L[3], P[3], W[3];
  for (int i = 0; i < 3; i++) {
    P[i] = rho * vm[i];
    W[i] = rho * vi[i];
    p[i] = P[i] * v[i];
    L[i] = W[i] * w[i];
  }

  // dT/dv = [p] - [v] P,  dT/dw = [L] - [w] W
  b_add_cross(B, 0, 3, p, 1);
  b_add_cross_diag(B, 0, 3, v, P, -1);
  b_add_cross(B, 0, 0, L, 1);
  b_add_cross_diag(B, 0, 0, w, W, -1);

  // dF/dv = -[w] P,  dF/dw = [p]
  b_add_cross_diag(B, 3, 3, w, P, -1);
  b_add_cross(B, 3, 0, p, 1);
}

/* shape measures of the ellipsoid model that depend on the linear velocity */
typedef struct {
  mjtNum speed, a2, a4, area, dspeed[3], darea[3];
} ellShape;

/* projected area A = pi sqrt(a4 / max(mjMINVAL, a2)), speed |v|, and their gradients */
static void ell_shape(const mjtNum r[3], const mjtNum v[3], ellShape* s) {
  mjtNum dd[3] = {r[1] * r[2], r[2] * r[0], r[0] * r[1]};
  mjtNum d2[3], d4[3];
  for (int i = 0; i < 3; i++) {
    d2[i] = dd[i] * dd[i];
    d4[i] = d2[i] * d2[i];
  }
  s->a2 = d2[0] * v[0] * v[0] + d2[1] * v[1] * v[1] + d2[2] * v[2] * v[2];
  s->a4 = d4[0] * v[0] * v[0] + d4[1] * v[1] * v[1] + d4[2] * v[2] * v[2];
  s->speed = mju_norm3(v);
  mjtNum a2c = mju_max(mjMINVAL, s->a2);
  s->area = mjPI * sqrt(s->a4 / a2c);

  // d|v|/dv = v/|v| (zero at rest)
  mjtNum inv = s->speed > 0 ? 1 / s->speed : 0;
  mju_scl3(s->dspeed, v, inv);

  // dA/dv = A/2 (da4/a4 - da2/a2) with da_n = 2 d_n .* v (a2 clamped: constant)
  for (int i = 0; i < 3; i++) {
    mjtNum g4 = s->a4 > 0 ? 2 * d4[i] * v[i] / s->a4 : 0;
    mjtNum g2 = s->a2 >= mjMINVAL ? 2 * d2[i] * v[i] / s->a2 : 0;
    s->darea[i] = s->area > 0 ? 0.5 * s->area * (g4 - g2) : 0;
  }
}

/* Kutta lift F += ck g(v) (n x v) x v, with g = cos(alpha) A and n = Nv/|Nv| */
static void ell_kutta(mjtNum B[36], const mjtNum v[3], const mjtNum r[3], const ellShape* s,
                      mjtNum ck) {
  mjtNum N[3] = {r[1] * r[2] / r[0], r[2] * r[0] / r[1], r[0] * r[1] / r[2]};
  mjtNum nv[3] = {N[0] * v[0], N[1] * v[1], N[2] * v[2]};
  mjtNum nrm[3] = {nv[0], nv[1], nv[2]};
  mjtNum nnorm = mju_normalize3(nrm);

  // g = cos(alpha) A with cos(alpha) = a2 / max(mjMINVAL, |v| sqrt(a4)), and its gradient
  mjtNum sa4 = sqrt(s->a4), den = s->speed * sa4;
  mjtNum denc = mju_max(mjMINVAL, den);
  mjtNum cosa = s->a2 / denc, g = cosa * s->area;
  mjtNum dg[3];
  for (int i = 0; i < 3; i++) {
    mjtNum da2 = 2 * r[(i + 1) % 3] * r[(i + 1) % 3] * r[(i + 2) % 3] * r[(i + 2) % 3] * v[i];
    mjtNum dden = 0;
    if (den >= mjMINVAL) {
      mjtNum dd4 = r[(i + 1) % 3] * r[(i + 2) % 3];
      dd4 = dd4 * dd4 * dd4 * dd4;
      dden = s->dspeed[i] * sa4 + (sa4 > 0 ? s->speed * dd4 * v[i] / sa4 : 0);
    }
    mjtNum dcosa = (da2 - cosa * dden) / denc;
    dg[i] = dcosa * s->area + cosa * s->darea[i];
  }

  // dn/dv = (I - n n') N / |Nv| (zero when n falls back to a fixed axis)
  mjtNum dn[9] = {0};
  if (nnorm >= mjMINVAL) {
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        dn[3 * i + j] = ((i == j) - nrm[i] * nrm[j]) * N[j] / nnorm;
      }
    }
  }

  // q = n x v, dq/dv = [n] - [v] dn;  h = q x v, dh/dv = [q] - [v] dq
  mjtNum q[3], h[3], dq[9], vdn[9], dh[9], vdq[9];
  mju_cross(q, nrm, v);
  mju_cross(h, q, v);
  cross_mat(vdn, v, dn);
  for (int k = 0; k < 9; k++) {
    dq[k] = -vdn[k];
  }
  dq[1] -= nrm[2];
  dq[2] += nrm[1];
  dq[3] += nrm[2];
  dq[5] -= nrm[0];
  dq[6] -= nrm[1];
  dq[7] += nrm[0];
  cross_mat(vdq, v, dq);
  for (int k = 0; k < 9; k++) {
    dh[k] = -vdq[k];
  }
  dh[1] -= q[2];
  dh[2] += q[1];
  dh[3] += q[2];
  dh[5] -= q[0];
  dh[6] -= q[1];
  dh[7] += q[0];

  // dF/dv = ck (h dg' + g dh)
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      B[6 * (3 + i) + 3 + j] += ck * (h[i] * dg[j] + g * dh[3 * i + j]);
    }
  }
}

/* drag, lift and viscous terms (fluid coefficients coef = fluid[1..5]) */
static void ell_viscous(mjtNum B[36], const mjtNum lvel[6], mjtNum rho, mjtNum beta,
                        const mjtNum r[3], const mjtNum coef[5]) {
  const mjtNum* w = lvel;
  const mjtNum* v = lvel + 3;
  mjtNum blunt = coef[0], slender = coef[1], angular = coef[2];
  mjtNum kutta = coef[3], magnus = coef[4];
  ellShape s;
  ell_shape(r, v, &s);

  // Magnus lift: F += cm w x v, dF/dw = -cm [v], dF/dv = cm [w]
  mjtNum volume = 4.0 / 3.0 * mjPI * r[0] * r[1] * r[2];
  mjtNum cm = magnus * rho * volume;
  b_add_cross(B, 3, 0, v, -cm);
  b_add_cross(B, 3, 3, w, cm);

  // Kutta lift
  ell_kutta(B, v, r, &s, kutta * rho);

  // linear drag: F -= drag_lin v
  mjtNum dmax = mju_max(mju_max(r[0], r[1]), r[2]);
  mjtNum dmin = mju_min(mju_min(r[0], r[1]), r[2]);
  mjtNum dmid = r[0] + r[1] + r[2] - dmax - dmin;
  mjtNum area_max = mjPI * dmax * dmid;
  mjtNum diam = 2.0 / 3.0 * (r[0] + r[1] + r[2]);
  mjtNum quad = blunt * s.area + slender * (area_max - s.area);
  mjtNum drag_lin = beta * 3.0 * mjPI * diam + rho * s.speed * quad;
  mjtNum ddrag[3];
  for (int i = 0; i < 3; i++) {
    ddrag[i] = rho * (s.dspeed[i] * quad + s.speed * (blunt - slender) * s.darea[i]);
  }
  b_add_outer(B, 3, 3, v, ddrag, -1, -drag_lin);

  // angular drag: T -= drag_ang w with drag_ang = beta pi diam^3 + rho |kappa .* w|
  mjtNum inert[3], kappa[3], mom[3];
  for (int i = 0; i < 3; i++) {
    mjtNum rj = r[(i + 1) % 3], rk = r[(i + 2) % 3];
    mjtNum rm = mju_max(rj, rk);
    inert[i] = 8.0 / 15.0 * mjPI * r[i] * rm * rm * rm * rm;
  }
  mjtNum inert_max = mju_max(mju_max(inert[0], inert[1]), inert[2]);
  for (int i = 0; i < 3; i++) {
    kappa[i] = angular * inert[i] + slender * (inert_max - inert[i]);
    mom[i] = w[i] * kappa[i];
  }
  mjtNum mnorm = mju_norm3(mom);
  mjtNum drag_ang = beta * mjPI * diam * diam * diam + rho * mnorm;
  mjtNum dang[3];
  for (int i = 0; i < 3; i++) {
    dang[i] = mnorm > 0 ? rho * kappa[i] * mom[i] / mnorm : 0;
  }
  b_add_outer(B, 0, 0, w, dang, -1, -drag_ang);
}

/* qDeriv += derivative of the ellipsoid forces of body b's geoms */
static void ellipsoid_derivative(const mjModel* m, mjData* d, int b, mjtNum* jac, mjtNum* U) {
  int symmetric =
      m->opt.integrator == mjINT_IMPLICITFAST && !tn__isFreeRigidTree(m, m->body_treeid[b]);
  for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
    const mjtNum* fluid = m->geom_fluid + mjNFLUID * g;
    if (fluid[0] == 0) {
      continue;
    }
    const mjtNum* pos = d->geom_xpos + 3 * g;
    const mjtNum* R = d->geom_xmat + 9 * g;
    mjtNum r[3], lvel[6], B[36] = {0};

    // equivalent ellipsoid and local velocity of the geom
    tn__geomSemiAxes(m->geom_size + 3 * g, m->geom_type[g], r);
    tn__fluidLocalVelocity(m, d, b, pos, R, lvel);

    // B: added mass, then drag, lift and viscosity, scaled by the interaction coefficient
    ell_added_mass(B, lvel, m->opt.density, fluid + 6, fluid + 9);
    ell_viscous(B, lvel, m->opt.density, m->opt.viscosity, r, fluid + 1);
    mju_scl(B, B, fluid[0], 36);

    // implicitfast: symmetric part only
    if (symmetric) {
      for (int i = 0; i < 6; i++) {
        for (int j = i + 1; j < 6; j++) {
          mjtNum avg = 0.5 * (B[6 * i + j] + B[6 * j + i]);
          B[6 * i + j] = B[6 * j + i] = avg;
        }
      }
    }

    // qDeriv += U' B U
    fluid_u(m, d, b, pos, R, jac, U);
    fluid_add_ut_bu(m, d->qDeriv, U, B);
  }
}

/* ---- all bodies ---- */

/* 1 if body b or an ancestor has dofs (otherwise it cannot move and adds nothing) */
static int body_moves(const mjModel* m, int b) {
  for (; b > 0; b = m->body_parentid[b]) {
    if (m->body_dofnum[b]) {
      return 1;
    }
  }
  return 0;
}

/* qDeriv += fluid-force derivatives of every body */
void tn__fluidDerivative(const mjModel* m, mjData* d) {
  mj_markStack(d);
  mjtNum* jac = mj_stackAllocNum(d, 6 * (size_t)m->nv);
  mjtNum* U = mj_stackAllocNum(d, 6 * (size_t)m->nv);
  if (!jac || !U) {
    mj_freeStack(d);
    return;
  }

  for (int b = 1; b < m->nbody; b++) {
    if (m->body_mass[b] < mjMINVAL || !body_moves(m, b)) {
      continue;
    }

    // the ellipsoid model when any geom of the body uses it, else the inertia box
    int ellipsoid = 0;
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
      if (m->geom_fluid[mjNFLUID * g] > 0) {
        ellipsoid = 1;
        break;
      }
    }
    if (ellipsoid) {
      ellipsoid_derivative(m, d, b, jac, U);
    } else {
      box_derivative(m, d, b, jac, U);
    }
  }

  mj_freeStack(d);
}
