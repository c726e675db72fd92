/* headers_ray.c — ray casting with surface normals (MuJoCo 3.14's mj_ray, mj_rayHfield,
 * mj_rayMesh and mju_rayGeom with their `normal` output) on a scene holding one geom of
 * every ray-castable type. For every geom, rays from a ring of origins around it aimed at
 * points near its center (some from inside it), printed as distance, geom id and normal.
 * Usage: headers_ray MODEL.xml */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

/* print one ray result: label, distance, geom id (or -2 when not asked) and normal */
static void print_hit(const char* what, int g, int k, mjtNum x, int id, const mjtNum n[3]) {
  printf("%s %d %d %.12g %d %.12g %.12g %.12g\n", what, g, k, x, id, n[0], n[1], n[2]);
}

/* ray k of geom g: an origin on a ring (or at the center for k == 0) and a direction
 * toward a point near the center */
static void ray_for(const mjData* d, int g, int k, mjtNum pnt[3], mjtNum vec[3]) {
  const mjtNum* c = d->geom_xpos + 3 * g;
  if (k == 0) {
    // from the center outward: leaves the solid from inside
    mju_copy3(pnt, c);
    vec[0] = 0.3, vec[1] = -0.5, vec[2] = 0.8;
    return;
  }
  mjtNum th = 0.7 * k, ph = 0.45 * k;
  pnt[0] = c[0] + 1.9 * cos(th) * cos(ph);
  pnt[1] = c[1] + 1.9 * sin(th) * cos(ph);
  pnt[2] = c[2] + 1.9 * sin(ph) + 0.2;
  mjtNum target[3] = {c[0] + 0.1 * sin(3.0 * k), c[1] + 0.1 * cos(2.0 * k), c[2] + 0.05 * k / 10};
  mju_sub3(vec, target, pnt);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    fprintf(stderr, "load failed: %s\n", error);
    return 1;
  }
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  const int nray = 24;

  for (int g = 0; g < (int)m->ngeom; g++) {
    int type = m->geom_type[g];
    for (int k = 0; k < nray; k++) {
      mjtNum pnt[3], vec[3], n[3] = {9, 9, 9};
      ray_for(d, g, k, pnt, vec);

      // the geom alone, through its type's function
      mjtNum x;
      if (type == mjGEOM_MESH) {
        x = mj_rayMesh(m, d, g, pnt, vec, n);
      } else if (type == mjGEOM_HFIELD) {
        x = mj_rayHfield(m, d, g, pnt, vec, n);
      } else {
        x = mju_rayGeom(d->geom_xpos + 3 * g, d->geom_xmat + 9 * g, m->geom_size + 3 * g, pnt,
                        vec, type, n);
      }
      print_hit("geom", g, k, x, -2, n);

      // the whole scene, static geoms included, then without them and without the body
      int id = -3;
      mjtNum ns[3] = {9, 9, 9};
      x = mj_ray(m, d, pnt, vec, NULL, 1, -1, &id, ns);
      print_hit("scene", g, k, x, id, ns);
      x = mj_ray(m, d, pnt, vec, NULL, 0, m->geom_bodyid[g], &id, ns);
      print_hit("others", g, k, x, id, ns);
    }
  }

  // NULL normal and NULL geomid are allowed
  mjtNum pnt[3] = {0, 0, 5}, vec[3] = {0, 0, -1};
  printf("nulls %.12g\n", mj_ray(m, d, pnt, vec, NULL, 1, -1, NULL, NULL));

  // a geom group filter: only group 1 (nothing there) gives a miss with a zero normal
  mjtByte groups[6] = {0, 1, 0, 0, 0, 0};
  int id = -3;
  mjtNum n[3] = {9, 9, 9};
  mjtNum x = mj_ray(m, d, pnt, vec, groups, 1, -1, &id, n);
  print_hit("groups", 0, 0, x, id, n);

  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
