/* tests/unit/test_constraint.c — unit tests of the constraint model and solvers.
 *
 * The three solvers minimize the same convex problem, so run to tight tolerances they
 * must reach the same acceleration; the constraint force must be the negative gradient of
 * the soft-constraint penalty (checked by finite differences of mj_constraintUpdate's
 * cost); forces must lie in their sets (friction-loss interval, non-negative pyramid
 * edges, friction cones); the QCQP must return its ball-constrained minimizer; and the
 * efc arrays must survive a stack frame and a copy into another arena; PGS on several
 * islands at once must equal PGS island by island; a reset clears every solver statistic
 * written. Scenes mix contacts (every condim), limits, friction loss and equality
 * constraints. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <torsion/torsion.h>

#include "constraint/constraint.h"

/* the end of both scenes: a limited hinge chain with friction loss, coupled by an
 * equality, outside any contact */
#define CHAIN_AND_END                                                                       \
  "    <body pos='0 1 1'>"                                                                  \
  "      <joint name='h1' type='hinge' axis='0 1 0' limited='true' range='-5 5'"             \
  "             frictionloss='0.2'/>"                                                       \
  "      <geom type='capsule' fromto='0 0 0 .3 0 0' size='.03' contype='0' conaffinity='0'/>" \
  "      <body pos='.3 0 0'>"                                                               \
  "        <joint name='h2' type='hinge' axis='0 1 0'/>"                                    \
  "        <geom type='capsule' fromto='0 0 0 .3 0 0' size='.03' contype='0' conaffinity='0'/>" \
  "      </body>"                                                                           \
  "    </body>"                                                                             \
  "  </worldbody>"                                                                          \
  "  <equality><joint joint1='h2' joint2='h1' polycoef='0 .5 .1 0 0'/></equality>"           \
  "</mujoco>"

/* a scene with every constraint type */
static const char* SCENE =
    "<mujoco>"
    "  <option timestep='0.002'/>"
    "  <worldbody>"
    "    <geom type='plane' size='5 5 .1'/>"
    "    <body pos='0 0 0.098'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
    "    <body pos='0 0 0.296'><freejoint/><geom type='box' size='.1 .1 .1' condim='4'"
    "          friction='0.8 0.02 0.001'/></body>"
    "    <body pos='0.5 0 0.098'><freejoint/><geom type='sphere' size='.1' condim='6'"
    "          friction='1 0.02 0.005'/></body>"
    "    <body pos='0.9 0 0.099'><freejoint/><geom type='sphere' size='.1' condim='1'/></body>"
    CHAIN_AND_END;

/* load the scene with a solver and cone */
static mjModel* load_scene(int solver, int cone) {
  char err[512];
  mjModel* m = tn_loadXMLString(SCENE, NULL, err, sizeof(err));
  if (!m) {
    fail_msg("load: %s", err);
    return NULL;
  }
  m->opt.solver = solver;
  m->opt.cone = cone;
  m->opt.tolerance = 1e-15;
  m->opt.iterations = solver == mjSOL_PGS ? 20000 : 1000;
  m->opt.ls_iterations = 100;
  return m;
}

/* a deterministic state with contacts, a violated limit and velocities */
static void set_state(const mjModel* m, mjData* d) {
  mj_resetData(m, d);
  d->qpos[2] -= 0.004;
  d->qpos[9] -= 0.006;
  d->qpos[m->nq - 2] = 0.12;
  for (int i = 0; i < m->nv; i++) {
    d->qvel[i] = 0.3 * sin(1.7 * i + 0.3);
  }
}

/* the forward pipeline including the constraint stages */
static void forward(const mjModel* m, mjData* d) {
  mj_forward(m, d);
  mj_collision(m, d);
  mj_makeConstraint(m, d);
  mj_projectConstraint(m, d);
  mj_referenceConstraint(m, d);
  tn_fwdConstraintSolve(m, d);
}

/* qacc of one solver and cone */
static void solve(int solver, int cone, mjtNum* qacc, int* nefc) {
  mjModel* m = load_scene(solver, cone);
  mjData* d = mj_makeData(m);
  set_state(m, d);
  forward(m, d);
  mju_copy(qacc, d->qacc, m->nv);
  *nefc = d->nefc;
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* all solvers reach the same optimum, for both cones (except PGS with elliptic cones: its
 * cone updates can stall away from the optimum, exactly as MuJoCo 3.14's do on this
 * scene; its forces are still checked for feasibility below) */
static void test_solvers_agree(void** state) {
  (void)state;
  mjtNum qacc[3][64];
  int solvers[3] = {mjSOL_NEWTON, mjSOL_CG, mjSOL_PGS};
  for (int cone = 0; cone < 2; cone++) {
    int nefc = 0, nv = 0;
    for (int s = 0; s < 3; s++) {
      solve(solvers[s], cone, qacc[s], &nefc);
    }
    mjModel* m = load_scene(mjSOL_NEWTON, cone);
    nv = m->nv;
    mj_deleteModel(m);
    assert_true(nefc > 20);
    for (int s = 1; s < (cone == mjCONE_ELLIPTIC ? 2 : 3); s++) {
      for (int i = 0; i < nv; i++) {
        mjtNum scl = fabs(qacc[0][i]) > 1 ? fabs(qacc[0][i]) : 1;
        if (fabs(qacc[s][i] - qacc[0][i]) > 1e-5 * scl) {
          fail_msg("cone %d solver %d dof %d: %.12g vs Newton %.12g", cone, s, i, qacc[s][i],
                   qacc[0][i]);
        }
      }
    }
  }
}

/* force = -d cost / d jar, by central differences */
static void test_force_is_gradient(void** state) {
  (void)state;
  for (int cone = 0; cone < 2; cone++) {
    mjModel* m = load_scene(mjSOL_NEWTON, cone);
    mjData* d = mj_makeData(m);
    set_state(m, d);
    forward(m, d);
    int nefc = d->nefc;
    mjtNum jar[512], force[512], cp, cm;
    assert_true(nefc <= 512);

    // a point with rows in every state: jar from qacc_smooth
    mj_mulJacVec(m, d, jar, d->qacc_smooth);
    mju_subFrom(jar, d->efc_aref, nefc);
    mj_constraintUpdate(m, d, jar, NULL, 0);
    mju_copy(force, d->efc_force, nefc);
    for (int i = 0; i < nefc; i++) {
      mjtNum h = 1e-6 * (fabs(jar[i]) > 1 ? fabs(jar[i]) : 1), save = jar[i];
      jar[i] = save + h;
      mj_constraintUpdate(m, d, jar, &cp, 0);
      jar[i] = save - h;
      mj_constraintUpdate(m, d, jar, &cm, 0);
      jar[i] = save;
      mjtNum fd = -(cp - cm) / (2 * h);
      mjtNum scl = fabs(force[i]) > 1 ? fabs(force[i]) : 1;
      if (fabs(fd - force[i]) > 1e-5 * scl) {
        fail_msg("cone %d row %d: force %.12g, -dcost %.12g", cone, i, force[i], fd);
      }
    }
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}

/* every force in its set after each solver */
static void test_forces_feasible(void** state) {
  (void)state;
  int solvers[3] = {mjSOL_NEWTON, mjSOL_CG, mjSOL_PGS};
  for (int cone = 0; cone < 2; cone++) {
    for (int s = 0; s < 3; s++) {
      mjModel* m = load_scene(solvers[s], cone);
      mjData* d = mj_makeData(m);
      set_state(m, d);
      forward(m, d);
      for (int i = d->ne; i < d->nefc; i++) {
        mjtNum f = d->efc_force[i];
        if (i < d->ne + d->nf) {
          assert_true(fabs(f) <= d->efc_frictionloss[i] * (1 + 1e-12));
        } else if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
          const mjContact* con = d->contact + d->efc_id[i];
          mjtNum t = 0;
          for (int k = 1; k < con->dim; k++) {
            t += pow(d->efc_force[i + k] / con->friction[k - 1], 2);
          }
          assert_true(f >= 0);
          assert_true(sqrt(t) <= f * (1 + 1e-6) + 1e-9);
          i += con->dim - 1;
        } else {
          assert_true(f >= 0);
        }
      }
      mj_deleteData(d);
      mj_deleteModel(m);
    }
  }
}

/* QCQP: interior minimum when it fits, else on the scaled ball */
static void test_qcqp(void** state) {
  (void)state;
  mjtNum A[4] = {2, 0.5, 0.5, 1}, b[2] = {-1, 0.5}, mu[2] = {1, 0.5}, x[2];

  // large radius: the unconstrained minimizer -A^-1 b
  int active = tn__QCQP(x, A, b, mu, 10, 2);
  mjtNum det = A[0] * A[3] - A[1] * A[2];
  assert_false(active);
  assert_true(fabs(x[0] - (-(A[3] * b[0] - A[1] * b[1]) / det)) < 1e-12);
  assert_true(fabs(x[1] - (-(-A[2] * b[0] + A[0] * b[1]) / det)) < 1e-12);

  // small radius: active, on the boundary up to the solver's tolerance
  active = tn__QCQP(x, A, b, mu, 0.1, 2);
  assert_true(active);
  mjtNum r = sqrt(pow(x[0] / mu[0], 2) + pow(x[1] / mu[1], 2));
  assert_true(fabs(r - 0.1) < 1e-6);

  // three unknowns through the general path
  mjtNum A3[9] = {2, 0.1, 0, 0.1, 1, 0.2, 0, 0.2, 3}, b3[3] = {1, -2, 0.5};
  mjtNum mu3[3] = {1, 1, 0.1}, x3[3];
  assert_true(tn__QCQP(x3, A3, b3, mu3, 0.05, 3));
  r = sqrt(pow(x3[0], 2) + pow(x3[1], 2) + pow(x3[2] / 0.1, 2));
  assert_true(fabs(r - 0.05) < 1e-6);
}

/* the efc arrays outlive stack frames and copy into another mjData */
static void test_efc_arena(void** state) {
  (void)state;
  mjModel* m = load_scene(mjSOL_PGS, mjCONE_PYRAMIDAL);
  mjData* d = mj_makeData(m);
  set_state(m, d);
  forward(m, d);
  int nefc = d->nefc;
  assert_true(nefc > 0 && d->parena > 0);
  mjtNum first = d->efc_force[0];

  // stack frames below the region leave it untouched
  mj_markStack(d);
  mjtNum* scratch = mj_stackAllocNum(d, 1000);
  mju_fill(scratch, 7, 1000);
  mj_freeStack(d);
  assert_true(d->efc_force[0] == first);

  // a copied region with re-pointed arrays
  mjData* c = mj_makeData(m);
  tn__efcCopy(c, d);
  c->nefc = nefc;
  assert_ptr_not_equal(c->efc_force, d->efc_force);
  for (int i = 0; i < nefc; i++) {
    assert_true(c->efc_force[i] == d->efc_force[i]);
    assert_true(c->efc_type[i] == d->efc_type[i]);
  }
  mj_deleteData(c);
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* a scene of many small islands: free bodies of every condim resting apart on a plane,
 * one stacked pair, a limited chain with friction loss and an equality */
static const char* ISLANDS =
    "<mujoco>"
    "  <option timestep='0.002' solver='PGS'/>"
    "  <worldbody>"
    "    <geom type='plane' size='5 5 .1'/>"
    "    <body pos='0 0 0.098'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
    "    <body pos='0 0 0.296'><freejoint/><geom type='box' size='.1 .1 .1' condim='4'/></body>"
    "    <body pos='0.5 0 0.098'><freejoint/><geom type='sphere' size='.1' condim='6'/></body>"
    "    <body pos='0.9 0 0.099'><freejoint/><geom type='sphere' size='.1' condim='1'/></body>"
    "    <body pos='1.3 0 0.097'><freejoint/><geom type='box' size='.1 .1 .1' condim='3'/></body>"
    "    <body pos='1.7 0 0.098'><freejoint/><geom type='capsule' size='.1' fromto='0 -.1 0 0 .1 0'"
    "          condim='4'/></body>"
    "    <body pos='2.1 0 0.099'><freejoint/><geom type='box' size='.1 .1 .1' condim='6'/></body>"
    CHAIN_AND_END;

/* PGS on islands several at a time equals PGS island after island, bit for bit: forces,
 * iteration counts and every iteration's statistics, for both cones and Jacobians and
 * iteration limits that stop islands at different sweeps (or before the first) */
static void test_pgs_lanes_equal_sequential(void** state) {
  (void)state;
  static const int maxiters[] = {0, 1, 3, 200};
  char err[512];
  for (int cone = 0; cone < 2; cone++) {
    for (int jac = 0; jac < 2; jac++) {
      for (int it = 0; it < 4; it++) {
        mjModel* m = tn_loadXMLString(ISLANDS, NULL, err, sizeof(err));
        assert_non_null(m);
        m->opt.cone = cone ? mjCONE_ELLIPTIC : mjCONE_PYRAMIDAL;
        m->opt.jacobian = jac ? mjJAC_SPARSE : mjJAC_DENSE;
        m->opt.iterations = maxiters[it];
        m->opt.disableflags |= mjDSBL_WARMSTART;
        mjData* a = mj_makeData(m);
        mjData* b = mj_makeData(m);
        set_state(m, a);
        set_state(m, b);

        // a: the pipeline's solve (islands side by side)
        mj_forward(m, a);
        assert_true(a->nisland >= 6);

        // b: the same rows, then each island alone from the same zero start
        mj_forward(m, b);
        memset(b->solver, 0, sizeof(b->solver));
        for (int i = 0; i < mjNISLAND; i++) {
          b->solver_niter[i] = 0;
        }
        mju_zero(b->efc_force, b->nefc);
        for (int k = 0; k < b->nisland; k++) {
          tn__solPGS(m, b, k, m->opt.iterations);
        }
        for (int i = 0; i < a->nefc; i++) {
          assert_memory_equal(a->efc_force + i, b->efc_force + i, sizeof(mjtNum));
          assert_int_equal(a->efc_state[i], b->efc_state[i]);
        }
        for (int k = 0; k < a->nisland && k < mjNISLAND; k++) {
          assert_int_equal(a->solver_niter[k], b->solver_niter[k]);
          for (int n = 0; n < a->solver_niter[k] && n < mjNSOLVER; n++) {
            const mjSolverStat* sa = a->solver + k * mjNSOLVER + n;
            const mjSolverStat* sb = b->solver + k * mjNSOLVER + n;
            assert_memory_equal(&sa->improvement, &sb->improvement, sizeof(mjtNum));
            assert_int_equal(sa->nactive, sb->nactive);
            assert_int_equal(sa->nchange, sb->nchange);
          }
        }
        mj_deleteData(b);
        mj_deleteData(a);
        mj_deleteModel(m);
      }
    }
  }
}

/* two alike free boxes resting on a plane 1 m apart, under the given option element */
static mjModel* two_boxes(const char* option) {
  char xml[1024], err[512];
  snprintf(xml, sizeof(xml),
           "<mujoco>%s<worldbody><geom type='plane' size='5 5 .1'/>"
           "<body pos='0 0 0.098'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
           "<body pos='1 0 0.098'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
           "</worldbody></mujoco>",
           option);
  mjModel* m = tn_loadXMLString(xml, NULL, err, sizeof(err));
  assert_non_null(m);
  return m;
}

/* turn k of the boxes on the floor, the same state in a and b, forwarded: one box lifted
 * (the first for odd k, else the second), the other resting and turning */
static void boxes_take_turn(const mjModel* m, mjData* a, mjData* b, int k) {
  int up = k % 2 ? 2 : 9, spin = k % 2 ? 9 : 3;
  mjData* both[2] = {a, b};
  for (int t = 0; t < 2; t++) {
    mj_resetData(m, both[t]);
    both[t]->qpos[up] += 0.5;
    both[t]->qvel[spin] = 0.7;
    mj_forward(m, both[t]);
  }
  assert_true(b->nefc > 0);
}

/* sparse AR (rows, pattern, values) and qacc of two mjData equal bit for bit */
static void assert_same_ar(const mjModel* m, const mjData* reused, const mjData* fresh) {
  assert_int_equal(reused->nefc, fresh->nefc);
  assert_int_equal(reused->nA, fresh->nA);
  assert_memory_equal(reused->efc_AR_rownnz, fresh->efc_AR_rownnz, sizeof(int) * fresh->nefc);
  assert_memory_equal(reused->efc_AR_colind, fresh->efc_AR_colind, sizeof(int) * fresh->nA);
  assert_memory_equal(reused->efc_AR, fresh->efc_AR, sizeof(mjtNum) * fresh->nA);
  assert_memory_equal(reused->qacc, fresh->qacc, sizeof(mjtNum) * m->nv);
}

/* AR of a reused mjData (patterns kept across calls) equals a fresh mjData's, as contacts
 * come and go and come back, with PGS and with Newton and noslip (which share the cache) */
static void test_ar_pattern_cache(void** state) {
  (void)state;
  char err[512];
  for (int newton = 0; newton < 2; newton++) {
    mjModel* m = tn_loadXMLString(ISLANDS, NULL, err, sizeof(err));
    assert_non_null(m);
    m->opt.jacobian = mjJAC_SPARSE;
    if (newton) {
      m->opt.solver = mjSOL_NEWTON;
      m->opt.noslip_iterations = 3;
    }
    mjData* reused = mj_makeData(m);
    static const mjtNum lift[5] = {0, 0, 0.05, 0.05, 0};
    for (int k = 0; k < 5; k++) {
      // the same state in the reused mjData and in a fresh one (the first box lifted or not:
      // repeats reuse the kept patterns, changes replace them)
      mjData* fresh = mj_makeData(m);
      set_state(m, reused);
      set_state(m, fresh);
      reused->qpos[2] += lift[k];
      fresh->qpos[2] += lift[k];
      mj_forward(m, reused);
      mj_forward(m, fresh);
      assert_same_ar(m, reused, fresh);
      mj_deleteData(fresh);
    }
    mj_deleteData(reused);
    mj_deleteModel(m);
  }

  // two alike boxes taking turns on the floor: the same rows and row sizes, other dofs
  mjModel* m = two_boxes("<option solver='PGS' jacobian='sparse'/>");
  mjData* reused = mj_makeData(m);
  for (int k = 0; k < 4; k++) {
    mjData* fresh = mj_makeData(m);
    boxes_take_turn(m, reused, fresh, k);
    assert_same_ar(m, reused, fresh);
    mj_deleteData(fresh);
  }
  mj_deleteData(reused);
  mj_deleteModel(m);
}

/* sparse Newton with its ordering and Hessian maps kept across steps equals a copy stepped
 * with nothing kept (mj_copyData copies no cache), bit for bit, along a trajectory whose
 * contacts come and go (bodies kicked now and then), both cones; and a kept ordering whose
 * row blocks change dofs */
static void test_newton_kept_maps(void** state) {
  (void)state;
  char err[512];
  for (int elliptic = 0; elliptic < 2; elliptic++) {
    mjModel* m = tn_loadXMLString(ISLANDS, NULL, err, sizeof(err));
    assert_non_null(m);
    m->opt.jacobian = mjJAC_SPARSE;
    m->opt.solver = mjSOL_NEWTON;
    m->opt.cone = elliptic ? mjCONE_ELLIPTIC : mjCONE_PYRAMIDAL;
    mjData* kept = mj_makeData(m);
    mjData* cold = mj_makeData(m);
    set_state(m, kept);
    int rows = 0;
    for (int t = 0; t < 300; t++) {
      if (t % 60 == 30) {
        for (int i = 0; i < m->nv; i++) {
          kept->qvel[i] += 0.8 * sin(0.9 * i + t);
        }
      }
      mj_copyData(cold, m, kept);
      mj_step(m, kept);
      mj_step(m, cold);
      assert_int_equal(kept->nefc, cold->nefc);
      assert_memory_equal(kept->qpos, cold->qpos, sizeof(mjtNum) * m->nq);
      assert_memory_equal(kept->qvel, cold->qvel, sizeof(mjtNum) * m->nv);
      assert_memory_equal(kept->qacc, cold->qacc, sizeof(mjtNum) * m->nv);
      assert_memory_equal(kept->efc_force, cold->efc_force, sizeof(mjtNum) * kept->nefc);
      rows += kept->nefc;
    }
    assert_true(rows > 300);
    mj_deleteData(cold);
    mj_deleteData(kept);
    mj_deleteModel(m);
  }

  // two alike boxes taking turns on the floor, islands off: the same graph (each free
  // joint's dofs are a clique of M already), so the kept ordering applies, while the row
  // block in each place has the other box's dofs and must not take the kept map
  mjModel* m = two_boxes(
      "<option solver='Newton' jacobian='sparse'><flag island='disable'/></option>");
  mjData* kept = mj_makeData(m);
  for (int k = 0; k < 6; k++) {
    mjData* fresh = mj_makeData(m);
    boxes_take_turn(m, kept, fresh, k);
    assert_int_equal(kept->nefc, fresh->nefc);
    assert_memory_equal(kept->qacc, fresh->qacc, sizeof(mjtNum) * m->nv);
    assert_memory_equal(kept->efc_force, fresh->efc_force, sizeof(mjtNum) * fresh->nefc);
    mj_deleteData(fresh);
  }
  mj_deleteData(kept);
  mj_deleteModel(m);
}

/* 1 if every solver statistic of d is zero, bit for bit */
static int solver_stats_clear(const mjData* d) {
  static const mjSolverStat zero;
  for (int k = 0; k < mjNISLAND * mjNSOLVER; k++) {
    if (memcmp(d->solver + k, &zero, sizeof(zero))) {
      return 0;
    }
  }
  return 1;
}

/* mj_resetData clears every solver statistic the solver wrote (it clears only the entries
 * below the high-water mark the solver keeps): after steps with many islands and
 * iterations, after a copy into another data, and after a second run that wrote fewer */
static void test_reset_clears_solver_stats(void** state) {
  (void)state;
  char err[512];
  mjModel* m = tn_loadXMLString(ISLANDS, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  mjData* copy = mj_makeData(m);
  assert_true(solver_stats_clear(d));
  set_state(m, d);
  for (int t = 0; t < 5; t++) {
    mj_step(m, d);
  }
  assert_true(d->nisland >= 6);
  assert_false(solver_stats_clear(d));
  assert_true(d->solver_niter[5] > 0);

  // a copy keeps the mark: its reset clears what the original's solver wrote
  mj_copyData(copy, m, d);
  mj_resetData(m, copy);
  assert_true(solver_stats_clear(copy));
  mj_resetData(m, d);
  assert_true(solver_stats_clear(d));

  // more iterations, then a run with fewer: the reset clears the longer run's entries too
  set_state(m, d);
  mj_step(m, d);
  m->opt.iterations = 2;
  mj_step(m, d);
  mj_resetData(m, d);
  assert_true(solver_stats_clear(d));
  mj_deleteData(copy);
  mj_deleteData(d);
  mj_deleteModel(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_solvers_agree),
      cmocka_unit_test(test_force_is_gradient),
      cmocka_unit_test(test_forces_feasible),
      cmocka_unit_test(test_qcqp),
      cmocka_unit_test(test_efc_arena),
      cmocka_unit_test(test_pgs_lanes_equal_sequential),
      cmocka_unit_test(test_ar_pattern_cache),
      cmocka_unit_test(test_newton_kept_maps),
      cmocka_unit_test(test_reset_clears_solver_stats),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
