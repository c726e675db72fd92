/* constraint/constraint_update.c — mj_constraintUpdate: the soft-constraint penalty s(jar)
 * of the reduced primal problem, its negative gradient (the constraint force), the state of
 * every row and, for Newton with elliptic cones, each contact's cone Hessian.
 *
 * Per row, with jar = J qacc - aref: equality rows are quadratic (0.5 D jar^2); friction
 * loss is Huber (quadratic inside |jar| < R f, linear outside); limits and pyramidal or
 * frictionless contacts are quadratic only when jar < 0. An elliptic contact maps to the
 * dual cone space U = (mu jar_0, fr_k jar_k) with N = U_0 and T = |U_1..|: zero cost above
 * the cone (N >= mu T), quadratic below its dual (mu N + T <= 0), and between them
 * 0.5 Dm (N - mu T)^2 with Dm = D_0 / (mu^2 (1 + mu^2)). */
#include <math.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* quadratic row: force and cost */
static mjtNum row_quadratic(const mjData* d, int i, mjtNum jar) {
  d->efc_force[i] = -d->efc_D[i] * jar;
  d->efc_state[i] = mjCNSTRSTATE_QUADRATIC;
  return 0.5 * d->efc_D[i] * jar * jar;
}

/* friction loss row: Huber penalty */
static mjtNum row_friction(const mjData* d, int i, mjtNum jar) {
  mjtNum f = d->efc_frictionloss[i], rf = d->efc_R[i] * f;

  // linear, negative side
  if (jar <= -rf) {
    d->efc_force[i] = f;
    d->efc_state[i] = mjCNSTRSTATE_LINEARNEG;
    return -f * (0.5 * rf + jar);
  }

  // linear, positive side
  if (jar >= rf) {
    d->efc_force[i] = -f;
    d->efc_state[i] = mjCNSTRSTATE_LINEARPOS;
    return -f * (0.5 * rf - jar);
  }

  // quadratic
  return row_quadratic(d, i, jar);
}

/* cone Hessian of the middle zone: d2s/djar2 (dim x dim, row-major, in con->H) */
static void cone_hessian(mjContact* con, const mjtNum* U, mjtNum N, mjtNum T, mjtNum Dm) {
  int dim = con->dim;
  mjtNum mu = con->mu, scl[6], *H = con->H;
  mjtNum NmT = N - mu * T, T3 = T * T * T;

  // Hessian in U space
  H[0] = Dm;
  for (int j = 1; j < dim; j++) {
    H[j] = H[j * dim] = -Dm * mu * U[j] / T;
  }
  for (int j = 1; j < dim; j++) {
    for (int k = j; k < dim; k++) {
      mjtNum v = Dm * (mu * N * U[j] * U[k] / T3 - (j == k ? mu * NmT / T : 0));
      H[j * dim + k] = H[k * dim + j] = v;
    }
  }

  // chain rule: jar -> U is diag(mu, friction)
  scl[0] = mu;
  for (int j = 1; j < dim; j++) {
    scl[j] = con->friction[j - 1];
  }
  for (int j = 0; j < dim; j++) {
    for (int k = 0; k < dim; k++) {
      H[j * dim + k] *= scl[j] * scl[k];
    }
  }
}

/* elliptic contact at rows i..i+dim-1; returns its cost */
static mjtNum rows_elliptic(const mjData* d, int i, const mjtNum* jar, int flg_coneHessian) {
  mjContact* con = d->contact + d->efc_id[i];
  int dim = con->dim;
  mjtNum mu = con->mu, U[6], cost = 0;

  // dual cone space: normal and tangential magnitudes
  U[0] = jar[i] * mu;
  for (int j = 1; j < dim; j++) {
    U[j] = jar[i + j] * con->friction[j - 1];
  }
  mjtNum N = U[0], T = mju_norm(U + 1, dim - 1);

  // top zone: inside the cone, no force
  if (N >= mu * T || (T <= 0 && N >= 0)) {
    for (int j = 0; j < dim; j++) {
      d->efc_force[i + j] = 0;
      d->efc_state[i + j] = mjCNSTRSTATE_SATISFIED;
    }
    return 0;
  }

  // bottom zone: quadratic in every row
  if (mu * N + T <= 0 || (T <= 0 && N < 0)) {
    for (int j = 0; j < dim; j++) {
      cost += row_quadratic(d, i + j, jar[i + j]);
    }
    return cost;
  }

  // middle zone: squared distance to the cone
  mjtNum Dm = d->efc_D[i] / (mu * mu * (1 + mu * mu));
  mjtNum NmT = N - mu * T;
  cost = 0.5 * Dm * NmT * NmT;
  d->efc_force[i] = -Dm * NmT * mu;
  for (int j = 1; j < dim; j++) {
    d->efc_force[i + j] = -d->efc_force[i] / T * U[j] * con->friction[j - 1];
  }
  for (int j = 0; j < dim; j++) {
    d->efc_state[i + j] = mjCNSTRSTATE_CONE;
  }
  if (flg_coneHessian) {
    cone_hessian(con, U, N, T, Dm);
  }
  return cost;
}

/* forces, states, qfrc_constraint and cost at jar */
void mj_constraintUpdate(const mjModel* m, mjData* d, const mjtNum* jar, mjtNum cost[1],
                         int flg_coneHessian) {
  tn__constraintUpdateIsland(m, d, jar, cost, flg_coneHessian, -1);
}

/* as mj_constraintUpdate, over the rows of one island only (island < 0: all rows); the
 * other rows keep their force and state, and qfrc_constraint = J' efc_force is exact on
 * the island's dofs (no other row touches them) */
void tn__constraintUpdateIsland(const mjModel* m, mjData* d, const mjtNum* jar, mjtNum cost[1],
                                int flg_coneHessian, int island) {
  int ne = d->ne, nf = d->nf;
  mjtNum s = 0;

  // the island's rows, ascending (an elliptic contact's rows are consecutive in them)
  const int* rows = island < 0 ? NULL : d->map_iefc2efc + d->island_iefcadr[island];
  int nrow = island < 0 ? d->nefc : d->island_nefc[island];
  for (int k = 0; k < nrow; k++) {
    int i = rows ? rows[k] : k;

    // equality: always quadratic
    if (i < ne) {
      s += row_quadratic(d, i, jar[i]);
      continue;
    }

    // friction loss: Huber
    if (i < ne + nf) {
      s += row_friction(d, i, jar[i]);
      continue;
    }

    // elliptic contact: the whole cone at once
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      s += rows_elliptic(d, i, jar, flg_coneHessian);
      k += d->contact[d->efc_id[i]].dim - 1;
      continue;
    }

    // limit, frictionless or pyramidal: active when violated
    if (jar[i] < 0) {
      s += row_quadratic(d, i, jar[i]);
    } else {
      d->efc_force[i] = 0;
      d->efc_state[i] = mjCNSTRSTATE_SATISFIED;
    }
  }

  // joint-space constraint force (one island: its dofs, from its rows only)
  if (island < 0) {
    mj_mulJacTVec(m, d, d->qfrc_constraint, d->efc_force);
  } else {
    int adr = d->island_idofadr[island];
    for (int k = adr; k < adr + d->island_nv[island]; k++) {
      d->qfrc_constraint[d->map_idof2dof[k]] = 0;
    }
    tn__rowsAddForce(m, d, rows, nrow, d->qfrc_constraint);
  }
  if (cost) {
    *cost = s;
  }
}
