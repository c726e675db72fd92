/* compiler/const_stats.c — model statistics (mjModel.stat).
 *
 * meaninertia (mean diagonal of M at qpos0) scales solver tolerances; meanmass, meansize,
 * extent and center size visual aids and defaults. The rules reproduce MuJoCo 3.14's
 * compiler, found by probing it: a body's size is the radius, about its center of mass,
 * of its geoms' bounding spheres and of the anchors of its own and its children's joints
 * (at least 1e-5); the bounding box covers body centers of mass, joint anchors, sites and
 * geom spheres (planes count with a tenth of their size, infinite planes not at all). */
#include <math.h>

#include "compiler/const_internal.h"

/* smallest body size */
#define STAT_MINSIZE 1E-5

/* extent used when the bounding box is a single point */
#define STAT_DEFAULT_EXTENT 2

/* bounding radius a geom contributes to the statistics (0: none) */
static mjtNum stat_georadius(const mjModel* m, int g) {
  if (m->geom_rbound[g] > 0) {
    return m->geom_rbound[g];
  }
  if (m->geom_type[g] == mjGEOM_PLANE) {
    const mjtNum* s = m->geom_size + 3 * g;
    return 0.1 * fmax(s[0], s[1]);
  }
  return 0;
}

/* grow the box [lo, hi] to contain the sphere (p, r) */
static void stat_grow(mjtNum lo[3], mjtNum hi[3], const mjtNum p[3], mjtNum r) {
  for (int k = 0; k < 3; k++) {
    lo[k] = fmin(lo[k], p[k] - r);
    hi[k] = fmax(hi[k], p[k] + r);
  }
}

/* size of body b: radius about its com of its geoms and of its and its children's joints */
static mjtNum stat_bodysize(const mjModel* m, const mjData* d, int b) {
  const mjtNum* com = d->xipos + 3 * b;
  mjtNum size = STAT_MINSIZE;
  for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
    if (m->geom_rbound[g] > 0) {
      size = fmax(size, mju_dist3(d->geom_xpos + 3 * g, com) + m->geom_rbound[g]);
    }
  }
  for (int j = 0; j < m->njnt; j++) {
    int jb = m->jnt_bodyid[j];
    if (jb == b || m->body_parentid[jb] == b) {
      size = fmax(size, mju_dist3(d->xanchor + 3 * j, com));
    }
  }
  return size;
}

/* meaninertia, meanmass and meansize */
static void stat_means(mjModel* m, const mjData* d) {
  // mean diagonal of the joint-space inertia
  if (m->nv > 0) {
    mjtNum trace = 0;
    for (int i = 0; i < m->nv; i++) {
      trace += d->M[m->M_rowadr[i] + m->M_rownnz[i] - 1];
    }
    m->stat.meaninertia = trace / m->nv;
  }

  // mean body mass and size (the world excluded)
  if (m->nbody > 1) {
    mjtNum mass = 0, size = 0;
    for (int b = 1; b < m->nbody; b++) {
      mass += m->body_mass[b];
      size += stat_bodysize(m, d, b);
    }
    m->stat.meanmass = mass / (m->nbody - 1);
    m->stat.meansize = size / (m->nbody - 1);
  }
}

/* center and extent of the bounding box */
static void stat_box(mjModel* m, const mjData* d) {
  mjtNum lo[3] = {mjMAXVAL, mjMAXVAL, mjMAXVAL};
  mjtNum hi[3] = {-mjMAXVAL, -mjMAXVAL, -mjMAXVAL};

  // body centers of mass, joint anchors, sites, geom bounding spheres
  for (int b = 1; b < m->nbody; b++) {
    stat_grow(lo, hi, d->xipos + 3 * b, 0);
  }
  for (int j = 0; j < m->njnt; j++) {
    stat_grow(lo, hi, d->xanchor + 3 * j, 0);
  }
  for (int s = 0; s < m->nsite; s++) {
    stat_grow(lo, hi, d->site_xpos + 3 * s, 0);
  }
  for (int g = 0; g < m->ngeom; g++) {
    mjtNum r = stat_georadius(m, g);
    if (r > 0) {
      stat_grow(lo, hi, d->geom_xpos + 3 * g, r);
    }
  }

  // center, and the largest side (a point gets the default; at least twice the mean size)
  mjtNum extent = -2 * mjMAXVAL;
  for (int k = 0; k < 3; k++) {
    m->stat.center[k] = 0.5 * (lo[k] + hi[k]);
    extent = fmax(extent, hi[k] - lo[k]);
  }
  if (extent >= 0 && extent < mjMINVAL) {
    extent = STAT_DEFAULT_EXTENT;
  }
  m->stat.extent = fmax(extent, 2 * m->stat.meansize);
}

/* model statistics at qpos0 */
int tn__fillStatistics(mjModel* m, const mjData* d, char* err, int errsz) {
  (void)err;
  (void)errsz;
  stat_means(m, d);
  stat_box(m, d);
  return 1;
}
