/* compiler/compile_internal.h — internal: state shared by the compile_*.c stages.
 *
 * The compiler runs in stages over one tnCompiler: ordering (objects grouped by body as
 * MuJoCo numbers them), sizes, allocation, then one fill stage per object family. Every
 * stage reports errors at the spec element that caused them and returns 0. */
#ifndef TORSION_COMPILE_INTERNAL_H
#define TORSION_COMPILE_INTERNAL_H

#include "compiler/compile_helpers.h"
#include "compiler/mesh.h"
#include "compiler/spec.h"

/* the compilation of one spec */
typedef struct tnCompiler_ {
  tnSpec* spec;
  mjModel* m;
  char* err;
  int errsz;

  /* model order -> spec index, and spec index -> model id, for body-grouped objects */
  int *jnt_order, *jnt_id;
  int *geom_order, *geom_id;
  int *site_order, *site_id;
  int *cam_order, *cam_id;
  int *light_order, *light_id;
  int *pair_order, *pair_id; /* pairs and excludes are sorted by body signature */
  int *exclude_order, *exclude_id;

  /* per body: joint count/address, dof count/address (before allocation) */
  int *body_jntnum, *body_jntadr, *body_dofnum, *body_dofadr;
  int* dof_parentid; /* nv */

  /* processed mesh assets, in spec (= model) order */
  tnMesh* meshes;
  int nmesh;
} tnCompiler;

/* error at a spec element (printf-style); returns 0 */
int tn__compileFail(tnCompiler* c, const tnSrcPos* src, const char* attr, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* model id of the object named `name` of type `objtype` (mjtObj), -1 if none.
 * Valid once the ordering stage ran (body-grouped objects use model ids). */
int tn__compileFind(const tnCompiler* c, int objtype, const char* name);

/* the same, reporting "unknown <what> 'name'" at src/attr when missing */
int tn__compileRequire(tnCompiler* c, int objtype, const char* name, const tnSrcPos* src,
                       const char* attr);

/* joint dimensions */
int tn__jointNq(int type);
int tn__jointNv(int type);

/* fusestatic: merge static bodies into their parents in the spec (compile_fuse.c) */
int tn__compileFuseStatic(tnSpec* spec, char* err, int errsz);
/* discardvisual: remove visual-only geoms, meshes, materials in the spec (compile_discard.c) */
int tn__compileDiscardVisual(tnSpec* spec, char* err, int errsz);

/* stages */
int tn__compileOrderSizes(tnCompiler* c, mjModel* sz); /* compile_order.c: numbering, sizes */
void tn__compileOrderFree(tnCompiler* c);
int tn__sensorDim(const tnSpecSensor* sensor);        /* compile_sensor.c: data size of a sensor */
int tn__compileBodies(tnCompiler* c);                 /* compile_body.c */
int tn__compileJoints(tnCompiler* c);                 /* compile_body.c */
int tn__compileTrees(tnCompiler* c);                  /* compile_body.c */
int tn__compileSpringDamper(tnCompiler* c);           /* compile_body.c, after constants */
int tn__compileAlignFree(tnCompiler* c);              /* compile_body.c, after mass properties */
int tn__compileInertias(tnCompiler* c);               /* compile_inertia.c */
int tn__compileGeoms(tnCompiler* c);                  /* compile_geom.c */
int tn__compileSites(tnCompiler* c);                  /* compile_geom.c */
int tn__compileCamLights(tnCompiler* c);              /* compile_geom.c */
int tn__compileAssets(tnCompiler* c);                 /* compile_asset.c */
int tn__compileHFieldFiles(tnCompiler* c);            /* compile_asset.c: load files, pre-sizes */
int tn__compileSkinFiles(tnCompiler* c);              /* compile_skin.c: load files, pre-sizes */
int tn__compileSkinSizes(tnCompiler* c, mjModel* sz); /* compile_skin.c */
int tn__compileSkins(tnCompiler* c);                  /* compile_skin.c: skin_* arrays */
int tn__compileMeshes(tnCompiler* c); /* compile_mesh.c: load + process, pre-sizes */
void tn__compileMeshSizes(const tnCompiler* c, mjModel* sz); /* compile_mesh.c */
int tn__compileMeshModel(tnCompiler* c);                     /* compile_mesh.c: mesh_* arrays */
void tn__compileMeshFree(tnCompiler* c);                     /* compile_mesh.c */
/* fit a primitive geom of `type` to a processed mesh: size (then scaled by fitscale) and
 * the geom center's offset meshpos, to compose with the mesh orientation (geom_fit.c);
 * 0 with a reason for a type that cannot be fitted */
int tn__meshFitGeom(const tnMesh* mesh, int type, int fitaabb, mjtNum fitscale, mjtNum size[3],
                    mjtNum meshpos[3], char* err, int errsz);
/* the processed mesh of mesh geom g and its id, NULL after an error (compile_mesh.c) */
const tnMesh* tn__compileGeomMesh(tnCompiler* c, const tnSpecGeom* g, int* id);
int tn__compileContacts(tnCompiler* c);                    /* compile_asset.c: pairs, excludes */
int tn__compileTendons(tnCompiler* c);                     /* compile_tendon.c */
/* a bound of nJten from the spec (exact for fixed tendons, nv per spatial one) */
int tn__tendonJacBound(const tnSpec* s, int nv);           /* compile_tendon.c */
int tn__compileEqualities(tnCompiler* c);                  /* compile_tendon.c */
int tn__compileActuators(tnCompiler* c);                   /* compile_actuator.c */
int tn__compileDampratio(tnCompiler* c);                   /* compile_actuator.c, after constants */
int tn__compileLengthRange(tnCompiler* c);                 /* lengthrange.c, after constants */
int tn__compileSensors(tnCompiler* c);                     /* compile_sensor.c */
void tn__compilePluginSizes(const tnSpec* s, mjModel* sz); /* compile_plugin.c */
int tn__compilePlugins(tnCompiler* c); /* compile_plugin.c, end of tn__compileActuators */
int tn__compileCustom(tnCompiler* c);  /* compile_custom.c */
int tn__compileKeys(tnCompiler* c);    /* compile_custom.c */
/* key i from a keyframe brought along by <attach>: 1 when placed, 0 when k is not one
 * (compile_keymap.c) */
int tn__compileKeyMapped(tnCompiler* c, int i, const tnSpecKey* k);
int tn__compileNames(tnCompiler* c);    /* compile_names.c */
int tn__countNames(const tnSpec* spec); /* compile_names.c: bytes of m->names */
int tn__checkNames(tnCompiler* c);      /* compile_names.c: repeated names */

/* copy user data into a model row of width n (zero-padded); 0 when too long */
int tn__compileUser(tnCompiler* c, mjtNum* dst, int n, const tnUser* user, const tnSrcPos* src);

/* resolve a TN_AUTO limited flag from its range; 0 on error */
int tn__compileLimited(tnCompiler* c, int flag, const mjtNum range[2], const tnSrcPos* src,
                       const char* flagattr, const char* rangeattr, int* out);

/* apply an enclosing <frame> pose to a local position and orientation (quat may be NULL) */
void tn__frameApply(const tnFrame* f, mjtNum pos[3], mjtNum quat[4]);
/* rotate a direction by an enclosing <frame> */
void tn__frameRotate(const tnFrame* f, mjtNum vec[3]);

/* convert an orientation to a quaternion with the compiler's angle settings */
int tn__compileQuat(tnCompiler* c, mjtNum quat[4], const tnOrientation* o, const tnSrcPos* src);

#endif /* TORSION_COMPILE_INTERNAL_H */
