/* torsion/mjtnum.h — scalar type, constants and every public enumeration.
 *
 * Names and numeric values follow MuJoCo 3.14 exactly so that code written against MuJoCo's
 * headers compiles against Torsion with only the #include changed. */
#ifndef TORSION_MJTNUM_H
#define TORSION_MJTNUM_H

#include <stdint.h>

/* the floating-point type of every engine quantity */
typedef double mjtNum;
/* MuJoCo's byte type (flags, booleans stored in arrays) */
typedef unsigned char mjtByte;
/* MuJoCo's boolean type (flags in model and data arrays, boolean arguments) */
#ifndef __cplusplus
typedef _Bool mjtBool;
#else
typedef bool mjtBool;
#endif
/* sizes of models and buffers (MuJoCo's mjtSize, 64 bits) */
typedef int64_t mjtSize;

/* numeric limits and small constants, as MuJoCo defines them */
#define mjPI 3.14159265358979323846
#define mjMAXVAL 1E+10     /* values above this are treated as divergence */
#define mjMINMU 1E-5       /* minimum friction coefficient */
#define mjMINIMP 0.0001    /* minimum constraint impedance */
#define mjMAXIMP 0.9999    /* maximum constraint impedance */
#define mjMAXCONPAIR 50    /* maximum contacts per geom pair */
#define mjMINVAL 1E-15     /* smallest value treated as non-zero */
#define mjNREF 2           /* solref size */
#define mjNIMP 5           /* solimp size */
#define mjNFLUID 12        /* fluid parameters per geom */
#define mjNDYN 10          /* actuator dynamics parameters */
#define mjNGAIN 10         /* actuator gain parameters */
#define mjNBIAS 10         /* actuator bias parameters */
#define mjNEQDATA 11       /* equality constraint data */
#define mjNSOLVER 200      /* solver statistics kept per island */
#define mjNISLAND 20       /* islands with kept statistics */

/* smaller and larger of two values (each argument may be evaluated twice) */
#define mjMIN(a, b) (((a) < (b)) ? (a) : (b))
#define mjMAX(a, b) (((a) > (b)) ? (a) : (b))

/* joint types */
typedef enum mjtJoint {
  mjJNT_FREE = 0,
  mjJNT_BALL,
  mjJNT_SLIDE,
  mjJNT_HINGE
} mjtJoint;

/* geom types */
typedef enum mjtGeom {
  mjGEOM_PLANE = 0,
  mjGEOM_HFIELD,
  mjGEOM_SPHERE,
  mjGEOM_CAPSULE,
  mjGEOM_ELLIPSOID,
  mjGEOM_CYLINDER,
  mjGEOM_BOX,
  mjGEOM_MESH,
  mjGEOM_SDF,
  mjNGEOMTYPES,
  mjGEOM_ARROW = 100,
  mjGEOM_ARROW1,
  mjGEOM_ARROW2,
  mjGEOM_LINE,
  mjGEOM_LINEBOX,
  mjGEOM_FLEX,
  mjGEOM_SKIN,
  mjGEOM_LABEL,
  mjGEOM_TRIANGLE,
  mjGEOM_NONE = 1001
} mjtGeom;

/* numerical integrators */
typedef enum mjtIntegrator {
  mjINT_EULER = 0,
  mjINT_RK4,
  mjINT_IMPLICIT,
  mjINT_IMPLICITFAST
} mjtIntegrator;

/* constraint solvers */
typedef enum mjtSolver { mjSOL_PGS = 0, mjSOL_CG, mjSOL_NEWTON } mjtSolver;

/* friction cone types */
typedef enum mjtCone { mjCONE_PYRAMIDAL = 0, mjCONE_ELLIPTIC } mjtCone;

/* constraint Jacobian representation */
typedef enum mjtJacobian { mjJAC_DENSE = 0, mjJAC_SPARSE, mjJAC_AUTO } mjtJacobian;

/* disable flags (mjOption.disableflags) */
typedef enum mjtDisableBit {
  mjDSBL_CONSTRAINT = 1 << 0,
  mjDSBL_EQUALITY = 1 << 1,
  mjDSBL_FRICTIONLOSS = 1 << 2,
  mjDSBL_LIMIT = 1 << 3,
  mjDSBL_CONTACT = 1 << 4,
  mjDSBL_SPRING = 1 << 5,
  mjDSBL_DAMPER = 1 << 6,
  mjDSBL_GRAVITY = 1 << 7,
  mjDSBL_CLAMPCTRL = 1 << 8,
  mjDSBL_WARMSTART = 1 << 9,
  mjDSBL_FILTERPARENT = 1 << 10,
  mjDSBL_ACTUATION = 1 << 11,
  mjDSBL_REFSAFE = 1 << 12,
  mjDSBL_SENSOR = 1 << 13,
  mjDSBL_MIDPHASE = 1 << 14,
  mjDSBL_EULERDAMP = 1 << 15,
  mjDSBL_AUTORESET = 1 << 16,
  mjDSBL_NATIVECCD = 1 << 17,
  mjDSBL_ISLAND = 1 << 18,
  mjDSBL_MULTICCD = 1 << 19,
  mjNDISABLE = 20
} mjtDisableBit;

/* enable flags (mjOption.enableflags) */
typedef enum mjtEnableBit {
  mjENBL_OVERRIDE = 1 << 0,
  mjENBL_ENERGY = 1 << 1,
  mjENBL_FWDINV = 1 << 2,
  mjENBL_INVDISCRETE = 1 << 3,
  mjENBL_SLEEP = 1 << 4,
  mjENBL_DIAGEXACT = 1 << 5,
  mjENBL_IPC = 1 << 6,
  mjNENABLE = 7
} mjtEnableBit;

/* state components for mj_getState / mj_setState */
typedef enum mjtState {
  mjSTATE_TIME = 1 << 0,
  mjSTATE_QPOS = 1 << 1,
  mjSTATE_QVEL = 1 << 2,
  mjSTATE_ACT = 1 << 3,
  mjSTATE_HISTORY = 1 << 4,
  mjSTATE_WARMSTART = 1 << 5,
  mjSTATE_CTRL = 1 << 6,
  mjSTATE_QFRC_APPLIED = 1 << 7,
  mjSTATE_XFRC_APPLIED = 1 << 8,
  mjSTATE_EQ_ACTIVE = 1 << 9,
  mjSTATE_MOCAP_POS = 1 << 10,
  mjSTATE_MOCAP_QUAT = 1 << 11,
  mjSTATE_USERDATA = 1 << 12,
  mjSTATE_PLUGIN = 1 << 13,
  mjNSTATE = 14,
  mjSTATE_PHYSICS = mjSTATE_QPOS | mjSTATE_QVEL | mjSTATE_ACT | mjSTATE_HISTORY,
  mjSTATE_FULLPHYSICS = mjSTATE_TIME | mjSTATE_PHYSICS | mjSTATE_PLUGIN,
  mjSTATE_USER = mjSTATE_CTRL | mjSTATE_QFRC_APPLIED | mjSTATE_XFRC_APPLIED |
                 mjSTATE_EQ_ACTIVE | mjSTATE_MOCAP_POS | mjSTATE_MOCAP_QUAT |
                 mjSTATE_USERDATA,
  mjSTATE_INTEGRATION = mjSTATE_FULLPHYSICS | mjSTATE_USER | mjSTATE_WARMSTART
} mjtState;

/* warning counters in mjData.warning */
typedef enum mjtWarning {
  mjWARN_INERTIA = 0,
  mjWARN_CONTACTFULL,
  mjWARN_CNSTRFULL,
  mjWARN_BADQPOS,
  mjWARN_BADQVEL,
  mjWARN_BADQACC,
  mjWARN_BADCTRL,
  mjNWARNING
} mjtWarning;

/* actuator transmission types */
typedef enum mjtTrn {
  mjTRN_JOINT = 0,
  mjTRN_JOINTINPARENT,
  mjTRN_SLIDERCRANK,
  mjTRN_TENDON,
  mjTRN_SITE,
  mjTRN_BODY,
  mjTRN_SO3,
  mjTRN_UNDEFINED = 1000
} mjtTrn;

/* actuator activation dynamics */
typedef enum mjtDyn {
  mjDYN_NONE = 0,
  mjDYN_INTEGRATOR,
  mjDYN_FILTER,
  mjDYN_FILTEREXACT,
  mjDYN_MUSCLE,
  mjDYN_DCMOTOR,
  mjDYN_PID,
  mjDYN_USER
} mjtDyn;

/* actuator gain types */
typedef enum mjtGain {
  mjGAIN_FIXED = 0,
  mjGAIN_AFFINE,
  mjGAIN_MUSCLE,
  mjGAIN_DCMOTOR,
  mjGAIN_SO3,
  mjGAIN_PID,
  mjGAIN_USER
} mjtGain;

/* actuator bias types */
typedef enum mjtBias {
  mjBIAS_NONE = 0,
  mjBIAS_AFFINE,
  mjBIAS_MUSCLE,
  mjBIAS_DCMOTOR,
  mjBIAS_SO3,
  mjBIAS_USER
} mjtBias;

/* object types (names, sensors, equality) */
typedef enum mjtObj {
  mjOBJ_UNKNOWN = 0,
  mjOBJ_BODY,
  mjOBJ_XBODY,
  mjOBJ_JOINT,
  mjOBJ_DOF,
  mjOBJ_GEOM,
  mjOBJ_SITE,
  mjOBJ_CAMERA,
  mjOBJ_LIGHT,
  mjOBJ_FLEX,
  mjOBJ_MESH,
  mjOBJ_SKIN,
  mjOBJ_HFIELD,
  mjOBJ_TEXTURE,
  mjOBJ_MATERIAL,
  mjOBJ_PAIR,
  mjOBJ_EXCLUDE,
  mjOBJ_EQUALITY,
  mjOBJ_TENDON,
  mjOBJ_ACTUATOR,
  mjOBJ_SENSOR,
  mjOBJ_NUMERIC,
  mjOBJ_TEXT,
  mjOBJ_TUPLE,
  mjOBJ_KEY,
  mjOBJ_PLUGIN,
  mjNOBJECT,
  mjOBJ_FRAME = 100,
  mjOBJ_DEFAULT,
  mjOBJ_MODEL
} mjtObj;

/* equality constraint types */
typedef enum mjtEq {
  mjEQ_CONNECT = 0,
  mjEQ_WELD,
  mjEQ_JOINT,
  mjEQ_TENDON,
  mjEQ_FLEX,
  mjEQ_FLEXVERT,
  mjEQ_FLEXSTRAIN,
  mjEQ_DISTANCE
} mjtEq;

/* tendon wrap object types */
typedef enum mjtWrap {
  mjWRAP_NONE = 0,
  mjWRAP_JOINT,
  mjWRAP_PULLEY,
  mjWRAP_SITE,
  mjWRAP_SPHERE,
  mjWRAP_CYLINDER
} mjtWrap;

/* constraint row types (mjData.efc_type) */
#define TORSION_HAS_MJTCONSTRAINT 1
typedef enum mjtConstraint {
  mjCNSTR_EQUALITY = 0,
  mjCNSTR_FRICTION_DOF,
  mjCNSTR_FRICTION_TENDON,
  mjCNSTR_LIMIT_JOINT,
  mjCNSTR_LIMIT_TENDON,
  mjCNSTR_CONTACT_FRICTIONLESS,
  mjCNSTR_CONTACT_PYRAMIDAL,
  mjCNSTR_CONTACT_ELLIPTIC
} mjtConstraint;

/* constraint row states (mjData.efc_state) */
typedef enum mjtConstraintState {
  mjCNSTRSTATE_SATISFIED = 0,
  mjCNSTRSTATE_QUADRATIC,
  mjCNSTRSTATE_LINEARNEG,
  mjCNSTRSTATE_LINEARPOS,
  mjCNSTRSTATE_CONE
} mjtConstraintState;

/* pipeline timers (mjData.timer), filled when mjcb_time is installed */
typedef enum mjtTimer {
  mjTIMER_STEP = 0,
  mjTIMER_FORWARD,
  mjTIMER_INVERSE,
  mjTIMER_POSITION,
  mjTIMER_VELOCITY,
  mjTIMER_ACTUATION,
  mjTIMER_CONSTRAINT,
  mjTIMER_ADVANCE,
  mjTIMER_POS_KINEMATICS,
  mjTIMER_POS_INERTIA,
  mjTIMER_POS_COLLISION,
  mjTIMER_POS_MAKE,
  mjTIMER_POS_PROJECT,
  mjTIMER_COL_BROAD,
  mjTIMER_COL_NARROW,
  mjNTIMER
} mjtTimer;

/* computation stages (sensors) */
typedef enum mjtStage { mjSTAGE_NONE = 0, mjSTAGE_POS, mjSTAGE_VEL, mjSTAGE_ACC } mjtStage;

/* sensor data types */
typedef enum mjtDataType {
  mjDATATYPE_REAL = 0,
  mjDATATYPE_POSITIVE,
  mjDATATYPE_AXIS,
  mjDATATYPE_QUATERNION
} mjtDataType;

/* sensor types */
typedef enum mjtSensor {
  mjSENS_TOUCH = 0,
  mjSENS_ACCELEROMETER,
  mjSENS_VELOCIMETER,
  mjSENS_GYRO,
  mjSENS_FORCE,
  mjSENS_TORQUE,
  mjSENS_MAGNETOMETER,
  mjSENS_RANGEFINDER,
  mjSENS_CAMPROJECTION,
  mjSENS_JOINTPOS,
  mjSENS_JOINTVEL,
  mjSENS_TENDONPOS,
  mjSENS_TENDONVEL,
  mjSENS_ACTUATORPOS,
  mjSENS_ACTUATORVEL,
  mjSENS_ACTUATORFRC,
  mjSENS_JOINTACTFRC,
  mjSENS_TENDONACTFRC,
  mjSENS_BALLQUAT,
  mjSENS_BALLANGVEL,
  mjSENS_JOINTLIMITPOS,
  mjSENS_JOINTLIMITVEL,
  mjSENS_JOINTLIMITFRC,
  mjSENS_TENDONLIMITPOS,
  mjSENS_TENDONLIMITVEL,
  mjSENS_TENDONLIMITFRC,
  mjSENS_FRAMEPOS,
  mjSENS_FRAMEQUAT,
  mjSENS_FRAMEXAXIS,
  mjSENS_FRAMEYAXIS,
  mjSENS_FRAMEZAXIS,
  mjSENS_FRAMELINVEL,
  mjSENS_FRAMEANGVEL,
  mjSENS_FRAMELINACC,
  mjSENS_FRAMEANGACC,
  mjSENS_SUBTREECOM,
  mjSENS_SUBTREELINVEL,
  mjSENS_SUBTREEANGMOM,
  mjSENS_INSIDESITE,
  mjSENS_GEOMDIST,
  mjSENS_GEOMNORMAL,
  mjSENS_GEOMFROMTO,
  mjSENS_CONTACT,
  mjSENS_E_POTENTIAL,
  mjSENS_E_KINETIC,
  mjSENS_CLOCK,
  mjSENS_TACTILE,
  mjSENS_PLUGIN,
  mjSENS_USER
} mjtSensor;

/* camera and light tracking modes */
typedef enum mjtCamLight {
  mjCAMLIGHT_FIXED = 0,
  mjCAMLIGHT_TRACK,
  mjCAMLIGHT_TRACKCOM,
  mjCAMLIGHT_TARGETBODY,
  mjCAMLIGHT_TARGETBODYCOM
} mjtCamLight;

/* light types */
typedef enum mjtLightType {
  mjLIGHT_SPOT = 0,
  mjLIGHT_DIRECTIONAL,
  mjLIGHT_POINT,
  mjLIGHT_IMAGE
} mjtLightType;

/* texture types */
typedef enum mjtTexture { mjTEXTURE_2D = 0, mjTEXTURE_CUBE, mjTEXTURE_SKYBOX } mjtTexture;

#endif /* TORSION_MJTNUM_H */
