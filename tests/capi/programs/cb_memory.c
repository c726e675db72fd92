/* cb_memory.c — user memory in MuJoCo's C API: mju_malloc's alignment, and a counting
 * mju_user_malloc/mju_user_free pair that must see mjModel's and mjData's memory come and
 * go. The counts themselves may differ between libraries (each allocates its own blocks);
 * the program prints only facts both must share. Written against MuJoCo's C API only.
 * Usage: cb_memory MODEL.xml */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include MJ_INCLUDE

/* blocks handed out and returned through the user handlers */
static int nmalloc, nfree;
static long outstanding;

static void* counting_malloc(size_t size) {
  nmalloc++;
  outstanding++;
  size_t padded = (size + 63) / 64 * 64;
  return aligned_alloc(64, padded ? padded : 64);
}

static void counting_free(void* ptr) {
  nfree++;
  outstanding--;
  free(ptr);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
    return 2;
  }

  // the default allocator: 64-byte aligned, NULL for nothing
  int aligned = 1;
  void* blocks[8];
  for (int i = 0; i < 8; i++) {
    blocks[i] = mju_malloc((size_t)(1 + 37 * i));
    aligned = aligned && blocks[i] && (uintptr_t)blocks[i] % 64 == 0;
  }
  for (int i = 0; i < 8; i++) mju_free(blocks[i]);
  mju_free(NULL);
  printf("default aligned %d zero-size null %d\n", aligned, mju_malloc(0) == NULL);

  // user handlers: mju_malloc/mju_free go through them
  mju_user_malloc = counting_malloc;
  mju_user_free = counting_free;
  void* p = mju_malloc(100);
  printf("mju_malloc uses handler %d\n", nmalloc == 1 && p != NULL);
  mju_free(p);
  printf("mju_free uses handler %d\n", nfree == 1 && outstanding == 0);

  // a model and data: their memory comes from the handlers and all goes back
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) {
    printf("load error: %s\n", error);
    return 1;
  }
  int after_load = nmalloc;
  printf("model allocated through handler %d\n", after_load > 1 && outstanding > 0);
  mjData* d = mj_makeData(m);
  printf("data allocated through handler %d\n", nmalloc > after_load);
  for (int t = 0; t < 50; t++) mj_step(m, d);

  // bytes on the scratch stack at an alignment, popped with the frame (MuJoCo's stack
  // grows down, Torsion's up: only alignment and restoring are compared)
  size_t pstack = d->pstack;
  mj_markStack(d);
  char* odd = mj_stackAllocByte(d, 3, 1);
  void* wide = mj_stackAllocByte(d, 100, 64);
  int* ints = mj_stackAllocInt(d, 5);
  printf("stack bytes aligned %d distinct %d\n", wide && (uintptr_t)wide % 64 == 0,
         odd && ints && (char*)wide != odd && (void*)ints != wide);
  mj_freeStack(d);
  printf("stack restored %d\n", d->pstack == pstack);
  printf("time %.6f\n", d->time);
  mjModel* copy = mj_copyModel(NULL, m);
  mjData* dcopy = mj_copyData(NULL, m, d);
  printf("copies equal %d\n", copy->nq == m->nq && dcopy->time == d->time);
  mj_deleteData(dcopy);
  mj_deleteModel(copy);
  mj_deleteData(d);
  mj_deleteModel(m);
  printf("all freed %d\n", outstanding == 0 && nfree == nmalloc);

  mju_clearHandlers();
  printf("handlers cleared %d\n", mju_user_malloc == NULL && mju_user_free == NULL);
  return 0;
}
