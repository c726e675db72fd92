/* lanes/lanes_move.c — moving arrays between the group's datas and lanes, and the lanes'
 * scratch on the first data's arena.
 *
 * Four consecutive numbers of each of the four datas form a 4x4 block; gathering writes its
 * transpose (four entries, each with its four lanes), scattering the reverse. The block
 * transposes are vector shuffles (__builtin_shufflevector, in GCC and clang; with an AVX2
 * clone: four loads, eight shuffles and four stores per block); the last n % 4 entries go
 * one by one. Copies only: no arithmetic. */
#include <torsion/torsion.h>

#include "lanes/lanes.h"
#include "util/util_inline.h"

/* 1 if n lanes more fit on d's stack (room for a mark and the alignment included) */
int tn__lanesFit(const mjData* d, size_t n) {
  size_t bytes = n * sizeof(tnLane);
  size_t need = d->pstack + 2 * sizeof(size_t) + 64 + bytes + d->parena;
  return bytes / sizeof(tnLane) == n && need >= d->pstack && need <= (size_t)d->narena;
}

/* n lanes from d's stack, 32-byte aligned */
tnLane* tn__lanesAlloc(mjData* d, size_t n) {
  return mj_stackAllocByte(d, sizeof(tnLane) * n, 32);
}

/* tnLanes of the position stage's workspace */
size_t tn__posLanesSize(const mjModel* m) {
  size_t nq = m->nq, nbody = m->nbody, njnt = m->njnt, ngeom = m->ngeom, nsite = m->nsite;
  size_t nv = m->nv, nC = m->nC;
  return nq + 51 * nbody + 6 * njnt + 12 * ngeom + 12 * nsite + 6 * nv + nC;
}

/* the position stage's arrays, one after the other from buf */
void tn__posLanesInit(const mjModel* m, tnPosLanes* w, tnLane* buf) {
  int nq = m->nq, nbody = m->nbody, njnt = m->njnt, ngeom = m->ngeom, nsite = m->nsite;
  w->qpos = buf;
  w->xpos = w->qpos + nq;
  w->xquat = w->xpos + 3 * nbody;
  w->xmat = w->xquat + 4 * nbody;
  w->xipos = w->xmat + 9 * nbody;
  w->ximat = w->xipos + 3 * nbody;
  w->xanchor = w->ximat + 9 * nbody;
  w->xaxis = w->xanchor + 3 * njnt;
  w->geom_xpos = w->xaxis + 3 * njnt;
  w->geom_xmat = w->geom_xpos + 3 * ngeom;
  w->site_xpos = w->geom_xmat + 9 * ngeom;
  w->site_xmat = w->site_xpos + 3 * nsite;
  w->subtree_com = w->site_xmat + 9 * nsite;
  w->cinert = w->subtree_com + 3 * nbody;
  w->cdof = w->cinert + 10 * nbody;
  w->crb = w->cdof + 6 * m->nv;
  w->mat = w->crb + 10 * nbody;
  w->transient = 0;
}

/* 1 if some tendon has armature */
int tn__lanesTendonArmature(const mjModel* m) {
  for (int t = 0; t < m->ntendon; t++) {
    if (m->tendon_armature[t] != 0) {
      return 1;
    }
  }
  return 0;
}

/* the transpose of the 4x4 block whose rows are r[0..3] */
static inline void transpose4(tnLane out[4], const tnLane r[4]) {
  tnLane t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 2, 6);
  tnLane t1 = __builtin_shufflevector(r[0], r[1], 1, 5, 3, 7);
  tnLane t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 2, 6);
  tnLane t3 = __builtin_shufflevector(r[2], r[3], 1, 5, 3, 7);
  out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  out[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  out[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

/* dst[k] = (src[0][k], ..., src[3][k]) for k < n */
TN_CLONE_AVX2
void tn__lanesGather(tnLane* dst, mjtNum* const* src, int n) {
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    tnLane r[4];
    for (int l = 0; l < TN_LANES; l++) {
      r[l] = *(const tn_vec4*)(src[l] + k);
    }
    transpose4(dst + k, r);
  }
  for (; k < n; k++) {
    dst[k] = (tnLane){src[0][k], src[1][k], src[2][k], src[3][k]};
  }
}

/* dst[l][k] = src[k][l] for k < n */
TN_CLONE_AVX2
void tn__lanesScatter(mjtNum* const* dst, const tnLane* src, int n) {
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    tnLane c[4];
    transpose4(c, src + k);
    for (int l = 0; l < TN_LANES; l++) {
      *(tn_vec4*)(dst[l] + k) = c[l];
    }
  }
  for (; k < n; k++) {
    for (int l = 0; l < TN_LANES; l++) {
      dst[l][k] = src[k][l];
    }
  }
}
