/* collision/collision_broadphase.c — candidate body pairs for the narrow phase.
 *
 * Bodies whose geoms cannot collide with anything are skipped. Bodies holding a plane (or
 * a geom without a bounding radius) are paired with every other body; the rest go through
 * sweep-and-prune on axis-aligned boxes built from the geoms' bounding spheres grown by
 * their margin and gap, along the axis with the widest spread of box centers. Pairs are
 * filtered by contype/conaffinity (at body level), the same-weld rule and the parent-child
 * rule, and returned sorted by signature, so the result — and therefore the contact order
 * — does not depend on how the sweep found them. The boxes are conservative: a pair whose
 * geoms are within their margins always survives. */
#include <math.h>
#include <stdlib.h>

#include "collision/collision_internal.h"

/* per-body broad-phase record */
typedef struct tnBPBody_ {
  int body;
  int always; /* holds a plane or unbounded geom: paired with every body */
  int contype;
  int conaffinity;
  mjtNum lo[3];
  mjtNum hi[3];
} tnBPBody;

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

/* build the record of body b; returns 0 if none of its geoms can collide */
static int body_record(const mjModel* m, const mjData* d, int b, tnBPBody* rec) {
  int adr = m->body_geomadr[b], num = m->body_geomnum[b], any = 0;
  rec->body = b;
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

    // grow the body's box by the geom's bounding sphere, margin and gap
    r += m->geom_margin[g] + m->geom_gap[g];
    const mjtNum* p = d->geom_xpos + 3 * g;
    for (int k = 0; k < 3; k++) {
      if (!any || p[k] - r < rec->lo[k]) {
        rec->lo[k] = p[k] - r;
      }
      if (!any || p[k] + r > rec->hi[k]) {
        rec->hi[k] = p[k] + r;
      }
    }
    any = 1;
  }
  return any;
}

/* 1 if two body records may produce a contact pair (the user's contact filter, when
 * installed, replaces contype/conaffinity and is applied to the geom pairs) */
static int compatible(const mjModel* m, const tnBPBody* r1, const tnBPBody* r2) {
  if (!mjcb_contactfilter &&
      !((r1->contype & r2->conaffinity) || (r2->contype & r1->conaffinity))) {
    return 0;
  }
  return !tn__filterBodyPair(m, r1->body, r2->body);
}

/* append the signature of (b1, b2) if there is room */
static void add_pair(int b1, int b2, int* pairs, int* npair, int maxpair) {
  if (*npair >= maxpair) {
    return;
  }
  pairs[(*npair)++] = b1 < b2 ? (b1 << 16) + b2 : (b2 << 16) + b1;
}

/* qsort comparators: ints increasing; body records by box minimum on the sweep axis */
static int compare_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

/* the sweep axis is passed through the records' first slot of a scratch key array */
typedef struct tnSweepKey_ {
  mjtNum lo;
  int index;
} tnSweepKey;

static int compare_key(const void* a, const void* b) {
  const tnSweepKey* x = a;
  const tnSweepKey* y = b;
  if (x->lo != y->lo) {
    return x->lo < y->lo ? -1 : 1;
  }
  return (x->index > y->index) - (x->index < y->index);
}

/* axis (0..2) along which the box centers spread the most */
static int sweep_axis(const tnBPBody* rec, int n) {
  mjtNum mean[3] = {0, 0, 0}, var[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      mean[k] += 0.5 * (rec[i].lo[k] + rec[i].hi[k]);
    }
  }
  for (int k = 0; k < 3; k++) {
    mean[k] /= n;
  }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      mjtNum c = 0.5 * (rec[i].lo[k] + rec[i].hi[k]) - mean[k];
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

/* 1 if the boxes of two records overlap (records of always-colliding bodies always do) */
static int box_overlap(const tnBPBody* r1, const tnBPBody* r2) {
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

/* small models: every record pair in body order, so the output is already sorted */
static int all_pairs(const mjModel* m, const tnBPBody* rec, int nrec, int* pairs, int maxpair) {
  int npair = 0;
  for (int i = 0; i < nrec; i++) {
    for (int j = i + 1; j < nrec; j++) {
      if (box_overlap(rec + i, rec + j) && compatible(m, rec + i, rec + j)) {
        add_pair(rec[i].body, rec[j].body, pairs, &npair, maxpair);
      }
    }
  }
  return npair;
}

/* large models: bodies with unbounded geoms against all, sweep and prune for the rest,
 * then sort */
static int sweep_pairs(const mjModel* m, mjData* d, const tnBPBody* rec, int nrec, int nbounded,
                       int* pairs, int maxpair) {
  int npair = 0;

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
        add_pair(rec[i].body, rec[j].body, pairs, &npair, maxpair);
      }
    }
  }

  // sweep and prune over the bounded bodies
  if (nbounded > 1) {
    mj_markStack(d);
    tnSweepKey* key = (tnSweepKey*)mj_stackAllocNum(d, (sizeof(tnSweepKey) * nbounded + 7) / 8);
    if (key) {
      int axis = sweep_axis(rec, nrec), nkey = 0;
      for (int i = 0; i < nrec; i++) {
        if (!rec[i].always) {
          key[nkey].lo = rec[i].lo[axis];
          key[nkey].index = i;
          nkey++;
        }
      }
      qsort(key, nkey, sizeof(tnSweepKey), compare_key);

      // each box against the following boxes that start before it ends
      for (int a = 0; a < nkey; a++) {
        const tnBPBody* r1 = rec + key[a].index;
        for (int b = a + 1; b < nkey && key[b].lo <= r1->hi[axis]; b++) {
          const tnBPBody* r2 = rec + key[b].index;
          if (box_overlap(r1, r2) && compatible(m, r1, r2)) {
            add_pair(r1->body, r2->body, pairs, &npair, maxpair);
          }
        }
      }
    }
    mj_freeStack(d);
  }

  // MuJoCo's order: increasing signature
  qsort(pairs, npair, sizeof(int), compare_int);
  return npair;
}

/* candidate body pairs, sorted by signature */
int tn__broadphase(const mjModel* m, mjData* d, int* pairs, int maxpair) {
  int nbody = m->nbody, npair, nrec = 0, nbounded = 0;

  mj_markStack(d);
  tnBPBody* rec = (tnBPBody*)mj_stackAllocNum(d, (sizeof(tnBPBody) * nbody + 7) / 8);
  if (!rec) {
    mj_freeStack(d);
    return 0;
  }

  // records of the bodies that can collide
  for (int b = 0; b < nbody; b++) {
    if (m->body_geomnum[b] > 0 && body_record(m, d, b, rec + nrec)) {
      nbounded += !rec[nrec].always;
      nrec++;
    }
  }

  // all pairs for small models, sweep and prune for large ones
  if (nrec <= 64) {
    npair = all_pairs(m, rec, nrec, pairs, maxpair);
  } else {
    npair = sweep_pairs(m, d, rec, nrec, nbounded, pairs, maxpair);
  }
  mj_freeStack(d);
  return npair;
}
