/* ray/ray.c — mj_ray: the nearest geom hit by a ray, as MuJoCo's rangefinder sees it, and
 * mj_multiRay: many rays from one point, with a distance cutoff.
 *
 * Geoms are skipped when they belong to bodyexclude, when their group is not enabled in
 * geomgroup (NULL enables all), when they are static (body welded to the world) and
 * flg_static is 0, or when they are invisible (alpha 0 of their material's rgba when they
 * have a material, else of their own rgba). The others are tested against a bounding
 * sphere first (skipped when it lies beyond the best hit so far), then exactly
 * (primitive, height field or mesh). */
#include <math.h>

#include "ray/ray.h"
#include "util/util_inline.h"

/* number of geom groups MuJoCo's geomgroup filter covers */
#define TN_NGROUP 6

/* 1 if geom g takes no part in ray casting */
static int ray_skip(const mjModel* m, int g, const mjtByte* geomgroup, mjtBool flg_static,
                    int bodyexclude) {
  int body = m->geom_bodyid[g];
  if (body == bodyexclude) {
    return 1;
  }

  // static geoms only when asked for
  if (!flg_static && m->body_weldid[body] == 0) {
    return 1;
  }

  // group filter (groups beyond the last one count as the last)
  if (geomgroup) {
    int group = m->geom_group[g];
    group = group < 0 ? 0 : (group >= TN_NGROUP ? TN_NGROUP - 1 : group);
    if (!geomgroup[group]) {
      return 1;
    }
  }

  // invisible: the material's alpha decides when there is a material
  int mat = m->geom_matid[g];
  float alpha = mat >= 0 ? m->mat_rgba[4 * mat + 3] : m->geom_rgba[4 * g + 3];
  return alpha == 0;
}

/* 0 if the ray certainly misses the geom's bounding sphere, or meets it only beyond the
 * best hit so far (best < 0: none); planes are never culled */
static int ray_near(const mjModel* m, const mjData* d, int g, const mjtNum pnt[3],
                    const mjtNum vec[3], mjtNum best) {
  mjtNum r = m->geom_rbound[g];
  if (m->geom_type[g] == mjGEOM_PLANE || r <= 0) {
    return 1;
  }

  // distance from the centre to the ray (half-line) against the radius
  mjtNum dif[3], a = mju_dot3(vec, vec);
  mju_sub3(dif, d->geom_xpos + 3 * g, pnt);
  mjtNum t = a > mjMINVAL ? mju_dot3(dif, vec) / a : 0;
  t = t < 0 ? 0 : t;
  mjtNum close[3];
  mju_scl3(close, vec, t);
  mju_subFrom3(close, dif);
  mjtNum h2 = mju_dot3(close, close), r2 = r * r * (1 + 1e-10) + mjMINVAL;
  if (h2 > r2) {
    return 0;
  }

  // the sphere's entry point, with a margin, against the best hit
  mjtNum entry = a > mjMINVAL ? t - sqrt((r2 - h2) / a) : 0;
  return best < 0 || entry <= best * (1 + 1e-10) + mjMINVAL;
}

/* exact distance to one geom (height fields stop walking at the best hit so far) and its
 * normal at the hit (normal may be NULL) */
static mjtNum ray_geom(const mjModel* m, const mjData* d, int g, const mjtNum pnt[3],
                       const mjtNum vec[3], mjtNum best, mjtNum normal[3]) {
  switch (m->geom_type[g]) {
    case mjGEOM_HFIELD: return tn__rayHfieldBefore(m, d, g, pnt, vec, best, normal);
    case mjGEOM_MESH: return mj_rayMesh(m, d, g, pnt, vec, normal);
    default:
      return mju_rayGeom(d->geom_xpos + 3 * g, d->geom_xmat + 9 * g, m->geom_size + 3 * g, pnt, vec,
                         m->geom_type[g], normal);
  }
}

/* nearest geom along the ray among those with skip[g] == 0 (skip NULL: the filters of
 * ray_skip): distance in units of |vec| (-1: none), its id and the surface normal there
 * (zero when nothing is hit; normal may be NULL) */
static mjtNum ray_nearest(const mjModel* m, const mjData* d, const mjtNum pnt[3],
                          const mjtNum vec[3], const int* skip, const mjtByte* geomgroup,
                          mjtBool flg_static, int bodyexclude, int geomid[1], mjtNum normal[3]) {
  mjtNum best = -1, n[3] = {0, 0, 0};
  int best_id = -1;
  for (int g = 0; g < m->ngeom; g++) {
    int skipped = skip ? skip[g] : ray_skip(m, g, geomgroup, flg_static, bodyexclude);
    if (skipped || !ray_near(m, d, g, pnt, vec, best)) {
      continue;
    }
    mjtNum ng[3];
    mjtNum x = ray_geom(m, d, g, pnt, vec, best, normal ? ng : NULL);
    if (x >= 0 && (best < 0 || x < best)) {
      best = x;
      best_id = g;
      if (normal) {
        mju_copy3(n, ng);
      }
    }
  }
  if (geomid) {
    geomid[0] = best_id;
  }
  if (normal) {
    mju_copy3(normal, n);
  }
  return best;
}

/* nearest geom along the ray: distance in units of |vec| (-1: none), its id and the
 * surface normal there (zero when nothing is hit; normal may be NULL) */
mjtNum mj_ray(const mjModel* m, const mjData* d, const mjtNum pnt[3], const mjtNum vec[3],
              const mjtByte* geomgroup, mjtBool flg_static, int bodyexclude, int geomid[1],
              mjtNum normal[3]) {
  return ray_nearest(m, d, pnt, vec, NULL, geomgroup, flg_static, bodyexclude, geomid, normal);
}

/* nray rays from pnt (directions vec[3*i]): the filters of mj_ray are evaluated once, and
 * geoms whose bounding sphere lies entirely beyond `cutoff` from pnt (centre distance above
 * cutoff + rbound) are skipped for every ray; each ray then gives dist[i], geomid[i] and
 * normal[3*i] as mj_ray would (geomid and normal may be NULL) */
void mj_multiRay(const mjModel* m, mjData* d, const mjtNum pnt[3], const mjtNum* vec,
                 const mjtByte* geomgroup, mjtBool flg_static, int bodyexclude, int* geomid,
                 mjtNum* dist, mjtNum* normal, int nray, mjtNum cutoff) {
  mj_markStack(d);
  int* skip = mj_stackAllocInt(d, m->ngeom > 0 ? m->ngeom : 1);

  // per-geom filters shared by all rays
  for (int g = 0; g < m->ngeom; g++) {
    skip[g] = ray_skip(m, g, geomgroup, flg_static, bodyexclude);
    if (!skip[g]) {
      mjtNum dif[3];
      mju_sub3(dif, d->geom_xpos + 3 * g, pnt);
      skip[g] = mju_norm3(dif) > cutoff + m->geom_rbound[g];
    }
  }

  // one nearest-hit search per ray
  for (int i = 0; i < nray; i++) {
    dist[i] = ray_nearest(m, d, pnt, vec + 3 * i, skip, geomgroup, flg_static, bodyexclude,
                          geomid ? geomid + i : NULL, normal ? normal + 3 * i : NULL);
  }
  mj_freeStack(d);
}
