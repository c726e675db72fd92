/* torsion/mjspec.h — the model-editing types of MuJoCo 3.14's C API (mjSpec and the mjs*
 * element structs), with MuJoCo's names, field types and field order, so that programs
 * that build or edit a model in C compile unchanged against Torsion.
 *
 * A program creates a spec (mj_makeSpec, or mj_parseXML from MJCF), adds and edits elements
 * through the mjs_* functions declared in torsion.h, and compiles it with mj_compile. The
 * string and array fields are handles (mjString*, mjDoubleVec*, ...): in C they are opaque
 * (void, as in MuJoCo's C view) and are read and written only through mjs_getString,
 * mjs_setString, mjs_setDouble, mjs_getDouble and the other accessors. */
#ifndef TORSION_MJSPEC_H
#define TORSION_MJSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "mjdata.h"
#include "mjmodel.h"
#include "mjtnum.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------
 * Types only the spec structs use (mjtBool, mjtLightType and mjVisual come from the model
 * headers)
 * ------------------------------------------------------------------------------------- */

#ifndef mjNPOLY
#define mjNPOLY 2 /* polynomial coefficients beyond the linear one */
#endif
#ifndef mjNSENS
#define mjNSENS 3 /* integer parameters of a sensor */
#endif

#ifndef TN_HAVE_SPEC_ENUMS
#define TN_HAVE_SPEC_ENUMS
typedef enum mjtProjection { /* camera projection */
  mjPROJ_PERSPECTIVE = 0,
  mjPROJ_ORTHOGRAPHIC
} mjtProjection;

typedef enum mjtColorSpace { /* how texture colors are encoded */
  mjCOLORSPACE_AUTO = 0,
  mjCOLORSPACE_LINEAR,
  mjCOLORSPACE_SRGB
} mjtColorSpace;

typedef enum mjtSleepPolicy { /* sleeping of a kinematic tree */
  mjSLEEP_AUTO = 0,
  mjSLEEP_AUTO_NEVER,
  mjSLEEP_AUTO_ALLOWED,
  mjSLEEP_NEVER,
  mjSLEEP_ALLOWED,
  mjSLEEP_INIT
} mjtSleepPolicy;

typedef enum mjtFlexSelf { /* flex self-collision mode */
  mjFLEXSELF_NONE = 0,
  mjFLEXSELF_NARROW,
  mjFLEXSELF_BVH,
  mjFLEXSELF_SAP,
  mjFLEXSELF_AUTO
} mjtFlexSelf;
#endif

/* ---------------------------------------------------------------------------------------
 * Handles to strings and arrays (opaque in C)
 * ------------------------------------------------------------------------------------- */

typedef void mjString;
typedef void mjStringVec;
typedef void mjIntVec;
typedef void mjIntVecVec;
typedef void mjFloatVec;
typedef void mjFloatVecVec;
typedef void mjDoubleVec;
typedef void mjByteVec;

/* ---------------------------------------------------------------------------------------
 * Enums of the spec
 * ------------------------------------------------------------------------------------- */

typedef enum mjtGeomInertia { /* where a geom's mass sits */
  mjINERTIA_VOLUME = 0,        /* in its volume */
  mjINERTIA_SHELL              /* on its surface */
} mjtGeomInertia;

typedef enum mjtMeshInertia { /* how a mesh's inertia is computed */
  mjMESH_INERTIA_CONVEX = 0,
  mjMESH_INERTIA_EXACT,
  mjMESH_INERTIA_LEGACY,
  mjMESH_INERTIA_SHELL
} mjtMeshInertia;

typedef enum mjtMeshBuiltin { /* procedural meshes */
  mjMESH_BUILTIN_NONE = 0,
  mjMESH_BUILTIN_SPHERE,
  mjMESH_BUILTIN_HEMISPHERE,
  mjMESH_BUILTIN_CONE,
  mjMESH_BUILTIN_SUPERSPHERE,
  mjMESH_BUILTIN_SUPERTORUS,
  mjMESH_BUILTIN_WEDGE,
  mjMESH_BUILTIN_PLATE
} mjtMeshBuiltin;

typedef enum mjtBuiltin { /* procedural textures */
  mjBUILTIN_NONE = 0,
  mjBUILTIN_GRADIENT,
  mjBUILTIN_CHECKER,
  mjBUILTIN_FLAT
} mjtBuiltin;

typedef enum mjtMark { /* marks drawn on procedural textures */
  mjMARK_NONE = 0,
  mjMARK_EDGE,
  mjMARK_CROSS,
  mjMARK_RANDOM
} mjtMark;

typedef enum mjtLimited { /* limited flags: off, on, or inferred from the range */
  mjLIMITED_FALSE = 0,
  mjLIMITED_TRUE,
  mjLIMITED_AUTO
} mjtLimited;

typedef enum mjtAlignFree { /* free joint aligned with the body's inertial frame */
  mjALIGNFREE_FALSE = 0,
  mjALIGNFREE_TRUE,
  mjALIGNFREE_AUTO /* follow the compiler setting */
} mjtAlignFree;

typedef enum mjtInertiaFromGeom { /* body inertia from its geoms */
  mjINERTIAFROMGEOM_FALSE = 0,
  mjINERTIAFROMGEOM_TRUE,
  mjINERTIAFROMGEOM_AUTO /* only when no inertial is given */
} mjtInertiaFromGeom;

typedef enum mjtOrientation { /* which orientation of mjsOrientation is used */
  mjORIENTATION_QUAT = 0,
  mjORIENTATION_AXISANGLE,
  mjORIENTATION_XYAXES,
  mjORIENTATION_ZAXIS,
  mjORIENTATION_EULER
} mjtOrientation;

typedef enum mjtConflict { /* name conflicts when attaching */
  mjCONFLICT_WARNING = 0,
  mjCONFLICT_MERGE,
  mjCONFLICT_ERROR
} mjtConflict;

typedef enum mjtCTimer { /* compiler timers */
  mjCTIMER_TOTAL = 0,
  mjCTIMER_ASSETS,
  mjCTIMER_TEXTURE,
  mjCTIMER_MESH_LOAD,
  mjCTIMER_MESH_HULL,
  mjCTIMER_MESH_POLYGON,
  mjCTIMER_MESH_INERTIA,
  mjCTIMER_MESH_BVH,
  mjCTIMER_MESH_OCTREE,
  mjNCTIMER
} mjtCTimer;

/* ---------------------------------------------------------------------------------------
 * Element structs
 * ------------------------------------------------------------------------------------- */

/* the identity of an element (read only) */
typedef struct mjsElement_ {
  mjtObj elemtype;
  uint64_t signature;
} mjsElement;

/* <compiler> settings */
typedef struct mjsCompiler_ {
  mjtBool autolimits;
  double boundmass;
  double boundinertia;
  double settotalmass;
  mjtBool balanceinertia;
  mjtBool fitaabb;
  mjtBool degree;
  char eulerseq[3];
  mjtBool discardvisual;
  mjtBool usethread;
  mjtBool fusestatic;
  mjtInertiaFromGeom inertiafromgeom;
  int inertiagrouprange[2];
  mjtBool saveinertial;
  mjtBool alignfree;
  mjtConflict conflict;
  mjLROpt LRopt;
  mjString* meshdir;
  mjString* texturedir;
  uint64_t authored;
} mjsCompiler;

/* which option and visual fields were written explicitly */
typedef struct mjsAuthored_ {
  uint64_t option;
  int disableflags;
  int enableflags;
  int disableactuator;
  uint64_t visual_global;
  uint64_t visual_quality;
  uint64_t visual_headlight;
  uint64_t visual_map;
  uint64_t visual_scale;
  uint64_t visual_rgba;
} mjsAuthored;

/* the model being edited */
typedef struct mjSpec_ {
  mjsElement* element;
  mjString* modelname;
  mjsCompiler compiler;
  mjtBool strippath;
  mjOption option;
  mjVisual visual;
  mjStatistic stat;
  mjtSize memory;
  int nemax;
  int nuserdata;
  int nuser_body;
  int nuser_jnt;
  int nuser_geom;
  int nuser_site;
  int nuser_cam;
  int nuser_tendon;
  int nuser_actuator;
  int nuser_sensor;
  int nkey;
  int njmax;
  int nconmax;
  mjtSize nstack;
  mjString* comment;
  mjString* modelfiledir;
  mjtBool hasImplicitPluginElem;
  mjsAuthored authored;
} mjSpec;

/* the alternatives to a quaternion */
typedef struct mjsOrientation_ {
  mjtOrientation type;
  double axisangle[4];
  double xyaxes[6];
  double zaxis[3];
  double euler[3];
} mjsOrientation;

/* an engine plugin reference */
typedef struct mjsPlugin_ {
  mjsElement* element;
  mjString* name;
  mjString* plugin_name;
  mjtBool active;
  mjString* info;
} mjsPlugin;

typedef struct mjsBody_ {
  mjsElement* element;
  mjString* childclass;
  double pos[3];
  double quat[4];
  mjsOrientation alt;
  double mass;
  double ipos[3];
  double iquat[4];
  double inertia[3];
  mjsOrientation ialt;
  double fullinertia[6];
  mjtBool mocap;
  double gravcomp;
  mjtSleepPolicy sleep;
  mjtByte simple;
  mjDoubleVec* userdata;
  mjtBool explicitinertial;
  mjsPlugin plugin;
  mjString* info;
} mjsBody;

typedef struct mjsFrame_ {
  mjsElement* element;
  mjString* childclass;
  double pos[3];
  double quat[4];
  mjsOrientation alt;
  mjString* info;
} mjsFrame;

typedef struct mjsJoint_ {
  mjsElement* element;
  mjtJoint type;
  double pos[3];
  double axis[3];
  double ref;
  mjtAlignFree align;
  double stiffness[mjNPOLY + 1];
  double springref;
  double springdamper[2];
  mjtLimited limited;
  double range[2];
  double margin;
  mjtNum solref_limit[mjNREF];
  mjtNum solimp_limit[mjNIMP];
  mjtLimited actfrclimited;
  double actfrcrange[2];
  double armature;
  double damping[mjNPOLY + 1];
  double frictionloss;
  mjtNum solref_friction[mjNREF];
  mjtNum solimp_friction[mjNIMP];
  int group;
  mjtBool actgravcomp;
  mjDoubleVec* userdata;
  mjString* info;
} mjsJoint;

typedef struct mjsGeom_ {
  mjsElement* element;
  mjtGeom type;
  double pos[3];
  double quat[4];
  mjsOrientation alt;
  double fromto[6];
  double size[3];
  int contype;
  int conaffinity;
  int condim;
  int priority;
  double friction[3];
  double solmix;
  mjtNum solref[mjNREF];
  mjtNum solimp[mjNIMP];
  double margin;
  double gap;
  double surfacevel[6];
  double adhesion;
  double mass;
  double density;
  mjtGeomInertia typeinertia;
  mjtNum fluid_ellipsoid;
  mjtNum fluid_coefs[5];
  mjString* material;
  float rgba[4];
  int group;
  mjString* hfieldname;
  mjString* meshname;
  double fitscale;
  mjDoubleVec* userdata;
  mjsPlugin plugin;
  mjString* info;
} mjsGeom;

typedef struct mjsSite_ {
  mjsElement* element;
  double pos[3];
  double quat[4];
  mjsOrientation alt;
  double fromto[6];
  double size[3];
  mjtGeom type;
  mjString* material;
  int group;
  float rgba[4];
  mjString* meshname;
  mjDoubleVec* userdata;
  mjString* info;
} mjsSite;

typedef struct mjsCamera_ {
  mjsElement* element;
  double pos[3];
  double quat[4];
  mjsOrientation alt;
  mjtCamLight mode;
  mjString* targetbody;
  mjtProjection proj;
  int resolution[2];
  int output;
  double fovy;
  double ipd;
  float intrinsic[4];
  float sensor_size[2];
  float focal_length[2];
  float focal_pixel[2];
  float principal_length[2];
  float principal_pixel[2];
  mjDoubleVec* userdata;
  mjString* info;
} mjsCamera;

typedef struct mjsLight_ {
  mjsElement* element;
  double pos[3];
  double dir[3];
  mjtCamLight mode;
  mjString* targetbody;
  mjtBool active;
  mjtLightType type;
  mjString* texture;
  mjtBool castshadow;
  float bulbradius;
  float intensity;
  float range;
  float attenuation[3];
  float cutoff;
  float softness;
  float exponent;
  float ambient[3];
  float diffuse[3];
  float specular[3];
  mjString* info;
} mjsLight;

typedef struct mjsFlex_ {
  mjsElement* element;
  int contype;
  int conaffinity;
  int condim;
  int priority;
  double friction[3];
  double solmix;
  mjtNum solref[mjNREF];
  mjtNum solimp[mjNIMP];
  double margin;
  double gap;
  int dim;
  double radius;
  double size[3];
  mjtBool internal;
  mjtBool flatskin;
  mjtFlexSelf selfcollide;
  int passive;
  int activelayers;
  int group;
  double edgestiffness;
  double edgedamping;
  float rgba[4];
  mjString* material;
  double young;
  double poisson;
  double damping;
  double thickness;
  int elastic2d;
  int cellcount[3];
  int order;
  mjStringVec* nodebody;
  mjStringVec* vertbody;
  mjDoubleVec* node;
  mjDoubleVec* vert;
  mjIntVec* elem;
  mjFloatVec* texcoord;
  mjIntVec* elemtexcoord;
  mjString* info;
} mjsFlex;

typedef struct mjsMesh_ {
  mjsElement* element;
  mjString* content_type;
  mjString* file;
  double refpos[3];
  double refquat[4];
  double scale[3];
  mjtMeshInertia inertia;
  mjtBool smoothnormal;
  mjtBool needsdf;
  int maxhullvert;
  mjFloatVec* uservert;
  mjFloatVec* usernormal;
  mjFloatVec* usertexcoord;
  mjIntVec* userface;
  mjIntVec* userfacenormal;
  mjIntVec* userfacetexcoord;
  mjsPlugin plugin;
  mjString* material;
  int octree_maxdepth;
  mjString* info;
} mjsMesh;

typedef struct mjsHField_ {
  mjsElement* element;
  mjString* content_type;
  mjString* file;
  double size[4];
  int nrow;
  int ncol;
  mjFloatVec* userdata;
  mjString* info;
} mjsHField;

typedef struct mjsSkin_ {
  mjsElement* element;
  mjString* file;
  mjString* material;
  float rgba[4];
  float inflate;
  int group;
  mjFloatVec* vert;
  mjFloatVec* texcoord;
  mjIntVec* face;
  mjStringVec* bodyname;
  mjFloatVec* bindpos;
  mjFloatVec* bindquat;
  mjIntVecVec* vertid;
  mjFloatVecVec* vertweight;
  mjString* info;
} mjsSkin;

typedef struct mjsTexture_ {
  mjsElement* element;
  mjtTexture type;
  mjtColorSpace colorspace;
  mjtBuiltin builtin;
  mjtMark mark;
  double rgb1[3];
  double rgb2[3];
  double markrgb[3];
  double random;
  int height;
  int width;
  int nchannel;
  mjString* content_type;
  mjString* file;
  int gridsize[2];
  char gridlayout[12];
  mjStringVec* cubefiles;
  mjByteVec* data;
  mjtBool hflip;
  mjtBool vflip;
  mjString* info;
} mjsTexture;

typedef struct mjsMaterial_ {
  mjsElement* element;
  mjStringVec* textures;
  mjtBool texuniform;
  float texrepeat[2];
  float emission;
  float specular;
  float shininess;
  float reflectance;
  float metallic;
  float roughness;
  float rgba[4];
  mjString* info;
} mjsMaterial;

typedef struct mjsPair_ {
  mjsElement* element;
  mjString* geomname1;
  mjString* geomname2;
  int condim;
  mjtNum solref[mjNREF];
  mjtNum solreffriction[mjNREF];
  mjtNum solimp[mjNIMP];
  double margin;
  double gap;
  double adhesion;
  double friction[5];
  mjString* info;
} mjsPair;

typedef struct mjsExclude_ {
  mjsElement* element;
  mjString* bodyname1;
  mjString* bodyname2;
  mjString* info;
} mjsExclude;

typedef struct mjsEquality_ {
  mjsElement* element;
  mjtEq type;
  double data[mjNEQDATA];
  mjtBool active;
  mjString* name1;
  mjString* name2;
  mjtObj objtype;
  mjtNum solref[mjNREF];
  mjtNum solimp[mjNIMP];
  mjString* info;
} mjsEquality;

typedef struct mjsTendon_ {
  mjsElement* element;
  double stiffness[mjNPOLY + 1];
  double springlength[2];
  double damping[mjNPOLY + 1];
  double frictionloss;
  mjtNum solref_friction[mjNREF];
  mjtNum solimp_friction[mjNIMP];
  double armature;
  mjtLimited limited;
  mjtLimited actfrclimited;
  double range[2];
  double actfrcrange[2];
  double margin;
  mjtNum solref_limit[mjNREF];
  mjtNum solimp_limit[mjNIMP];
  mjString* material;
  double width;
  float rgba[4];
  int group;
  mjDoubleVec* userdata;
  mjString* info;
} mjsTendon;

typedef struct mjsWrap_ {
  mjsElement* element;
  mjtWrap type;
  mjString* info;
} mjsWrap;

typedef struct mjsActuator_ {
  mjsElement* element;
  mjtGain gaintype;
  double gainprm[mjNGAIN];
  mjtBias biastype;
  double biasprm[mjNBIAS];
  mjtDyn dyntype;
  double dynprm[mjNDYN];
  int actdim;
  int ctrlspec;
  double velrange[2];
  double ffrange[2];
  mjtBool actearly;
  mjtTrn trntype;
  double gear[6];
  mjString* target;
  mjString* refsite;
  mjString* slidersite;
  double cranklength;
  double lengthrange[2];
  double inheritrange;
  double damping[mjNPOLY + 1];
  double armature;
  mjtLimited ctrllimited;
  double ctrlrange[2];
  mjtLimited forcelimited;
  double forcerange[2];
  mjtLimited actlimited;
  double actrange[2];
  int group;
  int nsample;
  int interp;
  double delay;
  mjDoubleVec* userdata;
  mjsPlugin plugin;
  mjString* info;
} mjsActuator;

typedef struct mjsSensor_ {
  mjsElement* element;
  mjtSensor type;
  mjtObj objtype;
  mjString* objname;
  mjtObj reftype;
  mjString* refname;
  int intprm[mjNSENS];
  mjtDataType datatype;
  mjtStage needstage;
  int dim;
  double cutoff;
  double noise;
  int nsample;
  int interp;
  double delay;
  double interval[2];
  mjDoubleVec* userdata;
  mjsPlugin plugin;
  mjString* info;
} mjsSensor;

typedef struct mjsNumeric_ {
  mjsElement* element;
  mjDoubleVec* data;
  int size;
  mjString* info;
} mjsNumeric;

typedef struct mjsText_ {
  mjsElement* element;
  mjString* data;
  mjString* info;
} mjsText;

typedef struct mjsTuple_ {
  mjsElement* element;
  mjIntVec* objtype;
  mjStringVec* objname;
  mjDoubleVec* objprm;
  mjString* info;
} mjsTuple;

typedef struct mjsKey_ {
  mjsElement* element;
  double time;
  mjDoubleVec* qpos;
  mjDoubleVec* qvel;
  mjDoubleVec* act;
  mjDoubleVec* mpos;
  mjDoubleVec* mquat;
  mjDoubleVec* ctrl;
  mjString* info;
} mjsKey;

/* a default class: the values its elements start from */
typedef struct mjsDefault_ {
  mjsElement* element;
  mjsJoint* joint;
  mjsGeom* geom;
  mjsSite* site;
  mjsCamera* camera;
  mjsLight* light;
  mjsFlex* flex;
  mjsMesh* mesh;
  mjsMaterial* material;
  mjsPair* pair;
  mjsEquality* equality;
  mjsTendon* tendon;
  mjsActuator* actuator;
} mjsDefault;

/* ---------------------------------------------------------------------------------------
 * Functions (MuJoCo declares them in mujoco.h). Errors: functions that return a pointer
 * return NULL and, where MuJoCo does, raise mju_error; mj_compile and mj_parseXML* leave
 * the message in mjs_getError(spec) / the error buffer.
 * ------------------------------------------------------------------------------------- */

typedef struct mjVFS_ mjVFS;

/* spec lifetime, parsing and compiling */
mjSpec* mj_makeSpec(void);
mjSpec* mj_copySpec(const mjSpec* s);
void mj_deleteSpec(mjSpec* s);
int mjs_activatePlugin(mjSpec* s, const char* name);
int mjs_setDeepCopy(mjSpec* s, int deepcopy);
mjSpec* mj_parseXML(const char* filename, const mjVFS* vfs, char* error, int error_sz);
mjSpec* mj_parseXMLString(const char* xml, const mjVFS* vfs, char* error, int error_sz);
mjSpec* mj_parse(const char* filename, const char* content_type, const mjVFS* vfs, char* error,
                 int error_sz);
mjModel* mj_compile(mjSpec* s, const mjVFS* vfs);
int mj_recompile(mjSpec* s, const mjVFS* vfs, mjModel* m, mjData* d);
int mj_saveXMLString(const mjSpec* s, char* xml, int xml_sz, char* error, int error_sz);
int mj_saveXML(const mjSpec* s, const char* filename, char* error, int error_sz);
const char* mjs_getError(mjSpec* s);
const double* mjs_getTimer(mjSpec* s);
int mjs_isWarning(mjSpec* s);
int mjs_numWarnings(const mjSpec* spec);
const char* mjs_getWarning(const mjSpec* spec, int index);

/* attach a copy of a body subtree (child) under a body, frame or site (parent), names
 * prefixed and suffixed; the attached body or NULL (error in mjs_getError of parent's spec) */
mjsElement* mjs_attach(mjsElement* parent, const mjsElement* child, const char* prefix,
                       const char* suffix);

/* turn a body into a frame of its parent (children moved there); *body becomes NULL */
mjsFrame* mjs_bodyToFrame(mjsBody** body);

/* tree elements */
mjsBody* mjs_addBody(mjsBody* body, const mjsDefault* def);
mjsSite* mjs_addSite(mjsBody* body, const mjsDefault* def);
mjsJoint* mjs_addJoint(mjsBody* body, const mjsDefault* def);
mjsJoint* mjs_addFreeJoint(mjsBody* body);
mjsGeom* mjs_addGeom(mjsBody* body, const mjsDefault* def);
mjsCamera* mjs_addCamera(mjsBody* body, const mjsDefault* def);
mjsLight* mjs_addLight(mjsBody* body, const mjsDefault* def);
mjsFrame* mjs_addFrame(mjsBody* body, mjsFrame* parentframe);
int mjs_delete(mjSpec* spec, mjsElement* element);

/* non-tree elements */
mjsActuator* mjs_addActuator(mjSpec* s, const mjsDefault* def);
mjsSensor* mjs_addSensor(mjSpec* s);
mjsPair* mjs_addPair(mjSpec* s, const mjsDefault* def);
mjsExclude* mjs_addExclude(mjSpec* s);
mjsEquality* mjs_addEquality(mjSpec* s, const mjsDefault* def);
mjsTendon* mjs_addTendon(mjSpec* s, const mjsDefault* def);
mjsWrap* mjs_wrapSite(mjsTendon* tendon, const char* name);
mjsWrap* mjs_wrapGeom(mjsTendon* tendon, const char* name, const char* sidesite);
mjsWrap* mjs_wrapJoint(mjsTendon* tendon, const char* name, double coef);
mjsWrap* mjs_wrapPulley(mjsTendon* tendon, double divisor);
mjsNumeric* mjs_addNumeric(mjSpec* s);
mjsText* mjs_addText(mjSpec* s);
mjsTuple* mjs_addTuple(mjSpec* s);
mjsKey* mjs_addKey(mjSpec* s);
mjsDefault* mjs_addDefault(mjSpec* s, const char* classname, const mjsDefault* parent);
mjsPlugin* mjs_addPlugin(mjSpec* s);
mjsFlex* mjs_addFlex(mjSpec* s);

/* actuator shortcuts: set gain, bias and dynamics; return an error message or NULL */
const char* mjs_setToMotor(mjsActuator* actuator);
const char* mjs_setToPosition(mjsActuator* actuator, double kp, double kv[1],
                              double dampratio[1], double timeconst[1], double inheritrange);
const char* mjs_setToIntVelocity(mjsActuator* actuator, double kp, double kv[1],
                                 double dampratio[1], double timeconst[1], double inheritrange);
const char* mjs_setToVelocity(mjsActuator* actuator, double kv);
const char* mjs_setToDamper(mjsActuator* actuator, double kv);
const char* mjs_setToCylinder(mjsActuator* actuator, double timeconst, double bias, double area,
                              double diameter);
const char* mjs_setToMuscle(mjsActuator* actuator, double timeconst[2], double tausmooth,
                            double range[2], double force, double scale, double lmin,
                            double lmax, double vmax, double fpmax, double fvmax);
const char* mjs_setToAdhesion(mjsActuator* actuator, double gain);

/* assets */
mjsMesh* mjs_addMesh(mjSpec* s, const mjsDefault* def);
mjsHField* mjs_addHField(mjSpec* s);
mjsSkin* mjs_addSkin(mjSpec* s);
mjsTexture* mjs_addTexture(mjSpec* s);
mjsMaterial* mjs_addMaterial(mjSpec* s, const mjsDefault* def);

/* finding and walking elements */
mjSpec* mjs_getSpec(const mjsElement* element);
mjSpec* mjs_getOriginSpec(const mjsElement* element);
mjsCompiler* mjs_getCompiler(const mjsElement* element);
mjSpec* mjs_findSpec(const mjSpec* spec, const char* name);
mjsBody* mjs_findBody(const mjSpec* s, const char* name);
mjsElement* mjs_findElement(const mjSpec* s, mjtObj type, const char* name);
mjsBody* mjs_findChild(const mjsBody* body, const char* name);
mjsBody* mjs_getParent(const mjsElement* element);
mjsFrame* mjs_getFrame(const mjsElement* element);
mjsFrame* mjs_findFrame(const mjSpec* s, const char* name);
mjsDefault* mjs_getDefault(const mjsElement* element);
mjsDefault* mjs_findDefault(const mjSpec* s, const char* classname);
mjsDefault* mjs_getSpecDefault(const mjSpec* s);
int mjs_getId(const mjsElement* element);
mjsElement* mjs_firstChild(const mjsBody* body, mjtObj type, int recurse);
mjsElement* mjs_nextChild(const mjsBody* body, const mjsElement* child, int recurse);
mjsElement* mjs_firstElement(const mjSpec* s, mjtObj type);
mjsElement* mjs_nextElement(const mjSpec* s, const mjsElement* element);
mjsElement* mjs_getWrapTarget(const mjsWrap* wrap);
mjsSite* mjs_getWrapSideSite(const mjsWrap* wrap);
double mjs_getWrapDivisor(const mjsWrap* wrap);
double mjs_getWrapCoef(const mjsWrap* wrap);
int mjs_getWrapNum(const mjsTendon* tendonspec);
mjsWrap* mjs_getWrap(const mjsTendon* tendonspec, int i);

/* names, strings and arrays */
int mjs_setName(mjsElement* element, const char* name);
void mjs_setBuffer(mjByteVec* dest, const void* array, int size);
void mjs_setString(mjString* dest, const char* text);
void mjs_setStringVec(mjStringVec* dest, const char* text);
mjtBool mjs_setInStringVec(mjStringVec* dest, int i, const char* text);
void mjs_appendString(mjStringVec* dest, const char* text);
void mjs_setInt(mjIntVec* dest, const int* array, int size);
void mjs_appendIntVec(mjIntVecVec* dest, const int* array, int size);
void mjs_setFloat(mjFloatVec* dest, const float* array, int size);
void mjs_appendFloatVec(mjFloatVecVec* dest, const float* array, int size);
void mjs_setDouble(mjDoubleVec* dest, const double* array, int size);
mjString* mjs_getName(mjsElement* element);
const char* mjs_getString(const mjString* source);
const double* mjs_getDouble(const mjDoubleVec* source, int* size);

/* element settings */
void mjs_setDefault(mjsElement* element, const mjsDefault* def);
int mjs_setFrame(mjsElement* dest, mjsFrame* frame);
const char* mjs_resolveOrientation(double quat[4], mjtByte degree, const char* sequence,
                                   const mjsOrientation* orientation);
void mjs_setUserValue(mjsElement* element, const char* key, const void* data);
void mjs_setUserValueWithCleanup(mjsElement* element, const char* key, const void* data,
                                 void (*cleanup)(const void*));
const void* mjs_getUserValue(mjsElement* element, const char* key);
void mjs_deleteUserValue(mjsElement* element, const char* key);
int mjs_sensorDim(const mjsSensor* sensor);

/* MuJoCo's default values */
void mjs_defaultSpec(mjSpec* spec);
void mjs_defaultOrientation(mjsOrientation* orient);
void mjs_defaultBody(mjsBody* body);
void mjs_defaultFrame(mjsFrame* frame);
void mjs_defaultJoint(mjsJoint* joint);
void mjs_defaultGeom(mjsGeom* geom);
void mjs_defaultSite(mjsSite* site);
void mjs_defaultCamera(mjsCamera* camera);
void mjs_defaultLight(mjsLight* light);
void mjs_defaultFlex(mjsFlex* flex);
void mjs_defaultMesh(mjsMesh* mesh);
void mjs_defaultHField(mjsHField* hfield);
void mjs_defaultSkin(mjsSkin* skin);
void mjs_defaultTexture(mjsTexture* texture);
void mjs_defaultMaterial(mjsMaterial* material);
void mjs_defaultPair(mjsPair* pair);
void mjs_defaultEquality(mjsEquality* equality);
void mjs_defaultTendon(mjsTendon* tendon);
void mjs_defaultActuator(mjsActuator* actuator);
void mjs_defaultSensor(mjsSensor* sensor);
void mjs_defaultNumeric(mjsNumeric* numeric);
void mjs_defaultText(mjsText* text);
void mjs_defaultTuple(mjsTuple* tuple);
void mjs_defaultKey(mjsKey* key);
void mjs_defaultPlugin(mjsPlugin* plugin);

/* checked casts: NULL when the element is of another type */
mjsBody* mjs_asBody(mjsElement* element);
mjsGeom* mjs_asGeom(mjsElement* element);
mjsJoint* mjs_asJoint(mjsElement* element);
mjsSite* mjs_asSite(mjsElement* element);
mjsCamera* mjs_asCamera(mjsElement* element);
mjsLight* mjs_asLight(mjsElement* element);
mjsFrame* mjs_asFrame(mjsElement* element);
mjsActuator* mjs_asActuator(mjsElement* element);
mjsSensor* mjs_asSensor(mjsElement* element);
mjsFlex* mjs_asFlex(mjsElement* element);
mjsPair* mjs_asPair(mjsElement* element);
mjsEquality* mjs_asEquality(mjsElement* element);
mjsExclude* mjs_asExclude(mjsElement* element);
mjsTendon* mjs_asTendon(mjsElement* element);
mjsNumeric* mjs_asNumeric(mjsElement* element);
mjsText* mjs_asText(mjsElement* element);
mjsTuple* mjs_asTuple(mjsElement* element);
mjsKey* mjs_asKey(mjsElement* element);
mjsMesh* mjs_asMesh(mjsElement* element);
mjsHField* mjs_asHField(mjsElement* element);
mjsSkin* mjs_asSkin(mjsElement* element);
mjsTexture* mjs_asTexture(mjsElement* element);
mjsMaterial* mjs_asMaterial(mjsElement* element);
mjsPlugin* mjs_asPlugin(mjsElement* element);

#ifdef __cplusplus
}
#endif

#endif /* TORSION_MJSPEC_H */
