/* io_hostile.c — the binary model loader under corrupted input (run against Torsion only:
 * each engine has its own format, so which corruptions are caught differs). Saves a model,
 * then loads many corrupted copies: random truncations, random bytes overwritten in the
 * header and size fields and anywhere, random lengths. Every load must return NULL or a
 * model that saves back to the same number of bytes; the program must not crash.
 * Prints how many inputs were refused and accepted (the reasons go to stderr as warnings). Usage:
 * io_hostile MODEL.xml NTRIAL */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

/* a fixed pseudo-random sequence (64-bit LCG), so runs repeat */
static uint64_t rng_state = 12345;
static uint32_t rng(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL.xml NTRIAL\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  int ntrial = atoi(argv[2]);
  int sz = (int)mj_sizeModel(m);
  unsigned char* orig = malloc(sz);
  unsigned char* buf = malloc(sz);
  mj_saveModel(m, NULL, orig, sz);

  int refused = 0, accepted = 0, bad = 0;
  for (int t = 0; t < ntrial; t++) {
    memcpy(buf, orig, sz);
    int len = sz;
    int kind = t % 4;
    if (kind == 0) {
      /* truncated */
      len = (int)(rng() % (uint32_t)sz);
    } else if (kind == 1) {
      /* header and size fields: 1-4 bytes overwritten in the first 1200 */
      int nflip = 1 + (int)(rng() % 4);
      for (int k = 0; k < nflip; k++)
        buf[rng() % (uint32_t)(sz < 1200 ? sz : 1200)] = (unsigned char)rng();
    } else if (kind == 2) {
      /* one size field set to an extreme value */
      int64_t values[] = {-1, -2, 0, 1, 1000, INT32_MAX, (int64_t)1 << 40, INT64_MIN, INT64_MAX};
      int64_t v = values[rng() % 9];
      int field = (int)(rng() % 70);
      memcpy(buf + 64 + 8 * field, &v, 8);
    } else {
      /* anywhere */
      for (int k = 0; k < 8; k++) buf[rng() % (uint32_t)sz] = (unsigned char)rng();
    }
    mjModel* l = mj_loadModelBuffer(buf, len);
    if (!l) {
      refused++;
      continue;
    }
    accepted++;
    if ((int)mj_sizeModel(l) != len)
      bad++;
    mj_deleteModel(l);
  }
  printf("trials %d refused %d accepted %d inconsistent %d\n", ntrial, refused, accepted, bad);
  free(orig);
  free(buf);
  mj_deleteModel(m);
  return bad != 0;
}
