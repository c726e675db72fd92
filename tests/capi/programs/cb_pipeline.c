/* cb_pipeline.c — MuJoCo's pipeline callbacks from a program's point of view: a PD
 * controller in mjcb_control, extra damping in mjcb_passive, user actuator dynamics, gain
 * and bias, user sensors filled per stage, and a contact filter that drops one geom pair.
 * Steps the model with mj_step (or mj_step1/mj_step2) and prints the state, the sensors,
 * the contacts and how often each callback ran. Written against MuJoCo's C API only.
 * Usage: cb_pipeline MODEL.xml NSTEP HOOKS [split] [rk4] [noact]
 *   HOOKS: letters c(ontrol) p(assive) a(ctuator) s(ensor) f(ilter), or "none" */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

/* calls seen per callback, and the stages the sensor callback was called for */
static int ncontrol, npassive, ndyn, ngain, nbias, nfilter;
static int nsensor[4];
static int drop_geom1 = -1, drop_geom2 = -1;

/* PD controller towards fixed joint targets */
static void controller(const mjModel* m, mjData* d) {
  ncontrol++;
  const mjtNum target[2] = {0.4, -0.7};
  for (int i = 0; i < 2 && i < m->nu; i++) {
    int dof = m->jnt_dofadr[m->actuator_trnid[2 * i]];
    int qadr = m->jnt_qposadr[m->actuator_trnid[2 * i]];
    d->ctrl[i] = 20 * (target[i] - d->qpos[qadr]) - 2 * d->qvel[dof];
  }
  if (m->nu > 2) d->ctrl[2] = 0.3 * sin(10 * d->time);
}

/* extra velocity-proportional damping on every dof */
static void passive(const mjModel* m, mjData* d) {
  npassive++;
  for (int i = 0; i < m->nv; i++) d->qfrc_passive[i] -= 0.1 * d->qvel[i];
}

/* user activation: a leaky integrator of the control */
static mjtNum act_dyn(const mjModel* m, const mjData* d, int id) {
  ndyn++;
  return d->ctrl[id] - 2 * d->act[m->actuator_actadr[id]];
}

/* user gain grows with the actuator length; user bias is a spring */
static mjtNum act_gain(const mjModel* m, const mjData* d, int id) {
  (void)m;
  ngain++;
  return 5 + d->actuator_length[id];
}

static mjtNum act_bias(const mjModel* m, const mjData* d, int id) {
  (void)m;
  nbias++;
  return -3 * d->actuator_length[id] - 0.2 * d->actuator_velocity[id];
}

/* user sensors of each stage: positions, a clipped velocity, accelerations */
static void sensor(const mjModel* m, mjData* d, int stage) {
  nsensor[stage]++;
  for (int i = 0; i < m->nsensor; i++) {
    if (m->sensor_type[i] != mjSENS_USER || m->sensor_needstage[i] != stage) continue;
    mjtNum* out = d->sensordata + m->sensor_adr[i];
    if (stage == mjSTAGE_POS) {
      out[0] = d->qpos[0] + d->qpos[1];
      out[1] = d->xpos[3 * 2 + 2];
    } else if (stage == mjSTAGE_VEL) {
      out[0] = 3 * d->qvel[0];
    } else {
      out[0] = d->qacc[0];
      out[1] = d->qfrc_actuator[1];
      out[2] = d->ncon;
    }
  }
}

/* drop one geom pair, keep the others by the usual bit test */
static int filter(const mjModel* m, mjData* d, int g1, int g2) {
  (void)d;
  nfilter++;
  if ((g1 == drop_geom1 && g2 == drop_geom2) || (g1 == drop_geom2 && g2 == drop_geom1)) {
    return 1;
  }
  int ok = (m->geom_contype[g1] & m->geom_conaffinity[g2]) ||
           (m->geom_contype[g2] & m->geom_conaffinity[g1]);
  return !ok;
}

/* print n numbers on one line after a label */
static void print_vec(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s MODEL.xml NSTEP HOOKS [split] [rk4] [noact]\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  mjData* d = mj_makeData(m);
  int nstep = atoi(argv[2]);
  const char* hooks = argv[3];
  int split = 0;
  for (int i = 4; i < argc; i++) {
    if (!strcmp(argv[i], "split")) split = 1;
    if (!strcmp(argv[i], "rk4")) m->opt.integrator = mjINT_RK4;
    if (!strcmp(argv[i], "noact")) m->opt.disableflags |= mjDSBL_ACTUATION;
  }
  drop_geom1 = mj_name2id(m, mjOBJ_GEOM, "floor");
  drop_geom2 = mj_name2id(m, mjOBJ_GEOM, "ball1");

  // install the requested callbacks
  if (strchr(hooks, 'c')) mjcb_control = controller;
  if (strchr(hooks, 'p')) mjcb_passive = passive;
  if (strchr(hooks, 'a')) {
    mjcb_act_dyn = act_dyn;
    mjcb_act_gain = act_gain;
    mjcb_act_bias = act_bias;
  }
  if (strchr(hooks, 's')) mjcb_sensor = sensor;
  if (strchr(hooks, 'f')) mjcb_contactfilter = filter;

  // without a controller: a fixed control pattern
  for (int t = 0; t < nstep; t++) {
    if (!mjcb_control) {
      for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.5 * ((t + i) % 3 - 1);
    }
    if (split) {
      mj_step1(m, d);
      mj_step2(m, d);
    } else {
      mj_step(m, d);
    }
    if (t == nstep / 2) {
      printf("mid ncon %d\n", d->ncon);
    }
  }

  // a final forward for the sensors and contacts of the last state
  mj_forward(m, d);
  printf("time %.12g\n", d->time);
  print_vec("qpos", d->qpos, m->nq);
  print_vec("qvel", d->qvel, m->nv);
  print_vec("act", d->act, m->na);
  print_vec("ctrl", d->ctrl, m->nu);
  print_vec("actuator_force", d->actuator_force, m->nu);
  print_vec("qfrc_passive", d->qfrc_passive, m->nv);
  print_vec("sensordata", d->sensordata, m->nsensordata);
  printf("ncon %d\n", d->ncon);
  for (int i = 0; i < d->ncon; i++) {
    printf("contact %d %d %.9g\n", d->contact[i].geom[0], d->contact[i].geom[1],
           d->contact[i].dist);
  }
  printf("calls control %d passive %d dyn %d gain %d bias %d filter %d\n", ncontrol, npassive,
         ndyn, ngain, nbias, nfilter > 0);
  printf("sensor stages %d %d %d\n", nsensor[mjSTAGE_POS], nsensor[mjSTAGE_VEL],
         nsensor[mjSTAGE_ACC]);

  // reset: every callback gone
  mj_resetCallbacks();
  printf("reset %d\n", mjcb_control == NULL && mjcb_passive == NULL && mjcb_sensor == NULL &&
                           mjcb_contactfilter == NULL && mjcb_act_dyn == NULL &&
                           mjcb_act_gain == NULL && mjcb_act_bias == NULL && mjcb_time == NULL);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
