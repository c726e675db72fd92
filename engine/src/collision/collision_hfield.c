/* collision/collision_hfield.c — height field (g1) against a convex geom (g2).
 *
 * A height field is not convex; like MuJoCo we treat it as a grid of triangular prisms and
 * work in the field's own frame: the geom's pose is expressed there, every prism and MPR
 * run uses field coordinates, and the contacts are mapped back to the global frame at the
 * end (MPR on flat faces is sensitive to the last bit, so the frame matters). Elevations
 * are data * size[2] above the field's origin; the prisms reach down to -size[3] (the
 * base). The geom's bounding box in the field frame (from the support function of the
 * uninflated geom) selects the grid cells; only the early exit (geom entirely above,
 * below or beside the field) grows it by the geom's inflation. Each row of cells is swept
 * as a strip of triangles over the vertex sequence (row+1, col), (row, col), (row+1,
 * col+1), (row, col+1), ...: every three consecutive vertices form one triangle, the top
 * of a prism. A prism whose top lies entirely below the geom's lowest point is skipped;
 * each other prism is tested with MPR against the geom, one contact per hit, rows outer,
 * up to mjMAXCONPAIR contacts. The margin enters as MuJoCo's does: the prism tops are
 * raised by the margin and the geom is inflated by half of it. */
#include <math.h>

#include "collision/collision_internal.h"
#include "util/util_inline.h"
#include "collision/collision_support.h"

/* the geom's extent in the field frame: lo/hi along the field axes, from the support of
 * the uninflated geom */
static void field_extent(const tnConvex* geom, mjtNum lo[3], mjtNum hi[3]) {
  mjtNum dir[3], sup[3];
  tnConvex plain = *geom;
  plain.inflate = 0;
  for (int k = 0; k < 3; k++) {
    mju_zero3(dir);
    dir[k] = 1;
    tn__convexSupport(sup, &plain, dir);
    hi[k] = sup[k];
    dir[k] = -1;
    tn__convexSupport(sup, &plain, dir);
    lo[k] = sup[k];
  }
}

/* map the contacts found in the field frame back to the global frame */
static void contacts_to_global(mjContact* con, int n, const mjtNum pos[3], const mjtNum mat[9]) {
  mjtNum tmp[3];
  for (int i = 0; i < n; i++) {
    mju_mulMatVec3(tmp, mat, con[i].pos);
    mju_add3(con[i].pos, tmp, pos);
    mju_mulMatVec3(tmp, mat, con[i].frame);
    mju_copy3(con[i].frame, tmp);
  }
}

/* grid cells covered by the field-frame box lo..hi: columns [c0, c1), rows [r0, r1) */
static void covered_cells(const mjtNum size[4], int nrow, int ncol, const mjtNum lo[3],
                          const mjtNum hi[3], int cells[4]) {
  mjtNum dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  int c0 = (int)floor((lo[0] + size[0]) / dx), c1 = (int)ceil((hi[0] + size[0]) / dx);
  int r0 = (int)floor((lo[1] + size[1]) / dy), r1 = (int)ceil((hi[1] + size[1]) / dy);
  cells[0] = c0 < 0 ? 0 : c0;
  cells[1] = c1 > ncol - 1 ? ncol - 1 : c1;
  cells[2] = r0 < 0 ? 0 : r0;
  cells[3] = r1 > nrow - 1 ? nrow - 1 : r1;
}

/* MPR of the geom against the prisms of the covered cells, each row of cells swept as a
 * strip of triangles; contacts in the field frame, at most mjMAXCONPAIR */
static int collide_prisms(const mjModel* m, mjData* d, mjContact* con, int hid, const tnConvex* geom,
                          const int cells[4], mjtNum zlow, mjtNum margin) {
  const mjtNum* size = m->hfield_size + 4 * hid;
  int nrow = m->hfield_nrow[hid], ncol = m->hfield_ncol[hid];
  const float* data = m->hfield_data + m->hfield_adr[hid];
  mjtNum dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  tnConvex prism = {.m = m, .geom = -1, .type = mjGEOM_HFIELD, .meshindex = -1, .vertindex = -1};
  int n = 0;
  for (int r = cells[2]; r < cells[3]; r++) {
    int nvert = 0;
    for (int c = cells[0]; c <= cells[1]; c++) {
      for (int i = 0; i < 2; i++) {
        // shift the window: the new vertex (row + 1 - i, col) becomes the last one, on the
        // base (2) and on the top (5)
        int row = r + 1 - i;
        for (int k = 0; k < 2; k++) {
          mju_copy3(prism.prism[k], prism.prism[k + 1]);
          mju_copy3(prism.prism[k + 3], prism.prism[k + 4]);
        }
        prism.prism[2][0] = prism.prism[5][0] = dx * c - size[0];
        prism.prism[2][1] = prism.prism[5][1] = dy * row - size[1];
        prism.prism[2][2] = -size[3];
        prism.prism[5][2] = data[row * ncol + c] * size[2] + margin;
        if (++nvert < 3) {
          continue;
        }

        // the geom is above this prism's top
        if (zlow > prism.prism[3][2] && zlow > prism.prism[4][2] && zlow > prism.prism[5][2]) {
          continue;
        }

        // MPR between the prism and the geom
        if (n >= mjMAXCONPAIR) {
          return n;
        }
        n += tn__convexPenetration(m, d, con + n, &prism, geom, 0);
      }
    }
  }
  return n;
}

/* height field - convex geom */
int tn__collideHField(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  int hid = m->geom_dataid[g1];
  if (hid < 0 || m->hfield_nrow[hid] < 2 || m->hfield_ncol[hid] < 2) {
    return 0;
  }
  const mjtNum* size = m->hfield_size + 4 * hid;
  const mjtNum* hpos = d->geom_xpos + 3 * g1;
  const mjtNum* hmat = d->geom_xmat + 9 * g1;

  // the geom in the field frame
  tnConvex geom;
  mjtNum dif[3];
  tn__convexInit(&geom, m, d, g2, margin / 2);
  mju_sub3(dif, d->geom_xpos + 3 * g2, hpos);
  mju_mulMatTVec3(geom.pos, hmat, dif);
  mju_mulMatTMat(geom.mat, hmat, d->geom_xmat + 9 * g2, 3, 3, 3);

  // its extent; nothing when the inflated geom is above the highest possible (raised)
  // elevation, below the base, or outside the field
  mjtNum lo[3], hi[3], grow = margin / 2;
  field_extent(&geom, lo, hi);
  if (lo[2] - grow > size[2] + margin || hi[2] + grow < -size[3] || lo[0] - grow > size[0] ||
      hi[0] + grow < -size[0] || lo[1] - grow > size[1] || hi[1] + grow < -size[1]) {
    return 0;
  }

  // the prisms of the covered cells, contacts mapped back to the global frame
  int cells[4];
  covered_cells(size, m->hfield_nrow[hid], m->hfield_ncol[hid], lo, hi, cells);
  int n = collide_prisms(m, d, con, hid, &geom, cells, lo[2], margin);
  contacts_to_global(con, n, hpos, hmat);
  return n;
}
