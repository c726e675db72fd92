/* io_print.c — mj_printModel, mj_printData and their formatted variants through MuJoCo's C
 * API: load a model, step it, print model and data into files (default and given float
 * formats), plus one invalid format that must fall back to the default. The test compares
 * the files of both engines line by line on the fields both have.
 * Usage: io_print MODEL.xml NSTEP OUTDIR FORMAT */
#include <stdio.h>
#include <stdlib.h>
#include MJ_INCLUDE

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s MODEL.xml NSTEP OUTDIR FORMAT\n", argv[0]);
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
  for (int t = 0; t < nstep; t++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.3 * ((t + i) % 3 - 1);
    mj_step(m, d);
  }
  mj_forward(m, d);

  char path[4096];
  snprintf(path, sizeof(path), "%s/model.txt", argv[3]);
  mj_printModel(m, path);
  snprintf(path, sizeof(path), "%s/data.txt", argv[3]);
  mj_printData(m, d, path);
  snprintf(path, sizeof(path), "%s/model_fmt.txt", argv[3]);
  mj_printFormattedModel(m, path, argv[4]);
  snprintf(path, sizeof(path), "%s/data_fmt.txt", argv[3]);
  mj_printFormattedData(m, d, path, argv[4]);
  snprintf(path, sizeof(path), "%s/model_bad.txt", argv[3]);
  mj_printFormattedModel(m, path, "%d");
  printf("printed nq %d nv %d\n", (int)m->nq, (int)m->nv);

  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
