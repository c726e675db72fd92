/* compiler/spec.h — internal: the intermediate model between the MJCF reader and the
 * compiler.
 *
 * The reader (src/xml) fills a tnSpec with what the file says, attribute by attribute, with
 * MuJoCo's defaults and default classes already applied; the compiler (compile_*.c) turns
 * it into an mjModel. Values are kept as written (angles in compiler units, orientations
 * unconverted, names unresolved): every conversion and cross-reference happens in the
 * compiler, which reports errors at the element (src) that caused them. */
#ifndef TORSION_SPEC_H
#define TORSION_SPEC_H

#include <torsion/torsion.h>

#include "compiler/compile_helpers.h"
#include "compiler/src_pos.h"
#include "util/file_source.h"
#include "util/pool.h"

/* tri-state of limited/ctrllimited/... attributes */
enum { TN_FALSE = 0, TN_TRUE = 1, TN_AUTO = 2 };

/* a growable array of fixed-size elements (malloc'ed) */
typedef struct tnVec_ {
  void* data;
  int n;
  int cap;
} tnVec;

/* push a zeroed element of `size` bytes; NULL on OOM */
void* tn__vecPush(tnVec* v, size_t size);
/* free the array */
void tn__vecFree(tnVec* v);
/* typed access to element i */
#define TN_AT(vec, type, i) (((type*)(vec).data) + (i))

/* the accumulated pose of enclosing <frame> elements (active = 0: none) */
typedef struct tnFrame_ {
  int active;
  mjtNum pos[3];
  mjtNum quat[4];
} tnFrame;

/* user data attached to an object (user="...") */
typedef struct tnUser_ {
  mjtNum* v; /* pool memory */
  int n;
} tnUser;

/* ---------------------------------------------------------------------------------------
 * objects that default classes provide (defaults + attributes)
 * ------------------------------------------------------------------------------------- */

typedef struct tnSpecJoint_ {
  int type;
  int group;
  mjtNum pos[3];
  mjtNum axis[3];
  mjtNum ref, springref;
  mjtNum stiffness, damping, armature, frictionloss, margin;
  mjtNum springdamper[2];
  int limited; /* TN_FALSE/TN_TRUE/TN_AUTO */
  mjtNum range[2];
  int actfrclimited;
  mjtNum actfrcrange[2];
  int actgravcomp;
  mjtNum solref_limit[mjNREF], solimp_limit[mjNIMP];
  mjtNum solref_friction[mjNREF], solimp_friction[mjNIMP];
  tnUser user;
  /* element only */
  int align; /* freejoint align: 0 false, 1 true, 2 auto (compiler alignfree) */
  const char* name;
  tnFrame frame; /* enclosing <frame> pose, applied at compile */
  int body;
  const tnSrcPos* src;
} tnSpecJoint;

typedef struct tnSpecGeom_ {
  int type;
  int contype, conaffinity, condim, group, priority;
  mjtNum size[3];
  mjtNum friction[3];
  mjtNum mass; /* NaN: from density */
  mjtNum density;
  int shellinertia;
  mjtNum solmix;
  mjtNum solref[mjNREF], solimp[mjNIMP];
  mjtNum margin, gap;
  int has_fromto;
  mjtNum fromto[6];
  mjtNum pos[3];
  tnOrientation orient;
  const char* material;
  const char* hfield;
  const char* mesh;
  mjtNum fitscale; /* primitive fitted to `mesh`: scale of the fitted size */
  float rgba[4];
  int fluidshape; /* 0 none, 1 ellipsoid */
  mjtNum fluidcoef[5];
  tnUser user;
  const char* name;
  tnFrame frame; /* enclosing <frame> pose, applied at compile */
  tnFrame fuse;  /* fusestatic: pose of the fused body it came from, applied last */
  int fused;     /* fusestatic: moved from a fused body (its mass is accounted there) */
  int body;
  const tnSrcPos* src;
} tnSpecGeom;

typedef struct tnSpecSite_ {
  int type;
  int group;
  mjtNum size[3];
  int has_fromto;
  mjtNum fromto[6];
  mjtNum pos[3];
  tnOrientation orient;
  const char* material;
  float rgba[4];
  tnUser user;
  const char* name;
  tnFrame frame; /* enclosing <frame> pose, applied at compile */
  tnFrame fuse;  /* fusestatic: pose of the fused body it came from, applied last */
  int body;
  const tnSrcPos* src;
} tnSpecSite;

typedef struct tnSpecCamera_ {
  int mode;
  const char* target;
  mjtNum pos[3];
  tnOrientation orient;
  mjtNum fovy, ipd;
  tnUser user;
  const char* name;
  tnFrame frame; /* enclosing <frame> pose, applied at compile */
  int body;
  const tnSrcPos* src;
} tnSpecCamera;

typedef struct tnSpecLight_ {
  int mode;
  const char* target;
  int directional, castshadow, active;
  int type; /* mjtLightType from the type attribute (directional="true" wins) */
  mjtNum pos[3], dir[3];
  float attenuation[3], cutoff, exponent, ambient[3], diffuse[3], specular[3];
  const char* name;
  tnFrame frame; /* enclosing <frame> pose, applied at compile */
  int body;
  const tnSrcPos* src;
} tnSpecLight;

typedef struct tnSpecMaterial_ {
  const char* texture;
  float texrepeat[2];
  int texuniform;
  float emission, specular, shininess, reflectance;
  float rgba[4];
  const char* name;
  const tnSrcPos* src;
} tnSpecMaterial;

typedef struct tnSpecPair_ {
  /* set flags: unspecified values are combined from the two geoms */
  int has_condim, has_friction, has_solref, has_solimp, has_margin, has_gap;
  int condim;
  mjtNum friction[5];
  mjtNum solref[mjNREF], solreffriction[mjNREF], solimp[mjNIMP];
  mjtNum margin, gap;
  const char* geom1;
  const char* geom2;
  const char* name;
  const tnSrcPos* src;
} tnSpecPair;

typedef struct tnSpecEquality_ {
  int type;
  int active;
  mjtNum solref[mjNREF], solimp[mjNIMP];
  const char* name1; /* body1/joint1/tendon1/site1 */
  const char* name2;
  int use_sites;
  mjtNum anchor[3];
  int has_relpose;
  mjtNum relpose[7];
  mjtNum torquescale;
  mjtNum polycoef[5];
  const char* name;
  const tnSrcPos* src;
} tnSpecEquality;

typedef struct tnSpecTendon_ {
  int spatial; /* 0 fixed, 1 spatial */
  int group;
  int limited;
  mjtNum range[2];
  int actfrclimited;
  mjtNum actfrcrange[2];
  mjtNum solref_limit[mjNREF], solimp_limit[mjNIMP];
  mjtNum solref_friction[mjNREF], solimp_friction[mjNIMP];
  mjtNum frictionloss;
  mjtNum springlength[2];
  mjtNum width, margin, stiffness, damping, armature;
  const char* material;
  float rgba[4];
  tnUser user;
  int wrapadr, wrapnum; /* into tnSpec.wraps */
  const char* name;
  const tnSrcPos* src;
} tnSpecTendon;

/* one element of a tendon path */
typedef struct tnSpecWrap_ {
  int type;         /* mjWRAP_JOINT/PULLEY/SITE/SPHERE (geom; type fixed at compile) */
  const char* obj;  /* joint, site or geom name */
  const char* side; /* sidesite name (geom wraps) */
  mjtNum prm;       /* joint coef or pulley divisor */
  const tnSrcPos* src;
} tnSpecWrap;

/* actuator shortcut kinds (the element used) */
enum {
  TN_ACT_GENERAL = 0,
  TN_ACT_MOTOR,
  TN_ACT_POSITION,
  TN_ACT_VELOCITY,
  TN_ACT_INTVELOCITY,
  TN_ACT_DAMPER,
  TN_ACT_CYLINDER,
  TN_ACT_MUSCLE,
  TN_ACT_ADHESION
};

typedef struct tnSpecActuator_ {
  int group;
  int ctrllimited, forcelimited, actlimited;
  mjtNum ctrlrange[2], forcerange[2], actrange[2], lengthrange[2];
  mjtNum gear[6];
  mjtNum cranklength;
  int actdim;
  int dyntype, gaintype, biastype;
  mjtNum dynprm[mjNDYN], gainprm[mjNGAIN], biasprm[mjNBIAS];
  int actearly;
  mjtNum inheritrange;
  tnUser user;
  /* element only: the transmission target */
  int trntype;
  const char* target;
  const char* refsite;
  const char* cranksite;
  const char* slidersite; /* slider-crank: the slider site (target is the crank site) */
  const char* name;
  int plugin; /* <plugin> actuators: index into tnSpec.plugins, -1 otherwise */
  const tnSrcPos* src;
} tnSpecActuator;

/* most config attributes an engine plugin declares */
#define TN_PLUGIN_MAXATTR 8

/* an engine plugin instance: an <extension> <instance>, or the implicit instance of an
 * element that names a plugin without an instance; config values are kept as written,
 * indexed by the plugin's attribute list (NULL: not given) */
typedef struct tnSpecPlugin_ {
  int slot;         /* the plugin (model `plugin` value) */
  const char* name; /* instance name, NULL when implicit */
  const char* value[TN_PLUGIN_MAXATTR];
  const tnSrcPos* src;
} tnSpecPlugin;

/* a <mesh> asset: geometry options (defaults classes provide scale, maxhullvert and
 * inertia), then its data source: a file or inline vertex/face lists */
typedef struct tnSpecMesh_ {
  mjtNum scale[3];
  mjtNum refpos[3];
  mjtNum refquat[4];
  int inertia;     /* tnMeshInertia */
  int maxhullvert; /* -1: no limit */
  /* element only */
  const char* file;         /* file name as written (NULL: inline data) */
  const char* path;         /* file resolved against meshdir/assetdir and the model's dir */
  const char* content_type; /* NULL: from the file's extension */
  mjtNum* vertex;           /* pool memory, nvertex numbers (3 per vertex) or NULL */
  int nvertex;
  int* face; /* pool memory, nface indices (3 per face) or NULL */
  int nface;
  const char* name;
  const tnSrcPos* src;
} tnSpecMesh;

/* ---------------------------------------------------------------------------------------
 * objects without default classes
 * ------------------------------------------------------------------------------------- */

typedef struct tnSpecBody_ {
  const char* name;
  int parent;
  const char* childclass; /* class applied to descendants (resolved at read time) */
  mjtNum pos[3];
  tnOrientation orient;
  int mocap;
  mjtNum gravcomp;
  tnUser user;
  /* <inertial> */
  int has_inertial;
  mjtNum ipos[3];
  tnOrientation iorient;
  mjtNum mass;
  int has_diaginertia, has_fullinertia;
  mjtNum inertia[3];
  mjtNum fullinertia[6];
  const tnSrcPos* inertial_src;
  tnFrame frame;  /* enclosing <frame> pose of the body */
  tnFrame iframe; /* enclosing <frame> pose of its <inertial> */
  /* mass properties fixed by an earlier compile of the spec: fusestatic (fused static
   * children added) or discardvisual (removed geoms included) */
  int has_fixed_inertia;
  mjtNum fixed_mass, fixed_ipos[3], fixed_iquat[4], fixed_inertia[3];
  const tnSrcPos* src;
} tnSpecBody;

typedef struct tnSpecTexture_ {
  int type;
  int width, height, nchannel;
  const char* name;
  const tnSrcPos* src;
} tnSpecTexture;

typedef struct tnSpecHField_ {
  int nrow, ncol;
  mjtNum size[4];
  mjtNum* elevation; /* pool memory, nrow*ncol values or NULL */
  int nelevation;
  const char* file;         /* file name as written (NULL: none) */
  const char* path;         /* file resolved like a mesh file (meshdir, else assetdir) */
  const char* content_type; /* NULL: from the file's extension */
  float* filedata;          /* pool memory: the file's values in model row order (compile) */
  const char* name;
  const tnSrcPos* src;
} tnSpecHField;

/* a <skin> (kept in the model, not rendered): inline data or a .skn file, and its bones */
typedef struct tnSpecSkin_ {
  const char* name;
  const char* file;     /* file name as written (NULL: inline data) */
  const char* path;     /* file resolved like a mesh file (meshdir, else assetdir) */
  const char* material; /* NULL: none */
  float rgba[4];
  float inflate;
  int group;
  float* vert; /* pool memory: nvert vertices (3 floats each) */
  int nvert;
  float* texcoord; /* pool memory: ntexcoord pairs, 0 or nvert of them */
  int ntexcoord;
  int* face; /* pool memory: nface triangles (3 vertex indices each) */
  int nface;
  int boneadr, nbone; /* into tnSpec.skinbones (inline bones; file bones are appended) */
  const tnSrcPos* src;
} tnSpecSkin;

/* one bone of a skin: the body it follows, its bind pose and its vertex weights */
typedef struct tnSpecSkinBone_ {
  const char* body;
  float bindpos[3];
  float bindquat[4];
  int* vertid;      /* pool memory, nvert indices */
  float* vertweight; /* pool memory, nvert weights */
  int nvert;
  const tnSrcPos* src;
} tnSpecSkinBone;

typedef struct tnSpecExclude_ {
  const char* body1;
  const char* body2;
  const char* name;
  const tnSrcPos* src;
} tnSpecExclude;

typedef struct tnSpecSensor_ {
  int type;
  const char* name;
  int objtype;
  const char* objname;
  int reftype;
  const char* refname;
  int intprm[3];
  int datatype, needstage, dim; /* user sensors */
  mjtNum cutoff, noise;
  tnUser user;
  const tnSrcPos* src;
} tnSpecSensor;

typedef struct tnSpecNumeric_ {
  const char* name;
  int size; /* -1: from data */
  mjtNum* data;
  int ndata;
  const tnSrcPos* src;
} tnSpecNumeric;

typedef struct tnSpecText_ {
  const char* name;
  const char* data;
  const tnSrcPos* src;
} tnSpecText;

typedef struct tnSpecTuple_ {
  const char* name;
  int adr, num; /* into tnSpec.tuple_elems */
  const tnSrcPos* src;
} tnSpecTuple;

typedef struct tnSpecTupleElem_ {
  int objtype;
  const char* objname;
  mjtNum prm;
  const tnSrcPos* src;
} tnSpecTupleElem;

/* a keyframe: arrays with their given lengths (-1: not given) */
typedef struct tnSpecKey_ {
  const char* name;
  mjtNum time;
  mjtNum *qpos, *qvel, *act, *ctrl, *mpos, *mquat;
  int nqpos, nqvel, nact, nctrl, nmpos, nmquat;
  const tnSrcPos* src;
} tnSpecKey;

/* an <asset><model>: another MJCF document, attached by <attach> (owned by the spec) */
typedef struct tnSpecModel_ {
  const char* name;
  void* doc;                   /* the reader's parsed document of it */
  void (*doc_free)(void* doc); /* releases doc with the spec */
  int expanded; /* its replicates were expanded */
  const tnSrcPos* src;
} tnSpecModel;

/* the fields of a keyframe that <attach> maps object by object */
enum { TN_KEY_QPOS = 0, TN_KEY_QVEL, TN_KEY_CTRL, TN_KEY_MPOS, TN_KEY_MQUAT };

/* one run of an attached keyframe's values: values from..from+n-1 of `field` in the child's
 * arrays belong to the object read from element `target` (a joint, actuator or mocap body) */
typedef struct tnSpecKeySeg_ {
  int field;
  const tnSrcPos* target;
  int from, n;
} tnSpecKeySeg;

/* a keyframe brought along by <attach> (element `key`): its arrays are the child model's,
 * placed by the runs seg_adr..seg_adr+nseg-1 of tnSpec.keysegs */
typedef struct tnSpecKeyMap_ {
  const tnSrcPos* key;
  int seg_adr, nseg;
} tnSpecKeyMap;

/* one default class */
typedef struct tnDefault_ {
  const char* name;
  int parent;
  tnSpecJoint joint;
  tnSpecGeom geom;
  tnSpecSite site;
  tnSpecCamera camera;
  tnSpecLight light;
  tnSpecMaterial material;
  tnSpecPair pair;
  tnSpecEquality equality;
  tnSpecTendon tendon;
  tnSpecActuator actuator;
  tnSpecMesh mesh;
} tnDefault;

/* <compiler> settings */
typedef struct tnCompilerSettings_ {
  int degree; /* angle="degree" (default) */
  char eulerseq[3];
  int inertiafromgeom; /* TN_FALSE/TN_TRUE/TN_AUTO */
  int inertiagrouprange[2];
  int autolimits;
  mjtNum boundmass, boundinertia;
  mjtNum settotalmass;
  int balanceinertia;
  int discardvisual; /* visual-only geoms, meshes, materials removed (compile_discard.c) */
  int alignfree;  /* free-joint bodies' frames moved to their inertial frames (-1: no
                   * alignment at all, in the fusestatic/discardvisual pre-passes) */
  int fusestatic; /* static bodies merged into their parents (compile_fuse.c); -1 while
                   * compiling the unfused model first */
  int fitaabb; /* primitives fitted to meshes: to the vertices' box (else the inertia box) */
  int strippath; /* asset files: directories removed from their names */
  const char* meshdir;
  const char* texturedir;
  const char* assetdir;
  mjLROpt LRopt; /* <lengthrange>: actuator length-range computation */
} tnCompilerSettings;

/* everything read from one MJCF document */
typedef struct tnSpec_ {
  tnPool pool; /* strings and small arrays */
  const char* modelname;
  const char* filename; /* main file (for messages) */
  tnFiles* files;       /* where asset files may be read (NULL: anywhere on disk) */
  tnCompilerSettings compiler;
  mjOption opt;
  mjVisual vis; /* <visual> */

  /* <size> */
  long long memory; /* bytes, -1: default */
  int njmax, nconmax, nstack, nuserdata, nkey;
  int nuser_body, nuser_jnt, nuser_geom, nuser_site, nuser_cam, nuser_tendon, nuser_actuator,
      nuser_sensor;

  /* <statistic> overrides (NaN: computed) */
  mjtNum stat_meaninertia, stat_meanmass, stat_meansize, stat_extent, stat_center[3];

  tnVec defaults;    /* tnDefault, [0] = "main" */
  tnVec bodies;      /* tnSpecBody, [0] = world, depth-first preorder */
  tnVec joints;      /* tnSpecJoint */
  tnVec geoms;       /* tnSpecGeom */
  tnVec sites;       /* tnSpecSite */
  tnVec cameras;     /* tnSpecCamera */
  tnVec lights;      /* tnSpecLight */
  tnVec materials;   /* tnSpecMaterial */
  tnVec textures;    /* tnSpecTexture */
  tnVec meshes;      /* tnSpecMesh */
  tnVec hfields;     /* tnSpecHField */
  tnVec skins;       /* tnSpecSkin */
  tnVec skinbones;   /* tnSpecSkinBone, each skin's bones contiguous */
  tnVec models;      /* tnSpecModel: documents that <attach> reads from */
  tnVec keymaps;     /* tnSpecKeyMap: keyframes brought along by <attach> */
  tnVec keysegs;     /* tnSpecKeySeg */
  tnVec pairs;       /* tnSpecPair */
  tnVec excludes;    /* tnSpecExclude */
  tnVec equalities;  /* tnSpecEquality */
  tnVec tendons;     /* tnSpecTendon */
  tnVec wraps;       /* tnSpecWrap */
  tnVec actuators;   /* tnSpecActuator */
  tnVec plugins;     /* tnSpecPlugin: <extension> instances, then implicit ones */
  int plugin_declared; /* bit per plugin slot: named by an <extension> <plugin> */
  tnVec sensors;     /* tnSpecSensor */
  tnVec numerics;    /* tnSpecNumeric */
  tnVec texts;       /* tnSpecText */
  tnVec tuples;      /* tnSpecTuple */
  tnVec tuple_elems; /* tnSpecTupleElem */
  tnVec keys;        /* tnSpecKey */
} tnSpec;

/* a new spec with MuJoCo's defaults (main class, world body); NULL on OOM */
tnSpec* tn__specNew(void);
/* free a spec */
void tn__specFree(tnSpec* spec);

/* MuJoCo's built-in defaults of each object */
void tn__specDefaultJoint(tnSpecJoint* j);
void tn__specDefaultGeom(tnSpecGeom* g);
void tn__specDefaultSite(tnSpecSite* s);
void tn__specDefaultCamera(tnSpecCamera* c);
void tn__specDefaultLight(tnSpecLight* l);
void tn__specDefaultMaterial(tnSpecMaterial* m);
void tn__specDefaultPair(tnSpecPair* p);
void tn__specDefaultEquality(tnSpecEquality* e);
void tn__specDefaultTendon(tnSpecTendon* t);
void tn__specDefaultActuator(tnSpecActuator* a);
void tn__specDefaultMesh(tnSpecMesh* m);

/* compile a spec into a model; NULL with a message naming the offending element */
mjModel* tn__compileSpec(tnSpec* spec, char* err, int errsz);

#endif /* TORSION_SPEC_H */
