/* collision/collision_internal.h — internal interface of the collision module.
 *
 * mj_collision (collision_driver.c) selects candidate geom pairs (broad phase, filters,
 * explicit pairs) and hands each to a narrow-phase collider chosen from a table indexed by
 * the two geom types. Every collider has the same signature: it receives the two geoms,
 * ordered so that type(g1) <= type(g2), the detection margin (margin + gap), and writes up
 * to mjMAXCONPAIR contacts into `con`. A collider fills dist, pos and the contact normal in
 * frame[0..2] (pointing from g1 to g2); it may also put a hint for the first tangent in
 * frame[3..5] (zero otherwise). The driver completes the frame and fills every parameter. */
#ifndef TORSION_COLLISION_INTERNAL_H
#define TORSION_COLLISION_INTERNAL_H

#include <torsion/torsion.h>

/* narrow-phase collider: returns the number of contacts written into con */
typedef int (*tnCollideFunc)(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                             mjtNum margin);

/* the collider table, [type1][type2] with type1 <= type2; NULL: pair not supported */
extern const tnCollideFunc tn__collideTable[mjNGEOMTYPES][mjNGEOMTYPES];

/* ---- broad phase (collision_broadphase.c) ---- */

/* Geom world boxes: per geom, TN_GB numbers: the centre and half sizes of an axis-aligned
 * world box enclosing its bounding box (geom_aabb in the geom frame) grown by its margin
 * and gap, and a flag (0: no such box: a geom that collides with nothing, a plane, an
 * unbounded or box-less geom). Two geoms whose boxes are apart along a world axis by more
 * than TN_BOX_SLACK of their half sizes are farther apart than either detection distance
 * (the sum of both is added), so no collider could report a contact for them; the slack
 * is far above round-off. */
#define TN_GB 7
#define TN_BOX_SLACK 1e-9

/* Candidate body pairs as signatures (body1 << 16) + body2, body1 < body2, sorted
 * increasingly, filtered by contype/conaffinity and the weld/parent rules. Bodies are
 * bounded by their geoms' world boxes in `geombox` (TN_GB numbers per geom) where those
 * have one, else (or with geombox NULL) by their bounding spheres. Writes at most
 * `maxpair` entries into `pairs` and returns their number. */
int tn__broadphase(const mjModel* m, mjData* d, const mjtNum* geombox, int* pairs,
                   int maxpair);

/* 1 if the body pair is rejected by the same-weld and parent-child filters */
int tn__filterBodyPair(const mjModel* m, int b1, int b2);

/* ---- contact frame ---- */

/* complete frame[9]: normalize the normal (row 0), make row 1 orthogonal to it (from the
 * tangent hint in row 1 when its norm is at least 0.5, else from a default axis), and set
 * row 2 = row 0 x row 1 */
void tn__makeFrame(mjtNum frame[9]);

/* ---- primitive colliders ---- */

/* plane with sphere, capsule, cylinder, box, and any convex geom (ellipsoid, mesh) */
int tn__collidePlaneSphere(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                           mjtNum margin);
int tn__collidePlaneCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                            mjtNum margin);
int tn__collidePlaneCylinder(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                             mjtNum margin);
int tn__collidePlaneBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin);
int tn__collidePlaneConvex(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                           mjtNum margin);

/* sphere with sphere, capsule, cylinder, box */
int tn__collideSphereSphere(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                            mjtNum margin);
int tn__collideSphereCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                             mjtNum margin);
int tn__collideSphereCylinder(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                              mjtNum margin);
int tn__collideSphereBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                         mjtNum margin);

/* capsule with capsule and box */
int tn__collideCapsuleCapsule(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                              mjtNum margin);
int tn__collideCapsuleBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2,
                          mjtNum margin);

/* box with box */
int tn__collideBoxBox(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin);

/* general convex pairs through libccd's MPR (with the multi-contact option) */
int tn__collideConvex(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin);

/* penetration of two prepared convex objects (collision_support.h): libccd's MPR, or the
 * native solver unless mjDSBL_NATIVECCD; one contact or none */
struct tnConvex_;
int tn__convexPenetration(const mjModel* m, mjData* d, mjContact* con, const struct tnConvex_* obj1,
                          const struct tnConvex_* obj2, mjtNum margin);

/* height field (g1) with a convex geom (g2), the field treated as triangular prisms */
int tn__collideHField(const mjModel* m, mjData* d, mjContact* con, int g1, int g2, mjtNum margin);

/* ---- shared geometry helpers (collision_geometry.c) ---- */

/* contact between two spheres (centers c1, c2, radii r1, r2) if within margin: writes one
 * contact and returns 1, else 0. A coincident pair of centers gets the normal (1,0,0). */
int tn__sphereSphere(mjContact* con, const mjtNum c1[3], mjtNum r1, const mjtNum c2[3], mjtNum r2,
                     mjtNum margin);

/* closest point to p on segment c + t*axis, t in [-1, 1]; returns t */
mjtNum tn__closestOnSegment(mjtNum res[3], const mjtNum p[3], const mjtNum c[3],
                            const mjtNum axis[3]);

/* write one contact's geometry: distance, position, normal and first-tangent hint (NULL:
 * none) */
static inline void set_contact(mjContact* con, mjtNum dist, const mjtNum pos[3],
                               const mjtNum normal[3], const mjtNum hint[3]) {
  con->dist = dist;
  for (int i = 0; i < 3; i++) {
    con->pos[i] = pos[i];
    con->frame[i] = normal[i];
    con->frame[3 + i] = hint ? hint[i] : 0;
  }
}

/* column `col` (0..2) of a row-major 3x3 matrix */
static inline void mat_col(mjtNum res[3], const mjtNum mat[9], int col) {
  res[0] = mat[col];
  res[1] = mat[3 + col];
  res[2] = mat[6 + col];
}

#endif /* TORSION_COLLISION_INTERNAL_H */
