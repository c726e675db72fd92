/* model/names.c — mj_name2id and mj_id2name over the model's packed name buffer. */
#include <string.h>

#include <torsion/torsion.h>

/* the name-address array and count of an object type; 0 when the type has no names */
static int name_table(const mjModel* m, int type, const int** adr) {
  switch (type) {
    case mjOBJ_BODY:
    case mjOBJ_XBODY: *adr = m->name_bodyadr; return m->nbody;
    case mjOBJ_JOINT: *adr = m->name_jntadr; return m->njnt;
    case mjOBJ_GEOM: *adr = m->name_geomadr; return m->ngeom;
    case mjOBJ_SITE: *adr = m->name_siteadr; return m->nsite;
    case mjOBJ_CAMERA: *adr = m->name_camadr; return m->ncam;
    case mjOBJ_LIGHT: *adr = m->name_lightadr; return m->nlight;
    case mjOBJ_MESH: *adr = m->name_meshadr; return m->nmesh;
    case mjOBJ_SKIN: *adr = m->name_skinadr; return m->nskin;
    case mjOBJ_HFIELD: *adr = m->name_hfieldadr; return m->nhfield;
    case mjOBJ_TEXTURE: *adr = m->name_texadr; return m->ntex;
    case mjOBJ_MATERIAL: *adr = m->name_matadr; return m->nmat;
    case mjOBJ_PAIR: *adr = m->name_pairadr; return m->npair;
    case mjOBJ_EXCLUDE: *adr = m->name_excludeadr; return m->nexclude;
    case mjOBJ_EQUALITY: *adr = m->name_eqadr; return m->neq;
    case mjOBJ_TENDON: *adr = m->name_tendonadr; return m->ntendon;
    case mjOBJ_ACTUATOR: *adr = m->name_actuatoradr; return m->nu;
    case mjOBJ_SENSOR: *adr = m->name_sensoradr; return m->nsensor;
    case mjOBJ_NUMERIC: *adr = m->name_numericadr; return m->nnumeric;
    case mjOBJ_TEXT: *adr = m->name_textadr; return m->ntext;
    case mjOBJ_TUPLE: *adr = m->name_tupleadr; return m->ntuple;
    case mjOBJ_KEY: *adr = m->name_keyadr; return m->nkey;
    default: *adr = NULL; return 0;
  }
}

/* id of a named object, or -1 */
int mj_name2id(const mjModel* m, int type, const char* name) {
  const int* adr;
  int n = name_table(m, type, &adr);
  if (!name || !name[0]) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (strcmp(m->names + adr[i], name) == 0) {
      return i;
    }
  }
  return -1;
}

/* name of an object, or NULL when unnamed or out of range */
const char* mj_id2name(const mjModel* m, int type, int id) {
  const int* adr;
  int n = name_table(m, type, &adr);
  if (id < 0 || id >= n) {
    return NULL;
  }
  const char* name = m->names + adr[id];
  return name[0] ? name : NULL;
}
