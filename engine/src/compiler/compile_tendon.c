/* compiler/compile_tendon.c — tendons with their wrap paths, the static sparse pattern of
 * the tendon Jacobian, and equality constraints.
 *
 * Path elements become (wrap_type, wrap_objid, wrap_prm): joint (coef), site, sphere or
 * cylinder geom (side site id or -1) and pulley (divisor). The Jacobian pattern is MuJoCo's
 * (nJten, ten_J_rownnz/rowadr/colind): a fixed tendon's row holds one entry per joint
 * element, ascending by dof (a joint listed twice keeps two entries), a spatial tendon's row
 * every dof moving a body on its path, ascending; the model is allocated with a bound of
 * nJten (tn__tendonJacBound) and shrunk to the exact size once the path objects are known. Equality data holds what the
 * file gives (anchors, relative pose, polynomial, torque scale); values MuJoCo derives at
 * qpos0 are filled by tn__compileFinish. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"
#include "model/model_alloc.h"
#include "smooth/smooth.h"

/* one path element */
static int compile_wrap(tnCompiler* c, int w, int spatial) {
  mjModel* m = c->m;
  const tnSpecWrap* s = TN_AT(c->spec->wraps, tnSpecWrap, w);
  m->wrap_type[w] = s->type;
  m->wrap_objid[w] = -1;
  m->wrap_prm[w] = s->prm;
  switch (s->type) {
    case mjWRAP_JOINT: {
      int j = tn__compileRequire(c, mjOBJ_JOINT, s->obj, s->src, "joint");
      if (j < 0) {
        return 0;
      }
      if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) {
        return tn__compileFail(c, s->src, "joint", "fixed tendons need hinge or slide joints");
      }
      m->wrap_objid[w] = j;
      return 1;
    }
    case mjWRAP_SITE:
      m->wrap_objid[w] = tn__compileRequire(c, mjOBJ_SITE, s->obj, s->src, "site");
      m->wrap_prm[w] = 0;
      return m->wrap_objid[w] >= 0;
    case mjWRAP_PULLEY: return 1;
    default: {
      // geom: sphere or cylinder, optional side site
      int g = tn__compileRequire(c, mjOBJ_GEOM, s->obj, s->src, "geom");
      if (g < 0) {
        return 0;
      }
      int type = m->geom_type[g];
      if (type != mjGEOM_SPHERE && type != mjGEOM_CYLINDER) {
        return tn__compileFail(c, s->src, "geom", "wrapping geoms must be spheres or cylinders");
      }
      m->wrap_type[w] = type == mjGEOM_SPHERE ? mjWRAP_SPHERE : mjWRAP_CYLINDER;
      m->wrap_objid[w] = g;
      m->wrap_prm[w] = -1;
      if (s->side && s->side[0]) {
        m->wrap_prm[w] = tn__compileRequire(c, mjOBJ_SITE, s->side, s->src, "sidesite");
        return m->wrap_prm[w] >= 0;
      }
      (void)spatial;
      return 1;
    }
  }
}

/* spatial paths: each pulley-separated branch starts and ends at a site, and every
 * geom sits between two sites */
static int check_path(tnCompiler* c, const tnSpecTendon* t) {
  const int* type = c->m->wrap_type + t->wrapadr;
  int n = t->wrapnum;
  for (int i = 0; i < n; i++) {
    int first = i == 0 || type[i - 1] == mjWRAP_PULLEY;
    int last = i == n - 1 || type[i + 1] == mjWRAP_PULLEY;
    int geom = type[i] == mjWRAP_SPHERE || type[i] == mjWRAP_CYLINDER;
    const tnSrcPos* src = TN_AT(c->spec->wraps, tnSpecWrap, t->wrapadr + i)->src;
    if (type[i] == mjWRAP_JOINT) {
      return tn__compileFail(c, src, NULL, "spatial tendons cannot contain joints");
    }
    if (type[i] != mjWRAP_PULLEY && (first || last) && type[i] != mjWRAP_SITE) {
      return tn__compileFail(c, src, NULL, "spatial tendon path must start and end with a site");
    }
    if (type[i] == mjWRAP_SITE && first && last) {
      return tn__compileFail(c, src, NULL, "a site needs a neighbor that is not a pulley");
    }
    if (geom && (type[i - 1] != mjWRAP_SITE || type[i + 1] != mjWRAP_SITE)) {
      return tn__compileFail(c, src, NULL, "a wrapping geom must be between two sites");
    }
  }
  return 1;
}

/* one tendon */
static int compile_tendon(tnCompiler* c, int i) {
  mjModel* m = c->m;
  const tnSpecTendon* t = TN_AT(c->spec->tendons, tnSpecTendon, i);
  m->tendon_adr[i] = t->wrapadr;
  m->tendon_num[i] = t->wrapnum;
  for (int w = t->wrapadr; w < t->wrapadr + t->wrapnum; w++) {
    if (!t->spatial && TN_AT(c->spec->wraps, tnSpecWrap, w)->type != mjWRAP_JOINT) {
      return tn__compileFail(c, t->src, NULL, "fixed tendons contain only joints");
    }
    if (!compile_wrap(c, w, t->spatial)) {
      return 0;
    }
  }
  if (t->spatial && !check_path(c, t)) {
    return 0;
  }
  if (t->spatial && !(t->width > 0)) {
    return tn__compileFail(c, t->src, "width", "spatial tendons must have positive width");
  }

  // limits and properties
  int limited = 0, actlimited = 0;
  if (!tn__compileLimited(c, t->limited, t->range, t->src, "limited", "range", &limited) ||
      !tn__compileLimited(c, t->actfrclimited, t->actfrcrange, t->src, "actuatorfrclimited",
                          "actuatorfrcrange", &actlimited)) {
    return 0;
  }
  m->tendon_limited[i] = (mjtByte)limited;
  m->tendon_actfrclimited[i] = (mjtByte)actlimited;
  m->tendon_group[i] = t->group;
  m->tendon_width[i] = t->width;
  mju_copy(m->tendon_solref_lim + mjNREF * i, t->solref_limit, mjNREF);
  mju_copy(m->tendon_solimp_lim + mjNIMP * i, t->solimp_limit, mjNIMP);
  mju_copy(m->tendon_solref_fri + mjNREF * i, t->solref_friction, mjNREF);
  mju_copy(m->tendon_solimp_fri + mjNIMP * i, t->solimp_friction, mjNIMP);
  mju_copy(m->tendon_range + 2 * i, t->range, 2);
  mju_copy(m->tendon_actfrcrange + 2 * i, t->actfrcrange, 2);
  m->tendon_margin[i] = t->margin;
  m->tendon_stiffness[i] = t->stiffness;
  m->tendon_damping[i] = t->damping;
  m->tendon_armature[i] = t->armature;
  m->tendon_frictionloss[i] = t->frictionloss;
  mju_copy(m->tendon_lengthspring + 2 * i, t->springlength, 2);
  memcpy(m->tendon_rgba + 4 * i, t->rgba, sizeof(float) * 4);
  m->tendon_matid[i] = -1;
  if (t->material && t->material[0]) {
    m->tendon_matid[i] = tn__compileRequire(c, mjOBJ_MATERIAL, t->material, t->src, "material");
    if (m->tendon_matid[i] < 0) {
      return 0;
    }
  }
  return tn__compileUser(c, m->tendon_user + m->nuser_tendon * i, m->nuser_tendon, &t->user,
                         t->src);
}

int tn__tendonJacBound(const tnSpec* s, int nv) {
  long long total = 0;
  for (int i = 0; i < s->tendons.n; i++) {
    const tnSpecTendon* t = TN_AT(s->tendons, tnSpecTendon, i);
    total += t->spatial ? nv : t->wrapnum;
  }
  return total > INT_MAX ? INT_MAX : (int)total;
}

/* the columns of tendon t's Jacobian row (MuJoCo's order) into cols; returns their count */
static int tendon_cols(const mjModel* m, int t, int* cols, int* mark) {
  int adr = m->tendon_adr[t], num = m->tendon_num[t];
  if (num == 0) {
    return 0;
  }
  if (m->wrap_type[adr] != mjWRAP_JOINT) {
    return tn__tendonPattern(m, t, cols, mark);
  }

  // fixed: each joint's dof, ascending (insertion sort: short lists), repeats kept
  for (int k = 0; k < num; k++) {
    int dof = m->jnt_dofadr[m->wrap_objid[adr + k]], j = k - 1;
    for (; j >= 0 && cols[j] > dof; j--) {
      cols[j + 1] = cols[j];
    }
    cols[j + 1] = dof;
  }
  return num;
}

/* the model again with nJten entries of ten_J_colind (every other array copied) */
static int shrink_model(tnCompiler* c, int nJten) {
  mjModel* old = c->m;
  mjModel sizes = *old;
  sizes.nJten = nJten;
  mjModel* m = tn__allocModel(&sizes);
  if (!m) {
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }

  // scalars and options from the old model, arrays in the new buffer
  mjModel fresh = *m;
  *m = *old;
  m->nJten = nJten;
  m->buffer = fresh.buffer;
  m->nbuffer = fresh.nbuffer;
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols)                                          \
  m->name = fresh.name;                                                    \
  memcpy(m->name, old->name, sizeof(type) * (size_t)m->rows * (cols));
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  mj_deleteModel(old);
  c->m = m;
  return 1;
}

/* nJten and the pattern of every tendon's Jacobian row */
static int tendon_patterns(tnCompiler* c) {
  mjModel* m = c->m;
  size_t n = (size_t)m->nv + 1;
  int* cols = malloc(sizeof(int) * n);
  int* mark = calloc(n, sizeof(int));
  if (!cols || !mark) {
    free(cols);
    free(mark);
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }

  // the exact size first, then the model shrunk to it and the rows filled
  int total = 0;
  for (int t = 0; t < m->ntendon; t++) {
    total += tendon_cols(m, t, cols, mark);
  }
  int ok = total == m->nJten || shrink_model(c, total);
  m = c->m;
  int adr = 0;
  for (int t = 0; ok && t < m->ntendon; t++) {
    int nnz = tendon_cols(m, t, m->ten_J_colind + adr, mark);
    m->ten_J_rowadr[t] = adr;
    m->ten_J_rownnz[t] = nnz;
    adr += nnz;
  }
  free(cols);
  free(mark);
  return ok;
}

int tn__compileTendons(tnCompiler* c) {
  for (int i = 0; i < c->m->ntendon; i++) {
    if (!compile_tendon(c, i)) {
      return 0;
    }
  }
  return tendon_patterns(c);
}

/* ---------------------------------------------------------------------------------------
 * equality constraints
 * ------------------------------------------------------------------------------------- */

/* connect/weld objects: bodies (body2 defaults to the world) or sites */
static int eq_frames(tnCompiler* c, int i, const tnSpecEquality* e) {
  mjModel* m = c->m;
  int type = e->use_sites ? mjOBJ_SITE : mjOBJ_BODY;
  const char* a1 = e->use_sites ? "site1" : "body1";
  const char* a2 = e->use_sites ? "site2" : "body2";
  m->eq_objtype[i] = type;
  m->eq_obj1id[i] = tn__compileRequire(c, type, e->name1, e->src, a1);
  if (m->eq_obj1id[i] < 0) {
    return 0;
  }
  m->eq_obj2id[i] = e->name2 ? tn__compileRequire(c, type, e->name2, e->src, a2) : 0;
  return m->eq_obj2id[i] >= 0;
}

/* joint/tendon objects: scalar joints, optional second object */
static int eq_scalars(tnCompiler* c, int i, const tnSpecEquality* e) {
  mjModel* m = c->m;
  int joint = e->type == mjEQ_JOINT;
  int type = joint ? mjOBJ_JOINT : mjOBJ_TENDON;
  const char* a1 = joint ? "joint1" : "tendon1";
  const char* a2 = joint ? "joint2" : "tendon2";
  m->eq_objtype[i] = mjOBJ_UNKNOWN;
  m->eq_obj1id[i] = tn__compileRequire(c, type, e->name1, e->src, a1);
  m->eq_obj2id[i] = -1;
  if (m->eq_obj1id[i] < 0) {
    return 0;
  }
  if (e->name2) {
    m->eq_obj2id[i] = tn__compileRequire(c, type, e->name2, e->src, a2);
    if (m->eq_obj2id[i] < 0) {
      return 0;
    }
  }
  for (int k = 0; joint && k < 2; k++) {
    int j = k ? m->eq_obj2id[i] : m->eq_obj1id[i];
    if (j >= 0 && m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) {
      return tn__compileFail(c, e->src, k ? a2 : a1, "only hinge and slide joints");
    }
  }
  return 1;
}

/* one equality */
static int compile_equality(tnCompiler* c, int i) {
  mjModel* m = c->m;
  const tnSpecEquality* e = TN_AT(c->spec->equalities, tnSpecEquality, i);
  mjtNum* data = m->eq_data + mjNEQDATA * i;
  m->eq_type[i] = e->type;
  m->eq_active0[i] = (mjtByte)e->active;
  mju_copy(m->eq_solref + mjNREF * i, e->solref, mjNREF);
  mju_copy(m->eq_solimp + mjNIMP * i, e->solimp, mjNIMP);
  if (e->type == mjEQ_CONNECT || e->type == mjEQ_WELD) {
    if (!eq_frames(c, i, e)) {
      return 0;
    }
    // site-based: MuJoCo stores no anchor/pose (connect: all zero, weld: its fixed pattern)
    if (e->use_sites) {
      if (e->type == mjEQ_WELD) {
        data[1] = 1;
        data[10] = e->torquescale;
      }
      return 1;
    }
    mju_copy3(data, e->anchor);
    if (e->type == mjEQ_WELD) {
      mju_copy(data + 3, e->relpose, 7);
    }
  } else if (!eq_scalars(c, i, e)) {
    return 0;
  } else {
    mju_copy(data, e->polycoef, 5);
  }
  data[10] = e->torquescale;
  return 1;
}

int tn__compileEqualities(tnCompiler* c) {
  for (int i = 0; i < c->m->neq; i++) {
    if (!compile_equality(c, i)) {
      return 0;
    }
  }
  return 1;
}
