/* load_step.c — the shape of MuJoCo's "basic" sample without graphics: load an MJCF
 * model, look up names, step it under a fixed control, and print the state, contacts and
 * a body Jacobian along the way. Written against MuJoCo's C API only; MJ_INCLUDE names the
 * header (MuJoCo's or Torsion's). Usage: load_step MODEL.xml NSTEP */
#include <stdio.h>
#include <stdlib.h>
#include MJ_INCLUDE

/* print n numbers on one line after a label */
static void print_vec(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
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
  mjData* d = mj_makeData(m);
  int nstep = atoi(argv[2]);
  printf("nq %d nv %d nu %d nbody %d ngeom %d\n", (int)m->nq, (int)m->nv, (int)m->nu,
         (int)m->nbody, (int)m->ngeom);

  /* names round trip */
  for (int b = 0; b < m->nbody; b++) {
    const char* name = mj_id2name(m, mjOBJ_BODY, b);
    printf("body %d %s %d\n", b, name ? name : "(none)",
           name ? mj_name2id(m, mjOBJ_BODY, name) : -1);
  }

  /* a fixed control pattern, stepped */
  for (int t = 0; t < nstep; t++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.5 * ((t + i) % 3 - 1);
    mj_step(m, d);
  }
  printf("time %.12g\n", d->time);
  print_vec("qpos", d->qpos, m->nq);
  print_vec("qvel", d->qvel, m->nv);
  print_vec("qacc", d->qacc, m->nv);

  /* contacts and their forces */
  printf("ncon %d\n", d->ncon);
  for (int i = 0; i < d->ncon; i++) {
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    printf("contact %d geoms %d %d dist %.9g", i, d->contact[i].geom[0], d->contact[i].geom[1],
           d->contact[i].dist);
    print_vec(" force", f, 6);
  }

  /* the last body's Jacobian at its center of mass */
  mjtNum* jacp = (mjtNum*)malloc(sizeof(mjtNum) * 3 * m->nv);
  mjtNum* jacr = (mjtNum*)malloc(sizeof(mjtNum) * 3 * m->nv);
  mj_jacBodyCom(m, d, jacp, jacr, m->nbody - 1);
  print_vec("jacp", jacp, 3 * m->nv);
  print_vec("jacr", jacr, 3 * m->nv);
  free(jacp);
  free(jacr);

  /* a copy continues identically */
  mjData* d2 = mj_copyData(NULL, m, d);
  mj_step(m, d);
  mj_step(m, d2);
  mjtNum diff = 0;
  for (int i = 0; i < m->nq; i++) diff += d->qpos[i] != d2->qpos[i];
  printf("copy differs in %g coordinates\n", diff);

  mj_deleteData(d2);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
