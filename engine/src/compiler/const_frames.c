/* compiler/const_frames.c — per-body and per-geom flags and bounds derived by MuJoCo.
 *
 * body_subtreemass; the "same frame" codes that let kinematics skip a transform when an
 * inertial, geom or site frame coincides with its body or inertial frame (compared with
 * MuJoCo's 1e-6 tolerance); body_simple and dof_simplenum, which mark bodies whose dofs
 * have a diagonal inertia; and each geom's bounding sphere radius and local bounding box.
 * Every rule here was checked against MuJoCo 3.14 on small probe models. */
#include <math.h>
#include <stdlib.h>

#include "compiler/const_internal.h"

/* frames closer than this (per component) are the same */
#define SAMEFRAME_TOL 1E-6

/* MuJoCo's sameframe codes (mjtSameFrame) */
enum {
  SAMEFRAME_NONE = 0,
  SAMEFRAME_BODY,
  SAMEFRAME_INERTIA,
  SAMEFRAME_BODYROT,
  SAMEFRAME_INERTIAROT
};

/* body_simple codes: diagonal inertia, and diagonal with sliders only */
enum { SIMPLE_NO = 0, SIMPLE_DIAG = 1, SIMPLE_SLIDERS = 2 };

/* 1 if the n-vectors a and b agree within the tolerance */
static int same_vec(const mjtNum* a, const mjtNum* b, int n) {
  for (int i = 0; i < n; i++) {
    if (fabs(a[i] - b[i]) >= SAMEFRAME_TOL) {
      return 0;
    }
  }
  return 1;
}

/* 1 if two quaternions agree within the tolerance, q and -q being the same rotation */
static int same_quat(const mjtNum* a, const mjtNum* b) {
  mjtNum nb[4] = {-b[0], -b[1], -b[2], -b[3]};
  return same_vec(a, b, 4) || same_vec(a, nb, 4);
}

/* sameframe code of a frame (pos, quat) inside body b */
static mjtByte frame_code(const mjModel* m, int b, const mjtNum pos[3], const mjtNum quat[4]) {
  static const mjtNum zero[3] = {0, 0, 0}, unit[4] = {1, 0, 0, 0};
  int rot_body = same_quat(quat, unit);
  if (rot_body && same_vec(pos, zero, 3)) {
    return SAMEFRAME_BODY;
  }
  if (rot_body) {
    return SAMEFRAME_BODYROT;
  }
  int rot_inertia = same_quat(quat, m->body_iquat + 4 * b);
  if (rot_inertia && same_vec(pos, m->body_ipos + 3 * b, 3)) {
    return SAMEFRAME_INERTIA;
  }
  return rot_inertia ? SAMEFRAME_INERTIAROT : SAMEFRAME_NONE;
}

/* tolerance of the compiler's geometric tests */
#define TN_FRAME_EPS 1E-14

/* 1 if a unit axis has at most one component larger than TN_FRAME_EPS in magnitude */
static int axis_aligned(const mjtNum a[3]) {
  int big = 0;
  for (int k = 0; k < 3; k++) {
    big += fabs(a[k]) > TN_FRAME_EPS;
  }
  return big <= 1;
}

/* simple code of body b: a leaf whose parent is the world, or a joint-less child of the
 * world (not deeper, as MuJoCo), inertia in the body frame, joints at the origin along
 * coordinate axes: slides first, then at most one rotation */
static int body_simplecode(const mjModel* m, int b, const int* nchild) {
  int parent = m->body_parentid[b];
  int near_world = parent == 0 || (m->body_parentid[parent] == 0 && m->body_dofnum[parent] == 0);
  if (nchild[b] > 0 || !near_world || m->body_sameframe[b] != SAMEFRAME_BODY) {
    return SIMPLE_NO;
  }

  int rotation = 0, sliders = 0;
  for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
    int type = m->jnt_type[j];
    const mjtNum* pos = m->jnt_pos + 3 * j;
    const mjtNum* axis = m->jnt_axis + 3 * j;

    // every joint at the body origin, nothing after a rotation
    if (rotation || pos[0] != 0 || pos[1] != 0 || pos[2] != 0) {
      return SIMPLE_NO;
    }
    if (type == mjJNT_SLIDE || type == mjJNT_HINGE) {
      if (!axis_aligned(axis)) {
        return SIMPLE_NO;
      }
    }
    rotation = type != mjJNT_SLIDE;
    sliders += type == mjJNT_SLIDE;
  }
  return sliders > 0 && !rotation ? SIMPLE_SLIDERS : SIMPLE_DIAG;
}

/* body_subtreemass, sameframe codes, body_simple and dof_simplenum */
void tn__fillBodyFlags(mjModel* m) {
  // subtree masses, children before parents
  for (int b = 0; b < m->nbody; b++) {
    m->body_subtreemass[b] = m->body_mass[b];
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    m->body_subtreemass[m->body_parentid[b]] += m->body_subtreemass[b];
  }

  // inertial frame relative to the body frame (world: same)
  static const mjtNum zero[3] = {0, 0, 0}, unit[4] = {1, 0, 0, 0};
  m->body_sameframe[0] = SAMEFRAME_BODY;
  for (int b = 1; b < m->nbody; b++) {
    int rot = same_quat(m->body_iquat + 4 * b, unit);
    int pos = same_vec(m->body_ipos + 3 * b, zero, 3);
    m->body_sameframe[b] = rot && pos ? SAMEFRAME_BODY : rot ? SAMEFRAME_BODYROT
                                                             : SAMEFRAME_NONE;
  }

  // geom and site frames relative to their body and inertial frames
  for (int g = 0; g < m->ngeom; g++) {
    m->geom_sameframe[g] =
        frame_code(m, m->geom_bodyid[g], m->geom_pos + 3 * g, m->geom_quat + 4 * g);
  }
  for (int s = 0; s < m->nsite; s++) {
    m->site_sameframe[s] =
        frame_code(m, m->site_bodyid[s], m->site_pos + 3 * s, m->site_quat + 4 * s);
  }

  // simple bodies (the world counts as simple); children counted first
  int nchild_stack[256];
  int* nchild = m->nbody <= 256 ? nchild_stack : calloc((size_t)m->nbody, sizeof(int));
  if (!nchild) {
    mju_error("tn__compileFinish: out of memory");
    return;
  }
  for (int b = 0; b < m->nbody; b++) {
    nchild[b] = 0;
  }
  for (int b = 1; b < m->nbody; b++) {
    nchild[m->body_parentid[b]]++;
  }
  m->body_simple[0] = SIMPLE_DIAG;
  for (int b = 1; b < m->nbody; b++) {
    m->body_simple[b] = (mjtByte)body_simplecode(m, b, nchild);
  }
  if (nchild != nchild_stack) {
    free(nchild);
  }

  // length of the run of simple-body dofs starting at each dof
  for (int i = m->nv - 1; i >= 0; i--) {
    int simple = m->body_simple[m->dof_bodyid[i]] != SIMPLE_NO;
    m->dof_simplenum[i] = simple ? 1 + (i + 1 < m->nv ? m->dof_simplenum[i + 1] : 0) : 0;
  }
}

/* bounding radius and local box (center, half sizes) of a mesh geom from its vertices */
static void mesh_bounds(const mjModel* m, int g, mjtNum* rbound, mjtNum aabb[6]) {
  int mesh = m->geom_dataid[g];
  if (mesh < 0 || m->mesh_vertnum[mesh] == 0) {
    return;
  }
  mjtNum lo[3] = {mjMAXVAL, mjMAXVAL, mjMAXVAL}, hi[3] = {-mjMAXVAL, -mjMAXVAL, -mjMAXVAL};
  const float* v = m->mesh_vert + 3 * m->mesh_vertadr[mesh];
  for (int i = 0; i < m->mesh_vertnum[mesh]; i++) {
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], v[3 * i + k]);
      hi[k] = fmax(hi[k], v[3 * i + k]);
    }
  }

  // box, and the radius of its farthest corner from the geom center
  mjtNum far2 = 0;
  for (int k = 0; k < 3; k++) {
    aabb[k] = 0.5 * (lo[k] + hi[k]);
    aabb[k + 3] = 0.5 * (hi[k] - lo[k]);
    mjtNum c = fmax(fabs(lo[k]), fabs(hi[k]));
    far2 += c * c;
  }
  *rbound = sqrt(far2);
}

/* bounding radius and local box of one geom */
static void geom_bounds(const mjModel* m, int g, mjtNum* rbound, mjtNum aabb[6]) {
  const mjtNum* s = m->geom_size + 3 * g;
  for (int k = 0; k < 6; k++) {
    aabb[k] = 0;
  }
  *rbound = 0;

  switch (m->geom_type[g]) {
    case mjGEOM_PLANE:
      // infinite half-space below the plane
      aabb[2] = -mjMAXVAL / 2;
      aabb[3] = aabb[4] = mjMAXVAL;
      aabb[5] = mjMAXVAL / 2;
      break;

    case mjGEOM_HFIELD: {
      // [x y top base] of the height field; the box spans from -base to top
      if (m->geom_dataid[g] < 0) {
        break;
      }
      const mjtNum* hs = m->hfield_size + 4 * m->geom_dataid[g];
      aabb[2] = 0.5 * (hs[2] - hs[3]);
      aabb[3] = hs[0];
      aabb[4] = hs[1];
      aabb[5] = 0.5 * (hs[2] + hs[3]);
      mjtNum z = fmax(hs[2], hs[3]);
      *rbound = sqrt(hs[0] * hs[0] + hs[1] * hs[1] + z * z);
      break;
    }

    case mjGEOM_SPHERE:
      aabb[3] = aabb[4] = aabb[5] = s[0];
      *rbound = s[0];
      break;

    case mjGEOM_CAPSULE:
      aabb[3] = aabb[4] = s[0];
      aabb[5] = s[0] + s[1];
      *rbound = s[0] + s[1];
      break;

    case mjGEOM_CYLINDER:
      aabb[3] = aabb[4] = s[0];
      aabb[5] = s[1];
      *rbound = sqrt(s[0] * s[0] + s[1] * s[1]);
      break;

    case mjGEOM_ELLIPSOID:
      aabb[3] = s[0], aabb[4] = s[1], aabb[5] = s[2];
      *rbound = fmax(s[0], fmax(s[1], s[2]));
      break;

    case mjGEOM_BOX:
      aabb[3] = s[0], aabb[4] = s[1], aabb[5] = s[2];
      *rbound = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
      break;

    case mjGEOM_MESH:
    case mjGEOM_SDF:
      mesh_bounds(m, g, rbound, aabb);
      break;

    default:
      break;
  }
}

/* geom_rbound and geom_aabb */
void tn__fillGeomBounds(mjModel* m) {
  for (int g = 0; g < m->ngeom; g++) {
    // mesh geoms: set by the compiler from the mesh's double-precision vertices
    if (m->geom_type[g] == mjGEOM_MESH) {
      continue;
    }
    geom_bounds(m, g, m->geom_rbound + g, m->geom_aabb + 6 * g);
  }
}
