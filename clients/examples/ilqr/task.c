/* clients/examples/ilqr/task.c — the swing-up tasks of the iLQR example and their cost.
 *
 * Both tasks start hanging at rest and end upright and still. The cost is quadratic in the
 * state error and the control; angle errors enter through the residual (cos e - 1, sin e),
 * whose squared norm 2 - 2 cos e is smooth across the wrap and whose Gauss-Newton Hessian
 * is the constant weight, so the cost Hessian stays diagonal and positive everywhere.
 * Running weights are per physics step: a stage holding its control for `hold` steps
 * weighs `hold` times as much. */
#include <math.h>
#include <string.h>

#include "ilqr.h"

#define PI 3.14159265358979323846

/* the presets: dm_control suite cartpole.xml (slider, hinge; motor on the slider, gear 10)
 * and acrobot.xml (shoulder, elbow; motor on the elbow, gear 2), both with ctrlrange -1 1.
 * The acrobot's 2 N m cannot lift its 2 kg of links directly: it must pump energy over
 * several swings. Its state cost is terminal only (a running cost on the angles makes the
 * hanging rest a local minimum: the Gauss-Newton curvature of 1 - cos e is positive where
 * the true one is not), its control weight is high enough to keep the torque off its
 * bounds most of the time (a clamped control has no feedback, and without feedback the
 * line search on this unstable system fails), and eight initial guesses (sine torques of
 * different periods) are optimized side by side, the worse half dropped every 15
 * iterations. The cartpole starts from a small constant push and three small sine pushes.
 * Both hold each control for 4 physics steps (25 Hz). The settings were chosen so that the
 * neighbouring horizons (7 and 8 s) and holds (4 to 6) reach the goal too. */
static const ilqrTask tasks[] = {
    {.name = "cartpole",
     .model = "cart-pole",
     .nq = 2,
     .nu = 1,
     .q0 = {0, PI},
     .qgoal = {0, 0},
     .angle = {0, 1},
     .wq = {1, 10},
     .wv = {0.1, 0.1},
     .fq = {1000, 1000},
     .fv = {100, 100},
     .wu = 0.01,
     .ulo = {-1},
     .uhi = {1},
     .horizon = 2.5,
     .hold = 4,
     .prune = 20,
     .nalpha = 4,
     .uinit = 0.1,
     .periods = {0, 1, 1.5, 2},
     .nstart = 4,
     .tol_angle = 0.2,
     .tol_pos = 0.3,
     .tol_vel = 1.0},
    {.name = "acrobot",
     .model = "acrobot",
     .nq = 2,
     .nu = 1,
     .q0 = {PI, 0},
     .qgoal = {0, 0},
     .angle = {1, 1},
     .wq = {0, 0},
     .wv = {0, 0},
     .fq = {1000, 1000},
     .fv = {10, 10},
     .wu = 0.3,
     .ulo = {-1},
     .uhi = {1},
     .horizon = 8.0,
     .hold = 4,
     .prune = 15,
     .nalpha = 2,
     .uinit = 1,
     .periods = {2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.75},
     .nstart = 8,
     .tol_angle = 0.2,
     .tol_pos = 0.3,
     .tol_vel = 1.0},
};

const ilqrTask* ilqr_task(const char* name) {
  for (size_t i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++) {
    if (!strcmp(tasks[i].name, name)) {
      return &tasks[i];
    }
  }
  return NULL;
}

/* one coordinate's cost w (1 - cos e) (angle) or w e^2 / 2, its gradient and GN Hessian */
#include <stdlib.h>
static double coord_cost(double e, double w, int angle, double* g, double* h) {
  if (g) {
    *g = angle ? w * sin(e) : w * e;
    *h = w;
  }
  return angle ? w * (1 - cos(e)) : 0.5 * w * e * e;
}

double ilqr_stage_cost(const ilqrTask* task, const ilqrDims* dm, int t, const double* x,
                       const double* u, double* lx, double* lxx, double* lu, double* luu) {
  int final = t >= dm->T, nx = dm->nx;
  const double* wq = final ? task->fq : task->wq;
  const double* wv = final ? task->fv : task->wv;
  double scale = final ? 1 : dm->hold, c = 0, g = 0, h = 0;
  if (lx) {
    memset(lx, 0, sizeof(double) * nx);
    memset(lxx, 0, sizeof(double) * nx * nx);
  }

  // positions (angles through cos/sin) and velocities against the goal at rest
  for (int i = 0; i < dm->nv; i++) {
    c += coord_cost(x[i] - task->qgoal[i], scale * wq[i], task->angle[i], lx ? &g : NULL, &h);
    if (lx) {
      lx[i] = g;
      lxx[i * nx + i] = h;
    }
    c += coord_cost(x[dm->nv + i], scale * wv[i], 0, lx ? &g : NULL, &h);
    if (lx) {
      lx[dm->nv + i] = g;
      lxx[(dm->nv + i) * nx + dm->nv + i] = h;
    }
  }

  // controls (the terminal stage has none)
  for (int j = 0; j < dm->nu; j++) {
    double uj = final ? 0 : u[j], wu = final ? 0 : scale * task->wu;
    c += 0.5 * wu * uj * uj;
    if (lu) {
      lu[j] = wu * uj;
      luu[j] = wu;
    }
  }
  return c;
}

double ilqr_total_cost(const ilqrTask* task, const ilqrDims* dm, const double* X, const double* U) {
  double c = 0;
  for (int t = 0; t < dm->T; t++) {
    c += ilqr_stage_cost(task, dm, t, X + (size_t)t * dm->nx, U + (size_t)t * dm->nu, NULL, NULL,
                         NULL, NULL);
  }
  return c +
         ilqr_stage_cost(task, dm, dm->T, X + (size_t)dm->T * dm->nx, NULL, NULL, NULL, NULL, NULL);
}

/* an angle error wrapped to [-pi, pi] */
static double wrap(double e) {
  return e - 2 * PI * floor((e + PI) / (2 * PI));
}

int ilqr_goal_reached(const ilqrTask* task, const ilqrDims* dm, const double* x, double err[3]) {
  err[0] = err[1] = err[2] = 0;
  for (int i = 0; i < dm->nv; i++) {
    double e = x[i] - task->qgoal[i];
    if (task->angle[i]) {
      err[0] = fmax(err[0], fabs(wrap(e)));
    } else {
      err[1] = fmax(err[1], fabs(e));
    }
    err[2] = fmax(err[2], fabs(x[dm->nv + i]));
  }
  return err[0] <= task->tol_angle && err[1] <= task->tol_pos && err[2] <= task->tol_vel;
}
