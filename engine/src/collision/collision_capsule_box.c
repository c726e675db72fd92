/* collision/collision_capsule_box.c — capsule (g1) against box (g2).
 *
 * Every contact is a sphere of the capsule's radius centred on the capsule's segment,
 * collided with the box (tn__sphereBox). The segment points are chosen as MuJoCo 3.14
 * chooses them, worked out in the box frame with the segment c + t*h, t in [-1, 1]
 * (h = the half axis):
 *
 * 1. The first point is the segment point nearest the box among these candidates, in this
 *    order, a later one replacing an earlier one only when strictly nearer (edges: by more
 *    than mjMINVAL in squared distance):
 *    - each segment end (t = -1, then +1) that lies inside the box or beyond a single
 *      face (an end beyond two or more faces is no candidate);
 *    - for each of the twelve edges (axis 0, 1, 2 in turn; for each, its four edges in
 *      order of the corner bits), the closest points of segment and edge, each clamped to
 *      its own range (edges parallel to the segment are skipped). The clamp record
 *      (segment below / inside / above, edge likewise) and the corner of the edge's lower
 *      or upper end are kept.
 * 2. A second point is added according to the winner:
 *    - an end beyond a face: walk from that end along the segment until it leaves the
 *      face's slab across any other axis, at most to the other end (an end inside the box
 *      gets no second point);
 *    - an edge point inside the edge: none when the capsule points along the edge's plane
 *      diagonal or away ("T" configuration, read off the sign bits of h against the
 *      edge's corner); else walk towards the far side of the face the capsule is most
 *      parallel to, stopping at the box's width there, at the edge's end, or at the
 *      segment end;
 *    - a corner (edge point clamped to an edge end): none when the capsule points at or
 *      away from the corner; else along the corner's edge (when the capsule runs within
 *      45 degrees of it) or across the adjacent face, stopping at the box or segment end.
 * The sign bits of h (bit k: h_k > 0) against a corner's bits (bit k: the corner's +k
 * side) tell which of these configurations holds. The second point may coincide with the
 * first (as in MuJoCo); tn__sphereBox drops a sphere beyond the margin. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_sphere_box.h"

/* the pair in the box frame */
typedef struct tnCapBox_ {
  mjtNum pos[3];      /* capsule centre */
  mjtNum axis[3];     /* unit capsule axis */
  mjtNum half[3];     /* axis times the half-length */
  mjtNum hl;          /* half-length */
  const mjtNum* size; /* box half sizes */
  int signs;          /* bit k set when half[k] > 0 */
} tnCapBox;

/* the nearest candidate so far */
typedef struct tnCapBest_ {
  mjtNum dist2; /* squared distance */
  mjtNum t;     /* segment parameter of the first point */
  mjtNum e;     /* edge parameter (edge candidates) */
  int kind;     /* -4 none; -3 / -1 the minus / plus end; 0..8: 3*edge clamp + segment clamp */
  int face;     /* end candidates: the axis the end lies beyond, -1 inside */
  int corner;   /* edge candidates: bits of the edge's lower end, or of the upper when the
                   edge point is clamped there */
  int edge;     /* edge candidates: the edge's axis */
} tnCapBest;

/* candidates 1: segment ends inside the box or beyond one face */
static void end_candidates(const tnCapBox* c, tnCapBest* b) {
  for (int side = -1; side <= 1; side += 2) {
    mjtNum p[3], q[3], dif[3];
    int nout = 0, face = -1;
    for (int k = 0; k < 3; k++) {
      p[k] = c->pos[k] + c->half[k] * side;
      q[k] = p[k];
      if (p[k] < -c->size[k]) {
        q[k] = -c->size[k];
        nout++;
        face = k;
      } else if (p[k] > c->size[k]) {
        q[k] = c->size[k];
        nout++;
        face = k;
      }
    }
    if (nout > 1) {
      continue;
    }
    mju_sub3(dif, q, p);
    mjtNum d2 = mju_dot3(dif, dif);
    if (d2 < b->dist2) {
      b->dist2 = d2;
      b->t = side;
      b->kind = side - 2;
      b->face = face;
    }
  }
}

/* clamp an edge parameter to [-1, 1], recording the side (0 below, 2 above) */
static void clamp_edge(mjtNum* e, int* se) {
  if (*e > 1) {
    *e = 1;
    *se = 2;
  } else if (*e < -1) {
    *e = -1;
    *se = 0;
  }
}

/* candidates 2: closest points of the segment and each edge not parallel to it */
static void edge_candidates(const tnCapBox* c, tnCapBest* b) {
  const mjtNum* size = c->size;
  for (int j = 0; j < 3; j++) {
    for (int bits = 0; bits < 8; bits++) {
      if (bits & (1 << j)) {
        continue;
      }

      // edge through the corner's other coordinates, along axis j, from the segment centre
      mjtNum start[3], dif[3];
      for (int k = 0; k < 3; k++) {
        start[k] = ((bits >> k) & 1 ? 1 : -1) * size[k];
      }
      start[j] = 0;
      mju_sub3(dif, start, c->pos);

      // 2x2 normal equations of the two lines (edge parameter e, segment parameter t)
      mjtNum ee = size[j] * size[j], et = -size[j] * c->half[j], tt = c->hl * c->hl;
      mjtNum re = -size[j] * dif[j], rt = mju_dot3(c->half, dif);
      mjtNum det = ee * tt - et * et;
      if (fabs(det) < mjMINVAL) {
        continue;
      }
      mjtNum idet = 1 / det;
      mjtNum e = (tt * re - et * rt) * idet, t = (ee * rt - et * re) * idet;
      int se = 1, st = 1;

      // clamp the edge parameter (re-solving t), then t (re-solving and clamping e)
      if (e > 1) {
        e = 1;
        se = 2;
        t = (rt - et) * (1 / tt);
      } else if (e < -1) {
        e = -1;
        se = 0;
        t = (rt + et) * (1 / tt);
      }
      if (t > 1) {
        t = 1;
        st = 2;
        e = (re - et) * (1 / ee);
        clamp_edge(&e, &se);
      } else if (t < -1) {
        t = -1;
        st = 0;
        e = (re + et) * (1 / ee);
        clamp_edge(&e, &se);
      }

      // squared distance between the two points
      for (int k = 0; k < 3; k++) {
        dif[k] = (start[k] - c->pos[k]) + c->half[k] * (-t);
      }
      dif[j] += size[j] * e;
      mjtNum d2 = mju_dot3(dif, dif);
      if (d2 < b->dist2 - mjMINVAL) {
        int code = 3 * se + st;
        b->dist2 = d2;
        b->t = t;
        b->e = e;
        b->kind = code;
        b->corner = bits + (1 << j) * (code / 6);
        b->edge = j;
      }
    }
  }
}

/* single-bit code (1, 2, 4) to its axis */
static int bit_axis(int bit) {
  return bit == 1 ? 0 : (bit == 2 ? 1 : 2);
}

/* shortest of a walk and the box width 2*size[k] measured along the segment */
static mjtNum cap_width(const tnCapBox* c, mjtNum walk, int k) {
  mjtNum w = 2 * c->size[k] / fabs(c->half[k]);
  return w < walk ? w : walk;
}

/* second point after a corner: offset from the first point (0: none, returns 0) */
static int corner_second(const tnCapBox* c, const tnCapBest* b, mjtNum* offset) {
  int rel = c->signs ^ b->corner;

  // pointing at or away from the corner: nothing more
  if (rel == 0 || rel == 7) {
    return 0;
  }

  // one differing bit (direction +1) or two (its complement, direction -1)
  mjtNum dir = 1, toEnd = 1 - b->t, toStart = 1 + b->t;
  if (rel == 3 || rel == 5 || rel == 6) {
    dir = -1;
    rel = 7 - rel;
    toEnd = 1 + b->t;
    toStart = 1 - b->t;
  }
  int ax = bit_axis(rel), ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;

  // within 45 degrees of the corner's edge: along it; else across the face
  if (c->axis[ax] * c->axis[ax] > 0.5) {
    *offset = cap_width(c, toEnd, ax) * dir;
  } else {
    *offset = cap_width(c, cap_width(c, toStart, ax1), ax2) * (-dir);
  }
  return 1;
}

/* second point after an edge point: offset from the first point (0: none, returns 0) */
static int edge_second(const tnCapBox* c, const tnCapBest* b, mjtNum* offset) {
  int ax = b->edge;
  int rel = (c->signs ^ b->corner) & (7 - (1 << ax));

  // "T" configuration (no single differing bit): nothing more
  if (rel != 1 && rel != 2 && rel != 4) {
    return 0;
  }

  // the face the capsule is most parallel to (ax1) and the axis across it (ax2)
  int ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;
  if (fabs(c->axis[ax1]) > fabs(c->axis[ax2])) {
    ax1 = ax2;
  }
  ax2 = 3 - ax - ax1;

  // walk direction along the segment and the room to its end
  mjtNum dir, walk;
  if (rel & (1 << ax2)) {
    dir = 1;
    walk = 1 - b->t;
  } else {
    dir = -1;
    walk = 1 + b->t;
  }

  // stop at the box's width across ax2 and at the edge's end
  walk = cap_width(c, walk, ax2);
  int sameSide = ((c->signs & (1 << ax)) != 0) == ((rel & (1 << ax2)) != 0);
  mjtNum room = sameSide ? 1 - b->e : 1 + b->e;
  mjtNum alongEdge = c->size[ax] * room / fabs(c->half[ax]);
  if (alongEdge < walk) {
    walk = alongEdge;
  }
  *offset = walk * dir;
  return 1;
}

/* second point after an end beyond a face: offset from the first point (0: none) */
static int face_second(const tnCapBox* c, const tnCapBest* b, mjtNum* offset) {
  if (b->face == -1) {
    return 0;
  }

  // from that end towards the other, until the segment leaves the slab of another axis
  mjtNum dir = b->kind == -3 ? 1 : -1, walk = 2, end[3];
  for (int k = 0; k < 3; k++) {
    end[k] = c->pos[k] + c->half[k] * (-dir);
  }
  for (int k = 0; k < 3; k++) {
    if (k == b->face) {
      continue;
    }
    for (int s = -1; s <= 1; s += 2) {
      mjtNum w = (s * c->size[k] - end[k]) / c->half[k] * dir;
      if (w > 0 && w < walk) {
        walk = w;
      }
    }
  }
  *offset = walk * dir;
  return 1;
}

/* sphere-box contact of the segment point at parameter t (computed in the box frame) */
static int sphere_at(const tnCapBox* c, mjContact* con, mjtNum t, mjtNum radius, const mjtNum* bpos,
                     const mjtNum* bmat, mjtNum margin) {
  mjtNum local[3], center[3];
  for (int k = 0; k < 3; k++) {
    local[k] = c->pos[k] + c->half[k] * t;
  }
  mju_mulMatVec3(center, bmat, local);
  mju_addTo3(center, bpos);
  return tn__sphereBox(con, center, radius, bpos, bmat, c->size, margin);
}

/* capsule - box */
int tn__collideCapsuleBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                          mjtNum margin) {
  const mjtNum *bpos = d->geom_xpos + 3 * g2, *bmat = d->geom_xmat + 9 * g2;
  const mjtNum* cmat = d->geom_xmat + 9 * g1;
  tnCapBox c;
  mjtNum dif[3], zaxis[3] = {cmat[2], cmat[5], cmat[8]};

  // the capsule in the box frame
  c.size = m->geom_size + 3 * g2;
  c.hl = m->geom_size[3 * g1 + 1];
  mju_sub3(dif, d->geom_xpos + 3 * g1, bpos);
  mju_mulMatTVec3(c.pos, bmat, dif);
  mju_mulMatTVec3(c.axis, bmat, zaxis);
  mju_scl3(c.half, c.axis, c.hl);
  c.signs = (c.half[0] > 0) + 2 * (c.half[1] > 0) + 4 * (c.half[2] > 0);

  // nearest candidate (the search starts beyond any possible distance)
  tnCapBest b = {0};
  mjtNum r = m->geom_size[3 * g1];
  b.dist2 = margin + 2 * (r + c.hl + c.size[0] + c.size[1] + c.size[2]);
  b.kind = -4;
  b.face = -1;
  end_candidates(&c, &b);
  edge_candidates(&c, &b);
  if (b.kind == -4) {
    return 0;
  }

  // second point by the kind of the nearest candidate
  mjtNum offset = 0;
  int second;
  if (b.kind < 0) {
    second = face_second(&c, &b, &offset);
  } else if (b.kind / 3 == 1) {
    second = edge_second(&c, &b, &offset);
  } else {
    second = corner_second(&c, &b, &offset);
  }

  // the spheres
  int n = sphere_at(&c, con, b.t, r, bpos, bmat, margin);
  if (second) {
    n += sphere_at(&c, con + n, offset + b.t, r, bpos, bmat, margin);
  }
  return n;
}
