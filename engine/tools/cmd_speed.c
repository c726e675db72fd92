/* tools/cmd_speed.c — `torsion-sim speed`: steps per second of mj_step, one mjData per
 * thread, with optional control noise; reports contacts and constraints per step. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include <omp.h>

#include "sim.h"

/* wall clock in seconds */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* standard normal samples from a seeded xorshift generator (Box-Muller) */
static void fill_noise(mjtNum* out, size_t n, uint64_t seed, mjtNum scale) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < n; i++) {
    double u[2];
    for (int k = 0; k < 2; k++) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      u[k] = ((s >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    }
    out[i] = scale * sqrt(-2 * log(u[0])) * cos(2 * mjPI * u[1]);
  }
}

/* the stage clock installed by --profile (seconds) */
static mjtNum profile_clock(void) {
  return now();
}

/* the per-stage split summed over threads, in microseconds per step */
static json_t* profile_json(mjData** datas, int T, double steps) {
  mjtNum sum[mjNTIMER] = {0};
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < mjNTIMER; i++) {
      sum[i] += datas[t]->timer[i].duration;
    }
  }
  double col = sum[mjTIMER_POS_COLLISION];
  double make = sum[mjTIMER_POS_MAKE] + sum[mjTIMER_POS_PROJECT];
  double solve = sum[mjTIMER_CONSTRAINT];
  double fwd = sum[mjTIMER_FORWARD];
  return json_pack("{s:o, s:o, s:o, s:o, s:o}", "collision", sim_json_real(1e6 * col / steps, 3),
                   "make_constraint", sim_json_real(1e6 * make / steps, 3), "solver",
                   sim_json_real(1e6 * solve / steps, 3), "other_forward",
                   sim_json_real(1e6 * (fwd - col - make - solve) / steps, 3), "forward",
                   sim_json_real(1e6 * fwd / steps, 3));
}

/* every stage timer MuJoCo names, microseconds per call (for stage-by-stage comparison) */
static json_t* timers_json(mjData** datas, int T) {
  static const char* names[mjNTIMER] = {
      "step",          "forward",       "inverse",   "position",  "velocity",
      "actuation",     "constraint",    "advance",   "pos_kinematics", "pos_inertia",
      "pos_collision", "pos_make",      "pos_project", "col_broad", "col_narrow"};
  json_t* out = json_object();
  for (int i = 0; i < mjNTIMER; i++) {
    mjtNum dur = 0;
    long long num = 0;
    for (int t = 0; t < T; t++) {
      dur += datas[t]->timer[i].duration;
      num += datas[t]->timer[i].number;
    }
    if (num > 0 && names[i]) {
      json_object_set_new(out, names[i], sim_json_real(1e6 * dur / (double)num, 3));
    }
  }
  return out;
}

/* one thread's stepping: inputs, progress and contact/constraint totals */
typedef struct speedRun_ {
  const mjModel* m;
  mjData* d;
  int N;
  const mjtNum* noise; /* [N, nu] or NULL */
  int step;            /* steps begun (the failing one, after an error) */
  long long ncon, nefc;
} speedRun;

/* reset and step N times, applying the control noise */
static void speed_thread(void* arg) {
  speedRun* r = arg;
  const mjModel* m = r->m;
  mjData* d = r->d;
  mj_resetDataKeyframe(m, d, m->nkey > 0 ? 0 : -1);
  for (r->step = 0; r->step < r->N; r->step++) {
    if (r->noise && m->nu) {
      memcpy(d->ctrl, r->noise + (size_t)r->step * m->nu, sizeof(mjtNum) * m->nu);
    }
    mj_step(m, d);
    r->ncon += d->ncon;
    r->nefc += d->nefc;
  }
}

/* speed subcommand */
int cmd_speed(const simArgs* args) {
  mjModel* m = sim_load(args);
  if (!m) {
    return 1;
  }
  int T = args->threads, N = args->nstep < 0 ? 10000 : args->nstep;
  mjData** datas = sim_make_datas(m, T);
  mjtNum* noise = calloc((size_t)T * N * m->nu + 1, sizeof(mjtNum));
  long long ncon = 0, nefc = 0;
  if (!datas || !noise) {
    free(noise);
    sim_free_datas(datas, T);
    mj_deleteModel(m);
    return datas ? sim_fail("out of memory") : 1;
  }

  // control noise is generated up front so it is not timed
  for (int t = 0; t < T && args->ctrlnoise > 0; t++) {
    fill_noise(noise + (size_t)t * N * m->nu, (size_t)N * m->nu, (uint64_t)t + 1,
               args->ctrlnoise);
  }

  // optional stage timing (mjcb_time is global: set before the threads start)
  if (args->profile) {
    mjcb_time = profile_clock;
  }

  // each thread steps its own data from the initial state (keyframe 0 when present), under
  // one unwinding point per thread; the lowest thread that failed is reported
  double start = now();
  int failed = -1;
  char failure[1100] = "";
#pragma omp parallel num_threads(T)
  {
    int id = omp_get_thread_num();
    speedRun r = {m, datas[id], N, args->ctrlnoise > 0 ? noise + (size_t)id * N * m->nu : NULL,
                  0, 0, 0};
    char err[1000];
    int rc = tn_run(r.d, speed_thread, &r, err, (int)sizeof(err));
#pragma omp critical(speed_report)
    {
      ncon += r.ncon;
      nefc += r.nefc;
      if (rc && (failed < 0 || id < failed)) {
        failed = id;
        snprintf(failure, sizeof(failure), "thread %d, step %d: %s", id, r.step, err);
      }
    }
  }
  double elapsed = now() - start;
  if (failed >= 0) {
    free(noise);
    sim_free_datas(datas, T);
    mj_deleteModel(m);
    return sim_fail("speed: %s", failure);
  }

  // report
  double steps = (double)T * N;
  json_t* doc = json_pack("{s:s, s:i, s:i, s:o, s:o, s:o, s:o}", "model", args->model, "nstep", N,
                          "nthread", T, "seconds", sim_json_real(elapsed, 6), "steps_per_second",
                          sim_json_real(elapsed > 0 ? steps / elapsed : 0.0, 1),
                          "contacts_per_step", sim_json_real(steps > 0 ? ncon / steps : 0.0, 3),
                          "constraints_per_step", sim_json_real(steps > 0 ? nefc / steps : 0.0, 3));
  if (doc && args->profile && steps > 0) {
    json_object_set_new(doc, "profile_us_per_step", profile_json(datas, T, steps));
    json_object_set_new(doc, "timers_us_per_call", timers_json(datas, T));
  }
  int rc = sim_json_print(doc, 15);
  free(noise);
  sim_free_datas(datas, T);
  mj_deleteModel(m);
  return rc;
}
