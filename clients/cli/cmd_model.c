/* clients/cli/cmd_model.c — model arguments and the model and server subcommands:
 * load, info, unload, stats, health.
 *
 * A model file is sent as MJCF text; the files it references travel with it as named asset
 * blobs (gathered by the client's tnc_assets_collect), because the server resolves references only among a
 * request's own blobs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* is arg a 64-character hex handle */
static int is_handle(const char* arg) {
  if (strlen(arg) != 64)
    return 0;
  for (const char* p = arg; *p; p++) {
    if (!isxdigit((unsigned char)*p))
      return 0;
  }
  return 1;
}

/* load a file with its referenced assets (plus extra ones) */
static int load_file(tnClient* c, const char* path, const tncAsset* extra, int nextra,
                     char handle[65], int* cached) {
  char* xml = tnc_read_file(path, NULL);
  if (!xml) {
    return cli_fail("cannot read %s", path);
  }
  // the extra files, then the referenced ones not given among them
  tncAssets s = {0};
  char err[1024];
  int rc = 0;
  for (int i = 0; !rc && i < nextra; i++) {
    rc = tnc_assets_add(&s, extra[i].name, extra[i].data, extra[i].len, NULL, NULL);
  }
  if (rc) {
    cli_fail("out of memory");
  } else if ((rc = tnc_assets_collect(path, xml, &s, err, sizeof(err)))) {
    cli_fail("load %s", err);
  }
  if (!rc && tnc_load_xml(c, xml, s.a, s.n, handle, cached)) {
    rc = cli_fail("load %s: %s", path, tnc_error(c));
  }
  tnc_assets_free(&s);
  free(xml);
  return rc ? 1 : 0;
}

/* a model argument */
int cli_model(tnClient* c, const char* arg, char handle[65]) {
  if (is_handle(arg)) {
    snprintf(handle, 65, "%s", arg);
    return 0;
  }
  return load_file(c, arg, NULL, 0, handle, NULL) ? -1 : 0;
}

/* print ModelInfo-derived JSON (cached < 0: not a load); 0 or 1 */
static int print_info(const char* handle, const tncModelInfo* in, int cached) {
  json_t* doc =
      json_pack("{s:s, s:s?, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:i}", "model", handle,
                "name", in->name, "nq", in->nq, "nv", in->nv, "nu", in->nu, "na", in->na, "nbody",
                in->nbody, "nsensordata", in->nsensordata, "nkey", in->nkey, "nmocap", in->nmocap,
                "timestep", cli_json_real(in->timestep, -1), "nstate_fullphysics", in->nstate_full);
  if (doc && cached >= 0) {
    json_object_set_new(doc, "cached", json_boolean(cached));
  }
  return cli_json_print(doc, 17);
}

/* the arguments of load: --server-path, and the --asset files (at most 64) */
typedef struct loadArgs_ {
  int server_path, nextra;
  tncAsset extra[64];
  char* names[64];
  char* bufs[64];
} loadArgs;

/* the options of load, info, unload, stats and health */
enum { L_SERVER_PATH = 256, L_ASSET };
static const struct option load_options[] = {{"help", no_argument, NULL, 'h'},
                                             {"server-path", no_argument, NULL, L_SERVER_PATH},
                                             {"asset", required_argument, NULL, L_ASSET},
                                             {NULL, 0, NULL, 0}};
static const struct option help_only[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};

/* one option of load */
static int take_load(void* ctx, int opt, const char* v) {
  loadArgs* a = ctx;
  if (opt == L_SERVER_PATH) {
    a->server_path = 1;
    return 0;
  }
  const char* eq = strchr(v, '=');
  size_t len = 0;
  if (a->nextra == 64) {
    return cli_fail("load: at most 64 --asset files");
  }
  if (!eq || eq == v) {
    return cli_fail("load: --asset needs NAME=FILE, got '%s'", v);
  }
  int k = a->nextra;
  if (!(a->bufs[k] = tnc_read_file(eq + 1, &len))) {
    return cli_fail("load: --asset %s: cannot read %s", v, eq + 1);
  }
  if (!(a->names[k] = strndup(v, (size_t)(eq - v)))) {
    free(a->bufs[k]);
    return cli_fail("out of memory");
  }
  a->extra[k] = (tncAsset){a->names[k], a->bufs[k], len};
  a->nextra++;
  return 0;
}

/* no options */
static int take_none(void* ctx, int opt, const char* v) {
  (void)ctx;
  (void)v;
  return cli_fail("internal error: option %d not handled", opt);
}

/* free the --asset files */
static void free_load_args(loadArgs* a) {
  for (int i = 0; i < a->nextra; i++) {
    free(a->names[i]);
    free(a->bufs[i]);
  }
}

/* load MODEL.xml [--asset NAME=FILE ...] [--server-path] */
int cmd_load(const cliOpts* o) {
  const char* model = NULL;
  int rc = 1;
  loadArgs a = {0};
  int prc = cli_getopt(o, load_options, take_load, &a, &model, NULL);
  if (prc || !model) {
    free_load_args(&a);
    return prc < 0 ? 0 : (prc ? 1 : cli_fail("load: missing MODEL.xml"));
  }
  int server_path = a.server_path, nextra = a.nextra;
  const tncAsset* extra = a.extra;
  tnClient* c = cli_connect(o);
  char handle[65];
  int cached = 0;
  tncModelInfo info;
  if (c) {
    int lr = server_path ? tnc_load_path(c, model, handle, &cached)
                         : load_file(c, model, extra, nextra, handle, &cached);
    if (server_path && lr)
      cli_fail("load %s: %s", model, tnc_error(c));
    if (!lr && tnc_model_info(c, handle, &info) == 0) {
      rc = print_info(handle, &info, cached);
    } else if (!lr) {
      cli_fail("info: %s", tnc_error(c));
    }
  }
  free_load_args(&a);
  tnc_close(c);
  return rc;
}

/* info MODEL.xml|HANDLE */
int cmd_info(const cliOpts* o) {
  const char* model = NULL;
  int prc = cli_getopt(o, help_only, take_none, NULL, &model, NULL);
  if (prc || !model) {
    return prc < 0 ? 0 : (prc ? 1 : cli_fail("info: need one MODEL.xml or HANDLE"));
  }
  tnClient* c = cli_connect(o);
  char handle[65];
  tncModelInfo info;
  int rc = 1;
  if (c && !cli_model(c, model, handle)) {
    if (tnc_model_info(c, handle, &info) == 0) {
      rc = print_info(handle, &info, -1);
    } else {
      cli_fail("info: %s", tnc_error(c));
    }
  }
  tnc_close(c);
  return rc;
}

/* unload HANDLE */
int cmd_unload(const cliOpts* o) {
  const char* handle = NULL;
  int prc = cli_getopt(o, help_only, take_none, NULL, &handle, NULL);
  if (prc || !handle || !is_handle(handle)) {
    return prc < 0 ? 0 : (prc ? 1 : cli_fail("unload: need one model HANDLE"));
  }
  tnClient* c = cli_connect(o);
  int rc = 1;
  if (c) {
    rc = tnc_unload(c, handle) ? cli_fail("unload: %s", tnc_error(c)) : 0;
  }
  tnc_close(c);
  return rc;
}

/* stats: counters, models and latency as JSON */
int cmd_stats(const cliOpts* o) {
  int prc = cli_getopt(o, help_only, take_none, NULL, NULL, NULL);
  if (prc) {
    return prc < 0 ? 0 : 1;
  }
  tnClient* c = cli_connect(o);
  Torsion__V1__Response* r = c ? tnc_stats(c) : NULL;
  if (!r) {
    int rc = c ? cli_fail("stats: %s", tnc_error(c)) : 1;
    tnc_close(c);
    return rc;
  }
  const Torsion__V1__StatsResult* s = r->stats;
  json_t* doc = json_pack(
      "{s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "uptime_s",
      cli_json_real(s->uptime_s, 3), "workers", (json_int_t)s->workers, "connections",
      (json_int_t)s->connections, "requests_total", (json_int_t)s->requests_total,
      "requests_failed", (json_int_t)s->requests_failed, "steps_total", (json_int_t)s->steps_total,
      "bytes_in", (json_int_t)s->bytes_in, "bytes_out", (json_int_t)s->bytes_out, "queued_chunks",
      (json_int_t)s->queued_chunks, "inflight_requests", (json_int_t)s->inflight_requests,
      "sessions", (json_int_t)s->sessions, "unsent_bytes", (json_int_t)s->unsent_bytes,
      "paused_connections", (json_int_t)s->paused_connections);
  json_t* models = json_array();
  for (size_t i = 0; i < s->n_models; i++) {
    const Torsion__V1__ModelStats* m = s->models[i];
    json_array_append_new(
        models, json_pack("{s:s?, s:s?, s:I, s:I, s:I, s:I}", "model", m->model, "name", m->name,
                          "queued_chunks", (json_int_t)m->queued_chunks, "steps_served",
                          (json_int_t)m->steps_served, "requests_served",
                          (json_int_t)m->requests_served, "sessions", (json_int_t)m->sessions));
  }
  json_t* latency = json_object();
  for (size_t i = 0; i < s->n_latency; i++) {
    const Torsion__V1__Histogram* h = s->latency[i];
    json_object_set_new(
        latency, h->request,
        json_pack("{s:I, s:o, s:o, s:o, s:o}", "count", (json_int_t)h->count, "p50",
                  cli_json_real(h->p50_us, 1), "p90", cli_json_real(h->p90_us, 1), "p99",
                  cli_json_real(h->p99_us, 1), "max", cli_json_real(h->max_us, 1)));
  }
  json_object_set_new(doc, "models", models);
  json_object_set_new(doc, "latency_us", latency);
  int rc = cli_json_print(doc, 15);
  tnc_free(r);
  tnc_close(c);
  return rc;
}

/* health */
int cmd_health(const cliOpts* o) {
  int prc = cli_getopt(o, help_only, take_none, NULL, NULL, NULL);
  if (prc) {
    return prc < 0 ? 0 : 1;
  }
  tnClient* c = cli_connect(o);
  Torsion__V1__Response* r = c ? tnc_health(c) : NULL;
  if (!r) {
    int rc = c ? cli_fail("health: %s", tnc_error(c)) : 1;
    tnc_close(c);
    return rc;
  }
  const Torsion__V1__HealthResult* h = r->health;
  json_t* doc = json_pack("{s:b, s:o, s:I, s:I, s:I, s:I}", "serving", h->serving, "uptime_s",
                          cli_json_real(h->uptime_s, 3), "queued_chunks",
                          (json_int_t)h->queued_chunks, "busy_workers", (json_int_t)h->busy_workers,
                          "workers", (json_int_t)h->workers, "models", (json_int_t)h->models);
  int rc = cli_json_print(doc, 15) || !h->serving;
  tnc_free(r);
  tnc_close(c);
  return rc;
}
