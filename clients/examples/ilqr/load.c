/* clients/examples/ilqr/load.c — connecting to torsiond and loading the task's model.
 *
 * torsiond reads model files only from the blobs of the LoadModel request (or under its
 * model_root), so the MJCF text is read here and every file it references (file="..."
 * attributes, followed into included .xml files) is sent as a named asset. Two edits are
 * made to the text on the way: file="./x" becomes file="x" (asset names have no "."
 * components), and an RK4 integrator becomes the one asked for (Euler by default), since
 * transitionFD is not defined for RK4 (MuJoCo refuses it too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilqr.h"

#define MAX_ASSETS 64

/* the assets of one model */
typedef struct assetList_ {
  tncAsset a[MAX_ASSETS];
  int n;
} assetList;

/* append n bytes to a growing string */
static int append(char** out, size_t* len, size_t* cap, const char* s, size_t n) {
  if (*len + n + 1 > *cap) {
    size_t c = 2 * (*cap + n + 1);
    char* p = realloc(*out, c);
    if (!p) {
      return -1;
    }
    *out = p;
    *cap = c;
  }
  memcpy(*out + *len, s, n);
  *len += n;
  (*out)[*len] = '\0';
  return 0;
}

/* the text with file="./x" -> file="x" and integrator="RK4" -> integrator="<integrator>" */
static char* rewrite(const char* xml, const char* integrator) {
  char* out = NULL;
  size_t len = 0, cap = 0;
  const char* p = xml;
  int rc = append(&out, &len, &cap, "", 0);
  while (!rc && *p) {
    // the next attribute worth editing (none: copy the rest)
    const char* f = strstr(p, "file=\"./");
    const char* g = strstr(p, "integrator=\"RK4\"");
    const char* hit = f && (!g || f < g) ? f : g;
    if (!hit) {
      rc = append(&out, &len, &cap, p, strlen(p));
      break;
    }

    // copy up to it, then its edited form
    rc = append(&out, &len, &cap, p, (size_t)(hit - p));
    if (hit == f) {
      rc = rc || append(&out, &len, &cap, "file=\"", 6);
      p = hit + 8;
    } else {
      rc = rc || append(&out, &len, &cap, "integrator=\"", 12);
      rc = rc || append(&out, &len, &cap, integrator, strlen(integrator));
      rc = rc || append(&out, &len, &cap, "\"", 1);
      p = hit + 16;
    }
  }
  if (rc) {
    free(out);
    return NULL;
  }
  return out;
}

/* add the files referenced by text (and, recursively, by referenced .xml files) */
static int collect(assetList* al, const char* dir, const char* text, const char* integrator) {
  for (const char* p = strstr(text, "file=\""); p; p = strstr(p, "file=\"")) {
    // the referenced name, already without "./"
    p += 6;
    const char* end = strchr(p, '"');
    if (!end || end == p || end - p > 255) {
      continue;
    }
    char name[256], path[4096];
    snprintf(name, sizeof(name), "%.*s", (int)(end - p), p);
    int seen = 0;
    for (int i = 0; i < al->n; i++) {
      seen |= !strcmp(al->a[i].name, name);
    }
    if (seen) {
      continue;
    }
    if (al->n == MAX_ASSETS) {
      fprintf(stderr, "ilqr: more than %d referenced files\n", MAX_ASSETS);
      return -1;
    }

    // read it (included MJCF gets the same edits) and follow its own references
    size_t len = 0;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    char* data = tnc_read_file(path, &len);
    if (!data) {
      fprintf(stderr, "ilqr: cannot read %s (referenced by the model)\n", path);
      return -1;
    }
    int is_xml = strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".xml");
    if (is_xml) {
      char* edited = rewrite(data, integrator);
      free(data);
      if (!edited) {
        return -1;
      }
      data = edited;
      len = strlen(data);
    }
    tncAsset* a = &al->a[al->n++];
    a->name = strdup(name);
    a->data = data;
    a->len = len;
    if (is_xml && collect(al, dir, data, integrator)) {
      return -1;
    }
  }
  return 0;
}

/* free the asset list */
static void release(assetList* al) {
  for (int i = 0; i < al->n; i++) {
    free((void*)al->a[i].name);
    free((void*)al->a[i].data);
  }
  al->n = 0;
}

/* write the text that was sent */
static int save_text(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  int ok = f && fputs(text, f) >= 0;
  if (f && fclose(f)) {
    ok = 0;
  }
  if (!ok) {
    fprintf(stderr, "ilqr: cannot write %s\n", path);
  }
  return ok ? 0 : -1;
}

/* MJCF text and its assets -> handle */
static int load_text(ilqrDaemon* dd, const char* xml_path, const char* integrator,
                     const char* save_xml) {
  size_t len = 0;
  char* raw = tnc_read_file(xml_path, &len);
  if (!raw) {
    fprintf(stderr, "ilqr: cannot read %s\n", xml_path);
    return -1;
  }
  char* text = rewrite(raw, integrator);
  free(raw);
  if (!text) {
    return -1;
  }

  // assets are looked up relative to the model's directory
  char dir[4096];
  snprintf(dir, sizeof(dir), "%s", xml_path);
  char* slash = strrchr(dir, '/');
  if (slash) {
    *slash = '\0';
  } else {
    strcpy(dir, ".");
  }
  assetList al = {.n = 0};
  int rc = collect(&al, dir, text, integrator);
  if (!rc && save_xml) {
    rc = save_text(save_xml, text);
  }
  int cached = 0;
  if (!rc && tnc_load_xml(dd->c, text, al.a, al.n, dd->handle, &cached)) {
    fprintf(stderr, "ilqr: LoadModel failed: %s\n", tnc_error(dd->c));
    rc = -1;
  }
  release(&al);
  free(text);
  return rc;
}

int ilqr_daemon_open(ilqrDaemon* dd, const char* address, const char* xml_path, int server_path,
                     const char* integrator, const char* save_xml) {
  char err[512];
  memset(dd, 0, sizeof(*dd));
  dd->c = tnc_connect(address, err, sizeof(err));
  if (!dd->c) {
    fprintf(stderr, "ilqr: %s\n", err);
    return -1;
  }

  // the model: text with assets, or a path the server resolves under its model_root
  if (server_path) {
    int cached = 0;
    if (tnc_load_path(dd->c, xml_path, dd->handle, &cached)) {
      fprintf(stderr, "ilqr: LoadModel %s failed: %s\n", xml_path, tnc_error(dd->c));
      return -1;
    }
  } else if (load_text(dd, xml_path, integrator, save_xml)) {
    return -1;
  }

  // sizes
  if (tnc_model_info(dd->c, dd->handle, &dd->info)) {
    fprintf(stderr, "ilqr: ModelInfo failed: %s\n", tnc_error(dd->c));
    return -1;
  }
  dd->nstate = tnc_state_size(&dd->info, ILQR_SPEC);
  return 0;
}

void ilqr_daemon_close(ilqrDaemon* dd) {
  if (dd->c && dd->has_session) {
    tnc_session_close(dd->c, &dd->session);
  }
  if (dd->c) {
    tnc_close(dd->c);
  }
  free(dd->buf);
  memset(dd, 0, sizeof(*dd));
}
