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

/* visualization settings, set from <visual> (kept for MuJoCo compatibility: Torsion does
 * not render; viewers and renderers built on the model read them) */
typedef struct mjVisual_ {
  /* free camera and global display settings */
  struct {
    int cameraid;         /* initial camera (-1: the free camera) */
    int orthographic;     /* 1: the free camera is orthographic */
    float fovy;           /* free camera's vertical field of view (degrees, or a length) */
    float ipd;            /* inter-pupillary distance of the free camera */
    float azimuth;        /* free camera's initial azimuth (degrees) */
    float elevation;      /* free camera's initial elevation (degrees) */
    float linewidth;      /* width of wireframe and ray lines */
    float glow;           /* glow of the selected body */
    float realtime;       /* initial real-time factor */
    int offwidth;         /* offscreen buffer width */
    int offheight;        /* offscreen buffer height */
    int ellipsoidinertia; /* inertia drawn as 0: box, 1: ellipsoid */
    int bvactive;         /* 1: draw the active bounding volumes */
  } global;

  /* rendering quality */
  struct {
    int shadowsize; /* shadow map size */
    int offsamples; /* offscreen multisamples */
    int numslices;  /* slices of built-in shapes */
    int numstacks;  /* stacks of built-in shapes */
    int numquads;   /* quads per box face */
  } quality;

  /* the light attached to the free camera */
  struct {
    float ambient[3];
    float diffuse[3];
    float specular[3];
    int active;
  } headlight;

  /* scales between units (several relative to stat.extent) */
  struct {
    float stiffness;      /* mouse perturbation: translation stiffness */
    float stiffnessrot;   /* mouse perturbation: rotation stiffness */
    float force;          /* force to length units */
    float torque;         /* torque to length units */
    float alpha;          /* geom alpha scale when transparency is on */
    float fogstart;       /* fog start (times extent) */
    float fogend;         /* fog end (times extent) */
    float znear;          /* near clipping plane (times extent) */
    float zfar;           /* far clipping plane (times extent) */
    float haze;           /* haze ratio */
    float shadowclip;     /* directional light shadow clip (times extent) */
    float shadowscale;    /* spot light shadow scale (times cutoff) */
    float actuatortendon; /* tendon width scale for actuated tendons */
  } map;

  /* sizes of decorations relative to the mean body size */
  struct {
    float forcewidth;
    float contactwidth;
    float contactheight;
    float connect;
    float com;
    float camera;
    float light;
    float selectpoint;
    float jointlength;
    float jointwidth;
    float actuatorlength;
    float actuatorwidth;
    float framelength;
    float framewidth;
    float constraint;
    float slidercrank;
    float frustum;
  } scale;

  /* colors of decorations (rgba) */
  struct {
    float fog[4];
    float haze[4];
    float force[4];
    float inertia[4];
    float joint[4];
    float actuator[4];
    float actuatornegative[4];
    float actuatorpositive[4];
    float com[4];
    float camera[4];
    float light[4];
    float selectpoint[4];
    float connect[4];
    float contactpoint[4];
    float contactforce[4];
    float contactfriction[4];
    float contacttorque[4];
    float contactgap[4];
    float rangefinder[4];
    float constraint[4];
    float slidercrank[4];
    float crankbroken[4];
    float frustum[4];
    float bv[4];
    float bvactive[4];
  } rgba;
} mjVisual;

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

  /* options, visualization settings and statistics */
  mjOption opt;
  mjVisual vis;
  mjStatistic stat;

  /* the single buffer holding every array below */
  void* buffer;

  /* arrays, see mjxmacro.h */
#define X(type, name, rows, cols) type* name;
  MJMODEL_POINTERS(X)
#undef X
} mjModel;

#endif /* TORSION_MJMODEL_H */
