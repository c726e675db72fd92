/* tests/unit/test_unwind.c — unit tests of engine errors that unwind (tn_run).
 *
 * An mju_error inside tn_run leaves the work at once (code after the error never runs),
 * hands the message to the host, restores the scratch stack to its state at tn_run and
 * drops the constraint rows; points nest; without a point mju_error returns and an
 * exhausted arena yields NULL (the library users' old contract). The arena's own errors
 * carry MuJoCo's wording: stack overflow on exhaustion, and an unbalanced mj_freeStack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <torsion/torsion.h>

/* a small model with a 4 KB arena */
static const char* SMALL =
    "<mujoco>"
    "  <size memory='4K'/>"
    "  <worldbody><body><joint/><geom size='.1'/></body></worldbody>"
    "</mujoco>";

/* messages received by the installed handler */
static char g_msg[1000];
static int g_count;

static void capture(const char* msg) {
  snprintf(g_msg, sizeof(g_msg), "%s", msg);
  g_count++;
}

/* the work of one item: mark, allocate `want` numbers, record how far it got */
typedef struct work_ {
  mjData* d;
  size_t want;
  int reached; /* 1 after the allocation returned */
  mjtNum* p;
} work;

static void alloc_work(void* arg) {
  work* w = arg;
  mj_markStack(w->d);
  w->p = mj_stackAllocNum(w->d, w->want);
  w->reached = 1;
  mj_freeStack(w->d);
}

/* an item that fits runs to its end and returns 0 */
static void test_run_ok(void** state) {
  (void)state;
  char err[256];
  mjModel* m = tn_loadXMLString(SMALL, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  work w = {d, 10, 0, NULL};
  assert_int_equal(tn_run(d, alloc_work, &w, err, sizeof(err)), 0);
  assert_int_equal(w.reached, 1);
  assert_non_null(w.p);
  assert_string_equal(err, "");
  assert_int_equal(tn_unwinding(), 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* exhaustion unwinds: no return into the item, the stack and marks restored, message kept */
static void test_run_overflow(void** state) {
  (void)state;
  char err[256];
  mjModel* m = tn_loadXMLString(SMALL, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  mju_user_error = capture;
  g_count = 0;

  // a frame of the host stays below the item's
  mj_markStack(d);
  mjtNum* host = mj_stackAllocNum(d, 4);
  assert_non_null(host);
  size_t pstack = d->pstack, pbase = d->pbase;
  d->nefc = 3;

  work w = {d, 1u << 20, 0, NULL};
  assert_int_equal(tn_run(d, alloc_work, &w, err, sizeof(err)), -1);
  assert_int_equal(w.reached, 0);
  assert_int_equal(g_count, 1);
  assert_non_null(strstr(err, "mj_stackAlloc: out of memory, stack overflow"));
  assert_string_equal(err, g_msg);
  assert_int_equal(d->pstack, pstack);
  assert_int_equal(d->pbase, pbase);
  assert_int_equal(d->nefc, 0);
  assert_int_equal(tn_unwinding(), 0);

  // the host's frame is intact and pops normally
  mj_freeStack(d);
  assert_int_equal(d->pstack, 0);
  assert_int_equal(d->pbase, 0);
  mju_user_error = NULL;
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* the inner of two nested points catches; the outer continues normally */
typedef struct nested_ {
  mjData* d;
  int inner_rc;
  int after;
  char err[256];
} nested;

static void outer_work(void* arg) {
  nested* n = arg;
  work w = {n->d, 1u << 20, 0, NULL};
  n->inner_rc = tn_run(n->d, alloc_work, &w, n->err, sizeof(n->err));
  assert_int_equal(tn_unwinding(), 1);
  n->after = 1;
}

static void test_run_nested(void** state) {
  (void)state;
  char err[256];
  mjModel* m = tn_loadXMLString(SMALL, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  nested n = {d, 0, 0, ""};
  assert_int_equal(tn_run(d, outer_work, &n, err, sizeof(err)), 0);
  assert_int_equal(n.inner_rc, -1);
  assert_int_equal(n.after, 1);
  assert_non_null(strstr(n.err, "stack overflow"));
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* without a point: mju_error returns, the allocation is NULL, nothing changes */
static void test_no_point(void** state) {
  (void)state;
  char err[256];
  mjModel* m = tn_loadXMLString(SMALL, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  mju_user_error = capture;
  g_count = 0;
  size_t pstack = d->pstack;
  assert_null(mj_stackAllocNum(d, 1u << 20));
  assert_int_equal(g_count, 1);
  assert_int_equal(d->pstack, pstack);
  assert_non_null(strstr(g_msg, "requested = 8388608"));

  // a byte size beyond size_t is refused before any arithmetic wraps
  assert_null(mj_stackAllocNum(d, SIZE_MAX / 4));
  assert_non_null(strstr(g_msg, "requested size is too large"));
  mju_user_error = NULL;
  mj_deleteData(d);
  mj_deleteModel(m);
}

/* mj_freeStack without a mark is an error (and unwinds like any other) */
static void free_twice(void* arg) {
  mjData* d = arg;
  mj_markStack(d);
  mj_freeStack(d);
  mj_freeStack(d);
}

static void test_unbalanced_free(void** state) {
  (void)state;
  char err[256];
  mjModel* m = tn_loadXMLString(SMALL, NULL, err, sizeof(err));
  assert_non_null(m);
  mjData* d = mj_makeData(m);
  assert_int_equal(tn_run(d, free_twice, d, err, sizeof(err)), -1);
  assert_non_null(strstr(err, "mj_freeStack: no matching mj_markStack"));
  assert_int_equal(d->pstack, 0);
  assert_int_equal(d->pbase, 0);

  // a step still works afterwards on the same data
  mj_resetData(m, d);
  mj_step(m, d);
  assert_int_equal(d->pstack, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_run_ok),        cmocka_unit_test(test_run_overflow),
      cmocka_unit_test(test_run_nested),    cmocka_unit_test(test_no_point),
      cmocka_unit_test(test_unbalanced_free),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
