/* xml/xml_extension.c — engine plugins in MJCF: the <extension> section and the plugin
 * reference of an actuator <plugin> element.
 *
 * <extension><plugin plugin="NAME"> declares that the model uses engine plugin NAME; its
 * <instance name="..."> children are named instances configured by <config key value>.
 * An actuator <plugin> names an instance (instance="..."), or only the plugin, in which case
 * it gets its own implicit instance configured by its <config> children (the plugin must be
 * declared in <extension>). Instances are numbered as MuJoCo numbers them: those of
 * <extension> in order, then the implicit ones in the order of their elements. Torsion
 * implements one engine plugin, mujoco.pid; any other name is an error naming it. */
#include <stdio.h>
#include <string.h>

#include "actuation/actuator_pid.h"
#include "xml/xml_reader.h"

/* error with a formatted message; returns 0 */
static int fail(tnReader* r, tnXmlNode* node, const char* attr, const char* fmt, const char* arg) {
  char msg[256];
  snprintf(msg, sizeof(msg), fmt, arg);
  tn__rdFail(r, node, attr, msg);
  return 0;
}

/* a required string attribute (MuJoCo's message when missing); NULL after an error */
static const char* required(tnReader* r, tnXmlNode* node, const char* attr) {
  const char* v = NULL;
  if (tn__rdName(r, node, attr, &v) == 0) {
    fail(r, node, attr, "required attribute missing: '%s'", attr);
  }
  return v;
}

/* the slot of plugin `name`, or an error naming it (-1) */
static int plugin_slot(tnReader* r, tnXmlNode* node, const char* name) {
  int slot = tn__pluginSlot(name);
  if (slot < 0) {
    fail(r, node, "plugin",
         "engine plugin '%s' is not implemented (Torsion implements only mujoco.pid)", name);
  }
  return slot;
}

/* the <config> children of `node` into p (p NULL: checked, then ignored) */
static int read_configs(tnReader* r, tnXmlNode* node, tnSpecPlugin* p) {
  int nattr = 0;
  const char* const* attrs = p ? tn__pluginAttrs(p->slot, &nattr) : NULL;
  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* cfg = node->child[i];
    const char* key = required(r, cfg, "key");
    const char* value = key ? required(r, cfg, "value") : NULL;
    if (!value) {
      return 0;
    }
    if (!p) {
      continue;
    }

    // a key of the plugin, given once
    int k = 0;
    while (k < nattr && strcmp(attrs[k], key) != 0) {
      k++;
    }
    if (k == nattr) {
      char msg[256];
      snprintf(msg, sizeof(msg), "unrecognized attribute 'plugin:%s' for plugin %s", key,
               tn__pluginName(p->slot));
      tn__rdFail(r, cfg, "key", msg);
      return 0;
    }
    if (p->value[k]) {
      return fail(r, cfg, "key", "duplicate config key: %s", key);
    }
    p->value[k] = value;
  }
  return 1;
}

/* a new instance of the plugin in `slot`; NULL after an error */
static tnSpecPlugin* new_instance(tnReader* r, tnXmlNode* node, int slot) {
  tnSpecPlugin* p = tn__vecPush(&r->spec->plugins, sizeof(tnSpecPlugin));
  if (!p) {
    tn__rdFail(r, node, NULL, "out of memory");
    return NULL;
  }
  p->slot = slot;
  p->src = &node->pos;
  return p;
}

/* index of the named instance, -1 when none */
static int find_instance(const tnSpec* s, const char* name) {
  for (int i = 0; i < s->plugins.n; i++) {
    const char* n = TN_AT(s->plugins, tnSpecPlugin, i)->name;
    if (n && strcmp(n, name) == 0) {
      return i;
    }
  }
  return -1;
}

/* one <extension> <plugin>: the declaration and its named instances */
static int read_plugin(tnReader* r, tnXmlNode* node) {
  const char* name = required(r, node, "plugin");
  if (!name) {
    return 0;
  }
  int slot = plugin_slot(r, node, name);
  if (slot < 0) {
    return 0;
  }
  r->spec->plugin_declared |= 1 << slot;

  for (int i = 0; i < node->nchild; i++) {
    tnXmlNode* inst = node->child[i];
    const char* iname = required(r, inst, "name");
    if (!iname) {
      return 0;
    }
    if (find_instance(r->spec, iname) >= 0) {
      return fail(r, inst, "name", "repeated name '%s' in plugin", iname);
    }
    tnSpecPlugin* p = new_instance(r, inst, slot);
    if (!p) {
      return 0;
    }
    p->name = iname;
    TN_OK(read_configs(r, inst, p));
  }
  return 1;
}

int tn__readExtension(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    TN_OK(read_plugin(r, node->child[i]));
  }
  return 1;
}

int tn__readActuatorPlugin(tnReader* r, tnXmlNode* node, tnSpecActuator* a) {
  const char* plugin = NULL;
  const char* instance = NULL;
  TN_TRY(tn__rdName(r, node, "plugin", &plugin));
  TN_TRY(tn__rdName(r, node, "instance", &instance));
  if (!plugin && !instance) {
    tn__rdFail(r, node, NULL, "neither 'plugin' nor 'instance' is specified");
    return 0;
  }

  // a named plugin must be declared in <extension>
  int slot = -1;
  if (plugin) {
    slot = plugin_slot(r, node, plugin);
    if (slot < 0) {
      return 0;
    }
    if (!(r->spec->plugin_declared & (1 << slot))) {
      return fail(r, node, "plugin", "unrecognized plugin '%s' (not declared in <extension>)",
                  plugin);
    }
  }

  // a named instance (config children are ignored, as MuJoCo does)
  if (instance) {
    a->plugin = find_instance(r->spec, instance);
    if (a->plugin < 0) {
      return fail(r, node, "instance", "unrecognized name '%s' for plugin instance", instance);
    }
    if (slot >= 0 && TN_AT(r->spec->plugins, tnSpecPlugin, a->plugin)->slot != slot) {
      return fail(r, node, "plugin", "instance is not an instance of plugin '%s'", plugin);
    }
    return read_configs(r, node, NULL);
  }

  // an implicit instance of its own
  tnSpecPlugin* p = new_instance(r, node, slot);
  if (!p) {
    return 0;
  }
  a->plugin = r->spec->plugins.n - 1;
  return read_configs(r, node, p);
}
