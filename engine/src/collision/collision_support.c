/* collision/collision_support.c — support functions of the convex geom types.
 *
 * Each shape computes its support in its own frame (the direction rotated into it), then
 * maps the point back to the global frame. Ties on a zero direction component resolve to
 * the shape's middle for that component, as MuJoCo's sign function (0 at 0) does. Meshes
 * scan their (convex-hull) vertices; a height-field prism scans its six vertices. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_support.h"

/* support of a primitive or mesh in its local frame, local direction dir */
static void supportLocal(mjtNum res[3], const mjModel* m, int g, int type, const mjtNum dir[3]) {
  const mjtNum* size = m->geom_size + 3 * g;
  switch (type) {
    case mjGEOM_SPHERE: {
      tnu_scl3(res, dir, size[0] / tnu_norm3(dir));
      break;
    }
    case mjGEOM_CAPSULE: {
      tnu_scl3(res, dir, size[0] / tnu_norm3(dir));
      res[2] += mju_sign(dir[2]) * size[1];
      break;
    }
    case mjGEOM_ELLIPSOID: {
      for (int i = 0; i < 3; i++) {
        res[i] = dir[i] * size[i];
      }
      tnu_normalize3(res);
      for (int i = 0; i < 3; i++) {
        res[i] *= size[i];
      }
      break;
    }
    case mjGEOM_CYLINDER: {
      mjtNum len = sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
      if (len > mjMINVAL) {
        res[0] = dir[0] * size[0] / len;
        res[1] = dir[1] * size[0] / len;
      } else {
        res[0] = res[1] = 0;
      }
      res[2] = mju_sign(dir[2]) * size[1];
      break;
    }
    case mjGEOM_BOX: {
      for (int i = 0; i < 3; i++) {
        res[i] = mju_sign(dir[i]) * size[i];
      }
      break;
    }
    case mjGEOM_MESH: {
      int mesh = m->geom_dataid[g];
      int adr = m->mesh_vertadr[mesh], num = m->mesh_vertnum[mesh], best = -1;
      mjtNum bestdot = -INFINITY;
      for (int v = 0; v < num; v++) {
        const float* p = m->mesh_vert + 3 * (adr + v);
        mjtNum dot = dir[0] * p[0] + dir[1] * p[1] + dir[2] * p[2];
        if (dot > bestdot) {
          bestdot = dot;
          best = v;
        }
      }
      if (best < 0) {
        tnu_zero3(res);
      } else {
        const float* p = m->mesh_vert + 3 * (adr + best);
        res[0] = p[0];
        res[1] = p[1];
        res[2] = p[2];
      }
      break;
    }
    default: tnu_zero3(res);
  }
}

/* set up a convex object for geom g at its current pose */
void tn_convexInit(tnConvex* obj, const mjModel* m, const mjData* d, int g, mjtNum inflate) {
  obj->m = m;
  obj->geom = g;
  obj->type = m->geom_type[g];
  tnu_copy3(obj->pos, d->geom_xpos + 3 * g);
  mju_copy(obj->mat, d->geom_xmat + 9 * g, 9);
  obj->inflate = inflate;
}

/* support point in global direction dir */
void tn_convexSupport(mjtNum res[3], const tnConvex* obj, const mjtNum dir[3]) {
  mjtNum local[3], sup[3];

  // height-field prism: vertex with the largest projection
  if (obj->geom < 0) {
    int best = 0;
    mjtNum bestdot = tnu_dot3(obj->prism[0], dir);
    for (int i = 1; i < 6; i++) {
      mjtNum dot = tnu_dot3(obj->prism[i], dir);
      if (dot > bestdot) {
        bestdot = dot;
        best = i;
      }
    }
    tnu_copy3(res, obj->prism[best]);
  }

  // geom: support in the local frame, mapped back
  else {
    tnu_mulMatTVec3(local, obj->mat, dir);
    supportLocal(sup, obj->m, obj->geom, obj->type, local);
    tnu_mulMatVec3(res, obj->mat, sup);
    tnu_addTo3(res, obj->pos);
  }

  // inflation along the (unit) direction
  if (obj->inflate > 0) {
    mjtNum len = tnu_norm3(dir);
    if (len > mjMINVAL) {
      tnu_addToScl3(res, dir, obj->inflate / len);
    }
  }
}

/* support point of geom g at its current pose */
void tn_supportGlobal(mjtNum res[3], const mjModel* m, const mjData* d, int g,
                      const mjtNum dir[3]) {
  tnConvex obj;
  tn_convexInit(&obj, m, d, g, 0);
  tn_convexSupport(res, &obj, dir);
}

/* plane against mesh: the deepest vertices within the margin, deepest first, at most 4
 * (MuJoCo's selection differs in some configurations; see the module notes) */
int tn_planeMesh(const mjModel* m, mjData* d, mjContact* con, int gp, int gm,
                 const mjtNum normal[3], mjtNum margin) {
  mjtNum p[3], dif[3], pos[3];
  const mjtNum* mat = d->geom_xmat + 9 * gm;
  int mesh = m->geom_dataid[gm];
  int adr = m->mesh_vertadr[mesh], num = m->mesh_vertnum[mesh], n = 0;
  int used[4] = {-1, -1, -1, -1};

  // repeatedly take the deepest vertex not yet used
  for (int k = 0; k < 4; k++) {
    int best = -1;
    mjtNum bestdist = INFINITY, bestp[3] = {0, 0, 0};
    for (int v = 0; v < num; v++) {
      if (v == used[0] || v == used[1] || v == used[2]) {
        continue;
      }
      const float* f = m->mesh_vert + 3 * (adr + v);
      mjtNum local[3] = {f[0], f[1], f[2]};
      tnu_mulMatVec3(p, mat, local);
      tnu_addTo3(p, d->geom_xpos + 3 * gm);
      tnu_sub3(dif, p, d->geom_xpos + 3 * gp);
      mjtNum dist = tnu_dot3(dif, normal);
      if (dist < bestdist) {
        bestdist = dist;
        best = v;
        tnu_copy3(bestp, p);
      }
    }
    if (best < 0 || bestdist > margin) {
      break;
    }
    used[k] = best;

    // contact halfway between the vertex and the plane
    tnu_addScl3(pos, bestp, normal, -bestdist / 2);
    tn_setContact(con + n, bestdist, pos, normal, NULL);
    n++;
  }
  return n;
}
