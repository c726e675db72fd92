/* compiler/inertia_body.c — a body's inertial frame from its parts.
 *
 * When a body has no <inertial>, MuJoCo sums its geoms' masses and inertias: the center of
 * mass is the mass-weighted mean of the geom centers, each geom's inertia is rotated into
 * the body frame and shifted to that center (parallel axis theorem), and the summed tensor
 * is diagonalized with mju_eig3 (tn__eig3Compiler), whose eigenvalue order and frame quaternion
 * become body_inertia and body_iquat; a single part with mass keeps its own frame and inertia
 * unchanged. fullinertia goes through the same diagonalization. */
#include <math.h>
#include <stdio.h>

#include "compiler/compile_helpers.h"

/* smallest principal inertia accepted from fullinertia */
#define INERTIA_MINEIG 1E-14

/* rotate a diagonal inertia by quat: full = R (diag(I) R'), stored xx yy zz xy xz yz */
static void inertia_rotate(mjtNum full[6], const mjtNum I[3], const mjtNum quat[4]) {
  mjtNum R[9], IRt[9], F[9];
  mju_quat2Mat(R, quat);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      IRt[3 * i + j] = I[i] * R[3 * j + i];
    }
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      F[3 * i + j] = R[3 * i] * IRt[j] + R[3 * i + 1] * IRt[3 + j] + R[3 * i + 2] * IRt[6 + j];
    }
  }
  full[0] = F[0];
  full[1] = F[4];
  full[2] = F[8];
  full[3] = F[1];
  full[4] = F[2];
  full[5] = F[5];
}

/* inertia of a point mass at offset d: m (|d|^2 I - d d'), stored xx yy zz xy xz yz */
static void inertia_offset(mjtNum full[6], mjtNum m, const mjtNum d[3]) {
  full[0] = m * (d[1] * d[1] + d[2] * d[2]);
  full[1] = m * (d[0] * d[0] + d[2] * d[2]);
  full[2] = m * (d[0] * d[0] + d[1] * d[1]);
  full[3] = -m * d[0] * d[1];
  full[4] = -m * d[0] * d[2];
  full[5] = -m * d[1] * d[2];
}

/* diagonalize xx yy zz xy xz yz; returns the smallest principal value */
static mjtNum inertia_principal(const mjtNum f[6], mjtNum inertia[3], mjtNum quat[4]) {
  mjtNum mat[9] = {f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2]};
  mjtNum eigval[3], eigvec[9];
  tn__eig3Compiler(eigval, eigvec, quat, mat);
  inertia[0] = eigval[0];
  inertia[1] = eigval[1];
  inertia[2] = eigval[2];
  return eigval[2];
}

/* combine the mass properties of n parts into one inertial frame */
void tn__combineInertia(int n, const mjtNum* mass, const mjtNum* pos, const mjtNum* quat,
                        const mjtNum* inertia, mjtNum* mass_out, mjtNum ipos[3], mjtNum iquat[4],
                        mjtNum inertia_out[3]) {
  // total mass and center of mass
  mjtNum total = 0, com[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) {
    total += mass[i];
    for (int k = 0; k < 3; k++) {
      com[k] += mass[i] * pos[3 * i + k];
    }
  }
  *mass_out = total;

  // a single part with mass: its own frame and principal inertia, unsorted (as MuJoCo)
  int nmass = 0, last = -1;
  for (int i = 0; i < n; i++) {
    if (mass[i] > 0) {
      nmass++;
      last = i;
    }
  }
  if (nmass == 1) {
    for (int k = 0; k < 3; k++) {
      ipos[k] = pos[3 * last + k];
      inertia_out[k] = inertia[3 * last + k];
    }
    for (int k = 0; k < 4; k++) {
      iquat[k] = quat[4 * last + k];
    }
    return;
  }

  // massless: identity frame at the origin, zero inertia
  if (total < mjMINVAL) {
    ipos[0] = ipos[1] = ipos[2] = 0;
    iquat[0] = 1, iquat[1] = iquat[2] = iquat[3] = 0;
    inertia_out[0] = inertia_out[1] = inertia_out[2] = 0;
    return;
  }
  for (int k = 0; k < 3; k++) {
    ipos[k] = com[k] / total;
  }

  // sum of rotated part inertias, each shifted to the common center of mass
  mjtNum full[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    mjtNum rot[6], off[6];
    mjtNum d[3] = {pos[3 * i] - ipos[0], pos[3 * i + 1] - ipos[1], pos[3 * i + 2] - ipos[2]};
    inertia_rotate(rot, inertia + 3 * i, quat + 4 * i);
    inertia_offset(off, mass[i], d);
    for (int k = 0; k < 6; k++) {
      full[k] = full[k] + rot[k] + off[k];
    }
  }

  // principal axes
  inertia_principal(full, inertia_out, iquat);
}

/* fullinertia (ixx iyy izz ixy ixz iyz) to principal inertia and frame */
int tn__fullInertiaToPrincipal(const mjtNum full[6], mjtNum inertia[3], mjtNum quat[4], char* err,
                               int errsz) {
  if (inertia_principal(full, inertia, quat) < INERTIA_MINEIG) {
    if (err && errsz > 0) {
      snprintf(err, (size_t)errsz, "inertia must have positive eigenvalues");
    }
    return 0;
  }
  return 1;
}

/* add the mass properties of a second part (already in this body's frame) to a body's
 * inertial frame, as MuJoCo fuses a static body into its parent: masses and mass-weighted
 * centers summed from zero, each part's rotated inertia plus its offset term added to the
 * total, then diagonalized; returns 0 when the total is not positive definite */
int tn__accumulateInertia(mjtNum* mass, mjtNum ipos[3], mjtNum iquat[4], mjtNum inertia[3],
                          mjtNum omass, const mjtNum oipos[3], const mjtNum oiquat[4],
                          const mjtNum oinertia[3]) {
  const mjtNum m[2] = {*mass, omass};
  const mjtNum* p[2] = {ipos, oipos};
  mjtNum pos0[3] = {ipos[0], ipos[1], ipos[2]};
  mjtNum q[2][4], I[2][3];
  for (int k = 0; k < 4; k++) {
    q[0][k] = iquat[k];
    q[1][k] = oiquat[k];
  }
  for (int k = 0; k < 3; k++) {
    I[0][k] = inertia[k];
    I[1][k] = oinertia[k];
  }
  p[0] = pos0;

  // total mass and mass-weighted center
  mjtNum total = 0, com[3] = {0, 0, 0};
  for (int j = 0; j < 2; j++) {
    total += m[j];
    for (int k = 0; k < 3; k++) {
      com[k] += m[j] * p[j][k];
    }
  }
  *mass = total;

  // negligible total: no inertial frame
  if (total < mjMINVAL) {
    *mass = 0;
    ipos[0] = ipos[1] = ipos[2] = 0;
    iquat[0] = 1, iquat[1] = iquat[2] = iquat[3] = 0;
    inertia[0] = inertia[1] = inertia[2] = 0;
    return 1;
  }
  for (int k = 0; k < 3; k++) {
    ipos[k] = com[k] / total;
  }

  // both parts' inertias about the common center
  mjtNum full[6] = {0, 0, 0, 0, 0, 0};
  for (int j = 0; j < 2; j++) {
    mjtNum rot[6], off[6];
    mjtNum d[3] = {p[j][0] - ipos[0], p[j][1] - ipos[1], p[j][2] - ipos[2]};
    inertia_rotate(rot, I[j], q[j]);
    inertia_offset(off, m[j], d);
    for (int k = 0; k < 6; k++) {
      full[k] += rot[k] + off[k];
    }
  }
  return inertia_principal(full, inertia, iquat) >= INERTIA_MINEIG;
}
