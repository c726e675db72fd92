/* tests/unit/test_separation.c — the separating directions kept across steps.
 *
 * The native convex solver's pairs found apart keep their separating direction in the
 * mjData's cache, and the next call answers "no contact" from it without the solver when
 * the direction still separates the pair by more than the solver could misjudge. The
 * answer must never differ from the solver's: an mjData stepped with its table warm must
 * give the contacts and accelerations of a fresh mjData (empty table) at every state of a
 * trajectory where meshes, cylinders, ellipsoids, boxes and capsules hit, slide and part;
 * the shortcut must actually be taken on that trajectory; and a pair brought within the
 * tolerance or into contact must go back to the solver. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <torsion/torsion.h>

#include "collision/collision_separation.h"
#include "model/data_cache.h"

/* free bodies of every shape the native solver takes, thrown at each other over a plane:
 * an octagonal prism mesh (16 vertices: the hull-graph climb), a cube mesh (8: the full
 * scan), a cylinder, an ellipsoid, a box with margin, and a capsule (core first) */
static const char* THROWN =
    "<mujoco><option timestep='0.002'/>"
    "<asset>"
    "  <mesh name='prism' vertex='.1 0 -.05 .0707 .0707 -.05 0 .1 -.05 -.0707 .0707 -.05 "
    "    -.1 0 -.05 -.0707 -.0707 -.05 0 -.1 -.05 .0707 -.0707 -.05 .1 0 .05 .0707 .0707 .05 "
    "    0 .1 .05 -.0707 .0707 .05 -.1 0 .05 -.0707 -.0707 .05 0 -.1 .05 .0707 -.0707 .05'/>"
    "  <mesh name='cube' vertex='-.06 -.06 -.06 .06 -.06 -.06 -.06 .06 -.06 .06 .06 -.06 "
    "    -.06 -.06 .06 .06 -.06 .06 -.06 .06 .06 .06 .06 .06'/>"
    "</asset><worldbody>"
    "  <geom type='plane' size='3 3 .1'/>"
    "  <body pos='0 0 .3'><freejoint/><geom type='mesh' mesh='prism'/></body>"
    "  <body pos='.25 0 .35'><freejoint/><geom type='mesh' mesh='cube'/></body>"
    "  <body pos='-.25 .02 .4'><freejoint/><geom type='cylinder' size='.06 .05'/></body>"
    "  <body pos='0 .25 .45'><freejoint/><geom type='ellipsoid' size='.08 .05 .04'/></body>"
    "  <body pos='0 -.25 .5'><freejoint/><geom type='box' size='.05 .07 .04' margin='.01'/>"
    "  </body>"
    "  <body pos='.02 0 .7'><freejoint/><geom type='capsule' size='.03 .08'/></body>"
    "</worldbody></mujoco>";

/* the pair's slot in d's table when it holds the pair (either order), else NULL */
static const tnSepSlot* find_slot(const mjData* d, int g1, int g2) {
  const tnSepSlot* s = tn__separationSlot(d, g1, g2);
  if (s && s->g1 == g1 && s->g2 == g2) {
    return s;
  }
  s = tn__separationSlot(d, g2, g1);
  return s && s->g1 == g2 && s->g2 == g1 ? s : NULL;
}

/* 1 if the kept direction of pair (g1, g2) (as stored) still holds at d's poses */
static int pair_holds(const mjModel* m, const mjData* d, const tnSepSlot* s) {
  tnConvex o1, o2;
  tn__convexInit(&o1, m, d, s->g1, 0);
  tn__convexInit(&o2, m, d, s->g2, 0);
  mjtNum margin = fmax(m->geom_margin[s->g1], m->geom_margin[s->g2]);
  o1.margin = o2.margin = margin;
  return tn__separationHolds(s, &o1, &o2);
}

/* d's state copied into a fresh mjData (empty table) */
static mjData* fresh_copy(const mjModel* m, const mjData* d) {
  int spec = mjSTATE_INTEGRATION;
  int n = mj_stateSize(m, spec);
  mjtNum state[1024];
  assert_true(n <= 1024);
  mj_getState(m, d, state, spec);
  mjData* f = mj_makeData(m);
  mj_setState(m, f, state, spec);
  return f;
}

/* a warm table answers as the solver at every state of the thrown scene, and is used */
static void test_warm_equals_fresh(void** state) {
  (void)state;
  char err[512];
  mjModel* m = tn_loadXMLString(THROWN, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  assert_true(tn__dataCache(d)->sepbytes >= sizeof(tnSepSlot));

  // throw them: spin and sideways speeds (free joints: 6 dofs each)
  for (int b = 0; b < 6; b++) {
    d->qvel[6 * b + 0] = 0.4 * ((b % 3) - 1);
    d->qvel[6 * b + 1] = 0.3 * ((b % 2) ? 1 : -1);
    d->qvel[6 * b + 3] = 3.0 * (b + 1) / 6;
    d->qvel[6 * b + 5] = -2.0 + b;
  }
  int withcontact = 0, shortcut = 0;
  for (int step = 0; step < 500; step++) {
    mj_step(m, d);
    if (step % 5) {
      continue;
    }

    // the same state in a fresh mjData: the same contacts and accelerations
    mjData* f = fresh_copy(m, d);
    mj_forward(m, d);
    mj_forward(m, f);
    assert_int_equal(d->ncon, f->ncon);
    assert_memory_equal(d->contact, f->contact, sizeof(mjContact) * (size_t)f->ncon);
    assert_memory_equal(d->qacc, f->qacc, sizeof(mjtNum) * (size_t)m->nv);
    withcontact += d->ncon > 0;

    // kept directions that still hold at this state (the next call's shortcut)
    for (int g1 = 1; g1 < m->ngeom; g1++) {
      for (int g2 = g1 + 1; g2 < m->ngeom; g2++) {
        const tnSepSlot* s = find_slot(d, g1, g2);
        shortcut += s && pair_holds(m, d, s);
      }
    }
    mj_deleteData(f);
  }
  assert_true(withcontact > 50);
  assert_true(shortcut > 50);
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* two octagonal prisms on a diagonal, a corner facing a corner: their bounding boxes
 * overlap, so the pair reaches the solver while apart (gap: corner to corner). A direction
 * kept at a wide gap, not trusted within twice the tolerance, and a contact found (and the
 * direction forgotten) once they overlap */
static void test_gap_and_contact(void** state) {
  (void)state;
  static const char* PAIR =
      "<mujoco><option gravity='0 0 0'/><asset>"
      "  <mesh name='prism' vertex='.1 0 -.05 .0707 .0707 -.05 0 .1 -.05 -.0707 .0707 -.05 "
      "    -.1 0 -.05 -.0707 -.0707 -.05 0 -.1 -.05 .0707 -.0707 -.05 .1 0 .05 .0707 .0707 .05 "
      "    0 .1 .05 -.0707 .0707 .05 -.1 0 .05 -.0707 -.0707 .05 0 -.1 .05 .0707 -.0707 .05'/>"
      "</asset><worldbody>"
      "  <body><freejoint/><geom type='mesh' mesh='prism'/></body>"
      "  <body pos='.3 .3 0'><freejoint/><geom type='mesh' mesh='prism'/></body>"
      "</worldbody></mujoco>";
  char err[512];
  mjModel* m = tn_loadXMLString(PAIR, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  const mjtNum corner = (mjtNum)(float)0.0707;  // a diagonal corner's x and y
  const mjtNum gaps[5] = {0.05, 0.03, 1.5e-6, 0.05, -1e-3};
  const int holds[5] = {1, 1, 0, 1, 0};
  for (int k = 0; k < 5; k++) {
    // the second prism's corner `gap` beyond the first's, along the diagonal
    d->qpos[7] = d->qpos[8] = 2 * corner + gaps[k] / sqrt(2.0);
    mjData* f = fresh_copy(m, d);
    mj_kinematics(m, d);  // (the poses the check will see)
    const tnSepSlot* before = find_slot(d, 0, 1);
    int held = before && pair_holds(m, d, before);
    mj_forward(m, d);
    mj_forward(m, f);
    assert_int_equal(d->ncon, f->ncon);
    assert_memory_equal(d->contact, f->contact, sizeof(mjContact) * (size_t)f->ncon);
    assert_int_equal(d->ncon > 0, gaps[k] < 0);

    // from the second state on, the kept direction holds exactly where the gap is wide
    if (k > 0) {
      assert_int_equal(held, holds[k]);
    }
    mj_deleteData(f);
  }

  // in contact: the pair's direction forgotten
  assert_null(find_slot(d, 0, 1));
  mj_deleteData(d);
  mj_deleteModel(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_warm_equals_fresh),
      cmocka_unit_test(test_gap_and_contact),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
