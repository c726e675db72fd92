/* headers_visual.c — mjVisual: every field of mj_defaultVisual's result and of a loaded
 * model's m->vis (the <visual> element read by the compiler), printed one per line as
 * "<where> <group>.<field> values...". Usage: headers_visual [MODEL.xml ...] */
#include <stdio.h>
#include MJ_INCLUDE

/* print n floats / ints of one field */
static void pf(const char* where, const char* name, const float* v, int n) {
  printf("%s %s", where, name);
  for (int i = 0; i < n; i++) {
    printf(" %.9g", (double)v[i]);
  }
  printf("\n");
}
static void pi(const char* where, const char* name, int v) {
  printf("%s %s %d\n", where, name, v);
}

/* every field of vis, in MuJoCo's declaration order */
static void print_visual(const char* w, const mjVisual* v) {
  pi(w, "global.cameraid", v->global.cameraid);
  pi(w, "global.orthographic", v->global.orthographic);
  pf(w, "global.fovy", &v->global.fovy, 1);
  pf(w, "global.ipd", &v->global.ipd, 1);
  pf(w, "global.azimuth", &v->global.azimuth, 1);
  pf(w, "global.elevation", &v->global.elevation, 1);
  pf(w, "global.linewidth", &v->global.linewidth, 1);
  pf(w, "global.glow", &v->global.glow, 1);
  pf(w, "global.realtime", &v->global.realtime, 1);
  pi(w, "global.offwidth", v->global.offwidth);
  pi(w, "global.offheight", v->global.offheight);
  pi(w, "global.ellipsoidinertia", v->global.ellipsoidinertia);
  pi(w, "global.bvactive", v->global.bvactive);
  pi(w, "quality.shadowsize", v->quality.shadowsize);
  pi(w, "quality.offsamples", v->quality.offsamples);
  pi(w, "quality.numslices", v->quality.numslices);
  pi(w, "quality.numstacks", v->quality.numstacks);
  pi(w, "quality.numquads", v->quality.numquads);
  pf(w, "headlight.ambient", v->headlight.ambient, 3);
  pf(w, "headlight.diffuse", v->headlight.diffuse, 3);
  pf(w, "headlight.specular", v->headlight.specular, 3);
  pi(w, "headlight.active", v->headlight.active);
  const float* map = &v->map.stiffness;
  const char* mapnames[] = {"stiffness", "stiffnessrot", "force",      "torque",   "alpha",
                            "fogstart",  "fogend",       "znear",      "zfar",     "haze",
                            "shadowclip", "shadowscale", "actuatortendon"};
  for (int i = 0; i < 13; i++) {
    char name[64];
    snprintf(name, sizeof(name), "map.%s", mapnames[i]);
    pf(w, name, map + i, 1);
  }
  const float* scale = &v->scale.forcewidth;
  for (int i = 0; i < 17; i++) {
    char name[64];
    snprintf(name, sizeof(name), "scale.%d", i);
    pf(w, name, scale + i, 1);
  }
  const float* rgba = v->rgba.fog;
  for (int i = 0; i < 25; i++) {
    char name[64];
    snprintf(name, sizeof(name), "rgba.%d", i);
    pf(w, name, rgba + 4 * i, 4);
  }
}

int main(int argc, char** argv) {
  // the layout users see: sizes of the struct and its groups
  mjVisual v;
  printf("sizeof %d %d %d %d %d %d %d\n", (int)sizeof(mjVisual), (int)sizeof(v.global),
         (int)sizeof(v.quality), (int)sizeof(v.headlight), (int)sizeof(v.map),
         (int)sizeof(v.scale), (int)sizeof(v.rgba));
  mj_defaultVisual(&v);
  print_visual("default", &v);
  for (int i = 1; i < argc; i++) {
    char error[1000] = "";
    mjModel* m = mj_loadXML(argv[i], NULL, error, sizeof(error));
    if (!m) {
      fprintf(stderr, "load failed: %s\n", error);
      return 1;
    }
    char where[32];
    snprintf(where, sizeof(where), "model%d", i);
    print_visual(where, &m->vis);
    mj_deleteModel(m);
  }
  return 0;
}
