/* compiler/const_internal.h — internal interface between the pieces of tn__compileFinish.
 *
 * tn__compileFinish (const_finish.c) derives every constant MuJoCo computes after the
 * compiler has filled a model. Its stages live in their own files: sparsity patterns
 * (const_sparsity.c), body/geom/site frame flags and bounding volumes (const_frames.c),
 * fluid coefficients (const_fluid.c), and everything evaluated at qpos0 (const_qpos0.c). */
#ifndef TORSION_CONST_INTERNAL_H
#define TORSION_CONST_INTERNAL_H

#include <torsion/torsion.h>

/* dof_Madr and the M, D and B sparsity arrays from the dof and body trees */
void tn__fillSparsity(mjModel* m);

/* body_subtreemass, body_sameframe, body_simple, dof_simplenum, geom/site_sameframe */
void tn__fillBodyFlags(mjModel* m);

/* geom_rbound and geom_aabb */
void tn__fillGeomBounds(mjModel* m);

/* virtual mass and inertia of geoms that use the ellipsoid fluid model */
void tn__fillFluid(mjModel* m);

/* quantities evaluated at qpos0: tendon/actuator lengths, invweight0, dof_M0,
 * actuator_acc0, equality defaults, camera/light references; 0 with a reason on failure */
int tn__fillQpos0(mjModel* m, char* err, int errsz);

/* model statistics (meaninertia, meanmass, meansize, extent, center) from data d holding
 * the qpos0 kinematics and inertia */
int tn__fillStatistics(mjModel* m, const mjData* d, char* err, int errsz);

#endif /* TORSION_CONST_INTERNAL_H */
