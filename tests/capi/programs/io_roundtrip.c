/* io_roundtrip.c — binary model round trip through MuJoCo's C API: save a model compiled
 * from MJCF into a memory buffer, into a file and into a VFS, load each back, check that
 * every array and size equals the original's, and that a rollout of the loaded model is
 * bitwise equal to one of the original. Each engine reads only its own binary format, so
 * the comparison is of the checks and of the trajectory. Also feeds the loader truncated
 * and corrupted inputs, which must be refused. Usage: io_roundtrip MODEL.xml NSTEP */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

/* 1 when b holds the same sizes, options, statistics and arrays as a */
static int same_model(const mjModel* a, const mjModel* b) {
  if (!b)
    return 0;
  if (a->nq != b->nq || a->nv != b->nv || a->nu != b->nu || a->na != b->na ||
      a->nbody != b->nbody || a->ngeom != b->ngeom || a->nnames != b->nnames ||
      a->nbuffer != b->nbuffer || a->narena != b->narena || a->nsensordata != b->nsensordata)
    return 0;
  if (memcmp(&a->opt.timestep, &b->opt.timestep, sizeof(mjtNum)) ||
      memcmp(a->opt.gravity, b->opt.gravity, 3 * sizeof(mjtNum)) ||
      a->opt.integrator != b->opt.integrator || a->opt.solver != b->opt.solver ||
      a->opt.iterations != b->opt.iterations || a->opt.disableflags != b->opt.disableflags)
    return 0;
  if (memcmp(&a->stat.meaninertia, &b->stat.meaninertia, sizeof(mjtNum)) ||
      memcmp(a->stat.center, b->stat.center, 3 * sizeof(mjtNum)))
    return 0;
  return memcmp(a->buffer, b->buffer, (size_t)a->nbuffer) == 0;
}

/* run nstep steps under a fixed control pattern; the final qpos and qvel into out */
static void rollout(const mjModel* m, int nstep, mjtNum* out) {
  mjData* d = mj_makeData(m);
  for (int t = 0; t < nstep; t++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.4 * ((t + 2 * i) % 5 - 2);
    mj_step(m, d);
  }
  memcpy(out, d->qpos, sizeof(mjtNum) * m->nq);
  memcpy(out + m->nq, d->qvel, sizeof(mjtNum) * m->nv);
  mj_deleteData(d);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL.xml NSTEP\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  int nstep = atoi(argv[2]);
  printf("version %d %s header %d\n", mj_version(), mj_versionString(), mjVERSION_HEADER);
  printf("nq %d nv %d nu %d nbody %d\n", (int)m->nq, (int)m->nv, (int)m->nu, (int)m->nbody);

  /* into a memory buffer and back */
  int sz = (int)mj_sizeModel(m);
  unsigned char* buf = malloc(sz + 1);
  mj_saveModel(m, NULL, buf, sz);
  mjModel* m2 = mj_loadModelBuffer(buf, sz);
  printf("buffer round trip equal %d\n", same_model(m, m2));

  /* the loaded model simulates bitwise as the original */
  int n = (int)(m->nq + m->nv);
  mjtNum* x1 = malloc(sizeof(mjtNum) * n);
  mjtNum* x2 = malloc(sizeof(mjtNum) * n);
  rollout(m, nstep, x1);
  rollout(m2, nstep, x2);
  printf("rollout bitwise equal %d\n", memcmp(x1, x2, sizeof(mjtNum) * n) == 0);
  printf("final");
  for (int i = 0; i < n; i++) printf(" %.12g", x2[i]);
  printf("\n");

  /* into a file and back */
  mj_saveModel(m, "roundtrip.mjb", NULL, 0);
  mjModel* m3 = mj_loadModel("roundtrip.mjb", NULL);
  printf("file round trip equal %d\n", same_model(m, m3));

  /* through a VFS holding the bytes */
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  printf("vfs add %d\n", mj_addBufferVFS(&vfs, "inmemory.mjb", buf, sz));
  mjModel* m4 = mj_loadModel("inmemory.mjb", &vfs);
  printf("vfs round trip equal %d\n", same_model(m, m4));
  mj_deleteVFS(&vfs);

  /* truncated inputs are refused */
  int cuts[] = {0, 1, 4, 16, 64, sz / 3, sz / 2, sz - 8, sz - 1};
  int refused = 0;
  for (int i = 0; i < (int)(sizeof(cuts) / sizeof(cuts[0])); i++) {
    mjModel* bad = mj_loadModelBuffer(buf, cuts[i]);
    refused += bad == NULL;
    mj_deleteModel(bad);
  }
  printf("truncated refused %d of %d\n", refused, (int)(sizeof(cuts) / sizeof(cuts[0])));

  /* a wrong first byte is refused */
  buf[0] ^= 0x5a;
  mjModel* bad = mj_loadModelBuffer(buf, sz);
  printf("bad magic refused %d\n", bad == NULL);
  mj_deleteModel(bad);

  free(x1);
  free(x2);
  free(buf);
  mj_deleteModel(m4);
  mj_deleteModel(m3);
  mj_deleteModel(m2);
  mj_deleteModel(m);
  return 0;
}
