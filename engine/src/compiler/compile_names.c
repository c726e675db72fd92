/* compiler/compile_names.c — names: uniqueness, lookup by type, and the packed m->names
 * buffer (model name first, then every object's name or an empty string, in MuJoCo's order
 * of object types). */
#include <stddef.h>
#include <string.h>

#include "compiler/compile_internal.h"

/* name and source element of spec object i of each named family */
#define FAMILY(fn, vec, type)                                \
  static const char* fn##_name(const tnSpec* s, int i) {     \
    return TN_AT(s->vec, type, i)->name;                     \
  }                                                          \
  static const tnSrcPos* fn##_src(const tnSpec* s, int i) {  \
    return TN_AT(s->vec, type, i)->src;                      \
  }
FAMILY(body, bodies, tnSpecBody)
FAMILY(joint, joints, tnSpecJoint)
FAMILY(geom, geoms, tnSpecGeom)
FAMILY(site, sites, tnSpecSite)
FAMILY(cam, cameras, tnSpecCamera)
FAMILY(light, lights, tnSpecLight)
FAMILY(mesh, meshes, tnSpecMesh)
FAMILY(skin, skins, tnSpecSkin)
FAMILY(hfield, hfields, tnSpecHField)
FAMILY(tex, textures, tnSpecTexture)
FAMILY(mat, materials, tnSpecMaterial)
FAMILY(pair, pairs, tnSpecPair)
FAMILY(exclude, excludes, tnSpecExclude)
FAMILY(eq, equalities, tnSpecEquality)
FAMILY(tendon, tendons, tnSpecTendon)
FAMILY(actuator, actuators, tnSpecActuator)
FAMILY(sensor, sensors, tnSpecSensor)
FAMILY(numeric, numerics, tnSpecNumeric)
FAMILY(text, texts, tnSpecText)
FAMILY(tuple, tuples, tnSpecTuple)
FAMILY(key, keys, tnSpecKey)
#undef FAMILY

/* one named family: its mjtObj, spec array, name accessor and label */
typedef struct tnNameFamily_ {
  int objtype;
  size_t vec_offset; /* offset of the tnVec in tnSpec */
  const char* (*name)(const tnSpec*, int);
  const tnSrcPos* (*src)(const tnSpec*, int);
  const char* label;
} tnNameFamily;

/* the families in MuJoCo's order of m->names */
static const tnNameFamily families[] = {
    {mjOBJ_BODY, offsetof(tnSpec, bodies), body_name, body_src, "body"},
    {mjOBJ_JOINT, offsetof(tnSpec, joints), joint_name, joint_src, "joint"},
    {mjOBJ_GEOM, offsetof(tnSpec, geoms), geom_name, geom_src, "geom"},
    {mjOBJ_SITE, offsetof(tnSpec, sites), site_name, site_src, "site"},
    {mjOBJ_CAMERA, offsetof(tnSpec, cameras), cam_name, cam_src, "camera"},
    {mjOBJ_LIGHT, offsetof(tnSpec, lights), light_name, light_src, "light"},
    {mjOBJ_MESH, offsetof(tnSpec, meshes), mesh_name, mesh_src, "mesh"},
    {mjOBJ_SKIN, offsetof(tnSpec, skins), skin_name, skin_src, "skin"},
    {mjOBJ_HFIELD, offsetof(tnSpec, hfields), hfield_name, hfield_src, "hfield"},
    {mjOBJ_TEXTURE, offsetof(tnSpec, textures), tex_name, tex_src, "texture"},
    {mjOBJ_MATERIAL, offsetof(tnSpec, materials), mat_name, mat_src, "material"},
    {mjOBJ_PAIR, offsetof(tnSpec, pairs), pair_name, pair_src, "pair"},
    {mjOBJ_EXCLUDE, offsetof(tnSpec, excludes), exclude_name, exclude_src, "exclude"},
    {mjOBJ_EQUALITY, offsetof(tnSpec, equalities), eq_name, eq_src, "equality"},
    {mjOBJ_TENDON, offsetof(tnSpec, tendons), tendon_name, tendon_src, "tendon"},
    {mjOBJ_ACTUATOR, offsetof(tnSpec, actuators), actuator_name, actuator_src, "actuator"},
    {mjOBJ_SENSOR, offsetof(tnSpec, sensors), sensor_name, sensor_src, "sensor"},
    {mjOBJ_NUMERIC, offsetof(tnSpec, numerics), numeric_name, numeric_src, "numeric"},
    {mjOBJ_TEXT, offsetof(tnSpec, texts), text_name, text_src, "text"},
    {mjOBJ_TUPLE, offsetof(tnSpec, tuples), tuple_name, tuple_src, "tuple"},
    {mjOBJ_KEY, offsetof(tnSpec, keys), key_name, key_src, "key"},
};
static const int nfamilies = (int)(sizeof(families) / sizeof(families[0]));

/* the tnVec of a family */
static const tnVec* family_vec(const tnSpec* s, const tnNameFamily* f) {
  return (const tnVec*)((const char*)s + f->vec_offset);
}

/* the family of an object type (xbody shares bodies) */
static const tnNameFamily* find_family(int objtype) {
  if (objtype == mjOBJ_XBODY) {
    objtype = mjOBJ_BODY;
  }
  for (int i = 0; i < nfamilies; i++) {
    if (families[i].objtype == objtype) {
      return &families[i];
    }
  }
  return NULL;
}

/* model id of spec object i (body-grouped families are renumbered) */
static int model_id(const tnCompiler* c, int objtype, int i) {
  switch (objtype) {
    case mjOBJ_JOINT: return c->jnt_id[i];
    case mjOBJ_GEOM: return c->geom_id[i];
    case mjOBJ_SITE: return c->site_id[i];
    case mjOBJ_CAMERA: return c->cam_id[i];
    case mjOBJ_LIGHT: return c->light_id[i];
    case mjOBJ_PAIR: return c->pair_id ? c->pair_id[i] : i;
    case mjOBJ_EXCLUDE: return c->exclude_id ? c->exclude_id[i] : i;
    default: return i;
  }
}

/* model id of a named object */
int tn__compileFind(const tnCompiler* c, int objtype, const char* name) {
  const tnNameFamily* f = find_family(objtype);
  if (!f || !name) {
    return -1;
  }
  const tnVec* v = family_vec(c->spec, f);
  for (int i = 0; i < v->n; i++) {
    const char* n = f->name(c->spec, i);
    if (n && strcmp(n, name) == 0) {
      return model_id(c, f->objtype, i);
    }
  }
  return -1;
}

/* the same, with an error when missing */
int tn__compileRequire(tnCompiler* c, int objtype, const char* name, const tnSrcPos* src,
                       const char* attr) {
  int id = tn__compileFind(c, objtype, name);
  if (id < 0) {
    const tnNameFamily* f = find_family(objtype);
    tn__compileFail(c, src, attr, "unknown %s '%s'", f ? f->label : "object", name ? name : "");
  }
  return id;
}

/* repeated names within a family are an error */
int tn__checkNames(tnCompiler* c) {
  for (int k = 0; k < nfamilies; k++) {
    const tnNameFamily* f = &families[k];
    const tnVec* v = family_vec(c->spec, f);
    for (int i = 0; i < v->n; i++) {
      const char* a = f->name(c->spec, i);
      if (!a || !a[0]) {
        continue;
      }
      for (int j = 0; j < i; j++) {
        const char* b = f->name(c->spec, j);
        if (b && strcmp(a, b) == 0) {
          return tn__compileFail(c, f->src(c->spec, i), "name", "repeated %s name '%s'", f->label,
                                 a);
        }
      }
    }
  }
  return 1;
}

/* bytes of m->names */
int tn__countNames(const tnSpec* s) {
  long long n = (long long)strlen(s->modelname) + 1;
  for (int k = 0; k < nfamilies; k++) {
    const tnVec* v = family_vec(s, &families[k]);
    for (int i = 0; i < v->n; i++) {
      const char* name = families[k].name(s, i);
      n += (name ? (long long)strlen(name) : 0) + 1;
    }
  }

  // keys added by <size nkey> are unnamed
  if (s->nkey > s->keys.n) {
    n += s->nkey - s->keys.n;
  }
  return n > 0x7fffffff ? 0x7fffffff : (int)n;
}

/* the name-address array of a family in the model */
static int* name_adr(mjModel* m, int objtype) {
  switch (objtype) {
    case mjOBJ_BODY: return m->name_bodyadr;
    case mjOBJ_JOINT: return m->name_jntadr;
    case mjOBJ_GEOM: return m->name_geomadr;
    case mjOBJ_SITE: return m->name_siteadr;
    case mjOBJ_CAMERA: return m->name_camadr;
    case mjOBJ_LIGHT: return m->name_lightadr;
    case mjOBJ_MESH: return m->name_meshadr;
    case mjOBJ_SKIN: return m->name_skinadr;
    case mjOBJ_HFIELD: return m->name_hfieldadr;
    case mjOBJ_TEXTURE: return m->name_texadr;
    case mjOBJ_MATERIAL: return m->name_matadr;
    case mjOBJ_PAIR: return m->name_pairadr;
    case mjOBJ_EXCLUDE: return m->name_excludeadr;
    case mjOBJ_EQUALITY: return m->name_eqadr;
    case mjOBJ_TENDON: return m->name_tendonadr;
    case mjOBJ_ACTUATOR: return m->name_actuatoradr;
    case mjOBJ_SENSOR: return m->name_sensoradr;
    case mjOBJ_NUMERIC: return m->name_numericadr;
    case mjOBJ_TEXT: return m->name_textadr;
    case mjOBJ_TUPLE: return m->name_tupleadr;
    case mjOBJ_KEY: return m->name_keyadr;
    default: return NULL;
  }
}

/* append a string to the buffer */
static int append(mjModel* m, int adr, const char* s) {
  size_t n = s ? strlen(s) : 0;
  if (n) {
    memcpy(m->names + adr, s, n);
  }
  m->names[adr + (int)n] = 0;
  return adr + (int)n + 1;
}

/* fill m->names and the name_*adr arrays */
int tn__compileNames(tnCompiler* c) {
  mjModel* m = c->m;
  const tnSpec* s = c->spec;
  int adr = append(m, 0, s->modelname);
  for (int k = 0; k < nfamilies; k++) {
    const tnNameFamily* f = &families[k];
    const tnVec* v = family_vec(s, f);
    int* dst = name_adr(m, f->objtype);
    for (int id = 0; id < v->n; id++) {
      // model order: body-grouped families through their permutation
      int i = id;
      switch (f->objtype) {
        case mjOBJ_JOINT: i = c->jnt_order[id]; break;
        case mjOBJ_GEOM: i = c->geom_order[id]; break;
        case mjOBJ_SITE: i = c->site_order[id]; break;
        case mjOBJ_CAMERA: i = c->cam_order[id]; break;
        case mjOBJ_LIGHT: i = c->light_order[id]; break;
        case mjOBJ_PAIR: i = c->pair_order[id]; break;
        case mjOBJ_EXCLUDE: i = c->exclude_order[id]; break;
        default: break;
      }
      dst[id] = adr;
      adr = append(m, adr, f->name(s, i));
    }
  }
  for (int id = s->keys.n; id < m->nkey; id++) {
    m->name_keyadr[id] = adr;
    adr = append(m, adr, NULL);
  }
  return 1;
}
