/* actuation/actuator_pid.c — the `mujoco.pid` actuator plugin: configuration, the checks
 * MuJoCo makes when it initializes an instance, activation derivatives and forces.
 *
 * Semantics are MuJoCo 3.14's. The control is d->ctrl clamped to ctrlrange (always, whatever
 * mjDSBL_CLAMPCTRL says), or for actuators with their own dynamics the last activation (the
 * next one with actearly). With slewmax, once time is past 0, the control is kept within
 * slewmax*h of the previous control stored in act. The error integral advances by e*h and is
 * clamped to +-imax/ki. act_dot of the controller's variables is written so that an Euler
 * step lands on the new integral and on the control used: (new - act) / h. One instance may
 * drive several actuators, each with its own state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actuation/actuation.h"
#include "actuation/actuator_pid.h"

/* config attributes of mujoco.pid, in MuJoCo's order (the order of plugin_attr) */
static const char* const pid_attrs[TN_PID_NATTR] = {"kp", "ki", "kd", "imax", "slewmax"};

/* ---------------------------------------------------------------------------------------
 * the plugin table
 * ------------------------------------------------------------------------------------- */

int tn__pluginSlot(const char* name) {
  return name && strcmp(name, TN_PID_NAME) == 0 ? TN_PID_SLOT : -1;
}

const char* tn__pluginName(int slot) {
  return slot == TN_PID_SLOT ? TN_PID_NAME : NULL;
}

const char* const* tn__pluginAttrs(int slot, int* nattr) {
  *nattr = slot == TN_PID_SLOT ? TN_PID_NATTR : 0;
  return slot == TN_PID_SLOT ? pid_attrs : NULL;
}

/* ---------------------------------------------------------------------------------------
 * configuration
 * ------------------------------------------------------------------------------------- */

/* config value k of an instance: 1 and *v when given (non-empty) */
static int config_value(const mjModel* m, int instance, int k, mjtNum* v) {
  const char* s = m->plugin_attr + m->plugin_attradr[instance];
  for (int i = 0; i < k; i++) {
    s += strlen(s) + 1;
  }
  if (!s[0]) {
    return 0;
  }
  *v = strtod(s, NULL);
  return 1;
}

void tn__pidConfig(const mjModel* m, int instance, tnPidConfig* cfg) {
  memset(cfg, 0, sizeof(*cfg));
  config_value(m, instance, 0, &cfg->kp);
  config_value(m, instance, 1, &cfg->ki);
  config_value(m, instance, 2, &cfg->kd);

  // imax is a force: the integral itself is bounded by imax / ki
  mjtNum imax = 0;
  if (config_value(m, instance, 3, &imax) && cfg->ki != 0) {
    cfg->has_imax = 1;
    cfg->imax = imax / cfg->ki;
  }
  cfg->has_slew = config_value(m, instance, 4, &cfg->slewmax);
}

void tn__pidConfigs(const mjModel* m, tnPidConfig* cfgs) {
  for (int p = 0; p < m->nplugin; p++) {
    if (m->plugin[p] == TN_PID_SLOT) {
      tn__pidConfig(m, p, cfgs + p);
    }
  }
}

int tn__pidActDim(const tnPidConfig* cfg) {
  return (cfg->ki != 0) + (cfg->has_slew != 0);
}

/* 1 when the actuator's own dynamics keep an activation after the controller's */
static int own_activation(int dyntype) {
  return dyntype == mjDYN_FILTER || dyntype == mjDYN_FILTEREXACT || dyntype == mjDYN_INTEGRATOR;
}

int tn__pidCheck(const mjModel* m, int instance, const char** attr, int* actuator, char* msg,
                 int msgsz) {
  tnPidConfig cfg;
  tn__pidConfig(m, instance, &cfg);
  *attr = NULL;
  *actuator = -1;

  // bounds must be nonnegative
  if (cfg.has_imax && cfg.imax < 0) {
    *attr = "imax";
    snprintf(msg, (size_t)msgsz, "negative imax");
    return 0;
  }
  if (cfg.has_slew && cfg.slewmax < 0) {
    *attr = "slewmax";
    snprintf(msg, (size_t)msgsz, "slewmax must be non-negative");
    return 0;
  }

  // every actuator of the instance has the activation variables the controller needs
  int found = 0;
  for (int u = 0; u < m->nu; u++) {
    if (m->actuator_plugin[u] != instance) {
      continue;
    }
    found = 1;
    int dyntype = m->actuator_dyntype[u];
    int expected = tn__pidActDim(&cfg) + own_activation(dyntype);
    if (m->actuator_actnum[u] != expected) {
      *actuator = u;
      snprintf(msg, (size_t)msgsz,
               "actuator %d has actdim %d, expected %d. Add actdim=\"%d\" to the actuator "
               "plugin element.",
               u, m->actuator_actnum[u], expected, expected);
      return 0;
    }

    // other dynamics would read an activation that does not exist
    if (dyntype != mjDYN_NONE && m->actuator_actnum[u] == 0) {
      *actuator = u;
      snprintf(msg, (size_t)msgsz,
               "actuator %d: mujoco.pid with this dyntype reads an activation variable the "
               "actuator does not have (actdim 0)",
               u);
      return 0;
    }
  }
  if (!found) {
    snprintf(msg, (size_t)msgsz, "actuator not found for plugin instance %d", instance);
    return 0;
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * run time
 * ------------------------------------------------------------------------------------- */

/* the controller's state of one actuator, read from act */
typedef struct pidState_ {
  mjtNum integral;
  mjtNum prev_ctrl;
  int has_prev; /* a previous control exists (time > 0) */
} pidState;

static void read_state(const mjModel* m, const mjData* d, int u, const tnPidConfig* cfg,
                       pidState* s) {
  int adr = m->actuator_actadr[u];
  s->integral = 0;
  s->prev_ctrl = 0;
  s->has_prev = 0;
  if (cfg->ki != 0) {
    s->integral = d->act[adr++];
  }
  if (cfg->has_slew) {
    s->prev_ctrl = d->act[adr];
    s->has_prev = d->time > 0;
  }
}

/* the control the controller tracks: clamped ctrl or the activation, rate limited */
static mjtNum pid_ctrl(const mjModel* m, const mjData* d, int u, const tnPidConfig* cfg,
                       const pidState* s, int actearly) {
  mjtNum ctrl;
  if (m->actuator_dyntype[u] == mjDYN_NONE) {
    ctrl = d->ctrl[u];
    if (m->actuator_ctrllimited[u]) {
      ctrl = mju_clip(ctrl, m->actuator_ctrlrange[2 * u], m->actuator_ctrlrange[2 * u + 1]);
    }
  } else {
    int last = m->actuator_actadr[u] + m->actuator_actnum[u] - 1;
    ctrl = actearly ? tn__nextActivation(m, u, d->act[last], d->act_dot[last]) : d->act[last];
  }

  // slew limit around the previous control
  if (cfg->has_slew && s->has_prev) {
    mjtNum step = cfg->slewmax * m->opt.timestep;
    ctrl = mju_clip(ctrl, s->prev_ctrl - step, s->prev_ctrl + step);
  }
  return ctrl;
}

/* the error integral after this step, clamped to +-imax */
static mjtNum next_integral(const tnPidConfig* cfg, const pidState* s, mjtNum error, mjtNum h) {
  mjtNum integral = s->integral + error * h;
  if (cfg->has_imax) {
    integral = mju_clip(integral, -cfg->imax, cfg->imax);
  }
  return integral;
}

/* 1 and the configuration (from cfgs, one per instance) when actuator u is driven by a pid
 * instance */
static int pid_actuator(const mjModel* m, int u, const tnPidConfig* cfgs, tnPidConfig* cfg) {
  int p = m->actuator_plugin[u];
  if (p < 0 || m->plugin[p] != TN_PID_SLOT) {
    return 0;
  }
  *cfg = cfgs[p];
  return 1;
}

void tn__pidActDot(const mjModel* m, mjData* d, const tnPidConfig* cfgs) {
  mjtNum h = m->opt.timestep;
  for (int u = 0; u < m->nu; u++) {
    tnPidConfig cfg;
    if (!pid_actuator(m, u, cfgs, &cfg)) {
      continue;
    }
    pidState s;
    read_state(m, d, u, &cfg, &s);
    mjtNum ctrl = pid_ctrl(m, d, u, &cfg, &s, 0);
    mjtNum error = ctrl - d->actuator_length[u];

    // derivatives that step the integral and the stored control to their new values
    int adr = m->actuator_actadr[u];
    if (cfg.ki != 0) {
      d->act_dot[adr] = (next_integral(&cfg, &s, error, h) - d->act[adr]) / h;
      adr++;
    }
    if (cfg.has_slew) {
      d->act_dot[adr] = (ctrl - d->act[adr]) / h;
    }
  }
}

void tn__pidForce(const mjModel* m, mjData* d, const tnPidConfig* cfgs) {
  mjtNum h = m->opt.timestep;
  for (int u = 0; u < m->nu; u++) {
    tnPidConfig cfg;
    if (!pid_actuator(m, u, cfgs, &cfg)) {
      continue;
    }
    pidState s;
    read_state(m, d, u, &cfg, &s);
    mjtNum ctrl = pid_ctrl(m, d, u, &cfg, &s, m->actuator_actearly[u]);
    mjtNum error = ctrl - d->actuator_length[u];

    // the error's rate: the control's (its activation derivative) minus the length's
    mjtNum ctrl_dot = 0;
    if (m->actuator_dyntype[u] != mjDYN_NONE) {
      ctrl_dot = d->act_dot[m->actuator_actadr[u] + m->actuator_actnum[u] - 1];
    }
    mjtNum error_dot = ctrl_dot - d->actuator_velocity[u];
    mjtNum integral = cfg.ki != 0 ? next_integral(&cfg, &s, error, h) : 0;

    // force, clamped to forcerange
    mjtNum force = cfg.kp * error + cfg.kd * error_dot + cfg.ki * integral;
    if (m->actuator_forcelimited[u]) {
      force = mju_clip(force, m->actuator_forcerange[2 * u], m->actuator_forcerange[2 * u + 1]);
    }
    d->actuator_force[u] = force;
  }
}
