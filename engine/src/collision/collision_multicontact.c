/* collision/collision_multicontact.c — several contacts from touching flat features.
 *
 * After EPA (collision_gjk.c) the nearest face of the polytope has three vertices, each
 * made of a support point of both shapes. The support points of one shape name one, two
 * or three distinct vertices of it: a vertex, an edge or a face. For boxes (corner bits),
 * meshes (hull polygons through the vertices, mesh_polymap) and cylinders (a cap, vertex id
 * 0 top, 1 bottom) the candidate face normals of each feature are collected; two faces
 * facing each other within 5.1 degrees (cosine 0.996) are clipped against each other, and
 * otherwise the edges at the lower-dimensional feature are tested for lying on a face of
 * the other shape (sine 0.0888). The clipping keeps the part of the incident polygon
 * inside the side planes of the reference face and below it; each vertex left becomes a
 * witness pair with its own depth below the reference face. At most four are kept for
 * MuJoCo's usual limit (the four spanning the largest quadrilateral), two for an edge (the
 * farthest apart). This follows MuJoCo 3.14, orders of operations included. */
#include <math.h>
#include <string.h>

#include "collision/collision_gjk.h"
#include "collision/collision_internal.h"
#include "collision/collision_vec3.h"
#include "util/util_inline.h"

/* face alignment tolerances: two faces facing, an edge on a face */
#define MC_FACE_TOL 0.996
#define MC_EDGE_TOL 0.0888

/* largest polygon handled (mesh polygons are cut to it) */
#define MC_POLYVERT 150

/* corners of a cylinder's cap polygon */
#define MC_CYLVERT 16

/* ---------------------------------------------------------------------------------------
 * Clipping
 * ------------------------------------------------------------------------------------- */

/* area of quadrilateral (a, b, c, d) of the polygon from its diagonals */
static mjtNum quad_area(const mjtNum* poly, int a, int b, int c, int d) {
  mjtNum ca[3], db[3], x[3];
  v_sub(ca, poly + 3 * a, poly + 3 * c);
  v_sub(db, poly + 3 * b, poly + 3 * d);
  v_cross(x, ca, db);
  return 0.5 * sqrt(v_dot(x, x));
}

/* the vertex after i of an n-gon (i in 0 .. n-1) */
static inline int next_vertex(int i, int n) {
  return i + 1 < n ? i + 1 : 0;
}

/* four vertices of a convex polygon spanning a largest quadrilateral (rotating search) */
static void best_quad(int res[4], const mjtNum* poly, int n) {
  int a = 0, b = 1, c = 2, d = 3;
  res[0] = 0, res[1] = 1, res[2] = 2, res[3] = 3;
  mjtNum m = quad_area(poly, a, b, c, d), mn;
  for (; a < n; a++) {
    for (;;) {
      int dn = next_vertex(d, n);
      mn = quad_area(poly, a, b, c, dn);
      if (mn <= m) {
        break;
      }
      d = dn, m = mn;
      res[0] = a, res[1] = b, res[2] = c, res[3] = d;
      for (;;) {
        int cn = next_vertex(c, n);
        mn = quad_area(poly, a, b, cn, d);
        if (mn <= m) {
          break;
        }
        c = cn, m = mn;
        res[0] = a, res[1] = b, res[2] = c, res[3] = d;
      }
      for (;;) {
        int bn = next_vertex(b, n);
        mn = quad_area(poly, a, bn, c, d);
        if (mn <= m) {
          break;
        }
        b = bn, m = mn;
        res[0] = a, res[1] = b, res[2] = c, res[3] = d;
      }
    }
    if (b == a) {
      b = next_vertex(b, n);
      if (c == b) {
        c = next_vertex(c, n);
        if (d == c) {
          d = next_vertex(d, n);
        }
      }
    }
  }
}

/* unit normal of the side plane through edge (v1, v2) of a face with normal n; returns the
 * plane's offset */
static mjtNum side_plane(mjtNum r[3], const mjtNum v1[3], const mjtNum v2[3], const mjtNum n[3]) {
  mjtNum v3[3] = {v1[0] + n[0], v1[1] + n[1], v1[2] + n[2]}, e1[3], e2[3];
  v_sub(e1, v2, v1);
  v_sub(e2, v3, v1);
  v_cross(r, e1, e2);
  mju_normalize3(r);
  return v_dot(r, v1);
}

/* side tests of n polygon vertices (coordinate arrays x, y, z) against the plane through a
 * with normal e: flag[i] = (p_i - a) . e > -mjMINVAL, the dot product summed in x, y, z
 * order (with an AVX2 clone: four vertices per instruction; 64-bit flags, so the compare
 * vectorizes) */
TN_CLONE_AVX2
static void clip_sides(long long* restrict flag, const mjtNum* restrict x, const mjtNum* restrict y,
                       const mjtNum* restrict z, int n, const mjtNum a[3], const mjtNum e[3]) {
  mjtNum a0 = a[0], a1 = a[1], a2 = a[2], e0 = e[0], e1 = e[1], e2 = e[2];
  for (int i = 0; i < n; i++) {
    flag[i] = (x[i] - a0) * e0 + (y[i] - a1) * e1 + (z[i] - a2) * e2 > -mjMINVAL;
  }
}

/* witness pair of polygon vertex v: its depth below the reference face (through p, normal
 * n), w2 at v and w1 moved by the depth along -dir; returns the signed depth */
static mjtNum face_witness(mjtNum w1[3], mjtNum w2[3], const mjtNum v[3], const mjtNum* p,
                           const mjtNum n[3], const mjtNum dir[3]) {
  mjtNum d[3] = {v[0] - p[0], v[1] - p[1], v[2] - p[2]};
  mjtNum dist = v_dot(d, n);
  mjtNum s = -fabs(dist);
  w1[0] = v[0] + s * dir[0];
  w1[1] = v[1] + s * dir[1];
  w1[2] = v[2] + s * dir[2];
  v_copy(w2, v);
  return dist;
}

/* clip polygon face2 (n2 vertices) by the side planes of reference face1 (n1, normal n),
 * keep what lies below face1, and write the witness pairs into res */
static void clip(tnCCDResult* res, const mjtNum* face1, int n1, const mjtNum* face2, int n2,
                 const mjtNum n[3], const mjtNum dir[3]) {
  if (n1 < 3) {
    return;
  }
  mjtNum pn[3 * MC_POLYVERT], pd[MC_POLYVERT];
  for (int i = 0; i < n1; i++) {
    pd[i] = side_plane(pn + 3 * i, face1 + 3 * i, face1 + 3 * next_vertex(i, n1), n);
  }
  // the polygon as coordinate arrays (x, y, z of every vertex; two buffers, each with
  // room for the vertex count to double), so a plane's side tests run over plain arrays
  mjtNum buf[2][3][2 * MC_POLYVERT];
  int cur = 0, npoly = n2;
  for (int i = 0; i < n2; i++) {
    for (int k = 0; k < 3; k++) {
      buf[0][k][i] = face2[3 * i + k];
    }
  }

  // one side plane at a time (Sutherland-Hodgman); each vertex's side is tested once per
  // plane (the edge loop meets every vertex twice, as P and as Q). A convex polygon gains
  // at most a vertex per plane, which the buffers hold; sides that alternate by rounding
  // could add more, and what would not fit is dropped
  const int cap = 2 * MC_POLYVERT;
  long long inside[2 * MC_POLYVERT + 5];
  for (int e = 0; e < n1 && npoly > 0; e++) {
    const mjtNum* a = face1 + 3 * e;
    const mjtNum* pe = pn + 3 * e;
    const mjtNum *X = buf[cur][0], *Y = buf[cur][1], *Z = buf[cur][2];
    mjtNum *OX = buf[!cur][0], *OY = buf[!cur][1], *OZ = buf[!cur][2];
    int nout = 0;

    // sides; then vertex 0's again for the closing edge, and zeros that end every run
    clip_sides(inside, X, Y, Z, npoly, a, pe);
    inside[npoly] = inside[0];
    for (int k = 1; k <= 4; k++) {
      inside[npoly + k] = 0;
    }

    for (int i = 0; i < npoly; i++) {
      int in1 = inside[i], in2 = inside[i + 1];
      if (!in1 && !in2) {
        continue;
      }

      // a run of edges with both ends inside keeps their end vertices i+1 .. j as they are
      // (vertex npoly is vertex 0: the closing edge's end)
      if (in1 && in2) {
        int j = i + 1;
        while (inside[j + 1] & inside[j + 2] & inside[j + 3] & inside[j + 4]) {
          j += 4;
        }
        while (inside[j + 1]) {
          j++;
        }
        int last = j < npoly ? j : npoly - 1;
        if (nout + (last - i) + 1 > cap) {
          break;
        }
        size_t bytes = sizeof(mjtNum) * (size_t)(last - i);
        memcpy(OX + nout, X + i + 1, bytes);
        memcpy(OY + nout, Y + i + 1, bytes);
        memcpy(OZ + nout, Z + i + 1, bytes);
        nout += last - i;
        if (j == npoly) {
          OX[nout] = X[0], OY[nout] = Y[0], OZ[nout] = Z[0];
          nout++;
        }
        i = j - 1;
        continue;
      }

      // crossing with the side plane, then Q when it is inside
      if (nout + 2 > cap) {
        break;
      }
      int q = next_vertex(i, npoly);
      mjtNum P[3] = {X[i], Y[i], Z[i]}, Q[3] = {X[q], Y[q], Z[q]};
      mjtNum pq[3] = {Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]};
      mjtNum den = v_dot(pe, pq);
      if (den != 0.0) {
        mjtNum t = (pd[e] - v_dot(pe, P)) / den;
        if (t >= 0.0 && t <= 1.0) {
          OX[nout] = P[0] + t * pq[0];
          OY[nout] = P[1] + t * pq[1];
          OZ[nout] = P[2] + t * pq[2];
          nout++;
        }
      }
      if (in2) {
        OX[nout] = Q[0], OY[nout] = Q[1], OZ[nout] = Q[2];
        nout++;
      }
    }
    cur = !cur;
    npoly = nout;
  }

  // only vertices below the reference face, back as vertex triples for the selection below
  const mjtNum *X = buf[cur][0], *Y = buf[cur][1], *Z = buf[cur][2];
  mjtNum poly[6 * MC_POLYVERT];
  int m = npoly;
  npoly = 0;
  for (int i = 0; i < m; i++) {
    mjtNum v[3] = {X[i], Y[i], Z[i]}, d[3];
    v_sub(d, v, face1);
    if (v_dot(d, n) <= 0) {
      v_copy(poly + 3 * npoly++, v);
    }
  }
  if (npoly < 1) {
    return;
  }

  // four at most: the largest quadrilateral
  if (res->maxcon < 5 && npoly > 4) {
    int q[4];
    best_quad(q, poly, npoly);
    res->nx = 4;
    for (int i = 0; i < 4; i++) {
      res->dist[i] = face_witness(res->x1 + 3 * i, res->x2 + 3 * i, poly + 3 * q[i], face1, n, dir);
    }
    return;
  }

  // a clipped edge: its two farthest points
  if (n2 == 2 && npoly > 2) {
    int b1 = 0, b2 = 1;
    mjtNum best = 0;
    for (int i = 0; i < npoly; i++) {
      for (int j = i + 1; j < npoly; j++) {
        mjtNum d[3];
        v_sub(d, poly + 3 * j, poly + 3 * i);
        mjtNum d2 = v_dot(d, d);
        if (d2 > best) {
          best = d2;
          b1 = i;
          b2 = j;
        }
      }
    }
    res->dist[0] = face_witness(res->x1, res->x2, poly + 3 * b1, face1, n, dir);
    res->dist[1] = face_witness(res->x1 + 3, res->x2 + 3, poly + 3 * b2, face1, n, dir);
    res->nx = 2;
    return;
  }

  // all of them
  if (npoly > mjMAXCONPAIR) {
    npoly = mjMAXCONPAIR;
  }
  for (int i = 0; i < npoly; i++) {
    res->dist[i] = face_witness(res->x1 + 3 * i, res->x2 + 3 * i, poly + 3 * i, face1, n, dir);
  }
  res->nx = npoly;
}

/* ---------------------------------------------------------------------------------------
 * Features of boxes, meshes and cylinders
 * ------------------------------------------------------------------------------------- */

/* up to two integers common to both arrays */
static int common(int res[2], const int* a, const int* b, int n, int m) {
  int c = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      if (a[i] == b[j]) {
        res[c++] = a[i];
        if (c == 2) {
          return 2;
        }
      }
    }
  }
  return c;
}

/* face normals (global) and polygon ids of a mesh at a feature of dim vertices */
static int mesh_normals(mjtNum* res, int* ids, int dim, const tnConvex* obj, const int vi[3]) {
  const mjModel* m = obj->m;
  int mesh = m->geom_dataid[obj->geom];
  int polyadr = m->mesh_polyadr[mesh], vadr = m->mesh_vertadr[mesh];
  const int* map = m->mesh_polymap;
  const int* madr = m->mesh_polymapadr + vadr;
  const int* mnum = m->mesh_polymapnum + vadr;
  int f[2], n = 0;
  if (dim == 3) {
    int edge[2];
    n = common(edge, map + madr[vi[0]], map + madr[vi[1]], mnum[vi[0]], mnum[vi[1]]);
    if (n) {
      n = common(f, edge, map + madr[vi[2]], n, mnum[vi[2]]);
    }
    n = n ? 1 : 0;
  } else if (dim == 2) {
    n = common(f, map + madr[vi[0]], map + madr[vi[1]], mnum[vi[0]], mnum[vi[1]]);
  } else if (dim == 1) {
    n = mnum[vi[0]] > MC_POLYVERT ? MC_POLYVERT : mnum[vi[0]];
  }
  for (int i = 0; i < n; i++) {
    int id = dim == 1 ? map[madr[vi[0]] + i] : f[i];
    const mjtNum* nrm = m->mesh_polynormal + 3 * (polyadr + id);
    local_to_global(res + 3 * i, obj->mat, NULL, nrm[0], nrm[1], nrm[2]);
    ids[i] = id;
  }
  return n;
}

/* unit directions (and far ends) of the mesh edges at a feature: the edge itself (dim 2),
 * or at a vertex the edges to the previous vertex of each polygon around it */
static int mesh_edges(mjtNum* res, mjtNum* ends, int dim, const tnConvex* obj, const mjtNum* v,
                      int v1i) {
  if (dim == 2) {
    v_copy(ends, v + 3);
    v_sub(res, v + 3, v);
    mju_normalize3(res);
    return 1;
  }
  if (dim != 1) {
    return 0;
  }
  const mjModel* m = obj->m;
  int mesh = m->geom_dataid[obj->geom];
  int polyadr = m->mesh_polyadr[mesh], vadr = m->mesh_vertadr[mesh];
  int adr = m->mesh_polymapadr[vadr + v1i], num = m->mesh_polymapnum[vadr + v1i];
  if (num > MC_POLYVERT) {
    num = MC_POLYVERT;
  }
  for (int i = 0; i < num; i++) {
    int f = m->mesh_polymap[adr + i];
    int padr = m->mesh_polyvertadr[polyadr + f], nv = m->mesh_polyvertnum[polyadr + f];
    for (int j = 0; j < nv; j++) {
      if (m->mesh_polyvert[padr + j] == v1i) {
        int k = j == 0 ? nv - 1 : j - 1;
        const float* p = m->mesh_vert + 3 * (vadr + m->mesh_polyvert[padr + k]);
        local_to_global(ends + 3 * i, obj->mat, obj->pos, p[0], p[1], p[2]);
        v_sub(res + 3 * i, ends + 3 * i, v);
        mju_normalize3(res + 3 * i);
        break;
      }
    }
  }
  return num;
}

/* the box face whose normal is within tolerance of n (global): 1 if found */
static int box_normal_near(mjtNum res[3], int* ids, const mjtNum mat[9], const mjtNum n[3]) {
  static const mjtNum axes[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
  mjtNum ln[3];
  ln[0] = mat[0] * n[0] + mat[3] * n[1] + mat[6] * n[2];
  ln[1] = mat[1] * n[0] + mat[4] * n[1] + mat[7] * n[2];
  ln[2] = mat[2] * n[0] + mat[5] * n[1] + mat[8] * n[2];
  v_scl(ln, ln, 1 / sqrt(v_dot(ln, ln)));
  for (int i = 0; i < 6; i++) {
    if (v_dot(ln, axes + 3 * i) > MC_FACE_TOL) {
      local_to_global(res, mat, NULL, axes[3 * i], axes[3 * i + 1], axes[3 * i + 2]);
      ids[0] = i;
      return 1;
    }
  }
  return 0;
}

/* face normals (global) and face ids (+x -x +y -y +z -z) of a box at a feature given by
 * corner ids (bits x, y, z) */
static int box_normals(mjtNum* res, int* ids, int dim, const tnConvex* obj, const int vi[3],
                       const mjtNum dir[3]) {
  const mjtNum* mat = obj->mat;
  int v1 = vi[0], v2 = vi[1], v3 = vi[2];
  if (dim == 3) {
    int c = 0;
    int x = ((v1 & 1) && (v2 & 1) && (v3 & 1)) - (!(v1 & 1) && !(v2 & 1) && !(v3 & 1));
    int y = ((v1 & 2) && (v2 & 2) && (v3 & 2)) - (!(v1 & 2) && !(v2 & 2) && !(v3 & 2));
    int z = ((v1 & 4) && (v2 & 4) && (v3 & 4)) - (!(v1 & 4) && !(v2 & 4) && !(v3 & 4));
    local_to_global(res, mat, NULL, x, y, z);
    int sgn = x + y + z;
    if (x) {
      ids[c++] = 0;
    }
    if (y) {
      ids[c++] = 2;
    }
    if (z) {
      ids[c++] = 4;
    }
    if (sgn == -1) {
      ids[0]++;
    }
    return c == 1 ? 1 : box_normal_near(res, ids, mat, dir);
  }
  if (dim == 2) {
    int c = 0;
    int x = ((v1 & 1) && (v2 & 1)) - (!(v1 & 1) && !(v2 & 1));
    int y = ((v1 & 2) && (v2 & 2)) - (!(v1 & 2) && !(v2 & 2));
    int z = ((v1 & 4) && (v2 & 4)) - (!(v1 & 4) && !(v2 & 4));
    if (x) {
      local_to_global(res, mat, NULL, x, 0, 0);
      ids[c++] = x > 0 ? 0 : 1;
    }
    if (y) {
      local_to_global(res + 3 * c, mat, NULL, 0, y, 0);
      ids[c++] = y > 0 ? 2 : 3;
    }
    if (z) {
      // as MuJoCo: the z normal goes to the second slot
      local_to_global(res + 3, mat, NULL, 0, 0, z);
      ids[c++] = z > 0 ? 4 : 5;
    }
    return c == 2 ? 2 : box_normal_near(res, ids, mat, dir);
  }
  if (dim == 1) {
    mjtNum x = (v1 & 1) ? 1 : -1, y = (v1 & 2) ? 1 : -1, z = (v1 & 4) ? 1 : -1;
    local_to_global(res + 0, mat, NULL, x, 0, 0);
    local_to_global(res + 3, mat, NULL, 0, y, 0);
    local_to_global(res + 6, mat, NULL, 0, 0, z);
    ids[0] = x > 0 ? 0 : 1;
    ids[1] = y > 0 ? 2 : 3;
    ids[2] = z > 0 ? 4 : 5;
    return 3;
  }
  return 0;
}

/* unit directions (and far ends) of the box edges at a feature */
static int box_edges(mjtNum* res, mjtNum* ends, int dim, const tnConvex* obj, const mjtNum* v,
                     int v1i) {
  const mjtNum* size = obj->m->geom_size + 3 * obj->geom;
  if (dim == 2) {
    v_copy(ends, v + 3);
    v_sub(res, v + 3, v);
    mju_normalize3(res);
    return 1;
  }
  if (dim == 1) {
    mjtNum x = (v1i & 1) ? size[0] : -size[0];
    mjtNum y = (v1i & 2) ? size[1] : -size[1];
    mjtNum z = (v1i & 4) ? size[2] : -size[2];
    local_to_global(ends, obj->mat, obj->pos, -x, y, z);
    local_to_global(ends + 3, obj->mat, obj->pos, x, -y, z);
    local_to_global(ends + 6, obj->mat, obj->pos, x, y, -z);
    for (int i = 0; i < 3; i++) {
      v_sub(res + 3 * i, ends + 3 * i, v);
      mju_normalize3(res + 3 * i);
    }
    return 3;
  }
  return 0;
}

/* the four corners (global) of box face idx, in MuJoCo's winding */
static int box_face(mjtNum* res, const tnConvex* obj, int idx) {
  static const signed char corner[6][4][3] = {{{1, 1, 1}, {1, 1, -1}, {1, -1, -1}, {1, -1, 1}},
                                              {{-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}, {-1, -1, -1}},
                                              {{-1, 1, -1}, {1, 1, -1}, {1, 1, 1}, {-1, 1, 1}},
                                              {{-1, -1, 1}, {1, -1, 1}, {1, -1, -1}, {-1, -1, -1}},
                                              {{-1, 1, 1}, {1, 1, 1}, {1, -1, 1}, {-1, -1, 1}},
                                              {{1, 1, -1}, {-1, 1, -1}, {-1, -1, -1}, {1, -1, -1}}};
  if (idx < 0 || idx > 5) {
    return 0;
  }
  const mjtNum* size = obj->m->geom_size + 3 * obj->geom;
  for (int i = 0; i < 4; i++) {
    const signed char* c = corner[idx][i];
    local_to_global(res + 3 * i, obj->mat, obj->pos, c[0] > 0 ? size[0] : -size[0],
                    c[1] > 0 ? size[1] : -size[1], c[2] > 0 ? size[2] : -size[2]);
  }
  return 4;
}

/* the vertices (global, reversed order) of mesh polygon idx */
static int mesh_face(mjtNum* res, const tnConvex* obj, int idx) {
  const mjModel* m = obj->m;
  int mesh = m->geom_dataid[obj->geom];
  int polyadr = m->mesh_polyadr[mesh], vadr = m->mesh_vertadr[mesh];
  int adr = m->mesh_polyvertadr[polyadr + idx], nv = m->mesh_polyvertnum[polyadr + idx];
  if (nv > MC_POLYVERT) {
    nv = MC_POLYVERT;
  }
  int j = 0;
  for (int i = nv - 1; i >= 0; i--) {
    const float* v = m->mesh_vert + 3 * (vadr + m->mesh_polyvert[adr + i]);
    local_to_global(res + 3 * j++, obj->mat, obj->pos, v[0], v[1], v[2]);
  }
  return nv;
}

/* a cylinder's cap normal at a single-cap feature (vertex id 0 top, 1 bottom) */
static int cylinder_normals(mjtNum* res, int* ids, int dim, const tnConvex* obj, const int vi[3]) {
  if (dim == 1) {
    local_to_global(res, obj->mat, NULL, 0, 0, vi[0] ? -1.0 : 1.0);
    ids[0] = vi[0];
    return 1;
  }
  return 0;
}

/* the side line of a cylinder through a rim point, towards the other cap */
static int cylinder_edges(mjtNum* res, mjtNum* ends, int dim, const tnConvex* obj, const mjtNum* v,
                          int v1i) {
  if (dim == 1 || dim == 2) {
    const mjtNum* size = obj->m->geom_size + 3 * obj->geom;
    mjtNum sgn = v1i ? 1.0 : -1.0;
    res[0] = sgn * obj->mat[2];
    res[1] = sgn * obj->mat[5];
    res[2] = sgn * obj->mat[8];
    mjtNum s = 2 * size[1];
    ends[0] = v[0] + s * res[0];
    ends[1] = v[1] + s * res[1];
    ends[2] = v[2] + s * res[2];
    return 1;
  }
  return 0;
}

/* a cylinder cap as a 16-gon (cap 0 top, 1 bottom), wound against the cap's normal */
static int cylinder_face(mjtNum* res, const tnConvex* obj, int idx) {
  static const mjtNum c16[MC_CYLVERT] = {
      1.000000000000000,  0.923879532511287,  0.707106781186548,  0.382683432365090,
      0.000000000000000,  -0.382683432365090, -0.707106781186547, -0.923879532511287,
      -1.000000000000000, -0.923879532511287, -0.707106781186548, -0.382683432365090,
      0.000000000000000,  0.382683432365090,  0.707106781186547,  0.923879532511287};
  static const mjtNum s16[MC_CYLVERT] = {
      0.000000000000000,  0.382683432365090,  0.707106781186547,  0.923879532511287,
      1.000000000000000,  0.923879532511287,  0.707106781186548,  0.382683432365090,
      0.000000000000000,  -0.382683432365090, -0.707106781186547, -0.923879532511287,
      -1.000000000000000, -0.923879532511287, -0.707106781186548, -0.382683432365090};
  const mjtNum* size = obj->m->geom_size + 3 * obj->geom;
  mjtNum sgn = idx ? -1.0 : 1.0;
  for (int i = 0; i < MC_CYLVERT; i++) {
    mjtNum x = c16[i] * size[0];
    mjtNum y = -s16[i] * size[0] * sgn;
    local_to_global(res + 3 * i, obj->mat, obj->pos, x, y, sgn * size[1]);
  }
  return MC_CYLVERT;
}

/* candidate face normals of a shape at a feature */
static int feature_normals(mjtNum* n, int* ids, int dim, const tnConvex* obj, const int vi[3],
                           const mjtNum dir[3]) {
  switch (obj->type) {
    case mjGEOM_BOX: return box_normals(n, ids, dim, obj, vi, dir);
    case mjGEOM_MESH: return mesh_normals(n, ids, dim, obj, vi);
    case mjGEOM_CYLINDER: return cylinder_normals(n, ids, dim, obj, vi);
    default: return 0;
  }
}

/* candidate edges of a shape at a feature */
static int feature_edges(mjtNum* n, mjtNum* ends, int dim, const tnConvex* obj, const mjtNum* v,
                         int v1i) {
  switch (obj->type) {
    case mjGEOM_BOX: return box_edges(n, ends, dim, obj, v, v1i);
    case mjGEOM_MESH: return mesh_edges(n, ends, dim, obj, v, v1i);
    case mjGEOM_CYLINDER: return cylinder_edges(n, ends, dim, obj, v, v1i);
    default: return 0;
  }
}

/* a face of a shape by id */
static int feature_face(mjtNum* face, const tnConvex* obj, int idx) {
  switch (obj->type) {
    case mjGEOM_BOX: return box_face(face, obj, idx);
    case mjGEOM_MESH: return mesh_face(face, obj, idx);
    case mjGEOM_CYLINDER: return cylinder_face(face, obj, idx);
    default: return 0;
  }
}

/* a pair of facing normals (within tolerance): 1 and their indices */
static int facing(int res[2], const mjtNum* v, int nv, const mjtNum* w, int nw) {
  for (int i = 0; i < nv; i++) {
    for (int j = 0; j < nw; j++) {
      if (v_dot(v + 3 * i, w + 3 * j) < -MC_FACE_TOL) {
        res[0] = i;
        res[1] = j;
        return 1;
      }
    }
  }
  return 0;
}

/* an edge lying on a face (within tolerance) that faces along dir: 1 and (edge, face) */
static int edge_on_face(int res[2], const mjtNum* edge, int ne, const mjtNum* face, int nf,
                        const mjtNum dir[3]) {
  for (int i = 0; i < nf; i++) {
    if (v_dot(face + 3 * i, dir) <= mjMINVAL) {
      continue;
    }
    for (int j = 0; j < ne; j++) {
      if (fabs(v_dot(edge + 3 * j, face + 3 * i)) < MC_EDGE_TOL) {
        res[0] = j;
        res[1] = i;
        return 1;
      }
    }
  }
  return 0;
}

/* number of distinct vertex ids (1, 2, 3) among three points, the distinct ones first */
static int feature_dim(int vi[3], mjtNum v[9]) {
  if (vi[0] == vi[1]) {
    if (vi[0] == vi[2]) {
      return 1;
    }
    vi[1] = vi[2];
    v_copy(v + 3, v + 6);
    return 2;
  }
  return (vi[2] == vi[0] || vi[2] == vi[1]) ? 2 : 3;
}

/* several contacts at EPA's face when flat features of both shapes meet */
void tn__multiContact(tnCCDResult* res, const tnCCDVertex* const face[3], const tnConvex* obj1,
                      const tnConvex* obj2) {
  mjtNum face1[3 * MC_POLYVERT], face2[3 * MC_POLYVERT], ends[3 * MC_POLYVERT];
  mjtNum n1[3 * MC_POLYVERT], n2[3 * MC_POLYVERT], v1[9], v2[9];
  int id1[MC_POLYVERT], id2[MC_POLYVERT];
  int v1i[3], v2i[3];
  for (int k = 0; k < 3; k++) {
    v1i[k] = face[k]->ia;
    v2i[k] = face[k]->ib;
    v_copy(v1 + 3 * k, face[k]->a);
    v_copy(v2 + 3 * k, face[k]->b);
  }
  int dim1 = feature_dim(v1i, v1), dim2 = feature_dim(v2i, v2);
  mjtNum dir[3], neg[3];
  v_sub(dir, res->x2, res->x1);
  v_sub(neg, res->x1, res->x2);

  // candidate face normals of both shapes: facing faces, else an edge of the
  // lower-dimensional feature lying on a face of the other shape
  int nn1 = feature_normals(n1, id1, dim1, obj1, v1i, neg);
  int nn2 = feature_normals(n2, id2, dim2, obj2, v2i, dir);
  int pair[2], edge1 = 0, edge2 = 0;
  if (!facing(pair, n1, nn1, n2, nn2)) {
    if (dim1 < 3 && dim1 <= dim2) {
      nn1 = feature_edges(n1, ends, dim1, obj1, v1, v1i[0]);
      if (!edge_on_face(pair, n1, nn1, n2, nn2, dir)) {
        return;
      }
      edge1 = 1;
    } else if (dim2 < 3) {
      nn2 = feature_edges(n2, ends, dim2, obj2, v2, v2i[0]);
      if (!edge_on_face(pair, n2, nn2, n1, nn1, neg)) {
        return;
      }
      edge2 = 1;
    } else {
      return;
    }
  }
  int i = pair[0], j = pair[1], nf1, nf2;

  // the matching features
  if (edge1) {
    v_copy(face1, v1);
    v_copy(face1 + 3, ends + 3 * i);
    nf1 = 2;
  } else {
    nf1 = feature_face(face1, obj1, edge2 ? id1[j] : id1[i]);
  }
  if (edge2) {
    v_copy(face2, v2);
    v_copy(face2 + 3, ends + 3 * i);
    nf2 = 2;
  } else {
    nf2 = feature_face(face2, obj2, id2[j]);
  }

  // clip the incident feature by the reference face; the witness points move along the
  // reference face's normal (geom 1's edge: the pairs come out swapped)
  mjtNum wdir[3];
  if (edge1) {
    v_scl(wdir, n2 + 3 * j, -1.0);
    clip(res, face2, nf2, face1, nf1, n2 + 3 * j, wdir);
    for (int k = 0; k < res->nx; k++) {
      mjtNum tmp[3];
      v_copy(tmp, res->x1 + 3 * k);
      v_copy(res->x1 + 3 * k, res->x2 + 3 * k);
      v_copy(res->x2 + 3 * k, tmp);
    }
    return;
  }
  if (edge2) {
    v_scl(wdir, n1 + 3 * j, -1.0);
    clip(res, face1, nf1, face2, nf2, n1 + 3 * j, wdir);
    return;
  }
  v_copy(wdir, n2 + 3 * j);
  clip(res, face1, nf1, face2, nf2, n1 + 3 * i, wdir);
}
