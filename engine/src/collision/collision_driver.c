/* collision/collision_driver.c — mj_collision: from candidate pairs to d->contact.
 *
 * MuJoCo's order is kept because later stages (constraint rows, PGS) depend on it: the
 * broad phase yields body pairs sorted by signature (body1 << 16) + body2; explicit <pair>
 * entries, sorted by the same signature, are merged in before the body pair with an equal
 * or larger signature; excluded body pairs are dropped; then every geom pair of the body
 * pair is tested (skipping geom pairs already given explicitly), in increasing (geom1,
 * geom2) order after the type ordering, as MuJoCo's mid-phase delivers them. Each geom
 * pair passes the collider table and a bounding-sphere test, then its contacts receive the
 * mixed contact parameters (priority, solmix, maxima) or the explicit pair's own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision/collision_internal.h"
#include "util/timer.h"
#include "util/util_inline.h"

/* mjDISABLED / mjENABLED as in MuJoCo */
#define TN_DISABLED(m, x) ((m)->opt.disableflags & (x))
#define TN_ENABLED(m, x) ((m)->opt.enableflags & (x))

/* the collider table, [type1][type2] for type1 <= type2 */
const tnCollideFunc tn__collideTable[mjNGEOMTYPES][mjNGEOMTYPES] = {
    /* PLANE */
    {NULL, NULL, tn__collidePlaneSphere, tn__collidePlaneCapsule, tn__collidePlaneConvex,
     tn__collidePlaneCylinder, tn__collidePlaneBox, tn__collidePlaneConvex, NULL},
    /* HFIELD */
    {NULL, NULL, tn__collideHField, tn__collideHField, tn__collideHField, tn__collideHField,
     tn__collideHField, tn__collideHField, NULL},
    /* SPHERE */
    {NULL, NULL, tn__collideSphereSphere, tn__collideSphereCapsule, tn__collideConvex,
     tn__collideSphereCylinder, tn__collideSphereBox, tn__collideConvex, NULL},
    /* CAPSULE */
    {NULL, NULL, NULL, tn__collideCapsuleCapsule, tn__collideConvex, tn__collideConvex,
     tn__collideCapsuleBox, tn__collideConvex, NULL},
    /* ELLIPSOID */
    {NULL, NULL, NULL, NULL, tn__collideConvex, tn__collideConvex, tn__collideConvex,
     tn__collideConvex, NULL},
    /* CYLINDER */
    {NULL, NULL, NULL, NULL, NULL, tn__collideConvex, tn__collideConvex, tn__collideConvex, NULL},
    /* BOX */
    {NULL, NULL, NULL, NULL, NULL, NULL, tn__collideBoxBox, tn__collideConvex, NULL},
    /* MESH */
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, tn__collideConvex, NULL},
    /* SDF */
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

/* ---------------------------------------------------------------------------------------
 * Contact frame
 * ------------------------------------------------------------------------------------- */

/* complete a contact frame from its normal and optional tangent hint */
void tn__makeFrame(mjtNum frame[9]) {
  mjtNum tmp[3];

  // unit normal
  mju_normalize3(frame);

  // no usable hint: start from the y axis, or z when the normal is close to y
  if (mju_norm3(frame + 3) < 0.5) {
    mju_zero3(frame + 3);
    if (fabs(frame[1]) < 0.5) {
      frame[4] = 1;
    } else {
      frame[5] = 1;
    }
  }

  // first tangent: remove the normal component, normalize
  mju_scl3(tmp, frame, mju_dot3(frame, frame + 3));
  mju_subFrom3(frame + 3, tmp);
  mju_normalize3(frame + 3);

  // second tangent completes the right-handed frame
  mju_cross(frame + 6, frame, frame + 3);
}

/* ---------------------------------------------------------------------------------------
 * Contact parameters
 * ------------------------------------------------------------------------------------- */

/* contact parameters of one geom pair (or explicit pair) before override */
typedef struct tnContactParam_ {
  int condim;
  mjtNum margin;
  mjtNum gap;
  mjtNum friction[5];
  mjtNum solref[mjNREF];
  mjtNum solreffriction[mjNREF];
  mjtNum solimp[mjNIMP];
} tnContactParam;

/* mix the parameters of two geoms: priority first, else solmix and maxima (margin and
 * gap, which always add up, are set before detection) */
static void mix_geom_param(const mjModel* m, int g1, int g2, tnContactParam* p) {
  mjtNum fri[3];
  p->solreffriction[0] = p->solreffriction[1] = 0;

  // different priority: everything from the higher-priority geom
  if (m->geom_priority[g1] != m->geom_priority[g2]) {
    int g = m->geom_priority[g1] > m->geom_priority[g2] ? g1 : g2;
    p->condim = m->geom_condim[g];
    mju_copy(p->solref, m->geom_solref + mjNREF * g, mjNREF);
    mju_copy(p->solimp, m->geom_solimp + mjNIMP * g, mjNIMP);
    mju_copy3(fri, m->geom_friction + 3 * g);
  }

  // same priority: condim and friction maxima, solref/solimp weighted by solmix
  else {
    p->condim = m->geom_condim[g1] > m->geom_condim[g2] ? m->geom_condim[g1] : m->geom_condim[g2];

    // solmix weight of geom 1
    mjtNum s1 = m->geom_solmix[g1], s2 = m->geom_solmix[g2], mix;
    if (s1 >= mjMINVAL && s2 >= mjMINVAL) {
      mix = s1 / (s1 + s2);
    } else if (s1 < mjMINVAL && s2 < mjMINVAL) {
      mix = 0.5;
    } else if (s1 < mjMINVAL) {
      mix = 0;
    } else {
      mix = 1;
    }

    // solref: weighted for the standard form, minimum for the direct form
    const mjtNum* ref1 = m->geom_solref + mjNREF * g1;
    const mjtNum* ref2 = m->geom_solref + mjNREF * g2;
    for (int i = 0; i < mjNREF; i++) {
      if (ref1[0] > 0 && ref2[0] > 0) {
        p->solref[i] = mix * ref1[i] + (1 - mix) * ref2[i];
      } else {
        p->solref[i] = ref1[i] < ref2[i] ? ref1[i] : ref2[i];
      }
    }

    // solimp: weighted
    const mjtNum* imp1 = m->geom_solimp + mjNIMP * g1;
    const mjtNum* imp2 = m->geom_solimp + mjNIMP * g2;
    for (int i = 0; i < mjNIMP; i++) {
      p->solimp[i] = mix * imp1[i] + (1 - mix) * imp2[i];
    }

    // friction: elementwise maximum
    for (int i = 0; i < 3; i++) {
      fri[i] = mju_max(m->geom_friction[3 * g1 + i], m->geom_friction[3 * g2 + i]);
    }
  }

  // 3 geom friction coefficients to the 5 contact coefficients
  p->friction[0] = fri[0];
  p->friction[1] = fri[0];
  p->friction[2] = fri[1];
  p->friction[3] = fri[2];
  p->friction[4] = fri[2];
}

/* parameters of explicit pair `ipair` */
static void pair_param(const mjModel* m, int ipair, tnContactParam* p) {
  p->condim = m->pair_dim[ipair];
  p->margin = m->pair_margin[ipair];
  p->gap = m->pair_gap[ipair];
  mju_copy(p->friction, m->pair_friction + 5 * ipair, 5);
  mju_copy(p->solref, m->pair_solref + mjNREF * ipair, mjNREF);
  mju_copy(p->solreffriction, m->pair_solreffriction + mjNREF * ipair, mjNREF);
  mju_copy(p->solimp, m->pair_solimp + mjNIMP * ipair, mjNIMP);
}

/* global override of margin, solref, solimp and friction (enable flag "override") */
static void override_param(const mjModel* m, tnContactParam* p) {
  if (!TN_ENABLED(m, mjENBL_OVERRIDE)) {
    return;
  }
  p->margin = m->opt.o_margin;
  mju_copy(p->solref, m->opt.o_solref, mjNREF);
  mju_copy(p->solreffriction, m->opt.o_solref, mjNREF);
  mju_copy(p->solimp, m->opt.o_solimp, mjNIMP);
  mju_copy(p->friction, m->opt.o_friction, 5);
}

/* write ids and parameters into n new contacts */
static void set_contacts(mjContact* con, int n, int g1, int g2, const tnContactParam* p) {
  for (int i = 0; i < n; i++) {
    mjContact* c = con + i;

    // ids: geoms only (no flex)
    c->geom1 = c->geom[0] = g1;
    c->geom2 = c->geom[1] = g2;
    c->flex[0] = c->flex[1] = -1;
    c->elem[0] = c->elem[1] = -1;
    c->vert[0] = c->vert[1] = -1;

    // parameters, friction kept above the minimum
    c->dim = p->condim;
    c->includemargin = p->margin;
    c->adhesion = 0;
    for (int k = 0; k < 5; k++) {
      c->friction[k] = mju_max(mjMINMU, p->friction[k]);
    }
    mju_copy(c->solref, p->solref, mjNREF);
    mju_copy(c->solreffriction, p->solreffriction, mjNREF);
    mju_copy(c->solimp, p->solimp, mjNIMP);

    // contacts in the gap (beyond the margin) are kept but excluded from constraints
    c->exclude = c->dist >= p->margin;

    // filled later by the constraint stage
    c->mu = 0;
    mju_zero(c->H, 36);
    c->efc_address = -1;

    // complete the frame
    tn__makeFrame(c->frame);
  }
}

/* ---------------------------------------------------------------------------------------
 * Geom pairs
 * ------------------------------------------------------------------------------------- */

/* 1 if the bounding spheres (or plane and sphere) rule out contact within margin */
static int filter_sphere(const mjModel* m, const mjData* d, int g1, int g2, mjtNum margin) {
  mjtNum r1 = m->geom_rbound[g1], r2 = m->geom_rbound[g2];
  const mjtNum* p1 = d->geom_xpos + 3 * g1;
  const mjtNum* p2 = d->geom_xpos + 3 * g2;

  // two bounded geoms: sphere-sphere test
  if (r1 > 0 && r2 > 0) {
    return mju_dist3(p1, p2) > r1 + r2 + margin;
  }

  // plane (g1, unbounded) and bounded geom: signed distance of the sphere to the plane
  if (m->geom_type[g1] == mjGEOM_PLANE && r2 > 0) {
    mjtNum normal[3], dif[3];
    mat_col(normal, d->geom_xmat + 9 * g1, 2);
    mju_sub3(dif, p2, p1);
    return mju_dot3(dif, normal) > r2 + margin;
  }
  return 0;
}

/* 1 if the geoms' oriented bounding boxes (geom_aabb in the geom frames) are separated by
 * more than margin along one of their six face normals — MuJoCo's mid-phase test, with its
 * arithmetic and no tolerance (a touching pair it rejects never reaches the collider). A
 * box unbounded in every direction (a plane) is never separated; the normals of a box are
 * not tried against a box unbounded in some direction; a geom without a box (a zero half
 * size) is not filtered. */
static int filter_box(const mjModel* m, const mjData* d, int g1, int g2, mjtNum margin) {
  const mjtNum* box[2] = {m->geom_aabb + 6 * g1, m->geom_aabb + 6 * g2};
  const mjtNum* mat[2] = {d->geom_xmat + 9 * g1, d->geom_xmat + 9 * g2};
  const mjtNum* pos[2] = {d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2};
  mjtNum center[2][3], col[2][3][3], proj[2], radius[2];
  int unbounded[2];

  // unbounded directions; box centres in the global frame and axes (no box, e.g. a model
  // built by hand without geom_aabb: no filtering)
  for (int i = 0; i < 2; i++) {
    if (!(box[i][3] > 0 && box[i][4] > 0 && box[i][5] > 0)) {
      return 0;
    }
    int all = 1, any = 0;
    for (int k = 0; k < 3; k++) {
      int inf = box[i][3 + k] >= mjMAXVAL;
      all &= inf;
      any |= inf;
    }
    if (all) {
      return 0;
    }
    unbounded[i] = any;
    mju_mulMatVec3(center[i], mat[i], box[i]);
    mju_addTo3(center[i], pos[i]);
    for (int a = 0; a < 3; a++) {
      mat_col(col[i][a], mat[i], a);
    }
  }

  // axis products between the boxes, shared by both boxes' normals (a product of two
  // columns is the same number whichever column is the normal)
  mjtNum cross[3][3];
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      cross[a][b] = mju_dot3(col[0][a], col[1][b]);
    }
  }

  // the face normals of box j (columns of its rotation)
  for (int j = 0; j < 2; j++) {
    if (unbounded[1 - j]) {
      continue;
    }
    for (int k = 0; k < 3; k++) {
      const mjtNum* normal = col[j][k];

      // both boxes projected on the normal: centre and radius
      for (int i = 0; i < 2; i++) {
        mjtNum dots[3];
        for (int a = 0; a < 3; a++) {
          dots[a] = i == j ? mju_dot3(col[i][a], normal) : (j == 0 ? cross[k][a] : cross[a][k]);
        }
        proj[i] = mju_dot3(center[i], normal);
        radius[i] = fabs(box[i][3] * dots[0]) + fabs(box[i][4] * dots[1]) +
                    fabs(box[i][5] * dots[2]);
      }
      if (radius[0] + radius[1] + margin < fabs(proj[1] - proj[0])) {
        return 1;
      }
    }
  }
  return 0;
}

/* 1 for the primitive colliders that cost less than filter_box and only read the geoms'
 * poses (no scratch, no warnings), so they may run before it */
static int cheap_collider(tnCollideFunc func) {
  return func == tn__collidePlaneSphere || func == tn__collidePlaneCapsule ||
         func == tn__collidePlaneCylinder || func == tn__collidePlaneBox ||
         func == tn__collideSphereSphere || func == tn__collideSphereCapsule ||
         func == tn__collideSphereCylinder || func == tn__collideSphereBox ||
         func == tn__collideCapsuleCapsule;
}

/* 1 if every contact of a collider's output lies clearly inside the detection distance:
 * the geoms then have points closer than `detect`, so their boxes (which contain them)
 * overlap within `detect` along every axis and filter_box cannot reject the pair. The
 * tolerance covers the round-off of the collider's distances and of filter_box's
 * projections, many orders of magnitude below it. */
static int surely_within(const mjModel* m, const mjData* d, int g1, int g2,
                         const mjContact* con, int n, mjtNum detect) {
  const mjtNum* p1 = d->geom_xpos + 3 * g1;
  const mjtNum* p2 = d->geom_xpos + 3 * g2;
  mjtNum scale = 1 + m->geom_rbound[g1] + m->geom_rbound[g2] + fabs(detect);
  for (int k = 0; k < 3; k++) {
    scale += fabs(p1[k]) + fabs(p2[k]);
  }
  mjtNum limit = detect - 1e-9 * scale;
  for (int i = 0; i < n; i++) {
    if (!(con[i].dist < limit)) {
      return 0;
    }
  }
  return 1;
}

/* test geom pair (g1, g2), or explicit pair ipair when ipair >= 0; append contacts */
static void collide_geoms(const mjModel* m, mjData* d, int g1, int g2, int ipair) {
  tnContactParam prm;

  // explicit pair: geoms and parameters from the pair
  if (ipair >= 0) {
    g1 = m->pair_geom1[ipair];
    g2 = m->pair_geom2[ipair];
  }

  // order the geoms by type for the collider table
  if (m->geom_type[g1] > m->geom_type[g2]) {
    int tmp = g1;
    g1 = g2;
    g2 = tmp;
  }
  tnCollideFunc func = tn__collideTable[m->geom_type[g1]][m->geom_type[g2]];
  if (!func) {
    return;
  }

  // margin and gap decide detection; the other parameters are mixed only on contact
  if (ipair >= 0) {
    pair_param(m, ipair, &prm);
  } else {
    prm.margin = m->geom_margin[g1] + m->geom_margin[g2];
    prm.gap = m->geom_gap[g1] + m->geom_gap[g2];
  }
  if (TN_ENABLED(m, mjENBL_OVERRIDE)) {
    prm.margin = m->opt.o_margin;
  }
  mjtNum detect = prm.margin + prm.gap;

  // bounding-sphere filter, then (pairs found by the broad phase) the bounding-box filter:
  // before the collider, or after it when the collider is cheaper than the filter (its
  // contacts are then dropped if the filter rejects the pair: the same outcome; contacts
  // clearly within the detection distance need no filter, which could not reject them)
  int box_after = ipair < 0 && cheap_collider(func);
  if (filter_sphere(m, d, g1, g2, detect) ||
      (ipair < 0 && !box_after && filter_box(m, d, g1, g2, detect))) {
    return;
  }

  // room for a full collider output: in place, or in scratch when the buffer is nearly full
  int room = d->ncon_capacity - d->ncon;
  mjContact* con = d->contact + d->ncon;
  int scratch = room < mjMAXCONPAIR;
  if (scratch) {
    mj_markStack(d);
    con = (mjContact*)mj_stackAllocNum(d, (sizeof(mjContact) * mjMAXCONPAIR + 7) / 8);
    if (!con) {
      mj_freeStack(d);
      return;
    }
  }
  // narrow phase
  int n = func(m, d, con, g1, g2, detect);
  if (n > mjMAXCONPAIR) {
    n = mjMAXCONPAIR;
  }
  if (n > 0 && box_after && !surely_within(m, d, g1, g2, con, n, detect) &&
      filter_box(m, d, g1, g2, detect)) {
    n = 0;
  }
  if (n > 0) {
    if (ipair < 0) {
      mix_geom_param(m, g1, g2, &prm);
    }
    override_param(m, &prm);
    set_contacts(con, n, g1, g2, &prm);
  }

  // append: copy from scratch what fits, warn when contacts are dropped
  if (scratch) {
    int keep = n < room ? n : room;
    if (keep > 0) {
      memcpy(d->contact + d->ncon, con, sizeof(mjContact) * keep);
    }
    if (keep < n) {
      mj_warning(d, mjWARN_CONTACTFULL, d->ncon_capacity);
    }
    n = keep;
    mj_freeStack(d);
  }
  d->ncon += n;
}

/* 1 if geom pair (g1, g2) is one of the explicit pairs [start, end) */
static int is_explicit(const mjModel* m, int g1, int g2, int start, int end) {
  for (int k = start; k < end; k++) {
    int p1 = m->pair_geom1[k], p2 = m->pair_geom2[k];
    if ((p1 == g1 && p2 == g2) || (p1 == g2 && p2 == g1)) {
      return 1;
    }
  }
  return 0;
}

/* 1 if body-pair signature `sig` is excluded; signatures come in increasing order and
 * exclude_signature is sorted, so *exadr (the first exclusion not below the previous
 * signature) only moves forward */
static int is_excluded(const mjModel* m, int sig, int* exadr) {
  while (*exadr < m->nexclude && m->exclude_signature[*exadr] < sig) {
    (*exadr)++;
  }
  return *exadr < m->nexclude && m->exclude_signature[*exadr] == sig;
}

/* 1 if geoms g1, g2 may collide by contype/conaffinity */
static int compatible_geoms(const mjModel* m, int g1, int g2) {
  return (m->geom_contype[g1] & m->geom_conaffinity[g2]) ||
         (m->geom_contype[g2] & m->geom_conaffinity[g1]);
}

/* Body spheres: a pre-test that skips geom pairs the bounding-sphere filter would reject
 * anyway, without looking at each pair. Per body, 5 numbers: the centre and radius of a
 * sphere enclosing the bounding spheres of its collidable geoms (radius -1: unbounded, a
 * plane or a geom without bounding radius; never used to skip), and the largest detection
 * distance (margin + gap) among those geoms. A geom whose bounding sphere is farther from
 * the other body's sphere than both radii and both detection distances (with a relative
 * slack far above round-off) fails filter_sphere against every geom of that body. */
#define TN_BS 5
#define TN_BS_SLACK 1e-9

static int collidable(const mjModel* m, int g) {
  return m->geom_contype[g] || m->geom_conaffinity[g];
}

/* the body sphere of body b into out (TN_BS numbers) */
static void body_sphere(const mjModel* m, const mjData* d, int b, mjtNum* out) {
  int adr = m->body_geomadr[b], num = m->body_geomnum[b], any = 0, unbounded = 0;
  mjtNum lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, detect = 0;

  // box around the geoms' spheres, largest detection distance
  for (int g = adr; g < adr + num; g++) {
    if (!collidable(m, g)) {
      continue;
    }
    mjtNum r = m->geom_rbound[g];
    unbounded |= !(r > 0);
    detect = mju_max(detect, m->geom_margin[g] + m->geom_gap[g]);
    for (int k = 0; k < 3; k++) {
      mjtNum x = d->geom_xpos[3 * g + k];
      lo[k] = any ? mju_min(lo[k], x - r) : x - r;
      hi[k] = any ? mju_max(hi[k], x + r) : x + r;
    }
    any = 1;
  }

  // sphere around the box's centre reaching every geom sphere
  mjtNum radius = 0;
  for (int k = 0; k < 3; k++) {
    out[k] = any ? 0.5 * (lo[k] + hi[k]) : 0;
  }
  for (int g = adr; g < adr + num && any && !unbounded; g++) {
    if (collidable(m, g)) {
      radius = mju_max(radius, mju_dist3(d->geom_xpos + 3 * g, out) + m->geom_rbound[g]);
    }
  }
  out[3] = unbounded ? -1 : radius;
  out[4] = detect;
}

/* the world box of geom g into out (TN_GB numbers); none for a geom that collides with
 * nothing (such a geom is never skipped by its box: the contype test rejects it) */
static void geom_box(const mjModel* m, const mjData* d, int g, mjtNum* out) {
  const mjtNum* box = m->geom_aabb + 6 * g;
  const mjtNum* mat = d->geom_xmat + 9 * g;
  out[6] = 0;
  if (!collidable(m, g) || !(m->geom_rbound[g] > 0) || !(box[3] > 0 && box[4] > 0 && box[5] > 0) ||
      box[3] >= mjMAXVAL || box[4] >= mjMAXVAL || box[5] >= mjMAXVAL) {
    return;
  }
  mjtNum grow = m->geom_margin[g] + m->geom_gap[g];
  for (int i = 0; i < 3; i++) {
    const mjtNum* row = mat + 3 * i;
    out[i] = d->geom_xpos[3 * g + i] + row[0] * box[0] + row[1] * box[1] + row[2] * box[2];
    out[3 + i] = fabs(row[0]) * box[3] + fabs(row[1]) * box[4] + fabs(row[2]) * box[5] + grow;
  }
  out[6] = 1;
}

/* the union of the world boxes of body b's collidable geoms (TN_GB numbers; flag 0 when
 * one of them has no box) */
static void body_box(const mjModel* m, const mjtNum* gb, int b, mjtNum out[TN_GB]) {
  mjtNum lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  int any = 0;
  out[6] = 0;
  for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
    if (!collidable(m, g)) {
      continue;
    }
    const mjtNum* box = gb + TN_GB * g;
    if (box[6] == 0) {
      return;
    }
    for (int k = 0; k < 3; k++) {
      lo[k] = any ? mju_min(lo[k], box[k] - box[3 + k]) : box[k] - box[3 + k];
      hi[k] = any ? mju_max(hi[k], box[k] + box[3 + k]) : box[k] + box[3 + k];
    }
    any = 1;
  }
  for (int k = 0; k < 3 && any; k++) {
    out[k] = 0.5 * (lo[k] + hi[k]);
    out[3 + k] = 0.5 * (hi[k] - lo[k]);
  }
  out[6] = any;
}

/* 1 if geom g's world box is surely apart from the box `other` */
static int apart_from(const mjtNum* gb, int g, const mjtNum* other) {
  const mjtNum* a = gb + TN_GB * g;
  if (a[6] == 0 || other[6] == 0) {
    return 0;
  }
  for (int i = 0; i < 3; i++) {
    if (fabs(a[i] - other[i]) > (a[3 + i] + other[3 + i]) * (1 + TN_BOX_SLACK) + mjMINVAL) {
      return 1;
    }
  }
  return 0;
}

/* 1 unless geom g is surely out of reach of every geom of the body with sphere bs */
static int may_reach(const mjModel* m, const mjData* d, int g, const mjtNum* bs) {
  mjtNum r = m->geom_rbound[g];
  if (!(bs[3] >= 0) || !(r > 0)) {
    return 1;
  }
  mjtNum reach = r + bs[3] + m->geom_margin[g] + m->geom_gap[g] + bs[4];
  return mju_dist3(d->geom_xpos + 3 * g, bs) <= reach * (1 + TN_BS_SLACK);
}

/* 1 if plane g is surely farther than its detection distance from every point of the box
 * `other` (which holds the other geoms grown by their own detection distances): no
 * plane collider could report a contact. The slack covers round-off and the mesh
 * vertices' single precision, far below any distance that matters. */
static int plane_apart(const mjModel* m, const mjData* d, int g, const mjtNum* other) {
  if (other[6] == 0 || m->geom_type[g] != mjGEOM_PLANE) {
    return 0;
  }
  mjtNum normal[3];
  mat_col(normal, d->geom_xmat + 9 * g, 2);
  mjtNum above = mju_dot3(other, normal), base = mju_dot3(d->geom_xpos + 3 * g, normal);
  mjtNum half =
      fabs(normal[0]) * other[3] + fabs(normal[1]) * other[4] + fabs(normal[2]) * other[5];
  mjtNum detect = m->geom_margin[g] + m->geom_gap[g];
  mjtNum slack = 1e-6 * (half + detect) + TN_BS_SLACK * (fabs(above) + fabs(base)) + mjMINVAL;
  return above - base - half > detect + slack;
}

/* mid-phase scratch: the geom boxes (all made before the broad phase), body spheres and
 * body boxes (computed when a body is first met as the other body of a pair: flag ready),
 * the geoms of each body that may collide (cgeom, from the body's first geom address on;
 * ncgeom: their number, -1 until listed) and the lists of geoms of the pair at hand */
typedef struct tnMidPhase_ {
  mjtNum* bs;
  mjtNum* gb;
  mjtNum* bb;
  int* list;
  int* ready;
  int* cgeom;
  int* ncgeom;
} tnMidPhase;

/* the body sphere and the body box of body b (its geoms' boxes are made before the broad
 * phase, which bounds the bodies with them) */
static void make_bounds(const mjModel* m, const mjData* d, const tnMidPhase* mp, int b) {
  body_sphere(m, d, b, mp->bs + TN_BS * b);
  body_box(m, mp->gb, b, mp->bb + TN_GB * b);
  mp->ready[b] = 1;
}

/* the bounds of body b, made once per call (the check inlined at every use) */
static inline void body_bounds(const mjModel* m, const mjData* d, const tnMidPhase* mp, int b) {
  if (!mp->ready[b]) {
    make_bounds(m, d, mp, b);
  }
}

/* the geoms of body b that may collide (all of them with a user's filter, which replaces
 * contype/conaffinity; else those with a contype or conaffinity), listed once per call */
static const int* body_geoms(const mjModel* m, const tnMidPhase* mp, int b, int* n) {
  int adr = m->body_geomadr[b];
  if (mp->ncgeom[b] < 0) {
    int k = 0;
    for (int g = adr; g < adr + m->body_geomnum[b]; g++) {
      if (mjcb_contactfilter || collidable(m, g)) {
        mp->cgeom[adr + k++] = g;
      }
    }
    mp->ncgeom[b] = k;
  }
  *n = mp->ncgeom[b];
  return mp->cgeom + adr;
}

/* 1 unless plane g fails filter_sphere (with the detection distance collide_geoms would
 * use) against every geom of body `other` it could be tested with; exact, no bounds needed */
static int plane_reaches(const mjModel* m, const mjData* d, const tnMidPhase* mp, int g,
                         int other) {
  int n;
  const int* geoms = body_geoms(m, mp, other, &n);
  for (int i = 0; i < n; i++) {
    int g2 = geoms[i];
    if (m->geom_type[g2] == mjGEOM_PLANE || !tn__collideTable[mjGEOM_PLANE][m->geom_type[g2]]) {
      continue;
    }
    mjtNum margin = m->geom_margin[g] + m->geom_margin[g2];
    mjtNum gap = m->geom_gap[g] + m->geom_gap[g2];
    if (!filter_sphere(m, d, g, g2, margin + gap)) {
      return 1;
    }
  }
  return 0;
}

/* the geoms of body b that may reach body other into list, in increasing order; returns
 * their number. Geoms that collide with nothing are left out (the contype test would reject
 * them; not with a user's filter, which replaces that test). A plane is tested against the
 * other body's geoms directly; the other geoms by their boxes against the other body's
 * sphere and box (the other body's bounds computed here when first needed). */
static int reach_list(const mjModel* m, const mjData* d, const tnMidPhase* mp, int b, int other,
                      int* list) {
  const mjtNum* box = mp->bb + TN_GB * other;
  const mjtNum* sphere = mp->bs + TN_BS * other;
  int n = 0, bounded = 0, num;
  const int* geoms = body_geoms(m, mp, b, &num);
  for (int i = 0; i < num; i++) {
    int g = geoms[i], reach;
    if (m->geom_type[g] == mjGEOM_PLANE) {
      reach = plane_reaches(m, d, mp, g, other);
    } else {
      if (!bounded) {
        body_bounds(m, d, mp, other);
        bounded = 1;
      }
      reach =
          may_reach(m, d, g, sphere) && !apart_from(mp->gb, g, box) && !plane_apart(m, d, g, box);
    }
    if (reach) {
      list[n++] = g;
    }
  }
  return n;
}

/* 1 if geoms g1 and g2 are surely apart: their world boxes, or a plane and the other's box.
 * With a user's contact filter only the world boxes (MuJoCo's mid-phase) count: MuJoCo calls
 * the filter for every pair its mid-phase keeps, before any test of its own, and the
 * filter's calls are observable */
static int pair_apart(const mjModel* m, const mjData* d, const mjtNum* gb, int g1, int g2) {
  const mjtNum* box1 = gb + TN_GB * g1;
  const mjtNum* box2 = gb + TN_GB * g2;
  if (mjcb_contactfilter) {
    return apart_from(gb, g1, box2);
  }
  return apart_from(gb, g1, box2) || plane_apart(m, d, g1, box2) || plane_apart(m, d, g2, box1);
}

/* 1 if the user's filter (which replaces contype/conaffinity; geoms ordered by type) keeps
 * the pair */
static int user_keeps(const mjModel* m, mjData* d, int g1, int g2) {
  int swap = m->geom_type[g1] > m->geom_type[g2];
  return !mjcb_contactfilter(m, d, swap ? g2 : g1, swap ? g1 : g2);
}

/* 1 if geom pair (g1, g2) of a body pair passes contype/conaffinity (or the user's filter)
 * and is not one of the explicit pairs [start, end) */
static int tested_pair(const mjModel* m, mjData* d, int g1, int g2, int start, int end) {
  if (start < end && is_explicit(m, g1, g2, start, end)) {
    return 0;
  }
  return mjcb_contactfilter ? user_keeps(m, d, g1, g2) : compatible_geoms(m, g1, g2);
}

/* 1 if the pair's geoms are worth listing before the pair tests: a few geoms that may all
 * collide (TN_REACH_PAIRS pairs or fewer) are cheaper to test pair by pair than to bound
 * the bodies and list them; the pairs and their order are the same either way */
#define TN_REACH_PAIRS 4
static int use_reach_lists(const mjModel* m, const tnMidPhase* mp, int b1, int b2) {
  int num1 = m->body_geomnum[b1], num2 = m->body_geomnum[b2], c1, c2;
  if (num1 * num2 > TN_REACH_PAIRS) {
    return 1;
  }
  body_geoms(m, mp, b1, &c1);
  body_geoms(m, mp, b2, &c2);
  return c1 < num1 || c2 < num2;
}

/* test every geom pair of body pair (b1, b2), skipping explicit pairs [start, end). With
 * the mid-phase on, in MuJoCo's order: pairs ordered by type for the collider table, then
 * sorted by (geom1, geom2). As body 1's geoms precede body 2's, that is: the pairs that
 * keep body 1's geom first (body 1 outer, body 2 inner), then those that put body 2's
 * geom first (body 2 outer, body 1 inner) -- no sort needed. Without the mid-phase (or
 * with interleaved geom ranges): body 1's geoms outer, body 2's inner, as they come. */
static void collide_bodies(const mjModel* m, mjData* d, int b1, int b2, int start, int end,
                           const tnMidPhase* mp) {
  int adr1 = m->body_geomadr[b1], num1 = m->body_geomnum[b1];
  int adr2 = m->body_geomadr[b2], num2 = m->body_geomnum[b2];
  const int* type = m->geom_type;
  const mjtNum* gb = mp ? mp->gb : NULL;

  // mid-phase order
  if (!TN_DISABLED(m, mjDSBL_MIDPHASE) && num1 * num2 > 1 && adr1 + num1 <= adr2) {
    // the geoms that may reach the other body (all of them without scratch, or with a
    // user's contact filter, which sees every pair MuJoCo's mid-phase keeps); none on
    // either side: no pair to test
    const int *list1 = NULL, *list2 = NULL;
    int n1 = num1, n2 = num2;
    if (mp && !mjcb_contactfilter && use_reach_lists(m, mp, b1, b2)) {
      n1 = reach_list(m, d, mp, b1, b2, mp->list);
      n2 = n1 ? reach_list(m, d, mp, b2, b1, mp->list + n1) : 0;
      if (!n2) {
        return;
      }
      list1 = mp->list;
      list2 = mp->list + n1;
    }
#define GEOM(list, adr, i) ((list) ? (list)[i] : (adr) + (i))
#define APART(a, b) (gb && pair_apart(m, d, gb, a, b))
    for (int i = 0; i < n1; i++) {
      int g1 = GEOM(list1, adr1, i);
      for (int j = 0; j < n2; j++) {
        int g2 = GEOM(list2, adr2, j);
        if (type[g1] <= type[g2] && !APART(g1, g2) && tested_pair(m, d, g1, g2, start, end)) {
          collide_geoms(m, d, g1, g2, -1);
        }
      }
    }
    for (int j = 0; j < n2; j++) {
      int g2 = GEOM(list2, adr2, j);
      for (int i = 0; i < n1; i++) {
        int g1 = GEOM(list1, adr1, i);
        if (type[g1] > type[g2] && !APART(g1, g2) && tested_pair(m, d, g1, g2, start, end)) {
          collide_geoms(m, d, g2, g1, -1);
        }
      }
    }
#undef APART
#undef GEOM
    return;
  }

  // plain order (geoms surely apart skipped, as in the mid-phase)
  for (int g1 = adr1; g1 < adr1 + num1; g1++) {
    for (int g2 = adr2; g2 < adr2 + num2; g2++) {
      if (!(gb && pair_apart(m, d, gb, g1, g2)) && tested_pair(m, d, g1, g2, start, end)) {
        collide_geoms(m, d, g1, g2, -1);
      }
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * mj_collision
 * ------------------------------------------------------------------------------------- */

/* collision detection: fill d->contact[0 .. d->ncon) */
void mj_collision(const mjModel* m, mjData* d) {
  int npair = m->npair;
  long nbodypair = (long)m->nbody * (m->nbody - 1) / 2;
  d->ncon = 0;

  // contacts disabled, or nothing can collide
  if (TN_DISABLED(m, mjDSBL_CONSTRAINT) || TN_DISABLED(m, mjDSBL_CONTACT) ||
      nbodypair + npair == 0 || d->ncon_capacity <= 0 || !d->contact) {
    return;
  }

  mj_markStack(d);

  // scratch for the mid-phase: body spheres and geom boxes for skipping out-of-reach
  // geoms (not with an overridden margin), computed per body when first needed, and the
  // lists of geoms of the body pair at hand, when the arena has room for them
  tnMidPhase mid, *mp = NULL;
  size_t need = sizeof(mjtNum) * ((TN_BS + TN_GB) * (size_t)m->nbody + TN_GB * (size_t)m->ngeom) +
                sizeof(int) * 2 * ((size_t)m->ngeom + m->nbody) + 64;
  if (!TN_ENABLED(m, mjENBL_OVERRIDE) && d->narena - d->parena - d->pstack > 4 * need) {
    mid.bs = mj_stackAllocNum(d, TN_BS * (size_t)m->nbody);
    mid.bb = mj_stackAllocNum(d, TN_GB * (size_t)m->nbody);
    mid.gb = mj_stackAllocNum(d, TN_GB * (size_t)(m->ngeom ? m->ngeom : 1));
    mid.list = mj_stackAllocInt(d, m->ngeom ? m->ngeom : 1);
    mid.ready = mj_stackAllocInt(d, m->nbody);
    mid.cgeom = mj_stackAllocInt(d, m->ngeom ? m->ngeom : 1);
    mid.ncgeom = mj_stackAllocInt(d, m->nbody);
    memset(mid.ready, 0, sizeof(int) * (size_t)m->nbody);
    memset(mid.ncgeom, -1, sizeof(int) * (size_t)m->nbody);
    mp = &mid;
  }

  // broad phase (MuJoCo's mjTIMER_COL_BROAD): the geom boxes, then sorted candidate body
  // pairs, as many as the arena allows
  mjtNum tstart = timer_start();
  for (int g = 0; mp && g < m->ngeom; g++) {
    geom_box(m, d, g, mp->gb + TN_GB * g);
  }
  long avail = (long)((d->narena - d->pstack) / sizeof(int)) / 2;
  int maxpair = (int)(nbodypair < avail ? nbodypair : avail);
  int* bodypair = maxpair > 0 ? mj_stackAllocInt(d, maxpair) : NULL;
  int nbp = bodypair ? tn__broadphase(m, d, mp ? mp->gb : NULL, bodypair, maxpair) : 0;
  timer_end(d, mjTIMER_COL_BROAD, tstart);

  // mid-phase and narrow phase (mjTIMER_COL_NARROW)
  tstart = timer_start();

  // merge explicit pairs and body pairs in signature order
  int pairadr = 0, exadr = 0;
  for (int i = 0; i < nbp; i++) {
    int sig = bodypair[i];

    // explicit pairs with signature up to this one
    int start = pairadr, merged = 0;
    while (pairadr < npair && m->pair_signature[pairadr] <= sig) {
      if (m->pair_signature[pairadr] == sig) {
        merged = 1;
      }
      collide_geoms(m, d, -1, -1, pairadr++);
    }

    // excluded body pair
    if (m->nexclude && is_excluded(m, sig, &exadr)) {
      continue;
    }

    // all geom pairs of the body pair
    collide_bodies(m, d, (sig >> 16) & 0xFFFF, sig & 0xFFFF, merged ? start : 0,
                   merged ? pairadr : 0, mp);
  }

  // remaining explicit pairs
  while (pairadr < npair) {
    collide_geoms(m, d, -1, -1, pairadr++);
  }

  mj_freeStack(d);
  timer_end(d, mjTIMER_COL_NARROW, tstart);
}
