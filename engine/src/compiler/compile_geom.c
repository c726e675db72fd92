/* compiler/compile_geom.c — geoms, sites, cameras and lights: frames (pos/orientation or
 * fromto), sizes checked per type (mesh geoms: frame and bounds from their mesh), contact
 * properties, materials and fluid parameters. */
#include <math.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* number of size parameters a primitive type requires */
static int required_sizes(int type) {
  switch (type) {
    case mjGEOM_SPHERE: return 1;
    case mjGEOM_CAPSULE:
    case mjGEOM_CYLINDER: return 2;
    case mjGEOM_ELLIPSOID:
    case mjGEOM_BOX: return 3;
    default: return 0;
  }
}

/* frame and size of a geom or site in its own <frame> (fromto, or pos + orientation), then
 * the enclosing <frame> pose applied */
static int compile_frame(tnCompiler* c, int type, int has_fromto, const mjtNum fromto[6],
                         const mjtNum pos_in[3], const tnOrientation* orient, const tnFrame* frame,
                         const tnSrcPos* src, mjtNum pos[3], mjtNum quat[4], mjtNum size[3]) {
  if (has_fromto) {
    char why[256] = "";
    if (!tn__fromtoFrame(type, fromto, pos, quat, size, why, sizeof(why))) {
      return tn__compileFail(c, src, "fromto", "%s", why[0] ? why : "invalid fromto");
    }
  } else {
    mju_copy3(pos, pos_in);
    if (!tn__compileQuat(c, quat, orient, src)) {
      return 0;
    }
  }
  tn__frameApply(frame, pos, quat);
  return 1;
}

/* positive sizes for the type */
static int check_sizes(tnCompiler* c, int type, const mjtNum size[3], const tnSrcPos* src,
                       const char* what) {
  for (int i = 0; i < required_sizes(type); i++) {
    if (!(size[i] > 0)) {
      return tn__compileFail(c, src, "size", "size %d must be positive in %s", i, what);
    }
  }
  return 1;
}

/* a material reference */
static int material_id(tnCompiler* c, const char* name, const tnSrcPos* src) {
  if (!name || !name[0]) {
    return -1;
  }
  return tn__compileRequire(c, mjOBJ_MATERIAL, name, src, "material");
}

/* a mesh geom: its frame composed with the mesh frame, size, rbound and aabb from the
 * mesh's vertices (const_frames.c keeps these bounds) */
static int compile_mesh_geom(tnCompiler* c, int id, const tnSpecGeom* g) {
  mjModel* m = c->m;
  int mid;
  const tnMesh* mesh = tn__compileGeomMesh(c, g, &mid);
  if (!mesh) {
    return 0;
  }
  if (g->shellinertia) {
    return tn__compileFail(c, g->src, "shellinertia",
                           "for mesh geoms, inertia should be specified in the mesh asset");
  }
  if (g->has_fromto) {
    return tn__compileFail(c, g->src, "fromto", "fromto is not implemented yet for mesh geoms");
  }
  m->geom_dataid[id] = mid;

  // the mesh frame composed with the geom's own pose, then the enclosing <frame> (MuJoCo's
  // order)
  mjtNum pos[3], quat[4];
  mjtNum* gpos = m->geom_pos + 3 * id;
  mjtNum* gquat = m->geom_quat + 4 * id;
  mju_copy3(pos, g->pos);
  if (!tn__compileQuat(c, quat, &g->orient, g->src)) {
    return 0;
  }
  tn__meshGeomFrame(mesh, pos, quat, gpos, gquat);
  tn__frameApply(&g->frame, gpos, gquat);
  tn__meshGeomBounds(mesh, m->geom_size + 3 * id, m->geom_rbound + id, m->geom_aabb + 6 * id);
  return 1;
}

/* a primitive fitted to a mesh: size from the mesh (fitaabb, fitscale), and its frame: the
 * geom's pose composed with the fitted center and the mesh orientation, then the enclosing
 * <frame> (as for mesh geoms); the geom keeps the mesh as its dataid */
static int compile_fitted_geom(tnCompiler* c, int id, const tnSpecGeom* g) {
  mjModel* m = c->m;
  if (g->has_fromto) {
    return tn__compileFail(c, g->src, "fromto", "fromto cannot be used with mesh geom");
  }
  int mid;
  const tnMesh* mesh = tn__compileGeomMesh(c, g, &mid);
  if (!mesh) {
    return 0;
  }
  m->geom_dataid[id] = mid;

  // fitted size and center
  char why[256] = "";
  mjtNum meshpos[3];
  if (!tn__meshFitGeom(mesh, g->type, c->spec->compiler.fitaabb, g->fitscale, m->geom_size + 3 * id,
                       meshpos, why, sizeof(why))) {
    return tn__compileFail(c, g->src, "type", "%s", why);
  }

  // pose: geom frame, then the fitted center and the mesh orientation, then <frame>
  mjtNum pos[3], quat[4], mat[9], off[3];
  mju_copy3(pos, g->pos);
  if (!tn__compileQuat(c, quat, &g->orient, g->src)) {
    return 0;
  }
  mju_quat2Mat(mat, quat);
  mju_mulMatVec3(off, mat, meshpos);
  mjtNum* gpos = m->geom_pos + 3 * id;
  mjtNum* gquat = m->geom_quat + 4 * id;
  for (int k = 0; k < 3; k++) {
    gpos[k] = pos[k] + off[k];
  }
  mju_mulQuat(gquat, quat, mesh->quat);
  tn__frameApply(&g->frame, gpos, gquat);
  return check_sizes(c, g->type, m->geom_size + 3 * id, g->src, "geom");
}

/* the type-specific part of a geom: hfields, meshes, sizes */
static int compile_geom_shape(tnCompiler* c, int id, const tnSpecGeom* g) {
  mjModel* m = c->m;
  mjtNum* size = m->geom_size + 3 * id;
  m->geom_dataid[id] = -1;
  if (g->type == mjGEOM_MESH) {
    return compile_mesh_geom(c, id, g);
  }
  if (g->type == mjGEOM_SDF) {
    return tn__compileFail(c, g->src, "type", "sdf geoms are not implemented yet");
  }
  if (g->mesh) {
    return compile_fitted_geom(c, id, g);
  }
  if (g->type == mjGEOM_SDF) {
    return tn__compileFail(c, g->src, "type", "sdf geoms are not implemented yet");
  }
  if (g->type == mjGEOM_HFIELD) {
    if (!g->hfield) {
      return tn__compileFail(c, g->src, "hfield", "hfield geom needs an hfield asset");
    }
    int h = tn__compileRequire(c, mjOBJ_HFIELD, g->hfield, g->src, "hfield");
    if (h < 0) {
      return 0;
    }
    const mjtNum* hs = TN_AT(c->spec->hfields, tnSpecHField, h)->size;
    m->geom_dataid[id] = h;
    size[0] = hs[0];
    size[1] = hs[1];
    size[2] = 0.25 * hs[2] + 0.5 * hs[3];
    return 1;
  }
  if (g->hfield) {
    return tn__compileFail(c, g->src, "hfield", "only hfield geoms can reference an hfield");
  }
  if (g->type == mjGEOM_PLANE && m->body_weldid[g->body] != 0) {
    return tn__compileFail(c, g->src, "type", "plane only allowed in static bodies");
  }
  if (g->type == mjGEOM_PLANE && !(size[2] > 0)) {
    return tn__compileFail(c, g->src, "size", "plane size(3) must be positive");
  }
  return check_sizes(c, g->type, size, g->src, "geom");
}

/* one geom */
static int compile_geom(tnCompiler* c, int id, const tnSpecGeom* g) {
  mjModel* m = c->m;
  m->geom_type[id] = g->type;
  m->geom_bodyid[id] = g->body;
  mju_copy3(m->geom_size + 3 * id, g->size);
  if (!compile_frame(c, g->type, g->has_fromto, g->fromto, g->pos, &g->orient, &g->frame, g->src,
                     m->geom_pos + 3 * id, m->geom_quat + 4 * id, m->geom_size + 3 * id) ||
      !compile_geom_shape(c, id, g)) {
    return 0;
  }
  tn__frameApply(&g->fuse, m->geom_pos + 3 * id, m->geom_quat + 4 * id);

  // mass properties as written, contact properties
  if ((!isnan(g->mass) && g->mass < 0) || g->density < 0) {
    return tn__compileFail(c, g->src, g->density < 0 ? "density" : "mass",
                           "mass, inertia or density are negative in geom");
  }
  if (g->condim != 1 && g->condim != 3 && g->condim != 4 && g->condim != 6) {
    return tn__compileFail(c, g->src, "condim", "must be 1, 3, 4 or 6");
  }
  m->geom_contype[id] = g->contype;
  m->geom_conaffinity[id] = g->conaffinity;
  m->geom_condim[id] = g->condim;
  m->geom_group[id] = g->group;
  m->geom_priority[id] = g->priority;
  m->geom_solmix[id] = g->solmix;
  mju_copy(m->geom_solref + mjNREF * id, g->solref, mjNREF);
  mju_copy(m->geom_solimp + mjNIMP * id, g->solimp, mjNIMP);
  mju_copy3(m->geom_friction + 3 * id, g->friction);
  m->geom_margin[id] = g->margin;
  m->geom_gap[id] = g->gap;

  // appearance and fluid model
  m->geom_matid[id] = material_id(c, g->material, g->src);
  if (g->material && m->geom_matid[id] < 0) {
    return 0;
  }
  memcpy(m->geom_rgba + 4 * id, g->rgba, sizeof(float) * 4);
  mjtNum* fluid = m->geom_fluid + mjNFLUID * id;
  fluid[0] = g->fluidshape == 1;
  if (g->fluidshape == 1) {
    mju_copy(fluid + 1, g->fluidcoef, 5);
  }
  return tn__compileUser(c, m->geom_user + m->nuser_geom * id, m->nuser_geom, &g->user, g->src);
}

/* geoms in model order, and the per-body geom counts and contact summaries */
int tn__compileGeoms(tnCompiler* c) {
  mjModel* m = c->m;
  for (int b = 0; b < m->nbody; b++) {
    m->body_geomadr[b] = -1;
  }
  for (int id = 0; id < m->ngeom; id++) {
    const tnSpecGeom* g = TN_AT(c->spec->geoms, tnSpecGeom, c->geom_order[id]);
    if (!compile_geom(c, id, g)) {
      return 0;
    }
    int b = g->body;
    if (m->body_geomnum[b]++ == 0) {
      m->body_geomadr[b] = id;
    }
    m->body_contype[b] |= g->contype;
    m->body_conaffinity[b] |= g->conaffinity;
    if (g->margin + g->gap > m->body_margin[b]) {
      m->body_margin[b] = g->margin + g->gap;
    }
  }
  return 1;
}

/* sites in model order */
int tn__compileSites(tnCompiler* c) {
  mjModel* m = c->m;
  for (int id = 0; id < m->nsite; id++) {
    const tnSpecSite* s = TN_AT(c->spec->sites, tnSpecSite, c->site_order[id]);
    m->site_type[id] = s->type;
    m->site_bodyid[id] = s->body;
    m->site_group[id] = s->group;
    mju_copy3(m->site_size + 3 * id, s->size);
    if (s->type == mjGEOM_MESH || s->type == mjGEOM_HFIELD || s->type == mjGEOM_SDF ||
        s->type == mjGEOM_PLANE) {
      return tn__compileFail(c, s->src, "type", "site type must be a primitive solid");
    }
    if (!compile_frame(c, s->type, s->has_fromto, s->fromto, s->pos, &s->orient, &s->frame, s->src,
                       m->site_pos + 3 * id, m->site_quat + 4 * id, m->site_size + 3 * id) ||
        !check_sizes(c, s->type, m->site_size + 3 * id, s->src, "site")) {
      return 0;
    }
    tn__frameApply(&s->fuse, m->site_pos + 3 * id, m->site_quat + 4 * id);
    m->site_matid[id] = material_id(c, s->material, s->src);
    if (s->material && m->site_matid[id] < 0) {
      return 0;
    }
    memcpy(m->site_rgba + 4 * id, s->rgba, sizeof(float) * 4);
    if (!tn__compileUser(c, m->site_user + m->nuser_site * id, m->nuser_site, &s->user, s->src)) {
      return 0;
    }
  }
  return 1;
}

/* target body of a tracking camera or light */
static int target_body(tnCompiler* c, int mode, const char* target, const tnSrcPos* src,
                       int* out) {
  *out = -1;
  int needs = mode == mjCAMLIGHT_TARGETBODY || mode == mjCAMLIGHT_TARGETBODYCOM;
  if (needs && !target) {
    return tn__compileFail(c, src, "target", "required by mode targetbody/targetbodycom");
  }
  if (needs) {
    *out = tn__compileRequire(c, mjOBJ_BODY, target, src, "target");
    return *out >= 0;
  }
  return 1;
}

/* one camera */
static int compile_camera(tnCompiler* c, int id, const tnSpecCamera* s) {
  mjModel* m = c->m;
  m->cam_mode[id] = s->mode;
  m->cam_bodyid[id] = s->body;
  mju_copy3(m->cam_pos + 3 * id, s->pos);
  m->cam_fovy[id] = s->fovy;
  m->cam_ipd[id] = s->ipd;
  if (!tn__compileQuat(c, m->cam_quat + 4 * id, &s->orient, s->src)) {
    return 0;
  }
  tn__frameApply(&s->frame, m->cam_pos + 3 * id, m->cam_quat + 4 * id);
  return target_body(c, s->mode, s->target, s->src, &m->cam_targetbodyid[id]) &&
         tn__compileUser(c, m->cam_user + m->nuser_cam * id, m->nuser_cam, &s->user, s->src);
}

/* one light */
static int compile_light(tnCompiler* c, int id, const tnSpecLight* s) {
  mjModel* m = c->m;
  m->light_mode[id] = s->mode;
  m->light_bodyid[id] = s->body;
  m->light_type[id] = s->directional ? mjLIGHT_DIRECTIONAL : s->type;
  m->light_castshadow[id] = (mjtByte)s->castshadow;
  m->light_active[id] = (mjtByte)s->active;
  mju_copy3(m->light_pos + 3 * id, s->pos);
  tn__frameApply(&s->frame, m->light_pos + 3 * id, NULL);
  mjtNum* dir = m->light_dir + 3 * id;
  mju_copy3(dir, s->dir);
  tn__frameRotate(&s->frame, dir);
  if (mju_norm3(dir) < mjMINVAL) {
    return tn__compileFail(c, s->src, "dir", "light direction cannot be zero");
  }
  mju_normalize3(dir);
  memcpy(m->light_attenuation + 3 * id, s->attenuation, sizeof(float) * 3);
  m->light_cutoff[id] = s->cutoff;
  m->light_exponent[id] = s->exponent;
  memcpy(m->light_ambient + 3 * id, s->ambient, sizeof(float) * 3);
  memcpy(m->light_diffuse + 3 * id, s->diffuse, sizeof(float) * 3);
  memcpy(m->light_specular + 3 * id, s->specular, sizeof(float) * 3);
  return target_body(c, s->mode, s->target, s->src, &m->light_targetbodyid[id]);
}

/* cameras and lights in model order */
int tn__compileCamLights(tnCompiler* c) {
  for (int id = 0; id < c->m->ncam; id++) {
    if (!compile_camera(c, id, TN_AT(c->spec->cameras, tnSpecCamera, c->cam_order[id]))) {
      return 0;
    }
  }
  for (int id = 0; id < c->m->nlight; id++) {
    if (!compile_light(c, id, TN_AT(c->spec->lights, tnSpecLight, c->light_order[id]))) {
      return 0;
    }
  }
  return 1;
}
