/* compiler/compile_model.c — tn__compileSpec: the compiler's driver.
 *
 * Stages, in order: names checked; objects numbered and every size computed; the model
 * allocated at once (tn__allocModel; mesh assets are loaded and processed before, as they
 * set mesh sizes); options copied; bodies, joints and dofs, trees, geoms,
 * sites, cameras and lights, assets and contacts, mass properties, tendons, equalities,
 * actuators, sensors, custom data, keyframes and names filled; then the constants pass
 * (tn__compileFinish) and what depends on it (damping ratios, statistic overrides). */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "compiler/compile_internal.h"
#include "model/model_alloc.h"
#include "util/file_source.h"

/* arena bytes: <size memory>, else the default sized as MuJoCo's (from nstack when given) */
static void set_arena(const tnSpec* s, mjModel* m) {
  long long bytes = s->memory >= 0 ? s->memory : (long long)tn__defaultArena(m, s->nstack);
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
  c->m->vis = c->spec->vis;
  return tn__compileBodies(c) && tn__compileJoints(c) && tn__compileTrees(c) &&
         tn__compileAssets(c) && tn__compileSkins(c) && tn__compileMeshModel(c) &&
         tn__compileGeoms(c) && tn__compileSites(c) && tn__compileCamLights(c) &&
         tn__compileContacts(c) && tn__compileInertias(c) && tn__compileAlignFree(c) &&
         tn__compileTendons(c) && tn__compileEqualities(c) && tn__compileActuators(c) &&
         tn__compileSensors(c) && tn__compileCustom(c) && tn__compileKeys(c) && tn__compileNames(c);
}

/* compile a spec into a model */
mjModel* tn__compileSpec(tnSpec* spec, char* err, int errsz) {
  tnCompiler c;
  memset(&c, 0, sizeof(c));
  c.spec = spec;
  c.err = err;
  c.errsz = errsz;

  // static bodies merged first (the spec is rewritten)
  if (spec->compiler.fusestatic > 0 && !tn__compileFuseStatic(spec, err, errsz)) {
    return NULL;
  }

  // then what is only drawn removed (the spec is rewritten)
  if (spec->compiler.discardvisual > 0 && !tn__compileDiscardVisual(spec, err, errsz)) {
    return NULL;
  }

  // numbering and sizes, then one allocation
  mjModel sizes;
  int ok = tn__checkNames(&c) && tn__compileMeshes(&c) && tn__compileHFieldFiles(&c) &&
           tn__compileSkinFiles(&c) && tn__compileOrderSizes(&c, &sizes) &&
           tn__compileSkinSizes(&c, &sizes);
  // a model larger than the load allows fails before its arrays exist
  if (ok && spec->files && spec->files->model_limit > 0) {
    size_t need = (size_t)mj_sizeModel(&sizes) + sizeof(mjModel);
    if ((long long)need > spec->files->model_limit) {
      tn__compileFail(&c, NULL, NULL, "the model needs %zu bytes, above this load's limit of %lld",
                      need, spec->files->model_limit);
      ok = 0;
    }
  }
  if (ok) {
    c.m = tn__allocModel(&sizes);
    ok = c.m != NULL;
    if (!ok) {
      tn__compileFail(&c, NULL, NULL, "out of memory allocating the model");
    }
  }

  // fill, then derived constants
  if (ok) {
    set_arena(spec, c.m);
    ok = fill_model(&c);
  }
  if (ok) {
    char why[512] = "";
    ok = tn__compileFinish(c.m, why, sizeof(why));
    if (!ok) {
      tn__compileFail(&c, NULL, NULL, "%s", why[0] ? why : "model constants failed");
    }
    ok = ok && tn__compileSpringDamper(&c);
  }
  if (ok) {
    ok = tn__compileDampratio(&c) && tn__compileLengthRange(&c);
    override_stats(spec, c.m);
  }

  tn__compileOrderFree(&c);
  tn__compileMeshFree(&c);
  if (!ok) {
    mj_deleteModel(c.m);
    return NULL;
  }
  return c.m;
}
