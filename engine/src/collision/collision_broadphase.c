/* collision/collision_broadphase.c — candidate body pairs for the narrow phase.
 *
 * Bodies whose geoms cannot collide with anything are skipped. Bodies holding a plane (or
 * a geom without a bounding radius) are paired with every other body; the rest are
 * tested on axis-aligned boxes: the union of their geoms' world boxes (the geom-frame
 * bounding box geom_aabb turned into the world, as MuJoCo's broad phase bounds bodies) or,
 * for a geom without one, its bounding sphere, grown by margin and gap. Small models test
 * every pair of boxes. Larger ones group the bodies by kinematic tree (body_rootid):
 * within a group, a sweep along the group's longest axis finds the overlapping boxes;
 * across groups, a sweep over the group boxes finds the overlapping groups, and for each
 * such pair a sweep over the members of either group that touch the other group's box.
 * Pairs are filtered by contype/conaffinity (at body level), the same-weld rule and the
 * parent-child rule, and returned sorted by signature, so the result — and therefore the
 * contact order — does not depend on how the sweeps found them. The boxes are
 * conservative: a pair whose geoms are within their margins always survives. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"

/* models with at most this many collidable bodies test every pair of boxes (building with
 * -DTN_BP_ALLPAIRS=0 sends every model through the grouped sweeps, for testing them) */
#ifndef TN_BP_ALLPAIRS
#define TN_BP_ALLPAIRS 64
#endif

/* per-body broad-phase record */
typedef struct tnBPBody_ {
  int body;
  int always; /* holds a plane or unbounded geom: paired with every body */
  int contype;
  int conaffinity;
  int weld;       /* body_weldid of the body */
  int weldparent; /* body_weldid of the weld body's parent */
  mjtNum lo[3];
  mjtNum hi[3];
} tnBPBody;

/* a box and what it belongs to (a record or a group) */
typedef struct tnSweepKey_ {
  mjtNum lo[3];
  mjtNum hi[3];
  int index;
} tnSweepKey;

/* a group of bounded records (one kinematic tree): its members are keys [adr, adr + num)
 * of the member array; box: the union of their boxes */
typedef struct tnBPGroup_ {
  int adr;
  int num;
  mjtNum lo[3];
  mjtNum hi[3];
} tnBPGroup;

/* where accepted pairs go */
typedef struct tnBPOut_ {
  const mjModel* m;
  const tnBPBody* rec;
  int* pairs;
  int npair;
  int maxpair;
} tnBPOut;

/* 1 if the arena's free space (between the arena and stack parts) holds `bytes` more with
 * room to spare for alignment, so scratch allocations cannot overflow */
static int stack_room(const mjData* d, size_t bytes) {
  return d->narena - d->parena - d->pstack > bytes + 256;
}

/* 1 if the body pair is rejected by the same-weld and parent-child filters */
int tn__filterBodyPair(const mjModel* m, int b1, int b2) {
  int weld1 = m->body_weldid[b1], weld2 = m->body_weldid[b2];

  // same weld group
  if (weld1 == weld2) {
    return 1;
  }

  // parent-child (by weld groups), unless one of them is the world or the filter is off
  if (!(m->opt.disableflags & mjDSBL_FILTERPARENT) && weld1 != 0 && weld2 != 0) {
    int parent1 = m->body_weldid[m->body_parentid[weld1]];
    int parent2 = m->body_weldid[m->body_parentid[weld2]];
    if (weld1 == parent2 || weld2 == parent1) {
      return 1;
    }
  }
  return 0;
}

/* build the record of body b; returns 0 if none of its geoms can collide. A geom with a
 * world box in gb (TN_GB numbers per geom, flag set) adds that box, grown by a relative
 * slack far above round-off (so that bodies this phase separates hold only geom pairs the
 * mid-phase's box test would separate too); the others (or all, when gb is NULL) their
 * bounding sphere grown by margin and gap */
static int body_record(const mjModel* m, const mjData* d, const mjtNum* gb, int b,
                       tnBPBody* rec) {
  int adr = m->body_geomadr[b], num = m->body_geomnum[b], any = 0;
  rec->body = b;
  rec->weld = m->body_weldid[b];
  rec->weldparent = m->body_weldid[m->body_parentid[rec->weld]];
  rec->always = 0;
  rec->contype = 0;
  rec->conaffinity = 0;
  for (int g = adr; g < adr + num; g++) {
    // geoms that collide with nothing are ignored
    if (!m->geom_contype[g] && !m->geom_conaffinity[g]) {
      continue;
    }
    rec->contype |= m->geom_contype[g];
    rec->conaffinity |= m->geom_conaffinity[g];

    // unbounded geom: the body pairs with everything
    mjtNum r = m->geom_rbound[g];
    if (m->geom_type[g] == mjGEOM_PLANE || !(r > 0)) {
      rec->always = 1;
      any = 1;
      continue;
    }

    // the geom's extent: its world box, else its bounding sphere (margin and gap added)
    const mjtNum* box = gb ? gb + TN_GB * g : NULL;
    mjtNum c[3], h[3];
    if (box && box[6] != 0) {
      for (int k = 0; k < 3; k++) {
        c[k] = box[k];
        h[k] = box[3 + k] * (1 + TN_BOX_SLACK) + mjMINVAL;
      }
    } else {
      r += m->geom_margin[g] + m->geom_gap[g];
      const mjtNum* p = d->geom_xpos + 3 * g;
      for (int k = 0; k < 3; k++) {
        c[k] = p[k];
        h[k] = r;
      }
    }

    // grow the body's box by it
    for (int k = 0; k < 3; k++) {
      if (!any || c[k] - h[k] < rec->lo[k]) {
        rec->lo[k] = c[k] - h[k];
      }
      if (!any || c[k] + h[k] > rec->hi[k]) {
        rec->hi[k] = c[k] + h[k];
      }
    }
    any = 1;
  }
  return any;
}

/* 1 if two body records may produce a contact pair (the user's contact filter, when
 * installed, replaces contype/conaffinity and is applied to the geom pairs) */
static inline int compatible(const mjModel* m, const tnBPBody* r1, const tnBPBody* r2) {
  if (!mjcb_contactfilter &&
      !((r1->contype & r2->conaffinity) || (r2->contype & r1->conaffinity))) {
    return 0;
  }

  // tn__filterBodyPair on the recorded weld ids
  if (r1->weld == r2->weld) {
    return 0;
  }
  if (!(m->opt.disableflags & mjDSBL_FILTERPARENT) && r1->weld != 0 && r2->weld != 0 &&
      (r1->weld == r2->weldparent || r2->weld == r1->weldparent)) {
    return 0;
  }
  return 1;
}

/* append the signature of (b1, b2) if there is room */
static inline void add_pair(int b1, int b2, int* pairs, int* npair, int maxpair) {
  if (*npair >= maxpair) {
    return;
  }
  pairs[(*npair)++] = b1 < b2 ? (b1 << 16) + b2 : (b2 << 16) + b1;
}

/* 1 if the boxes of two records overlap (records of always-colliding bodies always do) */
static inline int box_overlap(const tnBPBody* r1, const tnBPBody* r2) {
  if (r1->always || r2->always) {
    return 1;
  }
  for (int k = 0; k < 3; k++) {
    if (r1->lo[k] > r2->hi[k] || r2->lo[k] > r1->hi[k]) {
      return 0;
    }
  }
  return 1;
}

/* the pair of records (i, j): kept if the boxes overlap and the filters pass */
static inline void test_pair(tnBPOut* out, int i, int j) {
  const tnBPBody* r1 = out->rec + i;
  const tnBPBody* r2 = out->rec + j;
  if (box_overlap(r1, r2) && compatible(out->m, r1, r2)) {
    add_pair(r1->body, r2->body, out->pairs, &out->npair, out->maxpair);
  }
}

/* 64-bit lane masks of four box tests */
typedef long long tnBPMask __attribute__((vector_size(32), aligned(8), may_alias));

/* small models: every record pair in body order, so the output is already sorted. The boxes
 * sit in columns (one array per bound and axis), and record i is tested against four
 * records j at once: rejected where lo_i > hi_j or lo_j > hi_i on some axis (false with a
 * NaN, as box_overlap's tests). An always-colliding record's box is the whole space, which
 * no box rejects, as box_overlap's `always`. */
static TN_CLONE_AVX2 int all_pairs(const mjModel* m, const tnBPBody* rec, int nrec,
                                   int* pairs, int maxpair) {
  enum { COLS = TN_BP_ALLPAIRS + 4 };
  double lo[3][COLS], hi[3][COLS];
  for (int j = 0; j < nrec; j++) {
    for (int k = 0; k < 3; k++) {
      lo[k][j] = rec[j].always ? -INFINITY : rec[j].lo[k];
      hi[k][j] = rec[j].always ? INFINITY : rec[j].hi[k];
    }
  }
  for (int j = nrec; j < nrec + 4; j++) {
    for (int k = 0; k < 3; k++) {
      lo[k][j] = hi[k][j] = 0;  // read past the last record, never kept
    }
  }

  tnBPOut out = {m, rec, pairs, 0, maxpair};
  for (int i = 0; i < nrec; i++) {
    tn_vec4 lo0 = {lo[0][i], lo[0][i], lo[0][i], lo[0][i]};
    tn_vec4 lo1 = {lo[1][i], lo[1][i], lo[1][i], lo[1][i]};
    tn_vec4 lo2 = {lo[2][i], lo[2][i], lo[2][i], lo[2][i]};
    tn_vec4 hi0 = {hi[0][i], hi[0][i], hi[0][i], hi[0][i]};
    tn_vec4 hi1 = {hi[1][i], hi[1][i], hi[1][i], hi[1][i]};
    tn_vec4 hi2 = {hi[2][i], hi[2][i], hi[2][i], hi[2][i]};
    for (int j = i + 1; j < nrec; j += 4) {
      tnBPMask apart = (lo0 > *(const tn_vec4*)(hi[0] + j)) |
                       (*(const tn_vec4*)(lo[0] + j) > hi0) |
                       (lo1 > *(const tn_vec4*)(hi[1] + j)) |
                       (*(const tn_vec4*)(lo[1] + j) > hi1) |
                       (lo2 > *(const tn_vec4*)(hi[2] + j)) |
                       (*(const tn_vec4*)(lo[2] + j) > hi2);
      if ((apart[0] & apart[1] & apart[2] & apart[3]) != 0) {
        continue;
      }
      for (int t = 0; t < 4 && j + t < nrec; t++) {
        if (!apart[t] && compatible(m, rec + i, rec + j + t)) {
          add_pair(rec[i].body, rec[j + t].body, out.pairs, &out.npair, out.maxpair);
        }
      }
    }
  }
  return out.npair;
}

/* ---------------------------------------------------------------------------------------
 * Sorting
 * ------------------------------------------------------------------------------------- */

/* sort the key positions `order` by the keys' lo along axis: Shell sort (insertion sort
 * for short lists, the common case); the order of equal keys does not matter, as the sweeps
 * find the same pairs for any order of ties */
static void sort_order(int* order, int n, const tnSweepKey* key, int axis) {
  static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (int q = 0; q < (int)(sizeof(gaps) / sizeof(gaps[0])); q++) {
    int gap = gaps[q];
    for (int i = gap; i < n; i++) {
      int k = order[i];
      mjtNum lo = key[k].lo[axis];
      int j = i;
      while (j >= gap && key[order[j - gap]].lo[axis] > lo) {
        order[j] = order[j - gap];
        j -= gap;
      }
      order[j] = k;
    }
  }
}

/* pairs sorted by increasing signature: two counting passes over the body numbers (second
 * body, then first body; both stable); tmp holds npair ints, count nbody + 1 */
static void sort_pairs(int* pairs, int npair, int* tmp, int* count, int nbody) {
  for (int pass = 0; pass < 2; pass++) {
    int shift = pass ? 16 : 0;
    const int* src = pass ? tmp : pairs;
    int* dst = pass ? pairs : tmp;

    // bucket starts from the counts of each body number
    memset(count, 0, sizeof(int) * (nbody + 1));
    for (int i = 0; i < npair; i++) {
      count[((src[i] >> shift) & 0xFFFF) + 1]++;
    }
    for (int b = 0; b < nbody; b++) {
      count[b + 1] += count[b];
    }

    // stable scatter
    for (int i = 0; i < npair; i++) {
      dst[count[(src[i] >> shift) & 0xFFFF]++] = src[i];
    }
  }
}

/* qsort comparator for the fallback sort of pairs: ints increasing */
static int compare_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

/* ---------------------------------------------------------------------------------------
 * Sweeps
 * ------------------------------------------------------------------------------------- */

/* 1 if two boxes overlap */
static inline int key_overlap(const tnSweepKey* a, const tnSweepKey* b) {
  return a->lo[0] <= b->hi[0] && b->lo[0] <= a->hi[0] && a->lo[1] <= b->hi[1] &&
         b->lo[1] <= a->hi[1] && a->lo[2] <= b->hi[2] && b->lo[2] <= a->hi[2];
}

/* the records of two overlapping boxes: kept if the filters pass */
static inline void accept(tnBPOut* out, const tnSweepKey* a, const tnSweepKey* b) {
  const tnBPBody* r1 = out->rec + a->index;
  const tnBPBody* r2 = out->rec + b->index;
  if (compatible(out->m, r1, r2)) {
    add_pair(r1->body, r2->body, out->pairs, &out->npair, out->maxpair);
  }
}

/* the record pairs among keys `order` (positions in key, sorted along axis): each box
 * against the following boxes that start before it ends */
static void sweep_within(tnBPOut* out, const tnSweepKey* key, const int* order, int n, int axis) {
  for (int a = 0; a < n; a++) {
    const tnSweepKey* ka = key + order[a];
    for (int b = a + 1; b < n && key[order[b]].lo[axis] <= ka->hi[axis]; b++) {
      const tnSweepKey* kb = key + order[b];
      if (key_overlap(ka, kb)) {
        accept(out, ka, kb);
      }
    }
  }
}

/* the record pairs across two lists of key positions sorted along axis: walking both
 * lists in merged order, the key that starts first (ties: list 1) meets the keys of the
 * other list that start between its start and its end, so every pair overlapping on the
 * axis is met once */
static void sweep_across(tnBPOut* out, const tnSweepKey* key, const int* order1, int n1,
                         const int* order2, int n2, int axis) {
  int i = 0, j = 0;
  while (i < n1 && j < n2) {
    const tnSweepKey* ki = key + order1[i];
    const tnSweepKey* kj = key + order2[j];
    if (ki->lo[axis] <= kj->lo[axis]) {
      for (int k = j; k < n2 && key[order2[k]].lo[axis] <= ki->hi[axis]; k++) {
        if (key_overlap(ki, key + order2[k])) {
          accept(out, ki, key + order2[k]);
        }
      }
      i++;
    } else {
      for (int k = i; k < n1 && key[order1[k]].lo[axis] <= kj->hi[axis]; k++) {
        if (key_overlap(key + order1[k], kj)) {
          accept(out, key + order1[k], kj);
        }
      }
      j++;
    }
  }
}

/* the positions [adr, adr + n) of keys whose boxes overlap box `box`, into sub */
static int keys_touching(const tnSweepKey* key, int adr, int n, const tnSweepKey* box, int* sub) {
  int nsub = 0;
  for (int i = adr; i < adr + n; i++) {
    if (key_overlap(key + i, box)) {
      sub[nsub++] = i;
    }
  }
  return nsub;
}

/* axis (0..2) along which the centers of the boxes spread the most */
static int spread_axis(const tnSweepKey* key, int n) {
  mjtNum mean[3] = {0, 0, 0}, var[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      mean[k] += 0.5 * (key[i].lo[k] + key[i].hi[k]);
    }
  }
  for (int k = 0; k < 3 && n; k++) {
    mean[k] /= n;
  }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      mjtNum c = 0.5 * (key[i].lo[k] + key[i].hi[k]) - mean[k];
      var[k] += c * c;
    }
  }
  int axis = 0;
  for (int k = 1; k < 3; k++) {
    if (var[k] > var[axis]) {
      axis = k;
    }
  }
  return axis;
}

/* axis (0..2) along which a box is longest */
static int long_axis(const mjtNum lo[3], const mjtNum hi[3]) {
  int axis = 0;
  for (int k = 1; k < 3; k++) {
    if (hi[k] - lo[k] > hi[axis] - lo[axis]) {
      axis = k;
    }
  }
  return axis;
}

/* Bounded records grouped by kinematic tree (body_rootid). Within a group, a sweep along
 * the group's longest axis; across groups, a sweep over the group boxes along the axis of
 * their widest spread, and for each overlapping pair of groups, a sweep along the same
 * axis over the members of each that touch the other group's box. Returns 0 if the arena
 * is too small (nothing added). */
static int group_pairs(mjData* d, tnBPOut* out, int nrec) {
  const mjModel* m = out->m;
  const tnBPBody* rec = out->rec;
  int nbody = m->nbody, ngroup = 0, nmember = 0;

  size_t need = sizeof(int) * (nbody + 5 * (size_t)nrec) +
                (sizeof(tnBPGroup) + 2 * sizeof(tnSweepKey)) * (size_t)nrec;
  if (!stack_room(d, need + 128)) {
    return 0;
  }
  mj_markStack(d);
  int* group_of = mj_stackAllocInt(d, nbody);  // tree root -> group (-1: none yet)
  int* rec_group = mj_stackAllocInt(d, nrec);  // record -> group (-1: unbounded)
  int* order = mj_stackAllocInt(d, nrec);      // member positions, sorted per group
  int* gorder = mj_stackAllocInt(d, nrec);     // group positions, sorted
  int* sub1 = mj_stackAllocInt(d, nrec);       // members touching another group
  int* sub2 = mj_stackAllocInt(d, nrec);
  tnBPGroup* group = (tnBPGroup*)mj_stackAllocNum(d, (sizeof(tnBPGroup) * nrec + 7) / 8);
  tnSweepKey* member = (tnSweepKey*)mj_stackAllocNum(d, (sizeof(tnSweepKey) * nrec + 7) / 8);
  tnSweepKey* gkey = (tnSweepKey*)mj_stackAllocNum(d, (sizeof(tnSweepKey) * nrec + 7) / 8);
  if (!group_of || !rec_group || !order || !gorder || !sub1 || !sub2 || !group || !member ||
      !gkey) {
    mj_freeStack(d);
    return 0;
  }

  // groups of the bounded records: member counts and boxes
  for (int b = 0; b < nbody; b++) {
    group_of[b] = -1;
  }
  for (int i = 0; i < nrec; i++) {
    rec_group[i] = -1;
    if (rec[i].always) {
      continue;
    }
    int root = m->body_rootid[rec[i].body];
    int g = group_of[root];
    if (g < 0) {
      g = group_of[root] = ngroup++;
      group[g].num = 0;
      for (int k = 0; k < 3; k++) {
        group[g].lo[k] = rec[i].lo[k];
        group[g].hi[k] = rec[i].hi[k];
      }
    }
    rec_group[i] = g;
    group[g].num++;
    for (int k = 0; k < 3; k++) {
      group[g].lo[k] = rec[i].lo[k] < group[g].lo[k] ? rec[i].lo[k] : group[g].lo[k];
      group[g].hi[k] = rec[i].hi[k] > group[g].hi[k] ? rec[i].hi[k] : group[g].hi[k];
    }
  }

  // member keys: contiguous per group
  for (int g = 0; g < ngroup; g++) {
    group[g].adr = nmember;
    nmember += group[g].num;
    group[g].num = 0;
  }
  for (int i = 0; i < nrec; i++) {
    int g = rec_group[i];
    if (g >= 0) {
      int pos = group[g].adr + group[g].num++;
      for (int k = 0; k < 3; k++) {
        member[pos].lo[k] = rec[i].lo[k];
        member[pos].hi[k] = rec[i].hi[k];
      }
      member[pos].index = i;
      order[pos] = pos;
    }
  }

  // pairs within each group: sweep along its longest axis
  for (int g = 0; g < ngroup; g++) {
    int axis = long_axis(group[g].lo, group[g].hi);
    sort_order(order + group[g].adr, group[g].num, member, axis);
    sweep_within(out, member, order + group[g].adr, group[g].num, axis);
  }

  // the group boxes sorted along the axis of their widest spread
  for (int g = 0; g < ngroup; g++) {
    for (int k = 0; k < 3; k++) {
      gkey[g].lo[k] = group[g].lo[k];
      gkey[g].hi[k] = group[g].hi[k];
    }
    gkey[g].index = g;
    gorder[g] = g;
  }
  int axis = spread_axis(gkey, ngroup);
  sort_order(gorder, ngroup, gkey, axis);

  // pairs across overlapping groups: the members touching the other group's box, sorted
  // and swept along the same axis
  for (int a = 0; a < ngroup; a++) {
    const tnSweepKey* ga = gkey + gorder[a];
    for (int b = a + 1; b < ngroup && gkey[gorder[b]].lo[axis] <= ga->hi[axis]; b++) {
      const tnSweepKey* gb = gkey + gorder[b];
      if (!key_overlap(ga, gb)) {
        continue;
      }
      const tnBPGroup* g1 = group + ga->index;
      const tnBPGroup* g2 = group + gb->index;
      int n1 = keys_touching(member, g1->adr, g1->num, gb, sub1);
      int n2 = n1 ? keys_touching(member, g2->adr, g2->num, ga, sub2) : 0;
      if (n2) {
        sort_order(sub1, n1, member, axis);
        sort_order(sub2, n2, member, axis);
        sweep_across(out, member, sub1, n1, sub2, n2, axis);
      }
    }
  }

  mj_freeStack(d);
  return 1;
}

/* large models: bodies with unbounded geoms against all, grouped sweeps for the rest, then
 * sort */
static int sweep_pairs(const mjModel* m, mjData* d, const tnBPBody* rec, int nrec, int* pairs,
                       int maxpair) {
  tnBPOut out = {m, rec, pairs, 0, maxpair};

  // bodies with unbounded geoms pair with every other body (each pair once)
  for (int i = 0; i < nrec; i++) {
    if (!rec[i].always) {
      continue;
    }
    for (int j = 0; j < nrec; j++) {
      if (j == i || (rec[j].always && j < i)) {
        continue;
      }
      if (compatible(m, rec + i, rec + j)) {
        add_pair(rec[i].body, rec[j].body, pairs, &out.npair, maxpair);
      }
    }
  }

  // the bounded bodies (all pairs, in the unlikely case the arena cannot hold the groups)
  if (!group_pairs(d, &out, nrec)) {
    for (int i = 0; i < nrec; i++) {
      for (int j = i + 1; j < nrec && !rec[i].always; j++) {
        if (!rec[j].always) {
          test_pair(&out, i, j);
        }
      }
    }
  }

  // MuJoCo's order: increasing signature (by counting passes when the arena has room)
  if (out.npair > 1 && stack_room(d, sizeof(int) * ((size_t)out.npair + m->nbody + 1) + 64)) {
    mj_markStack(d);
    int* tmp = mj_stackAllocInt(d, out.npair);
    int* count = mj_stackAllocInt(d, m->nbody + 1);
    if (tmp && count) {
      sort_pairs(pairs, out.npair, tmp, count, m->nbody);
    } else {
      qsort(pairs, out.npair, sizeof(int), compare_int);
    }
    mj_freeStack(d);
  } else if (out.npair > 1) {
    qsort(pairs, out.npair, sizeof(int), compare_int);
  }
  return out.npair;
}

/* candidate body pairs, sorted by signature */
int tn__broadphase(const mjModel* m, mjData* d, const mjtNum* geombox, int* pairs,
                   int maxpair) {
  int nbody = m->nbody, npair, nrec = 0;

  mj_markStack(d);
  tnBPBody* rec = (tnBPBody*)mj_stackAllocNum(d, (sizeof(tnBPBody) * nbody + 7) / 8);
  if (!rec) {
    mj_freeStack(d);
    return 0;
  }

  // records of the bodies that can collide
  for (int b = 0; b < nbody; b++) {
    if (m->body_geomnum[b] > 0 && body_record(m, d, geombox, b, rec + nrec)) {
      nrec++;
    }
  }

  // all pairs for small models, grouped sweeps for large ones
  if (nrec <= TN_BP_ALLPAIRS) {
    npair = all_pairs(m, rec, nrec, pairs, maxpair);
  } else {
    npair = sweep_pairs(m, d, rec, nrec, pairs, maxpair);
  }
  mj_freeStack(d);
  return npair;
}
