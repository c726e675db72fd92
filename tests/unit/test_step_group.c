/* tests/unit/test_step_group.c — unit tests of group stepping (tn_stepGroup): datas stepped
 * four at a time in SIMD lanes end bit for bit where mj_step leaves the same datas one by
 * one, on the paths the group takes by model and by circumstance: the lanes' common path,
 * mocap bodies (the kinematics per data, gathered for the lanes), tendon armature (the
 * inertia per data), a passive-force callback (the bias force computed after it, as alone),
 * an arena too small for the lanes' scratch (every stage per data), and a group of datas in
 * different states, some at rest. Under RK4 the forwards a later one overwrites leave
 * poses and velocities out of the datas on a lean model (tn__forwardLean): which models
 * are lean, and a callback reading them that must see them as alone. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <torsion/torsion.h>
#include "forward/forward.h"

/* datas per check: two groups of four */
#define NDATA 8

/* a chain of hinges, a ball and a free body over a floor, damped, with motors */
static const char* CHAIN =
    "<mujoco>"
    "  <option timestep='0.005'/>"
    "  <default><joint damping='0.3' armature='0.05'/><geom size='.05'/></default>"
    "  <worldbody>"
    "    <geom type='plane' size='5 5 .1'/>"
    "    <body pos='0 0 1'><joint name='a' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 .3 0 0'/>"
    "      <body pos='.3 0 0'><joint name='b' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 .3 0 0'/>"
    "        <body pos='.3 0 0'><joint type='ball'/><geom type='box' size='.05 .05 .1'/></body>"
    "      </body>"
    "    </body>"
    "    <body pos='1 0 .4'><freejoint/><geom type='sphere' size='.1'/>"
    "      <body pos='0 0 .2'><joint axis='1 0 0'/><geom size='.04'/></body>"
    "    </body>"
    "  </worldbody>"
    "  <actuator><motor joint='a'/><motor joint='b' gear='2'/></actuator>"
    "</mujoco>";

/* a mocap body welded to a free body, beside a hinge */
static const char* MOCAP =
    "<mujoco>"
    "  <worldbody>"
    "    <body name='target' mocap='true' pos='0 0 1'><geom size='.05' contype='0' conaffinity='0'/></body>"
    "    <body name='ball' pos='0 0 1'><freejoint/><geom size='.1'/></body>"
    "    <body pos='1 0 1'><joint axis='0 1 0' damping='.1'/><geom type='capsule' fromto='0 0 0 0 0 -.4' size='.05'/></body>"
    "  </worldbody>"
    "  <equality><weld body1='target' body2='ball'/></equality>"
    "</mujoco>";

/* two hinges coupled by a fixed tendon with armature */
static const char* TENDON =
    "<mujoco>"
    "  <worldbody>"
    "    <body><joint name='a' axis='0 1 0' damping='.2'/><geom type='capsule' fromto='0 0 0 .3 0 0' size='.05'/>"
    "      <body pos='.3 0 0'><joint name='b' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 .3 0 0' size='.05'/></body>"
    "    </body>"
    "  </worldbody>"
    "  <tendon><fixed armature='.3'><joint joint='a' coef='1'/><joint joint='b' coef='-1'/></fixed></tendon>"
    "</mujoco>";

/* deterministic numbers in [-0.5, 0.5) */
static double urand(unsigned* s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65536.0 - 0.5;
}

/* one tn_stepGroup call under an unwinding point (the group path needs one) */
typedef struct group_ {
  const mjModel* m;
  mjData** d;
} group;

static void step_group(void* arg) {
  group* g = arg;
  tn_stepGroup(g->m, (mjData* const*)g->d, NDATA);
}

/* 1 where two arrays of n numbers have the same bits */
static int same_bits(const mjtNum* a, const mjtNum* b, int n) {
  return memcmp(a, b, sizeof(mjtNum) * (size_t)n) == 0;
}

/* the outputs of a step that must agree bit for bit */
static void assert_same(const mjModel* m, const mjData* a, const mjData* b) {
  assert_true(same_bits(a->qpos, b->qpos, m->nq));
  assert_true(same_bits(a->qvel, b->qvel, m->nv));
  assert_true(same_bits(a->qacc, b->qacc, m->nv));
  assert_true(same_bits(a->qacc_smooth, b->qacc_smooth, m->nv));
  assert_true(same_bits(a->qfrc_bias, b->qfrc_bias, m->nv));
  assert_true(same_bits(a->qfrc_passive, b->qfrc_passive, m->nv));
  assert_true(same_bits(a->M, b->M, m->nC));
  assert_true(same_bits(a->qLD, b->qLD, m->nC));
  assert_true(same_bits(a->xpos, b->xpos, 3 * m->nbody));
  assert_true(same_bits(a->xquat, b->xquat, 4 * m->nbody));
  assert_true(same_bits(a->cinert, b->cinert, 10 * m->nbody));
  assert_true(same_bits(a->crb, b->crb, 10 * m->nbody));
  assert_true(same_bits(a->cvel, b->cvel, 6 * m->nbody));
  assert_true(same_bits(a->cdof_dot, b->cdof_dot, 6 * m->nv));
  assert_true(same_bits(a->subtree_com, b->subtree_com, 3 * m->nbody));
  assert_int_equal(a->ncon, b->ncon);
  assert_int_equal(a->nefc, b->nefc);
  assert_true(a->time == b->time);
}

/* NDATA datas from perturbed states (data 2 at rest), stepped `steps` times with random
 * controls one by one and as groups: every step's outputs the same */
static void check_group(const char* xml, int steps) {
  char err[512];
  mjModel* m = tn_loadXMLString(xml, NULL, err, sizeof(err));
  if (!m) {
    fail_msg("load: %s", err);
  }
  mjData *alone[NDATA], *grouped[NDATA];
  unsigned s = 7;
  int size = mj_stateSize(m, mjSTATE_INTEGRATION);
  mjtNum state[256];
  assert_true(size <= 256);
  for (int k = 0; k < NDATA; k++) {
    alone[k] = mj_makeData(m);
    grouped[k] = mj_makeData(m);
    if (k != 2) {
      for (int i = 0; i < m->nq; i++) {
        alone[k]->qpos[i] += 0.1 * urand(&s);
      }
      for (int i = 0; i < m->nv; i++) {
        alone[k]->qvel[i] = urand(&s);
      }
    }
    mj_getState(m, alone[k], state, mjSTATE_INTEGRATION);
    mj_setState(m, grouped[k], state, mjSTATE_INTEGRATION);
  }
  for (int t = 0; t < steps; t++) {
    for (int k = 0; k < NDATA; k++) {
      for (int u = 0; u < m->nu; u++) {
        alone[k]->ctrl[u] = grouped[k]->ctrl[u] = k == 2 ? 0 : urand(&s);
      }
      for (int b = 0; b < m->nmocap; b++) {
        alone[k]->mocap_pos[3 * b] = grouped[k]->mocap_pos[3 * b] = 0.01 * t * (k + 1);
      }
      mj_step(m, alone[k]);
    }
    group g = {m, grouped};
    assert_int_equal(tn_run(grouped[0], step_group, &g, err, sizeof(err)), 0);
    for (int k = 0; k < NDATA; k++) {
      assert_same(m, alone[k], grouped[k]);
    }
  }
  for (int k = 0; k < NDATA; k++) {
    mj_deleteData(alone[k]);
    mj_deleteData(grouped[k]);
  }
  mj_deleteModel(m);
}

/* the lanes' common path: hinges, ball and free joints, contacts, damped Euler */
static void test_group_chain(void** state) {
  (void)state;
  check_group(CHAIN, 60);
}

/* the same model under RK4 */
static void test_group_chain_rk4(void** state) {
  (void)state;
  char xml[4096];
  const char* at = strstr(CHAIN, "<option timestep='0.005'/>");
  assert_non_null(at);
  snprintf(xml, sizeof(xml), "%.*s<option timestep='0.005' integrator='RK4'/>%s",
           (int)(at - CHAIN), CHAIN, at + strlen("<option timestep='0.005'/>"));
  check_group(xml, 40);
}

/* mocap bodies: each data's kinematics, gathered for the lanes' com stage */
static void test_group_mocap(void** state) {
  (void)state;
  check_group(MOCAP, 40);
}

/* tendon armature: the inertia per data after the tendons */
static void test_group_tendon_armature(void** state) {
  (void)state;
  check_group(TENDON, 40);
}

/* a passive-force callback that reads qfrc_bias: alone it sees the previous step's, so the
 * group must compute the bias after the callback too */
static void passive_reading_bias(const mjModel* m, mjData* d) {
  for (int i = 0; i < m->nv; i++) {
    d->qfrc_passive[i] += 0.01 * d->qfrc_bias[i];
  }
}

static void test_group_passive_callback(void** state) {
  (void)state;
  mjcb_passive = passive_reading_bias;
  check_group(CHAIN, 30);
  mjcb_passive = NULL;
}

/* CHAIN with its option replaced by `option` and `extra` added before </mujoco> */
static void chain_with(char* xml, size_t size, const char* option, const char* extra) {
  const char* opt = "<option timestep='0.005'/>";
  const char* at = strstr(CHAIN, opt);
  const char* end = strstr(CHAIN, "</mujoco>");
  assert_non_null(at);
  assert_non_null(end);
  snprintf(xml, size, "%.*s%s%.*s%s</mujoco>", (int)(at - CHAIN), CHAIN, option,
           (int)(end - (at + strlen(opt))), at + strlen(opt), extra);
}

/* 1 if the model of xml is lean */
static int lean_of(const char* xml) {
  char err[512];
  mjModel* m = tn_loadXMLString(xml, NULL, err, sizeof(err));
  if (!m) {
    fail_msg("load: %s", err);
  }
  int lean = tn__forwardLean(m);
  mj_deleteModel(m);
  return lean;
}

/* which models a transient forward may leave poses out of: the plain chain (with a fixed
 * tendon and a joint equality too) is lean; fluid, a spatial tendon, a site transmission, a
 * connect constraint, the forward/inverse comparison or a user callback make it not */
static void test_forward_lean(void** state) {
  (void)state;
  char xml[4096];
  const char* rk4 = "<option timestep='0.005' integrator='RK4'/>";
  chain_with(xml, sizeof(xml), rk4,
             "<tendon><fixed><joint joint='a' coef='1'/></fixed></tendon>"
             "<equality><joint joint1='a' joint2='b'/></equality>");
  assert_int_equal(lean_of(xml), 1);
  chain_with(xml, sizeof(xml), "<option timestep='0.005' integrator='RK4' density='1.2'/>", "");
  assert_int_equal(lean_of(xml), 0);
  chain_with(xml, sizeof(xml), rk4,
             "<worldbody><site name='w' pos='0 0 2'/></worldbody>"
             "<tendon><spatial><site site='w'/><site site='w'/></spatial></tendon>");
  assert_int_equal(lean_of(xml), 0);
  chain_with(xml, sizeof(xml), rk4,
             "<worldbody><site name='w' pos='0 0 2'/></worldbody>"
             "<actuator><general site='w' gear='0 0 1 0 0 0'/></actuator>");
  assert_int_equal(lean_of(xml), 0);
  chain_with(xml, sizeof(xml), rk4,
             "<equality><connect body1='world' body2='world' anchor='0 0 0'/></equality>");
  assert_int_equal(lean_of(xml), 0);
  chain_with(xml, sizeof(xml), rk4, "<option><flag fwdinv='enable'/></option>");
  assert_int_equal(lean_of(xml), 0);
  chain_with(xml, sizeof(xml), rk4, "");
  mjcb_control = passive_reading_bias;
  assert_int_equal(lean_of(xml), 0);
  mjcb_control = NULL;
  assert_int_equal(lean_of(xml), 1);
}

/* a passive-force callback reading body orientations and joint anchors, which a transient
 * forward of a lean model leaves out: with the callback the model is not lean, and the
 * group under RK4 ends as alone (each stage's callback seeing that stage's poses) */
static void passive_reading_poses(const mjModel* m, mjData* d) {
  for (int i = 0; i < m->nv; i++) {
    d->qfrc_passive[i] += 0.01 * d->xmat[9 + i % 9] + 0.01 * d->xanchor[3 + i % 3];
  }
}

static void test_group_rk4_callback_reads_poses(void** state) {
  (void)state;
  char xml[4096];
  chain_with(xml, sizeof(xml), "<option timestep='0.005' integrator='RK4'/>", "");
  mjcb_passive = passive_reading_poses;
  check_group(xml, 30);
  mjcb_passive = NULL;
}

/* an arena with room for a step but not for the lanes' scratch: every stage per data */
static void test_group_small_arena(void** state) {
  (void)state;
  char xml[4096];
  const char* at = strstr(CHAIN, "<option");
  assert_non_null(at);
  snprintf(xml, sizeof(xml), "%.*s<size memory='12K'/>%s", (int)(at - CHAIN), CHAIN, at);
  check_group(xml, 30);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_group_chain),
      cmocka_unit_test(test_group_chain_rk4),
      cmocka_unit_test(test_group_mocap),
      cmocka_unit_test(test_group_tendon_armature),
      cmocka_unit_test(test_group_passive_callback),
      cmocka_unit_test(test_group_small_arena),
      cmocka_unit_test(test_forward_lean),
      cmocka_unit_test(test_group_rk4_callback_reads_poses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
