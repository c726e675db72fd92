/* model/efc_arena.c — the arena region that holds the efc_* arrays.
 *
 * The number of constraint rows changes every step, so (as in MuJoCo) the efc arrays live
 * in mjData's arena rather than in its fixed buffer. The scratch stack grows up from the
 * arena's bottom; the efc region grows down from its top, so the arrays survive every
 * mj_markStack/mj_freeStack frame of the pipeline and stay readable after mj_forward.
 * d->parena is the region's size in bytes; mj_makeConstraint releases and refills it. */
#include <string.h>

#include "model/efc_arena.h"

/* alignment of each array in the region */
#define EFC_ALIGN 64

/* round n up to a multiple of EFC_ALIGN */
static size_t efc_align(size_t n) {
  return (n + EFC_ALIGN - 1) / EFC_ALIGN * EFC_ALIGN;
}

/* lowest usable address offset of the region: above the stack in use */
static size_t efc_floor(const mjData* d) {
  return efc_align(d->pstack);
}

/* grow the region by `bytes`; NULL if it would reach the stack */
static void* efc_alloc(mjData* d, size_t bytes) {
  size_t need = d->parena + efc_align(bytes ? bytes : 1), narena = (size_t)d->narena;
  if (need > narena || narena - need < efc_floor(d)) {
    return NULL;
  }
  d->parena = need;
  if (need > (size_t)d->maxuse_arena) {
    d->maxuse_arena = (mjtSize)need;
  }
  return (char*)d->arena + (narena - need);
}

/* forget the island-sorted row arrays (mj_island refills them) */
static void island_rows_clear(mjData* d) {
  d->efc_island = d->map_efc2iefc = d->map_iefc2efc = NULL;
  d->iefc_type = d->iefc_id = d->iefc_state = NULL;
  d->iefc_frictionloss = d->iefc_D = d->iefc_R = d->iefc_aref = d->iefc_force = NULL;
}

/* release the efc arrays */
void tn__efcRelease(mjData* d) {
  island_rows_clear(d);
  d->parena = 0;
  d->nefc = 0;
  d->nJ = 0;
  d->nA = 0;
}

/* more ints from the region */
int* tn__efcAllocInt(mjData* d, size_t n) {
  return (int*)efc_alloc(d, sizeof(int) * n);
}

/* more mjtNums from the region */
mjtNum* tn__efcAllocNum(mjData* d, size_t n) {
  return (mjtNum*)efc_alloc(d, sizeof(mjtNum) * n);
}

/* every efc array for d->nefc rows and d->nJ Jacobian non-zeros */
int tn__efcAllocate(const mjModel* m, mjData* d, int nA) {
  size_t nefc = (size_t)d->nefc, nJ = (size_t)d->nJ;
  (void)m;

  // start from an empty region
  d->parena = 0;
  island_rows_clear(d);

  // row descriptors and sparse structure
  d->efc_type = tn__efcAllocInt(d, nefc);
  d->efc_id = tn__efcAllocInt(d, nefc);
  d->efc_J_rownnz = tn__efcAllocInt(d, nefc);
  d->efc_J_rowadr = tn__efcAllocInt(d, nefc);
  d->efc_J_rowsuper = tn__efcAllocInt(d, nefc);
  d->efc_J_colind = tn__efcAllocInt(d, nJ);
  d->efc_AR_rownnz = tn__efcAllocInt(d, nefc);
  d->efc_AR_rowadr = tn__efcAllocInt(d, nefc);
  d->efc_state = tn__efcAllocInt(d, nefc);

  // row values
  d->efc_J = tn__efcAllocNum(d, nJ);
  d->efc_pos = tn__efcAllocNum(d, nefc);
  d->efc_margin = tn__efcAllocNum(d, nefc);
  d->efc_frictionloss = tn__efcAllocNum(d, nefc);
  d->efc_diagA = tn__efcAllocNum(d, nefc);
  d->efc_KBIP = tn__efcAllocNum(d, 4 * nefc);
  d->efc_D = tn__efcAllocNum(d, nefc);
  d->efc_R = tn__efcAllocNum(d, nefc);
  d->efc_vel = tn__efcAllocNum(d, nefc);
  d->efc_aref = tn__efcAllocNum(d, nefc);
  d->efc_b = tn__efcAllocNum(d, nefc);
  d->efc_force = tn__efcAllocNum(d, nefc);

  // inverse inertia in constraint space, when a dual solver needs it
  d->nA = nA;
  d->efc_AR_colind = nA ? tn__efcAllocInt(d, (size_t)nA) : NULL;
  d->efc_AR = nA ? tn__efcAllocNum(d, (size_t)nA) : NULL;

  // any failure: no rows this step
  if (!d->efc_type || !d->efc_id || !d->efc_J_rownnz || !d->efc_J_rowadr ||
      !d->efc_J_rowsuper || !d->efc_J_colind || !d->efc_AR_rownnz || !d->efc_AR_rowadr ||
      !d->efc_state || !d->efc_J || !d->efc_pos || !d->efc_margin ||
      !d->efc_frictionloss || !d->efc_diagA || !d->efc_KBIP || !d->efc_D || !d->efc_R ||
      !d->efc_vel || !d->efc_aref || !d->efc_b || !d->efc_force ||
      (nA && (!d->efc_AR_colind || !d->efc_AR))) {
    mj_warning(d, mjWARN_CNSTRFULL, (int)(d->narena > 0 ? d->nefc : 0));
    tn__efcRelease(d);
    return 0;
  }
  if (d->nefc > d->maxuse_efc) {
    d->maxuse_efc = d->nefc;
  }
  return 1;
}

/* shift one pointer of dest from src's arena into dest's */
static void* rebase(const void* p, const mjData* src, mjData* dest) {
  if (!p) {
    return NULL;
  }
  size_t off = (size_t)((const char*)p - (const char*)src->arena);
  return (char*)dest->arena + off;
}

/* copy src's efc region into dest and re-point dest's arrays */
void tn__efcCopy(mjData* dest, const mjData* src) {
  // the region: the top parena bytes of the arena
  if (src->parena) {
    memcpy((char*)dest->arena + (dest->narena - src->parena),
           (const char*)src->arena + (src->narena - src->parena), src->parena);
  }
  dest->parena = src->parena;

  // every efc pointer, shifted to dest's arena
#define TN_REBASE(field) dest->field = rebase(src->field, src, dest);
  TN_REBASE(efc_type)
  TN_REBASE(efc_id)
  TN_REBASE(efc_J_rownnz)
  TN_REBASE(efc_J_rowadr)
  TN_REBASE(efc_J_rowsuper)
  TN_REBASE(efc_J_colind)
  TN_REBASE(efc_J)
  TN_REBASE(efc_pos)
  TN_REBASE(efc_margin)
  TN_REBASE(efc_frictionloss)
  TN_REBASE(efc_diagA)
  TN_REBASE(efc_KBIP)
  TN_REBASE(efc_D)
  TN_REBASE(efc_R)
  TN_REBASE(efc_AR_rownnz)
  TN_REBASE(efc_AR_rowadr)
  TN_REBASE(efc_AR_colind)
  TN_REBASE(efc_AR)
  TN_REBASE(efc_vel)
  TN_REBASE(efc_aref)
  TN_REBASE(efc_b)
  TN_REBASE(efc_state)
  TN_REBASE(efc_force)
  TN_REBASE(efc_island)
  TN_REBASE(map_efc2iefc)
  TN_REBASE(map_iefc2efc)
  TN_REBASE(iefc_type)
  TN_REBASE(iefc_id)
  TN_REBASE(iefc_frictionloss)
  TN_REBASE(iefc_D)
  TN_REBASE(iefc_R)
  TN_REBASE(iefc_aref)
  TN_REBASE(iefc_state)
  TN_REBASE(iefc_force)
#undef TN_REBASE
}
