/* compiler/inertia_geom.c — volume, mass and principal inertia of primitive geoms.
 *
 * The compiler derives a body's inertia from its geoms when <inertial> is absent: each
 * geom contributes mass = density * volume (or its given mass) and a diagonal inertia in
 * its own frame. Formulas and conventions are MuJoCo's (size = radius / half-lengths; a
 * capsule is a cylinder plus two hemispheres; shellinertia treats the mass as spread over
 * the surface), checked against MuJoCo 3.14. */
#include <math.h>
#include <stdio.h>

#include "compiler/compile_helpers.h"

/* offset used to differentiate an ellipsoid's solid inertia into its shell inertia */
#define SHELL_ELLIPSOID_DT 1E-6

/* exponent of Thomsen's approximation of an ellipsoid's surface area */
#define ELLIPSOID_AREA_P 1.6075

/* write a reason into err (if given) and return 0 */
static int inertia_fail(char* err, int errsz, const char* msg) {
  if (err && errsz > 0) {
    snprintf(err, (size_t)errsz, "%s", msg);
  }
  return 0;
}

/* volume of a primitive geom; 0 for plane, hfield and others */
mjtNum tn__geomVolume(int geomtype, const mjtNum size[3]) {
  switch (geomtype) {
    case mjGEOM_SPHERE:
      return 4 * mjPI * size[0] * size[0] * size[0] / 3;

    case mjGEOM_CAPSULE:
      return mjPI * (size[0] * size[0] * 2 * size[1] + 4 * size[0] * size[0] * size[0] / 3);

    case mjGEOM_ELLIPSOID:
      return 4 * mjPI * size[0] * size[1] * size[2] / 3;

    case mjGEOM_CYLINDER:
      return mjPI * size[0] * size[0] * 2 * size[1];

    case mjGEOM_BOX:
      return 8 * size[0] * size[1] * size[2];

    default:
      return 0;
  }
}

/* surface area of a primitive geom (ellipsoid: Thomsen's approximation) */
static mjtNum geom_area(int geomtype, const mjtNum size[3]) {
  mjtNum r = size[0], h = 2 * size[1];
  switch (geomtype) {
    case mjGEOM_SPHERE:
      return 4 * mjPI * r * r;

    case mjGEOM_CAPSULE:
      return 2 * mjPI * r * h + 4 * mjPI * r * r;

    case mjGEOM_CYLINDER:
      return 2 * mjPI * r * h + 2 * mjPI * r * r;

    case mjGEOM_BOX:
      return 8 * (size[0] * size[1] + size[1] * size[2] + size[0] * size[2]);

    case mjGEOM_ELLIPSOID: {
      mjtNum p = ELLIPSOID_AREA_P;
      mjtNum ab = pow(size[0] * size[1], p), bc = pow(size[1] * size[2], p);
      mjtNum ac = pow(size[0] * size[2], p);
      return 4 * mjPI * pow((ab + ac + bc) / 3, 1 / p);
    }

    default:
      return 0;
  }
}

/* solid inertia of a capsule of mass m: cylinder plus two hemispheres */
static void solid_capsule(mjtNum I[3], mjtNum m, mjtNum r, mjtNum h) {
  // split the mass by volume between the two hemispheres and the cylinder
  mjtNum ms = m * 4 * r / (4 * r + 3 * h);
  mjtNum mc = m - ms;

  // cylinder, then the hemispheres shifted to the ends
  I[0] = I[1] = mc * (3 * r * r + h * h) / 12;
  I[2] = mc * r * r / 2;
  mjtNum is = 2 * ms * r * r / 5;
  I[0] += is + ms * h * (3 * r + 2 * h) / 8;
  I[1] += is + ms * h * (3 * r + 2 * h) / 8;
  I[2] += is;
}

/* principal inertia of a solid primitive of mass m */
static void solid_inertia(int type, const mjtNum s[3], mjtNum m, mjtNum I[3]) {
  switch (type) {
    case mjGEOM_SPHERE:
      I[0] = I[1] = I[2] = 2 * m * s[0] * s[0] / 5;
      break;

    case mjGEOM_CAPSULE:
      solid_capsule(I, m, s[0], 2 * s[1]);
      break;

    case mjGEOM_ELLIPSOID:
      I[0] = m * (s[1] * s[1] + s[2] * s[2]) / 5;
      I[1] = m * (s[0] * s[0] + s[2] * s[2]) / 5;
      I[2] = m * (s[0] * s[0] + s[1] * s[1]) / 5;
      break;

    case mjGEOM_CYLINDER: {
      mjtNum h = 2 * s[1];
      I[0] = I[1] = m * (3 * s[0] * s[0] + h * h) / 12;
      I[2] = m * s[0] * s[0] / 2;
      break;
    }

    case mjGEOM_BOX:
      I[0] = m * (s[1] * s[1] + s[2] * s[2]) / 3;
      I[1] = m * (s[0] * s[0] + s[2] * s[2]) / 3;
      I[2] = m * (s[0] * s[0] + s[1] * s[1]) / 3;
      break;

    default:
      I[0] = I[1] = I[2] = 0;
  }
}

/* shell inertia of a capsule: lateral surface plus two hemispherical shells */
static void shell_capsule(mjtNum I[3], mjtNum rho, mjtNum r, mjtNum h) {
  mjtNum ml = rho * 2 * mjPI * r * h;     // lateral surface
  mjtNum mh = rho * 2 * mjPI * r * r;     // one hemispherical shell
  I[0] = I[1] = ml * (r * r / 2 + h * h / 12);
  I[2] = ml * r * r;

  // each hemisphere: 2/3 m r^2 about its sphere center, shifted by h/2 (com r/2 further)
  mjtNum d = h / 2;
  I[0] += 2 * mh * (2 * r * r / 3 + d * d + d * r);
  I[1] += 2 * mh * (2 * r * r / 3 + d * d + d * r);
  I[2] += 2 * mh * 2 * r * r / 3;
}

/* shell inertia of a cylinder: lateral surface plus two end disks */
static void shell_cylinder(mjtNum I[3], mjtNum rho, mjtNum r, mjtNum h) {
  mjtNum ml = rho * 2 * mjPI * r * h;     // lateral surface
  mjtNum md = rho * mjPI * r * r;         // one end disk
  I[0] = I[1] = ml * (r * r / 2 + h * h / 12) + 2 * md * (r * r / 4 + h * h / 4);
  I[2] = ml * r * r + 2 * md * r * r / 2;
}

/* shell inertia of a box: six rectangular plates */
static void shell_box(mjtNum I[3], mjtNum rho, const mjtNum s[3]) {
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    mjtNum mi = rho * 4 * s[j] * s[k];    // plate facing axis i
    mjtNum mj = rho * 4 * s[i] * s[k];    // plate facing axis j
    mjtNum mk = rho * 4 * s[i] * s[j];    // plate facing axis k
    I[i] = 2 * mi * (s[j] * s[j] + s[k] * s[k]) / 3 +
           2 * mj * (s[k] * s[k] / 3 + s[j] * s[j]) +
           2 * mk * (s[j] * s[j] / 3 + s[k] * s[k]);
  }
}

/* shell inertia of an ellipsoid: solid inertia differentiated by a thin offset */
static void shell_ellipsoid(mjtNum I[3], mjtNum m, const mjtNum s[3]) {
  mjtNum dt = SHELL_ELLIPSOID_DT;
  mjtNum a0 = s[0], b0 = s[1], c0 = s[2];
  mjtNum a1 = a0 + dt, b1 = b0 + dt, c1 = c0 + dt;
  mjtNum v0 = 4 * mjPI * a0 * b0 * c0 / 3, v1 = 4 * mjPI * a1 * b1 * c1 / 3;
  mjtNum scl = m / (v1 - v0);
  I[0] = scl * (v1 * (b1 * b1 + c1 * c1) / 5 - v0 * (b0 * b0 + c0 * c0) / 5);
  I[1] = scl * (v1 * (a1 * a1 + c1 * c1) / 5 - v0 * (a0 * a0 + c0 * c0) / 5);
  I[2] = scl * (v1 * (a1 * a1 + b1 * b1) / 5 - v0 * (a0 * a0 + b0 * b0) / 5);
}

/* principal inertia of a shell primitive of mass m and area density rho */
static void shell_inertia(int type, const mjtNum s[3], mjtNum m, mjtNum rho, mjtNum I[3]) {
  switch (type) {
    case mjGEOM_SPHERE:
      I[0] = I[1] = I[2] = 2 * m * s[0] * s[0] / 3;
      break;

    case mjGEOM_CAPSULE:
      shell_capsule(I, rho, s[0], 2 * s[1]);
      break;

    case mjGEOM_CYLINDER:
      shell_cylinder(I, rho, s[0], 2 * s[1]);
      break;

    case mjGEOM_BOX:
      shell_box(I, rho, s);
      break;

    case mjGEOM_ELLIPSOID:
      shell_ellipsoid(I, m, s);
      break;

    default:
      I[0] = I[1] = I[2] = 0;
  }
}

/* mass and principal inertia of a primitive geom */
int tn__geomInertia(int geomtype, const mjtNum size[3], mjtNum mass, mjtNum density,
                    int shellinertia, mjtNum* mass_out, mjtNum inertia[3], char* err, int errsz) {
  inertia[0] = inertia[1] = inertia[2] = 0;
  *mass_out = 0;

  // only primitives with a volume have mass here (meshes are handled by the mesh code)
  if (geomtype != mjGEOM_SPHERE && geomtype != mjGEOM_CAPSULE &&
      geomtype != mjGEOM_ELLIPSOID && geomtype != mjGEOM_CYLINDER &&
      geomtype != mjGEOM_BOX) {
    return 1;
  }

  // sizes must be positive where the type uses them
  int nsize = geomtype == mjGEOM_SPHERE ? 1
            : (geomtype == mjGEOM_CAPSULE || geomtype == mjGEOM_CYLINDER) ? 2 : 3;
  for (int i = 0; i < nsize; i++) {
    if (!(size[i] > 0)) {
      return inertia_fail(err, errsz, "geom size must be positive");
    }
  }

  // mass from density times volume (or area for shells), unless given
  mjtNum measure = shellinertia ? geom_area(geomtype, size) : tn__geomVolume(geomtype, size);
  mjtNum m = mass >= 0 ? mass : density * measure;
  mjtNum rho = mass >= 0 ? mass / measure : density;
  *mass_out = m;

  // inertia about the geom center in its frame
  if (shellinertia) {
    shell_inertia(geomtype, size, m, rho, inertia);
  } else {
    solid_inertia(geomtype, size, m, inertia);
  }
  return 1;
}
