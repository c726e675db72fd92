/* server/config.c — the option table, INI reading (libinih), flags and --help.
 *
 * One table lists every option once with its section, type, default and help text; the
 * defaults, the file reader, the flag parser and --help are all driven by it (the Redis
 * idea). Byte sizes accept the suffixes k, M and G (powers of 1024). */
#include "config.h"

#include "log.h"

#include <ini.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <torsion/torsion.h>

/* option value types */
typedef enum tdOptType_ { OPT_STR = 0, OPT_INT, OPT_I64, OPT_BYTES, OPT_BOOL } tdOptType;

/* one option */
typedef struct tdOption_ {
  const char* section;
  const char* name;
  tdOptType type;
  size_t offset;
  size_t size;     /* buffer size of string options */
  const char* def; /* default, parsed like a file value */
  const char* help;
} tdOption;

#define STR(sec, f, d, h) \
  { sec, #f, OPT_STR, offsetof(tdConfig, f), sizeof(((tdConfig*)0)->f), d, h }
#define INT(sec, f, d, h) \
  { sec, #f, OPT_INT, offsetof(tdConfig, f), 0, d, h }
#define I64(sec, f, d, h) \
  { sec, #f, OPT_I64, offsetof(tdConfig, f), 0, d, h }
#define BYTES(sec, f, d, h) \
  { sec, #f, OPT_BYTES, offsetof(tdConfig, f), 0, d, h }
#define BOOL(sec, f, d, h) \
  { sec, #f, OPT_BOOL, offsetof(tdConfig, f), 0, d, h }

/* the table: every option of torsiond */
static const tdOption options[] = {
    STR("listen", socket, "/tmp/torsiond.sock", "Unix socket path (mode 0600); empty: none"),
    INT("listen", tcp_port, "0", "TCP port; 0: no TCP listener"),
    STR("listen", tcp_address, "127.0.0.1",
        "TCP bind address; a non-loopback address requires a token"),
    STR("listen", token, "", "auth token that Hello must carry (prefer token_file)"),
    STR("listen", token_file, "",
        "file of auth tokens, one per line (each a client identity with its own quotas)"),
    INT("listen", max_connections, "1024", "simultaneous connections"),
    BOOL("listen", insecure_loopback, "false",
         "allow a TCP listener on a loopback address without a token"),
    STR("listen", tls_cert, "",
        "PEM certificate chain; when set, every TCP connection is TLS (1.2 or newer)"),
    STR("listen", tls_key, "", "PEM private key of tls_cert"),
    INT("engine", workers, "0", "worker threads; 0: the number of cores"),
    STR("engine", model_root, "", "LoadModel paths resolve only under here; empty: paths refused"),
    STR("engine", tmp_dir, "/tmp",
        "unused: client models load from memory (kept so older config files parse)"),
    BOOL("engine", model_keep_warm, "false",
         "keep a model loaded after the last connection using it has gone"),
    INT("engine", slice_us, "1500",
        "work of one rollout slice in microseconds (by the model's step cost); 0: unsliced"),
    BOOL("engine", slice_yield_always, "false",
         "every rollout slice goes back to the queue and resumes (for tests)"),
    INT("engine", latency_work_us, "2000",
        "session calls and Forward/Inverse/FD requests up to this work are taken first"),
    INT("engine", latency_burst, "8", "latency chunks taken in a row while bulk work waits"),
    INT("engine", bulk_nice, "10",
        "nice steps added to the worker threads (the I/O loop and express worker keep theirs)"),
    BYTES("limits", max_frame_bytes, "64M", "largest request frame"),
    BYTES("limits", max_model_bytes, "32M", "MJCF text plus assets of one LoadModel"),
    I64("limits", max_batch, "65536", "B of one Rollout, Forward, Inverse or FD request"),
    I64("limits", max_nstep, "1000000", "nstep of one Rollout"),
    I64("limits", max_batch_steps, "100000000",
        "B x nstep of one Rollout; B x evaluations of one FD request"),
    BYTES("limits", max_output_bytes, "1G", "output bytes of one request"),
    INT("limits", max_models, "64", "loaded models"),
    INT("limits", max_sessions_per_connection, "16", "open sessions per connection"),
    INT("limits", max_envs_per_session, "65536", "environments per session"),
    INT("limits", max_frame_skip, "10000", "frame_skip of one SessionStep"),
    INT("limits", max_inflight_per_connection, "64",
        "unfinished requests of one connection before reading pauses"),
    BYTES("limits", max_unsent_bytes_per_connection, "64M",
          "unsent response bytes of one connection before reading pauses"),
    I64("limits", max_queued_steps, "4000000000",
        "env-steps of unfinished work (all connections) before reading pauses"),
    BYTES("limits", max_unsent_bytes, "1G",
          "unsent response bytes (all connections) before reading pauses"),
    BYTES("limits", frame_target_bytes, "8M", "target size of one streamed result frame"),
    I64("quotas", max_queued_steps_per_connection, "1000000000",
        "env-steps of one connection's unfinished work before its reading pauses"),
    INT("quotas", max_models_per_connection, "16", "models one connection references"),
    BYTES("quotas", max_model_memory, "1G",
          "estimated bytes of one model and its per-worker mjData pool"),
    BYTES("quotas", max_model_memory_per_connection, "2G",
          "estimated bytes of the models one connection references"),
    BYTES("quotas", max_model_memory_total, "8G", "estimated bytes of every loaded model"),
    INT("quotas", max_envs_per_connection, "65536",
        "environments over all sessions of one connection"),
    INT("timeouts", default_deadline_ms, "600000",
        "deadline of a request that names none; 0: none"),
    INT("timeouts", max_deadline_ms, "3600000", "larger requested deadlines are clamped; 0: none"),
    INT("timeouts", drain_timeout_ms, "30000", "on SIGTERM, time given to in-flight work"),
    INT("timeouts", header_timeout_ms, "10000",
        "a new connection must send a complete first frame within this; 0: none"),
    INT("timeouts", read_timeout_ms, "30000",
        "a frame whose first bytes arrived must complete within this; 0: none"),
    INT("timeouts", idle_timeout_ms, "600000",
        "a connection with no request in flight and no traffic is closed after this; 0: none"),
    STR("log", log_level, "info", "debug | info | warn | error | off"),
    STR("metrics", metrics_listen, "",
        "HOST:PORT of the Prometheus /metrics HTTP listener; empty: none"),
    STR("metrics", metrics_token_file, "",
        "file whose first line is the bearer token scrapes must send (needed off loopback)"),
    INT("metrics", metrics_max_connections, "16", "simultaneous /metrics connections"),
    INT("metrics", metrics_timeout_ms, "5000",
        "a /metrics connection is closed this long after it was accepted"),
};

#define NOPTIONS ((int)(sizeof(options) / sizeof(options[0])))

/* parse a signed 64-bit integer, with k/M/G suffixes for byte sizes */
static int parse_i64(const char* s, int bytes, int64_t* out) {
  char* end;
  long long v = strtoll(s, &end, 10);
  if (end == s) {
    return -1;
  }
  long long mul = 1;
  if (bytes && *end) {
    if (*end == 'k' || *end == 'K')
      mul = 1024LL;
    else if (*end == 'm' || *end == 'M')
      mul = 1024LL * 1024;
    else if (*end == 'g' || *end == 'G')
      mul = 1024LL * 1024 * 1024;
    else
      return -1;
    end++;
  }
  if (*end != '\0' || v < 0 || v > INT64_MAX / mul) {
    return -1;
  }
  *out = (int64_t)(v * mul);
  return 0;
}

/* store one value into cfg; returns 0 or -1 when it does not parse */
static int set_value(tdConfig* cfg, const tdOption* o, const char* value) {
  char* field = (char*)cfg + o->offset;
  int64_t v;
  switch (o->type) {
    case OPT_STR:
      if (strlen(value) >= o->size) {
        return -1;
      }
      memcpy(field, value, strlen(value) + 1);
      return 0;
    case OPT_INT:
      if (parse_i64(value, 0, &v) || v > 2147483647) {
        return -1;
      }
      *(int*)field = (int)v;
      return 0;
    case OPT_BOOL:
      if (!strcmp(value, "true") || !strcmp(value, "yes") || !strcmp(value, "1")) {
        *(int*)field = 1;
      } else if (!strcmp(value, "false") || !strcmp(value, "no") || !strcmp(value, "0")) {
        *(int*)field = 0;
      } else {
        return -1;
      }
      return 0;
    case OPT_I64:
    case OPT_BYTES:
      if (parse_i64(value, o->type == OPT_BYTES, &v)) {
        return -1;
      }
      *(int64_t*)field = v;
      return 0;
  }
  return -1;
}

/* find an option by name (flags use '-' where names use '_') */
static const tdOption* find_option(const char* name, size_t len) {
  for (int i = 0; i < NOPTIONS; i++) {
    const char* n = options[i].name;
    if (strlen(n) != len) {
      continue;
    }
    size_t k = 0;
    while (k < len && (name[k] == n[k] || (name[k] == '-' && n[k] == '_'))) {
      k++;
    }
    if (k == len) {
      return &options[i];
    }
  }
  return NULL;
}

/* defaults from the table */
void td_config_defaults(tdConfig* cfg) {
  memset(cfg, 0, sizeof(*cfg));
  for (int i = 0; i < NOPTIONS; i++) {
    set_value(cfg, &options[i], options[i].def);
  }
}

/* state passed through ini_parse */
typedef struct iniCtx_ {
  tdConfig* cfg;
  const char* path;
  int failed;
} iniCtx;

/* libinih callback: one key = value in a section */
static int on_ini(void* user, const char* section, const char* name, const char* value) {
  iniCtx* ctx = user;
  const tdOption* o = find_option(name, strlen(name));
  if (!o || strcmp(o->section, section) != 0) {
    fprintf(stderr, "torsiond: %s: unknown option '%s' in section [%s]\n", ctx->path, name,
            section);
    ctx->failed = 1;
    return 0;
  }
  if (set_value(ctx->cfg, o, value)) {
    fprintf(stderr, "torsiond: %s: bad value '%s' for %s\n", ctx->path, value, name);
    ctx->failed = 1;
    return 0;
  }
  return 1;
}

/* read a config file */
static int read_file(tdConfig* cfg, const char* path) {
  iniCtx ctx = {cfg, path, 0};
  int rc = ini_parse(path, on_ini, &ctx);
  if (rc < 0) {
    fprintf(stderr, "torsiond: cannot read config file %s\n", path);
    return -1;
  }
  if (rc > 0 && !ctx.failed) {
    fprintf(stderr, "torsiond: %s:%d: syntax error\n", path, rc);
  }
  return (rc != 0 || ctx.failed) ? -1 : 0;
}

/* the value of flag argv[*i] ("--k=v" or "--k v"); NULL when missing */
static const char* flag_value(int argc, char** argv, int* i, const char* eq) {
  if (eq) {
    return eq + 1;
  }
  if (*i + 1 >= argc) {
    return NULL;
  }
  return argv[++*i];
}

/* parse flags: --config first, then the rest */
int td_config_load(tdConfig* cfg, int argc, char** argv) {
  td_config_defaults(cfg);

  // --help, --version and --config come first
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      td_config_help(argv[0]);
      return 1;
    }
    if (!strcmp(argv[i], "--version")) {
      printf("torsiond %s (engine %s, MuJoCo semantics %d)\n", TORSION_VERSION, TORSION_VERSION,
             mjVERSION_HEADER / 1000);
      return 1;
    }
  }
  for (int i = 1; i < argc; i++) {
    const char* eq = strchr(argv[i], '=');
    if (!strncmp(argv[i], "--config", 8) && (argv[i][8] == '\0' || argv[i][8] == '=')) {
      const char* v = flag_value(argc, argv, &i, eq);
      if (!v || read_file(cfg, v)) {
        if (!v)
          fprintf(stderr, "torsiond: --config needs a file\n");
        return -1;
      }
    }
  }

  // every other flag overrides the file
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (strncmp(a, "--", 2) != 0) {
      fprintf(stderr, "torsiond: unexpected argument '%s' (see --help)\n", a);
      return -1;
    }
    const char* eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
    if (len == 6 && !strncmp(a + 2, "config", 6)) {
      if (!eq)
        i++;
      continue;
    }
    const tdOption* o = find_option(a + 2, len);
    if (!o) {
      fprintf(stderr, "torsiond: unknown option '%s' (see --help)\n", a);
      return -1;
    }
    const char* v = flag_value(argc, argv, &i, eq);
    if (!v || set_value(cfg, o, v)) {
      fprintf(stderr, "torsiond: bad or missing value for %.*s\n", (int)(len + 2), a);
      return -1;
    }
  }
  return 0;
}

/* is this a loopback address */
int td_config_is_loopback(const char* addr) {
  return !strncmp(addr, "127.", 4) || !strcmp(addr, "::1") || !strcmp(addr, "localhost");
}

/* read the token file: one token per non-empty line (the first is also `token`) */
static int read_token_file(tdConfig* cfg) {
  FILE* f = fopen(cfg->token_file, "r");
  if (!f) {
    fprintf(stderr, "torsiond: cannot read token_file %s\n", cfg->token_file);
    return -1;
  }
  static char text[TD_MAX_TOKENS * 258 + 1];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  cfg->ntokens = 0;
  for (size_t i = 0; i < n;) {
    size_t end = i;
    while (end < n && text[end] != '\n' && text[end] != '\r') {
      end++;
    }
    size_t len = end - i;
    if (memchr(text + i, '\0', len)) {
      fprintf(stderr, "torsiond: token_file %s: a token contains a NUL byte\n", cfg->token_file);
      return -1;
    }
    if (len >= sizeof(cfg->tokens[0]) || (len && cfg->ntokens == TD_MAX_TOKENS)) {
      fprintf(stderr, "torsiond: token_file %s: tokens longer than %zu bytes or more than %d\n",
              cfg->token_file, sizeof(cfg->tokens[0]) - 1, TD_MAX_TOKENS);
      return -1;
    }
    if (len) {
      memcpy(cfg->tokens[cfg->ntokens], text + i, len);
      cfg->tokens[cfg->ntokens++][len] = '\0';
    }
    i = end + 1;
  }
  if (cfg->ntokens == 0) {
    fprintf(stderr, "torsiond: token_file %s holds no token\n", cfg->token_file);
    return -1;
  }
  memcpy(cfg->token, cfg->tokens[0], sizeof(cfg->token));
  return 0;
}

/* shortest token accepted */
#define TD_MIN_TOKEN 16

/* a token must be long enough and made of printable, non-space characters */
static int check_token(const char* token) {
  size_t n = strlen(token);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)token[i];
    bad |= ch <= ' ' || ch == 0x7f;
  }
  if (n < TD_MIN_TOKEN || bad) {
    fprintf(stderr,
            "torsiond: the token must be at least %d bytes of printable characters without "
            "spaces or control characters\n",
            TD_MIN_TOKEN);
    return -1;
  }
  return 0;
}

/* split metrics_listen into host and port and read its token; 0 or -1 after printing why */
static int finish_metrics(tdConfig* cfg) {
  cfg->metrics_host[0] = cfg->metrics_token[0] = '\0';
  cfg->metrics_port = 0;
  const char* spec = cfg->metrics_listen;
  if (!spec[0]) {
    return 0;
  }

  // HOST:PORT, or [V6]:PORT
  const char* colon = strrchr(spec, ':');
  const char* host = spec;
  size_t hlen = colon ? (size_t)(colon - spec) : 0;
  if (spec[0] == '[' && hlen >= 2 && spec[hlen - 1] == ']') {
    host++;
    hlen -= 2;
  }
  char* end = NULL;
  long port = colon ? strtol(colon + 1, &end, 10) : -1;
  if (!colon || hlen == 0 || hlen >= sizeof(cfg->metrics_host) || !colon[1] || *end || port < 1 ||
      port > 65535) {
    fprintf(stderr, "torsiond: metrics_listen must be HOST:PORT or [V6]:PORT, got '%s'\n", spec);
    return -1;
  }
  memcpy(cfg->metrics_host, host, hlen);
  cfg->metrics_host[hlen] = '\0';
  cfg->metrics_port = (int)port;

  // the token: the first line of its file
  if (cfg->metrics_token_file[0]) {
    FILE* f = fopen(cfg->metrics_token_file, "r");
    char line[sizeof(cfg->metrics_token) + 2];
    if (!f || !fgets(line, sizeof(line), f)) {
      fprintf(stderr, "torsiond: cannot read metrics_token_file %s\n", cfg->metrics_token_file);
      if (f) {
        fclose(f);
      }
      return -1;
    }
    fclose(f);
    line[strcspn(line, "\r\n")] = '\0';
    if (strlen(line) >= sizeof(cfg->metrics_token) || check_token(line)) {
      fprintf(stderr, "torsiond: metrics_token_file %s: bad token\n", cfg->metrics_token_file);
      return -1;
    }
    memcpy(cfg->metrics_token, line, strlen(line) + 1);
  }
  if (!cfg->metrics_token[0] && !td_config_is_loopback(cfg->metrics_host)) {
    fprintf(stderr, "torsiond: metrics_listen off loopback requires metrics_token_file\n");
    return -1;
  }
  if (cfg->metrics_max_connections < 1 || cfg->metrics_timeout_ms < 1) {
    fprintf(stderr, "torsiond: metrics_max_connections and metrics_timeout_ms must be >= 1\n");
    return -1;
  }
  return 0;
}

/* consistency checks */
int td_config_finish(tdConfig* cfg) {
  if (cfg->token_file[0]) {
    if (read_token_file(cfg)) {
      return -1;
    }
  } else if (cfg->token[0]) {
    memcpy(cfg->tokens[0], cfg->token, sizeof(cfg->token));
    cfg->ntokens = 1;
  }
  if (td_log_parse_level(cfg->log_level) < 0) {
    fprintf(stderr, "torsiond: log_level must be debug, info, warn, error or off\n");
    return -1;
  }
  if (!cfg->socket[0] && cfg->tcp_port == 0) {
    fprintf(stderr, "torsiond: no listener: set socket or tcp_port\n");
    return -1;
  }
  if (cfg->tcp_port < 0 || cfg->tcp_port > 65535) {
    fprintf(stderr, "torsiond: tcp_port must be in [0, 65535]\n");
    return -1;
  }
  if (!cfg->tls_cert[0] != !cfg->tls_key[0]) {
    fprintf(stderr, "torsiond: tls_cert and tls_key go together: set both or neither\n");
    return -1;
  }
  if (cfg->tls_cert[0] && cfg->tcp_port == 0) {
    fprintf(stderr, "torsiond: tls_cert applies to the TCP listener: set tcp_port\n");
    return -1;
  }
  for (int i = 0; i < cfg->ntokens; i++) {
    if (check_token(cfg->tokens[i])) {
      return -1;
    }
  }
  if (cfg->tcp_port && !cfg->token[0] &&
      !(cfg->insecure_loopback && td_config_is_loopback(cfg->tcp_address))) {
    fprintf(stderr, "torsiond: a TCP listener requires a token (token_file)%s\n",
            td_config_is_loopback(cfg->tcp_address)
                ? ", or insecure_loopback = true to let any local user in"
                : "");
    return -1;
  }
  if (cfg->workers < 0 || cfg->workers > 1024 || cfg->max_connections < 1 ||
      cfg->max_frame_bytes < 64 || cfg->max_frame_bytes > 0xFFFFFFFFLL ||
      cfg->max_inflight_per_connection < 1 || cfg->max_models < 1 ||
      cfg->frame_target_bytes < 1024 || cfg->max_models_per_connection < 1 ||
      cfg->max_envs_per_connection < 1 || cfg->max_queued_steps_per_connection < 1 ||
      cfg->slice_us < 0 || cfg->latency_work_us < 0 || cfg->latency_burst < 1 ||
      cfg->bulk_nice < 0 || cfg->bulk_nice > 19) {
    fprintf(stderr,
            "torsiond: an option is out of range (workers <= 1024, max_frame_bytes in "
            "[64, 4G), frame_target_bytes >= 1k, counts >= 1)\n");
    return -1;
  }
  return finish_metrics(cfg);
}

/* --help: the table with defaults */
void td_config_help(const char* argv0) {
  printf(
      "usage: %s [--config FILE] [--OPTION=VALUE ...]\n\n"
      "torsiond serves batched MuJoCo-compatible simulation over protobuf frames.\n"
      "Every option below may be set in the config file (INI: `name = value` under its\n"
      "[section]) or as a flag (--name=value or --name value, '-' or '_'); flags win.\n"
      "Byte sizes accept k, M, G suffixes.\n",
      argv0);
  const char* section = "";
  for (int i = 0; i < NOPTIONS; i++) {
    const tdOption* o = &options[i];
    if (strcmp(section, o->section)) {
      section = o->section;
      printf("\n[%s]\n", section);
    }
    char flag[64];
    snprintf(flag, sizeof(flag), "--%s", o->name);
    for (char* p = flag + 2; *p; p++) {
      *p = *p == '_' ? '-' : *p;
    }
    printf("  %-36s %s (default: %s)\n", flag, o->help, o->def[0] ? o->def : "\"\"");
  }
  printf("\n  %-36s %s\n  %-36s %s\n  %-36s %s\n", "--config FILE", "read FILE first", "--help",
         "this text", "--version", "print the version");
}
