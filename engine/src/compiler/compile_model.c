/* compiler/compile_model.c — tn_compileSpec: the compiler's driver.
 *
 * Stages, in order: names checked; objects numbered and every size computed; the model
 * allocated at once (tn_allocModel; mesh assets are loaded and processed before, as they
 * set mesh sizes); options copied; bodies, joints and dofs, trees, geoms,
 * sites, cameras and lights, assets and contacts, mass properties, tendons, equalities,
 * actuators, sensors, custom data, keyframes and names filled; then the constants pass
 * (tn_compileFinish) and what depends on it (damping ratios, statistic overrides). */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "compiler/compile_internal.h"
#include "model/model_alloc.h"

/* arena bytes: <size memory>, else the larger of the default and nstack */
static void set_arena(const tnSpec* s, mjModel* m) {
  long long bytes = (long long)tn_defaultArena(m);
  if (s->memory >= 0) {
    bytes = s->memory;
  } else if (s->nstack > 0 && (long long)s->nstack * 8 > bytes) {
    bytes = (long long)s->nstack * 8;
  }
  m->narena = bytes > INT_MAX ? INT_MAX : (int)bytes;
}

/* <statistic> values replace the computed ones */
static void override_stats(const tnSpec* s, mjModel* m) {
  if (!isnan(s->stat_meaninertia)) {
    m->stat.meaninertia = s->stat_meaninertia;
  }
  if (!isnan(s->stat_meanmass)) {
    m->stat.meanmass = s->stat_meanmass;
  }
  if (!isnan(s->stat_meansize)) {
    m->stat.meansize = s->stat_meansize;
  }
  if (!isnan(s->stat_extent)) {
    m->stat.extent = s->stat_extent;
  }
  for (int i = 0; i < 3; i++) {
    if (!isnan(s->stat_center[i])) {
      m->stat.center[i] = s->stat_center[i];
    }
  }
}

/* every fill stage, in dependency order */
static int fill_model(tnCompiler* c) {
  c->m->opt = c->spec->opt;
  return tn_compileBodies(c) && tn_compileJoints(c) && tn_compileTrees(c) && tn_compileAssets(c) &&
         tn_compileMeshModel(c) &&
         tn_compileGeoms(c) && tn_compileSites(c) && tn_compileCamLights(c) &&
         tn_compileContacts(c) && tn_compileInertias(c) && tn_compileTendons(c) &&
         tn_compileEqualities(c) && tn_compileActuators(c) && tn_compileSensors(c) &&
         tn_compileCustom(c) && tn_compileKeys(c) && tn_compileNames(c);
}

/* compile a spec into a model */
mjModel* tn_compileSpec(tnSpec* spec, char* err, int errsz) {
  tnCompiler c;
  memset(&c, 0, sizeof(c));
  c.spec = spec;
  c.err = err;
  c.errsz = errsz;

  // numbering and sizes, then one allocation
  mjModel sizes;
  int ok = tn_checkNames(&c) && tn_compileMeshes(&c) && tn_compileOrderSizes(&c, &sizes);
  if (ok) {
    c.m = tn_allocModel(&sizes);
    ok = c.m != NULL;
    if (!ok) {
      tn_compileFail(&c, NULL, NULL, "out of memory allocating the model");
    }
  }

  // fill, then derived constants
  if (ok) {
    set_arena(spec, c.m);
    ok = fill_model(&c);
  }
  if (ok) {
    char why[512] = "";
    ok = tn_compileFinish(c.m, why, sizeof(why));
    if (!ok) {
      tn_compileFail(&c, NULL, NULL, "%s", why[0] ? why : "model constants failed");
    }
  }
  if (ok) {
    ok = tn_compileDampratio(&c) && tn_compileLengthRange(&c);
    override_stats(spec, c.m);
  }

  tn_compileOrderFree(&c);
  tn_compileMeshFree(&c);
  if (!ok) {
    mj_deleteModel(c.m);
    return NULL;
  }
  return c.m;
}
