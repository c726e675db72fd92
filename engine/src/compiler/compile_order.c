/* compiler/compile_order.c — the first compile stage: numbering and sizes.
 *
 * MuJoCo numbers joints, geoms, sites, cameras and lights body by body (all objects of
 * body 1, then of body 2, ...), in document order within a body. This stage computes those
 * permutations, the per-body joint and dof counts and addresses, the dof tree
 * (dof_parentid), and every size of the model, so the model can be allocated at once. */
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* qpos and qvel dimensions of a joint type */
int tn__jointNq(int type) {
  return type == mjJNT_FREE ? 7 : type == mjJNT_BALL ? 4 : 1;
}
int tn__jointNv(int type) {
  return type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
}

/* the body of spec object i, per body-grouped family */
static int jnt_body(const tnSpec* s, int i) {
  return TN_AT(s->joints, tnSpecJoint, i)->body;
}
static int geom_body(const tnSpec* s, int i) {
  return TN_AT(s->geoms, tnSpecGeom, i)->body;
}
static int site_body(const tnSpec* s, int i) {
  return TN_AT(s->sites, tnSpecSite, i)->body;
}
static int cam_body(const tnSpec* s, int i) {
  return TN_AT(s->cameras, tnSpecCamera, i)->body;
}
static int light_body(const tnSpec* s, int i) {
  return TN_AT(s->lights, tnSpecLight, i)->body;
}

/* stable grouping of n objects by body (counting sort): order[k] = spec index,
 * id[spec index] = k */
static int group_by_body(const tnSpec* s, int n, int (*body)(const tnSpec*, int), int** order,
                         int** id) {
  int nb = s->bodies.n;
  *order = malloc(sizeof(int) * (size_t)(n ? n : 1));
  *id = malloc(sizeof(int) * (size_t)(n ? n : 1));
  int* start = calloc((size_t)nb + 1, sizeof(int));
  if (!*order || !*id || !start) {
    free(start);
    return 0;
  }

  // first model id of each body's objects, then place in document order
  for (int i = 0; i < n; i++) {
    start[body(s, i) + 1]++;
  }
  for (int b = 0; b < nb; b++) {
    start[b + 1] += start[b];
  }
  for (int i = 0; i < n; i++) {
    int k = start[body(s, i)]++;
    (*order)[k] = i;
    (*id)[i] = k;
  }
  free(start);
  return 1;
}

/* per-body joint/dof counts and addresses, and dof_parentid */
static int count_dofs(tnCompiler* c, int* nq, int* nv) {
  tnSpec* s = c->spec;
  int nb = s->bodies.n;
  c->body_jntnum = calloc((size_t)nb, sizeof(int));
  c->body_jntadr = calloc((size_t)nb, sizeof(int));
  c->body_dofnum = calloc((size_t)nb, sizeof(int));
  c->body_dofadr = calloc((size_t)nb, sizeof(int));
  if (!c->body_jntnum || !c->body_jntadr || !c->body_dofnum || !c->body_dofadr) {
    return 0;
  }

  // joints are contiguous per body in model order
  *nq = *nv = 0;
  for (int k = 0; k < s->joints.n; k++) {
    const tnSpecJoint* j = TN_AT(s->joints, tnSpecJoint, c->jnt_order[k]);
    if (c->body_jntnum[j->body]++ == 0) {
      c->body_jntadr[j->body] = k;
    }
    c->body_dofnum[j->body] += tn__jointNv(j->type);
    *nq += tn__jointNq(j->type);
  }
  for (int b = 0; b < nb; b++) {
    c->body_dofadr[b] = c->body_dofnum[b] ? *nv : -1;
    *nv += c->body_dofnum[b];
    if (!c->body_jntnum[b]) {
      c->body_jntadr[b] = -1;
    }
  }

  // dof tree: previous dof in the body, else the last dof of the nearest moving ancestor
  c->dof_parentid = malloc(sizeof(int) * (size_t)(*nv ? *nv : 1));
  if (!c->dof_parentid) {
    return 0;
  }
  for (int b = 0; b < nb; b++) {
    int parent = -1;
    for (int a = TN_AT(s->bodies, tnSpecBody, b)->parent; a > 0;
         a = TN_AT(s->bodies, tnSpecBody, a)->parent) {
      if (c->body_dofnum[a]) {
        parent = c->body_dofadr[a] + c->body_dofnum[a] - 1;
        break;
      }
    }
    for (int k = 0; k < c->body_dofnum[b]; k++) {
      int dof = c->body_dofadr[b] + k;
      c->dof_parentid[dof] = k ? dof - 1 : parent;
    }
  }
  return 1;
}

/* longest user array of an object family, checked against the <size> setting */
#define USER_WIDTH(vec, type, setting, label)                                                \
  do {                                                                                       \
    int w = 0;                                                                               \
    for (int i = 0; i < s->vec.n; i++) {                                                     \
      const type* o = TN_AT(s->vec, type, i);                                                \
      if (s->setting >= 0 && o->user.n > s->setting) {                                       \
        return tn__compileFail(c, o->src, "user", "%d values but nuser_%s is %d", o->user.n, \
                               label, s->setting);                                           \
      }                                                                                      \
      w = o->user.n > w ? o->user.n : w;                                                     \
    }                                                                                        \
    sz->setting = s->setting >= 0 ? s->setting : w;                                          \
  } while (0)

/* widths of the user arrays */
static int user_sizes(tnCompiler* c, mjModel* sz) {
  tnSpec* s = c->spec;
  USER_WIDTH(bodies, tnSpecBody, nuser_body, "body");
  USER_WIDTH(joints, tnSpecJoint, nuser_jnt, "jnt");
  USER_WIDTH(geoms, tnSpecGeom, nuser_geom, "geom");
  USER_WIDTH(sites, tnSpecSite, nuser_site, "site");
  USER_WIDTH(cameras, tnSpecCamera, nuser_cam, "cam");
  USER_WIDTH(tendons, tnSpecTendon, nuser_tendon, "tendon");
  USER_WIDTH(actuators, tnSpecActuator, nuser_actuator, "actuator");
  USER_WIDTH(sensors, tnSpecSensor, nuser_sensor, "sensor");
  return 1;
}

/* counts of bodies with a property */
static void body_counts(const tnSpec* s, mjModel* sz) {
  for (int b = 1; b < s->bodies.n; b++) {
    const tnSpecBody* body = TN_AT(s->bodies, tnSpecBody, b);
    sz->nmocap += body->mocap != 0;
    sz->ngravcomp += body->gravcomp != 0;
  }
}

/* number of kinematic trees: moving bodies whose parent is welded to the world */
static int count_trees(const tnCompiler* c) {
  const tnSpec* s = c->spec;
  int ntree = 0;
  int* weld = malloc(sizeof(int) * (size_t)s->bodies.n);
  if (!weld) {
    return -1;
  }
  weld[0] = 0;
  for (int b = 1; b < s->bodies.n; b++) {
    int p = TN_AT(s->bodies, tnSpecBody, b)->parent;
    weld[b] = c->body_jntnum[b] || TN_AT(s->bodies, tnSpecBody, b)->mocap ? b : weld[p];
    ntree += c->body_jntnum[b] && weld[p] == 0;
  }
  free(weld);
  return ntree;
}

/* largest count of any data array (elements) */
#define TN_MAX_DATA (1LL << 28)

/* data sizes of assets and custom elements, checked against TN_MAX_DATA */
static int asset_sizes(tnCompiler* c, mjModel* sz) {
  const tnSpec* s = c->spec;
  long long hf = 0, num = 0, text = 0;
  for (int i = 0; i < s->hfields.n; i++) {
    const tnSpecHField* h = TN_AT(s->hfields, tnSpecHField, i);
    hf += (long long)h->nrow * h->ncol;
  }
  for (int i = 0; i < s->numerics.n; i++) {
    const tnSpecNumeric* n = TN_AT(s->numerics, tnSpecNumeric, i);
    num += n->size > n->ndata ? n->size : n->ndata;
  }
  for (int i = 0; i < s->texts.n; i++) {
    text += (long long)strlen(TN_AT(s->texts, tnSpecText, i)->data) + 1;
  }
  if (hf > TN_MAX_DATA || num > TN_MAX_DATA || text > TN_MAX_DATA) {
    return tn__compileFail(c, NULL, NULL, "model too large (%s data)",
                           hf > TN_MAX_DATA    ? "height field"
                           : num > TN_MAX_DATA ? "numeric"
                                               : "text");
  }
  sz->nhfielddata = (int)hf;
  sz->nnumericdata = (int)num;
  sz->ntextdata = (int)text;
  return 1;
}

/* total bytes of the model's arrays must stay reasonable (huge nkey or nuser_* values) */
static int check_total(tnCompiler* c, const mjModel* sz) {
  double bytes = 0;
#define MJ_M(n) ((double)sz->n)
#define X(type, name, rows, cols) bytes += (double)sizeof(type) * (double)sz->rows * (cols);
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  if (bytes > (double)(1LL << 32)) {
    return tn__compileFail(c, NULL, NULL, "model too large (%.3g bytes)", bytes);
  }
  return 1;
}

/* fill every size of the model into sz */
int tn__compileOrderSizes(tnCompiler* c, mjModel* sz) {
  tnSpec* s = c->spec;
  memset(sz, 0, sizeof(*sz));
  int nq, nv;

  // body-grouped numbering
  if (!group_by_body(s, s->joints.n, jnt_body, &c->jnt_order, &c->jnt_id) ||
      !group_by_body(s, s->geoms.n, geom_body, &c->geom_order, &c->geom_id) ||
      !group_by_body(s, s->sites.n, site_body, &c->site_order, &c->site_id) ||
      !group_by_body(s, s->cameras.n, cam_body, &c->cam_order, &c->cam_id) ||
      !group_by_body(s, s->lights.n, light_body, &c->light_order, &c->light_id) ||
      !count_dofs(c, &nq, &nv)) {
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }
  sz->nq = nq;
  sz->nv = nv;

  // object counts
  sz->nbody = s->bodies.n;
  sz->njnt = s->joints.n;
  sz->ngeom = s->geoms.n;
  sz->nsite = s->sites.n;
  sz->ncam = s->cameras.n;
  sz->nlight = s->lights.n;
  sz->nhfield = s->hfields.n;
  sz->ntex = s->textures.n;
  sz->nmat = s->materials.n;
  sz->npair = s->pairs.n;
  sz->nexclude = s->excludes.n;
  sz->neq = s->equalities.n;
  sz->ntendon = s->tendons.n;
  sz->nwrap = s->wraps.n;
  sz->nu = s->actuators.n;
  sz->nsensor = s->sensors.n;
  sz->nnumeric = s->numerics.n;
  sz->ntext = s->texts.n;
  sz->ntuple = s->tuples.n;
  sz->ntupledata = s->tuple_elems.n;
  sz->nkey = s->keys.n > s->nkey ? s->keys.n : s->nkey;
  body_counts(s, sz);
  tn__compileMeshSizes(c, sz);
  tn__compilePluginSizes(s, sz);
  if (!asset_sizes(c, sz) || !user_sizes(c, sz)) {
    return 0;
  }

  // activations and sensor data
  for (int i = 0; i < s->actuators.n; i++) {
    const tnSpecActuator* a = TN_AT(s->actuators, tnSpecActuator, i);
    sz->na += a->actdim >= 0 ? a->actdim : (a->dyntype != mjDYN_NONE);
  }
  for (int i = 0; i < s->sensors.n; i++) {
    sz->nsensordata += tn__sensorDim(TN_AT(s->sensors, tnSpecSensor, i));
  }

  // trees, names, memory settings
  sz->ntree = count_trees(c);
  if (sz->ntree < 0) {
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }
  sz->nnames = tn__countNames(s);
  sz->njmax = s->njmax;
  sz->nconmax = s->nconmax;
  sz->nemax = 0;
  sz->nuserdata = s->nuserdata;

  // sparse patterns of the inertia
  int* body_parent = malloc(sizeof(int) * (size_t)sz->nbody);
  if (!body_parent) {
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }
  for (int b = 0; b < sz->nbody; b++) {
    body_parent[b] = TN_AT(s->bodies, tnSpecBody, b)->parent;
  }
  int nM, nC, nD, nB;
  tn__countSparsity(sz->nv, c->dof_parentid, sz->nbody, body_parent, c->body_dofnum, c->body_dofadr,
                    &nM, &nC, &nD, &nB);
  sz->nM = nM;
  sz->nC = nC;
  sz->nD = nD;
  sz->nB = nB;
  free(body_parent);

  // a bound of the tendon Jacobian's entries (made exact once the paths are compiled)
  sz->nJten = tn__tendonJacBound(s, sz->nv);
  return check_total(c, sz);
}

/* free the ordering arrays */
void tn__compileOrderFree(tnCompiler* c) {
  int* arrays[] = {c->jnt_order,   c->jnt_id,        c->geom_order,   c->geom_id,
                   c->site_order,  c->site_id,       c->cam_order,    c->cam_id,
                   c->light_order, c->light_id,      c->body_jntnum,  c->body_jntadr,
                   c->body_dofnum, c->body_dofadr,   c->dof_parentid, c->pair_order,
                   c->pair_id,     c->exclude_order, c->exclude_id};
  for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
    free(arrays[i]);
  }
}
