/* integrate/implicit.c — the implicit-in-velocity integrators (implicit, implicitfast).
 *
 * Linearizing a(v') about v, v' = v + h a(v') becomes (M - h D) qacc = qfrc_smooth +
 * qfrc_constraint with D = d(qfrc_smooth)/d(qvel) (constraint forces excluded), computed
 * analytically in d->qDeriv (src/derivative). The step then advances like Euler with this
 * qacc (d->qacc itself is left as the forward dynamics computed it).
 * - implicit: D includes the RNE derivative and is not symmetric. M - h D, in the D pattern
 *   in d->qLU, is factored as (I + U) L by eliminating from the last dof backwards: the
 *   rows touched when eliminating column i are i's ancestors, whose columns left of i are
 *   all ancestors of i too, so a tree pattern has no fill-in.
 * - implicitfast: no RNE derivative, D symmetric; M - h D is factored L'DL in M's layout
 *   (d->qH, d->qHDiagInv), as the Euler integrator does with its damping. MuJoCo's M
 *   pattern leaves out the couplings among the dofs of a simple body (exact zeros of M,
 *   kept by Torsion's full pattern), so D's entries there are dropped as well. Trees made
 *   of one free rigid body are the exception (MuJoCo 3.14 behaviour, measured): their 6x6
 *   block is solved with the full derivative, RNE included and fluid not symmetrized,
 *   exactly as implicit would; their rows of qH hold the factor of M. */
#include <math.h>

#include <torsion/torsion.h>

#include "derivative/derivative.h"
#include "integrate/implicit.h"
#include "integrate/integrate.h"
#include "smooth/smooth.h"
#include "util/timer.h"

/* ---- sparse LU in the D pattern ---- */

/* pivot of row i, kept away from zero */
static mjtNum lu_pivot(mjData* d, mjtNum* LU, int adr, int i) {
  if (fabs(LU[adr]) < mjMINVAL) {
    mj_warning(d, mjWARN_INERTIA, i);
    LU[adr] = LU[adr] < 0 ? -mjMINVAL : mjMINVAL;
  }
  return LU[adr];
}

/* for every entry (i, j) below the diagonal, the index of (j, i): row j lists its
 * descendants in increasing order after its diagonal */
static void lu_transpose_map(const mjModel* m, int* trans, int* fill) {
  for (int j = 0; j < m->nv; j++) {
    fill[j] = m->D_rowadr[j] + m->D_diag[j] + 1;
  }
  for (int i = 0; i < m->nv; i++) {
    int adr = m->D_rowadr[i];
    for (int k = 0; k < m->D_diag[i]; k++) {
      trans[adr + k] = fill[m->D_colind[adr + k]]++;
    }
  }
}

/* index of entry (j, k) of the D pattern, k an ancestor of j, j itself or a descendant */
static int lu_index(const mjModel* m, const int* trans, int j, int k) {
  return k <= j ? m->D_rowadr[j] + m->D_diag[k] : trans[m->D_rowadr[k] + m->D_diag[j]];
}

/* eliminate column i from row j (an ancestor of i) using row i */
static void lu_eliminate_row(const mjModel* m, const int* trans, mjtNum* LU, int i, int j,
                             mjtNum pivot) {
  // U(j, i) = A(j, i) / A(i, i)
  int ji = lu_index(m, trans, j, i);
  LU[ji] /= pivot;
  mjtNum u = LU[ji];

  // A(j, k) -= U(j, i) A(i, k) for the columns k < i of row i: ancestors of i, hence
  // ancestors of j, j itself, or descendants of j (no fill-in)
  int adri = m->D_rowadr[i];
  for (int ki = adri; ki < adri + m->D_diag[i]; ki++) {
    LU[lu_index(m, trans, j, m->D_colind[ki])] -= u * LU[ki];
  }
}

/* in-place (I + U) L factorization of a matrix in the D pattern */
void tn__factorLU(const mjModel* m, mjData* d, mjtNum* LU) {
  int nv = m->nv;
  mj_markStack(d);
  int* trans = mj_stackAllocInt(d, m->nD ? m->nD : 1);
  int* fill = mj_stackAllocInt(d, nv ? nv : 1);
  if (!trans || !fill) {
    mj_freeStack(d);
    return;
  }
  lu_transpose_map(m, trans, fill);

  // eliminate from the last column backwards
  for (int i = nv - 1; i >= 0; i--) {
    int adri = m->D_rowadr[i];
    mjtNum pivot = lu_pivot(d, LU, adri + m->D_diag[i], i);

    // every row j < i with an entry in column i: the ancestors of i
    for (int k = adri; k < adri + m->D_diag[i]; k++) {
      lu_eliminate_row(m, trans, LU, i, m->D_colind[k], pivot);
    }
  }
  mj_freeStack(d);
}

/* solve (I + U) L x = b */
void tn__solveLU(const mjModel* m, const mjtNum* LU, mjtNum* x, const mjtNum* b) {
  int nv = m->nv;
  if (x != b) {
    mju_copy(x, b, nv);
  }

  // (I + U) y = b, backwards: y(i) = b(i) - sum over k > i of U(i, k) y(k)
  for (int i = nv - 1; i >= 0; i--) {
    int adr = m->D_rowadr[i], end = adr + m->D_rownnz[i];
    mjtNum xi = x[i];
    for (int k = adr + m->D_diag[i] + 1; k < end; k++) {
      xi -= LU[k] * x[m->D_colind[k]];
    }
    x[i] = xi;
  }

  // L x = y, forwards: x(i) = (y(i) - sum over k < i of L(i, k) x(k)) / L(i, i)
  for (int i = 0; i < nv; i++) {
    int adr = m->D_rowadr[i], diag = adr + m->D_diag[i];
    mjtNum xi = x[i];
    for (int k = adr; k < diag; k++) {
      xi -= LU[k] * x[m->D_colind[k]];
    }
    x[i] = xi / LU[diag];
  }
}

/* ---- the two integrators ---- */

/* implicit: qacc = (M - h qDeriv)^-1 qfrc with the full derivative, factored LU in qLU */
static void implicit_full(const mjModel* m, mjData* d, mjtNum* qacc) {
  mjtNum h = m->opt.timestep;

  // qDeriv with the RNE derivative
  mjd_smooth_vel(m, d, 1);

  // qLU = M - h qDeriv in the D pattern (M is symmetric: mapM2D gives each entry's slot)
  for (int k = 0; k < m->nD; k++) {
    d->qLU[k] = d->M[m->mapM2D[k]] - h * d->qDeriv[k];
  }

  // factor and solve
  tn__factorLU(m, d, d->qLU);
  tn__solveLU(m, d->qLU, qacc, qacc);
}

/* ---- implicitfast ---- */

/* mark the free rigid trees (integrated like implicit); returns their number */
static int fast_free_trees(const mjModel* m, int* mask) {
  int n = 0;
  for (int t = 0; t < m->ntree; t++) {
    mask[t] = tn__isFreeRigidTree(m, t);
    n += mask[t];
  }
  return n;
}

/* qH = M - h qDeriv on M's lower-triangle layout, factored L'DL. Rows of simple-body dofs
 * keep only their diagonal (MuJoCo's M pattern omits their zero couplings); rows of free
 * rigid trees keep M (their step is solved separately) */
static void fast_factor(const mjModel* m, mjData* d, const int* freemask) {
  mjtNum h = m->opt.timestep;
  mju_copy(d->qH, d->M, m->nC);
  for (int i = 0; i < m->nv; i++) {
    if (freemask[m->dof_treeid[i]]) {
      continue;
    }
    int adr = m->M_rowadr[i], diag = adr + m->M_rownnz[i] - 1;
    int start = m->dof_simplenum[i] ? diag : adr;
    for (int k = start; k <= diag; k++) {
      d->qH[k] -= h * d->qDeriv[m->mapD2M[k]];
    }
  }
  tn__factorLD(m, d, d->qH, d->qHDiagInv);
}

/* solve the dense n x n system A x = x in place (Gaussian elimination, partial pivoting) */
static void dense_solve(mjtNum* A, mjtNum* x, int n) {
  for (int c = 0; c < n; c++) {
    // pivot: largest magnitude in column c
    int p = c;
    for (int r = c + 1; r < n; r++) {
      if (fabs(A[r * n + c]) > fabs(A[p * n + c])) {
        p = r;
      }
    }
    if (p != c) {
      for (int k = 0; k < n; k++) {
        mjtNum tmp = A[c * n + k];
        A[c * n + k] = A[p * n + k];
        A[p * n + k] = tmp;
      }
      mjtNum tmp = x[c];
      x[c] = x[p];
      x[p] = tmp;
    }
    if (fabs(A[c * n + c]) < mjMINVAL) {
      A[c * n + c] = A[c * n + c] < 0 ? -mjMINVAL : mjMINVAL;
    }

    // eliminate below the pivot
    for (int r = c + 1; r < n; r++) {
      mjtNum f = A[r * n + c] / A[c * n + c];
      for (int k = c; k < n; k++) {
        A[r * n + k] -= f * A[c * n + k];
      }
      x[r] -= f * x[c];
    }
  }

  // back substitution
  for (int r = n - 1; r >= 0; r--) {
    mjtNum sum = x[r];
    for (int k = r + 1; k < n; k++) {
      sum -= A[r * n + k] * x[k];
    }
    x[r] = sum / A[r * n + r];
  }
}

/* qacc of free rigid tree t: (M - h deriv)^-1 rhs on its 6 dofs, deriv in the D pattern */
static void fast_free_solve(const mjModel* m, mjData* d, int t, const mjtNum* deriv,
                            const mjtNum* rhs, mjtNum* qacc) {
  mjtNum h = m->opt.timestep, A[36];
  int adr = m->tree_dofadr[t];

  // dense block: the tree's D rows hold only its own 6 dofs
  for (int i = 0; i < 6; i++) {
    int rowadr = m->D_rowadr[adr + i];
    for (int k = rowadr; k < rowadr + m->D_rownnz[adr + i]; k++) {
      int j = m->D_colind[k] - adr;
      A[6 * i + j] = d->M[m->mapM2D[k]] - h * deriv[k];
    }
  }

  // solve
  mju_copy(qacc + adr, rhs + adr, 6);
  dense_solve(A, qacc + adr, 6);
}

/* implicitfast: qacc = (M - h qDeriv)^-1 qfrc, symmetric, factored L'DL in qH; free rigid
 * trees with the full derivative (RNE included), as MuJoCo 3.14 does */
static void implicit_fast(const mjModel* m, mjData* d, mjtNum* qacc) {
  int nv = m->nv;
  mj_markStack(d);
  int* freemask = mj_stackAllocInt(d, m->ntree ? m->ntree : 1);
  mjtNum* rhs = mj_stackAllocNum(d, nv);
  if (!freemask || !rhs) {
    mj_freeStack(d);
    return;
  }
  int nfree = fast_free_trees(m, freemask);
  mju_copy(rhs, qacc, nv);

  // qDeriv without the RNE derivative (symmetric outside free rigid trees)
  mjd_smooth_vel(m, d, 0);

  // factor and solve
  fast_factor(m, d, freemask);
  tn__solveLD(m, qacc, 1, d->qH, d->qHDiagInv);

  // free rigid trees: add their RNE derivative and solve their blocks
  if (nfree) {
    mjtNum* deriv = mj_stackAllocNum(d, m->nD);
    if (deriv) {
      mju_copy(deriv, d->qDeriv, m->nD);
      tn__rneDerivative(m, d, freemask, deriv);
      for (int t = 0; t < m->ntree; t++) {
        if (freemask[t]) {
          fast_free_solve(m, d, t, deriv, rhs, qacc);
        }
      }
    }
  }
  mj_freeStack(d);
}

/* ---- the derivative the integrators use, for other modules ---- */

/* d->qDeriv as the integrator computes it, and in `deriv` the derivative it effectively
 * applies (see implicit.h) */
void tn__implicitDeriv(const mjModel* m, mjData* d, mjtNum* deriv) {
  int fast = m->opt.integrator == mjINT_IMPLICITFAST;
  mjd_smooth_vel(m, d, !fast);
  mju_copy(deriv, d->qDeriv, m->nD);
  if (!fast || !m->nv) {
    return;
  }

  // implicitfast: RNE derivative of the free rigid trees; no couplings among the dofs of
  // any other simple body
  mj_markStack(d);
  int* freemask = mj_stackAllocInt(d, m->ntree ? m->ntree : 1);
  if (!freemask) {
    mj_freeStack(d);
    return;
  }
  if (fast_free_trees(m, freemask)) {
    tn__rneDerivative(m, d, freemask, deriv);
  }
  for (int i = 0; i < m->nv; i++) {
    if (m->dof_simplenum[i] && !freemask[m->dof_treeid[i]]) {
      int adr = m->D_rowadr[i];
      for (int k = adr; k < adr + m->D_rownnz[i]; k++) {
        if (m->D_colind[k] != i) {
          deriv[k] = 0;
        }
      }
    }
  }
  mj_freeStack(d);
}

/* implicit or implicitfast step */
void mj_implicit(const mjModel* m, mjData* d) {
  int nv = m->nv;
  if (m->opt.integrator != mjINT_IMPLICIT && m->opt.integrator != mjINT_IMPLICITFAST) {
    mju_error("mj_implicit: integrator %d is not implicit or implicitfast", m->opt.integrator);
    return;
  }

  mjtNum t = timer_start();
  mj_markStack(d);
  mjtNum* qacc = mj_stackAllocNum(d, nv ? nv : 1);
  if (!qacc) {
    mj_freeStack(d);
    return;
  }

  // right-hand side: every force, constraint included
  mju_add(qacc, d->qfrc_smooth, d->qfrc_constraint, nv);

  // solve with the modified inertia
  if (nv) {
    if (m->opt.integrator == mjINT_IMPLICIT) {
      implicit_full(m, d, qacc);
    } else {
      implicit_fast(m, d, qacc);
    }
  }

  // advance activations, velocities, positions and time
  tn__advance(m, d, d->act_dot, qacc, NULL);
  mj_freeStack(d);
  timer_end(d, mjTIMER_ADVANCE, t);
}
