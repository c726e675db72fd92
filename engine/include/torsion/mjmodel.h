/* torsion/mjmodel.h — mjOption, mjStatistic and mjModel: the compiled, read-only model.
 *
 * A model is produced by the MJCF compiler (mj_loadXML) and never modified by the engine;
 * any number of threads may share it. All arrays live in one allocation (`buffer`) laid out
 * from the table in mjxmacro.h. */
#ifndef TORSION_MJMODEL_H
#define TORSION_MJMODEL_H

#include <stddef.h>

#include "mjtnum.h"
#include "mjxmacro.h"

/* physics options, set from <option> */
typedef struct mjOption_ {
  /* timing and solver parameters */
  mjtNum timestep;
  mjtNum impratio;
  mjtNum tolerance;
  mjtNum ls_tolerance;
  mjtNum noslip_tolerance;
  mjtNum ccd_tolerance;
  mjtNum sleep_tolerance;
  /* physical constants */
  mjtNum gravity[3];
  mjtNum wind[3];
  mjtNum magnetic[3];
  mjtNum density;
  mjtNum viscosity;
  /* contact overrides (used with the override enable flag) */
  mjtNum o_margin;
  mjtNum o_solref[mjNREF];
  mjtNum o_solimp[mjNIMP];
  mjtNum o_friction[5];
  /* discrete settings */
  int integrator;
  int cone;
  int jacobian;
  int solver;
  int iterations;
  int ls_iterations;
  int noslip_iterations;
  int ccd_iterations;
  int disableflags;
  int enableflags;
  int disableactuator;
  int sdf_initpoints;
  int sdf_iterations;
} mjOption;

/* which actuators get a computed length range (mjLROpt.mode) */
typedef enum mjtLRMode {
  mjLRMODE_NONE = 0, /* none */
  mjLRMODE_MUSCLE,   /* muscle actuators only */
  mjLRMODE_MUSCLEUSER, /* muscle and user actuators */
  mjLRMODE_ALL         /* every actuator */
} mjtLRMode;

/* options of the actuator length-range computation (<compiler><lengthrange>) */
typedef struct mjLROpt_ {
  /* selection */
  int mode;        /* mjtLRMode */
  int useexisting; /* keep a range that is already set */
  int uselimit;    /* use the joint or tendon limits when they exist */
  /* simulation parameters */
  mjtNum accel;     /* target acceleration of the pulling force */
  mjtNum maxforce;  /* largest force norm (0: unlimited) */
  mjtNum timeconst; /* time constant of the velocity damping */
  mjtNum timestep;  /* simulation timestep (0: the model's) */
  mjtNum inttotal;  /* total simulated time */
  mjtNum interval;  /* final interval over which the length is measured */
  mjtNum tolrange;  /* convergence tolerance, relative to the range */
} mjLROpt;

/* model statistics computed by the compiler */
typedef struct mjStatistic_ {
  mjtNum meaninertia;
  mjtNum meanmass;
  mjtNum meansize;
  mjtNum extent;
  mjtNum center[3];
} mjStatistic;

/* the compiled model */
typedef struct mjModel_ {
  /* sizes */
#define X(name) mjtSize name;
  MJMODEL_INTS(X)
#undef X

  /* options and statistics */
  mjOption opt;
  mjStatistic stat;

  /* the single buffer holding every array below */
  void* buffer;

  /* arrays, see mjxmacro.h */
#define X(type, name, rows, cols) type* name;
  MJMODEL_POINTERS(X)
#undef X
} mjModel;

#endif /* TORSION_MJMODEL_H */
