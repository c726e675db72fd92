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
  const tnXmlNode* src = body->inertial_src;
  mju_copy3(m->body_ipos + 3 * b, body->ipos);
  m->body_mass[b] = body->mass;
  if (body->has_fullinertia) {
    char why[256] = "";
    if (body->iorient.kind != TN_ORIENT_NONE) {
      return tn_compileFail(c, src, "fullinertia", "cannot be combined with an orientation");
    }
    if (!tn_fullInertiaToPrincipal(body->fullinertia, m->body_inertia + 3 * b,
                                   m->body_iquat + 4 * b, why, sizeof(why))) {
      return tn_compileFail(c, src, "fullinertia", "%s", why[0] ? why : "invalid inertia");
    }
  } else {
    mju_copy3(m->body_inertia + 3 * b, body->inertia);
    if (!tn_compileQuat(c, m->body_iquat + 4 * b, &body->iorient, src)) {
      return 0;
    }
  }
  if (body->mass < 0 || m->body_inertia[3 * b] < 0 || m->body_inertia[3 * b + 1] < 0 ||
      m->body_inertia[3 * b + 2] < 0) {
    return tn_compileFail(c, src, NULL, "mass and inertia cannot be negative");
  }
  return 1;
}

/* true when geom id takes part in inertia computation */
static int geom_counts(const tnCompiler* c, int id) {
  const mjModel* m = c->m;
  int g = m->geom_group[id];
  int t = m->geom_type[id];
  const int* range = c->spec->compiler.inertiagrouprange;
  return g >= range[0] && g <= range[1] && t != mjGEOM_PLANE && t != mjGEOM_HFIELD;
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
    tn_compileFail(c, NULL, NULL, "out of memory");
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
    if (!tn_geomInertia(m->geom_type[id], m->geom_size + 3 * id, given, g->density,
                        g->shellinertia, mass + k, inert + 3 * k, why, sizeof(why))) {
      ok = tn_compileFail(c, g->src, NULL, "%s", why[0] ? why : "invalid geom inertia");
      break;
    }
    mju_copy3(pos + 3 * k, m->geom_pos + 3 * id);
    mju_copy4(quat + 4 * k, m->geom_quat + 4 * id);
    k++;
  }

  // combine into the body's inertial frame
  if (ok && k) {
    tn_combineInertia(k, mass, pos, quat, inert, m->body_mass + b, m->body_ipos + 3 * b,
                      m->body_iquat + 4 * b, m->body_inertia + 3 * b);
  }
  free(mass);
  free(inert);
  free(pos);
  free(quat);
  return ok;
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

  // triangle inequality violated: replace with the mean
  if (s->balanceinertia && (I[0] + I[1] < I[2] || I[0] + I[2] < I[1] || I[1] + I[2] < I[0])) {
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

/* moving bodies need mass somewhere in their subtree */
static int check_moving(tnCompiler* c) {
  mjModel* m = c->m;
  mjtNum* sub = calloc((size_t)m->nbody, sizeof(mjtNum));
  if (!sub) {
    return tn_compileFail(c, NULL, NULL, "out of memory");
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    sub[b] += m->body_mass[b];
    sub[m->body_parentid[b]] += sub[b];
  }
  int ok = 1;
  for (int b = 1; b < m->nbody && ok; b++) {
    if (m->body_jntnum[b] && sub[b] < mjMINVAL) {
      ok = tn_compileFail(c, TN_AT(c->spec->bodies, tnSpecBody, b)->src, NULL,
                          "mass and inertia of moving bodies must be larger than mjMINVAL");
    }
  }
  free(sub);
  return ok;
}

int tn_compileInertias(tnCompiler* c) {
  mjModel* m = c->m;
  int mode = c->spec->compiler.inertiafromgeom;
  for (int b = 1; b < m->nbody; b++) {
    const tnSpecBody* body = TN_AT(c->spec->bodies, tnSpecBody, b);
    int fromgeom = mode == TN_TRUE || (mode == TN_AUTO && !body->has_inertial);
    mju_unit4(m->body_iquat + 4 * b);
    if (fromgeom ? !geom_inertia(c, b) : (body->has_inertial && !explicit_inertia(c, b, body))) {
      return 0;
    }
    adjust_body(c, b);
  }
  scale_total_mass(c);
  return check_moving(c);
}
