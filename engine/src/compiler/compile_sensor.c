/* compiler/compile_sensor.c — sensors: object references, data types, computation stages,
 * dimensions and addresses into sensordata (evaluation lives in src/sensor). */
#include <string.h>

#include "compiler/compile_internal.h"

/* dimension, data type and stage of each sensor type (user sensors give their own) */
typedef struct tnSensorInfo_ {
  int type, dim, datatype, stage;
} tnSensorInfo;

#define R mjDATATYPE_REAL
#define P mjDATATYPE_POSITIVE
#define A mjDATATYPE_AXIS
#define Q mjDATATYPE_QUATERNION
static const tnSensorInfo sensor_info[] = {
    {mjSENS_TOUCH, 1, P, mjSTAGE_ACC},          {mjSENS_ACCELEROMETER, 3, R, mjSTAGE_ACC},
    {mjSENS_VELOCIMETER, 3, R, mjSTAGE_VEL},    {mjSENS_GYRO, 3, R, mjSTAGE_VEL},
    {mjSENS_FORCE, 3, R, mjSTAGE_ACC},          {mjSENS_TORQUE, 3, R, mjSTAGE_ACC},
    {mjSENS_MAGNETOMETER, 3, R, mjSTAGE_POS},   {mjSENS_RANGEFINDER, 1, R, mjSTAGE_POS},
    {mjSENS_CAMPROJECTION, 2, R, mjSTAGE_POS},  {mjSENS_JOINTPOS, 1, R, mjSTAGE_POS},
    {mjSENS_JOINTVEL, 1, R, mjSTAGE_VEL},       {mjSENS_TENDONPOS, 1, R, mjSTAGE_POS},
    {mjSENS_TENDONVEL, 1, R, mjSTAGE_VEL},      {mjSENS_ACTUATORPOS, 1, R, mjSTAGE_POS},
    {mjSENS_ACTUATORVEL, 1, R, mjSTAGE_VEL},    {mjSENS_ACTUATORFRC, 1, R, mjSTAGE_ACC},
    {mjSENS_JOINTACTFRC, 1, R, mjSTAGE_ACC},    {mjSENS_TENDONACTFRC, 1, R, mjSTAGE_ACC},
    {mjSENS_BALLQUAT, 4, Q, mjSTAGE_POS},       {mjSENS_BALLANGVEL, 3, R, mjSTAGE_VEL},
    {mjSENS_JOINTLIMITPOS, 1, R, mjSTAGE_POS},  {mjSENS_JOINTLIMITVEL, 1, R, mjSTAGE_VEL},
    {mjSENS_JOINTLIMITFRC, 1, R, mjSTAGE_ACC},  {mjSENS_TENDONLIMITPOS, 1, R, mjSTAGE_POS},
    {mjSENS_TENDONLIMITVEL, 1, R, mjSTAGE_VEL}, {mjSENS_TENDONLIMITFRC, 1, R, mjSTAGE_ACC},
    {mjSENS_FRAMEPOS, 3, R, mjSTAGE_POS},       {mjSENS_FRAMEQUAT, 4, Q, mjSTAGE_POS},
    {mjSENS_FRAMEXAXIS, 3, A, mjSTAGE_POS},     {mjSENS_FRAMEYAXIS, 3, A, mjSTAGE_POS},
    {mjSENS_FRAMEZAXIS, 3, A, mjSTAGE_POS},     {mjSENS_FRAMELINVEL, 3, R, mjSTAGE_VEL},
    {mjSENS_FRAMEANGVEL, 3, R, mjSTAGE_VEL},    {mjSENS_FRAMELINACC, 3, R, mjSTAGE_ACC},
    {mjSENS_FRAMEANGACC, 3, R, mjSTAGE_ACC},    {mjSENS_SUBTREECOM, 3, R, mjSTAGE_POS},
    {mjSENS_SUBTREELINVEL, 3, R, mjSTAGE_VEL},  {mjSENS_SUBTREEANGMOM, 3, R, mjSTAGE_VEL},
    {mjSENS_INSIDESITE, 1, P, mjSTAGE_POS},     {mjSENS_GEOMDIST, 1, R, mjSTAGE_POS},
    {mjSENS_GEOMNORMAL, 3, A, mjSTAGE_POS},     {mjSENS_GEOMFROMTO, 6, R, mjSTAGE_POS},
    {mjSENS_E_POTENTIAL, 1, R, mjSTAGE_POS},    {mjSENS_E_KINETIC, 1, R, mjSTAGE_POS},
    {mjSENS_CLOCK, 1, R, mjSTAGE_POS},
};
#undef R
#undef P
#undef A
#undef Q

/* the table row of a type */
static const tnSensorInfo* info_of(int type) {
  for (size_t i = 0; i < sizeof(sensor_info) / sizeof(sensor_info[0]); i++) {
    if (sensor_info[i].type == type) {
      return &sensor_info[i];
    }
  }
  return NULL;
}

/* number of values a sensor writes */
int tn__sensorDim(const tnSpecSensor* s) {
  if (s->type == mjSENS_USER) {
    return s->dim;
  }
  const tnSensorInfo* info = info_of(s->type);
  return info ? info->dim : 0;
}

/* joint sensors: the joint types and limits they need */
static int check_joint(tnCompiler* c, const tnSpecSensor* s, int j) {
  const mjModel* m = c->m;
  int type = m->jnt_type[j];
  int ball = s->type == mjSENS_BALLQUAT || s->type == mjSENS_BALLANGVEL;
  int limit = s->type >= mjSENS_JOINTLIMITPOS && s->type <= mjSENS_JOINTLIMITFRC;
  if (ball && type != mjJNT_BALL) {
    return tn__compileFail(c, s->src, "joint", "joint must be a ball joint in sensor");
  }
  if (!ball && !limit && type != mjJNT_HINGE && type != mjJNT_SLIDE) {
    return tn__compileFail(c, s->src, "joint", "joint must be slide or hinge in sensor");
  }
  if (limit && !m->jnt_limited[j]) {
    return tn__compileFail(c, s->src, "joint", "joint must be limited in sensor");
  }
  return 1;
}

/* objects of a sensor */
static int sensor_objects(tnCompiler* c, int i, const tnSpecSensor* s) {
  mjModel* m = c->m;
  m->sensor_objtype[i] = s->objtype;
  m->sensor_objid[i] = -1;
  m->sensor_reftype[i] = s->reftype;
  m->sensor_refid[i] = -1;
  if (s->objname) {
    m->sensor_objid[i] = tn__compileRequire(c, s->objtype, s->objname, s->src, "objname");
    if (m->sensor_objid[i] < 0) {
      return 0;
    }
  }
  if (s->refname) {
    m->sensor_refid[i] = tn__compileRequire(c, s->reftype, s->refname, s->src, "refname");
    if (m->sensor_refid[i] < 0) {
      return 0;
    }
  }

  // type-specific requirements
  if (s->objtype == mjOBJ_JOINT && !check_joint(c, s, m->sensor_objid[i])) {
    return 0;
  }
  int tlimit = s->type >= mjSENS_TENDONLIMITPOS && s->type <= mjSENS_TENDONLIMITFRC;
  if (tlimit && !m->tendon_limited[m->sensor_objid[i]]) {
    return tn__compileFail(c, s->src, "tendon", "tendon must be limited in sensor");
  }
  return 1;
}

int tn__compileSensors(tnCompiler* c) {
  mjModel* m = c->m;
  int adr = 0;
  for (int i = 0; i < m->nsensor; i++) {
    const tnSpecSensor* s = TN_AT(c->spec->sensors, tnSpecSensor, i);
    if (!sensor_objects(c, i, s)) {
      return 0;
    }
    m->sensor_type[i] = s->type;
    if (s->type == mjSENS_USER) {
      m->sensor_datatype[i] = s->datatype;
      m->sensor_needstage[i] = s->needstage;
    } else {
      m->sensor_datatype[i] = info_of(s->type)->datatype;
      m->sensor_needstage[i] = info_of(s->type)->stage;
    }
    m->sensor_intprm[3 * i] = s->type == mjSENS_RANGEFINDER;
    m->sensor_dim[i] = tn__sensorDim(s);
    m->sensor_adr[i] = adr;
    adr += m->sensor_dim[i];
    m->sensor_cutoff[i] = s->cutoff;
    m->sensor_noise[i] = s->noise;
    if (!tn__compileUser(c, m->sensor_user + m->nuser_sensor * i, m->nuser_sensor, &s->user,
                         s->src)) {
      return 0;
    }
  }
  return 1;
}
