/* compiler/compile_inertia.c — body mass properties.
 *
 * A body's inertial frame comes from its <inertial> element, or from its geoms when
 * compiler inertiafromgeom is true (always) or auto (only bodies without <inertial>):
 * each geom in inertiagrouprange contributes its mass (given, or density x volume) and
 * inertia, combined into one principal frame. Then boundmass/boundinertia clamp, and
 * balanceinertia and settotalmass adjust, as MuJoCo does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* the explicit <inertial> of a body */
static int explicit_inertia(tnCompiler* c, int b, const tnSpecBody* body) {
  mjModel* m = c->m;
  const tnSrcPos* src = body->inertial_src;
  mju_copy3(m->body_ipos + 3 * b, body->ipos);
  m->body_mass[b] = body->mass;
  if (body->has_fullinertia) {
    char why[256] = "";
    if (body->iorient.kind != TN_ORIENT_NONE) {
      return tn__compileFail(c, src, "fullinertia", "cannot be combined with an orientation");
    }
    if (!tn__fullInertiaToPrincipal(body->fullinertia, m->body_inertia + 3 * b,
                                    m->body_iquat + 4 * b, why, sizeof(why))) {
      return tn__compileFail(c, src, "fullinertia", "%s", why[0] ? why : "invalid inertia");
    }
  } else {
    mju_copy3(m->body_inertia + 3 * b, body->inertia);
    if (!tn__compileQuat(c, m->body_iquat + 4 * b, &body->iorient, src)) {
      return 0;
    }
  }
  tn__frameApply(&body->iframe, m->body_ipos + 3 * b, m->body_iquat + 4 * b);
  return 1;
}

/* true when geom id takes part in inertia computation */
static int geom_counts(const tnCompiler* c, int id) {
  const mjModel* m = c->m;
  int g = m->geom_group[id];
  int t = m->geom_type[id];
  const int* range = c->spec->compiler.inertiagrouprange;
  const tnSpecGeom* sg = TN_AT(c->spec->geoms, tnSpecGeom, c->geom_order[id]);
  return g >= range[0] && g <= range[1] && t != mjGEOM_PLANE && t != mjGEOM_HFIELD && !sg->fused;
}

/* mass and principal inertia of one geom in its frame (mesh geoms: from their mesh) */
static int one_geom_inertia(tnCompiler* c, int id, const tnSpecGeom* g, mjtNum given,
                            mjtNum* mass, mjtNum inert[3], char* why, int whysz) {
  const mjModel* m = c->m;
  if (m->geom_type[id] == mjGEOM_MESH) {
    const tnMesh* mesh = c->meshes + m->geom_dataid[id];
    return tn__meshGeomInertia(mesh, given, g->density, mass, inert, why, whysz) == 0;
  }
  return tn__geomInertia(m->geom_type[id], m->geom_size + 3 * id, given, g->density,
                         g->shellinertia, mass, inert, why, whysz);
}

/* mass properties of body b from its geoms */
static int geom_inertia(tnCompiler* c, int b) {
  mjModel* m = c->m;
  int n = m->body_geomnum[b], adr = m->body_geomadr[b];
  mjtNum* mass = calloc((size_t)(n ? n : 1), sizeof(mjtNum));
  mjtNum* inert = calloc((size_t)(n ? 3 * n : 1), sizeof(mjtNum));
  mjtNum* pos = calloc((size_t)(n ? 3 * n : 1), sizeof(mjtNum));
  mjtNum* quat = calloc((size_t)(n ? 4 * n : 1), sizeof(mjtNum));
  int ok = mass && inert && pos && quat;
  if (!ok) {
    tn__compileFail(c, NULL, NULL, "out of memory");
  }

  // each geom's mass and principal inertia in its own frame
  int k = 0;
  for (int i = 0; ok && i < n; i++) {
    int id = adr + i;
    if (!geom_counts(c, id)) {
      continue;
    }
    const tnSpecGeom* g = TN_AT(c->spec->geoms, tnSpecGeom, c->geom_order[id]);
    char why[256] = "";
    mjtNum given = isnan(g->mass) ? -1 : g->mass;
    if (!one_geom_inertia(c, id, g, given, mass + k, inert + 3 * k, why, sizeof(why))) {
      ok = tn__compileFail(c, g->src, NULL, "%s", why[0] ? why : "invalid geom inertia");
      break;
    }
    mju_copy3(pos + 3 * k, m->geom_pos + 3 * id);
    mju_copy4(quat + 4 * k, m->geom_quat + 4 * id);
    k++;
  }

  // combine into the body's inertial frame
  if (ok && k) {
    tn__combineInertia(k, mass, pos, quat, inert, m->body_mass + b, m->body_ipos + 3 * b,
                       m->body_iquat + 4 * b, m->body_inertia + 3 * b);
  }
  free(mass);
  free(inert);
  free(pos);
  free(quat);
  return ok;
}

/* principal inertias satisfy A + B >= C for every ordering */
static int triangle_ok(const mjtNum I[3]) {
  return I[0] + I[1] >= I[2] && I[0] + I[2] >= I[1] && I[1] + I[2] >= I[0];
}

/* boundmass, boundinertia and balanceinertia on one body */
static void adjust_body(tnCompiler* c, int b) {
  mjModel* m = c->m;
  const tnCompilerSettings* s = &c->spec->compiler;
  mjtNum* I = m->body_inertia + 3 * b;
  if (s->boundmass > 0 && m->body_mass[b] < s->boundmass) {
    m->body_mass[b] = s->boundmass;
  }
  for (int i = 0; i < 3 && s->boundinertia > 0; i++) {
    if (I[i] < s->boundinertia) {
      I[i] = s->boundinertia;
    }
  }

  // triangle inequality violated: replace with the mean (or report, below)
  if (s->balanceinertia && !triangle_ok(I)) {
    mjtNum mean = (I[0] + I[1] + I[2]) / 3;
    I[0] = I[1] = I[2] = mean;
  }
}

/* settotalmass: scale all masses and inertias to the requested total */
static void scale_total_mass(tnCompiler* c) {
  mjModel* m = c->m;
  mjtNum target = c->spec->compiler.settotalmass;
  mjtNum total = 0;
  for (int b = 1; b < m->nbody; b++) {
    total += m->body_mass[b];
  }
  if (target <= 0 || total < mjMINVAL) {
    return;
  }
  mjtNum scale = target / total;
  for (int b = 1; b < m->nbody; b++) {
    m->body_mass[b] *= scale;
    mju_scl3(m->body_inertia + 3 * b, m->body_inertia + 3 * b, scale);
  }
}

/* true when body b has mass and all principal inertias above mjMINVAL */
static int has_mass(const mjModel* m, int b) {
  const mjtNum* I = m->body_inertia + 3 * b;
  return m->body_mass[b] >= mjMINVAL && I[0] >= mjMINVAL && I[1] >= mjMINVAL && I[2] >= mjMINVAL;
}

/* true when b, or a body welded to it (descendants without joints), has mass */
static int welded_mass(const mjModel* m, int b) {
  if (has_mass(m, b)) {
    return 1;
  }
  for (int k = b + 1; k < m->nbody; k++) {
    if (m->body_parentid[k] == b && !m->body_jntnum[k] && welded_mass(m, k)) {
      return 1;
    }
  }
  return 0;
}

/* every body with joints needs mass and inertia, its own or from bodies welded to it */
static int check_moving(tnCompiler* c) {
  mjModel* m = c->m;
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_jntnum[b] && !welded_mass(m, b)) {
      return tn__compileFail(c, TN_AT(c->spec->bodies, tnSpecBody, b)->src, NULL,
                             "mass and inertia of moving bodies must be larger than mjMINVAL");
    }
  }
  return 1;
}

int tn__compileInertias(tnCompiler* c) {
  mjModel* m = c->m;
  int mode = c->spec->compiler.inertiafromgeom;
  for (int b = 1; b < m->nbody; b++) {
    const tnSpecBody* body = TN_AT(c->spec->bodies, tnSpecBody, b);

    // fixed by fusestatic or discardvisual: final as they are
    if (body->has_fixed_inertia) {
      m->body_mass[b] = body->fixed_mass;
      mju_copy3(m->body_ipos + 3 * b, body->fixed_ipos);
      mju_copy4(m->body_iquat + 4 * b, body->fixed_iquat);
      mju_copy3(m->body_inertia + 3 * b, body->fixed_inertia);
      continue;
    }
    int fromgeom = mode == TN_TRUE || (mode == TN_AUTO && !body->has_inertial);
    mju_unit4(m->body_iquat + 4 * b);
    if (fromgeom ? !geom_inertia(c, b) : (body->has_inertial && !explicit_inertia(c, b, body))) {
      return 0;
    }

    // no mass information: MuJoCo copies the body's own pos and orientation as written
    // (before any enclosing <frame> is applied) into the inertial frame
    if (!body->has_inertial && m->body_mass[b] == 0) {
      mju_copy3(m->body_ipos + 3 * b, body->pos);
      if (!tn__compileQuat(c, m->body_iquat + 4 * b, &body->orient, body->src)) {
        return 0;
      }
    }
    adjust_body(c, b);
    if (!triangle_ok(m->body_inertia + 3 * b)) {
      return tn__compileFail(c, body->has_inertial ? body->inertial_src : body->src, NULL,
                             "inertia must satisfy A + B >= C; use 'balanceinertia' to fix");
    }
  }
  scale_total_mass(c);
  return check_moving(c);
}
