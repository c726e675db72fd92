/* mj_jacobians.c — MuJoCo's Jacobian family beyond mj_jac and the inertia helpers, at a
 * moving state: mj_jacSubtreeCom, mj_jacPointAxis, mj_jacDot, mj_angmomMat (with H*qvel
 * next to subtree_angmom), mj_applyFT, mj_local2Global, mj_makeM, mj_mulM2, mj_addM (dense
 * and sparse destinations) and mj_fwdKinematics. Written against MuJoCo's C API only.
 * Usage: mj_jacobians MODEL.xml NSTEP */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

/* print n numbers on one line after a label */
static void print_vec(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL.xml NSTEP\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  mjData* d = mj_makeData(m);
  int nv = (int)m->nv, nbody = (int)m->nbody;

  /* a moving state: step under a fixed control pattern, then a full forward pass */
  for (int t = 0; t < atoi(argv[2]); t++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.7 * ((t + 2 * i) % 5 - 2) / 2.0;
    mj_step(m, d);
  }
  mj_forward(m, d);
  mj_subtreeVel(m, d);

  mjtNum* jacp = malloc(sizeof(mjtNum) * 3 * nv);
  mjtNum* jacr = malloc(sizeof(mjtNum) * 3 * nv);
  mjtNum* vec = malloc(sizeof(mjtNum) * nv);
  mjtNum* res = malloc(sizeof(mjtNum) * nv);
  mjtNum* dense = malloc(sizeof(mjtNum) * nv * nv);

  /* per body: subtree com Jacobian, point/axis Jacobians, Jacobian derivative, angular
   * momentum matrix and its product with qvel */
  for (int b = 0; b < nbody; b++) {
    printf("body %d\n", b);
    mj_jacSubtreeCom(m, d, jacp, b);
    print_vec("jacSubtreeCom", jacp, 3 * nv);

    mjtNum point[3] = {d->xpos[3 * b] + 0.1, d->xpos[3 * b + 1] - 0.05, d->xpos[3 * b + 2] + 0.2};
    mjtNum axis[3] = {0.6, -0.48, 0.64};
    mj_jacPointAxis(m, d, jacp, jacr, point, axis, b);
    print_vec("jacPoint", jacp, 3 * nv);
    print_vec("jacAxis", jacr, 3 * nv);
    mj_jacPointAxis(m, d, NULL, jacr, point, axis, b);
    print_vec("jacAxisOnly", jacr, 3 * nv);

    mj_jacDot(m, d, jacp, jacr, point, b);
    print_vec("jacDotp", jacp, 3 * nv);
    print_vec("jacDotr", jacr, 3 * nv);
    mj_jacDot(m, d, NULL, jacr, d->xipos + 3 * b, b);
    print_vec("jacDotrOnly", jacr, 3 * nv);

    mj_angmomMat(m, d, jacp, b);
    print_vec("angmomMat", jacp, 3 * nv);
    mju_mulMatVec(res, jacp, d->qvel, 3, nv);
    print_vec("angmomMat*qvel", res, 3);
    print_vec("subtree_angmom", d->subtree_angmom + 3 * b, 3);

    /* a force and a torque at the point, either alone */
    mjtNum force[3] = {1.5, -2, 0.5}, torque[3] = {-0.3, 0.2, 0.9};
    mju_zero(res, nv);
    mj_applyFT(m, d, force, torque, point, b, res);
    print_vec("applyFT", res, nv);
    mj_applyFT(m, d, NULL, torque, point, b, res);
    mj_applyFT(m, d, force, NULL, point, b, res);
    print_vec("applyFT2", res, nv);

    /* a local frame on the body, with every sameframe mode */
    mjtNum pos[3] = {0.1, 0.2, -0.3}, quat[4] = {0.8, 0.36, 0.48, 0};
    for (int sf = 0; sf < 5; sf++) {
      mjtNum xpos[3], xmat[9];
      mj_local2Global(d, xpos, xmat, pos, quat, b, (mjtByte)sf);
      printf("local2Global %d", sf);
      print_vec("", xpos, 3);
      print_vec("  xmat", xmat, 9);
    }
  }

  /* M from scratch, its square root applied to a vector, and M added into matrices */
  for (int i = 0; i < nv; i++) vec[i] = 0.5 - 0.1 * i;
  mju_zero(d->M, (int)m->nC);
  mj_makeM(m, d);
  mju_zero(dense, nv * nv);
  mj_addM(m, d, dense, NULL, NULL, NULL);
  print_vec("M (lower)", dense, nv * nv);
  mj_factorM(m, d);
  mj_mulM2(m, d, res, vec);
  print_vec("mulM2", res, nv);
  printf("mulM2 norm^2 %.12g\n", mju_dot(res, res, nv));
  mj_mulM(m, d, res, vec);
  printf("vec'M vec %.12g\n", mju_dot(res, vec, nv));
  for (int i = 0; i < nv * nv; i++) dense[i] = 0.01 * i;
  mj_addM(m, d, dense, NULL, NULL, NULL);
  print_vec("addM dense", dense, nv * nv);

  /* sparse destination: a diagonal matrix with a full row's room in every row */
  int* rownnz = malloc(sizeof(int) * nv);
  int* rowadr = malloc(sizeof(int) * nv);
  int* colind = malloc(sizeof(int) * nv * nv);
  for (int i = 0; i < nv; i++) {
    rownnz[i] = 1;
    rowadr[i] = i * nv;
    colind[i * nv] = i;
    dense[i * nv] = 10 + i;
  }
  mj_addM(m, d, dense, rownnz, rowadr, colind);
  for (int i = 0; i < nv; i++) {
    printf("addM sparse row %d:", i);
    for (int k = 0; k < rownnz[i]; k++) {
      printf(" %d %.12g", colind[rowadr[i] + k], dense[rowadr[i] + k]);
    }
    printf("\n");
  }

  /* kinematics only, at a changed configuration */
  for (int i = 0; i < m->nq; i++) d->qpos[i] += 0.01 * (i % 3);
  mj_normalizeQuat(m, d->qpos);
  mj_fwdKinematics(m, d);
  print_vec("xpos", d->xpos, 3 * nbody);
  print_vec("xquat", d->xquat, 4 * nbody);
  print_vec("subtree_com", d->subtree_com, 3 * nbody);
  print_vec("cdof", d->cdof, 6 * nv);
  print_vec("geom_xpos", d->geom_xpos, 3 * (int)m->ngeom);
  print_vec("ten_length", d->ten_length, (int)m->ntendon);

  free(rownnz);
  free(rowadr);
  free(colind);
  free(jacp);
  free(jacr);
  free(vec);
  free(res);
  free(dense);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
