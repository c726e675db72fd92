/* spec/spec_lastxml.c — mj_loadXML and the last loaded XML: MuJoCo keeps the spec of the
 * last model loaded with mj_loadXML (one per process, guarded by a mutex) so that
 * mj_saveLastXML can write it back as MJCF, updated with the real-valued fields of a model
 * (mj_copyBack). mj_freeLastXML drops it; every mj_loadXML replaces it.
 *
 * The model itself comes from the MJCF loader (tn__loadXMLModel); the kept spec is parsed
 * from the same file afterwards. When Torsion cannot turn the file into a spec, the load
 * still succeeds and there is no last XML (mj_saveLastXML then fails as with none). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "spec/spec_tree.h"
#include "xml/xml_reader.h"

/* the spec of the last mj_loadXML, NULL: none */
static mjSpec* last_spec = NULL;
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;

/* replace the kept spec (NULL: drop it) */
static void keep_spec(mjSpec* spec) {
  pthread_mutex_lock(&last_lock);
  mjSpec* old = last_spec;
  last_spec = spec;
  pthread_mutex_unlock(&last_lock);
  if (old) {
    mj_deleteSpec(old);
  }
}

/* an error message into the caller's buffer (which may be NULL) */
static void set_error(char* error, int error_sz, const char* msg) {
  if (error && error_sz > 0) {
    snprintf(error, (size_t)error_sz, "%s", msg);
  }
}

/* parse and compile an MJCF file, VFS first; keep its spec for mj_saveLastXML */
mjModel* mj_loadXML(const char* filename, const mjVFS* vfs, char* error, int error_sz) {
  mjModel* m = tn__loadXMLModel(filename, vfs, error, error_sz);
  if (m) {
    mjSpec* spec = mj_parseXML(filename, vfs, NULL, 0);
    if (spec) {
      tn__specAssignIds(TNS_SPEC(spec));
    }
    keep_spec(spec);
  }
  return m;
}

/* drop the kept spec */
void mj_freeLastXML(void) {
  keep_spec(NULL);
}

/* write the kept spec, updated from m (when not NULL), as MJCF to filename (NULL or "":
 * stdout); 1 on success, 0 with a message in error */
int mj_saveLastXML(const char* filename, const mjModel* m, char* error, int error_sz) {
  FILE* out = stdout;
  if (filename && filename[0]) {
    out = fopen(filename, "w");
    if (!out) {
      set_error(error, error_sz, "File not found");
      return 0;
    }
  }
  int ok = 0;
  pthread_mutex_lock(&last_lock);
  if (!last_spec) {
    set_error(error, error_sz, "No XML model loaded");
  } else if (m && !mj_copyBack(last_spec, m)) {
    set_error(error, error_sz, mjs_getError(last_spec));
  } else {
    // the text's size (with its terminating zero) first, then the text
    int need = mj_saveXMLString(last_spec, NULL, 0, error, error_sz);
    if (need > 0) {
      char* text = mju_malloc((size_t)need);
      if (text && mj_saveXMLString(last_spec, text, need, error, error_sz) == 0) {
        fputs(text, out);
        ok = 1;
      }
      mju_free(text);
    }
  }
  pthread_mutex_unlock(&last_lock);
  if (out != stdout) {
    fclose(out);
  }
  if (ok && error && error_sz > 0) {
    error[0] = 0;
  }
  return ok;
}
