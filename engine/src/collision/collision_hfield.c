/* collision/collision_hfield.c — height field (g1) against a convex geom (g2).
 *
 * A height field is not convex; like MuJoCo we treat it as a grid of triangular prisms.
 * Elevations are data * size[2] above the field's frame; the prisms reach down to
 * -size[3] (the base). The geom's bounding box in the field frame (from its support
 * function, grown by the margin) selects the grid cells; each cell holds two triangles
 * split along the diagonal from (row, col) to (row+1, col+1). Every prism whose top can
 * reach the geom is tested with MPR against the geom; each hit is one contact, rows
 * outer, columns inner, up to mjMAXCONPAIR contacts. The margin enters as MuJoCo's does:
 * the prism tops are raised by the margin, the geom is inflated by half of it, and the
 * contact distance is minus the penetration depth found. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_support.h"

/* global position of field-local point (x, y, z) */
static void fieldPoint(mjtNum res[3], const mjData* d, int g, mjtNum x, mjtNum y, mjtNum z) {
  mjtNum local[3] = {x, y, z};
  tnu_mulMatVec3(res, d->geom_xmat + 9 * g, local);
  tnu_addTo3(res, d->geom_xpos + 3 * g);
}

/* height field - convex geom */
int tn_collideHField(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  int hid = m->geom_dataid[g1];
  if (hid < 0) {
    return 0;
  }
  const mjtNum* size = m->hfield_size + 4 * hid;
  int nrow = m->hfield_nrow[hid], ncol = m->hfield_ncol[hid];
  const float* data = m->hfield_data + m->hfield_adr[hid];
  const mjtNum* hmat = d->geom_xmat + 9 * g1;
  if (nrow < 2 || ncol < 2) {
    return 0;
  }

  // bounding box of the geom in the field frame, from its support along the field axes
  tnConvex geom;
  tn_convexInit(&geom, m, d, g2, margin / 2);
  mjtNum lo[3], hi[3], dir[3], sup[3], dif[3], local[3];
  for (int k = 0; k < 3; k++) {
    tn_matCol(dir, hmat, k);
    tn_convexSupport(sup, &geom, dir);
    tnu_sub3(dif, sup, d->geom_xpos + 3 * g1);
    tnu_mulMatTVec3(local, hmat, dif);
    hi[k] = local[k];
    tnu_scl3(dir, dir, -1);
    tn_convexSupport(sup, &geom, dir);
    tnu_sub3(dif, sup, d->geom_xpos + 3 * g1);
    tnu_mulMatTVec3(local, hmat, dif);
    lo[k] = local[k];
  }

  // lowest point of the (uninflated) geom along the field's z axis, for prism culling
  mjtNum zlow;
  {
    tnConvex plain = geom;
    plain.inflate = 0;
    tn_matCol(dir, hmat, 2);
    mju_scl3(dir, dir, -1);
    tn_convexSupport(sup, &plain, dir);
    mju_sub3(dif, sup, d->geom_xpos + 3 * g1);
    mju_mulMatTVec3(local, hmat, dif);
    zlow = local[2];
  }

  // entirely above the highest possible elevation, or below the base, or outside
  if (lo[2] > size[2] + margin || hi[2] < -size[3] || lo[0] > size[0] || hi[0] < -size[0] ||
      lo[1] > size[1] || hi[1] < -size[1]) {
    return 0;
  }

  // grid cells covered by the box
  mjtNum dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  int cmin = (int)floor((lo[0] + size[0]) / dx), cmax = (int)ceil((hi[0] + size[0]) / dx);
  int rmin = (int)floor((lo[1] + size[1]) / dy), rmax = (int)ceil((hi[1] + size[1]) / dy);
  cmin = cmin < 0 ? 0 : cmin;
  rmin = rmin < 0 ? 0 : rmin;
  cmax = cmax > ncol - 1 ? ncol - 1 : cmax;
  rmax = rmax > nrow - 1 ? nrow - 1 : rmax;

  // prisms of the covered cells
  tnConvex prism;
  prism.m = m;
  prism.geom = -1;
  prism.type = mjGEOM_MESH;
  prism.inflate = 0;
  int n = 0;
  for (int r = rmin; r < rmax; r++) {
    for (int c = cmin; c < cmax; c++) {
      // the cell's corners: (row, col) offsets, elevations
      const int cr[4] = {0, 1, 0, 1}, cc[4] = {0, 0, 1, 1};
      mjtNum cx[4], cy[4], cz[4];
      for (int k = 0; k < 4; k++) {
        cx[k] = -size[0] + dx * (c + cc[k]);
        cy[k] = -size[1] + dy * (r + cr[k]);
        cz[k] = data[(r + cr[k]) * ncol + c + cc[k]] * size[2] + margin;
      }

      // two triangles: the one with the (row+1, col) corner, then the one with (row, col+1)
      const int tri[2][3] = {{1, 0, 3}, {0, 3, 2}};
      for (int t = 0; t < 2; t++) {
        mjtNum top = -INFINITY;
        for (int k = 0; k < 3; k++) {
          // prism vertices: the top triangle first, then the base
          int v = tri[t][k];
          fieldPoint(prism.prism[k], d, g1, cx[v], cy[v], cz[v]);
          fieldPoint(prism.prism[k + 3], d, g1, cx[v], cy[v], -size[3]);
          top = cz[v] > top ? cz[v] : top;
        }

        // the geom is above this prism's top
        if (zlow > top) {
          continue;
        }

        // MPR between the prism and the geom
        if (n >= mjMAXCONPAIR) {
          return n;
        }
        n += tn_convexPenetration(m, con + n, &prism, &geom, 0);
      }
    }
  }
  return n;
}
