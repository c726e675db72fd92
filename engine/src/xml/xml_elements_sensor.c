/* xml/xml_elements_sensor.c — <sensor>: every sensor element maps to its mjtSensor type and
 * the object it measures (site, joint, tendon, actuator, body, frame object, geoms). The
 * compiler resolves names and derives dimensions, data types and stages. */
#include <string.h>

#include "xml/xml_reader.h"

/* how a sensor element names its object */
enum {
  OBJ_NONE = 0,
  OBJ_SITE,     /* site= */
  OBJ_JOINT,    /* joint= */
  OBJ_TENDON,   /* tendon= */
  OBJ_ACTUATOR, /* actuator= */
  OBJ_BODY,     /* body= */
  OBJ_FRAME,    /* objtype/objname (+ reftype/refname) */
  OBJ_CAMPROJ,  /* site= and camera= */
  OBJ_INSIDE,   /* site= and objtype/objname */
  OBJ_GEOMS,    /* geom1/body1 and geom2/body2 */
  OBJ_USER      /* objtype/objname, datatype, needstage, dim */
};

/* sensor element names */
static const struct {
  const char* name;
  int type;
  int obj;
} sensor_kinds[] = {
    {"touch", mjSENS_TOUCH, OBJ_SITE},
    {"accelerometer", mjSENS_ACCELEROMETER, OBJ_SITE},
    {"velocimeter", mjSENS_VELOCIMETER, OBJ_SITE},
    {"gyro", mjSENS_GYRO, OBJ_SITE},
    {"force", mjSENS_FORCE, OBJ_SITE},
    {"torque", mjSENS_TORQUE, OBJ_SITE},
    {"magnetometer", mjSENS_MAGNETOMETER, OBJ_SITE},
    {"rangefinder", mjSENS_RANGEFINDER, OBJ_SITE},
    {"camprojection", mjSENS_CAMPROJECTION, OBJ_CAMPROJ},
    {"jointpos", mjSENS_JOINTPOS, OBJ_JOINT},
    {"jointvel", mjSENS_JOINTVEL, OBJ_JOINT},
    {"tendonpos", mjSENS_TENDONPOS, OBJ_TENDON},
    {"tendonvel", mjSENS_TENDONVEL, OBJ_TENDON},
    {"actuatorpos", mjSENS_ACTUATORPOS, OBJ_ACTUATOR},
    {"actuatorvel", mjSENS_ACTUATORVEL, OBJ_ACTUATOR},
    {"actuatorfrc", mjSENS_ACTUATORFRC, OBJ_ACTUATOR},
    {"jointactuatorfrc", mjSENS_JOINTACTFRC, OBJ_JOINT},
    {"tendonactuatorfrc", mjSENS_TENDONACTFRC, OBJ_TENDON},
    {"ballquat", mjSENS_BALLQUAT, OBJ_JOINT},
    {"ballangvel", mjSENS_BALLANGVEL, OBJ_JOINT},
    {"jointlimitpos", mjSENS_JOINTLIMITPOS, OBJ_JOINT},
    {"jointlimitvel", mjSENS_JOINTLIMITVEL, OBJ_JOINT},
    {"jointlimitfrc", mjSENS_JOINTLIMITFRC, OBJ_JOINT},
    {"tendonlimitpos", mjSENS_TENDONLIMITPOS, OBJ_TENDON},
    {"tendonlimitvel", mjSENS_TENDONLIMITVEL, OBJ_TENDON},
    {"tendonlimitfrc", mjSENS_TENDONLIMITFRC, OBJ_TENDON},
    {"framepos", mjSENS_FRAMEPOS, OBJ_FRAME},
    {"framequat", mjSENS_FRAMEQUAT, OBJ_FRAME},
    {"framexaxis", mjSENS_FRAMEXAXIS, OBJ_FRAME},
    {"frameyaxis", mjSENS_FRAMEYAXIS, OBJ_FRAME},
    {"framezaxis", mjSENS_FRAMEZAXIS, OBJ_FRAME},
    {"framelinvel", mjSENS_FRAMELINVEL, OBJ_FRAME},
    {"frameangvel", mjSENS_FRAMEANGVEL, OBJ_FRAME},
    {"framelinacc", mjSENS_FRAMELINACC, OBJ_FRAME},
    {"frameangacc", mjSENS_FRAMEANGACC, OBJ_FRAME},
    {"subtreecom", mjSENS_SUBTREECOM, OBJ_BODY},
    {"subtreelinvel", mjSENS_SUBTREELINVEL, OBJ_BODY},
    {"subtreeangmom", mjSENS_SUBTREEANGMOM, OBJ_BODY},
    {"insidesite", mjSENS_INSIDESITE, OBJ_INSIDE},
    {"distance", mjSENS_GEOMDIST, OBJ_GEOMS},
    {"normal", mjSENS_GEOMNORMAL, OBJ_GEOMS},
    {"fromto", mjSENS_GEOMFROMTO, OBJ_GEOMS},
    {"e_potential", mjSENS_E_POTENTIAL, OBJ_NONE},
    {"e_kinetic", mjSENS_E_KINETIC, OBJ_NONE},
    {"clock", mjSENS_CLOCK, OBJ_NONE},
    {"user", mjSENS_USER, OBJ_USER},
};

/* object types of frame sensors, tuples and user sensors */
static const tnKeyword frame_objtypes[] = {{"body", mjOBJ_BODY},     {"xbody", mjOBJ_XBODY},
                                           {"geom", mjOBJ_GEOM},     {"site", mjOBJ_SITE},
                                           {"camera", mjOBJ_CAMERA}, {NULL, 0}};
static const tnKeyword user_objtypes[] = {
    {"unknown", mjOBJ_UNKNOWN}, {"body", mjOBJ_BODY},         {"xbody", mjOBJ_XBODY},
    {"joint", mjOBJ_JOINT},     {"dof", mjOBJ_DOF},           {"geom", mjOBJ_GEOM},
    {"site", mjOBJ_SITE},       {"camera", mjOBJ_CAMERA},     {"light", mjOBJ_LIGHT},
    {"tendon", mjOBJ_TENDON},   {"actuator", mjOBJ_ACTUATOR}, {NULL, 0}};
static const tnKeyword datatypes[] = {{"real", mjDATATYPE_REAL},
                                      {"positive", mjDATATYPE_POSITIVE},
                                      {"axis", mjDATATYPE_AXIS},
                                      {"quaternion", mjDATATYPE_QUATERNION},
                                      {NULL, 0}};
static const tnKeyword stages[] = {{"none", mjSTAGE_NONE},
                                   {"pos", mjSTAGE_POS},
                                   {"vel", mjSTAGE_VEL},
                                   {"acc", mjSTAGE_ACC},
                                   {NULL, 0}};

/* a required name attribute into objname with its object type */
static int rd_obj(tnReader* r, tnXmlNode* node, const char* attr, int objtype, tnSpecSensor* s) {
  s->objtype = objtype;
  int got = tn__rdName(r, node, attr, &s->objname);
  if (got == 0) {
    return tn__rdFail(r, node, attr, "required attribute missing");
  }
  return got;
}

/* objtype + objname (frame sensors, insidesite); 1/0 */
static int rd_frame_obj(tnReader* r, tnXmlNode* node, tnSpecSensor* s) {
  int got = tn__rdKeyword(r, node, "objtype", frame_objtypes, &s->objtype);
  TN_TRY(got);
  if (!got) {
    return tn__rdFail(r, node, "objtype", "required attribute missing") + 1;
  }
  got = tn__rdName(r, node, "objname", &s->objname);
  TN_TRY(got);
  return got ? 1 : tn__rdFail(r, node, "objname", "required attribute missing") + 1;
}

/* optional reftype + refname (frame sensors); 1/0 */
static int rd_frame_ref(tnReader* r, tnXmlNode* node, tnSpecSensor* s) {
  int gott = tn__rdKeyword(r, node, "reftype", frame_objtypes, &s->reftype);
  TN_TRY(gott);
  int gotn = tn__rdName(r, node, "refname", &s->refname);
  TN_TRY(gotn);
  if (gott != gotn) {
    return tn__rdFail(r, node, gott ? "refname" : "reftype",
                      "reftype and refname must be given together") +
           1;
  }
  return 1;
}

/* geom1/body1 and geom2/body2 of distance sensors; 1/0 */
static int rd_geom_pair(tnReader* r, tnXmlNode* node, tnSpecSensor* s) {
  const char *g1 = NULL, *g2 = NULL, *b1 = NULL, *b2 = NULL;
  TN_TRY(tn__rdName(r, node, "geom1", &g1));
  TN_TRY(tn__rdName(r, node, "geom2", &g2));
  TN_TRY(tn__rdName(r, node, "body1", &b1));
  TN_TRY(tn__rdName(r, node, "body2", &b2));
  if ((g1 && b1) || (!g1 && !b1) || (g2 && b2) || (!g2 && !b2)) {
    return tn__rdFail(r, node, NULL, "exactly one of geom1/body1 and of geom2/body2 is required") +
           1;
  }
  s->objtype = g1 ? mjOBJ_GEOM : mjOBJ_BODY;
  s->objname = g1 ? g1 : b1;
  s->reftype = g2 ? mjOBJ_GEOM : mjOBJ_BODY;
  s->refname = g2 ? g2 : b2;
  return 1;
}

/* the object attributes of a sensor of object kind `obj`; 1/0 */
static int rd_sensor_object(tnReader* r, tnXmlNode* node, int obj, tnSpecSensor* s) {
  switch (obj) {
    case OBJ_SITE: return rd_obj(r, node, "site", mjOBJ_SITE, s) > 0;
    case OBJ_JOINT: return rd_obj(r, node, "joint", mjOBJ_JOINT, s) > 0;
    case OBJ_TENDON: return rd_obj(r, node, "tendon", mjOBJ_TENDON, s) > 0;
    case OBJ_ACTUATOR: return rd_obj(r, node, "actuator", mjOBJ_ACTUATOR, s) > 0;
    case OBJ_BODY: return rd_obj(r, node, "body", mjOBJ_BODY, s) > 0;
    case OBJ_FRAME: return rd_frame_obj(r, node, s) && rd_frame_ref(r, node, s);
    case OBJ_CAMPROJ:
      TN_TRY(rd_obj(r, node, "site", mjOBJ_SITE, s));
      s->reftype = mjOBJ_CAMERA;
      return tn__rdName(r, node, "camera", &s->refname) > 0
                 ? 1
                 : tn__rdFail(r, node, "camera", "required attribute missing") + 1;
    case OBJ_INSIDE:
      TN_OK(rd_frame_obj(r, node, s));
      s->reftype = mjOBJ_SITE;
      return tn__rdName(r, node, "site", &s->refname) > 0
                 ? 1
                 : tn__rdFail(r, node, "site", "required attribute missing") + 1;
    case OBJ_GEOMS: return rd_geom_pair(r, node, s);
    case OBJ_USER:
      TN_TRY(tn__rdKeyword(r, node, "objtype", user_objtypes, &s->objtype));
      TN_TRY(tn__rdName(r, node, "objname", &s->objname));
      TN_TRY(tn__rdKeyword(r, node, "datatype", datatypes, &s->datatype));
      TN_TRY(tn__rdKeyword(r, node, "needstage", stages, &s->needstage));
      TN_TRY(tn__rdInts(r, node, "dim", &s->dim, 1, 1));
      if ((s->datatype == mjDATATYPE_AXIS && s->dim != 3) ||
          (s->datatype == mjDATATYPE_QUATERNION && s->dim != 4)) {
        return tn__rdFail(r, node, "dim",
                          s->datatype == mjDATATYPE_AXIS ? "datatype axis requires dim=3"
                                                         : "datatype quaternion requires dim=4") +
               1;
      }
      return s->dim >= 1 ? 1 : tn__rdFail(r, node, "dim", "a positive dimension is required") + 1;
    default: return 1;
  }
}

/* one sensor element */
static int read_sensor(tnReader* r, tnXmlNode* node) {
  int k = -1;
  for (int i = 0; i < (int)(sizeof(sensor_kinds) / sizeof(sensor_kinds[0])); i++) {
    if (strcmp(node->name, sensor_kinds[i].name) == 0) {
      k = i;
    }
  }
  if (k < 0) {
    return tn__rdFail(r, node, NULL, "not implemented yet") + 1;
  }
  tnSpecSensor* s = tn__vecPush(&r->spec->sensors, sizeof(tnSpecSensor));
  if (!s) {
    return tn__rdFail(r, node, NULL, "out of memory") + 1;
  }
  s->src = &node->pos;
  s->type = sensor_kinds[k].type;
  TN_TRY(tn__rdName(r, node, "name", &s->name));
  TN_TRY(tn__rdNums(r, node, "cutoff", &s->cutoff, 1, 1));
  TN_TRY(tn__rdNums(r, node, "noise", &s->noise, 1, 1));
  TN_TRY(tn__rdUser(r, node, &s->user));
  TN_OK(rd_sensor_object(r, node, sensor_kinds[k].obj, s));
  if (s->cutoff < 0 || s->noise < 0) {
    return tn__rdFail(r, node, s->cutoff < 0 ? "cutoff" : "noise", "must be nonnegative") + 1;
  }
  return 1;
}

int tn__readSensor(tnReader* r, tnXmlNode* node) {
  for (int i = 0; i < node->nchild; i++) {
    if (!read_sensor(r, node->child[i])) {
      return 0;
    }
  }
  return 1;
}
