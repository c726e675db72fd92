/* clients/cli/cmd_model.c — model arguments and the model and server subcommands:
 * load, info, unload, stats, health.
 *
 * A model file is sent as MJCF text; the files it references travel with it as named asset
 * blobs (gathered by cli_assets.c), because the server resolves references only among a
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
  cliAssets s = {0};
  char err[1024];
  int rc = 0;
  for (int i = 0; !rc && i < nextra; i++) {
    rc = cli_assets_add(&s, extra[i].name, extra[i].data, extra[i].len, NULL, NULL);
  }
  if (rc) {
    cli_fail("out of memory");
  } else if ((rc = cli_assets_collect(path, xml, &s, err, sizeof(err)))) {
    cli_fail("load %s", err);
  }
  if (!rc && tnc_load_xml(c, xml, s.a, s.n, handle, cached)) {
    rc = cli_fail("load %s: %s", path, tnc_error(c));
  }
  cli_assets_free(&s);
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

/* print ModelInfo-derived JSON */
static void print_info(const char* handle, const tncModelInfo* in, int cached) {
  printf(
      "{\"model\": \"%s\", \"name\": \"%s\", \"nq\": %d, \"nv\": %d, \"nu\": %d, \"na\": %d, "
      "\"nbody\": %d, \"nsensordata\": %d, \"nkey\": %d, \"nmocap\": %d, \"timestep\": %.17g, "
      "\"nstate_fullphysics\": %d",
      handle, in->name, in->nq, in->nv, in->nu, in->na, in->nbody, in->nsensordata, in->nkey,
      in->nmocap, in->timestep, in->nstate_full);
  if (cached >= 0) {
    printf(", \"cached\": %s", cached ? "true" : "false");
  }
  printf("}\n");
}

/* load MODEL.xml [--asset NAME=FILE ...] [--server-path] */
int cmd_load(const cliOpts* o) {
  const char* model = NULL;
  int server_path = 0, nextra = 0, rc = 1;
  tncAsset extra[64];
  char* bufs[64];
  for (int i = 1; i < o->argc; i++) {
    if (!strcmp(o->argv[i], "--server-path")) {
      server_path = 1;
    } else if (!strcmp(o->argv[i], "--asset") && i + 1 < o->argc && nextra < 64) {
      char* spec = o->argv[++i];
      char* eq = strchr(spec, '=');
      size_t len = 0;
      if (!eq || !(bufs[nextra] = tnc_read_file(eq + 1, &len))) {
        return cli_fail("--asset needs NAME=FILE with a readable FILE");
      }
      *eq = '\0';
      extra[nextra] = (tncAsset){spec, bufs[nextra], len};
      nextra++;
    } else if (!model) {
      model = o->argv[i];
    } else {
      return cli_fail("load: unexpected argument %s", o->argv[i]);
    }
  }
  if (!model) {
    return cli_fail("load: missing MODEL.xml");
  }
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
      print_info(handle, &info, cached);
      rc = 0;
    } else if (!lr) {
      cli_fail("info: %s", tnc_error(c));
    }
  }
  for (int i = 0; i < nextra; i++) free(bufs[i]);
  tnc_close(c);
  return rc;
}

/* info MODEL.xml|HANDLE */
int cmd_info(const cliOpts* o) {
  if (o->argc != 2) {
    return cli_fail("info: need one MODEL.xml or HANDLE");
  }
  tnClient* c = cli_connect(o);
  char handle[65];
  tncModelInfo info;
  int rc = 1;
  if (c && !cli_model(c, o->argv[1], handle)) {
    if (tnc_model_info(c, handle, &info) == 0) {
      print_info(handle, &info, -1);
      rc = 0;
    } else {
      cli_fail("info: %s", tnc_error(c));
    }
  }
  tnc_close(c);
  return rc;
}

/* unload HANDLE */
int cmd_unload(const cliOpts* o) {
  if (o->argc != 2 || !is_handle(o->argv[1])) {
    return cli_fail("unload: need one model HANDLE");
  }
  tnClient* c = cli_connect(o);
  int rc = 1;
  if (c) {
    rc = tnc_unload(c, o->argv[1]) ? cli_fail("unload: %s", tnc_error(c)) : 0;
  }
  tnc_close(c);
  return rc;
}

/* stats: counters, models and latency as JSON */
int cmd_stats(const cliOpts* o) {
  tnClient* c = cli_connect(o);
  Torsion__V1__Response* r = c ? tnc_stats(c) : NULL;
  if (!r) {
    int rc = c ? cli_fail("stats: %s", tnc_error(c)) : 1;
    tnc_close(c);
    return rc;
  }
  const Torsion__V1__StatsResult* s = r->stats;
  printf(
      "{\"uptime_s\": %.3f, \"workers\": %u, \"connections\": %u, \"requests_total\": %llu, "
      "\"requests_failed\": %llu, \"steps_total\": %llu, \"bytes_in\": %llu, "
      "\"bytes_out\": %llu, \"queued_chunks\": %llu, \"inflight_requests\": %llu, "
      "\"sessions\": %u, \"unsent_bytes\": %llu, \"paused_connections\": %u,\n \"models\": [",
      s->uptime_s, s->workers, s->connections, (unsigned long long)s->requests_total,
      (unsigned long long)s->requests_failed, (unsigned long long)s->steps_total,
      (unsigned long long)s->bytes_in, (unsigned long long)s->bytes_out,
      (unsigned long long)s->queued_chunks, (unsigned long long)s->inflight_requests, s->sessions,
      (unsigned long long)s->unsent_bytes, s->paused_connections);
  for (size_t i = 0; i < s->n_models; i++) {
    const Torsion__V1__ModelStats* m = s->models[i];
    printf(
        "%s{\"model\": \"%s\", \"name\": \"%s\", \"queued_chunks\": %llu, "
        "\"steps_served\": %llu, \"requests_served\": %llu, \"sessions\": %u}",
        i ? ", " : "", m->model, m->name, (unsigned long long)m->queued_chunks,
        (unsigned long long)m->steps_served, (unsigned long long)m->requests_served, m->sessions);
  }
  printf("],\n \"latency_us\": {");
  for (size_t i = 0; i < s->n_latency; i++) {
    const Torsion__V1__Histogram* h = s->latency[i];
    printf(
        "%s\"%s\": {\"count\": %llu, \"p50\": %.1f, \"p90\": %.1f, \"p99\": %.1f, "
        "\"max\": %.1f}",
        i ? ", " : "", h->request, (unsigned long long)h->count, h->p50_us, h->p90_us, h->p99_us,
        h->max_us);
  }
  printf("}}\n");
  tnc_free(r);
  tnc_close(c);
  return 0;
}

/* health */
int cmd_health(const cliOpts* o) {
  tnClient* c = cli_connect(o);
  Torsion__V1__Response* r = c ? tnc_health(c) : NULL;
  if (!r) {
    int rc = c ? cli_fail("health: %s", tnc_error(c)) : 1;
    tnc_close(c);
    return rc;
  }
  const Torsion__V1__HealthResult* h = r->health;
  printf(
      "{\"serving\": %s, \"uptime_s\": %.3f, \"queued_chunks\": %llu, \"busy_workers\": %u, "
      "\"workers\": %u, \"models\": %u}\n",
      h->serving ? "true" : "false", h->uptime_s, (unsigned long long)h->queued_chunks,
      h->busy_workers, h->workers, h->models);
  int rc = h->serving ? 0 : 1;
  tnc_free(r);
  tnc_close(c);
  return rc;
}
