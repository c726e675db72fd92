/* io_cache.c — the compiler's asset cache through MuJoCo's C API (mj_getCache and the
 * size/capacity/clear functions): default capacity, disabling, filling by loading a model
 * with mesh files, loading again from the cache (the same model), a small capacity bounding
 * the size, clearing. Byte counts differ between engines (each caches its own decoded
 * form), so the program prints the capacities and the relations it checks.
 * Usage: io_cache MODEL.xml */
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

/* load the model, or report why not */
static mjModel* load(const char* path) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(path, NULL, error, sizeof(error));
  if (!m)
    printf("load error: %s\n", error);
  return m;
}

/* 1 when both models hold the same arrays */
static int same(const mjModel* a, const mjModel* b) {
  return a && b && a->nbuffer == b->nbuffer &&
         memcmp(a->buffer, b->buffer, (size_t)a->nbuffer) == 0;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
    return 2;
  }
  mjCache* cache = mj_getCache();
  printf("cache %d same %d\n", cache != NULL, cache == mj_getCache());
  size_t capacity = mj_getCacheCapacity(cache);
  printf("default capacity %zu size %zu\n", capacity, mj_getCacheSize(cache));

  /* disabled: nothing is kept */
  printf("set 0 -> %zu\n", mj_setCacheCapacity(cache, 0));
  mjModel* m0 = load(argv[1]);
  printf("disabled size %zu\n", mj_getCacheSize(cache));

  /* enabled: the first load fills it, the second reads from it */
  printf("set default -> %zu\n", mj_setCacheCapacity(cache, capacity));
  mjModel* m1 = load(argv[1]);
  size_t filled = mj_getCacheSize(cache);
  printf("filled %d within capacity %d\n", filled > 0, filled <= capacity);
  mjModel* m2 = load(argv[1]);
  printf("second load keeps size %d\n", mj_getCacheSize(cache) == filled);
  printf("models equal %d %d\n", same(m0, m1), same(m1, m2));

  /* a smaller capacity evicts down to it */
  size_t small = filled / 2;
  printf("set half -> equal %d\n", mj_setCacheCapacity(cache, small) == small);
  printf("bounded %d\n", mj_getCacheSize(cache) <= small);
  mjModel* m3 = load(argv[1]);
  printf("bounded after load %d equal %d\n", mj_getCacheSize(cache) <= small, same(m1, m3));

  /* clearing empties it and keeps the capacity */
  mj_clearCache(cache);
  printf("cleared size %zu capacity equal %d\n", mj_getCacheSize(cache),
         mj_getCacheCapacity(cache) == small);
  mj_setCacheCapacity(cache, capacity);

  mj_deleteModel(m3);
  mj_deleteModel(m2);
  mj_deleteModel(m1);
  mj_deleteModel(m0);
  return 0;
}
