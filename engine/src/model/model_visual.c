/* model/model_visual.c — mj_defaultVisual: MuJoCo 3.14's default visualization settings
 * (mjModel.vis of a model without a <visual> element). Torsion does not render; the values
 * are kept so that viewers and tools reading m->vis see what MuJoCo gives them. */
#include <string.h>

#include <torsion/torsion.h>

/* set a color */
static void set_rgba(float dst[4], float r, float g, float b, float a) {
  dst[0] = r, dst[1] = g, dst[2] = b, dst[3] = a;
}

/* set a 3-component color */
static void set_rgb(float dst[3], float v) {
  dst[0] = dst[1] = dst[2] = v;
}

void mj_defaultVisual(mjVisual* vis) {
  memset(vis, 0, sizeof(*vis));

  // free camera and display
  vis->global.cameraid = -1;
  vis->global.orthographic = 0;
  vis->global.fovy = 45;
  vis->global.ipd = 0.068f;
  vis->global.azimuth = 90;
  vis->global.elevation = -45;
  vis->global.linewidth = 1;
  vis->global.glow = 0.3f;
  vis->global.realtime = 1;
  vis->global.offwidth = 640;
  vis->global.offheight = 480;
  vis->global.ellipsoidinertia = 0;
  vis->global.bvactive = 0;

  // quality
  vis->quality.shadowsize = 4096;
  vis->quality.offsamples = 4;
  vis->quality.numslices = 28;
  vis->quality.numstacks = 16;
  vis->quality.numquads = 4;

  // head light
  set_rgb(vis->headlight.ambient, 0.1f);
  set_rgb(vis->headlight.diffuse, 0.4f);
  set_rgb(vis->headlight.specular, 0.5f);
  vis->headlight.active = 1;

  // unit mapping
  vis->map.stiffness = 100;
  vis->map.stiffnessrot = 500;
  vis->map.force = 0.005f;
  vis->map.torque = 0.1f;
  vis->map.alpha = 0.3f;
  vis->map.fogstart = 3;
  vis->map.fogend = 10;
  vis->map.znear = 0.01f;
  vis->map.zfar = 50;
  vis->map.haze = 0.3f;
  vis->map.shadowclip = 1;
  vis->map.shadowscale = 0.6f;
  vis->map.actuatortendon = 2;

  // decoration sizes
  vis->scale.forcewidth = 0.1f;
  vis->scale.contactwidth = 0.3f;
  vis->scale.contactheight = 0.1f;
  vis->scale.connect = 0.2f;
  vis->scale.com = 0.4f;
  vis->scale.camera = 0.3f;
  vis->scale.light = 0.3f;
  vis->scale.selectpoint = 0.2f;
  vis->scale.jointlength = 1;
  vis->scale.jointwidth = 0.1f;
  vis->scale.actuatorlength = 0.7f;
  vis->scale.actuatorwidth = 0.2f;
  vis->scale.framelength = 1;
  vis->scale.framewidth = 0.1f;
  vis->scale.constraint = 0.1f;
  vis->scale.slidercrank = 0.2f;
  vis->scale.frustum = 10;

  // decoration colors
  set_rgba(vis->rgba.fog, 0, 0, 0, 1);
  set_rgba(vis->rgba.haze, 1, 1, 1, 1);
  set_rgba(vis->rgba.force, 1, 0.5f, 0.5f, 1);
  set_rgba(vis->rgba.inertia, 0.8f, 0.2f, 0.2f, 0.6f);
  set_rgba(vis->rgba.joint, 0.2f, 0.6f, 0.8f, 1);
  set_rgba(vis->rgba.actuator, 0.2f, 0.25f, 0.2f, 1);
  set_rgba(vis->rgba.actuatornegative, 0.2f, 0.6f, 0.9f, 1);
  set_rgba(vis->rgba.actuatorpositive, 0.9f, 0.4f, 0.2f, 1);
  set_rgba(vis->rgba.com, 0.9f, 0.9f, 0.9f, 1);
  set_rgba(vis->rgba.camera, 0.6f, 0.9f, 0.6f, 1);
  set_rgba(vis->rgba.light, 0.6f, 0.6f, 0.9f, 1);
  set_rgba(vis->rgba.selectpoint, 0.9f, 0.9f, 0.1f, 1);
  set_rgba(vis->rgba.connect, 0.2f, 0.2f, 0.8f, 1);
  set_rgba(vis->rgba.contactpoint, 0.9f, 0.6f, 0.2f, 1);
  set_rgba(vis->rgba.contactforce, 0.7f, 0.9f, 0.9f, 1);
  set_rgba(vis->rgba.contactfriction, 0.9f, 0.8f, 0.4f, 1);
  set_rgba(vis->rgba.contacttorque, 0.9f, 0.7f, 0.9f, 1);
  set_rgba(vis->rgba.contactgap, 0.5f, 0.8f, 0.9f, 1);
  set_rgba(vis->rgba.rangefinder, 1, 1, 0.1f, 1);
  set_rgba(vis->rgba.constraint, 0.9f, 0, 0, 1);
  set_rgba(vis->rgba.slidercrank, 0.5f, 0.3f, 0.8f, 1);
  set_rgba(vis->rgba.crankbroken, 0.9f, 0, 0, 1);
  set_rgba(vis->rgba.frustum, 1, 1, 0, 0.2f);
  set_rgba(vis->rgba.bv, 0, 1, 0, 0.5f);
  set_rgba(vis->rgba.bvactive, 1, 0, 0, 0.5f);
}
