/* torsion/mjdata.h — mjData: the simulation state and every quantity derived from it.
 *
 * One mjData per thread. mj_makeData allocates all arrays once, plus an arena used as a
 * stack for scratch memory inside the pipeline; nothing in mj_step allocates. */
#ifndef TORSION_MJDATA_H
#define TORSION_MJDATA_H

#include <stddef.h>

#include "mjtnum.h"
#include "mjxmacro.h"

/* one warning counter: how often, and the index/info of the last occurrence */
typedef struct mjWarningStat_ {
  int lastinfo;
  int number;
} mjWarningStat;

/* per-iteration solver statistics */
typedef struct mjSolverStat_ {
  mjtNum improvement;
  mjtNum gradient;
  mjtNum lineslope;
  int nactive;
  int nchange;
  int neval;
  int nupdate;
} mjSolverStat;

/* one detected contact (filled by collision detection in the contacts milestone) */
typedef struct mjContact_ {
  mjtNum dist;
  mjtNum pos[3];
  mjtNum frame[9];
  mjtNum includemargin;
  mjtNum friction[5];
  mjtNum solref[mjNREF];
  mjtNum solreffriction[mjNREF];
  mjtNum solimp[mjNIMP];
  mjtNum mu;
  mjtNum H[36];
  int dim;
  int geom1;
  int geom2;
  int geom[2];
  int flex[2];
  int elem[2];
  int vert[2];
  int exclude;
  int efc_address;
} mjContact;

/* simulation data */
typedef struct mjData_ {
  /* arena: scratch stack (grows up from pstack) */
  size_t narena;
  size_t nbuffer;
  size_t pstack;
  size_t pbase;
  size_t maxuse_stack;
  void* arena;

  /* diagnostics */
  mjWarningStat warning[mjNWARNING];
  mjSolverStat solver[mjNSOLVER];
  int solver_niter[mjNISLAND];
  int nisland;

  /* scalar state and counters */
  mjtNum time;
  mjtNum energy[2];
  int ncon;
  int ne;
  int nf;
  int nl;
  int nefc;

  /* contacts: capacity ncon_capacity (from <size nconmax>, else a default from the model) */
  mjContact* contact;
  int ncon_capacity;

  /* the single buffer holding every array below */
  void* buffer;

  /* arrays, see mjxmacro.h */
#define X(type, name, rows, cols) type* name;
  MJDATA_POINTERS(X)
#undef X
} mjData;

#endif /* TORSION_MJDATA_H */
