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

/* accumulated time of one pipeline timer (units of mjcb_time) */
typedef struct mjTimerStat_ {
  mjtNum duration;
  int number;
} mjTimerStat;

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
  mjtNum adhesion; /* adhesive force along the normal (always 0: Torsion has no adhesion) */
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
  mjtSize narena;
  mjtSize nbuffer;
  size_t pstack;
  size_t pbase;
  mjtSize maxuse_stack;
  void* arena;

  /* diagnostics */
  mjWarningStat warning[mjNWARNING];
  mjTimerStat timer[mjNTIMER];
  mjSolverStat solver[mjNISLAND * mjNSOLVER]; /* island i's iterations at i * mjNSOLVER */
  int solver_niter[mjNISLAND];
  int nisland;                   /* number of constraint islands (mj_island) */
  int nidof;                     /* number of dofs in all islands */

  /* scalar state and counters */
  mjtNum time;
  mjtNum energy[2];
  int ncon;
  int ne;
  int nf;
  int nl;
  int nefc;

  /* ---- constraint rows (owned by src/constraint) -------------------------------------
   * The efc_* arrays have run-time sizes, so mj_makeConstraint allocates them from the TOP
   * of d->arena (the scratch stack grows up from the bottom); they stay valid and readable
   * until the next mj_makeConstraint. `parena` is the number of bytes they use there. */
  int nJ;                        /* non-zeros in efc_J (nefc*nv when dense) */
  int nA;                        /* non-zeros in efc_AR (0 unless PGS or noslip needs it) */
  size_t parena;                 /* arena bytes used by the efc arrays, at its top */
  mjtSize maxuse_arena;          /* largest parena so far */
  int maxuse_efc;                /* largest nefc so far */
  int solver_nnz[mjNISLAND];     /* non-zeros in the solver matrix (Hessian or AR) */
  mjtNum solver_fwdinv[2];       /* forward-inverse comparison: qfrc, efc */

  /* computed by mj_makeConstraint */
  int* efc_type;                 /* constraint type (mjtConstraint)            (nefc) */
  int* efc_id;                   /* id of the object of that type              (nefc) */
  int* efc_J_rownnz;             /* sparse J: non-zeros per row                (nefc) */
  int* efc_J_rowadr;             /* sparse J: row start in colind              (nefc) */
  int* efc_J_rowsuper;           /* sparse J: following rows with same pattern (nefc) */
  int* efc_J_colind;             /* sparse J: column indices                   (nJ) */
  mjtNum* efc_J;                 /* constraint Jacobian, dense nefc x nv or CSR (nJ) */
  mjtNum* efc_pos;               /* constraint position (equality, limit, contact) */
  mjtNum* efc_margin;            /* inclusion margin (limit, contact)          (nefc) */
  mjtNum* efc_frictionloss;      /* frictionloss (friction rows)               (nefc) */
  mjtNum* efc_diagA;             /* diagonal of A, approximate or exact        (nefc) */
  mjtNum* efc_KBIP;              /* stiffness, damping, impedance, imp'        (nefc x 4) */
  mjtNum* efc_D;                 /* constraint mass                            (nefc) */
  mjtNum* efc_R;                 /* inverse constraint mass                    (nefc) */

  /* computed by mj_projectConstraint (PGS and noslip only) */
  int* efc_AR_rownnz;            /* sparse AR: non-zeros per row               (nefc) */
  int* efc_AR_rowadr;            /* sparse AR: row start in colind             (nefc) */
  int* efc_AR_colind;            /* sparse AR: column indices                  (nA) */
  mjtNum* efc_AR;                /* J inv(M) J' + R, dense nefc x nefc or CSR  (nA) */

  /* computed by mj_referenceConstraint */
  mjtNum* efc_vel;               /* velocity in constraint space: J qvel       (nefc) */
  mjtNum* efc_aref;              /* reference pseudo-acceleration              (nefc) */

  /* computed by mj_fwdConstraint */
  mjtNum* efc_b;                 /* linear cost term: J qacc_smooth - aref     (nefc) */
  int* efc_state;                /* constraint state (mjtConstraintState)      (nefc) */
  mjtNum* efc_force;             /* constraint force in constraint space       (nefc) */

  /* computed by mj_island (island constraint structure; in the efc region) */
  int* efc_island;               /* island of each constraint row              (nefc) */
  int* map_efc2iefc;             /* row -> its place in island order           (nefc) */
  int* map_iefc2efc;             /* place in island order -> row               (nefc) */

  /* computed by mj_island (rows sorted by island; aref, state and force by the
   * per-island solve of CG and Newton, left unset by PGS) */
  int* iefc_type;                /* efc_type in island order                   (nefc) */
  int* iefc_id;                  /* efc_id in island order                     (nefc) */
  mjtNum* iefc_frictionloss;     /* efc_frictionloss in island order           (nefc) */
  mjtNum* iefc_D;                /* efc_D in island order                      (nefc) */
  mjtNum* iefc_R;                /* efc_R in island order                      (nefc) */
  mjtNum* iefc_aref;             /* efc_aref in island order                   (nefc) */
  int* iefc_state;               /* efc_state in island order                  (nefc) */
  mjtNum* iefc_force;            /* efc_force in island order                  (nefc) */
  /* ---- end of the constraint block ------------------------------------------------ */

  /* contacts: capacity ncon_capacity (from <size nconmax>, else a default from the model) */
  mjContact* contact;
  int ncon_capacity;

  /* the single buffer holding every array below */
  void* buffer;

  /* arrays, see mjxmacro.h */
#define X(type, name, rows, cols) type* name;
  MJDATA_POINTERS(X)
  MJDATA_ISLAND_POINTERS(X)
#undef X
} mjData;

#endif /* TORSION_MJDATA_H */
