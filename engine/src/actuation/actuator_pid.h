/* actuation/actuator_pid.h — internal: MuJoCo's first-party engine plugin `mujoco.pid`, the
 * only engine plugin Torsion implements, and the small plugin table the MJCF reader and the
 * compiler consult.
 *
 * A pid actuator's force is kp*e + kd*de/dt + ki*integral(e) with e = ctrl - actuator_length.
 * Its configuration lives in mjModel.plugin_attr as the strings the model gave, parsed with
 * strtod once per actuation stage for all instances (mjModel has no field for parsed
 * values; MuJoCo keeps them in its plugin object); its state lives in mjData.act: the error
 * integral (when ki != 0), then the previous control (when slewmax is given), then the
 * activation of the actuator's own dynamics (dyntype filter, filterexact or integrator). */
#ifndef TORSION_ACTUATOR_PID_H
#define TORSION_ACTUATOR_PID_H

#include <torsion/torsion.h>

/* the plugin's name, its model slot (mjModel.plugin value) and its config attributes */
#define TN_PID_NAME "mujoco.pid"
#define TN_PID_SLOT 0
#define TN_PID_NATTR 5

/* the slot of the engine plugin called `name`, -1 when Torsion does not implement it */
int tn__pluginSlot(const char* name);

/* the name and the config attribute names of the plugin in `slot` (nattr: their count) */
const char* tn__pluginName(int slot);
const char* const* tn__pluginAttrs(int slot, int* nattr);

/* one instance's configuration */
typedef struct tnPidConfig_ {
  mjtNum kp, ki, kd;
  int has_imax;   /* imax given and ki != 0 */
  mjtNum imax;    /* bound of the error integral: the imax force divided by ki */
  int has_slew;   /* slewmax given */
  mjtNum slewmax; /* largest control rate */
} tnPidConfig;

/* the configuration of plugin instance `instance`, parsed from mjModel.plugin_attr */
void tn__pidConfig(const mjModel* m, int instance, tnPidConfig* cfg);

/* the configuration of every pid instance (cfgs: nplugin entries; others left as they are) */
void tn__pidConfigs(const mjModel* m, tnPidConfig* cfgs);

/* activation variables the controller keeps per actuator (integral, previous control) */
int tn__pidActDim(const tnPidConfig* cfg);

/* MuJoCo's checks when it initializes an instance: 0 with a message naming the problem;
 * *attr names the config attribute at fault (NULL otherwise) and *actuator the actuator
 * (-1 otherwise) */
int tn__pidCheck(const mjModel* m, int instance, const char** attr, int* actuator, char* msg,
                 int msgsz);

/* act_dot of the controller's own activation variables (after the built-in dynamics);
 * cfgs: tn__pidConfigs' */
void tn__pidActDot(const mjModel* m, mjData* d, const tnPidConfig* cfgs);

/* actuator_force of every pid actuator, clamped to its forcerange; cfgs: tn__pidConfigs' */
void tn__pidForce(const mjModel* m, mjData* d, const tnPidConfig* cfgs);

#endif /* TORSION_ACTUATOR_PID_H */
