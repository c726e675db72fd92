/* collision/collision_box.c — box against box, by separating axes and face clipping.
 *
 * MuJoCo's choice, measured against MuJoCo 3.14 on random and exactly resting poses: the
 * 15 candidate axes (3 face normals of each box, 9 edge-edge cross products) are evaluated
 * in box 1's frame. The face axis of least penetration (box 1's faces before box 2's, the
 * first of equal ones) is compared with the edge axis of least penetration; the edge axis
 * wins only when it penetrates less by a relative 1e-6, or by 5% when it lies within about
 * 8 degrees of that face normal.
 *
 * A face axis makes that face the reference face: the most anti-parallel face of the other
 * box (the incident face) is clipped against the reference rectangle in the reference
 * box's frame, and each clipped vertex within the margin becomes a contact halfway between
 * the vertex and the reference plane (up to 8, in clipping order). An edge axis gives one
 * contact halfway between the closest points of the two edge segments, at the axis'
 * separation, kept up to 1e-13 times the sum of the half sizes beyond the margin. Boxes
 * apart by more than the margin thus get no contact without an early exit. Normals point
 * from geom 1 to geom 2. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"

/* one box: center, rotation (columns = axes), half sizes */
typedef struct tnBox_ {
  const mjtNum* pos;
  const mjtNum* mat;
  const mjtNum* size;
} tnBox;

/* the pair seen from box 1 (and box 2), as the axis tests use it */
typedef struct tnBoxPair_ {
  tnBox b1, b2;
  mjtNum pos21[3];  // center of box 2 in box 1's frame
  mjtNum pos12[3];  // center of box 1 in box 2's frame
  mjtNum rot[9];    // box 2's axes in box 1's frame: mat1' * mat2
  mjtNum plen1[3];  // box 1's half extent along each axis of box 2
  mjtNum plen2[3];  // box 2's half extent along each axis of box 1
} tnBoxPair;

/* relative pose and projected half extents of the two boxes */
static void makePair(tnBoxPair* p) {
  const mjtNum *m1 = p->b1.mat, *m2 = p->b2.mat;
  mjtNum dif[3];

  // centers in each other's frame
  tnu_sub3(dif, p->b2.pos, p->b1.pos);
  tnu_mulMatTVec3(p->pos21, m1, dif);
  tnu_sub3(dif, p->b1.pos, p->b2.pos);
  tnu_mulMatTVec3(p->pos12, m2, dif);

  // relative rotation
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      p->rot[3 * i + j] = m1[i] * m2[j] + m1[3 + i] * m2[3 + j] + m1[6 + i] * m2[6 + j];
    }
  }

  // each box's half extents projected on the other's axes
  for (int i = 0; i < 3; i++) {
    p->plen2[i] = fabs(p->rot[3 * i]) * p->b2.size[0] + fabs(p->rot[3 * i + 1]) * p->b2.size[1] +
                  fabs(p->rot[3 * i + 2]) * p->b2.size[2];
    p->plen1[i] = fabs(p->rot[i]) * p->b1.size[0] + fabs(p->rot[3 + i]) * p->b1.size[1] +
                  fabs(p->rot[6 + i]) * p->b1.size[2];
  }
}

/* face axes: the least penetrating one as box (0, 1) and axis, its penetration in *pen
 * and its normal from box 1 to box 2 in n */
static int bestFace(const tnBoxPair* p, int* axis, mjtNum* pen, mjtNum n[3]) {
  int box = 0;
  *pen = INFINITY;
  *axis = 0;

  // box 1's faces, then box 2's; the first of equal penetrations is kept
  for (int b = 0; b < 2; b++) {
    const mjtNum* pos = b ? p->pos12 : p->pos21;
    const mjtNum* size = b ? p->b2.size : p->b1.size;
    const mjtNum* plen = b ? p->plen1 : p->plen2;
    for (int i = 0; i < 3; i++) {
      mjtNum c = -fabs(pos[i]) + size[i] + plen[i];
      if (c < *pen) {
        *pen = c;
        box = b;
        *axis = i;
      }
    }
  }

  // world normal pointing from box 1 to box 2
  const mjtNum* pos = box ? p->pos12 : p->pos21;
  tn_matCol(n, box ? p->b2.mat : p->b1.mat, *axis);
  if ((pos[*axis] < 0) != (box == 1)) {
    tnu_scl3(n, n, -1);
  }
  return box;
}

/* edge-edge axes: the least penetrating one as 3*i + j (edge i of box 1, edge j of box 2),
 * its penetration in *pen and its unit normal from box 1 to box 2 (world) in n; -1 if all
 * edges are parallel */
static int bestEdge(const tnBoxPair* p, mjtNum* pen, mjtNum n[3]) {
  const mjtNum *s1 = p->b1.size, *s2 = p->b2.size;
  mjtNum ax[3], ax2[3], bestax[3];
  int best = -1;
  *pen = INFINITY;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      // unit axis e_i x (box 2's axis j) in box 1's frame, and in box 2's; skip parallel
      // edges
      mjtNum col[3] = {p->rot[j], p->rot[3 + j], p->rot[6 + j]}, unit[3] = {0, 0, 0};
      unit[i] = 1;
      tnu_cross(ax, unit, col);
      mjtNum len = tnu_norm3(ax);
      if (len < 1e-9) {
        continue;
      }
      for (int k = 0; k < 3; k++) {
        ax[k] /= len;
      }
      tnu_mulMatTVec3(ax2, p->rot, ax);

      // penetration: both boxes' projected half extents minus the center distance
      mjtNum r1 = s1[0] * fabs(ax[0]) + s1[1] * fabs(ax[1]) + s1[2] * fabs(ax[2]);
      mjtNum r2 = s2[0] * fabs(ax2[0]) + s2[1] * fabs(ax2[1]) + s2[2] * fabs(ax2[2]);
      mjtNum c = -fabs(tnu_dot3(p->pos21, ax)) + r1 + r2;
      if (c < *pen) {
        *pen = c;
        best = 3 * i + j;
        tnu_copy3(bestax, ax);
      }
    }
  }

  // world normal pointing from box 1 to box 2
  if (best >= 0) {
    if (tnu_dot3(p->pos21, bestax) < 0) {
      tnu_scl3(bestax, bestax, -1);
    }
    tnu_mulMatVec3(n, p->b1.mat, bestax);
  }
  return best;
}

/* clip polygon (n vertices, local coordinates) to coordinate `axis` times sgn <= lim;
 * returns the new count */
static int clipPolygon(mjtNum (*out)[3], mjtNum (*in)[3], int n, int axis, mjtNum sgn, mjtNum lim) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    const mjtNum* a = in[i];
    const mjtNum* b = in[(i + 1) % n];
    mjtNum da = sgn * a[axis] - lim, db = sgn * b[axis] - lim;

    // keep inside vertices, add crossings
    if (da <= 0) {
      tnu_copy3(out[k++], a);
    }
    if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
      mjtNum t = da / (da - db);
      for (int c = 0; c < 3; c++) {
        out[k][c] = a[c] + t * (b[c] - a[c]);
      }
      k++;
    }
  }
  return k;
}

/* face contacts, computed in the reference box's frame: ref is the reference box and
 * `axis` its face axis, on the side of the incident box; cen and rot are the incident
 * box's center and axes (columns) in that frame, isize its half sizes; flip: the sign
 * that turns the reference face's outward normal into the contact normal */
static int faceContacts(mjContact* con, const tnBox* ref, int axis, const mjtNum cen[3],
                        const mjtNum rot[9], const mjtNum isize[3], mjtNum flip, mjtNum margin) {
  mjtNum poly[8][3], tmp[8][3], nref[3], normal[3];
  mjtNum side = cen[axis] < 0 ? -1 : 1;

  // incident face: the face of the other box whose outward normal is most opposed to the
  // reference face's
  int iaxis = 0;
  mjtNum best = 0, sgn = 1;
  for (int k = 0; k < 3; k++) {
    mjtNum dot = side * rot[3 * axis + k];
    if (fabs(dot) > best) {
      best = fabs(dot);
      iaxis = k;
      sgn = dot > 0 ? -1 : 1;
    }
  }

  // incident face corners, counter-clockwise about its outward normal
  int i1 = (iaxis + 1) % 3, i2 = (iaxis + 2) % 3;
  const mjtNum s1[4] = {1, -1, -1, 1}, s2[4] = {1, 1, -1, -1};
  for (int c = 0; c < 4; c++) {
    for (int r = 0; r < 3; r++) {
      poly[c][r] = cen[r] + rot[3 * r + iaxis] * (sgn * isize[iaxis]) +
                   rot[3 * r + i1] * (s1[c] * isize[i1]) + rot[3 * r + i2] * (s2[c] * isize[i2]);
    }
  }

  // clip against the reference rectangle's four sides
  int r1 = (axis + 1) % 3, r2 = (axis + 2) % 3, n = 4;
  const int dirs[2] = {r1, r2};
  for (int p = 0; p < 2 && n > 0; p++) {
    n = clipPolygon(tmp, poly, n, dirs[p], 1, ref->size[dirs[p]]);
    n = clipPolygon(poly, tmp, n, dirs[p], -1, ref->size[dirs[p]]);
  }

  // contacts: vertices within the margin, halfway to the reference plane
  tn_matCol(nref, ref->mat, axis);
  tnu_scl3(normal, nref, side * flip);
  int ncon = 0;
  for (int c = 0; c < n && ncon < 8; c++) {
    mjtNum dist = side * poly[c][axis] - ref->size[axis], pos[3];
    if (dist > margin) {
      continue;
    }
    poly[c][axis] -= side * dist / 2;
    tnu_mulMatVec3(pos, ref->mat, poly[c]);
    tnu_addTo3(pos, ref->pos);
    tn_setContact(con + ncon, dist, pos, normal, NULL);
    ncon++;
  }
  return ncon;
}

/* edge-edge contact along axis n (from b1 to b2): closest points of the two edges */
static int edgeContact(mjContact* con, const tnBox* b1, int k1, const tnBox* b2, int k2,
                       const mjtNum n[3], mjtNum dist, mjtNum margin) {
  mjtNum p1[3], p2[3], d1[3], d2[3], ax[3], w[3], pos[3];
  if (dist > margin) {
    return 0;
  }

  // edge of b1 farthest along n, edge of b2 farthest along -n
  tnu_copy3(p1, b1->pos);
  tnu_copy3(p2, b2->pos);
  for (int k = 0; k < 3; k++) {
    tn_matCol(ax, b1->mat, k);
    if (k != k1) {
      tnu_addToScl3(p1, ax, tnu_dot3(ax, n) > 0 ? b1->size[k] : -b1->size[k]);
    }
    tn_matCol(ax, b2->mat, k);
    if (k != k2) {
      tnu_addToScl3(p2, ax, tnu_dot3(ax, n) < 0 ? b2->size[k] : -b2->size[k]);
    }
  }
  tn_matCol(d1, b1->mat, k1);
  tn_matCol(d2, b2->mat, k2);

  // closest points of the two edge segments: the line parameter of edge 1 clamped, the
  // matching parameter of edge 2 clamped, then edge 1's recomputed for it
  tnu_sub3(w, p1, p2);
  mjtNum b = tnu_dot3(d1, d2), c = tnu_dot3(d1, w), e = tnu_dot3(d2, w), den = 1 - b * b;
  mjtNum s = den > mjMINVAL ? (b * e - c) / den : 0;
  s = mju_clip(s, -b1->size[k1], b1->size[k1]);
  mjtNum t = b * s + e;
  if (t < -b2->size[k2] || t > b2->size[k2]) {
    t = mju_clip(t, -b2->size[k2], b2->size[k2]);
    s = mju_clip(b * t - c, -b1->size[k1], b1->size[k1]);
  }
  tnu_addToScl3(p1, d1, s);
  tnu_addToScl3(p2, d2, t);

  // halfway between them
  tnu_add3(pos, p1, p2);
  tnu_scl3(pos, pos, 0.5);
  tn_setContact(con, dist, pos, n, NULL);
  return 1;
}

/* box - box */
int tn_collideBoxBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  tnBoxPair p = {
      .b1 = {d->geom_xpos + 3 * g1, d->geom_xmat + 9 * g1, m->geom_size + 3 * g1},
      .b2 = {d->geom_xpos + 3 * g2, d->geom_xmat + 9 * g2, m->geom_size + 3 * g2},
  };
  mjtNum facen[3], edgen[3], facepen, edgepen;
  int faceaxis = 0;
  makePair(&p);

  // the least penetrating face and edge axes
  int facebox = bestFace(&p, &faceaxis, &facepen, facen);
  int edge = bestEdge(&p, &edgepen, edgen);

  // the edge axis wins when it penetrates less than the face axis by a relative 1e-6, or
  // by 5% when it is within about 8 degrees of the face normal
  if (edge >= 0) {
    mjtNum tol = fabs(tnu_dot3(edgen, facen)) > 0.99 ? 0.05 : 1e-6;
    if (edgepen < facepen - tol * fabs(facepen)) {
      // an edge contact is kept up to 1e-13 times the sum of the half sizes beyond the margin
      mjtNum slack = 0;
      for (int k = 0; k < 3; k++) {
        slack += p.b1.size[k] + p.b2.size[k];
      }
      return edgeContact(con, &p.b1, edge / 3, &p.b2, edge % 3, edgen, -edgepen,
                         margin + 1e-13 * slack);
    }
  }

  // face contacts, the reference face on box 1 or box 2
  if (facebox == 0) {
    return faceContacts(con, &p.b1, faceaxis, p.pos21, p.rot, p.b2.size, 1, margin);
  }
  mjtNum rott[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      rott[3 * i + j] = p.rot[3 * j + i];
    }
  }
  return faceContacts(con, &p.b2, faceaxis, p.pos12, rott, p.b1.size, -1, margin);
}
