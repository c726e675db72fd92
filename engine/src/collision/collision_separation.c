/* collision/collision_separation.c — separating directions of convex pairs kept across steps.
 *
 * Why a kept direction can stand in for the native solver when it still separates a pair by
 * more than twice the ccd tolerance: every point GJK builds lies in the Minkowski difference
 * of the two (margin-grown) shapes, so its distance estimate never falls below the true
 * distance; it hands a pair to EPA (the only way to a contact) only when that estimate is
 * within the tolerance of zero, and capsule and sphere cores are tested against their radii
 * the same way. A pair apart by more than the tolerance plus round-off therefore always
 * comes out of the solver without a contact, which is what the check below returns without
 * running it. The table sits in the mjData's persistent cache (model/data_cache.h):
 * direct-mapped by the geom pair, a slot overwritten by the next pair hashed to it. */
#include "collision/collision_separation.h"

#include <math.h>
#include <stdint.h>

#include "model/data_cache.h"
#include "util/util_inline.h"

/* the slot of pair (g1, g2) in d's table, NULL when d has none (a power-of-two slot count,
 * the largest that fits the bytes) */
tnSepSlot* tn__separationSlot(const mjData* d, int g1, int g2) {
  tnDataCache* cache = tn__dataCache(d);
  size_t nslot = cache->sepbytes / sizeof(tnSepSlot);
  if (!nslot) {
    return NULL;
  }
  while (nslot & (nslot - 1)) {
    nslot &= nslot - 1;
  }
  uint32_t h = (uint32_t)g1 * 0x9E3779B1u ^ (uint32_t)g2 * 0x85EBCA77u;
  h ^= h >> 15;
  tnSepSlot* table = (tnSepSlot*)tn__dataCacheSepBytes(cache);
  return table + (h & (uint32_t)(nslot - 1));
}

/* |v|_1 of a 3-vector */
static mjtNum abs_sum3(const mjtNum v[3]) {
  return fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
}

/* 1 if the slot's direction still separates the pair by more than the solver's tolerance
 * and round-off: shape 1's lowest support along u above shape 2's highest, both grown by
 * half their margins */
int tn__separationHolds(const tnSepSlot* slot, const tnConvex* obj1, const tnConvex* obj2) {
  if (slot->g1 != obj1->geom || slot->g2 != obj2->geom || obj1->geom < 0 || obj2->geom < 0) {
    return 0;
  }
  const mjtNum* x = slot->x;
  mjtNum norm = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  if (!(norm > mjMINVAL) || !isfinite(norm)) {
    return 0;
  }
  mjtNum u[3] = {x[0] / norm, x[1] / norm, x[2] / norm};
  mjtNum neg[3] = {-u[0], -u[1], -u[2]};

  // support points on copies (the pair's own climbs start fresh, as without the table)
  tnConvex p1 = *obj1, p2 = *obj2;
  p1.meshindex = slot->warm1;
  p2.meshindex = slot->warm2;
  mjtNum a[3], b[3];
  tn__convexSupport(a, &p1, neg);
  tn__convexSupport(b, &p2, u);
  mjtNum grow = 0.5 * (obj1->margin + obj2->margin);  // (inflations are in the supports)
  mjtNum gap = mju_dot3(u, a) - mju_dot3(u, b) - grow;

  // the solver's tolerance twice over, and round-off relative to the coordinates involved
  const mjModel* m = obj1->m;
  mjtNum scale = abs_sum3(obj1->pos) + abs_sum3(obj2->pos) + m->geom_rbound[obj1->geom] +
                 m->geom_rbound[obj2->geom] + fabs(grow);
  mjtNum slack = 2 * fabs(m->opt.ccd_tolerance) + 1e-9 * scale + mjMINVAL;
  return gap > slack;
}

/* keep x as the pair's separating direction, or forget the pair */
void tn__separationStore(tnSepSlot* slot, const tnConvex* obj1, const tnConvex* obj2,
                         const mjtNum* x) {
  int known = slot->g1 == obj1->geom && slot->g2 == obj2->geom;
  if (!x || !(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] > 0)) {
    if (known) {
      slot->g1 = slot->g2 = -1;
    }
    return;
  }
  slot->g1 = obj1->geom;
  slot->g2 = obj2->geom;
  slot->warm1 = obj1->meshindex;
  slot->warm2 = obj2->meshindex;
  mju_copy3(slot->x, x);
}
