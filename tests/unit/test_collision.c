/* tests/unit/test_collision.c — unit tests of mj_collision on hand-built models.
 *
 * Models are laid out with tn__allocModel (no MJCF needed) and geom poses are written into
 * mjData directly, so the collision module is tested on its own: selection filters
 * (contype/conaffinity, parent-child, weld, exclude, explicit pairs), disable flags,
 * parameter mixing (priority, solmix, maxima, margins and gaps), analytic colliders with
 * known answers, contact frames and the contact-buffer capacity warning. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <torsion/torsion.h>
#include "collision/collision_internal.h"
#include "model/model_alloc.h"

/* a scene of nbody bodies (body 0 = world) with one geom each (world: a plane) */
typedef struct {
  mjModel* m;
  mjData* d;
} scene;

/* build: body b > 0 gets a geom of type types[b] and size sizes[b]; parents[b] its parent */
static scene make_scene(int nbody, const int* types, const mjtNum (*sizes)[3], const int* parents,
                        int npair, int nexclude) {
  mjModel sz;
  memset(&sz, 0, sizeof(sz));
  sz.nbody = nbody;
  sz.ngeom = nbody;
  sz.npair = npair;
  sz.nexclude = nexclude;
  mjModel* m = tn__allocModel(&sz);
  for (int b = 0; b < nbody; b++) {
    m->body_parentid[b] = parents[b];
    m->body_weldid[b] = b;
    m->body_geomadr[b] = b;
    m->body_geomnum[b] = 1;
    m->geom_bodyid[b] = b;
    m->geom_type[b] = types[b];
    m->geom_contype[b] = 1;
    m->geom_conaffinity[b] = 1;
    m->geom_condim[b] = 3;
    m->geom_solmix[b] = 1;
    m->geom_solref[2 * b] = 0.02;
    m->geom_solref[2 * b + 1] = 1;
    const mjtNum imp[5] = {0.9, 0.95, 0.001, 0.5, 2};
    memcpy(m->geom_solimp + 5 * b, imp, sizeof(imp));
    m->geom_friction[3 * b] = 1;
    m->geom_friction[3 * b + 1] = 0.005;
    m->geom_friction[3 * b + 2] = 0.0001;
    memcpy(m->geom_size + 3 * b, sizes[b], 3 * sizeof(mjtNum));
    mjtNum r = 0;
    switch (types[b]) {
      case mjGEOM_SPHERE: r = sizes[b][0]; break;
      case mjGEOM_CAPSULE: r = sizes[b][0] + sizes[b][1]; break;
      case mjGEOM_BOX:
        r = sqrt(sizes[b][0] * sizes[b][0] + sizes[b][1] * sizes[b][1] + sizes[b][2] * sizes[b][2]);
        break;
      default: r = 0;
    }
    m->geom_rbound[b] = r;
  }
  scene s = {m, mj_makeData(m)};
  for (int g = 0; g < nbody; g++) {
    mjtNum* mat = s.d->geom_xmat + 9 * g;
    memset(mat, 0, 9 * sizeof(mjtNum));
    mat[0] = mat[4] = mat[8] = 1;
  }
  return s;
}

static void free_scene(scene* s) {
  mj_deleteData(s->d);
  mj_deleteModel(s->m);
}

/* world plane + a sphere of radius 0.2 at height z */
static scene plane_sphere(mjtNum z) {
  const int types[2] = {mjGEOM_PLANE, mjGEOM_SPHERE};
  const mjtNum sizes[2][3] = {{5, 5, 0.1}, {0.2, 0, 0}};
  const int parents[2] = {0, 0};
  scene s = make_scene(2, types, sizes, parents, 0, 0);
  s.d->geom_xpos[3 + 0] = 0.1;
  s.d->geom_xpos[3 + 1] = -0.3;
  s.d->geom_xpos[3 + 2] = z;
  return s;
}

/* plane - sphere: one contact halfway between surface and plane, MuJoCo's frame */
static void test_plane_sphere(void** state) {
  (void)state;
  scene s = plane_sphere(0.19);
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 1);
  mjContact* c = s.d->contact;
  assert_int_equal(c->geom1, 0);
  assert_int_equal(c->geom2, 1);
  assert_true(fabs(c->dist + 0.01) < 1e-15);
  assert_true(fabs(c->pos[2] + 0.005) < 1e-15);
  const mjtNum frame[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
  for (int i = 0; i < 9; i++) {
    assert_true(fabs(c->frame[i] - frame[i]) < 1e-15);
  }
  assert_int_equal(c->dim, 3);
  assert_int_equal(c->exclude, 0);
  assert_int_equal(c->efc_address, -1);
  assert_true(c->friction[0] == 1 && c->friction[1] == 1 && c->friction[2] == 0.005);
  free_scene(&s);
}

/* separated beyond the margin: nothing; within margin + gap: kept but excluded */
static void test_margin_gap(void** state) {
  (void)state;
  scene s = plane_sphere(0.25);
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 0);

  // margins add up (0.03 + 0.01), gaps add up (0.02)
  s.m->geom_margin[0] = 0.03;
  s.m->geom_margin[1] = 0.01;
  s.m->geom_gap[0] = 0.02;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 1);
  assert_true(fabs(s.d->contact[0].includemargin - 0.04) < 1e-15);
  assert_int_equal(s.d->contact[0].exclude, 1);

  // inside the margin: included
  s.d->geom_xpos[5] = 0.23;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 1);
  assert_int_equal(s.d->contact[0].exclude, 0);
  free_scene(&s);
}

/* disable flags and contype/conaffinity */
static void test_filters(void** state) {
  (void)state;
  scene s = plane_sphere(0.1);
  s.m->opt.disableflags = mjDSBL_CONTACT;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 0);
  s.m->opt.disableflags = mjDSBL_CONSTRAINT;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 0);
  s.m->opt.disableflags = 0;

  // incompatible masks
  s.m->geom_contype[1] = 2;
  s.m->geom_conaffinity[1] = 2;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 0);

  // one direction suffices
  s.m->geom_conaffinity[0] = 3;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 1);
  free_scene(&s);
}

/* parent-child bodies do not collide unless the filter is disabled; welded never */
static void test_parent_child(void** state) {
  (void)state;
  const int types[3] = {mjGEOM_PLANE, mjGEOM_SPHERE, mjGEOM_SPHERE};
  const mjtNum sizes[3][3] = {{5, 5, 0.1}, {0.2, 0, 0}, {0.2, 0, 0}};
  const int parents[3] = {0, 0, 1};
  scene s = make_scene(3, types, sizes, parents, 0, 0);
  s.d->geom_xpos[3 * 1 + 2] = 1;
  s.d->geom_xpos[3 * 2 + 2] = 1.3;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 0);

  s.m->opt.disableflags = mjDSBL_FILTERPARENT;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 1);

  // welded child: same weld group, never collides
  s.m->body_weldid[2] = 1;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 0);
  free_scene(&s);
}

/* exclude removes a body pair; an explicit pair brings its own parameters */
static void test_exclude_and_pair(void** state) {
  (void)state;
  const int types[2] = {mjGEOM_PLANE, mjGEOM_SPHERE};
  const mjtNum sizes[2][3] = {{5, 5, 0.1}, {0.2, 0, 0}};
  const int parents[2] = {0, 0};
  scene s = make_scene(2, types, sizes, parents, 1, 1);
  s.d->geom_xpos[5] = 0.19;
  s.m->exclude_signature[0] = (0 << 16) + 1;

  // explicit pair (geoms given in the other order), its parameters
  s.m->pair_geom1[0] = 1;
  s.m->pair_geom2[0] = 0;
  s.m->pair_signature[0] = 1;
  s.m->pair_dim[0] = 6;
  s.m->pair_margin[0] = 0.05;
  s.m->pair_solref[0] = 0.05;
  s.m->pair_solref[1] = 2;
  s.m->pair_solreffriction[0] = 0.01;
  s.m->pair_solreffriction[1] = 1;
  for (int i = 0; i < 5; i++) {
    s.m->pair_friction[i] = 0;
    s.m->pair_solimp[i] = 0.5;
  }
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 1);
  mjContact* c = s.d->contact;
  assert_int_equal(c->geom1, 0);
  assert_int_equal(c->dim, 6);
  assert_true(c->includemargin == 0.05);
  assert_true(c->solref[0] == 0.05 && c->solreffriction[0] == 0.01);
  assert_true(c->friction[0] == mjMINMU);

  // without the pair the excluded body pair yields nothing
  s.m->npair = 0;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 0);
  s.m->npair = 1;
  free_scene(&s);
}

/* priority wins; equal priority mixes by solmix and takes maxima */
static void test_mixing(void** state) {
  (void)state;
  scene s = plane_sphere(0.19);
  s.m->geom_solmix[0] = 3;
  s.m->geom_solref[0] = 0.03;
  s.m->geom_friction[3] = 2;
  s.m->geom_condim[1] = 4;
  mj_collision(s.m, s.d);
  mjContact* c = s.d->contact;
  assert_true(fabs(c->solref[0] - 0.0275) < 1e-15);
  assert_true(c->friction[0] == 2 && c->dim == 4);

  // priority: everything from the plane
  s.m->geom_priority[0] = 1;
  mj_collision(s.m, s.d);
  assert_true(c->solref[0] == 0.03 && c->friction[0] == 1 && c->dim == 3);

  // direct (negative) solref: elementwise minimum
  s.m->geom_priority[0] = 0;
  s.m->geom_solref[0] = -100;
  s.m->geom_solref[2] = -200;
  mj_collision(s.m, s.d);
  assert_true(c->solref[0] == -200);
  free_scene(&s);
}

/* box on plane: the four bottom corners; box-box face contact: four clipped corners */
static void test_boxes(void** state) {
  (void)state;
  const int types[3] = {mjGEOM_PLANE, mjGEOM_BOX, mjGEOM_BOX};
  const mjtNum sizes[3][3] = {{5, 5, 0.1}, {0.3, 0.3, 0.1}, {0.1, 0.15, 0.1}};
  const int parents[3] = {0, 0, 0};
  scene s = make_scene(3, types, sizes, parents, 0, 0);
  s.d->geom_xpos[3 * 1 + 2] = 0.09;
  s.d->geom_xpos[3 * 2 + 0] = 0.05;
  s.d->geom_xpos[3 * 2 + 2] = 0.285;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 8);
  for (int i = 0; i < 4; i++) {
    assert_true(fabs(s.d->contact[i].dist + 0.01) < 1e-15);
  }
  for (int i = 4; i < 8; i++) {
    assert_int_equal(s.d->contact[i].geom1, 1);
    assert_true(fabs(s.d->contact[i].dist + 0.005) < 1e-15);
    assert_true(fabs(s.d->contact[i].pos[2] - 0.1875) < 1e-15);
  }
  free_scene(&s);
}

/* a full contact buffer warns and keeps what fits */
static void test_capacity(void** state) {
  (void)state;
  const int types[3] = {mjGEOM_PLANE, mjGEOM_BOX, mjGEOM_BOX};
  const mjtNum sizes[3][3] = {{5, 5, 0.1}, {0.3, 0.3, 0.1}, {0.3, 0.3, 0.1}};
  const int parents[3] = {0, 0, 0};
  scene s = make_scene(3, types, sizes, parents, 0, 0);
  s.d->geom_xpos[3 * 1 + 2] = 0.09;
  s.d->geom_xpos[3 * 2 + 0] = 1;
  s.d->geom_xpos[3 * 2 + 2] = 0.09;
  s.d->ncon_capacity = 6;
  mj_collision(s.m, s.d);
  assert_int_equal(s.d->ncon, 6);
  assert_true(s.d->warning[mjWARN_CONTACTFULL].number > 0);
  free_scene(&s);
}

/* the broad phase's body pairs against every pair tested one by one: 13 bodies (the world's
 * plane pairs with all; twelve spheres, one at a NaN position, whose box no test rejects,
 * one at +inf, apart from all but the plane), so the four-at-a-time tests end on a partial
 * block; pairs come sorted by signature */
static void test_broadphase_pairs(void** state) {
  (void)state;
  enum { NB = 13 };
  int types[NB], parents[NB];
  mjtNum sizes[NB][3];
  for (int b = 0; b < NB; b++) {
    types[b] = b ? mjGEOM_SPHERE : mjGEOM_PLANE;
    parents[b] = 0;
    sizes[b][0] = b ? 0.15 : 5;
    sizes[b][1] = b ? 0 : 5;
    sizes[b][2] = 0.1;
  }
  scene s = make_scene(NB, types, (const mjtNum(*)[3])sizes, parents, 0, 0);
  unsigned x = 12345;
  for (int b = 1; b < NB; b++) {
    for (int k = 0; k < 3; k++) {
      x = x * 1103515245u + 12345u;
      s.d->geom_xpos[3 * b + k] = (x >> 8) % 1000 * 1e-3;
    }
  }
  s.d->geom_xpos[3 * 5] = NAN;
  s.d->geom_xpos[3 * 9 + 1] = INFINITY;

  int pairs[NB * NB], want[NB * NB], nwant = 0;
  int npair = tn__broadphase(s.m, s.d, NULL, pairs, NB * NB);
  for (int a = 0; a < NB; a++) {
    for (int b = a + 1; b < NB; b++) {
      int keep = a == 0;
      if (!keep) {
        keep = 1;
        for (int k = 0; k < 3; k++) {
          mjtNum pa = s.d->geom_xpos[3 * a + k], pb = s.d->geom_xpos[3 * b + k];
          if (pa - 0.15 > pb + 0.15 || pb - 0.15 > pa + 0.15) {
            keep = 0;
          }
        }
      }
      if (keep) {
        want[nwant++] = (a << 16) + b;
      }
    }
  }
  assert_int_equal(npair, nwant);
  for (int i = 0; i < npair; i++) {
    assert_int_equal(pairs[i], want[i]);
  }
  assert_true(nwant > NB);  // the plane's twelve and some sphere pairs
  free_scene(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plane_sphere),
      cmocka_unit_test(test_margin_gap),
      cmocka_unit_test(test_filters),
      cmocka_unit_test(test_parent_child),
      cmocka_unit_test(test_exclude_and_pair),
      cmocka_unit_test(test_mixing),
      cmocka_unit_test(test_boxes),
      cmocka_unit_test(test_capacity),
      cmocka_unit_test(test_broadphase_pairs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
