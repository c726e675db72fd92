/* compiler/compile_plugin.c — engine plugin instances: their model arrays (plugin slot,
 * state addresses, config strings) and the checks MuJoCo makes when it initializes them.
 *
 * plugin_attr holds, per instance, one NUL-terminated string per config attribute of its
 * plugin in the plugin's attribute order (empty when not given), at plugin_attradr. Torsion's
 * only plugin, mujoco.pid, keeps no plugin_state (its state lives in act), so every
 * plugin_statenum is 0. MuJoCo checks an instance when it makes its data, which happens
 * while compiling: a failed check is a compile error here. */
#include <stdio.h>
#include <string.h>

#include "actuation/actuator_pid.h"
#include "compiler/compile_internal.h"

/* bytes of one instance's config strings */
static int attr_bytes(const tnSpecPlugin* p) {
  int nattr = 0, n = 0;
  tn__pluginAttrs(p->slot, &nattr);
  for (int k = 0; k < nattr; k++) {
    n += (p->value[k] ? (int)strlen(p->value[k]) : 0) + 1;
  }
  return n;
}

void tn__compilePluginSizes(const tnSpec* s, mjModel* sz) {
  sz->nplugin = s->plugins.n;
  sz->npluginattr = 0;
  sz->npluginstate = 0;
  for (int i = 0; i < s->plugins.n; i++) {
    sz->npluginattr += attr_bytes(TN_AT(s->plugins, tnSpecPlugin, i));
  }
}

/* the checks of one instance, reported at its element or at the failing actuator */
static int check_instance(tnCompiler* c, int i) {
  const tnSpecPlugin* p = TN_AT(c->spec->plugins, tnSpecPlugin, i);
  const char* attr = NULL;
  int actuator = -1;
  char msg[300];
  if (tn__pidCheck(c->m, i, &attr, &actuator, msg, sizeof(msg))) {
    return 1;
  }
  if (actuator >= 0) {
    const tnSpecActuator* a = TN_AT(c->spec->actuators, tnSpecActuator, actuator);
    return tn__compileFail(c, a->src, "actdim", "mujoco.pid: %s", msg);
  }
  return tn__compileFail(c, p->src, NULL, "mujoco.pid%s%s: %s", attr ? " config " : "",
                         attr ? attr : "", msg);
}

int tn__compilePlugins(tnCompiler* c) {
  mjModel* m = c->m;
  int adr = 0;
  for (int i = 0; i < m->nplugin; i++) {
    const tnSpecPlugin* p = TN_AT(c->spec->plugins, tnSpecPlugin, i);
    m->plugin[i] = p->slot;
    m->plugin_stateadr[i] = 0;
    m->plugin_statenum[i] = 0;
    m->plugin_attradr[i] = adr;

    // the config strings, one per attribute of the plugin
    int nattr = 0;
    tn__pluginAttrs(p->slot, &nattr);
    for (int k = 0; k < nattr; k++) {
      const char* v = p->value[k] ? p->value[k] : "";
      size_t n = strlen(v) + 1;
      memcpy(m->plugin_attr + adr, v, n);
      adr += (int)n;
    }
  }

  // MuJoCo's initialization checks, once every array is filled
  for (int i = 0; i < m->nplugin; i++) {
    if (!check_instance(c, i)) {
      return 0;
    }
  }
  return 1;
}
