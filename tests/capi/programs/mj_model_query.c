/* mj_model_query.c — MuJoCo's model queries, defaults, keyframe and state utilities and the
 * skip variants of the pipelines: mj_isDual, mj_isPyramidal, mj_getTotalmass,
 * mj_setTotalmass + mj_setConst, mj_default{Option,LROpt,SolRefImp}, mj_actuatorInputName,
 * mj_setKeyframe, mj_copyState, mj_extractState, mj_resetCtrl, mj_resetDataDebug,
 * mj_forwardSkip and mj_inverseSkip. Written against MuJoCo's C API only.
 * Usage: mj_model_query MODEL.xml NSTEP */
#include <stdio.h>
#include <stdlib.h>
#include MJ_INCLUDE

/* print n numbers on one line after a label */
static void print_vec(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

/* print a state vector selected by sig */
static void print_state(const char* label, const mjModel* m, const mjData* d, int sig) {
  int n = mj_stateSize(m, sig);
  mjtNum* state = malloc(sizeof(mjtNum) * (n + 1));
  mj_getState(m, d, state, sig);
  print_vec(label, state, n);
  free(state);
}

/* every field of mjOption */
static void print_option(const mjOption* o) {
  printf("option %.12g %.12g %.12g %.12g %.12g %.12g %.12g\n", o->timestep, o->impratio,
         o->tolerance, o->ls_tolerance, o->noslip_tolerance, o->ccd_tolerance,
         o->sleep_tolerance);
  print_vec("  gravity", o->gravity, 3);
  print_vec("  wind", o->wind, 3);
  print_vec("  magnetic", o->magnetic, 3);
  printf("  density %.12g viscosity %.12g o_margin %.12g\n", o->density, o->viscosity,
         o->o_margin);
  print_vec("  o_solref", o->o_solref, mjNREF);
  print_vec("  o_solimp", o->o_solimp, mjNIMP);
  print_vec("  o_friction", o->o_friction, 5);
  printf("  ints %d %d %d %d %d %d %d %d %d %d %d %d %d\n", o->integrator, o->cone, o->jacobian,
         o->solver, o->iterations, o->ls_iterations, o->noslip_iterations, o->ccd_iterations,
         o->disableflags, o->enableflags, o->disableactuator, o->sdf_initpoints,
         o->sdf_iterations);
}

/* a step of a fixed control pattern */
static void step_pattern(const mjModel* m, mjData* d, int t) {
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.6 * ((t + 2 * i) % 5 - 2) / 2.0;
  mj_step(m, d);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL.xml NSTEP\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  mjData* d = mj_makeData(m);
  mjData* d2 = mj_makeData(m);
  int nstep = atoi(argv[2]);
  int nv = (int)m->nv;

  /* queries and defaults */
  printf("isDual %d isPyramidal %d totalmass %.12g\n", mj_isDual(m), mj_isPyramidal(m),
         mj_getTotalmass(m));
  mjOption opt;
  mj_defaultOption(&opt);
  print_option(&opt);
  mjLROpt lr;
  mj_defaultLROpt(&lr);
  printf("lropt %d %d %d %.12g %.12g %.12g %.12g %.12g %.12g %.12g\n", lr.mode, lr.useexisting,
         lr.uselimit, lr.accel, lr.maxforce, lr.timeconst, lr.timestep, lr.inttotal,
         lr.interval, lr.tolrange);
  mjtNum solref[mjNREF] = {-1, -1}, solimp[mjNIMP] = {-1, -1, -1, -1, -1};
  mj_defaultSolRefImp(solref, NULL);
  print_vec("solref", solref, mjNREF);
  print_vec("solimp (untouched)", solimp, mjNIMP);
  mj_defaultSolRefImp(NULL, solimp);
  print_vec("solimp", solimp, mjNIMP);
  for (int i = 0; i < m->nu; i++) {
    for (int k = 0; k < 2; k++) {
      const char* name = mj_actuatorInputName(m, i, k);
      printf("actuator %d input %d %s\n", i, k, name ? name : "(null)");
    }
  }

  /* a moving state */
  for (int t = 0; t < nstep; t++) step_pattern(m, d, t);
  for (int i = 0; i < m->nmocap; i++) d->mocap_pos[3 * i] += 0.05;
  for (int i = 0; i < m->nuserdata; i++) d->userdata[i] = 0.25 * i;
  for (int i = 0; i < nv; i++) d->qfrc_applied[i] = 0.01 * i;

  /* keyframes: store the state, reset another data to it */
  if (m->nkey) {
    int k = (int)m->nkey - 1;
    mj_setKeyframe(m, d, k);
    printf("key_time %.12g\n", m->key_time[k]);
    print_vec("key_qpos", m->key_qpos + k * m->nq, (int)m->nq);
    print_vec("key_qvel", m->key_qvel + k * m->nv, nv);
    print_vec("key_act", m->key_act + k * m->na, (int)m->na);
    print_vec("key_ctrl", m->key_ctrl + k * m->nu, (int)m->nu);
    print_vec("key_mpos", m->key_mpos + k * 3 * m->nmocap, 3 * (int)m->nmocap);
    print_vec("key_mquat", m->key_mquat + k * 4 * m->nmocap, 4 * (int)m->nmocap);
    mj_resetDataKeyframe(m, d2, k);
    print_state("reset to key", m, d2, mjSTATE_INTEGRATION);
  }

  /* copying and extracting state components */
  mj_resetData(m, d2);
  mj_copyState(m, d, d2, mjSTATE_QPOS | mjSTATE_CTRL | mjSTATE_MOCAP_POS);
  print_state("copy partial", m, d2, mjSTATE_INTEGRATION);
  mj_copyState(m, d, d2, mjSTATE_INTEGRATION);
  print_state("copy all", m, d2, mjSTATE_INTEGRATION);
  int full = mjSTATE_INTEGRATION;
  int n = mj_stateSize(m, full);
  mjtNum* state = malloc(sizeof(mjtNum) * (n + 1));
  mjtNum* part = malloc(sizeof(mjtNum) * (n + 1));
  mj_getState(m, d, state, full);
  int sigs[3] = {mjSTATE_QVEL | mjSTATE_ACT | mjSTATE_MOCAP_QUAT | mjSTATE_EQ_ACTIVE,
                 mjSTATE_TIME | mjSTATE_USERDATA, mjSTATE_PHYSICS};
  for (int s = 0; s < 3; s++) {
    mj_extractState(m, state, full, part, sigs[s]);
    print_vec("extract", part, mj_stateSize(m, sigs[s]));
    mjtNum* sub = malloc(sizeof(mjtNum) * (n + 1));
    mj_extractState(m, part, sigs[s], sub, sigs[s] & (mjSTATE_QVEL | mjSTATE_TIME));
    print_vec("extract again", sub, mj_stateSize(m, sigs[s] & (mjSTATE_QVEL | mjSTATE_TIME)));
    free(sub);
  }

  /* the pipelines with stages skipped: change only what the later stages read */
  mj_forward(m, d);
  print_vec("qacc", d->qacc, nv);
  for (int i = 0; i < m->nu; i++) d->ctrl[i] += 0.3;
  mj_forwardSkip(m, d, mjSTAGE_VEL, 0);
  print_vec("skip vel: qacc", d->qacc, nv);
  print_vec("skip vel: sensordata", d->sensordata, (int)m->nsensordata);
  for (int i = 0; i < nv; i++) d->qvel[i] *= 0.5;
  mj_forwardSkip(m, d, mjSTAGE_POS, 1);
  print_vec("skip pos: qacc", d->qacc, nv);
  print_vec("skip pos: qfrc_bias", d->qfrc_bias, nv);
  mj_forwardSkip(m, d, mjSTAGE_NONE, 0);
  print_vec("skip none: qacc", d->qacc, nv);
  print_vec("skip none: sensordata", d->sensordata, (int)m->nsensordata);
  for (int i = 0; i < nv; i++) d->qacc[i] = 0.2 * (i % 4) - 0.3;
  mj_inverseSkip(m, d, mjSTAGE_NONE, 0);
  print_vec("inverse: qfrc_inverse", d->qfrc_inverse, nv);
  print_vec("inverse: sensordata", d->sensordata, (int)m->nsensordata);
  for (int i = 0; i < nv; i++) d->qacc[i] += 0.1;
  mj_inverseSkip(m, d, mjSTAGE_VEL, 1);
  print_vec("inverse skip vel: qfrc_inverse", d->qfrc_inverse, nv);
  for (int i = 0; i < nv; i++) d->qvel[i] += 0.05;
  mj_inverseSkip(m, d, mjSTAGE_POS, 0);
  print_vec("inverse skip pos: qfrc_inverse", d->qfrc_inverse, nv);
  print_vec("inverse skip pos: sensordata", d->sensordata, (int)m->nsensordata);

  /* neutral controls */
  mj_resetCtrl(m, d);
  print_vec("ctrl after resetCtrl", d->ctrl, (int)m->nu);

  /* debug reset: the defined arrays, a few undefined ones, then the pipeline runs as usual */
  mj_resetDataDebug(m, d2, 1);
  printf("time %.12g\n", d2->time);
  print_state("debug reset state", m, d2, mjSTATE_INTEGRATION);
  print_vec("debug qacc", d2->qacc, nv);
  print_vec("debug sensordata", d2->sensordata, (int)m->nsensordata);
  print_vec("debug xpos (undefined)", d2->xpos, 3);
  print_vec("debug qfrc_bias (undefined)", d2->qfrc_bias, 1);
  mj_forward(m, d2);
  print_vec("debug then forward: qacc", d2->qacc, nv);

  /* new total mass and the constants that follow from it */
  mj_setTotalmass(m, 2.5 * mj_getTotalmass(m));
  printf("totalmass %.12g\n", mj_getTotalmass(m));
  print_vec("body_mass", m->body_mass, (int)m->nbody);
  print_vec("body_inertia", m->body_inertia, 3 * (int)m->nbody);
  mj_setConst(m, d);
  print_vec("body_subtreemass", m->body_subtreemass, (int)m->nbody);
  print_vec("dof_M0", m->dof_M0, nv);
  print_vec("dof_invweight0", m->dof_invweight0, nv);
  print_vec("body_invweight0", m->body_invweight0, 2 * (int)m->nbody);
  print_vec("tendon_invweight0", m->tendon_invweight0, (int)m->ntendon);
  print_vec("tendon_length0", m->tendon_length0, (int)m->ntendon);
  print_vec("actuator_acc0", m->actuator_acc0, (int)m->nu);
  print_vec("actuator_length0", m->actuator_length0, (int)m->nu);
  printf("stat %.12g %.12g %.12g %.12g\n", m->stat.meaninertia, m->stat.meanmass,
         m->stat.meansize, m->stat.extent);
  print_vec("stat center", m->stat.center, 3);
  mj_resetData(m, d);
  for (int t = 0; t < nstep; t++) step_pattern(m, d, t);
  print_vec("qpos after steps with the new masses", d->qpos, (int)m->nq);

  free(state);
  free(part);
  mj_deleteData(d);
  mj_deleteData(d2);
  mj_deleteModel(m);
  return 0;
}
