/* mj_geom_query.c — geometric queries of MuJoCo's C API: mj_geomDistance (with and without
 * the fromto segment, both geom orders, a large and a small distmax), mj_insideSite on a
 * grid of points around every site, mj_maxContact for every pair and mj_addContact. Written against MuJoCo's C API only.
 * Usage: mj_geom_query MODEL.xml SPREAD NATIVECCD   (SPREAD scales the free bodies' x
 * positions; NATIVECCD 0 sets mjDSBL_NATIVECCD) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

/* print n numbers on one line after a label */
static void print_vec(const char* label, const mjtNum* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s MODEL.xml SPREAD NATIVECCD\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  if (!atoi(argv[3])) m->opt.disableflags |= mjDSBL_NATIVECCD;
  mjData* d = mj_makeData(m);
  double spread = atof(argv[2]);

  /* spread the free bodies along x, then the poses */
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] == mjJNT_FREE) d->qpos[m->jnt_qposadr[j]] *= spread;
  }
  mj_forward(m, d);

  /* every ordered pair of geoms */
  int ngeom = (int)m->ngeom;
  for (int g1 = 0; g1 < ngeom; g1++) {
    for (int g2 = 0; g2 < ngeom; g2++) {
      if (g1 == g2) continue;
      mjtNum fromto[6];
      mjtNum dist = mj_geomDistance(m, d, g1, g2, 1.0, fromto);
      printf("pair %d %d dist %.12g", g1, g2, dist);
      print_vec(" fromto", fromto, 6);
      mjtNum near = mj_geomDistance(m, d, g1, g2, 0.05, NULL);
      printf("  within 0.05: %.12g\n", near);
    }
  }

  /* the most contacts per pair, with the margin from the model, none and some */
  for (int g1 = 0; g1 < ngeom; g1++) {
    printf("maxContact %d:", g1);
    for (int g2 = 0; g2 < ngeom; g2++) {
      printf(" %d/%d/%d", mj_maxContact(m, g1, g2, -1), mj_maxContact(m, g1, g2, 0),
             mj_maxContact(m, g1, g2, 1));
    }
    printf("\n");
  }

  /* which grid points lie inside each site */
  for (int s = 0; s < m->nsite; s++) {
    printf("site %d:", s);
    for (int i = -4; i <= 4; i++) {
      printf(" ");
      for (int j = -4; j <= 4; j++) {
        for (int k = -4; k <= 4; k++) {
          mjtNum p[3] = {d->site_xpos[3 * s] + 0.0513 * i, d->site_xpos[3 * s + 1] + 0.0417 * j,
                         d->site_xpos[3 * s + 2] + 0.0371 * k};
          printf("%d", mj_insideSite(m, d, s, p));
        }
      }
    }
    printf("\n");
  }

  /* a contact added by hand after the detected ones */
  int ncon = d->ncon;
  mjContact con;
  memset(&con, 0, sizeof(con));
  con.dist = -0.01;
  con.pos[0] = 0.1;
  con.pos[1] = 0.2;
  con.pos[2] = 0.3;
  con.frame[2] = 1;
  con.frame[3] = 1;
  con.frame[7] = 1;
  con.geom[0] = con.geom1 = 0;
  con.geom[1] = con.geom2 = 1;
  con.dim = 3;
  con.mu = 0.5;
  con.efc_address = -1;
  int ret = mj_addContact(m, d, &con);
  printf("addContact %d ncon %d -> %d\n", ret, ncon, d->ncon);
  const mjContact* c = d->contact + d->ncon - 1;
  printf("added %.12g %d %d %d %.12g\n", c->dist, c->geom1, c->geom2, c->dim, c->mu);
  print_vec("added pos", c->pos, 3);
  print_vec("added frame", c->frame, 9);

  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
