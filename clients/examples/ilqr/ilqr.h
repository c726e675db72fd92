/* clients/examples/ilqr/ilqr.h — shared types of the iLQR example: the task (goal, cost
 * weights, control limits, goal test), the problem sizes, the solver's buffers, and the
 * daemon-backed dynamics (model loading, Jacobians through TransitionFD, rollouts and the
 * closed-loop line search through a session). Everything here is client code: the physics
 * runs in torsiond. */
#ifndef TORSION_EXAMPLES_ILQR_H
#define TORSION_EXAMPLES_ILQR_H

#include <stddef.h>

#include "torsion_client.h"

#define ILQR_MAXQ 8      /* coordinates a task preset describes */
#define ILQR_MAXALPHA 16 /* line-search step sizes */
#define ILQR_MAXMU 8     /* regularization levels tried at once */
#define ILQR_MAXCAND (ILQR_MAXALPHA * ILQR_MAXMU)
#define ILQR_MAXSTART 8 /* initial guesses optimized side by side */

/* ---------------------------------------------------------------------------------------
 * the task
 * ------------------------------------------------------------------------------------- */

/* a swing-up task: start, goal, quadratic cost weights, control box, initial guesses, goal
 * test */
typedef struct ilqrTask_ {
  const char* name;
  const char* model;                     /* the model name it was written for (a warning if not) */
  int nq, nu;                            /* sizes the model must have */
  double q0[ILQR_MAXQ];                  /* initial qpos (qvel = 0): hanging rest */
  double qgoal[ILQR_MAXQ];               /* goal qpos (qvel = 0): upright */
  unsigned char angle[ILQR_MAXQ];        /* coordinate is an angle: cost 1 - cos(error) */
  double wq[ILQR_MAXQ], wv[ILQR_MAXQ];   /* running weights on qpos / qvel errors (per step) */
  double fq[ILQR_MAXQ], fv[ILQR_MAXQ];   /* terminal weights */
  double wu;                             /* control weight (per step) */
  double ulo[ILQR_MAXQ], uhi[ILQR_MAXQ]; /* control box (the model's ctrlrange) */
  double horizon;                        /* seconds */
  int hold;                              /* physics steps per control (stage) */
  int prune;                             /* drop the worse half of the starts this often */
  int nalpha;                            /* line-search step sizes 1, 1/2, ... */
  double uinit;                          /* initial guesses: uinit * sin(2 pi t / period) ... */
  double periods[ILQR_MAXSTART];         /* ... one start per period (0: constant uinit) */
  int nstart;
  double tol_angle, tol_pos, tol_vel; /* goal test on the final state */
} ilqrTask;

/* the preset called name (cartpole, acrobot), or NULL */
const ilqrTask* ilqr_task(const char* name);

/* sizes of one problem: x = [qpos (nq = nv), qvel (nv), act (na)], the tangent layout of
 * MuJoCo's transitionFD for models of hinge and slide joints. The trajectory has T stages;
 * each holds its control for `hold` physics steps of dt, N = T * hold steps in all. */
typedef struct ilqrDims_ {
  int nq, nv, na, nu, nx, T, hold, N;
  double dt;
} ilqrDims;

/* cost of stage t (t = T: the terminal cost, u ignored); gradient and Gauss-Newton Hessian
 * when lx / lxx (nx x nx) / lu / luu (diagonal, nu) are not NULL */
double ilqr_stage_cost(const ilqrTask* task, const ilqrDims* dm, int t, const double* x,
                       const double* u, double* lx, double* lxx, double* lu, double* luu);

/* total cost of X [T+1, nx], U [T, nu] */
double ilqr_total_cost(const ilqrTask* task, const ilqrDims* dm, const double* X, const double* U);

/* 1 when x meets the task's goal tolerances; the largest errors in err[3] (angle, position,
 * velocity) */
int ilqr_goal_reached(const ilqrTask* task, const ilqrDims* dm, const double* x, double err[3]);

/* ---------------------------------------------------------------------------------------
 * small dense linear algebra (row-major)
 * ------------------------------------------------------------------------------------- */

/* C[n,p] = A[n,m] B[m,p] (accumulate when add) */
void mat_mul(double* C, const double* A, const double* B, int n, int m, int p, int add);

/* C[n,p] = A[m,n]' B[m,p] (accumulate when add) */
void mat_mulT(double* C, const double* A, const double* B, int m, int n, int p, int add);

/* in-place Cholesky A = L L' of an n x n matrix (lower triangle); -1 if not positive */
int mat_cholesky(double* A, int n);

/* solve L L' x = b in place with a factor from mat_cholesky */
void mat_cholsolve(const double* L, double* b, int n);

/* ---------------------------------------------------------------------------------------
 * the backward pass
 * ------------------------------------------------------------------------------------- */

/* box-constrained QP: min 0.5 x'Hx + g'x with lo <= x <= hi (n <= ILQR_MAXQ), projected
 * Newton from x's initial value. isfree[i] = 1 for components away from an active bound;
 * Hff receives the Cholesky factor of H over the free components (nfree x nfree).
 * Returns nfree, or -1 when H is not positive definite on the free set. */
int ilqr_boxqp(int n, const double* H, const double* g, const double* lo, const double* hi,
               double* x, unsigned char* isfree, double* Hff);

/* the result of one backward pass */
typedef struct ilqrGains_ {
  double mu;     /* Levenberg-Marquardt regularization it used */
  double *k, *K; /* feed-forward [T, nu] and feedback [T, nu, nx] gains */
  double dV[2];  /* expected decrease: alpha dV[0] + alpha^2 dV[1] (negative) */
  int ok;        /* Quu + mu I was positive definite everywhere */
} ilqrGains;

/* one forward-pass candidate: gain set and step size */
typedef struct ilqrCand_ {
  int gain;
  double alpha;
} ilqrCand;

/* one start: its trajectory, Jacobians, gains and line-search candidates */
typedef struct ilqrWork_ {
  double J;   /* cost of X, U */
  double mu;  /* regularization level at the middle of the ladder */
  int fresh;  /* A, Bm belong to X, U */
  int active; /* still iterating (not converged, not dropped) */
  int converged;
  int iters;               /* accepted steps */
  double* x0;              /* initial state [nx] */
  double *X, *U;           /* current trajectory [T+1, nx], [T, nu] */
  double* Xf;              /* its states at every physics step [N+1, nx] */
  double *Af, *Bf;         /* one-step Jacobians [N, nx, nx], [N, nx, nu] */
  double *A, *Bm;          /* stage Jacobians [T, nx, nx], [T, nx, nu] */
  ilqrGains g[ILQR_MAXMU]; /* one backward pass per regularization level */
  int ngain;
  ilqrCand cand[ILQR_MAXCAND]; /* the line search's candidates (padded to a fixed count) */
  int ncand, nreal;
  double *Xc, *Uc; /* candidate trajectories [ncand, T+1, nx], [ncand, T, nu] */
} ilqrWork;

/* backward pass along w->X, w->U with Levenberg-Marquardt regularization g->mu on Quu;
 * fills g (g->ok = 0 when some Quu + mu I is not positive definite) */
void ilqr_backward(const ilqrTask* task, const ilqrDims* dm, const ilqrWork* w, ilqrGains* g);

/* ---------------------------------------------------------------------------------------
 * dynamics through torsiond
 * ------------------------------------------------------------------------------------- */

/* a connection with a loaded model and a line-search session */
typedef struct ilqrDaemon_ {
  tnClient* c;
  char handle[65];
  tncModelInfo info;
  int nstate;         /* size of a state under ILQR_SPEC */
  tncSession session; /* environments of the closed-loop forward pass */
  int has_session;
  double* buf; /* scratch: packed states and controls */
  size_t bufsize;
} ilqrDaemon;

/* state layout of every request: TIME | QPOS | QVEL | ACT */
#define ILQR_SPEC 0xF

/* connect to address and load the model: MJCF text read from xml_path with the files it
 * references sent as assets, the integrator attribute replaced by integrator (RK4 has no
 * transitionFD), or (server_path) a path under the daemon's model_root. save_xml (NULL:
 * none) receives the text that was sent. 0, or -1 with a message on stderr. */
int ilqr_daemon_open(ilqrDaemon* dd, const char* address, const char* xml_path, int server_path,
                     const char* integrator, const char* save_xml);
void ilqr_daemon_close(ilqrDaemon* dd);

/* open-loop rollouts of the n starts' controls w->U from w->x0 in one Rollout request:
 * w->X at the stage boundaries and w->Xf at every physics step */
int ilqr_rollout(ilqrDaemon* dd, const ilqrDims* dm, ilqrWork** ws, int n);

/* Jacobians along each start's w->Xf, w->U: the n N one-step Jacobians in one TransitionFD
 * request (B = n N states) into w->Af, w->Bf, composed over each stage's held control into
 * w->A, w->Bm */
int ilqr_jacobians(ilqrDaemon* dd, const ilqrDims* dm, ilqrWork** ws, int n, double eps);

/* closed-loop forward pass of every candidate of the n starts at once (one session
 * environment each, one SessionStep per stage): u = clamp(U + alpha k + K (x - X)) with
 * the candidate's gains; into w->Xc, w->Uc */
int ilqr_forward_closed(ilqrDaemon* dd, const ilqrTask* task, const ilqrDims* dm, ilqrWork** ws,
                        int n);

/* open-loop forward pass: the same control law applied along the linearized dynamics, then
 * the controls rolled out in one Rollout request with one item per candidate */
int ilqr_forward_open(ilqrDaemon* dd, const ilqrTask* task, const ilqrDims* dm, ilqrWork** ws,
                      int n);

/* ---------------------------------------------------------------------------------------
 * the solver
 * ------------------------------------------------------------------------------------- */

/* solver settings */
typedef struct ilqrSettings_ {
  int iters;       /* iteration limit */
  int nalpha, nmu; /* step sizes 1, 1/2, ...; regularization levels mu 10^(i-1) */
  int open_loop;   /* open-loop line search (Rollout) instead of closed loop */
  int prune;       /* every `prune` iterations the worse half of the starts drops out */
  int verbose;
  double eps, tol, mu0;
} ilqrSettings;

/* time spent in the daemon's requests */
typedef struct ilqrTimes_ {
  double fd, forward, rollout;
} ilqrTimes;

/* optimize the starts from their initial controls; returns the iteration count, or -1 on
 * a daemon error */
int ilqr_solve(const ilqrSettings* st, const ilqrTask* task, const ilqrDims* dm, ilqrDaemon* dd,
               ilqrWork** ws, int nstart, ilqrTimes* times);

#endif /* TORSION_EXAMPLES_ILQR_H */
