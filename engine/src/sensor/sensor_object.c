/* sensor/sensor_object.c — frames of the objects sensors measure (body inertial frames,
 * body frames, geoms, sites, cameras) and their velocities and accelerations.
 *
 * Velocities and accelerations come from the body's com-based 6D quantities (cvel, cacc,
 * expressed at the subtree com of its tree) moved to the object's origin and, for local
 * results, rotated into the object's frame. The linear acceleration of a point adds the
 * Coriolis term w x v to the spatial acceleration. */
#include "sensor/sensor_internal.h"
#include "util/util_inline.h"

/* global position and orientation of an object, and its body */
int tn__objectFrame(const mjModel* m, const mjData* d, int objtype, int id, const mjtNum** pos,
                    const mjtNum** mat) {
  switch (objtype) {
    case mjOBJ_BODY:
      *pos = d->xipos + 3 * id, *mat = d->ximat + 9 * id;
      return id;
    case mjOBJ_XBODY:
      *pos = d->xpos + 3 * id, *mat = d->xmat + 9 * id;
      return id;
    case mjOBJ_GEOM:
      *pos = d->geom_xpos + 3 * id, *mat = d->geom_xmat + 9 * id;
      return m->geom_bodyid[id];
    case mjOBJ_SITE:
      *pos = d->site_xpos + 3 * id, *mat = d->site_xmat + 9 * id;
      return m->site_bodyid[id];
    case mjOBJ_CAMERA:
      *pos = d->cam_xpos + 3 * id, *mat = d->cam_xmat + 9 * id;
      return m->cam_bodyid[id];
    default:
      *pos = NULL, *mat = NULL;
      return -1;
  }
}

/* global orientation: body quaternion times the object's local quaternion */
void tn__objectQuat(const mjModel* m, const mjData* d, int objtype, int id, mjtNum quat[4]) {
  switch (objtype) {
    case mjOBJ_BODY: mju_mulQuat(quat, d->xquat + 4 * id, m->body_iquat + 4 * id); break;
    case mjOBJ_XBODY: mju_copy4(quat, d->xquat + 4 * id); break;
    case mjOBJ_GEOM:
      mju_mulQuat(quat, d->xquat + 4 * m->geom_bodyid[id], m->geom_quat + 4 * id);
      break;
    case mjOBJ_SITE:
      mju_mulQuat(quat, d->xquat + 4 * m->site_bodyid[id], m->site_quat + 4 * id);
      break;
    case mjOBJ_CAMERA:
      mju_mulQuat(quat, d->xquat + 4 * m->cam_bodyid[id], m->cam_quat + 4 * id);
      break;
    default: mju_unit4(quat); break;
  }
}

/* a body's com-based 6D vector moved to an object's origin (and frame) */
static int object_spatial(const mjModel* m, const mjData* d, int objtype, int objid,
                          const mjtNum* bodyvec, mjtNum res[6], int flg_local) {
  const mjtNum *pos, *mat;
  int body = tn__objectFrame(m, d, objtype, objid, &pos, &mat);
  if (body < 0) {
    mju_zero(res, 6);
    return -1;
  }
  mju_transformSpatial(res, bodyvec + 6 * body, 0, pos,
                       d->subtree_com + 3 * m->body_rootid[body], flg_local ? mat : NULL);
  return body;
}

/* velocity of an object */
void mj_objectVelocity(const mjModel* m, const mjData* d, int objtype, int objid,
                       mjtNum res[6], int flg_local) {
  object_spatial(m, d, objtype, objid, d->cvel, res, flg_local);
}

/* acceleration of an object, with the Coriolis term on the linear part */
void mj_objectAcceleration(const mjModel* m, const mjData* d, int objtype, int objid,
                           mjtNum res[6], int flg_local) {
  mjtNum vel[6], coriolis[3];
  if (object_spatial(m, d, objtype, objid, d->cacc, res, flg_local) < 0) {
    return;
  }
  object_spatial(m, d, objtype, objid, d->cvel, vel, flg_local);
  mju_cross(coriolis, vel, vel + 3);
  mju_addTo3(res + 3, coriolis);
}
