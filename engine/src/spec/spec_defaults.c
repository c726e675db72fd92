/* spec/spec_defaults.c — mjs_default*: MuJoCo 3.14's default values of the model-editing
 * structs. Handle fields (strings, arrays) are left NULL: the spec gives each element its
 * own handles when it creates it. */
#include <math.h>
#include <string.h>

#include "model/model_alloc.h"
#include "spec/spec_tree.h"

/* mid grey, opaque */
static void default_grey(float rgba[4]) {
  rgba[0] = rgba[1] = rgba[2] = 0.5f;
  rgba[3] = 1;
}

/* identity quaternion */
static void unit_quat(double q[4]) {
  q[0] = 1;
  q[1] = q[2] = q[3] = 0;
}

void mjs_defaultOrientation(mjsOrientation* orient) {
  memset(orient, 0, sizeof(*orient));
}

void mjs_defaultPlugin(mjsPlugin* plugin) {
  memset(plugin, 0, sizeof(*plugin));
}

void mjs_defaultBody(mjsBody* body) {
  memset(body, 0, sizeof(*body));
  unit_quat(body->quat);
  unit_quat(body->iquat);
  body->ipos[0] = NAN;  // not given: from the geoms
  body->fullinertia[0] = NAN;
}

void mjs_defaultFrame(mjsFrame* frame) {
  memset(frame, 0, sizeof(*frame));
  unit_quat(frame->quat);
}

void mjs_defaultJoint(mjsJoint* joint) {
  memset(joint, 0, sizeof(*joint));
  joint->type = mjJNT_HINGE;
  joint->axis[2] = 1;
  joint->align = mjALIGNFREE_AUTO;
  joint->limited = mjLIMITED_AUTO;
  joint->actfrclimited = mjLIMITED_AUTO;
  mj_defaultSolRefImp(joint->solref_limit, NULL);
  mj_defaultSolRefImp(NULL, joint->solimp_limit);
  mj_defaultSolRefImp(joint->solref_friction, NULL);
  mj_defaultSolRefImp(NULL, joint->solimp_friction);
}

void mjs_defaultGeom(mjsGeom* geom) {
  memset(geom, 0, sizeof(*geom));
  geom->type = mjGEOM_SPHERE;
  unit_quat(geom->quat);
  geom->fromto[0] = NAN;  // not given
  geom->contype = 1;
  geom->conaffinity = 1;
  geom->condim = 3;
  geom->friction[0] = 1;
  geom->friction[1] = 0.005;
  geom->friction[2] = 0.0001;
  geom->solmix = 1;
  mj_defaultSolRefImp(geom->solref, NULL);
  mj_defaultSolRefImp(NULL, geom->solimp);
  geom->mass = NAN;  // not given: from density
  geom->density = 1000;
  geom->fluid_coefs[0] = 0.5;
  geom->fluid_coefs[1] = 0.25;
  geom->fluid_coefs[2] = 1.5;
  geom->fluid_coefs[3] = 1;
  geom->fluid_coefs[4] = 1;
  default_grey(geom->rgba);
  geom->fitscale = 1;
}

void mjs_defaultSite(mjsSite* site) {
  memset(site, 0, sizeof(*site));
  unit_quat(site->quat);
  site->fromto[0] = NAN;
  site->size[0] = site->size[1] = site->size[2] = 0.005;
  site->type = mjGEOM_SPHERE;
  default_grey(site->rgba);
}

void mjs_defaultCamera(mjsCamera* camera) {
  memset(camera, 0, sizeof(*camera));
  unit_quat(camera->quat);
  camera->resolution[0] = camera->resolution[1] = 1;
  camera->output = 1;
  camera->fovy = 45;
  camera->ipd = 0.068;
}

void mjs_defaultLight(mjsLight* light) {
  memset(light, 0, sizeof(*light));
  light->dir[2] = -1;
  light->active = 1;
  light->castshadow = 1;
  light->bulbradius = 0.02f;
  light->range = 10;
  light->attenuation[0] = 1;
  light->cutoff = 45;
  light->softness = 0.2f;
  light->exponent = 10;
  light->diffuse[0] = light->diffuse[1] = light->diffuse[2] = 0.7f;
  light->specular[0] = light->specular[1] = light->specular[2] = 0.3f;
}

void mjs_defaultFlex(mjsFlex* flex) {
  memset(flex, 0, sizeof(*flex));
  flex->contype = 1;
  flex->conaffinity = 1;
  flex->condim = 3;
  flex->friction[0] = 1;
  flex->friction[1] = 0.005;
  flex->friction[2] = 0.0001;
  flex->solmix = 1;
  mj_defaultSolRefImp(flex->solref, NULL);
  mj_defaultSolRefImp(NULL, flex->solimp);
  flex->dim = 2;
  flex->radius = 0.005;
  flex->internal = 0;
  flex->selfcollide = mjFLEXSELF_AUTO;
  flex->activelayers = 1;
  default_grey(flex->rgba);
  flex->thickness = -1;
  flex->cellcount[0] = flex->cellcount[1] = flex->cellcount[2] = 1;
}

void mjs_defaultMesh(mjsMesh* mesh) {
  memset(mesh, 0, sizeof(*mesh));
  unit_quat(mesh->refquat);
  mesh->scale[0] = mesh->scale[1] = mesh->scale[2] = 1;
  mesh->inertia = mjMESH_INERTIA_LEGACY;
  mesh->maxhullvert = -1;
  mesh->octree_maxdepth = 6;
}

void mjs_defaultHField(mjsHField* hfield) {
  memset(hfield, 0, sizeof(*hfield));
}

void mjs_defaultSkin(mjsSkin* skin) {
  memset(skin, 0, sizeof(*skin));
  default_grey(skin->rgba);
}

void mjs_defaultTexture(mjsTexture* texture) {
  memset(texture, 0, sizeof(*texture));
  texture->type = mjTEXTURE_CUBE;
  texture->rgb1[0] = texture->rgb1[1] = texture->rgb1[2] = 0.8;
  texture->rgb2[0] = texture->rgb2[1] = texture->rgb2[2] = 0.5;
  texture->random = 0.01;
  texture->nchannel = 3;
  texture->gridsize[0] = texture->gridsize[1] = 1;
  memset(texture->gridlayout, '.', sizeof(texture->gridlayout));
}

void mjs_defaultMaterial(mjsMaterial* material) {
  memset(material, 0, sizeof(*material));
  material->texrepeat[0] = material->texrepeat[1] = 1;
  material->specular = 0.5f;
  material->shininess = 0.5f;
  material->metallic = -1;
  material->roughness = -1;
  material->rgba[0] = material->rgba[1] = material->rgba[2] = material->rgba[3] = 1;
}

void mjs_defaultPair(mjsPair* pair) {
  memset(pair, 0, sizeof(*pair));
  pair->condim = 3;
  mj_defaultSolRefImp(pair->solref, NULL);
  mj_defaultSolRefImp(NULL, pair->solimp);
  pair->friction[0] = pair->friction[1] = 1;
  pair->friction[2] = 0.005;
  pair->friction[3] = pair->friction[4] = 0.0001;
}

void mjs_defaultEquality(mjsEquality* equality) {
  memset(equality, 0, sizeof(*equality));
  equality->type = mjEQ_CONNECT;
  equality->data[1] = 1;   // joint/tendon polynomial: linear coefficient
  equality->data[10] = 1;  // weld torque scale
  equality->active = 1;
  mj_defaultSolRefImp(equality->solref, NULL);
  mj_defaultSolRefImp(NULL, equality->solimp);
}

void mjs_defaultTendon(mjsTendon* tendon) {
  memset(tendon, 0, sizeof(*tendon));
  tendon->springlength[0] = tendon->springlength[1] = -1;
  mj_defaultSolRefImp(tendon->solref_friction, NULL);
  mj_defaultSolRefImp(NULL, tendon->solimp_friction);
  tendon->limited = mjLIMITED_AUTO;
  tendon->actfrclimited = mjLIMITED_AUTO;
  mj_defaultSolRefImp(tendon->solref_limit, NULL);
  mj_defaultSolRefImp(NULL, tendon->solimp_limit);
  tendon->width = 0.003;
  default_grey(tendon->rgba);
}

void mjs_defaultActuator(mjsActuator* actuator) {
  memset(actuator, 0, sizeof(*actuator));
  actuator->gaintype = mjGAIN_FIXED;
  actuator->gainprm[0] = 1;
  actuator->biastype = mjBIAS_NONE;
  actuator->dyntype = mjDYN_NONE;
  actuator->dynprm[0] = 1;
  actuator->actdim = -1;
  actuator->trntype = mjTRN_UNDEFINED;
  actuator->gear[0] = 1;
  actuator->ctrllimited = mjLIMITED_AUTO;
  actuator->forcelimited = mjLIMITED_AUTO;
  actuator->actlimited = mjLIMITED_AUTO;
}

void mjs_defaultSensor(mjsSensor* sensor) {
  memset(sensor, 0, sizeof(*sensor));
  sensor->type = mjSENS_TOUCH;
  sensor->datatype = mjDATATYPE_REAL;
  sensor->needstage = mjSTAGE_ACC;
}

void mjs_defaultNumeric(mjsNumeric* numeric) {
  memset(numeric, 0, sizeof(*numeric));
  numeric->size = -1;
}

void mjs_defaultText(mjsText* text) {
  memset(text, 0, sizeof(*text));
}

void mjs_defaultTuple(mjsTuple* tuple) {
  memset(tuple, 0, sizeof(*tuple));
}

void mjs_defaultKey(mjsKey* key) {
  memset(key, 0, sizeof(*key));
}

/* the spec's settings: compiler, options, sizes and statistics overrides */
void mjs_defaultSpec(mjSpec* spec) {
  memset(spec, 0, sizeof(*spec));
  mjsCompiler* c = &spec->compiler;
  c->autolimits = 1;
  c->settotalmass = -1;
  c->degree = 1;
  c->eulerseq[0] = 'x';
  c->eulerseq[1] = 'y';
  c->eulerseq[2] = 'z';
  c->usethread = 1;
  c->inertiafromgeom = mjINERTIAFROMGEOM_AUTO;
  c->inertiagrouprange[1] = 5;
  c->LRopt.mode = mjLRMODE_MUSCLE;
  c->LRopt.useexisting = 1;
  c->LRopt.accel = 20;
  c->LRopt.timeconst = 1;
  c->LRopt.timestep = 0.01;
  c->LRopt.inttotal = 10;
  c->LRopt.interval = 2;
  c->LRopt.tolrange = 0.05;
  tn__defaultOption(&spec->option);
  spec->memory = -1;
  spec->nuser_body = spec->nuser_jnt = spec->nuser_geom = spec->nuser_site = -1;
  spec->nuser_cam = spec->nuser_tendon = spec->nuser_actuator = spec->nuser_sensor = -1;
  spec->njmax = spec->nconmax = -1;
  spec->nstack = -1;
  spec->stat.meaninertia = spec->stat.meanmass = spec->stat.meansize = NAN;
  spec->stat.extent = NAN;
  spec->stat.center[0] = NAN;
}
