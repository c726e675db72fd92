/* tests/unit/test_inertia_kernels.c — unit tests of the products, solves and factorization
 * with the joint-space inertia M (mj_mulM, mj_solveM, mj_factorM). Below a free joint these
 * keep the joint's six entries in registers and eliminate into its six rows in one unrolled
 * update; a tree without a free joint at its root, or a free body alone, takes the row-by-row
 * loops. Each kernel must give, bit for bit, what the plain algorithm in MuJoCo's order gives
 * (written out again here, row by row through memory), on models mixing both kinds of tree,
 * and the tree predicates must say which kind each tree is. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <torsion/torsion.h>
#include "smooth/smooth.h"

/* a free-floating chain (free joint, hinges, a ball, a slide), a hinge chain on the world,
 * a free body alone and a second free-rooted tree with a branch */
static const char* MIXED =
    "<mujoco>"
    "  <default><joint armature='0.01'/><geom size='.05'/></default>"
    "  <worldbody>"
    "    <body pos='0 0 1'><freejoint/><geom type='box' size='.1 .1 .1'/>"
    "      <body pos='.2 0 0'><joint axis='0 1 0'/><geom type='capsule' fromto='0 0 0 .3 0 0'/>"
    "        <body pos='.3 0 0'><joint axis='1 0 0'/><joint axis='0 0 1'/>"
    "          <geom type='capsule' fromto='0 0 0 .2 0 0'/>"
    "          <body pos='.2 0 0'><joint type='ball'/><geom type='sphere' size='.06'/>"
    "            <body pos='.1 0 0'><joint type='slide' axis='1 0 0'/><geom size='.03'/></body>"
    "          </body>"
    "        </body>"
    "      </body>"
    "      <body pos='-.2 0 0'><joint axis='0 1 0'/><geom type='capsule' fromto='0 0 0 -.3 0 0'/></body>"
    "    </body>"
    "    <body pos='2 0 1'><joint axis='0 1 0'/><geom type='capsule' fromto='0 0 0 .3 0 0'/>"
    "      <body pos='.3 0 0'><joint axis='0 1 0'/><geom type='capsule' fromto='0 0 0 .3 0 0'/></body>"
    "    </body>"
    "    <body pos='0 2 1'><freejoint/><geom type='sphere' size='.1'/></body>"
    "    <body pos='2 2 1'><freejoint/><geom type='box' size='.2 .1 .05'/>"
    "      <body pos='0 .2 0'><joint axis='1 0 0'/><geom type='capsule' fromto='0 0 0 0 .3 0'/></body>"
    "      <body pos='0 -.2 0'><joint type='ball'/><geom type='capsule' fromto='0 0 0 0 -.3 0'/></body>"
    "    </body>"
    "  </worldbody>"
    "</mujoco>";

/* the model, and a data at a posed, moving state with M computed */
static mjModel* load(const char* xml) {
  char err[500] = "";
  mjModel* m = tn_loadXMLString(xml, NULL, err, sizeof(err));
  if (!m) {
    fail_msg("load: %s", err);
  }
  return m;
}

static mjData* posed(const mjModel* m, unsigned seed) {
  mjData* d = mj_makeData(m);
  srand(seed);
  for (int i = 0; i < m->nv; i++) {
    d->qvel[i] = (double)rand() / RAND_MAX - 0.5;
  }
  mj_integratePos(m, d->qpos, d->qvel, 0.7);
  mj_forward(m, d);
  return d;
}

/* a vector of mixed magnitudes and signs, some entries zero */
static void test_vector(int n, mjtNum* v, unsigned seed) {
  srand(seed);
  for (int i = 0; i < n; i++) {
    v[i] = i % 5 == 3 ? 0 : ((double)rand() / RAND_MAX - 0.5) * pow(10, i % 3);
  }
}

/* res = M vec: diagonals first, then each row's off-diagonals from the parent up, each used
 * for the row and, by symmetry, the column */
static void ref_mulM(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec) {
  for (int i = 0; i < m->nv; i++) {
    res[i] = d->M[m->M_rowadr[i] + m->M_rownnz[i] - 1] * vec[i];
  }
  for (int i = 0; i < m->nv; i++) {
    int adr = m->M_rowadr[i];
    for (int k = adr + m->M_rownnz[i] - 2; k >= adr; k--) {
      int j = m->M_colind[k];
      res[i] += d->M[k] * vec[j];
      res[j] += d->M[k] * vec[i];
    }
  }
}

/* the L'DL factor of mat (M's layout), eliminating from the last row back */
static void ref_factor(const mjModel* m, mjtNum* mat, mjtNum* diaginv) {
  for (int k = m->nv - 1; k >= 0; k--) {
    int start = m->M_rowadr[k], diag = start + m->M_rownnz[k] - 1;
    if (mat[diag] < mjMINVAL) {
      mat[diag] = mjMINVAL;
    }
    mjtNum invD = 1 / mat[diag];
    diaginv[k] = invD;
    int simple_zero = m->dof_simplenum[k] != 0;
    for (int adr = start; adr < diag && simple_zero; adr++) {
      simple_zero = mat[adr] == 0 && !signbit(mat[adr]);
    }
    if (simple_zero) {
      continue;
    }
    for (int adr = diag - 1; adr >= start; adr--) {
      mjtNum* dst = mat + m->M_rowadr[m->M_colind[adr]];
      mjtNum scl = -mat[adr] * invD;
      for (int j = 0; j < adr - start + 1; j++) {
        dst[j] += mat[start + j] * scl;
      }
    }
    for (int adr = start; adr < diag; adr++) {
      mat[adr] *= invD;
    }
  }
}

/* x = inv(L'DL) x with the factor: x(j) -= L(i,j) x(i) from the last row back, then each
 * x(i) scaled by 1/D(i) less L(i,:) x over its ancestors (MuJoCo's sparse dot order) */
static void ref_solve(const mjModel* m, const mjtNum* qLD, const mjtNum* diaginv, mjtNum* x) {
  for (int i = m->nv - 1; i >= 0; i--) {
    if (x[i] == 0) {
      continue;
    }
    int adr = m->M_rowadr[i], diag = adr + m->M_rownnz[i] - 1;
    for (int k = adr; k < diag; k++) {
      x[m->M_colind[k]] -= qLD[k] * x[i];
    }
  }
  for (int i = 0; i < m->nv; i++) {
    mjtNum xi = x[i] * diaginv[i];
    int adr = m->M_rowadr[i], n = m->M_rownnz[i] - 1;
    if (n > 0 && !m->dof_simplenum[i]) {
      const int* col = m->M_colind + adr;
      mjtNum s = 0;
      int k = 0;
      if (n >= 4) {
        mjtNum s0 = qLD[adr] * x[col[0]], s1 = qLD[adr + 1] * x[col[1]];
        mjtNum s2 = qLD[adr + 2] * x[col[2]], s3 = qLD[adr + 3] * x[col[3]];
        for (k = 4; k <= n - 4; k += 4) {
          s0 += qLD[adr + k] * x[col[k]];
          s1 += qLD[adr + k + 1] * x[col[k + 1]];
          s2 += qLD[adr + k + 2] * x[col[k + 2]];
          s3 += qLD[adr + k + 3] * x[col[k + 3]];
        }
        s = (s0 + s2) + (s1 + s3);
      }
      for (; k < n; k++) {
        s += qLD[adr + k] * x[col[k]];
      }
      xi -= s;
    }
    x[i] = xi;
  }
}

/* 1 if the n numbers are the same bits */
static int same_bits(const mjtNum* a, const mjtNum* b, int n) {
  return memcmp(a, b, sizeof(mjtNum) * (size_t)n) == 0;
}

/* the trees as compiled: in dof order, and free-rooted exactly where a free joint heads
 * more than its own six dofs */
static void test_tree_predicates(void** state) {
  (void)state;
  mjModel* m = load(MIXED);
  assert_int_equal(m->ntree, 4);
  assert_true(tn__treesInOrder(m));
  assert_int_equal(m->tree_dofnum[0], 14);
  assert_true(tn__freeRooted(m, 0));
  assert_false(tn__freeRooted(m, 1));  // hinges on the world
  assert_int_equal(m->tree_dofnum[2], 6);
  assert_false(tn__freeRooted(m, 2));  // a free body alone
  assert_int_equal(m->tree_dofnum[3], 10);
  assert_true(tn__freeRooted(m, 3));
  mj_deleteModel(m);
}

/* mj_mulM against the plain product, on several states and vectors */
static void test_mulM_bits(void** state) {
  (void)state;
  mjModel* m = load(MIXED);
  int nv = m->nv;
  mjtNum *vec = calloc(nv, sizeof(mjtNum)), *res = calloc(nv, sizeof(mjtNum));
  mjtNum* ref = calloc(nv, sizeof(mjtNum));
  for (unsigned seed = 1; seed <= 5; seed++) {
    mjData* d = posed(m, seed);
    test_vector(nv, vec, seed + 100);
    mj_mulM(m, d, res, vec);
    ref_mulM(m, d, ref, vec);
    assert_true(same_bits(res, ref, nv));
    assert_true(fabs(res[0]) > 0);  // a real product, not zeros on both sides
    mj_deleteData(d);
  }
  free(vec);
  free(res);
  free(ref);
  mj_deleteModel(m);
}

/* mj_factorM against the plain elimination, and mj_solveM against the plain solve with it */
static void test_factor_solve_bits(void** state) {
  (void)state;
  mjModel* m = load(MIXED);
  int nv = m->nv;
  mjtNum *qLD = calloc(m->nC, sizeof(mjtNum)), *dinv = calloc(nv, sizeof(mjtNum));
  mjtNum *x = calloc(nv, sizeof(mjtNum)), *ref = calloc(nv, sizeof(mjtNum));
  for (unsigned seed = 1; seed <= 5; seed++) {
    mjData* d = posed(m, seed);
    memcpy(qLD, d->M, sizeof(mjtNum) * (size_t)m->nC);
    ref_factor(m, qLD, dinv);
    mj_factorM(m, d);
    assert_true(same_bits(d->qLD, qLD, m->nC));
    assert_true(same_bits(d->qLDiagInv, dinv, nv));

    test_vector(nv, ref, seed + 200);
    mj_solveM(m, d, x, ref, 1);
    ref_solve(m, qLD, dinv, ref);
    assert_true(same_bits(x, ref, nv));

    // and M (x) gives back the vector, to rounding
    mjtNum* back = calloc(nv, sizeof(mjtNum));
    mjtNum* v = calloc(nv, sizeof(mjtNum));
    test_vector(nv, v, seed + 200);
    mj_mulM(m, d, back, x);
    for (int i = 0; i < nv; i++) {
      assert_true(fabs(back[i] - v[i]) <= 1e-9 * (1 + fabs(v[i])));
    }
    free(back);
    free(v);
    mj_deleteData(d);
  }
  free(qLD);
  free(dinv);
  free(x);
  free(ref);
  mj_deleteModel(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tree_predicates),
      cmocka_unit_test(test_mulM_bits),
      cmocka_unit_test(test_factor_solve_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
