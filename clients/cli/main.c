/* clients/cli/main.c — `torsion`, the command-line client of torsiond: global options
 * (--socket / --tcp / --tls / --token / --tls-ca), connecting, reading the states argument, and
 * dispatch to the subcommands. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* usage text */
static const char* usage =
    "usage: torsion [--socket PATH | --tcp HOST:PORT | --tls HOST:PORT] [--tls-ca CA.pem]\n"
    "               [--token T | --token-file F] COMMAND ...\n"
    "commands:\n"
    "  load MODEL.xml [--asset NAME=FILE ...] [--server-path]   load; prints the handle as JSON\n"
    "  info MODEL.xml|HANDLE                   sizes and names as JSON\n"
    "  unload HANDLE\n"
    "  rollout MODEL.xml|HANDLE --state S.npy [--ctrl C.npy] --nstep N --out OUT.npy\n"
    "          [--spec BITS] [--every K | --final-only] [--float32] [--sensordata SENS.npy]\n"
    "          [--chunk-envs K] [--deadline-ms MS]\n"
    "  forward MODEL.xml|HANDLE --state S.npy [--ctrl C.npy] --out QACC.npy [--spec BITS]\n"
    "  inverse MODEL.xml|HANDLE --state S.npy --qacc A.npy --out QFRC.npy   qfrc_inverse [B, nv]\n"
    "  transitionfd MODEL.xml|HANDLE --state S.npy [--ctrl C.npy] [--eps E] [--centered]\n"
    "          --out PREFIX   PREFIX_A [B,nx,nx], PREFIX_B [B,nx,nu] (+ _C, _D with sensors)\n"
    "  inversefd MODEL.xml|HANDLE --state S.npy --qacc A.npy [--eps E] [--actuation]\n"
    "          --out PREFIX   PREFIX_DfDq/DfDv/DfDa [B,nv,nv], PREFIX_DmDq [B,nv,nC]\n"
    "          (the three also take --spec NAME|BITS, --chunk-envs K, --deadline-ms MS)\n"
    "  bench [options]                         workload benchmark (torsion bench --help)\n"
    "  stats | health                          server counters as JSON\n"
    "--tls is TCP with TLS; the server's certificate must chain to --tls-ca (default\n"
    "$TORSION_TLS_CA, else the system's CAs) and name HOST; --tls-ca with --tcp means --tls.\n"
    "The default socket is $TORSIOND_SOCKET or /tmp/torsiond.sock. States are [B, nstate]\n"
    "float64 .npy in the mjSTATE_FULLPHYSICS layout unless --spec says otherwise.\n";

/* a JSON number, null when not finite */
json_t* cli_json_real(double v, int decimals) {
  if (!isfinite(v)) {
    return json_null();
  }
  if (decimals >= 0) {
    double scale = pow(10.0, decimals);
    v = round(v * scale) / scale;
  }
  return json_real(v);
}

/* print and free a document */
int cli_json_print(json_t* doc, int digits) {
  char* text = doc ? json_dumps(doc, JSON_REAL_PRECISION(digits)) : NULL;
  json_decref(doc);
  if (!text) {
    return cli_fail("out of memory printing JSON");
  }
  puts(text);
  free(text);
  return 0;
}

/* a non-negative integer */
int cli_int(const char* s, long long* out) {
  char* end;
  long long v = strtoll(s, &end, 10);
  if (!*s || *end || v < 0) {
    return -1;
  }
  *out = v;
  return 0;
}

/* a subcommand's options and positional argument */
int cli_getopt(const cliOpts* o, const struct option* longopts, cliTakeFn take, void* ctx,
               const char** model, const char* help) {
  const char* cmd = o->argv[0];
  opterr = 0;  // the messages below name the subcommand and the option
  optind = 0;  // 0: GNU getopt starts over (the global options were parsed in "+" mode)
  int opt;
  while ((opt = getopt_long(o->argc, o->argv, ":h", longopts, NULL)) != -1) {
    const char* given = o->argv[optind - 1];
    if (opt == 'h') {
      fputs(help ? help : usage, stdout);
      return -1;
    }
    if (opt == ':') {
      return cli_fail("%s: option %s needs a value", cmd, given);
    }
    if (opt == '?') {
      if (optopt) {
        return cli_fail("%s: unknown option '-%c' (see torsion --help)", cmd, optopt);
      }
      return cli_fail("%s: unknown option '%s' (see torsion --help)", cmd, given);
    }
    if (take(ctx, opt, optarg)) {
      return 1;
    }
  }
  for (; optind < o->argc; optind++) {
    if (!model || *model) {
      return cli_fail("%s: unexpected argument %s", cmd, o->argv[optind]);
    }
    *model = o->argv[optind];
  }
  return 0;
}

/* connect and Hello */
tnClient* cli_connect(const cliOpts* o) {
  char err[512];
  tnClient* c = tnc_connect_ca(o->address, o->tls_ca, err, sizeof(err));
  if (!c) {
    cli_fail("%s", err);
    return NULL;
  }
  if (tnc_hello(c, o->token, NULL)) {
    cli_fail("hello: %s", tnc_error(c));
    tnc_close(c);
    return NULL;
  }
  return c;
}

/* connect, resolve the model, read the states */
int cli_job_open(const cliOpts* o, const char* model, int spec, const char* states, cliJob* j) {
  memset(j, 0, sizeof(*j));
  if (!(j->c = cli_connect(o)))
    return 1;
  if (cli_model(j->c, model, j->handle) || tnc_model_info(j->c, j->handle, &j->info)) {
    return tnc_error(j->c)[0] ? cli_fail("%s", tnc_error(j->c)) : 1;
  }

  // states [B, nstate] (1-D: one state)
  char err[512];
  j->nstate = tnc_state_size(&j->info, spec);
  if (npy_read(states, &j->st, err, sizeof(err)))
    return cli_fail("%s", err);
  const npyArray* st = &j->st;
  j->B = st->ndim == 1 ? 1 : (long)st->shape[0];
  size_t cols = st->ndim == 1 ? st->shape[0] : (st->ndim == 2 ? st->shape[1] : 0);
  if (st->ndim < 1 || st->ndim > 2 || cols != (size_t)j->nstate) {
    return cli_fail("%s: states must be [B, %d]", states, j->nstate);
  }
  return 0;
}

/* release the job */
void cli_job_close(cliJob* j) {
  npy_free(&j->st);
  npy_free(&j->in);
  tnc_close(j->c);
  j->c = NULL;
}

/* read the token file's first line */
static char* read_token(const char* path) {
  char* t = tnc_read_file(path, NULL);
  if (t) {
    t[strcspn(t, "\r\n")] = '\0';
  }
  return t;
}

/* global options, then the command */
int main(int argc, char** argv) {
  static char addr[600];
  const char* env = getenv("TORSIOND_SOCKET");
  snprintf(addr, sizeof(addr), "unix:%s", env && env[0] ? env : "/tmp/torsiond.sock");
  cliOpts o = {addr, NULL, NULL, 0, NULL};
  char* token_buf = NULL;

  // global options, up to the command ('+': the command's own options are left to it)
  enum { G_SOCKET = 256, G_TCP, G_TLS, G_TLS_CA, G_TOKEN, G_TOKEN_FILE };
  static const struct option global_options[] = {
      {"help", no_argument, NULL, 'h'},
      {"socket", required_argument, NULL, G_SOCKET},
      {"tcp", required_argument, NULL, G_TCP},
      {"tls", required_argument, NULL, G_TLS},
      {"tls-ca", required_argument, NULL, G_TLS_CA},
      {"token", required_argument, NULL, G_TOKEN},
      {"token-file", required_argument, NULL, G_TOKEN_FILE},
      {NULL, 0, NULL, 0}};
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, "+:h", global_options, NULL)) != -1) {
    const char* given = argv[optind - 1];
    switch (opt) {
      case 'h':
        fputs(usage, stdout);
        free(token_buf);
        return 0;
      case ':':
        free(token_buf);
        return cli_fail("option %s needs a value (see torsion --help)", given);
      case '?':
        free(token_buf);
        if (optopt) {
          return cli_fail("unknown option '-%c' (see torsion --help)", optopt);
        }
        return cli_fail("unknown option '%s' (see torsion --help)", given);
      case G_SOCKET: snprintf(addr, sizeof(addr), "unix:%s", optarg); break;
      case G_TCP: snprintf(addr, sizeof(addr), "tcp:%s", optarg); break;
      case G_TLS: snprintf(addr, sizeof(addr), "tls:%s", optarg); break;
      case G_TLS_CA: o.tls_ca = optarg; break;
      case G_TOKEN: o.token = optarg; break;
      default:
        free(token_buf);
        token_buf = read_token(optarg);
        if (!token_buf) {
          return cli_fail("cannot read %s", optarg);
        }
        o.token = token_buf;
        break;
    }
  }
  int i = optind;
  if (i >= argc) {
    fputs(usage, stderr);
    return 2;
  }
  if (o.tls_ca && !strncmp(addr, "tcp:", 4)) {
    memcpy(addr, "tls", 3);  // a CA to verify against: the TCP connection is TLS
  }
  o.argc = argc - i;
  o.argv = argv + i;

  // dispatch
  const char* cmd = argv[i];
  int rc;
  if (!strcmp(cmd, "load"))
    rc = cmd_load(&o);
  else if (!strcmp(cmd, "info"))
    rc = cmd_info(&o);
  else if (!strcmp(cmd, "unload"))
    rc = cmd_unload(&o);
  else if (!strcmp(cmd, "rollout"))
    rc = cmd_rollout(&o);
  else if (!strcmp(cmd, "forward"))
    rc = cmd_forward(&o);
  else if (!strcmp(cmd, "inverse"))
    rc = cmd_inverse(&o);
  else if (!strcmp(cmd, "transitionfd"))
    rc = cmd_transitionfd(&o);
  else if (!strcmp(cmd, "inversefd"))
    rc = cmd_inversefd(&o);
  else if (!strcmp(cmd, "bench"))
    rc = cmd_bench(&o);
  else if (!strcmp(cmd, "stats"))
    rc = cmd_stats(&o);
  else if (!strcmp(cmd, "health"))
    rc = cmd_health(&o);
  else
    rc = cli_fail("unknown command '%s' (see torsion --help)", cmd);
  free(token_buf);
  return rc;
}
