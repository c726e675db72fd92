/* rest_ray.c — mj_multiRay and mju_raySkin of MuJoCo's C API. mj_multiRay casts a fan of
 * rays from several points of a model (all geoms; geom groups 0-2 only; static geoms off;
 * one body excluded; a short and a long cutoff; with and without normals and geom ids) and
 * prints ids, distances and normals; mju_raySkin casts rays at a small synthetic skin (a
 * bumpy grid of triangles) and prints distances and nearest vertices. Written against
 * MuJoCo's C API only.
 * Usage: rest_ray MODEL.xml NRAY */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include MJ_INCLUDE

/* directions spread over the sphere (a golden-angle spiral), not normalized */
static void fan(mjtNum* vec, int nray, mjtNum scale) {
  for (int i = 0; i < nray; i++) {
    double z = 1 - (2.0 * i + 1) / nray;
    double r = sqrt(1 - z * z), phi = 2.399963229728653 * i;
    vec[3 * i] = scale * r * cos(phi);
    vec[3 * i + 1] = scale * r * sin(phi);
    vec[3 * i + 2] = scale * z;
  }
}

/* one mj_multiRay configuration, printed ray by ray */
static void cast(const mjModel* m, mjData* d, const mjtNum pnt[3], const mjtNum* vec, int nray,
                 const mjtByte* group, int flg_static, int exclude, mjtNum cutoff, int with_out,
                 const char* label) {
  int* id = malloc(sizeof(int) * nray);
  mjtNum* dist = malloc(sizeof(mjtNum) * nray);
  mjtNum* nrm = malloc(sizeof(mjtNum) * 3 * nray);
  mj_multiRay(m, d, pnt, vec, group, (mjtBool)flg_static, exclude, with_out ? id : NULL, dist,
              with_out ? nrm : NULL, nray, cutoff);
  printf("%s\n", label);
  for (int i = 0; i < nray; i++) {
    if (with_out) {
      printf("  %d %d %.12g %.9g %.9g %.9g\n", i, id[i], dist[i], nrm[3 * i], nrm[3 * i + 1],
             nrm[3 * i + 2]);
    } else {
      printf("  %d %.12g\n", i, dist[i]);
    }
  }
  free(id);
  free(dist);
  free(nrm);
}

/* synthetic skin: an n x n grid of bumpy vertices, two triangles per cell */
static void skin_test(void) {
  enum { N = 6 };
  float vert[3 * N * N];
  int face[3 * 2 * (N - 1) * (N - 1)], nface = 0;
  for (int r = 0; r < N; r++) {
    for (int c = 0; c < N; c++) {
      float* v = vert + 3 * (r * N + c);
      v[0] = 0.3f * c - 0.7f;
      v[1] = 0.25f * r - 0.6f;
      v[2] = 0.1f * (float)sin(1.3 * c + 0.7 * r) + 0.05f * r;
    }
  }
  for (int r = 0; r + 1 < N; r++) {
    for (int c = 0; c + 1 < N; c++) {
      int a = r * N + c, b = a + 1, e = a + N, f = e + 1;
      int* t = face + 3 * nface;
      t[0] = a, t[1] = b, t[2] = f, t[3] = a, t[4] = f, t[5] = e;
      nface += 2;
    }
  }
  mjtNum vec[3 * 40];
  fan(vec, 40, 1.5);
  const mjtNum pnts[3][3] = {{0.1, 0.05, 1.2}, {0.2, -0.1, -0.8}, {3, 0.2, 0.1}};
  for (int p = 0; p < 3; p++) {
    for (int i = 0; i < 40; i++) {
      int vid = -7;
      mjtNum x = mju_raySkin(nface, N * N, face, vert, pnts[p], vec + 3 * i, &vid);
      printf("skin %d %d %.12g %d\n", p, i, x, vid);
    }
    /* straight at the grid, also without vertid */
    mjtNum down[3] = {0.05, 0.02, pnts[p][2] > 0 ? -1 : 1};
    printf("skin-down %d %.12g\n", p, mju_raySkin(nface, N * N, face, vert, pnts[p], down, NULL));
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL.xml NRAY\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  mjData* d = mj_makeData(m);
  int nray = atoi(argv[2]);

  /* a posed state: qpos0 plus a small deterministic offset */
  for (int i = 0; i < m->nq; i++) d->qpos[i] += 0.05 * sin(1.7 * i + 0.3);
  mj_forward(m, d);

  mjtNum* vec = malloc(sizeof(mjtNum) * 3 * nray);
  fan(vec, nray, 0.8);
  const mjtByte groups[6] = {1, 1, 1, 0, 0, 0};
  int nb = (int)m->nbody;
  for (int k = 0; k < 3; k++) {
    /* points: near the first body, the model's centre of mass, a point above */
    mjtNum pnt[3];
    int b = nb > 1 ? 1 + k % (nb - 1) : 0;
    for (int j = 0; j < 3; j++) pnt[j] = d->xpos[3 * b + j] + 0.03 * (j + 1) - 0.02 * k;
    if (k == 2) pnt[2] += 1.5;
    printf("point %d body %d\n", k, b);
    cast(m, d, pnt, vec, nray, NULL, 1, -1, mjMAXVAL, 1, "all");
    cast(m, d, pnt, vec, nray, groups, 1, -1, mjMAXVAL, 1, "groups012");
    cast(m, d, pnt, vec, nray, NULL, 0, b, mjMAXVAL, 1, "nostatic-exclude");
    cast(m, d, pnt, vec, nray, NULL, 1, -1, 0.4, 1, "cutoff0.4");
    cast(m, d, pnt, vec, nray, NULL, 1, -1, 2.0, 0, "cutoff2-noout");
  }
  free(vec);
  skin_test();
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
