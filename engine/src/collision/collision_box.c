/* collision/collision_box.c — box against box: separating axes, then an edge-edge contact
 * or a clipped face manifold, with MuJoCo 3.14's choices and arithmetic.
 *
 * Axes. Everything is evaluated in box 1's frame (rot = box 2's axes there). The candidate
 * separations are box 1's three face normals, box 2's three, then the nine edge-edge cross
 * products (nearly parallel edge pairs skipped); any separation beyond the margin (plus a
 * rounding slack of 1e-13 times the summed half sizes) means no contact. An edge axis is
 * kept only when it separates more than the best face axis and beats the best axis so far
 * by a relative 1e-6; a winning edge axis within about 8 degrees of the best face normal
 * gives way to that face unless it is better by 5% of the face's depth.
 *
 * Edge axis: one contact midway between the closest points of the two supporting edges
 * (both corner choices tried where an axis component is too small to pick a side), at the
 * separation measured between them along the axis.
 *
 * Face axis: the owner of the face is the reference box; the incident box's face most
 * opposed to it is clipped against the four side planes of the reference face
 * (Sutherland-Hodgman, in the reference frame, z = height above the reference face). Each
 * clipped vertex within the margin (near-duplicates dropped) is a contact at that depth,
 * midway between the reference face and the vertex. Normals point from geom 1 to geom 2. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"

/* rounding allowances: separation slack per unit of summed half sizes, squared sine below
 * which an edge cross product is noise, axis component below which a supporting corner is
 * ambiguous, squared relative radius of duplicate clipped vertices */
#define TN_BOX_SEPEPS 1e-13
#define TN_BOX_PAREPS 1e-16
#define TN_BOX_SGNEPS 1e-9
#define TN_BOX_DUPEPS 1e-14

/* an edge axis must beat the best axis so far by this relative amount */
#define TN_BOX_EDGEBIAS 1e-6

/* vertices of a clipped face: a quad cut by four half-planes has at most 8 */
#define TN_BOX_MAXVERT 12

/* the pair in box 1's frame */
typedef struct tnBoxPair_ {
  const mjtNum *pos1, *mat1, *size1;
  const mjtNum *pos2, *mat2, *size2;
  mjtNum rot[9];     /* box 2's axes (columns) in box 1's frame */
  mjtNum rotabs[9];  /* |rot| */
  mjtNum pos21[3];   /* box 2's centre in box 1's frame */
  mjtNum pos12[3];   /* box 1's centre in box 2's frame */
} tnBoxPair;

/* relative pose of the boxes */
static void make_pair(tnBoxPair* p) {
  mjtNum dif[3];
  mju_sub3(dif, p->pos2, p->pos1);
  mju_mulMatTVec3(p->pos21, p->mat1, dif);
  mju_sub3(dif, p->pos1, p->pos2);
  mju_mulMatTVec3(p->pos12, p->mat2, dif);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      p->rot[3 * i + j] = p->mat1[i] * p->mat2[j] + p->mat1[3 + i] * p->mat2[3 + j] +
                          p->mat1[6 + i] * p->mat2[6 + j];
    }
  }
  for (int k = 0; k < 9; k++) {
    p->rotabs[k] = fabs(p->rot[k]);
  }
}

/* unnormalized cross product of box 1's axis i with box 2's axis j (components i1, i2) */
static void edge_cross(const tnBoxPair* p, int i, int j, mjtNum* a1, mjtNum* a2) {
  int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
  *a1 = -p->rot[3 * i2 + j];
  *a2 = p->rot[3 * i1 + j];
}

/* the separating-axis search: returns the winning code (0-2 box 1's faces, 3-5 box 2's,
 * 6 + 3i + j an edge pair) or -1 when the boxes are apart; *codeFace the best face */
static int search_axes(const tnBoxPair* p, mjtNum septol, int* codeFace) {
  const mjtNum *s1 = p->size1, *s2 = p->size2, *ra = p->rotabs;
  mjtNum best = -mjMAXVAL;
  int code = -1;

  // box 1's face normals, then box 2's
  for (int i = 0; i < 3; i++) {
    mjtNum r2 = ra[3 * i] * s2[0] + ra[3 * i + 1] * s2[1] + ra[3 * i + 2] * s2[2];
    mjtNum sep = fabs(p->pos21[i]) - s1[i] - r2;
    if (sep > septol) {
      return -1;
    }
    if (sep > best) {
      best = sep;
      code = i;
    }
  }
  for (int j = 0; j < 3; j++) {
    mjtNum r1 = ra[j] * s1[0] + ra[3 + j] * s1[1] + ra[6 + j] * s1[2];
    mjtNum sep = fabs(p->pos12[j]) - s2[j] - r1;
    if (sep > septol) {
      return -1;
    }
    if (sep > best) {
      best = sep;
      code = 3 + j;
    }
  }
  mjtNum sepFace = best;
  *codeFace = code;

  // edge-edge cross products (component i of the axis is zero in box 1's frame)
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      mjtNum a1, a2;
      edge_cross(p, i, j, &a1, &a2);
      mjtNum norm2 = a1 * a1 + a2 * a2;
      if (norm2 < TN_BOX_PAREPS) {
        continue;
      }
      mjtNum inv = 1 / sqrt(norm2);
      a1 *= inv;
      a2 *= inv;

      // support radii of both boxes; the axis in box 2's frame has no component j
      mjtNum r1 = s1[i1] * fabs(a1) + s1[i2] * fabs(a2);
      mjtNum b1 = a1 * p->rot[3 * i1 + j1] + a2 * p->rot[3 * i2 + j1];
      mjtNum b2 = a1 * p->rot[3 * i1 + j2] + a2 * p->rot[3 * i2 + j2];
      mjtNum r2 = s2[j1] * fabs(b1) + s2[j2] * fabs(b2);
      mjtNum sep = fabs(a1 * p->pos21[i1] + a2 * p->pos21[i2]) - r1 - r2;
      if (sep > septol) {
        return -1;
      }
      if (sep - TN_BOX_EDGEBIAS * fabs(sep) > best && sep > sepFace) {
        best = sep;
        code = 6 + 3 * i + j;
      }
    }
  }

  // an edge axis close to the best face normal gives way unless 5% deeper
  if (code >= 6) {
    int i = (code - 6) / 3, j = (code - 6) % 3;
    mjtNum axis[3], faceDot;
    axis[i] = 0;
    edge_cross(p, i, j, axis + (i + 1) % 3, axis + (i + 2) % 3);
    mju_normalize3(axis);
    if (*codeFace < 3) {
      faceDot = fabs(axis[*codeFace]);
    } else {
      int f = *codeFace - 3;
      faceDot = fabs(axis[0] * p->rot[f] + axis[1] * p->rot[3 + f] + axis[2] * p->rot[6 + f]);
    }
    if (faceDot > 0.99 && best < sepFace + 0.05 * fabs(sepFace) + mjMINVAL) {
      code = *codeFace;
    }
  }
  return code;
}

/* edge-edge contact for edge i of box 1 and edge j of box 2 */
static int edge_contact(mjContact* con, const tnBoxPair* p, int i, int j, mjtNum septol) {
  const mjtNum *s1 = p->size1, *s2 = p->size2, *rot = p->rot;
  int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;

  // unit axis in box 1's frame, from box 1 towards box 2; the same in box 2's frame
  mjtNum axis[3], a2[3];
  axis[i] = 0;
  edge_cross(p, i, j, axis + i1, axis + i2);
  mju_normalize3(axis);
  if (mju_dot3(axis, p->pos21) < 0) {
    axis[0] = -axis[0];
    axis[1] = -axis[1];
    axis[2] = -axis[2];
  }
  for (int c = 0; c < 3; c++) {
    a2[c] = axis[0] * rot[c] + axis[1] * rot[3 + c] + axis[2] * rot[6 + c];
  }

  // components too small to choose a supporting corner: try both (one per box at most)
  int amb1 = fabs(axis[i1]) < TN_BOX_SGNEPS ? i1 : (fabs(axis[i2]) < TN_BOX_SGNEPS ? i2 : -1);
  int amb2 = fabs(a2[j1]) < TN_BOX_SGNEPS ? j1 : (fabs(a2[j2]) < TN_BOX_SGNEPS ? j2 : -1);

  // edge directions: e_i for box 1, column j of rot for box 2
  mjtNum d2[3] = {rot[j], rot[3 + j], rot[6 + j]};
  mjtNum b = d2[i], denom = 1 - b * b;

  // closest points of the edge segments, over the corner choices
  mjtNum w1[3] = {0, 0, 0}, w2[3] = {0, 0, 0}, bestGap = mjMAXVAL;
  for (int v1 = 0; v1 < (amb1 >= 0 ? 2 : 1); v1++) {
    for (int v2 = 0; v2 < (amb2 >= 0 ? 2 : 1); v2++) {
      // box 1's edge: the corner supporting +axis; box 2's: the corner supporting -axis
      mjtNum c1[3], cc[3], c2[3], e[3], q1[3], q2[3], gap[3];
      c1[i] = 0;
      c1[i1] = axis[i1] >= 0 ? s1[i1] : -s1[i1];
      c1[i2] = axis[i2] >= 0 ? s1[i2] : -s1[i2];
      if (amb1 >= 0 && v1) {
        c1[amb1] = -c1[amb1];
      }
      cc[j] = 0;
      cc[j1] = a2[j1] >= 0 ? -s2[j1] : s2[j1];
      cc[j2] = a2[j2] >= 0 ? -s2[j2] : s2[j2];
      if (amb2 >= 0 && v2) {
        cc[amb2] = -cc[amb2];
      }
      mju_mulMatVec3(c2, rot, cc);
      mju_addTo3(c2, p->pos21);

      // segment parameters, each clamp re-solving the other
      mju_sub3(e, c2, c1);
      mjtNum d1e = e[i], d2e = mju_dot3(d2, e);
      mjtNum s = denom < mjMINVAL ? 0 : (d1e - b * d2e) / denom;
      s = mju_clip(s, -s1[i], s1[i]);
      mjtNum t = mju_clip(b * s - d2e, -s2[j], s2[j]);
      s = mju_clip(d1e + b * t, -s1[i], s1[i]);

      // keep the closest pair
      mju_copy3(q1, c1);
      q1[i] += s;
      mju_copy3(q2, c2);
      for (int k = 0; k < 3; k++) {
        q2[k] += d2[k] * t;
      }
      mju_sub3(gap, q2, q1);
      mjtNum gap2 = mju_dot3(gap, gap);
      if (gap2 < bestGap) {
        bestGap = gap2;
        mju_copy3(w1, q1);
        mju_copy3(w2, q2);
      }
    }
  }

  // separation along the axis; the contact midway between the points
  mjtNum gap[3], mid[3], pos[3], normal[3];
  mju_sub3(gap, w2, w1);
  mjtNum dist = mju_dot3(gap, axis);
  if (dist > septol) {
    return 0;
  }
  for (int k = 0; k < 3; k++) {
    mid[k] = 0.5 * (w1[k] + w2[k]);
  }
  mju_mulMatVec3(pos, p->mat1, mid);
  mju_addTo3(pos, p->pos1);
  mju_mulMatVec3(normal, p->mat1, axis);
  set_contact(con, dist, pos, normal, NULL);
  return 1;
}

/* clip polygon in (n vertices) to sign * v[coord] <= limit into out; returns the count.
 * *clipped is 0 when every vertex was already inside (out then unused) */
static int clip_half_plane(mjtNum (*out)[3], mjtNum (*in)[3], int n, int coord, mjtNum sign,
                           mjtNum limit, int* clipped) {
  mjtNum dv[TN_BOX_MAXVERT];
  int inside = 1;
  for (int k = 0; k < n; k++) {
    dv[k] = sign * in[k][coord] - limit;
    inside &= dv[k] <= 0;
  }
  *clipped = !inside;
  if (inside) {
    return n;
  }
  int m = 0;
  for (int k = 0; k < n; k++) {
    int k1 = k + 1 == n ? 0 : k + 1;
    mjtNum dp = dv[k], dq = dv[k1];
    if (dp <= 0 && m < TN_BOX_MAXVERT) {
      mju_copy3(out[m++], in[k]);
    }
    if (((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) && m < TN_BOX_MAXVERT) {
      mjtNum t = dp / (dp - dq);
      for (int c = 0; c < 3; c++) {
        out[m][c] = in[k][c] + t * (in[k1][c] - in[k][c]);
      }
      m++;
    }
  }
  return m;
}

/* face contacts on reference face axis a of box 1 (ref1) or box 2 */
static int face_contacts(mjContact* con, const tnBoxPair* p, int ref1, int a, mjtNum margin) {
  const mjtNum* sref = ref1 ? p->size1 : p->size2;
  const mjtNum* sinc = ref1 ? p->size2 : p->size1;
  const mjtNum* posref = ref1 ? p->pos1 : p->pos2;
  const mjtNum* matref = ref1 ? p->mat1 : p->mat2;
  const mjtNum* cen = ref1 ? p->pos21 : p->pos12;

  // incident axes in the reference frame: rinc[3r + c] = component r of incident axis c
  mjtNum rinc[9];
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      rinc[3 * r + c] = ref1 ? p->rot[3 * r + c] : p->rot[3 * c + r];
    }
  }

  // side of the reference face; the incident face most opposed to it
  mjtNum sgn = cen[a] >= 0 ? 1 : -1;
  int binc = 0;
  for (int k = 1; k < 3; k++) {
    if (fabs(rinc[3 * a + k]) > fabs(rinc[3 * a + binc])) {
      binc = k;
    }
  }
  mjtNum tinc = sgn * rinc[3 * a + binc] > 0 ? -1 : 1;

  // incident face centre and half-edge offsets as (x, y, height above the reference face)
  int ax = (a + 1) % 3, ay = (a + 2) % 3, bu = (binc + 1) % 3, bv = (binc + 2) % 3;
  mjtNum cx[3], du[3], dv[3];
  for (int r = 0; r < 3; r++) {
    int c = r == 0 ? ax : (r == 1 ? ay : a);
    cx[r] = cen[c] + tinc * sinc[binc] * rinc[3 * c + binc];
    du[r] = sinc[bu] * rinc[3 * c + bu];
    dv[r] = sinc[bv] * rinc[3 * c + bv];
  }
  cx[2] = sgn * cx[2] - sref[a];
  du[2] *= sgn;
  dv[2] *= sgn;

  // its corners, cyclic
  static const mjtNum corner[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  mjtNum bufA[TN_BOX_MAXVERT][3], bufB[TN_BOX_MAXVERT][3];
  mjtNum(*cur)[3] = bufA, (*spare)[3] = bufB;
  for (int k = 0; k < 4; k++) {
    mjtNum su = corner[k][0], sv = corner[k][1];
    for (int r = 0; r < 3; r++) {
      cur[k][r] = cx[r] + su * du[r] + sv * dv[r];
    }
  }

  // clip against the reference face's four sides (buffers swap when a pass clips)
  const int coords[4] = {0, 0, 1, 1};
  const mjtNum signs[4] = {1, -1, 1, -1};
  int n = 4;
  for (int pass = 0; pass < 4; pass++) {
    int clipped;
    n = clip_half_plane(spare, cur, n, coords[pass], signs[pass], sref[coords[pass] == 0 ? ax : ay],
                        &clipped);
    if (clipped) {
      mjtNum(*tmp)[3] = cur;
      cur = spare;
      spare = tmp;
    }
  }

  // vertices within the margin, near-duplicates dropped
  mjtNum kept[TN_BOX_MAXVERT][3];
  int nkept = 0;
  mjtNum dup2 = TN_BOX_DUPEPS * (sref[ax] * sref[ax] + sref[ay] * sref[ay]);
  for (int k = 0; k < n; k++) {
    if (cur[k][2] > margin) {
      continue;
    }
    int dup = 0;
    for (int q = 0; q < nkept && !dup; q++) {
      mjtNum dx = kept[q][0] - cur[k][0], dy = kept[q][1] - cur[k][1];
      dup = dx * dx + dy * dy < dup2;
    }
    if (!dup) {
      mju_copy3(kept[nkept++], cur[k]);
    }
  }

  // contacts: normal along the reference face axis, from geom 1 to geom 2
  mjtNum nsign = ref1 ? sgn : -sgn, normal[3];
  for (int r = 0; r < 3; r++) {
    normal[r] = nsign * matref[3 * r + a];
  }
  for (int k = 0; k < nkept; k++) {
    mjtNum local[3], pos[3];
    local[ax] = kept[k][0];
    local[ay] = kept[k][1];
    local[a] = sgn * (sref[a] + 0.5 * kept[k][2]);
    mju_mulMatVec3(pos, matref, local);
    mju_addTo3(pos, posref);
    set_contact(con + k, kept[k][2], pos, normal, NULL);
  }
  return nkept;
}

/* box - box */
int tn__collideBoxBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  tnBoxPair p = {
      .pos1 = d->geom_xpos + 3 * g1, .mat1 = d->geom_xmat + 9 * g1, .size1 = m->geom_size + 3 * g1,
      .pos2 = d->geom_xpos + 3 * g2, .mat2 = d->geom_xmat + 9 * g2, .size2 = m->geom_size + 3 * g2,
  };
  make_pair(&p);

  // separating axes (slack for rounding in the support sums)
  mjtNum septol = margin + TN_BOX_SEPEPS * (p.size1[0] + p.size1[1] + p.size1[2] + p.size2[0] +
                                            p.size2[1] + p.size2[2]);
  int codeFace = 0, code = search_axes(&p, septol, &codeFace);
  if (code < 0) {
    return 0;
  }

  // edge pair, or face of box 1 / box 2
  if (code >= 6) {
    return edge_contact(con, &p, (code - 6) / 3, (code - 6) % 3, septol);
  }
  return face_contacts(con, &p, code < 3, code < 3 ? code : code - 3, margin);
}
